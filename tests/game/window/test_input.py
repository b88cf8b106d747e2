"""Input: latched presses for the fixed steps, menu actions, bindings from TOML, gamepads."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from game.window.input import Bindings, Input, _Pad, config_path, load_bindings  # noqa: E402


def down(inp, key):
    inp.handle(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode=""))


def up(inp, key):
    inp.handle(pygame.event.Event(pygame.KEYUP, key=key, mod=0, unicode=""))


def test_a_tap_inside_one_frame_still_gives_one_step_of_jump():
    inp = Input()
    down(inp, pygame.K_SPACE)
    up(inp, pygame.K_SPACE)
    assert inp.step_buttons().jump  # the next step sees the press...
    assert not inp.step_buttons().jump  # ...exactly once


def test_a_press_between_steps_waits_for_the_next_step():
    inp = Input()
    down(inp, pygame.K_z)
    up(inp, pygame.K_z)
    # frames without a fixed step (a fast monitor) do not consume it
    assert inp.peek_buttons().jump
    assert inp.peek_buttons().jump
    assert inp.step_buttons().jump


def test_held_keys_stay_held_across_steps():
    inp = Input()
    down(inp, pygame.K_RIGHT)
    assert inp.step_buttons().right
    assert inp.step_buttons().right
    up(inp, pygame.K_RIGHT)
    assert not inp.step_buttons().right


def test_wasd_and_arrows_both_move():
    inp = Input()
    down(inp, pygame.K_a)
    assert inp.step_buttons().left
    up(inp, pygame.K_a)
    down(inp, pygame.K_DOWN)
    assert inp.step_buttons().down


def test_menu_actions_in_order_and_jump_confirms():
    inp = Input()
    inp.begin_frame()
    down(inp, pygame.K_DOWN)
    down(inp, pygame.K_SPACE)
    down(inp, pygame.K_ESCAPE)
    assert inp.actions == ["down", "confirm", "pause"]
    inp.begin_frame()
    assert inp.actions == []


def test_key_repeat_scrolls_menus_but_is_no_new_press():
    inp = Input()
    down(inp, pygame.K_UP)
    inp.step_buttons()
    inp.begin_frame()
    down(inp, pygame.K_UP)  # repeat
    assert inp.actions == ["up"]


def test_clear_ignores_a_held_confirm_until_released():
    inp = Input()
    down(inp, pygame.K_SPACE)
    inp.clear()
    assert not inp.step_buttons().jump
    up(inp, pygame.K_SPACE)
    down(inp, pygame.K_SPACE)
    assert inp.step_buttons().jump


def test_focus_loss_releases_everything():
    inp = Input()
    down(inp, pygame.K_RIGHT)
    inp.step_buttons()
    inp.handle(pygame.event.Event(pygame.WINDOWFOCUSLOST))
    assert not inp.step_buttons().right


def test_bindings_from_toml_override_only_what_they_name(tmp_path):
    f = tmp_path / "input.toml"
    f.write_text('[keyboard]\njump = ["x", "up"]\n[gamepad]\njump = ["b"]\ndeadzone = 0.25\n')
    b, msg = load_bindings(f)
    assert msg is None
    assert b.keys["jump"] == [pygame.K_x, pygame.K_UP]
    assert b.keys["left"] == [pygame.K_LEFT, pygame.K_a]  # untouched default
    assert b.pad["jump"] == ["b"] and b.deadzone == 0.25
    inp = Input(b)
    down(inp, pygame.K_x)
    assert inp.step_buttons().jump
    up(inp, pygame.K_x)
    down(inp, pygame.K_SPACE)
    assert not inp.step_buttons().jump


def test_bad_bindings_file_is_one_line_and_defaults_stay(tmp_path):
    f = tmp_path / "input.toml"
    for text, words in (('[keyboard]\njump = ["nokey"]\n', ("keyboard.jump", "nokey")),
                        ('[keyboard]\njunp = ["z"]\n', ("junp",)),
                        ("[keyboard\n", ("TOML",)),
                        ('[gamepad]\njump = ["q"]\n', ("gamepad.jump", "'q'"))):
        f.write_text(text)
        b, msg = load_bindings(f)
        assert msg and "\n" not in msg and str(f) in msg
        for w in words:
            assert w in msg
        assert b.keys == Bindings.defaults().keys


def test_missing_bindings_file_is_silent(tmp_path):
    b, msg = load_bindings(tmp_path / "none.toml")
    assert msg is None and b.keys == Bindings.defaults().keys


def test_config_path_honours_env(monkeypatch, tmp_path):
    monkeypatch.setenv("TILEFEEL_CONFIG_DIR", str(tmp_path))
    assert config_path() == tmp_path / "input.toml"


class FakeJoystick:
    name = "Fake pad"


def test_generic_joystick_buttons_hat_and_stick():
    inp = Input()
    inp.pads[7] = _Pad(FakeJoystick(), False)
    inp.handle(pygame.event.Event(pygame.JOYBUTTONDOWN, instance_id=7, button=0))
    inp.handle(pygame.event.Event(pygame.JOYBUTTONUP, instance_id=7, button=0))
    assert inp.step_buttons().jump  # latched like the keyboard
    inp.handle(pygame.event.Event(pygame.JOYHATMOTION, instance_id=7, hat=0, value=(-1, 0)))
    assert inp.step_buttons().left
    inp.handle(pygame.event.Event(pygame.JOYHATMOTION, instance_id=7, hat=0, value=(0, 0)))
    inp.handle(pygame.event.Event(pygame.JOYAXISMOTION, instance_id=7, axis=0, value=0.9))
    b = inp.step_buttons()
    assert b.right and not b.left
    inp.handle(pygame.event.Event(pygame.JOYAXISMOTION, instance_id=7, axis=0, value=0.1))
    assert not inp.step_buttons().right


def test_controller_buttons_map_by_name():
    inp = Input()
    inp.pads[3] = _Pad(FakeJoystick(), True)
    inp.begin_frame()
    inp.handle(pygame.event.Event(pygame.CONTROLLERBUTTONDOWN, instance_id=3,
                                  button=pygame.CONTROLLER_BUTTON_START))
    assert inp.actions == ["pause"]
    inp.handle(pygame.event.Event(pygame.CONTROLLERBUTTONDOWN, instance_id=3,
                                  button=pygame.CONTROLLER_BUTTON_A))
    assert inp.step_buttons().jump


def test_unplugging_a_pad_reports_it():
    inp = Input()
    inp.pads[5] = _Pad(FakeJoystick(), True)
    inp.begin_frame()
    inp.handle(pygame.event.Event(pygame.CONTROLLERDEVICEREMOVED, instance_id=5))
    assert inp.actions == ["pad_removed"] and not inp.pads


# -- hostile controls files (issue 10): one line and the defaults, never a crash ------------------------

@pytest.mark.parametrize("raw, fragment", [
    ('[keyboard]\njump = ["é"]\n'.encode("latin-1"), "line 2: the controls file is not UTF-8"),
    (b"gamepad = 5\n", "gamepad must be a table"),  # was TypeError: 'int' object is not iterable
    (b"gamepad = 'ab'\n", "gamepad must be a table"),
    (b"keyboard = [1]\n", "keyboard must be a table"),
    (b"[keyboard]\njump = " + b"[" * 600 + b"]" * 600 + b"\n", "nested too deeply"),
    (b"[keyboard]\njump = " + b"9" * 5000 + b"\n", "thousands of digits"),
    (b"[gamepad]\ndeadzone = nan\n", "deadzone"),
    (b'[keyboard]\njump = ["\\u0000"]\n', "'\\x00'"),
    (b'[keyboard]\njump = [1, 2]\n', "keyboard.jump must be a name or a list of names"),
    (b'[keyboard]\n"\\u001b[2J" = ["x"]\n', "unknown action keyboard.\\x1b[2J"),
    (b"[gamepad]\njump = " + b'"' + b"q" * 10_000 + b'"\n', "unknown button 'qqqq"),
])
def test_a_broken_controls_file_is_one_line_and_the_defaults(tmp_path, raw, fragment):
    f = tmp_path / "input.toml"
    f.write_bytes(raw)
    b, msg = load_bindings(f)
    assert msg and "\n" not in msg and str(f) in msg and fragment in msg, msg
    assert msg.isprintable() and len(msg) < 400
    assert b.keys == Bindings.defaults().keys and b.pad == Bindings.defaults().pad


def test_an_empty_action_list_warns_and_keeps_that_actions_default(tmp_path):
    f = tmp_path / "input.toml"
    f.write_text('[keyboard]\njump = []\nleft = ["j"]\n[gamepad]\npause = []\n')
    b, msg = load_bindings(f)
    assert msg == (f"{f}: keyboard.jump and gamepad.pause are empty lists (that could never be pressed); "
                   "keeping the default for them")
    assert b.keys["jump"] == Bindings.defaults().keys["jump"]  # the player can still jump
    assert b.keys["left"] == [pygame.K_j] and b.pad["pause"] == ["start"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_a_fifo_or_an_oversized_controls_file_is_refused(tmp_path):
    fifo = tmp_path / "input.toml"
    os.mkfifo(fifo)
    b, msg = load_bindings(fifo)
    assert "FIFO" in msg and b.keys == Bindings.defaults().keys
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * 70_000 + "\n")
    b, msg = load_bindings(big)
    assert "over the 64 KB limit" in msg


@pytest.mark.parametrize("key", [pygame.K_x, pygame.K_LSHIFT, pygame.K_j])
def test_x_left_shift_and_j_dash(key):
    inp = Input()
    down(inp, key)
    down(inp, pygame.K_RIGHT)
    b = inp.step_buttons()
    assert b.dash and b.right and not b.jump


def test_the_pad_dashes_with_x_and_dash_is_rebindable(tmp_path):
    inp = Input()
    inp.pads[3] = _Pad(FakeJoystick(), True)
    inp.handle(pygame.event.Event(pygame.CONTROLLERBUTTONDOWN, instance_id=3, button=pygame.CONTROLLER_BUTTON_X))
    assert inp.step_buttons().dash
    path = tmp_path / "input.toml"
    path.write_text('[keyboard]\ndash = ["c"]\n[gamepad]\ndash = ["rightshoulder"]\n', encoding="utf-8")
    bindings, problem = load_bindings(path)
    assert problem is None
    assert bindings.keys["dash"] == [pygame.K_c] and bindings.pad["dash"] == ["rightshoulder"]
    inp = Input(bindings)
    down(inp, pygame.K_x)
    assert not inp.step_buttons().dash
    down(inp, pygame.K_c)
    assert inp.step_buttons().dash


def test_every_action_can_be_rebound_and_swaps_within_its_group():
    """Each action is in exactly one swap group (dash came after the groups and had none: rebinding it
    raised StopIteration)."""
    from game.window.input import ACTIONS, GROUPS, rebind

    assert sorted(a for g in GROUPS for a in g) == sorted(ACTIONS)
    base = Bindings.from_dict({})
    for action in ACTIONS:
        new, said = rebind(base, "keyboard", action, "c")
        assert new.keys[action][0] == pygame.K_c and said.endswith(": C")
    new, said = rebind(base, "keyboard", "dash", "space")  # jump's key: the two swap
    assert "swapped with Jump" in said and pygame.K_SPACE not in new.keys["jump"]

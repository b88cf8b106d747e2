"""Button prompts follow the device in use and the bindings in force (signs, menus, pause)."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from types import SimpleNamespace  # noqa: E402

import pygame  # noqa: E402

from game.window.input import Bindings, rebind  # noqa: E402
from game.window.prompts import button, say  # noqa: E402


def app(device="keyboard", bindings=None):
    return SimpleNamespace(input=SimpleNamespace(device=device, bindings=bindings or Bindings.defaults()))


def test_a_sign_names_the_keys_on_the_keyboard_and_the_buttons_on_a_pad():
    sign = "Arrows: run. Space: jump"
    assert say(app(), sign) == "[Arrows]: run. [Space]: jump"
    assert say(app("gamepad"), sign) == "(D-pad): run. (A): jump"


def test_tokens_and_words_follow_the_bindings_in_force():
    bindings, _ = rebind(Bindings.defaults(), "keyboard", "jump", "c")
    assert say(app(bindings=bindings), "Space: jump, {dash}: dash") == "[C]: jump, [X]: dash"
    assert say(app(), "Enter: choose   {pause}: resume   Esc: back") == "[Enter]: choose   [Esc]: resume   [Esc]: back"
    assert say(app("gamepad"), "Enter: choose   {pause}: resume   Esc: back") == \
        "(A): choose   (Start): resume   (B): back"


def test_words_inside_other_words_are_left_alone_and_no_input_still_reads():
    assert say(app(), "Spacey Escape") == "Spacey Escape"
    assert button(SimpleNamespace(), "jump") == "[Space]"
    assert pygame.key.name(pygame.K_SPACE) == "space"


def test_the_pause_menu_and_the_sign_draw_with_the_pad_prompts(tmp_path):
    from game.window.scenes.play import PlayScene

    scene = PlayScene.__new__(PlayScene)
    scene.app, scene.msg = app("gamepad"), "Down + Jump: drop through. Space!"
    assert scene.sign_text == "Down + Jump: drop through. (A)!"


def _colours(surf):
    return {tuple(surf.get_at((x, y)))[:3] for x in range(surf.get_width()) for y in range(surf.get_height())
            if surf.get_at((x, y)).a}


def test_prompts_are_drawn_as_key_caps_and_pad_buttons_and_other_brackets_stay_text():
    from game.window import ui

    keys, pad = ui.text("[Space]: jump"), ui.text("(A): jump  (B): back  (Start): pause")
    assert ui.CAP in _colours(keys) and ui.CAP_EDGE in _colours(keys)  # a key cap behind the key's name
    assert {ui.FACE_COLOURS["A"], ui.FACE_COLOURS["B"], ui.PILL} <= _colours(pad)  # coloured faces, a pill
    for s in ("[Space]: jump", "(A): jump  (B): back  (Start): pause", "(D-pad) [Arrows] [C]"):
        assert ui.text(s).get_width() == ui.text_width(s) + 1  # (the shadow's column): menus centre it right
    plain = ("Auto (2x)", "[0..16]", "(hidden)", "a [b, c] d")
    for s in plain:
        assert not _colours(ui.text(s)) & {ui.CAP, ui.PILL, *ui.FACE_COLOURS.values()}, s
        assert [k for k, _ in ui._segments(s)] == ["text"], s
    assert ui.text_width("[Space]") > ui.text_width("Space")  # the cap is wider than the word it holds

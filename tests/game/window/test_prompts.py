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

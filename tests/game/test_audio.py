"""Sound effects: synthesized, short, audible, never clipping; the game never crashes without audio."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import numpy as np  # noqa: E402
import pygame  # noqa: E402
import pytest  # noqa: E402

from game import audio as audio_mod  # noqa: E402
from game.audio import SAMPLE_RATE, Audio  # noqa: E402

REQUIRED = {"jump", "land", "coin", "checkpoint", "death", "goal", "menu_move", "menu_confirm"}


@pytest.fixture(scope="module")
def waves():
    return Audio.sounds()


def test_every_required_effect_exists(waves):
    assert REQUIRED <= set(waves)
    assert set(waves) == set(Audio(enabled=False).names)


def test_effects_are_short_audible_and_do_not_clip(waves):
    for name, w in waves.items():
        assert w.dtype == np.float32 and w.ndim == 1, name
        seconds = len(w) / SAMPLE_RATE
        assert 0.02 < seconds <= 1.2, f"{name}: {seconds:.2f} s"
        assert np.abs(w).max() <= 0.95, f"{name} clips"
        assert np.sqrt(np.mean(w.astype(np.float64) ** 2)) > 0.05, f"{name} is too quiet"


def test_effects_start_and_end_without_clicks(waves):
    for name, w in waves.items():
        assert abs(float(w[0])) < 0.05 and abs(float(w[-1])) < 0.05, name


def test_synthesis_is_deterministic():
    a, b = Audio.sounds(), Audio.sounds()
    assert all(np.array_equal(a[k], b[k]) for k in a)


def test_plays_with_the_dummy_driver():
    pygame.mixer.quit()
    audio = Audio()
    for name in audio.names:
        audio.play(name)
    assert audio.toggle_mute() is True
    audio.play("jump")  # muted: no-op
    assert audio.toggle_mute() is False
    pygame.mixer.quit()


def test_no_audio_device_means_silence_not_a_crash(monkeypatch):
    pygame.mixer.quit()

    def broken_init(*args, **kwargs):
        raise pygame.error("No available audio device")

    monkeypatch.setattr(pygame.mixer, "init", broken_init)
    audio = Audio()
    assert audio.available is False
    assert "audio device" in audio.reason
    for name in audio.names:
        audio.play(name)
    audio.toggle_mute()
    audio.stop()


def test_disabled_audio_is_silent():
    audio = Audio(enabled=False)
    assert audio.available is False
    audio.play("coin")


def test_unknown_sound_names_the_known_ones():
    with pytest.raises(KeyError, match="known sounds: jump"):
        Audio(enabled=False).play("jmup")


def test_mixer_formats_convert_in_range():
    w = np.array([-1.0, 0.0, 1.0], np.float32)
    assert audio_mod._to_mixer(w, -16, 2, 1.0).shape == (3, 2)
    assert audio_mod._to_mixer(w, -16, 1, 1.0).tolist() == [-32767, 0, 32767]
    u8 = audio_mod._to_mixer(w, 8, 1, 1.0)
    assert u8.dtype == np.uint8 and u8.min() >= 1 and u8.max() <= 255
    assert audio_mod._to_mixer(w, 32, 1, 0.5).dtype == np.float32


def test_music_loop_is_quiet_and_loops_cleanly():
    music = audio_mod.synthesize_music()
    assert 5.0 < len(music) / SAMPLE_RATE < 20.0
    assert np.abs(music).max() <= 0.6
    assert abs(float(music[0])) < 0.05 and abs(float(music[-1])) < 0.05


def test_music_follows_mute_and_never_crashes(monkeypatch):
    pygame.mixer.quit()
    audio = Audio()
    audio.start_music()
    assert audio.music_playing
    audio.toggle_mute()
    audio.toggle_mute()
    audio.stop_music()
    assert not audio.music_playing
    pygame.mixer.quit()
    monkeypatch.setattr(
        pygame.mixer, "init", lambda *a, **k: (_ for _ in ()).throw(pygame.error("no device"))
    )
    silent = Audio()
    silent.start_music()
    silent.stop_music()

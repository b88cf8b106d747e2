"""Sound effects: synthesized, short, audible, never clipping; the game never crashes without audio."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import numpy as np  # noqa: E402
import pygame  # noqa: E402
import pytest  # noqa: E402

from game.window import audio as audio_mod  # noqa: E402
from game.window.audio import SAMPLE_RATE, Audio  # noqa: E402

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
    audio.play_music("title")
    assert audio.music == "title"
    audio.toggle_mute()
    audio.toggle_mute()
    audio.play_music(None)
    assert audio.music is None
    with pytest.raises(KeyError, match="known loops: title"):
        audio.play_music("jazz")
    pygame.mixer.quit()
    monkeypatch.setattr(
        pygame.mixer, "init", lambda *a, **k: (_ for _ in ()).throw(pygame.error("no device"))
    )
    silent = Audio()
    silent.play_music("meadow")
    silent.duck(True)
    silent.set_volumes(music=0.2, effects=0.4)
    silent.play_music(None)


# -- loudness: balanced by ear, not by peak ----------------------------------------------------------------

def test_effects_are_balanced_by_perceived_loudness(waves):
    loud = {name: audio_mod.loudness(w) for name, w in waves.items()}
    for name, target in audio_mod.LOUDNESS.items():
        assert abs(loud[name] - target) < 0.5, f"{name}: {loud[name]:.1f} dB, target {target}"
    # a landing thump, heard a hundred times a level, well under the goal fanfare; rewards over chatter
    assert loud["land"] + 12 < loud["goal"]
    assert loud["land"] < loud["jump"] < loud["coin"] < loud["checkpoint"] < loud["goal"]
    assert loud["menu_move"] < loud["menu_confirm"] and loud["pause"] < loud["death"]
    peaks = {round(float(np.abs(w).max()), 2) for w in waves.values()}
    assert len(peaks) > 3, "every effect at the same peak: normalized by peak, not by loudness"


def test_loudness_measure_follows_the_ear():
    sr = SAMPLE_RATE
    t = np.arange(int(0.5 * sr)) / sr
    tone = 0.5 * np.sin(2 * np.pi * 1000 * t)
    # BS.1770 calibration: a 1 kHz sine at full scale reads about -3 LUFS; half the amplitude 6 dB less
    assert abs(audio_mod.loudness(2 * tone) + 3.0) < 0.8
    assert abs(audio_mod.loudness(tone) - audio_mod.loudness(2 * tone) + 6.02) < 0.05
    # the ear hardly hears 30 Hz: at equal amplitude it reads much quieter than 3 kHz
    low, high = (0.5 * np.sin(2 * np.pi * f * t) for f in (30, 3000))
    assert audio_mod.loudness(low) + 6 < audio_mod.loudness(high)
    # a short blip counts as padded to the 400 ms window
    blip = tone[: int(0.1 * sr)]
    assert audio_mod.loudness(blip) < audio_mod.loudness(tone) - 5


@pytest.fixture(scope="module")
def loops():
    return {name: audio_mod.synthesize_music(name) for name in audio_mod.LOOPS}


def test_every_loop_is_its_own_tune_under_the_effects_and_loops_cleanly(loops):
    assert {"title", "meadow", "hills", "climb", "finale", "ending"} <= set(loops)
    for name, music in loops.items():
        assert music.dtype == np.float32 and 5.0 < len(music) / SAMPLE_RATE < 20.0, name
        assert abs(audio_mod.loudness(music, window=None) - audio_mod.MUSIC_LOUDNESS) < 0.3, name
        assert audio_mod.MUSIC_LOUDNESS < audio_mod.LOUDNESS["jump"]
        assert np.abs(music).max() <= audio_mod.PEAK, name
        assert abs(float(music[0])) < 0.01 and abs(float(music[-1])) < 0.01, f"{name} clicks at the seam"
    names = sorted(loops)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            n = min(len(loops[a]), len(loops[b]))
            x, y = loops[a][:n].astype(np.float64), loops[b][:n].astype(np.float64)
            assert abs(np.corrcoef(x, y)[0, 1]) < 0.5, f"{a} and {b} sound alike"


def test_a_new_loop_fades_in_on_the_other_channel_while_the_old_fades_out():
    pygame.mixer.quit()
    audio = Audio(music_volume=0.5, effects_volume=0.6)
    try:
        assert audio.available, audio.reason
        audio.play_music("title")
        first = audio._channels[0]
        assert first.get_sound() is audio._loops["title"]
        audio.play_music("meadow")
        second = audio._channels[0]
        assert second is not first and second.get_sound() is audio._loops["meadow"]
        assert first.get_busy()  # still fading out
        audio.play_music("meadow")  # the same loop again: nothing restarts
        assert audio._channels[0] is second
        assert audio._loops["meadow"].get_volume() == pytest.approx(0.5, abs=0.01)
        audio.duck(True)
        assert audio._loops["meadow"].get_volume() == pytest.approx(0.5 * Audio.DUCK, abs=0.01)
        audio.duck(False)
        audio.set_volumes(effects=0.25)
        assert audio._sounds["coin"].get_volume() == pytest.approx(0.25, abs=0.01)
    finally:
        pygame.mixer.quit()


def test_the_level_list_knows_every_music_loop_by_name():
    """files/catalog.py checks a map's ``music`` property against MUSIC_LOOPS without importing the window;
    the names must be exactly the loops audio plays."""
    from game.files.catalog import FINALE, LEVEL_MUSIC, MUSIC_LOOPS

    assert MUSIC_LOOPS == tuple(audio_mod.LOOPS)
    assert set(LEVEL_MUSIC) | {FINALE} <= set(MUSIC_LOOPS)

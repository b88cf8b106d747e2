"""Sound effects: synthesized, short, audible, never clipping; the game never crashes without audio."""

import math
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
    assert 10.0 < len(music) / SAMPLE_RATE < 30.0
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
        assert music.dtype == np.float32 and 10.0 < len(music) / SAMPLE_RATE < 30.0, name
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
        audio.play("jump")  # the effects volume is the gain a voice starts at
        assert audio._voices.voices[-1].channel.get_volume() == pytest.approx(0.25, abs=0.01)
    finally:
        pygame.mixer.quit()


def test_the_level_list_knows_every_music_loop_by_name():
    """files/catalog.py checks a map's ``music`` property against MUSIC_LOOPS without importing the window;
    the names must be exactly the loops audio plays."""
    from game.files.catalog import FINALE, LEVEL_MUSIC, MUSIC_LOOPS

    assert MUSIC_LOOPS == tuple(audio_mod.LOOPS)
    assert set(LEVEL_MUSIC) | {FINALE} <= set(MUSIC_LOOPS)


def test_every_loop_has_two_sections_that_differ(loops):
    for name, music in loops.items():
        assert len(audio_mod.LOOPS[name].sections()) == 2, name
        half = len(music) // 2
        a, b = music[:half].astype(np.float64), music[half: 2 * half].astype(np.float64)
        assert abs(np.corrcoef(a, b)[0, 1]) < 0.6, f"{name}: section B sounds like A"


# -- mixing: the sum of every voice stays under full scale -------------------------------------------------

class FakeChannel:
    """Records what a mixer channel was told, to render the mix offline."""

    def __init__(self, clock):
        self.clock, self.log, self.volume = clock, [], 1.0

    def set_volume(self, v):
        self.volume = v

    def get_volume(self):
        return self.volume

    def play(self, sound):
        self.log.append(["play", self.clock(), sound, self.volume, None, None])

    def _end(self, how):
        if self.log and self.log[-1][4] is None:
            self.log[-1][4:] = [how, self.clock()]

    def stop(self):  # also cuts a fade-out short, as Mix_HaltChannel does
        last = self.log[-1] if self.log else None
        if last and last[4] == "fade" and self.clock() < last[5] + audio_mod.FADE:
            last[4:] = ["stop", self.clock()]
        self._end("stop")

    def fadeout(self, ms):
        self._end("fade")


def _render(channels, waves, sr, seconds, rng):
    """The offline mix of what the fake channels played, as SDL_mixer does it: a command takes effect at
    the start of the next buffer the mixer fills (every command of one moment at the same one); a
    fade-out is a linear ramp over FADE."""
    out = np.zeros(int(seconds * sr) + sr)
    period = audio_mod.BUFFER / audio_mod.SAMPLE_RATE
    phase = rng.uniform(0, period)

    def applied(t):
        return int((math.ceil((t - phase) / period) * period + phase) * sr)

    for ch in channels:
        for _, t0, key, gain, how, t1 in ch.log:
            w = waves[key].astype(np.float64) * gain
            at = applied(t0)
            if how is not None:
                cut = max(0, applied(t1) - at)
                if how == "fade":
                    n = int(audio_mod.FADE * sr)
                    ramp = np.concatenate([np.ones(cut), np.linspace(1, 0, n)])
                    w = w[: len(ramp)] * ramp[: len(w)]
                else:
                    w = w[:cut]
            out[at: at + len(w)] += w[: len(out) - at]
    return out


@pytest.mark.parametrize("seed", range(6))
def test_voices_never_sum_over_full_scale_in_a_storm_of_effects(seed):
    sr = 8000
    waves = audio_mod.synthesize(sr)
    waves.update({("coin", i): w for i, w in enumerate(audio_mod.coin_run(sr))})
    tails = {k: audio_mod.tail_peaks(w, sr) for k, w in waves.items()}
    now = [0.0]
    channels = [FakeChannel(lambda: now[0]) for _ in range(audio_mod.EFFECT_VOICES)]
    voices = audio_mod.Voices(channels, lambda: now[0])
    rng = np.random.default_rng(seed)
    music = 0.42 * 0.8  # the loudest loop's peak at full music volume, under the effects
    names = list(audio_mod.NAMES)
    t = 0.0
    while t < 8.0:
        t += float(rng.exponential(0.04))  # ~25 effects a second: far more than any level asks for
        now[0] = t
        name = names[rng.integers(len(names))]
        key = (name, int(rng.integers(len(audio_mod.COIN_STEPS)))) if name == "coin" else name
        voices.start(name, key, tails[key], 1.0, music)
    mix = _render(channels, waves, sr, 9.0, rng)
    assert np.abs(mix).max() + music <= audio_mod.CEILING + 1e-9
    plays = sum(len(c.log) for c in channels)
    assert plays > 60, "the storm was mostly dropped"


def test_one_effect_never_stacks_on_itself():
    sr = 8000
    waves = audio_mod.synthesize(sr)
    now = [0.0]
    channels = [FakeChannel(lambda: now[0]) for _ in range(audio_mod.EFFECT_VOICES)]
    voices = audio_mod.Voices(channels, lambda: now[0])
    tail = audio_mod.tail_peaks(waves["checkpoint"], sr)
    for i in range(36):  # a checkpoint asked for every frame for 0.6 s: one chime, not 36 stacked
        now[0] = i / 60
        voices.start("checkpoint", "checkpoint", tail, 1.0, 0.3)
    assert sum(len(c.log) for c in channels) == 1
    tail = audio_mod.tail_peaks(waves["jump"], sr)
    for i in range(10):  # a jump replaces the jump before it (fading out), never two at once
        now[0] = 2.0 + i * 0.05
        voices.start("jump", "jump", tail, 1.0, 0.3)
        assert sum(1 for v in voices.active(now[0]) if v.until == float("inf")) == 1


def test_a_string_of_coins_is_a_rising_run_on_one_voice():
    pygame.mixer.quit()
    now = [100.0]
    audio = Audio(clock=lambda: now[0])
    try:
        assert audio.available, audio.reason
        heard = []
        for _ in range(12):
            now[0] += 0.15
            audio.play("coin")
            heard.append(audio._coin[1])
            coins = [v for v in audio._voices.active(now[0]) if v.name == "coin" and v.until == float("inf")]
            assert len(coins) == 1
            assert coins[0].channel.get_sound() is audio._sounds[("coin", heard[-1])]
        top = len(audio_mod.COIN_STEPS) - 1
        assert heard == list(range(top + 1)) + [top] * (12 - top - 1)
        now[0] += audio_mod.COIN_RUN + 0.1  # a pause: the next string starts from the bottom again
        audio.play("coin")
        assert audio._coin[1] == 0
        for name in audio.names * 3:  # everything at once: never more voices than channels
            audio.play(name)
        assert audio.voices <= audio_mod.EFFECT_VOICES
    finally:
        pygame.mixer.quit()


def test_effects_lower_the_music_a_little_and_it_comes_back():
    pygame.mixer.quit()
    now = [50.0]
    audio = Audio(music_volume=1.0, effects_volume=1.0, clock=lambda: now[0])
    try:
        assert audio.available, audio.reason
        audio.play_music("meadow")
        loop = audio._loops["meadow"]
        assert loop.get_volume() == pytest.approx(1.0, abs=0.01)
        audio.play("goal")
        assert loop.get_volume() == pytest.approx(audio_mod.MUSIC_UNDER_EFFECTS, abs=0.01)
        audio.update()  # the fanfare still rings: the music stays down
        assert loop.get_volume() == pytest.approx(audio_mod.MUSIC_UNDER_EFFECTS, abs=0.01)
        now[0] += 3.0
        for _ in range(10):
            audio.update()
        assert loop.get_volume() == pytest.approx(1.0, abs=0.01)
        audio.duck(True)  # the pause menu's duck stays what it was: -9.5 dB
        assert 20 * np.log10(loop.get_volume()) == pytest.approx(-9.1, abs=0.5)
    finally:
        pygame.mixer.quit()


def test_the_real_game_does_not_clip_where_it_used_to(tmp_path):
    """Level 8, walking right 1.2 s then standing: on the old mixer 20,594 clipped samples (stacked
    checkpoint chimes). Recorded from the real app with SDL's disk driver, at full volumes."""
    from tools.audio_check import measure, record

    script = tmp_path / "walk.txt"
    script.write_text("level 08_crumbling_heights.tmx\n72 right\n150 -\n")
    raw = tmp_path / "out.raw"
    record(None, script, raw, volumes=(1.0, 1.0))
    m = measure(np.fromfile(raw, "<i2"))
    assert m["seconds"] > 2.0, m
    assert m["peak"] > 3000, f"the recording is nearly silent: {m}"
    assert m["clipped"] == 0, m


def test_a_wall_slide_asked_every_step_scrapes_at_most_every_retrigger():
    sr = 8000
    waves = audio_mod.synthesize(sr)
    now = [0.0]
    channels = [FakeChannel(lambda: now[0]) for _ in range(audio_mod.EFFECT_VOICES)]
    voices = audio_mod.Voices(channels, lambda: now[0])
    tail = audio_mod.tail_peaks(waves["wall_slide"], sr)
    for i in range(120):  # two seconds of sliding at 60 Hz: an event every step
        now[0] = i / 60
        voices.start("wall_slide", "wall_slide", tail, 1.0, 0.3)
        assert sum(1 for v in voices.active(now[0]) if v.until == float("inf")) <= 1  # one voice at a time
    plays = sum(len(c.log) for c in channels)
    assert 2 / audio_mod.RETRIGGER["wall_slide"] - 2 <= plays <= 2 / audio_mod.RETRIGGER["wall_slide"] + 1
    loud = {k: audio_mod.loudness(w, sr) for k, w in waves.items()}
    assert loud["wall_slide"] < loud["land"] < loud["wall_jump"]  # a scrape heard all slide long is the quietest

"""Sound effects synthesized with numpy at start-up, played through pygame's mixer.

    audio = Audio()             # never raises: without an audio device it is silent
    audio.play("jump")
    audio.toggle_mute()         # -> True when now muted (also silences the music)
    audio.start_music()         # optional background loop; stop_music()
    audio.available             # False when the mixer could not start (CI, no device)

Call ``pre_init()`` before ``pygame.init()`` for a small mixer buffer (low latency). Every sound is
built from oscillators (square, triangle, noise), pitch sweeps and envelopes; ``synthesize()`` returns
the raw float waveforms (mono, -1..1, ``SAMPLE_RATE`` Hz) without touching pygame, for tests and tools.
"""

from __future__ import annotations

import contextlib
import os
import sys

import numpy as np

SAMPLE_RATE = 44100
BUFFER = 512  # mixer buffer in samples: ~12 ms at 44.1 kHz
PEAK = 0.7  # every effect is normalized to this peak (headroom for overlapping sounds)


# ----- oscillators and envelopes (pure numpy) ---------------------------------------------------
def _t(seconds: float, sr: int) -> np.ndarray:
    return np.arange(int(seconds * sr)) / sr


def _phase(freq, n: int, sr: int) -> np.ndarray:
    """Phase in cycles for a constant or per-sample frequency (so sweeps stay click-free)."""
    f = np.broadcast_to(np.asarray(freq, dtype=np.float64), (n,))
    return np.cumsum(f) / sr


def square(freq, n: int, sr: int, duty: float = 0.5) -> np.ndarray:
    return np.where((_phase(freq, n, sr) % 1.0) < duty, 1.0, -1.0)


def triangle(freq, n: int, sr: int) -> np.ndarray:
    return 2.0 * np.abs(2.0 * (_phase(freq, n, sr) % 1.0) - 1.0) - 1.0


def noise(n: int, sr: int, rate: float = 8000.0, seed: int = 7) -> np.ndarray:
    """White noise held at ``rate`` Hz (lower rate = darker, 8-bit style)."""
    rng = np.random.default_rng(seed)
    hold = max(1, int(sr / rate))
    return np.repeat(rng.uniform(-1, 1, n // hold + 1), hold)[:n]


def sweep(f0: float, f1: float, n: int) -> np.ndarray:
    """Exponential pitch sweep from f0 to f1 Hz over n samples."""
    return f0 * (f1 / f0) ** np.linspace(0.0, 1.0, n)


def envelope(
    n: int, sr: int, attack: float = 0.005, decay: float = 0.1, sustain: float = 0.0, release: float = 0.02
) -> np.ndarray:
    """Attack ramp, exponential decay towards ``sustain``, linear release to silence at the end."""
    t = np.arange(n) / sr
    env = sustain + (1.0 - sustain) * np.exp(-np.maximum(t - attack, 0) / max(decay, 1e-4))
    a = max(1, int(attack * sr))
    env[:a] *= np.linspace(0.0, 1.0, a)
    r = min(n, max(1, int(release * sr)))
    env[n - r :] *= np.linspace(1.0, 0.0, r)
    return env


def _smooth(x: np.ndarray, taps: int = 3) -> np.ndarray:
    """A tiny moving-average low-pass: takes the fizz off raw square waves."""
    return np.convolve(x, np.ones(taps) / taps, mode="same")


def _note(
    freq: float,
    seconds: float,
    sr: int,
    wave: str = "square",
    duty: float = 0.5,
    decay: float = 0.12,
    sustain: float = 0.0,
) -> np.ndarray:
    n = int(seconds * sr)
    osc = square(freq, n, sr, duty) if wave == "square" else triangle(freq, n, sr)
    return osc * envelope(n, sr, decay=decay, sustain=sustain)


def _concat(*parts: np.ndarray) -> np.ndarray:
    return np.concatenate(parts)


def _mix(*parts: np.ndarray) -> np.ndarray:
    out = np.zeros(max(len(p) for p in parts))
    for p in parts:
        out[: len(p)] += p
    return out


def _normalize(x: np.ndarray, peak: float = PEAK) -> np.ndarray:
    m = float(np.max(np.abs(x)))
    return (x * (peak / m) if m > 0 else x).astype(np.float32)


NOTE = {
    "C5": 523.25,
    "E5": 659.25,
    "G5": 783.99,
    "A5": 880.0,
    "B5": 987.77,
    "C6": 1046.5,
    "D6": 1174.66,
    "E6": 1318.51,
    "G6": 1567.98,
    "C7": 2093.0,
}


def synthesize(sr: int = SAMPLE_RATE) -> dict[str, np.ndarray]:
    """All effects as mono float32 arrays in -1..1 at ``sr`` Hz."""
    s: dict[str, np.ndarray] = {}

    n = int(0.16 * sr)  # jump: a quick rising chirp
    s["jump"] = (
        _smooth(square(sweep(240, 640, n), n, sr, 0.25) * envelope(n, sr, decay=0.09, release=0.03)) * 0.8
    )

    n = int(0.09 * sr)  # land: a soft thump
    thump = triangle(sweep(140, 45, n), n, sr) * envelope(n, sr, decay=0.04)
    dust = _smooth(noise(n, sr, 3000, seed=1), 6) * envelope(n, sr, attack=0.002, decay=0.02)
    s["land"] = thump + 0.5 * dust

    s["coin"] = _smooth(
        _concat(
            _note(NOTE["B5"], 0.06, sr, duty=0.5, decay=0.5, sustain=0.6),
            _note(NOTE["E6"], 0.24, sr, duty=0.5, decay=0.09),
        )
    )

    arp = [_note(NOTE[k], 0.07, sr, "square", 0.25, decay=0.2, sustain=0.4) for k in ("C5", "E5", "G5")]
    last = _mix(
        _note(NOTE["C6"], 0.32, sr, "square", 0.25, decay=0.12),
        0.6 * _note(NOTE["C5"], 0.32, sr, "triangle", decay=0.2),
    )
    s["checkpoint"] = _smooth(_concat(*arp, last))

    n = int(0.55 * sr)  # death: a falling wobble after a crunch
    t = np.arange(n) / sr
    wob = sweep(620, 70, n) * (1 + 0.06 * np.sin(2 * np.pi * 14 * t))
    fall = square(wob, n, sr, 0.5) * envelope(n, sr, decay=0.3, release=0.05)
    crunch = noise(n, sr, 5000, seed=3) * envelope(n, sr, decay=0.05)
    s["death"] = _smooth(0.7 * fall + 0.6 * crunch, 4)

    melody = [("G5", 0.09), ("C6", 0.09), ("E6", 0.09), ("G6", 0.09), ("E6", 0.09)]
    lead = _concat(
        *[_note(NOTE[k], d, sr, "square", 0.25, decay=0.2, sustain=0.5) for k, d in melody],
        _note(NOTE["G6"], 0.45, sr, "square", 0.25, decay=0.25, sustain=0.3),
    )
    bass = _concat(
        _note(NOTE["C5"] / 2, 0.45, sr, "triangle", decay=0.3, sustain=0.5),
        _note(NOTE["G5"] / 4, 0.45, sr, "triangle", decay=0.3, sustain=0.5),
    )
    s["goal"] = _smooth(_mix(lead, 0.8 * bass))

    n = int(0.3 * sr)  # respawn: a soft shimmer upwards
    s["respawn"] = _smooth(triangle(sweep(300, 1200, n), n, sr) * envelope(n, sr, attack=0.05, decay=0.15))

    s["menu_move"] = _smooth(_note(NOTE["A5"], 0.045, sr, "square", 0.5, decay=0.03))
    s["menu_confirm"] = _smooth(
        _concat(
            _note(NOTE["E5"], 0.05, sr, "square", 0.5, decay=0.5, sustain=0.6),
            _note(NOTE["A5"], 0.12, sr, "square", 0.5, decay=0.06),
        )
    )
    s["pause"] = _smooth(
        _concat(
            _note(NOTE["A5"], 0.05, sr, "triangle", decay=0.5, sustain=0.6),
            _note(NOTE["E5"], 0.1, sr, "triangle", decay=0.06),
        )
    )
    return {
        k: _normalize(v * envelope(len(v), sr, attack=0.001, decay=1e9, sustain=1.0, release=0.008))
        for k, v in s.items()
    }


NAMES = tuple(synthesize(8000).keys())


def _midi(m: float) -> float:
    return 440.0 * 2 ** ((m - 69) / 12)


def synthesize_music(sr: int = SAMPLE_RATE, bpm: float = 100.0) -> np.ndarray:
    """A gentle 4-bar loop (Am F C G): triangle bass, soft square arpeggio, a quiet hat. Mono float32;
    every note ends inside the loop, so it repeats without a click."""
    beat = 60.0 / bpm
    chords = [(45, (57, 60, 64)), (41, (53, 57, 60)), (48, (55, 60, 64)), (43, (55, 59, 62))]
    arp = [0, 1, 2, 1, 0, 2, 1, 2, 0, 1, 2, 1, 3, 2, 1, 2]
    bar_n = int(4 * beat * sr)
    out = np.zeros(bar_n * len(chords))
    six = int(beat / 4 * sr)
    eighth = int(beat / 2 * sr)
    for b, (root, tones) in enumerate(chords):
        start = b * bar_n
        for i in range(8):  # bass: root / octave in eighths
            m = root + (12 if i % 2 else 0)
            n = eighth
            note = triangle(_midi(m), n, sr) * envelope(n, sr, attack=0.004, decay=0.18, sustain=0.3)
            out[start + i * eighth : start + i * eighth + n] += 0.55 * note
        for i, k in enumerate(arp):  # arpeggio in sixteenths
            m = (tones + (tones[0] + 12,))[k] + 12
            n = six
            note = _smooth(square(_midi(m), n, sr, 0.125), 5) * envelope(n, sr, decay=0.06, release=0.01)
            out[start + i * six : start + i * six + n] += 0.16 * note
        for i in range(8):  # hat on the off-beats
            if i % 2:
                n = int(0.03 * sr)
                hat = noise(n, sr, 11000, seed=b * 8 + i) * envelope(n, sr, attack=0.001, decay=0.008)
                out[start + i * eighth : start + i * eighth + n] += 0.08 * hat
    return _normalize(out, 0.5)


# ----- playback --------------------------------------------------------------------------------
def pre_init() -> None:
    """Ask for a small mixer buffer; call before ``pygame.init()``. Harmless if it cannot apply."""
    try:
        import pygame

        pygame.mixer.pre_init(SAMPLE_RATE, -16, 2, BUFFER)
    except Exception:  # noqa: BLE001 - audio must never stop the game
        pass


@contextlib.contextmanager
def quiet_stderr():
    """Silence what C libraries write straight to file descriptor 2 (ALSA prints ~8 lines when there is
    no sound card) for the ``with`` block only, then restore it. Python-level errors are unaffected:
    exceptions propagate and are reported by the caller after fd 2 is back."""
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, AttributeError, ValueError):
        yield  # no real fd 2 (embedded, pythonw): nothing to silence
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, 2)
        finally:
            os.close(devnull)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


_DTYPES = {-8: np.int8, 8: np.uint8, -16: np.int16, 16: np.uint16, -32: np.int32, 32: np.float32}


def _to_mixer(wave: np.ndarray, fmt: int, channels: int, volume: float) -> np.ndarray:
    x = np.clip(wave * volume, -1.0, 1.0)
    dtype = _DTYPES.get(fmt, np.int16)
    if dtype is np.float32:
        data = x.astype(np.float32)
    else:
        info = np.iinfo(dtype)
        mid = (int(info.max) + int(info.min) + 1) / 2
        data = (x * (info.max - mid) + mid).astype(dtype)
    if channels > 1:
        data = np.repeat(data[:, None], channels, axis=1)
    return np.ascontiguousarray(data)


class Audio:
    """The game's sound effects. Never raises because of the audio device; play() of an unknown name
    raises KeyError (a programming error, not a device problem)."""

    MUSIC_VOLUME = 0.35

    def __init__(self, enabled: bool = True, volume: float = 0.8):
        self._muted = False
        self._volume = volume
        self._music = None  # the loop's Sound, built on the first start_music()
        self._music_wanted = False
        self._music_channel = None
        self._sounds: dict = {}
        self.available = False
        self.reason = "disabled" if not enabled else ""
        if not enabled:
            return
        try:
            import pygame

            if pygame.mixer.get_init() is None:
                with quiet_stderr():  # ALSA/PulseAudio chatter when there is no device; we report once
                    pygame.mixer.init(SAMPLE_RATE, -16, 2, BUFFER)
            freq, fmt, channels = pygame.mixer.get_init()
            for name, wave in synthesize(freq).items():
                self._sounds[name] = pygame.sndarray.make_sound(_to_mixer(wave, fmt, channels, volume))
            pygame.mixer.set_reserved(1)  # channel 0 is the music's; effects use the others
            self._music_channel = pygame.mixer.Channel(0)
            self.available = True
        except Exception as exc:  # noqa: BLE001 - no device, no mixer, odd format: stay silent
            self._sounds = {}
            self.reason = f"{type(exc).__name__}: {exc}"

    @property
    def names(self) -> tuple[str, ...]:
        return NAMES

    @property
    def muted(self) -> bool:
        return self._muted

    @muted.setter
    def muted(self, value: bool) -> None:
        self._muted = bool(value)
        if self._muted:
            self.stop()
        elif self._music_wanted:
            self._start_music_now()

    def toggle_mute(self) -> bool:
        self.muted = not self._muted
        return self._muted

    def play(self, name: str) -> None:
        if name not in NAMES:
            raise KeyError(f"unknown sound {name!r}; known sounds: {', '.join(NAMES)}")
        if self._muted or not self.available:
            return
        try:
            self._sounds[name].play()
        except Exception:  # noqa: BLE001 - a device lost mid-game must not crash the game
            pass

    @property
    def music_playing(self) -> bool:
        """True while the background loop is wanted (it is silent when muted or unavailable)."""
        return self._music_wanted

    def start_music(self) -> None:
        """Loop the background music (synthesized on first use, ~0.1 s)."""
        self._music_wanted = True
        self._start_music_now()

    def stop_music(self) -> None:
        self._music_wanted = False
        if self.available:
            try:
                self._music_channel.stop()
            except Exception:  # noqa: BLE001
                pass

    def _start_music_now(self) -> None:
        if self._muted or not self.available:
            return
        try:
            import pygame

            if self._music is None:
                freq, fmt, channels = pygame.mixer.get_init()
                self._music = pygame.sndarray.make_sound(
                    _to_mixer(synthesize_music(freq), fmt, channels, self.MUSIC_VOLUME * self._volume)
                )
            if not self._music_channel.get_busy():
                self._music_channel.play(self._music, loops=-1)
        except Exception:  # noqa: BLE001 - music is decoration; never crash for it
            pass

    def stop(self) -> None:
        if not self.available:
            return
        try:
            import pygame

            pygame.mixer.stop()
        except Exception:  # noqa: BLE001
            pass

    @staticmethod
    def sounds(sr: int = SAMPLE_RATE) -> dict[str, np.ndarray]:
        """The synthesized waveforms (mono float32, -1..1) by name."""
        return synthesize(sr)

"""Sound effects and music loops synthesized with numpy at start-up, played through pygame's mixer.

    audio = Audio()             # never raises: without an audio device it is silent
    audio.play("jump")
    audio.play_music("meadow")  # crossfade to a loop (LOOPS); play_music(None) fades it out
    audio.duck(True)            # music lowered (pause menu)
    audio.set_volumes(music=0.6, effects=1.0)
    audio.toggle_mute()         # -> True when now muted (also silences the music)
    audio.available             # False when the mixer could not start (CI, no device)

Call ``pre_init()`` before ``pygame.init()`` for a small mixer buffer (low latency). Every sound is
built from oscillators (square, triangle, noise), pitch sweeps and envelopes; ``synthesize()`` and
``synthesize_music()`` return the raw float waveforms (mono, -1..1, ``SAMPLE_RATE`` Hz) without touching
pygame, for tests and tools.

Loudness is balanced by ear's measure, not by peak: each effect is scaled to its target in
:data:`LOUDNESS`, measured by :func:`loudness` (K-weighted mean square over the loudest 400 ms, in
LUFS-like dB, as EBU R 128's momentary loudness), so a landing thump sits well under the goal fanfare and
the music sits under the effects.
"""

from __future__ import annotations

import contextlib
import math
import os
import sys
from dataclasses import dataclass

import numpy as np

SAMPLE_RATE = 44100
BUFFER = 512  # mixer buffer in samples: ~12 ms at 44.1 kHz
PEAK = 0.9  # no effect peaks above this (headroom for overlapping sounds)
# target loudness of each effect (LUFS-like dB, see loudness()): frequent small sounds quiet, rewards loud
LOUDNESS = {
    "land": -24.0, "menu_move": -20.0, "jump": -17.0, "pause": -16.0, "respawn": -15.0,
    "menu_confirm": -14.0, "coin": -12.0, "death": -11.0, "checkpoint": -10.0, "goal": -7.0,
    "crumble": -20.0, "stomp": -18.0, "break": -18.0, "spring": -15.0,
    "wall_slide": -27.0, "wall_jump": -17.0, "dash": -17.5, "refill": -13.0,
}
MUSIC_LOUDNESS = -21.0  # every loop is scaled to this (then by the music volume): under the effects

# ----- mixing: the mixer sums its channels and clips, so the sum is kept under full scale by design ------
# Every voice's remaining peak is known (TAIL: the peak from each 10 ms on to the sound's end), so before
# a voice starts, the music's peak plus every playing voice's remaining peak times its gain plus the new
# voice's peak times its gain must stay under CEILING; a voice that would not fit starts quieter, or the
# oldest voice is stopped for it. One effect never stacks on itself: VOICE_CAP voices of it at most (the
# oldest fades out for a new one), and RETRIGGER drops a repeat asked for too soon after the last.
CEILING = 0.93  # of full scale (-0.6 dBFS): what the sum of every voice's peak may reach
EFFECT_VOICES = 6  # mixer channels for effects (two more are the music's)
MUSIC_UNDER_EFFECTS = 0.8  # music gain while an effect sounds (-1.9 dB): effects sit on top
VOICE_CAP = {"stomp": 2, "break": 2, "crumble": 2}  # voices of one effect at once; every other effect: 1
RETRIGGER = {"checkpoint": 0.6, "goal": 1.0, "death": 0.3, "respawn": 0.3, "land": 0.06, "pause": 0.1,  # s
             "wall_slide": 0.11}  # a slide asks every step: one scrape per 0.11 s at most, on one voice
COIN_STEPS = (0, 2, 4, 5, 7, 9, 11, 12, 14, 16)  # semitones: coins picked in a run climb a major scale
COIN_RUN = 0.7  # s: a coin within this of the last one is the run's next step; later, the run restarts
TAIL_BLOCK = 0.01  # s per entry of a voice's remaining-peak table
LATENCY = 0.1  # s: a voice is taken to be this far behind the clock (mixer buffer, callback jitter, load)
FADE = 0.02  # s: a voice replaced by its own effect fades out over this


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


# ITU-R BS.1770 K-weighting, two biquads specified at 48 kHz: a +4 dB shelf above ~1.5 kHz (the head's
# effect on what the ear hears) and a high-pass at ~38 Hz (what it hardly hears); (b, a) coefficients
_K_FILTERS = (
    ((1.53512485958697, -2.69169618940638, 1.19839281085285), (1.0, -1.69065929318241, 0.73248077421585)),
    ((1.0, -2.0, 1.0), (1.0, -1.99004745483398, 0.99007225036621)),
)


def _k_weighted(x: np.ndarray, sr: int) -> np.ndarray:
    """``x`` through the K-weighting, applied as the filters' magnitude response in the frequency domain
    (the response evaluated at each bin's frequency, so any sample rate up to 48 kHz works)."""
    n = 1 << max(1, len(x) - 1).bit_length()  # a power of two: odd lengths make the FFT slow
    z = np.exp(-2j * np.pi * np.fft.rfftfreq(n, 1.0 / sr) / 48000.0)  # z^-1 at the 48 kHz design rate
    gain = np.ones(len(z))
    for b, a in _K_FILTERS:
        gain *= np.abs((b[0] + b[1] * z + b[2] * z * z) / (a[0] + a[1] * z + a[2] * z * z))
    return np.fft.irfft(np.fft.rfft(x, n) * gain, n)[: len(x)]


def loudness(x: np.ndarray, sr: int = SAMPLE_RATE, window: float | None = 0.4) -> float:
    """Perceived loudness in LUFS-like dB: the K-weighted mean square over the loudest ``window`` s
    (EBU R 128's momentary loudness; a shorter sound counts as padded with silence), or over the whole
    sound with ``window=None`` (music)."""
    y = _k_weighted(np.asarray(x, dtype=np.float64), sr) ** 2
    n = len(y) if window is None else int(window * sr)
    if len(y) <= n:
        power = float(y.sum()) / max(1, n)
    else:
        c = np.concatenate(([0.0], np.cumsum(y)))
        power = float(((c[n:] - c[:-n]) / n).max())
    return -0.691 + 10.0 * math.log10(max(power, 1e-12))


def _to_loudness(x: np.ndarray, target: float, sr: int, window: float | None = 0.4) -> np.ndarray:
    """Scale ``x`` to ``target`` loudness, but never above ``PEAK``. A whole loop (``window=None``) is
    measured on every 4th sample: within 0.01 dB for our music, and ten times cheaper."""
    measured = loudness(x[::4], sr // 4, None) if window is None else loudness(x, sr, window)
    gain = 10 ** ((target - measured) / 20.0)
    peak = float(np.max(np.abs(x))) * gain
    if peak > PEAK:
        gain *= PEAK / peak
    return (x * gain).astype(np.float32)


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


def _coin(step: int, sr: int) -> np.ndarray:
    """The coin chime raised by ``COIN_STEPS[step]`` semitones (step 0 is the plain coin)."""
    k = 2 ** (COIN_STEPS[step] / 12)
    return _smooth(
        _concat(
            _note(NOTE["B5"] * k, 0.06, sr, duty=0.5, decay=0.5, sustain=0.6),
            _note(NOTE["E6"] * k, 0.24, sr, duty=0.5, decay=0.09),
        )
    )


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

    s["coin"] = _coin(0, sr)

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

    n = int(0.12 * sr)  # stomp: a squashed bonk, a falling blip over a thump
    blip = square(sweep(900, 300, n), n, sr, 0.25) * envelope(n, sr, decay=0.05)
    s["stomp"] = _smooth(0.7 * blip + triangle(sweep(160, 60, n), n, sr) * envelope(n, sr, decay=0.05))

    n = int(0.32 * sr)  # spring: a rising boing with a wobble
    t = np.arange(n) / sr
    s["spring"] = _smooth(triangle(sweep(180, 720, n) * (1 + 0.12 * np.sin(2 * np.pi * 22 * t)), n, sr)
                          * envelope(n, sr, attack=0.004, decay=0.16))

    n = int(0.22 * sr)  # break: a crunch of bricks over a low knock
    s["break"] = _smooth(noise(n, sr, 6000, seed=5) * envelope(n, sr, decay=0.08)
                         + 0.8 * triangle(sweep(200, 70, n), n, sr) * envelope(n, sr, decay=0.06), 3)

    n = int(0.35 * sr)  # crumble: soft gravel trickling away
    s["crumble"] = _smooth(noise(n, sr, 2200, seed=9) * envelope(n, sr, attack=0.02, decay=0.2), 5)

    n = int(0.1 * sr)  # wall slide: one rough scrape (repeated while sliding, see RETRIGGER)
    grit = _smooth(noise(n, sr, 4200, seed=11), 3) * (1 + 0.5 * np.sin(2 * np.pi * 55 * np.arange(n) / sr))
    s["wall_slide"] = grit * envelope(n, sr, attack=0.015, decay=0.06, sustain=0.3, release=0.02)

    n = int(0.18 * sr)  # wall jump: a scuff off the wall, then a chirp higher than the jump's
    scuff = _smooth(noise(n, sr, 5000, seed=13), 2) * envelope(n, sr, decay=0.025)
    chirp = square(sweep(330, 880, n), n, sr, 0.25) * envelope(n, sr, attack=0.01, decay=0.09, release=0.03)
    s["wall_jump"] = _smooth(0.6 * scuff + 0.7 * chirp)

    n = int(0.26 * sr)  # dash: a whoosh (noise opening up) under a falling swoosh
    t = np.arange(n) / sr
    k = t / t[-1]  # the air brightens as it opens: a dark hiss crossfaded into a bright one
    air = _smooth((1 - k) * noise(n, sr, 2500, seed=17) + k * noise(n, sr, 11000, seed=19), 2) \
        * envelope(n, sr, attack=0.02, decay=0.12)
    swoosh = triangle(sweep(900, 260, n), n, sr) * envelope(n, sr, attack=0.005, decay=0.1)
    s["dash"] = _smooth(0.8 * air + 0.5 * swoosh)

    s["refill"] = _smooth(  # refill: a glassy two-note chime
        _mix(
            _concat(_note(NOTE["E6"], 0.05, sr, "triangle", decay=0.5, sustain=0.6),
                    _note(NOTE["B5"] * 2, 0.22, sr, "triangle", decay=0.1)),
            0.35 * _concat(_note(NOTE["E6"] * 2, 0.05, sr, "square", 0.125, decay=0.3, sustain=0.4),
                           _note(NOTE["E6"] * 2, 0.22, sr, "square", 0.125, decay=0.06)),
        )
    )

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
    return {k: _to_loudness(_declick(v, sr), LOUDNESS[k], sr) for k, v in s.items()}


def _declick(v: np.ndarray, sr: int) -> np.ndarray:
    return v * envelope(len(v), sr, attack=0.001, decay=1e9, sustain=1.0, release=0.008)


NAMES = tuple(synthesize(8000).keys())


def coin_run(sr: int = SAMPLE_RATE) -> list[np.ndarray]:
    """The coin at every step of a run (:data:`COIN_STEPS`), each at the coin's loudness."""
    return [_to_loudness(_declick(_coin(i, sr), sr), LOUDNESS["coin"], sr) for i in range(len(COIN_STEPS))]


def _midi(m: float) -> float:
    return 440.0 * 2 ** ((m - 69) / 12)


@dataclass(frozen=True)
class Loop:
    """One music loop in two sections: A, four bars of one chord each (bass root, chord tones as MIDI
    notes), then B, four more bars on ``b_chords`` with its own melody and busier hats, so the loop does
    not come round every few bars."""

    bpm: float
    chords: tuple  # ((root, (tone, tone, tone)), ...) x 4
    arp: tuple = (0, 1, 2, 1, 0, 2, 1, 2, 0, 1, 2, 1, 3, 2, 1, 2)  # chord-tone index per sixteenth
    duty: float = 0.125  # the arpeggio's square-wave duty (thinner = softer, more nasal)
    arp_level: float = 0.16
    bass: str = "octaves"  # octaves: root/octave eighths; pulse: root eighths; slow: half notes
    hats: str = "offbeat"  # offbeat | eighths | none
    snare: bool = False  # a noise hit on beats 2 and 4
    lead: tuple = ()  # a melody: (chord-tone index or None, beats), repeated per bar; triangle wave
    b_chords: tuple = ()  # section B's four chords (empty: the loop is A only)
    b_lead: tuple | None = None  # section B's melody (None: A's melody backwards, or a plain one)

    def sections(self) -> list[tuple[tuple, tuple, str]]:
        """[(chords, lead, hats)] in play order."""
        out = [(self.chords, self.lead, self.hats)]
        if self.b_chords:
            lead = self.b_lead
            if lead is None:
                lead = tuple(reversed(self.lead)) if self.lead else ((0, 1.0), (1, 1.0), (2, 2.0))
            out.append((self.b_chords, lead, "eighths" if self.hats == "offbeat" else self.hats))
        return out


LOOPS = {
    "title": Loop(100, ((45, (57, 60, 64)), (41, (53, 57, 60)), (48, (55, 60, 64)), (43, (55, 59, 62))),
                  b_chords=((41, (57, 60, 65)), (43, (55, 59, 62)), (40, (55, 59, 64)), (45, (57, 60, 64)))),
    "meadow": Loop(116, ((48, (60, 64, 67)), (43, (59, 62, 67)), (45, (60, 64, 69)), (41, (60, 65, 69))),
                   arp=(0, 1, 2, 3, 2, 1, 0, 1, 2, 3, 2, 1, 0, 2, 1, 3), duty=0.25, arp_level=0.12,
                   lead=((2, 1.0), (1, 0.5), (0, 0.5), (1, 1.0), (None, 1.0)),
                   b_chords=((41, (60, 65, 69)), (48, (60, 64, 67)), (50, (62, 65, 69)), (43, (59, 62, 67))),
                   b_lead=((3, 0.5), (2, 0.5), (1, 1.0), (2, 1.5), (None, 0.5))),
    "hills": Loop(106, ((50, (62, 65, 69)), (46, (62, 65, 70)), (53, (60, 65, 69)), (48, (60, 64, 67))),
                  arp=(0, 2, 1, 2, 0, 2, 1, 3, 0, 2, 1, 2, 3, 2, 1, 0), bass="pulse",
                  lead=((0, 1.5), (1, 0.5), (2, 2.0)),
                  b_chords=((43, (62, 67, 70)), (50, (62, 65, 69)), (46, (62, 65, 70)), (48, (60, 64, 67)))),
    "climb": Loop(126, ((40, (59, 64, 67)), (36, (60, 64, 67)), (43, (59, 62, 67)), (38, (57, 62, 66))),
                  arp=(0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 3, 2, 1, 0), duty=0.25, hats="eighths",
                  snare=True, bass="pulse",
                  b_chords=((45, (60, 64, 69)), (40, (59, 64, 67)), (36, (60, 64, 67)), (38, (57, 62, 66))),
                  b_lead=((2, 0.5), (1, 0.5), (2, 1.0), (3, 2.0))),
    "finale": Loop(138, ((36, (60, 63, 67)), (44, (60, 63, 68)), (39, (58, 63, 67)), (46, (58, 62, 65))),
                   arp=(0, 1, 2, 3, 2, 1, 0, 1, 2, 3, 2, 1, 0, 1, 2, 3), duty=0.25, hats="eighths",
                   snare=True, lead=((2, 0.5), (3, 0.5), (2, 0.5), (1, 0.5), (0, 2.0)),
                   b_chords=((41, (60, 65, 68)), (36, (60, 63, 67)), (44, (60, 63, 68)), (43, (59, 62, 67)))),
    "ending": Loop(84, ((41, (57, 60, 65)), (43, (59, 62, 67)), (40, (59, 64, 67)), (45, (57, 60, 64))),
                   arp=(0, 1, 2, 3, 2, 1, 0, 1, 0, 1, 2, 3, 2, 1, 0, 1), arp_level=0.12, bass="slow",
                   hats="none", lead=((2, 2.0), (1, 1.0), (0, 1.0)),
                   b_chords=((38, (57, 62, 65)), (45, (57, 60, 64)), (46, (58, 62, 65)), (48, (60, 64, 67))),
                   b_lead=((0, 1.0), (1, 1.0), (3, 2.0))),
}


def synthesize_music(name: str = "title", sr: int = SAMPLE_RATE) -> np.ndarray:
    """The loop ``name`` of :data:`LOOPS`: triangle bass, a soft square arpeggio, maybe a triangle
    melody, hats and a snare, scaled to :data:`MUSIC_LOUDNESS`. Mono float32; every note ends inside the
    loop, so it repeats without a click."""
    loop = LOOPS[name]
    beat = 60.0 / loop.bpm
    bar_n = int(4 * beat * sr)
    bars = [(chord, lead, hats) for chords, lead, hats in loop.sections() for chord in chords]
    out = np.zeros(bar_n * len(bars))
    six, eighth = int(beat / 4 * sr), int(beat / 2 * sr)

    def put(at: int, wave: np.ndarray, level: float) -> None:
        out[at : at + len(wave)] += level * wave[: len(out) - at]

    for b, ((root, tones), lead, hats) in enumerate(bars):
        start = b * bar_n
        if loop.bass == "slow":
            for i in range(2):
                n = 4 * eighth
                put(start + i * n, triangle(_midi(root + 12 * i), n, sr)
                    * envelope(n, sr, attack=0.01, decay=0.6, sustain=0.5, release=0.05), 0.6)
        else:
            for i in range(8):
                m = root + (12 if loop.bass == "octaves" and i % 2 else 0)
                put(start + i * eighth, triangle(_midi(m), eighth, sr)
                    * envelope(eighth, sr, attack=0.004, decay=0.18, sustain=0.3), 0.55)
        chord = tones + (tones[0] + 12,)
        for i, k in enumerate(loop.arp):
            note = _smooth(square(_midi(chord[k] + 12), six, sr, loop.duty), 5)
            put(start + i * six, note * envelope(six, sr, decay=0.06, release=0.01), loop.arp_level)
        at = start
        for k, beats in lead:
            n = int(beats * beat * sr)
            if k is not None:
                tone = triangle(_midi(chord[k] + 12), n, sr)
                put(at, tone * envelope(n, sr, attack=0.01, decay=0.25, sustain=0.5, release=0.04), 0.3)
            at += n
        for i in range(8):
            if hats == "eighths" or (hats == "offbeat" and i % 2):
                n = int(0.03 * sr)
                put(start + i * eighth, noise(n, sr, 11000, seed=b * 8 + i)
                    * envelope(n, sr, attack=0.001, decay=0.008), 0.08)
            if loop.snare and i in (2, 6):
                n = int(0.12 * sr)
                put(start + i * eighth, _smooth(noise(n, sr, 6000, seed=100 + b * 8 + i), 3)
                    * envelope(n, sr, attack=0.001, decay=0.04), 0.2)
    fade = int(0.004 * sr)  # the loop's seam: no click where the last note meets the first
    out[:fade] *= np.linspace(0.0, 1.0, fade)
    out[-fade:] *= np.linspace(1.0, 0.0, fade)
    return _to_loudness(out, MUSIC_LOUDNESS, sr, window=None)


# ----- voices: which effect plays where, how loud, and what gives way (pure: tested with fake channels) ---
def tail_peaks(wave: np.ndarray, sr: int) -> np.ndarray:
    """For each TAIL_BLOCK of ``wave``, the peak |sample| from there to the end (non-increasing)."""
    block = max(1, int(TAIL_BLOCK * sr))
    a = np.abs(np.asarray(wave, dtype=np.float64))
    n = -(-len(a) // block)
    a = np.pad(a, (0, n * block - len(a))).reshape(n, block).max(axis=1)
    return np.maximum.accumulate(a[::-1])[::-1]


@dataclass
class Voice:
    channel: object
    name: str
    tail: np.ndarray  # tail_peaks of the sound it plays
    start: float  # clock time it was started
    gain: float  # channel volume it plays at
    until: float = math.inf  # clock time it stops counting (fading out: start of the fade + FADE)

    def peak(self, now: float) -> float:
        """What this voice can still add to the sum, at most, from ``now`` on."""
        if now >= self.until:
            return 0.0
        i = int(max(0.0, now - self.start - LATENCY) / TAIL_BLOCK)
        return float(self.tail[i]) * self.gain if i < len(self.tail) else 0.0


class Voices:
    """Effect voices on a fixed set of mixer channels, kept under :data:`CEILING` together with the
    music. ``channels`` need ``play(sound)``, ``stop()``, ``fadeout(ms)``, ``set_volume(v)``."""

    def __init__(self, channels, clock):
        self.channels = list(channels)
        self.clock = clock
        self.voices: list[Voice] = []
        self.last: dict[str, float] = {}  # effect -> when it last started

    def active(self, now: float) -> list[Voice]:
        self.voices = [v for v in self.voices if v.peak(now) > 0.0]
        return self.voices

    def load(self, now: float) -> float:
        """The most the playing voices can add to the sum from ``now`` on."""
        return sum(v.peak(now) for v in self.active(now))

    def start(self, name: str, sound, tail: np.ndarray, gain: float, music_peak: float) -> float:
        """Play ``sound`` (effect ``name``) at up to ``gain``; returns the gain it got (0: dropped)."""
        now = self.clock()
        if now - self.last.get(name, -math.inf) < RETRIGGER.get(name, 0.0):
            return 0.0
        voices = self.active(now)
        same = [v for v in voices if v.name == name and v.until == math.inf]
        for v in same[: max(0, len(same) - VOICE_CAP.get(name, 1) + 1)]:  # the oldest give way
            v.until = now + FADE + LATENCY
            v.channel.fadeout(int(FADE * 1000))
        top = float(tail[0]) if len(tail) else 0.0
        while True:
            voices = self.active(now)
            busy = {id(v.channel) for v in voices}
            free = [c for c in self.channels if id(c) not in busy]
            room = CEILING - music_peak - sum(v.peak(now) for v in voices)
            fit = gain if top <= 0.0 else min(gain, room / top)
            if free and fit >= 0.5 * gain:
                break
            if not voices:
                if not free:
                    return 0.0
                break
            oldest = min(voices, key=lambda v: v.start)  # make room: the oldest voice stops
            oldest.channel.stop()
            self.voices.remove(oldest)
        if fit <= 0.0:
            return 0.0
        # mixer volumes are steps of 1/128: round down so the sum stays under the ceiling
        fit = math.floor(fit * 128) / 128
        channel = free[0]
        channel.set_volume(fit)
        channel.play(sound)
        channel.set_volume(fit)
        self.voices.append(Voice(channel, name, tail, now, fit))
        self.last[name] = now
        return fit


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
    """The game's sound effects and music. Never raises because of the audio device; play() or
    play_music() of an unknown name raises KeyError (a programming error, not a device problem).

    Music: two reserved mixer channels take turns, so a new loop fades in while the old one fades out.
    The first loop asked for is synthesized at once (~0.1 s); a background thread then makes the
    others, so later crossfades start without a hitch."""

    CROSSFADE = 1.2  # s, one loop fading into the next
    DUCK = 0.35  # music volume multiplier while ducked (pause menu)

    def __init__(self, enabled: bool = True, music_volume: float = 0.7, effects_volume: float = 0.8,
                 clock=None):
        import time

        self._clock = clock or time.monotonic
        self._under = 1.0  # MUSIC_UNDER_EFFECTS while effects sound, back to 1 when they are done
        self._coin = (-math.inf, -1)  # (when the last coin played, its step in the run)
        self._tails: dict = {}  # sound key -> tail_peaks
        self._loop_peaks: dict = {}  # loop name -> peak |sample|
        self._voices: Voices | None = None
        self._muted = False
        self._music_volume = music_volume
        self._effects_volume = effects_volume
        self._ducked = False
        self.music: str | None = None  # the loop asked for (it is silent when muted or unavailable)
        self._loops: dict = {}  # name -> Sound
        self._waves: dict = {}  # name -> float waveform (from the prefetch thread)
        self._lock = None
        self._channels: list = []  # the two music channels; _channels[0] plays the current loop
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
            self._format = pygame.mixer.get_init()
            freq, fmt, channels = self._format
            waves = synthesize(freq)
            waves.update({("coin", i): w for i, w in enumerate(coin_run(freq))})
            for key, wave in waves.items():
                self._sounds[key] = pygame.sndarray.make_sound(_to_mixer(wave, fmt, channels, 1.0))
                self._tails[key] = tail_peaks(wave, freq)
            pygame.mixer.set_num_channels(2 + EFFECT_VOICES)
            pygame.mixer.set_reserved(2)  # channels 0 and 1 are the music's; effects use the others
            self._channels = [pygame.mixer.Channel(0), pygame.mixer.Channel(1)]
            effects = [pygame.mixer.Channel(2 + i) for i in range(EFFECT_VOICES)]
            self._voices = Voices(effects, self._clock)
            self.available = True
        except Exception as exc:  # noqa: BLE001 - no device, no mixer, odd format: stay silent
            self._sounds = {}
            self.reason = f"{type(exc).__name__}: {exc}"
            return
        self.set_volumes()
        import threading

        self._lock = threading.Lock()
        self._prefetch_thread = threading.Thread(target=self._prefetch, name="music synth", daemon=True)

    @property
    def names(self) -> tuple[str, ...]:
        return NAMES

    # -- volume and mute ------------------------------------------------------------------------------
    @property
    def muted(self) -> bool:
        return self._muted

    @muted.setter
    def muted(self, value: bool) -> None:
        self._muted = bool(value)
        if self._muted:
            self.stop()
        elif self.music is not None:
            self._start(self.music, fade=0.3)

    def toggle_mute(self) -> bool:
        self.muted = not self._muted
        return self._muted

    @property
    def volumes(self) -> tuple[float, float]:
        """(music, effects), each 0..1."""
        return self._music_volume, self._effects_volume

    def set_volumes(self, music: float | None = None, effects: float | None = None) -> None:
        """Music and effects volume, each 0..1 (None keeps it); applies at once, to what is playing too."""
        if music is not None:
            self._music_volume = min(1.0, max(0.0, float(music)))
        if effects is not None:
            self._effects_volume = min(1.0, max(0.0, float(effects)))
        if not self.available:
            return
        try:
            for snd in self._loops.values():
                snd.set_volume(self._music_level())
        except Exception:  # noqa: BLE001
            pass

    def _music_level(self, under: float | None = None) -> float:
        under = self._under if under is None else under
        return self._music_volume * (self.DUCK if self._ducked else 1.0) * under

    def _music_peak(self, under: float | None = None) -> float:
        """The most the music can add to the sum now: the louder of the loops on its two channels (a
        crossfade's two gains sum to one) at the music's level."""
        peak = 0.0
        for ch in self._channels:
            try:
                snd = ch.get_sound() if ch.get_busy() else None
            except Exception:  # noqa: BLE001
                snd = None
            for name, loop in self._loops.items():
                if snd is loop:
                    peak = max(peak, self._loop_peaks.get(name, 1.0))
        return peak * self._music_level(under)

    def update(self) -> None:
        """Once a frame: the music comes back up when the effects are done (and only if it fits)."""
        if self._voices is None or self._under >= 1.0:
            return
        now = self._clock()
        if self._voices.load(now) > 0.0:
            return
        nxt = min(1.0, self._under + 0.04)  # ~5 frames back to full: no step in the music's level
        if self._music_peak(nxt) <= CEILING:
            self._under = nxt
            self.set_volumes()

    @property
    def voices(self) -> int:
        """How many effect voices are sounding now."""
        return len(self._voices.active(self._clock())) if self._voices else 0

    def duck(self, on: bool) -> None:
        """Lower the music (True) or bring it back (False), e.g. while the game is paused."""
        if bool(on) != self._ducked:
            self._ducked = bool(on)
            self.set_volumes()

    # -- effects --------------------------------------------------------------------------------------
    def play(self, name: str) -> None:
        if name not in NAMES:
            raise KeyError(f"unknown sound {name!r}; known sounds: {', '.join(NAMES)}")
        if self._muted or not self.available or self._effects_volume <= 0.0:
            return
        try:
            key = name
            if name == "coin":  # a string of coins climbs: the next step within COIN_RUN, else step 0
                now = self._clock()
                last, step = self._coin
                step = min(step + 1, len(COIN_STEPS) - 1) if now - last < COIN_RUN else 0
                self._coin = (now, step)
                key = ("coin", step)
            if self._under > MUSIC_UNDER_EFFECTS:  # effects on top: the music steps down a little
                self._under = MUSIC_UNDER_EFFECTS
                self.set_volumes()
            self._voices.start(name, self._sounds[key], self._tails[key], self._effects_volume,
                               self._music_peak())
        except Exception:  # noqa: BLE001 - a device lost mid-game must not crash the game
            pass

    # -- music ----------------------------------------------------------------------------------------
    def play_music(self, name: str | None) -> None:
        """Crossfade to the loop ``name`` (a key of :data:`LOOPS`); None fades the music out. Asking for
        the loop already playing does nothing."""
        if name is not None and name not in LOOPS:
            raise KeyError(f"unknown music {name!r}; known loops: {', '.join(LOOPS)}")
        if name == self.music:
            return
        self.music = name
        if self._muted or not self.available:
            return
        if name is None:
            self._fade_out(self.CROSSFADE)
        else:
            self._start(name, fade=self.CROSSFADE)
        if not self._prefetch_thread.is_alive() and len(self._waves) < len(LOOPS):
            try:  # the first music asked for is made: make the other loops meanwhile
                self._prefetch_thread.start()
            except RuntimeError:  # started before and finished
                pass

    def _start(self, name: str, fade: float) -> None:
        try:
            sound = self._loop(name)
            old, new = self._channels
            self._channels = [new, old]
            old.fadeout(int(fade * 1000))
            new.play(sound, loops=-1, fade_ms=int(fade * 1000))
        except Exception:  # noqa: BLE001 - music is decoration; never crash for it
            pass

    def _fade_out(self, fade: float) -> None:
        try:
            for ch in self._channels:
                ch.fadeout(int(fade * 1000))
        except Exception:  # noqa: BLE001
            pass

    def _loop(self, name: str):
        sound = self._loops.get(name)
        if sound is None:
            import pygame

            freq, fmt, channels = self._format
            with self._lock:  # the prefetch thread may be making this very loop
                wave = self._waves.get(name)
                if wave is None:
                    wave = self._waves[name] = synthesize_music(name, freq)
            self._loop_peaks[name] = float(np.max(np.abs(wave)))
            sound = pygame.sndarray.make_sound(_to_mixer(wave, fmt, channels, 1.0))
            sound.set_volume(self._music_level())
            self._loops[name] = sound
        return sound

    def _prefetch(self) -> None:
        """Synthesize every loop's waveform in the background (numpy lets the game run meanwhile)."""
        freq = self._format[0]
        for name in LOOPS:
            with self._lock:
                if name not in self._waves:
                    self._waves[name] = synthesize_music(name, freq)

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

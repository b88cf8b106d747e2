"""``python -m game``: argument handling, the headless runner, and the hand-off to the windowed game.

    python -m game --headless --level LEVEL.tmx --inputs SCRIPT.txt [--feel FEEL.toml] [--trace TRACE.csv]
    python -m game check [LEVEL ...] [--feel FILE] [--budget STATES] [--coins] [--routes DIR] [--json] ...
                                                                                     (game/guard/check.py)

The exact contract (flags, JSON, trace columns, exit codes) is in ``docs/headless.md``.
Every error is one line on stderr, ``error: ...``, naming the file and the thing, with exit code 2
(usage errors, bad files, and internal errors alike); ``--debug`` adds the traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import os
import sys
import traceback
from pathlib import Path

from game.files.inputscript import resolve_script
from game.files.userfiles import CliError

__all__ = ["main", "build_parser", "build_check_parser", "run_headless", "resolve_script", "TRACE_COLUMNS",
           "trace_row", "CliError", "EXIT_ERROR"]

EXIT_ERROR = 2

TRACE_COLUMNS = (
    "step", "x", "y", "vx", "vy", "on_ground", "ground", "platform", "coyote_left", "buffer_left",
    "drop_left", "jumping", "facing", "dead", "deaths", "coins", "buttons", "events",
)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line like every other error, still exit code 2
        self.exit(EXIT_ERROR, f"error: {message} (see python -m game --help)\n")


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be 1 or more, got {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="python -m game",
        description="A 2D platformer. Without --headless it opens a window; with --headless it runs a "
                    "level from an input script and prints one JSON line (see docs/headless.md).",
        epilog="python -m game check --help: can every level still be finished under a feel file?",
    )
    p.add_argument("--headless", action="store_true", help="no window, no audio: run --level with --inputs")
    p.add_argument("--level", metavar="LEVEL.tmx", help="the Tiled map to play")
    p.add_argument("--inputs", metavar="SCRIPT.txt", help="input script: lines of 'COUNT BUTTONS'")
    p.add_argument("--feel", metavar="FEEL.toml", help="feel file; keys it names override the defaults")
    p.add_argument("--trace", metavar="TRACE.csv", help="headless: write one CSV row per step")
    p.add_argument("--record", metavar="FILE", help="write what was played as an input script")
    p.add_argument("--replay", metavar="FILE", help="play an input script back (headless: same as --inputs)")
    p.add_argument("--explain", action="store_true", help="print the values derived from the feel and exit")
    p.add_argument("--debug", action="store_true", help="show tracebacks (and debug drawing in the window)")
    p.add_argument("--fullscreen", action="store_true", help="window: start fullscreen")
    p.add_argument("--scale", type=_positive_int, metavar="N", help="window: scale the 480x270 canvas by N")
    return p


def build_check_parser() -> argparse.ArgumentParser:
    from game.guard.route import DEFAULT_STATES, SAFETY_SECONDS

    p = _Parser(prog="python -m game check",
                description="Can each level be finished under a feel, on the real game? Known routes first "
                            "(one simulation each), then a search. Exit 0: every level finished; 1: one is "
                            "impossible; 3: one is unknown (budget spent) and none impossible; 2: bad input.")
    p.add_argument("levels", nargs="*", metavar="LEVEL", help="maps or folders of maps (default: levels/)")
    p.add_argument("--feel", metavar="FILE", action="append",
                   help="feel file; keys it names override the defaults ('default': none). Given again: the "
                        "levels are checked under each feel in turn")
    p.add_argument("--difficulty", action="store_true",
                   help="time every jump and dash of each route found: a difficulty figure per level in bits, "
                        "log2 of the expected attempts (a player's timing error of 1/30 s; a failed input "
                        "restarts its stretch between checkpoints), and the campaign's curve")
    p.add_argument("--plot", metavar="FILE.png", help="draw the difficulty curve (one line per --feel) to a PNG "
                                                      "(implies --difficulty)")
    p.add_argument("--budget", type=_positive_int, default=DEFAULT_STATES, metavar="STATES",
                   help=f"search states per level (default {DEFAULT_STATES}): the same verdict on any machine")
    p.add_argument("--coins", action="store_true", help="after the goal, search for every coin too")
    p.add_argument("--lint", action="store_true", help="only check the maps: every problem of every map, one line "
                                                       "each; exit 2 if any")
    p.add_argument("--fresh", action="store_true", help="search only: do not try the known routes first")
    p.add_argument("--jobs", type=_positive_int, metavar="N", help="levels checked at once (default: the cores)")
    p.add_argument("--time-cap", type=_positive_seconds, default=SAFETY_SECONDS, metavar="SECONDS",
                   help=f"safety cap per level (default {SAFETY_SECONDS:g}); a search stopped by it is 'unknown'")
    p.add_argument("--routes", metavar="DIR", help="write each route found as an input script DIR/LEVEL.txt "
                                                   "(and try it first next time)")
    p.add_argument("--json", action="store_true", help="print one JSON line instead of text")
    p.add_argument("--debug", action="store_true", help="show tracebacks")
    return p


def _positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not (0 < value < float("inf")):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text}")
    return value


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    check = argv[:1] == ["check"]
    args = (build_check_parser() if check else build_parser()).parse_args(argv[1:] if check else argv)
    try:
        return _check(args) if check else _dispatch(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `python -m game ... | head`: the reader left; stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except Exception as exc:  # noqa: BLE001 - every error ends as one line
        if args.debug:
            traceback.print_exc()
        print(f"error: {_one_line(exc)}", file=sys.stderr)
        return EXIT_ERROR


def _one_line(exc: BaseException) -> str:
    from game.files.userfiles import printable

    text = printable(" ".join(str(exc).split()))  # a file's control characters never reach the terminal
    if isinstance(exc, _user_errors()):
        return text
    return f"internal error: {type(exc).__name__}: {text} (run again with --debug for the traceback)"


def _user_errors() -> tuple[type, ...]:
    """The exception types whose text is already a finished one-line message for the user."""
    kinds: list[type] = [CliError]
    for module, name in (("levelfile", "LevelError"), ("inputscript", "ScriptError"),
                         ("feelfile", "FeelFileError")):
        try:
            kinds.append(getattr(__import__(f"game.files.{module}", fromlist=[name]), name))
        except Exception:  # noqa: BLE001 - a broken import is reported as the internal error it is
            pass
    return tuple(kinds)


def _dispatch(args: argparse.Namespace) -> int:
    feel = _load_feel(args.feel)
    if args.explain:
        print(_explain(feel))
        if not args.headless:
            return 0
    if args.headless:
        return _headless(args, feel)
    return _window(args, feel)


def _check(args: argparse.Namespace) -> int:
    from game.guard.check import run_check, run_lint

    from game.guard.check import FeelRun

    if args.lint:
        return run_lint(args.levels)
    runs = []
    for name in args.feel or [None]:
        if name is None or (name == "default" and not Path(name).exists()):
            runs.append(FeelRun(_load_feel(None), "the default feel", None))
        else:
            runs.append(FeelRun(_load_feel(name), name, name))
    first = runs[0]
    return run_check(args.levels, first.feel, first.name, args.budget, args.routes, args.json, coins=args.coins,
                     fresh=args.fresh, jobs=args.jobs, seconds=args.time_cap, feel_path=first.path,
                     difficulty=args.difficulty, plot=args.plot, more_feels=runs[1:])


def _script_feel(script_path, script):
    """The FeelConfig a script's ``feel PATH`` header names, or None without one."""
    from engine import FeelConfig
    from game.files.inputscript import DEFAULT_FEEL, script_feel

    named = script_feel(script_path, script)
    if named is None:
        return None
    return FeelConfig() if named == DEFAULT_FEEL else _load_feel(str(named))


def _load_feel(path: str | None):
    from engine import FeelConfig

    if path is None:
        return FeelConfig()
    from game.files.feelfile import load_feel

    return load_feel(path)


def _explain(feel) -> str:
    from game.files import feelfile

    explain = getattr(feelfile, "explain", None)
    if explain is not None:
        return str(explain(feel))
    d = feel.derived
    return "\n".join(f"{k} = {v}" for k, v in vars(d).items()) if hasattr(d, "__dict__") else repr(d)


# -- headless ----------------------------------------------------------------------------------------


def _headless(args: argparse.Namespace, feel) -> int:
    if args.inputs and args.replay:
        raise CliError("give either --inputs or --replay (they mean the same with --headless), not both")
    script = args.inputs or args.replay
    if not script:
        raise CliError("--headless needs --inputs SCRIPT.txt (or --replay SCRIPT.txt)")
    # without --feel: the script's own `feel` header, when it has one (run_headless reads it)
    summary = run_headless(args.level, script, feel if args.feel else None, trace=args.trace, record=args.record)
    print(json.dumps(summary))
    return 0


def run_headless(level_path: str | Path | None, script_path: str | Path, feel=None, *,
                 trace: str | Path | None = None, record: str | Path | None = None) -> dict:
    """Play ``level_path`` with the input script ``script_path``; returns the JSON summary dict.
    ``level_path`` None: the level the script's ``level NAME`` header names (see :func:`resolve_script`).
    ``feel`` None: the feel the script's ``feel PATH`` header names, else the defaults.

    Stops when the script ends or the goal is reached. The trace and the recording are written whole or
    not at all (a full disk is a CliError naming the file). Raises LevelError / ScriptError /
    FeelFileError / CliError with one-line messages.
    """
    from game.files.inputscript import format_script
    from game.files.levelfile import load_level
    from game.rules.session import Session
    from game.files.userfiles import FileProblem, atomic_output, write_atomic

    level_path, script = resolve_script(level_path, script_path)
    if feel is None:
        feel = _script_feel(script_path, script)
    level = load_level(level_path, goal=True)
    session = Session(level, feel)
    played = []
    try:
        with atomic_output(trace, "trace") if trace else contextlib.nullcontext() as trace_file:
            writer = None
            if trace_file is not None:
                writer = csv.writer(trace_file, lineterminator="\n")
                writer.writerow(TRACE_COLUMNS)
            for buttons in script.steps:
                events = session.step(buttons)
                played.append(buttons)
                if writer is not None:
                    writer.writerow(trace_row(session, buttons, events))
                if session.completed:
                    break
        if record:
            write_atomic(record, format_script(played, level=level.name), "recording")
    except FileProblem as exc:
        raise CliError(str(exc)) from None
    return session.summary()


def trace_row(session, buttons, events) -> list:
    """One CSV row (``TRACE_COLUMNS``) describing the state after the step just taken."""
    from game.files.inputscript import buttons_word
    from game.rules.session import CONTRACT_EVENTS

    p = session.player
    coyote_left, buffer_left = getattr(p, "coyote_left", None), getattr(p, "buffer_left", None)
    if coyote_left is None or buffer_left is None:  # engines without the read-only views
        d = session.world.feel.derived
        air, since = getattr(p, "air_steps", 0), getattr(p, "since_press", None)
        coyote_left = d.coyote_steps if p.on_ground else max(0, d.coyote_steps - air)
        buffer_left = 0 if since is None else max(0, d.buffer_steps + 1 - since)
    ground = p.ground.kind if p.ground is not None else ""
    platform = ""
    if p.ground is not None and getattr(p.ground, "platform", None) is not None:
        spec = getattr(p.ground.platform, "data", None)
        platform = getattr(spec, "id", "")
    return [
        session.steps, repr(float(p.x)), repr(float(p.y)), repr(float(p.vx)), repr(float(p.vy)),
        int(bool(p.on_ground)), ground, platform, coyote_left, buffer_left, getattr(p, "drop_left", 0),
        int(bool(getattr(p, "jumping", False))), getattr(p, "facing", 1), int(session.dead),
        session.deaths, session.coins, buttons_word(buttons),
        ";".join(f"{e.type}:{e.name}" if e.name else e.type for e in events if e.type in CONTRACT_EVENTS),
    ]


# -- window ------------------------------------------------------------------------------------------


def _window(args: argparse.Namespace, feel) -> int:
    """Check what the window will use -- the replay and its level, the level, the recording's folder --
    and report a problem as the same one line as headless, before a window opens."""
    level = args.level
    if args.replay:
        level, script = resolve_script(args.level, args.replay)
        if not args.feel:  # the replay's own `feel` header: play it under the feel it was made with
            from game.files.inputscript import DEFAULT_FEEL, script_feel

            named = script_feel(args.replay, script)
            if named == DEFAULT_FEEL:
                args.default_feel = True
            elif named is not None:
                args.feel = str(named)
                _load_feel(args.feel)
    if level:
        from game.files.levelfile import load_level

        load_level(level, goal=True)
        args.level = str(level)
    if args.record:
        _check_writable(Path(args.record), "recording")
    from game.window.app import run_app  # pygame's window stack only when a window is wanted

    return int(run_app(args) or 0)


def _check_writable(path: Path, what: str) -> None:
    folder = path.parent
    if os.path.isdir(path):
        raise CliError(f"{path}: is a folder; give a file name for the {what}")
    if not os.path.isdir(folder):
        raise CliError(f"{path}: cannot write the {what} (no folder {folder})")
    if not os.access(folder, os.W_OK):
        raise CliError(f"{path}: cannot write the {what} (the folder {folder} is not writable)")

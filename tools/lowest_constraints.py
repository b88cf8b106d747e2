"""Lowest constraints: a pip constraints file pinning every `>=` bound of pyproject.toml to that lowest version.

    python tools/lowest_constraints.py [--extra test] [--pyproject pyproject.toml] [-o lowest.txt]

Reads the build requirements, `project.dependencies` and the named optional extras (`test` unless told), and
writes `name==X` for `name>=X` (and `~=X`, `==X`), so that

    python -m pip install -c lowest.txt -e ".[test]"

installs the oldest versions pyproject.toml claims to work with; `.ci/run`'s lowest job runs tests on them.
A requirement with no lower bound is left to pip (newest) and named in a comment. A requirement whose lowest
version cannot be read (`>X`, `!=` alone, a URL) is an error: exit 2 with a one-line message. Standard
library only (tomllib), so it runs before anything is installed.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import tomllib
from pathlib import Path

# Packages pip pulls in for ours, pinned too only where their newest release breaks with our lowest bounds.
# name -> (version, why). Empty: the lowest direct pins install and pass with today's transitive versions.
TRANSITIVE: dict[str, tuple[str, str]] = {}

_REQ = re.compile(r"^\s*(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*(?P<spec>[^;]*?)\s*(?:;(?P<marker>.*))?$")
_CLAUSE = re.compile(r"^\s*(?P<op>~=|===|==|!=|<=|>=|<|>)\s*(?P<version>[A-Za-z0-9.*+!_-]+)\s*$")


class BoundError(ValueError):
    """A requirement whose lowest version cannot be read."""


def lowest(requirement: str) -> str | None:
    """`"numpy>=1.26"` -> `"numpy==1.26"`; `None` when there is no lower bound. Raises BoundError."""
    m = _REQ.match(requirement)
    if not m or "@" in requirement:
        raise BoundError(f"{requirement!r} is not a `name>=version` requirement")
    name, spec, marker = m["name"], m["spec"].strip(), (m["marker"] or "").strip()
    floor = None
    for clause in filter(None, (c.strip() for c in spec.split(","))):
        c = _CLAUSE.match(clause)
        if not c:
            raise BoundError(f"{requirement!r}: cannot read the version clause {clause!r}")
        op, version = c["op"], c["version"]
        if op == ">":
            raise BoundError(f"{requirement!r}: `>` has no lowest version; write `>=` the oldest that works")
        if "*" in version and op != "!=":
            raise BoundError(f"{requirement!r}: a wildcard has no lowest version; write `>=` the oldest that works")
        if op in (">=", "~=", "==", "==="):
            if floor is not None:
                raise BoundError(f"{requirement!r}: more than one lower bound")
            floor = version
    if floor is None:
        return None
    return f"{name}=={floor}" + (f" ; {marker}" if marker else "")


def constraints(pyproject: dict, extras: list[str]) -> list[str]:
    """The lines of the constraints file for a parsed pyproject.toml. Raises BoundError, KeyError."""
    if "project" not in pyproject:
        raise KeyError("no [project] table")
    project = pyproject["project"]
    groups = [("build-system.requires", pyproject.get("build-system", {}).get("requires", [])),
              ("project.dependencies", project.get("dependencies", []))]
    optional = project.get("optional-dependencies", {})
    for extra in extras:
        if extra not in optional:
            raise KeyError(f"no optional-dependencies extra {extra!r} (there are: {', '.join(sorted(optional)) or 'none'})")
        groups.append((f"project.optional-dependencies.{extra}", optional[extra]))
    lines, free = [], []
    for _, requirements in groups:
        for requirement in requirements:
            pin = lowest(requirement)
            if pin is None:
                free.append(_REQ.match(requirement)["name"])
            elif pin not in lines:
                lines.append(pin)
    for name, (version, why) in TRANSITIVE.items():
        lines.append(f"{name}=={version}  # {why}")
    if free:
        lines.append(f"# no lower bound, so pip's newest: {', '.join(free)}")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pyproject", default="pyproject.toml", help="the pyproject.toml to read (default: %(default)s)")
    ap.add_argument("--extra", action="append", help="optional-dependencies extra to include (default: test)")
    ap.add_argument("-o", "--output", help="file to write (atomically); default: standard output")
    args = ap.parse_args(argv)
    path = Path(args.pyproject)
    try:
        with path.open("rb") as f:
            data = tomllib.load(f)
        lines = constraints(data, args.extra or ["test"])
    except OSError as e:
        print(f"lowest_constraints: {path}: cannot read it: {e.strerror}", file=sys.stderr)
        return 2
    except tomllib.TOMLDecodeError as e:
        print(f"lowest_constraints: {path}: not valid TOML: {e}", file=sys.stderr)
        return 2
    except (BoundError, KeyError) as e:
        print(f"lowest_constraints: {path}: {e.args[0]}", file=sys.stderr)
        return 2
    text = f"# the lowest versions {path.name} allows; made by tools/lowest_constraints.py\n" + "\n".join(lines) + "\n"
    if not args.output:
        sys.stdout.write(text)
        return 0
    out = Path(args.output)
    fd, tmp = tempfile.mkstemp(dir=out.parent, prefix=f".{out.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, out)
    except BaseException:
        os.unlink(tmp)
        raise
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""tools/lowest_constraints.py: every `>=` bound of pyproject.toml becomes an `==` pin; what it cannot read is a
one-line error with exit 2. `.ci/run`'s lowest-versions job installs with this file."""

import importlib.util
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tools" / "lowest_constraints.py"
SPEC = importlib.util.spec_from_file_location("lowest_constraints", SCRIPT)
lc = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(lc)


@pytest.mark.parametrize(("requirement", "pin"), [
    ("numpy>=1.26", "numpy==1.26"),
    ("pygame-ce>=2.5.8,<2.6", "pygame-ce==2.5.8"),
    ("pytmx >= 3.32 , < 3.33", "pytmx==3.32"),
    ("arcade>=3.3,<4", "arcade==3.3"),
    ("foo[bar,baz]>=1.0", "foo==1.0"),
    ("foo~=2.1", "foo==2.1"),
    ("foo==0.9", "foo==0.9"),
    ("foo<3,>=2,!=2.5.*", "foo==2"),
    ('tomli>=1.1; python_version < "3.11"', 'tomli==1.1 ; python_version < "3.11"'),
    ("wheel", None),
    ("foo<3", None),
])
def test_the_lower_bound_becomes_the_pin(requirement, pin):
    assert lc.lowest(requirement) == pin


@pytest.mark.parametrize(("requirement", "says"), [
    ("foo>1", "`>` has no lowest version"),
    ("foo>=1,>=2", "more than one lower bound"),
    ("foo @ https://example.org/foo.whl", "not a `name>=version`"),
    ("foo==1.*", "a wildcard has no lowest version"),
    ("foo=>1", "cannot read the version clause"),
])
def test_a_bound_it_cannot_read_is_an_error(requirement, says):
    with pytest.raises(lc.BoundError, match=re.escape(says)):
        lc.lowest(requirement)


def test_the_projects_pyproject_pins_every_lower_bound_it_has():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    lines = lc.constraints(data, ["test"])
    pins = dict(line.split("==", 1) for line in lines if "==" in line and not line.startswith("#"))
    wanted = data["build-system"]["requires"] + data["project"]["dependencies"]
    wanted += data["project"]["optional-dependencies"]["test"]
    bounded = [r for r in wanted if ">=" in r]
    assert bounded, "pyproject.toml has no lower bounds?"
    for requirement in bounded:
        name, floor = re.match(r"([A-Za-z0-9._-]+).*?>=\s*([0-9][^,;\s]*)", requirement).groups()
        assert pins.get(name) == floor, f"{requirement!r}: expected {name}=={floor} in {lines}"
    assert "arcade" not in pins  # the bench extra was not asked for


def test_the_cli_writes_the_file_and_an_unreadable_pyproject_is_one_line(tmp_path):
    out = tmp_path / "lowest.txt"
    done = subprocess.run([sys.executable, str(SCRIPT), "--pyproject", str(ROOT / "pyproject.toml"), "-o", str(out)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    assert "\nnumpy==" in text and "\npytest==" in text and text.endswith("\n")
    assert list(tmp_path.iterdir()) == [out]  # no temporary file left beside it

    bad = tmp_path / "pyproject.toml"
    for content, says in [('[project]\nname = "x"\ndependencies = ["foo>1"]\n[project.optional-dependencies]\ntest = []\n',
                           "`>` has no lowest version"),
                          ("[project\n", "not valid TOML"),
                          ('[tool.x]\na = 1\n', "no [project] table")]:
        bad.write_text(content)
        done = subprocess.run([sys.executable, str(SCRIPT), "--pyproject", str(bad)],
                              capture_output=True, text=True, check=False)
        assert done.returncode == 2
        assert done.stderr.count("\n") == 1 and str(bad) in done.stderr and says in done.stderr, done.stderr
        assert "Traceback" not in done.stderr
    done = subprocess.run([sys.executable, str(SCRIPT), "--pyproject", str(tmp_path / "missing.toml")],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2 and "missing.toml: cannot read it" in done.stderr
    done = subprocess.run([sys.executable, str(SCRIPT), "--pyproject", str(ROOT / "pyproject.toml"), "--extra", "nope"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2 and "no optional-dependencies extra 'nope'" in done.stderr

"""The public API (docs/api.md): its examples run as written, and it type-checks for a user
under mypy --strict."""
import doctest
import os
import subprocess
import sys

from conftest import ROOT

USER_CODE = '''
from pathlib import Path

import ygo_timing
from ygo_timing import CheckResult, DiffResult, OptionsResult, check_file, check_text


def verdict_of(path: Path) -> str:
    r: CheckResult = check_file(path, cards=[{"name": "X", "type": "monster"}, "house.json"], timeout=2.5)
    if r.first_illegal is not None:
        return f"{r.verdict} at line {r.first_illegal.line}: {[x.id for x in r.rules]}"
    return r.verdict


def passes(text: str) -> bool:
    return check_text(text, name="x.play", ruleset="tcg").passed


def allowed(path: str) -> list[str]:
    o: OptionsResult = ygo_timing.options_file(path, at=3)
    return [c.action for c in o.allowed() if c.player == "A"]


def classes() -> int:
    d: DiffResult = ygo_timing.diff("tcg", "ocg", max_length=2, timeout=60.0)
    return len(d.differences) + sum(len(x.plays) for x in d.differences)


version: str = ygo_timing.__version__
'''


def test_docs_api_examples_run_as_written():
    result = doctest.testfile(str(ROOT / "docs" / "api.md"), module_relative=False)
    assert result.attempted >= 20 and result.failed == 0


def test_mypy_strict_accepts_a_users_code_and_sees_the_types(tmp_path):
    """Installed as a user installs it (a wheel, not this editable checkout, which mypy cannot
    follow), the package's types reach mypy: good code passes, a type error is caught."""
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(ROOT)],
                   check=True, capture_output=True)
    assert (site / "ygo_timing" / "py.typed").is_file()
    (tmp_path / "user.py").write_text(USER_CODE)
    (tmp_path / "wrong.py").write_text("import ygo_timing\n\nn: int = ygo_timing.check_text('x').verdict\n")
    env = dict(os.environ, PYTHONPATH=str(site))

    def mypy(name):
        return subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", name],
                              cwd=tmp_path, env=env, capture_output=True, text=True)
    good = mypy("user.py")
    assert good.returncode == 0, good.stdout
    bad = mypy("wrong.py")
    assert bad.returncode == 1 and 'Incompatible types in assignment (expression has type "Literal[' in bad.stdout

"""What a user expects of a Python command-line tool: metadata, --version, python -m, stdin, config."""
import json
import subprocess
import sys
from importlib import metadata

import pytest
from click.testing import CliRunner
from conftest import FIXTURES
from ygo_timing.cli.main import main


def test_package_metadata_has_license_and_classifiers():
    meta = metadata.metadata("ygo-timing")
    assert meta["License-Expression"] == "MIT"
    assert meta.get_all("License-File") == ["LICENSE"]
    classifiers = meta.get_all("Classifier")
    assert "Typing :: Typed" in classifiers and "Framework :: Pytest" in classifiers
    # no public address of the project is known yet: no guessed URL is published in its metadata
    assert not meta.get_all("Project-URL")

EX = FIXTURES / "examples"
LEGAL = (EX / "ex1-legal.play").read_text("utf-8")       # tcg; expects legal
ILLEGAL = (EX / "ex1-illegal.play").read_text("utf-8")   # tcg; expects illegal T4


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def test_version_is_the_installed_metadata_everywhere():
    import ygo_timing
    version = metadata.version("ygo-timing")
    assert ygo_timing.__version__ == version
    assert run("--version").output == f"ygo-timing {version}\n"
    module = subprocess.run([sys.executable, "-m", "ygo_timing", "--version"], capture_output=True, text=True)
    assert (module.returncode, module.stdout) == (0, f"ygo-timing {version}\n")


def test_python_m_runs_the_command():
    r = subprocess.run([sys.executable, "-m", "ygo_timing", "check", str(EX / "ex1-legal.play")],
                       capture_output=True, text=True)
    assert r.returncode == 0 and "LEGAL under tcg (as expected)" in r.stdout


def test_import_is_cheap():
    code = "import sys, ygo_timing; print(sorted(m for m in ('z3', 'click', 'ygo_timing.api') if m in sys.modules))"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert r.stdout.strip() == "[]"


def test_check_dash_reads_one_play_from_stdin_named_by_stdin_filename():
    r = run("check", "-", "--stdin-filename", "logs/duel.play", input=ILLEGAL.replace("expect: illegal T4\n", ""))
    assert r.exit_code == 1 and r.output.startswith("logs/duel.play: ILLEGAL under tcg")
    bad = run("check", "-", "--stdin-filename", "logs/duel.play", input="ruleset: ocg\nfly away\n")
    assert bad.exit_code == 2 and "logs/duel.play:2: unknown action 'fly'" in bad.output
    unnamed = run("check", "-", "--format", "json", input=LEGAL)
    assert json.loads(unnamed.output)[0]["path"] == "<stdin>" and unnamed.exit_code == 0


def test_check_dash_reads_the_json_form_too():
    from ygo_timing.inputs.play import load, to_json
    doc = json.dumps(to_json(load(str(EX / "ex1-illegal.play"))))
    r = run("check", "-", "--format", "json", input=doc)
    [out] = json.loads(r.output)
    assert (out["verdict"], out["matches_expect"], r.exit_code) == ("illegal", True, 0)


@pytest.mark.parametrize("args, says", [
    (["-", "x.play"], "- reads one play from standard input"),
    (["x.play", "--stdin-filename", "y.play"], "--stdin-filename names the play read from standard input"),
])
def test_stdin_usage_errors(args, says):
    r = run("check", *args, input="")
    assert r.exit_code == 2 and says in r.output


def test_pyproject_settings_are_defaults_from_a_subfolder(tmp_path, monkeypatch):
    from ygo_timing.cards.catalogue import builtin
    card = builtin()["Rising Energy"].to_dict()   # made able to activate during damage calculation:
    card["effects"][0]["timings"] = ["during_calc"]   # EX-1 becomes legal (as tests/test_cli.py)
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "house.json").write_text(json.dumps({"cards": [card]}))
    (tmp_path / "pyproject.toml").write_text('[tool.ygo-timing]\nformat = "json"\ncards = ["cards/house.json"]\n'
                                             'jobs = 1\ntimeout = "30s"\n')
    sub = tmp_path / "plays" / "deep"
    sub.mkdir(parents=True)
    (sub / "ex1.play").write_text(ILLEGAL)
    monkeypatch.chdir(sub)
    [out] = json.loads(run("check", "ex1.play").output)   # format json; the house card makes the play legal
    assert out["verdict"] == "legal" and out["matches_expect"] is False
    assert run("check", "--format", "text", "ex1.play").output.startswith("ex1.play: LEGAL under tcg")
    (tmp_path / "pyproject.toml").write_text('[tool.ygo-timing]\nruleset = "ocg"\n')
    [out] = json.loads(run("check", "--format", "json", "ex1.play").output)
    assert out["ruleset"] == "ocg"


@pytest.mark.parametrize("toml, says", [
    ('colour = "blue"', "unknown key 'colour'; expected one of: ruleset, cards, format, jobs, timeout"),
    ("jobs = 0", "jobs = 0; expected a whole number from 1 to 256"),
    ('ruleset = "rush"', "ruleset = 'rush'; expected one of ocg, tcg"),
    ("timeout = true", "timeout = True; expected seconds per solver query"),
    ("format = [", "cannot read it as TOML"),
])
def test_bad_pyproject_settings_are_usage_errors_naming_the_file(tmp_path, monkeypatch, toml, says):
    (tmp_path / "pyproject.toml").write_text(f"[tool.ygo-timing]\n{toml}\n")
    monkeypatch.chdir(tmp_path)
    r = run("check", str(EX / "ex1-legal.play"))
    assert r.exit_code == 2 and f"{tmp_path / 'pyproject.toml'}" in r.output and says in r.output
    assert "Traceback" not in r.output


def test_timeout_is_seconds_and_the_old_milliseconds_are_refused_clearly():
    old = run("check", "--timeout", "20000", EX / "ex1-legal.play")
    assert old.exit_code == 2 and "--timeout is in seconds now (it was milliseconds); write 20 or 20000ms" in old.output
    for value in ("20", "2.5", "500ms", "20s"):
        assert run("check", "--timeout", value, EX / "ex1-legal.play").exit_code == 0, value
    assert run("options", "--timeout", "20000", EX / "ex1-legal.play").exit_code == 2
    assert "expected at most 86400 seconds" in run("diff", "tcg", "ocg", "--timeout", "1e9").output


def _commands(group, prefix=()):
    import click
    for name, cmd in group.commands.items():
        yield (*prefix, name)
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, (*prefix, name))


@pytest.mark.parametrize("command", [" ".join(c) for c in _commands(main)])
def test_every_command_has_an_example_and_its_exit_codes_in_its_help(command):
    out = run(*command.split(), "--help").output
    assert "Examples:" in out and "ygo-timing " + command.split()[0] in out.split("Examples:")[1]
    assert "Exit codes" in out

"""The pytest plugin, run by pytest itself (pytester): play files are tests when asked
(`--ygo-timing`, or the ini option `ygo_timing_paths`), and nothing happens otherwise."""
import json

import pytest
from conftest import FIXTURES, ROOT

pytest_plugins = ["pytester"]

EX = FIXTURES / "examples"
ILLEGAL = (EX / "ex1-illegal.play").read_text("utf-8")   # expects illegal T4; the checker agrees
LEGAL = (EX / "ex1-legal.play").read_text("utf-8")       # expects legal


def plays(pytester, **files):
    for name, text in files.items():
        p = pytester.path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, "utf-8")


def test_one_passing_test_per_play_without_any_conftest(pytester):
    plays(pytester, **{"ex1-illegal.play": ILLEGAL, "sub/ex1-legal.play": LEGAL})
    r = pytester.runpytest_subprocess("-v", "--ygo-timing")   # a fresh process: the entry point alone loads the plugin
    r.assert_outcomes(passed=2)
    r.stdout.fnmatch_lines(["ex1-illegal.play::check PASSED*", "sub/ex1-legal.play::check PASSED*"])


def test_failure_prints_the_counterexample_at_its_line(pytester):
    plays(pytester, **{"log.play": ILLEGAL.replace("expect: illegal T4\n", "")})   # no expect: must be legal
    r = pytester.runpytest("--ygo-timing")
    r.assert_outcomes(failed=1)
    r.stdout.fnmatch_lines([
        "log.play:27: ILLEGAL; a play without an `expect:` line must be legal",
        "log.play: ILLEGAL under tcg",
        "  first illegal action: #10 (line 27): chain A \"Rising Energy\" target \"Dark Magician\" cost K",
        "  breaks:",
        "    T4 (S0-TCG 70-78): At damage calculation only one Chain*",
        "  because:",
        "    - window: sub-step 4: at damage calculation (line 24, by T4)",
        "FAILED log.play::check - Failed: log.play:27: ILLEGAL*",
    ])
    assert "Traceback" not in r.stdout.str()


def test_expected_rule_ids_must_be_cited(pytester):
    plays(pytester, **{"wrong.play": ILLEGAL.replace("expect: illegal T4", "expect: illegal T4 CH-5")})
    r = pytester.runpytest("--ygo-timing")
    r.assert_outcomes(failed=1)
    r.stdout.fnmatch_lines(["wrong.play:28: ILLEGAL, expected ILLEGAL citing T4 CH-5",
                            "wrong.play: ILLEGAL under tcg (EXPECTED ILLEGAL citing T4 CH-5)"])


def test_expected_illegal_but_legal_fails(pytester):
    plays(pytester, **{"lax.play": LEGAL.replace("expect: legal", "expect: illegal")})
    r = pytester.runpytest("--ygo-timing")
    r.assert_outcomes(failed=1)
    r.stdout.fnmatch_lines(["lax.play: LEGAL, expected ILLEGAL", "lax.play: LEGAL under tcg (EXPECTED ILLEGAL)"])


def test_bad_file_is_an_error_with_its_location(pytester):
    plays(pytester, **{"bad.play": 'ruleset: ocg\nA monster "Dark Magician"\nfly away\n',
                       "unknown.play": 'ruleset: ocg\nA monster "No Such Card"\nenter battle phase\n',
                       "good.play": LEGAL})
    r = pytester.runpytest("--ygo-timing")
    r.assert_outcomes(passed=1, errors=2)   # one bad file does not stop the others
    r.stdout.fnmatch_lines_random([
        "bad.play:3: could not be checked: unknown action 'fly'; expected one of: enter, *",
        "unknown.play:2: could not be checked: unknown card 'No Such Card': not in the catalogue*",
        "ERROR bad.play::check - Failed: bad.play:3: *", "ERROR unknown.play::check - Failed: unknown.play:2: *",
    ])


def test_patterns_are_configurable_and_skip_catalogues(pytester):
    from ygo_timing.inputs.convert import render
    from ygo_timing.inputs.play import load
    pytester.makeini("[pytest]\nygo_timing_patterns = plays/*.json *.ygo\n")
    plays(pytester, **{"plays/ex1.json": render(load(str(EX / "ex1-illegal.play")), "json"),
                       "plays/cards.json": '{"cards": []}',
                       "other/ignored.json": render(load(str(EX / "ex1-legal.play")), "json"),
                       "legal.ygo": LEGAL, "not-collected.play": "fly away\n"})
    r = pytester.runpytest("-v", "--ygo-timing")
    r.assert_outcomes(passed=2)
    r.stdout.fnmatch_lines_random(["plays/ex1.json::check PASSED*", "legal.ygo::check PASSED*"])


def test_ruleset_from_ini_and_command_line(pytester):
    plays(pytester, **{"ex1-legal.play": LEGAL})   # tcg windows: not the same play under ocg
    pytester.makeini("[pytest]\nygo_timing_ruleset = ocg\n")
    pytester.runpytest("--ygo-timing").assert_outcomes(failed=1)
    pytester.runpytest("--ygo-timing", "--ygo-timing-ruleset=tcg").assert_outcomes(passed=1)
    r = pytester.runpytest("--ygo-timing", "--ygo-timing-ruleset=goat")
    assert r.ret == pytest.ExitCode.USAGE_ERROR
    r.stderr.fnmatch_lines(["*ygo-timing: rule set 'goat'; expected one of: ocg, tcg*"])


def test_cards_from_ini_relative_to_it(pytester):
    from ygo_timing.cards.catalogue import builtin
    card = builtin()["Rising Energy"].to_dict()
    card["effects"][0]["timings"] = ["during_calc"]   # now it may answer Lily: EX-1's illegal play turns legal
    plays(pytester, **{"cfg/cards.json": json.dumps({"cards": [card]}), "ex1-illegal.play": ILLEGAL})
    pytester.makeini("[pytest]\nygo_timing_cards = cfg/cards.json\n")
    r = pytester.runpytest("--ygo-timing")
    r.assert_outcomes(failed=1)
    r.stdout.fnmatch_lines(["ex1-illegal.play: LEGAL, expected ILLEGAL"])


def test_bad_timeout_is_a_usage_error(pytester):
    pytester.makeini("[pytest]\nygo_timing_timeout = soon\n")
    r = pytester.runpytest("--ygo-timing")
    assert r.ret == pytest.ExitCode.USAGE_ERROR
    r.stderr.fnmatch_lines(["*ygo_timing_timeout = 'soon': 'soon' is not a time; expected seconds such as 20*"])


def test_plugin_can_be_unloaded(pytester):
    plays(pytester, **{"ex1-legal.play": LEGAL})
    pytester.makeini("[pytest]\nygo_timing_paths = .\n")   # asks for the plugin, which -p no: unloads
    assert pytester.runpytest().ret == pytest.ExitCode.OK
    r = pytester.runpytest("-p", "no:ygo_timing")
    assert r.ret == pytest.ExitCode.NO_TESTS_COLLECTED


BARE_TEST = "def test_unrelated():\n    assert True\n"


def test_a_bare_project_with_a_stray_play_file_is_untouched(pytester):
    """An unrelated project that happens to hold a .play file: without the flag, pytest runs as
    if the plugin were not installed (its own test only, not even a bad ini value is read)."""
    plays(pytester, **{"assets/intro.play": "fly away\n", "test_app.py": BARE_TEST})
    pytester.makeini("[pytest]\nygo_timing_timeout = soon\n")
    r = pytester.runpytest_subprocess("-v")   # the entry point alone, as in the user's environment
    r.assert_outcomes(passed=1)
    assert "intro.play" not in r.stdout.str() and r.ret == 0
    asked = pytester.runpytest_subprocess("-v", "--ygo-timing", "-o", "ygo_timing_timeout=20")
    asked.assert_outcomes(passed=1, errors=1)   # now the stray file is a test, and cannot be checked
    asked.stdout.fnmatch_lines_random(["ERROR assets/intro.play::check*"])


def test_the_ini_option_names_the_paths_and_pytest_looks_there(pytester):
    plays(pytester, **{"plays/ex1-legal.play": LEGAL, "assets/intro.play": "fly away\n",
                       "tests/test_app.py": BARE_TEST})
    pytester.makeini("[pytest]\ntestpaths = tests\nygo_timing_paths = plays\n")
    r = pytester.runpytest("-v")   # no flag: the ini option asks
    r.assert_outcomes(passed=2)
    r.stdout.fnmatch_lines_random(["plays/ex1-legal.play::check PASSED*", "tests/test_app.py::test_unrelated PASSED*"])
    assert "intro.play" not in r.stdout.str()   # not under ygo_timing_paths


def test_this_repos_own_suite_collects_no_play_files():
    """tests/test_fixtures.py checks the fixtures; the plugin must not collect them a second time."""
    assert 'testpaths = ["tests"]' in (ROOT / "pyproject.toml").read_text("utf-8")
    assert not [p for p in (ROOT / "tests").rglob("*") if p.suffix == ".play"]

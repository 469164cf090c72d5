"""Solver limits: a query the solver cannot decide within --timeout / --rlimit gives the verdict
`unknown` (exit 3) with the reason -- never `legal`."""
import json

import pytest
from click.testing import CliRunner
from conftest import FIXTURES
from ygo_timing.checking.verdict import DEFAULT_RLIMIT, DEFAULT_TIMEOUT_MS
from ygo_timing.cli.main import main

EX = FIXTURES / "examples"
LEGAL = EX / "ex1-legal.play"
ILLEGAL = EX / "ex1-illegal.play"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def verdicts(r):
    return [o["verdict"] for o in json.loads(r.output)]


def test_tiny_rlimit_is_unknown_exit_3_with_the_reason():
    # --verify: the legal play is replayed by the solver too, so both meet the limit
    r = run("check", "--verify", "--rlimit", "1", LEGAL, ILLEGAL)
    assert r.exit_code == 3, r.output
    heads = [ln for ln in r.output.splitlines() if not ln.startswith(" ")]
    assert [h.split(": ")[1].split()[0] for h in heads] == ["UNKNOWN", "UNKNOWN"]
    # the line where the solver gave up, the solver's reason, and the limits in force
    assert f"{LEGAL}:16: the solver answered unknown (" in r.output
    assert "rlimit 1)" in r.output and "raise --timeout or --rlimit" in r.output


def test_tiny_rlimit_in_the_json_report():
    r = run("check", "--format", "json", "--rlimit", "1", ILLEGAL)
    [out] = json.loads(r.output)
    assert r.exit_code == 3
    assert out["verdict"] == "unknown" and out["matches_expect"] is False
    # the solver is first asked at the illegal step the compiled walk found (line 28), not from the start
    assert out["message"].startswith(f"{ILLEGAL}:28: the solver answered unknown")


def test_the_limits_bound_solver_queries_only():
    # without --verify a legal play is decided by the compiled relation alone (docs/performance.md),
    # which asks the solver nothing: a known verdict, whatever the solver's limits
    r = run("check", "--format", "json", "--rlimit", "1", LEGAL, ILLEGAL)
    assert verdicts(r) == ["legal", "unknown"] and r.exit_code == 3


@pytest.mark.parametrize("rlimit", [1, 30_000, 50_000, 70_000, 100_000, 1_000_000])
def test_no_rlimit_turns_an_illegal_play_legal(rlimit):
    # whatever the limit (these straddle the point where EX-1's queries start to fit), the answer
    # is the true one, with a rule named, or `unknown`
    r = run("check", "--format", "json", "--rlimit", rlimit, ILLEGAL)
    [out] = json.loads(r.output)
    assert out["verdict"] in ("illegal", "unknown")
    # illegal as the play expects: it passes (exit 0) when it cites the expected T4, else fails (1)
    assert r.exit_code == {"illegal": 0 if out["matches_expect"] else 1, "unknown": 3}[out["verdict"]]
    if out["verdict"] == "illegal":
        assert out["violations"]


def test_a_tiny_timeout_never_gives_legal_where_the_full_check_does_not():
    # 1 ms may or may not be enough for a query on this machine; either way, no wrong `legal`
    r = run("check", "--format", "json", "--timeout", "1ms", ILLEGAL, LEGAL)
    got = verdicts(r)
    assert got[0] in ("illegal", "unknown") and got[1] in ("legal", "unknown")
    passed = all(o["matches_expect"] for o in json.loads(r.output))   # both plays state `expect:`
    assert r.exit_code == (3 if "unknown" in got else 0 if passed else 1)


def test_unknown_outranks_illegal_in_the_exit_code():
    r = run("check", "--rlimit", "1", "--format", "json", ILLEGAL)
    assert verdicts(r) == ["unknown"] and r.exit_code == 3


@pytest.mark.parametrize("opt", ["--rlimit", "--timeout"])
@pytest.mark.parametrize("value", ["0", "-5", "lots"])
def test_bad_limits_are_usage_errors(opt, value):
    r = run("check", opt, value, LEGAL)
    assert r.exit_code == 2 and "Traceback" not in r.output and opt in r.output


def test_defaults_are_shown():
    out = run("check", "--help").output
    assert f"[default: {DEFAULT_TIMEOUT_MS / 1000}]" in out and f"{DEFAULT_RLIMIT}" in out

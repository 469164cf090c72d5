import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures" / "plays"
# The domain documents (read-only, beside the clone; YGO_TIMING_SHARED names another place). A
# fresh clone without them skips the tests that read them; CI, which has them, runs those.
SHARED = Path(os.environ.get("YGO_TIMING_SHARED") or ROOT.parent / "shared")
needs_shared = pytest.mark.skipif(not (SHARED / "spec").is_dir(),
                                  reason=f"needs the domain documents in {SHARED}/spec (../shared beside "
                                         "the clone, or set YGO_TIMING_SHARED)")

# Fuzzing profiles (tests/test_fuzz.py, docs/robustness.md). "ci" is the default: few enough
# examples for every test run, derandomized so a failure reproduces on any machine. "long" is for
# local runs: HYPOTHESIS_PROFILE=long .venv/bin/pytest tests/test_fuzz.py
from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile("ci", max_examples=200, deadline=None, derandomize=True, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=10_000, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
# The checker runs the solver on every example: a fixed fraction of the parsers' examples.
CHECKER_EXAMPLES = max(10, settings.default.max_examples // 10)


# --- one solver replay per fixture, shared by the tests that step every fixture ---------------
from dataclasses import dataclass  # noqa: E402

import pytest  # noqa: E402


@dataclass
class Trace:
    """A fixture replayed step by step through the solver (Run.step), as `check --verify` does."""
    play: object
    cards: dict
    ruleset: str
    steps: list     # (action, line, state before, result, detail, state after) per solver step
    outcome: object  # checking.run.Outcome of the whole replay


def solver_trace(path) -> Trace:
    from ygo_timing.checking.facts import play_cards
    from ygo_timing.checking.run import Run, walk
    from ygo_timing.inputs.play import load
    play = load(str(path))
    cards, name = play_cards(play), play.ruleset or "ocg"
    run = Run(play, name, cards, 60_000, 500_000_000)
    steps, step = [], run.step

    def recording(act, line, text=""):
        before = run.vals
        result, detail = step(act, line, text)
        steps.append((act, line, before, result, detail, run.vals))
        return result, detail
    return Trace(play, cards, name, steps, walk(run, recording))


@pytest.fixture(scope="session")
def traces():
    """`traces(path)`: the fixture's solver trace, computed once per test session."""
    memo = {}

    def get(path):
        if path not in memo:
            memo[path] = solver_trace(path)
        return memo[path]
    return get

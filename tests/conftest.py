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


# --- the relations the fixtures need, built once before the test processes start ---------------
# A size bucket's relation takes 30-60 s of CPU to build (terms, bytecode, SMT-LIB, shared object),
# then milliseconds to load from the disk cache. The fixtures use about 15 buckets, and the two
# pytest-xdist processes reach each new one at about the same time, so on a fresh cache (CI) both
# built it. The controlling process now builds each bucket once, one bucket per CPU, first.
WARM = """
import json, os, sys
os.environ["YGO_TIMING_NATIVE"] = "1"   # the shared object too (test_native_steps_agree needs it)
from ygo_timing.model import compiled, native, step
key = json.loads(sys.argv[1]); key[3] = frozenset(key[3])
compiled.evaluator(*key)
step.solver_relation(*key)
native.relation(*key)
"""


def play_keys(path) -> list:
    """The relations (Run.key) a play is checked on: its rule set's, or both games' if it names none."""
    from ygo_timing.checking.facts import play_cards
    from ygo_timing.checking.run import Run
    from ygo_timing.inputs.play import load
    play = load(str(path))
    cards = play_cards(play)
    return [Run(play, rs, cards, 60_000, 500_000_000).key for rs in ([play.ruleset] if play.ruleset else ["ocg", "tcg"])]


def by_relation(paths) -> list:
    """Plays in the order of the relation they are checked on (then by path): a process keeps a
    few relations in memory (model/step.py, RELATIONS_IN_MEMORY), and one read back from the disk
    costs 1-11 s of parsing and solver set-up before its first answer."""
    def key(p):
        try:
            return str(play_keys(p)), str(p)
        except Exception:   # a play that does not load fails its own tests, not the collection
            return "", str(p)
    return sorted(paths, key=key)


def fixture_keys() -> list:
    """The relations that the fixture plays and the rulings are checked on."""
    keys = {k for p in sorted(FIXTURES.rglob("*.play")) + sorted((ROOT / "fixtures" / "rulings").rglob("*.play"))
            for k in play_keys(p)}
    return sorted(keys, key=lambda k: (k[0], k[1], k[2], sorted(k[3]), k[4]))


# what a run must name (or hold: the whole tests/ folder) to be worth warming
STEPPING = {"tests", "test_compiled.py", "test_fixtures.py", "test_rulings.py"}


def cached(key) -> bool:
    from ygo_timing.model import compiled, native, step
    paths = [compiled.cached_path(key), step.solver_cached_path(key)]
    if native.compiler() and key[1] <= native.MAX_CARDS and key[2] <= native.MAX_EFFECTS:
        paths.append(native.cached_path(key))
    return all(p is not None and p.is_file() for p in paths)


def pytest_sessionstart(session):
    """Under pytest-xdist (the README's command), in the controlling process, when the run steps
    fixtures: every fixture's relation built into the disk cache, in as many processes as the
    run has workers. A run in one process builds what it needs as it goes."""
    import json
    import subprocess
    import sys
    from concurrent.futures import ThreadPoolExecutor
    workers = getattr(session.config.option, "numprocesses", None)
    if hasattr(session.config, "workerinput") or not workers or os.environ.get("YGO_TIMING_CACHE") == "":
        return
    if not any(Path(str(a).split("::")[0]).resolve().name in STEPPING for a in session.config.args or ["tests"]):
        return
    keys = [json.dumps([k[0], k[1], k[2], sorted(k[3]), k[4]]) for k in fixture_keys() if not cached(k)]
    say = session.config.pluginmanager.get_plugin("terminalreporter")
    say = say.write_line if say else lambda line: print(line, file=sys.stderr)
    if keys:
        say(f"building the relations of {len(keys)} size bucket{'s' * (len(keys) > 1)} the fixtures use, once, "
            "into the disk cache")

    def build(key):
        done = subprocess.run([sys.executable, "-c", WARM, key], capture_output=True, text=True)
        if done.returncode:   # the tests then build it themselves and report what fails
            say(f"building relation {key} failed:\n{done.stderr[-2000:]}")
    with ThreadPoolExecutor(int(workers) if str(workers).isdigit() else os.cpu_count() or 1) as pool:
        list(pool.map(build, keys))

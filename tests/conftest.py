from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures" / "plays"
SHARED = ROOT.parent / "shared"

# Fuzzing profiles (tests/test_fuzz.py, docs/robustness.md). "ci" is the default: few enough
# examples for every test run, derandomized so a failure reproduces on any machine. "long" is for
# local runs: HYPOTHESIS_PROFILE=long .venv/bin/pytest tests/test_fuzz.py
import os  # noqa: E402

from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile("ci", max_examples=200, deadline=None, derandomize=True, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=10_000, deadline=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
# The checker runs the solver on every example: a fixed fraction of the parsers' examples.
CHECKER_EXAMPLES = max(10, settings.default.max_examples // 10)

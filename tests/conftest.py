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

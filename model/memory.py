"""A process's memory budget for the relations it keeps.

The relations a process has read or built stay in memory for the next play of their size bucket
(model.step, model.compiled), and a relation that has answered many queries holds far more than
its terms: its solver's and its explanations' testers' state (a tester per restriction's slice,
all 55 under `--verify`). A process that meets many buckets — the test suite, a corpus checked
with `--verify` — grew past 16 GB with 4 relations kept (docs/performance.md, "Memory"). So when
a run is about to read a relation and the process is past its budget, every kept relation is let
go: each is read back from the disk cache when a play asks for it again (10-50 ms).

$YGO_TIMING_MEMORY_MB sets the budget (default 4096); 0 turns it off.
"""
from __future__ import annotations

import ctypes
import gc
import os

DEFAULT_MB = 4096
_limit = None   # the budget, raised after a relief to what is left plus half of it: never a relief per run


def budget_mb() -> int:
    """$YGO_TIMING_MEMORY_MB, read when a run first asks: a bad value is a ValueError that names
    it (the CLI says it as a usage error before any work), not a silent default."""
    value = os.environ.get("YGO_TIMING_MEMORY_MB", "").strip()
    if not value:
        return DEFAULT_MB
    if not value.isdigit():
        raise ValueError(f"YGO_TIMING_MEMORY_MB: expected a whole number of MB (0: no budget), got {value!r}")
    return int(value)


def resident_mb() -> int:
    """The process's resident memory (Linux); 0 where it cannot be read (then no budget applies)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 2**20
    except (OSError, ValueError, IndexError):
        return 0


def relieve() -> bool:
    """Let every kept relation go if the process is past its budget; True if it did."""
    global _limit
    budget = budget_mb()
    if _limit is None:
        _limit = budget
    if not budget or resident_mb() <= _limit:
        return False
    from . import compiled, step
    step.relation.cache_clear()
    step.solver_relation.cache_clear()
    compiled._loaded.clear()
    gc.collect()
    try:   # glibc keeps what z3 and Python free; give it back to the system
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass
    _limit = max(budget, resident_mb() + budget // 2)
    return True

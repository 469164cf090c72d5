"""Checking many plays: files or JSON Lines, in one process or several, results in input order.

`ordered_map` is the seam where another executor (a cluster, see docs/performance.md) would
plug in: it takes picklable work items and a picklable function and yields results in order,
with a bounded number in flight so that memory stays flat however long the input is.
"""
from __future__ import annotations

from dataclasses import dataclass

from ygo_timing.checking import workers
from ygo_timing.checking.check import check_play
from ygo_timing.checking.deadline import DEFAULT_DEADLINE_S
from ygo_timing.checking.verdict import DEFAULT_RLIMIT, DEFAULT_TIMEOUT_MS, Verdict
from ygo_timing.errors import internal
from ygo_timing.inputs.play import PlayError, load, parse_json

CHUNK = 8            # items per task sent to a worker: fewer, larger messages
IN_FLIGHT = 4        # tasks queued per worker before the next result is awaited


@dataclass(frozen=True)
class Options:
    ruleset: str | None = None
    cards_files: tuple = ()
    timeout_ms: int = DEFAULT_TIMEOUT_MS
    rlimit: int = DEFAULT_RLIMIT
    verify: bool = False
    deadline_s: float | None = DEFAULT_DEADLINE_S


def check_path(path: str, opts: Options) -> Verdict:
    try:
        play = load(str(path))
    except PlayError as e:
        return Verdict(str(path), opts.ruleset or "ocg", "error", message=str(e))
    except Exception as e:   # a parser bug must not print a traceback (check_play does the same)
        return Verdict(str(path), opts.ruleset or "ocg", "error", message=internal(path, e))
    return _check(play, opts)


def check_line(item: tuple, opts: Options) -> Verdict:
    """One JSON Lines record: (file name, line number, the line's bytes or an error message)."""
    name, lineno, data = item
    try:
        if isinstance(data, PlayError):
            raise data
        play = parse_json(data, name, first_line=lineno)
    except PlayError as e:
        return Verdict(name, opts.ruleset or "ocg", "error", message=str(e), record=lineno)
    except Exception as e:
        return Verdict(name, opts.ruleset or "ocg", "error", message=internal(f"{name}:{lineno}", e),
                       record=lineno)
    v = _check(play, opts)
    v.record = lineno
    return v


def _check(play, opts: Options) -> Verdict:
    return check_play(play, opts.ruleset, opts.cards_files, opts.timeout_ms, opts.rlimit, verify=opts.verify,
                      deadline_s=opts.deadline_s)


def ordered_map(fn, items, jobs: int = 1, chunk: int = CHUNK):
    """fn(item) for each item, in order; `jobs` > 1 spreads chunks of `chunk` items over processes
    (checking/workers.py: a worker that dies costs the item it was on, as fn.lost(item, why))."""
    if jobs <= 1:
        for item in items:
            yield fn(item)
        return
    yield from workers.ordered_map(fn, items, jobs, getattr(fn, "lost", None), chunk, IN_FLIGHT)


@dataclass(frozen=True)
class Checker:
    """The picklable per-item function for `ordered_map`: "path" or "jsonl" items."""
    kind: str
    opts: Options

    def __call__(self, item) -> Verdict:
        return check_path(item, self.opts) if self.kind == "path" else check_line(item, self.opts)

    def lost(self, item, why: str) -> Verdict:
        """The error verdict of an item whose worker died (or which could not reach one)."""
        ruleset = self.opts.ruleset or "ocg"
        if self.kind == "path":
            return Verdict(str(item), ruleset, "error", message=f"{item}: not checked: {why}")
        name, lineno, _ = item
        return Verdict(name, ruleset, "error", message=f"{name}:{lineno}: not checked: {why}", record=lineno)


def checker(kind: str, opts: Options) -> Checker:
    return Checker(kind, opts)

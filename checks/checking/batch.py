"""Checking many plays: files or JSON Lines, in one process or several, results in input order.

`ordered_map` is the seam where another executor (a cluster, see docs/performance.md) would
plug in: it takes picklable work items and a picklable function and yields results in order,
with a bounded number in flight so that memory stays flat however long the input is.
"""
from __future__ import annotations

import multiprocessing
from collections import deque
from dataclasses import dataclass
from functools import partial

from ygo_timing.checking.check import check_play
from ygo_timing.checking.verdict import DEFAULT_RLIMIT, DEFAULT_TIMEOUT_MS, Verdict
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


def check_path(path: str, opts: Options) -> Verdict:
    try:
        play = load(str(path))
    except PlayError as e:
        return Verdict(str(path), opts.ruleset or "ocg", "error", message=str(e))
    except Exception as e:   # a parser bug must not print a traceback (check_play does the same)
        return Verdict(str(path), opts.ruleset or "ocg", "error", message=_internal(path, e))
    return _check(play, opts)


def _internal(where, e: Exception) -> str:
    return f"{where}: internal error, please report: {type(e).__name__}: {e}"


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
        return Verdict(name, opts.ruleset or "ocg", "error", message=_internal(f"{name}:{lineno}", e),
                       record=lineno)
    v = _check(play, opts)
    v.record = lineno
    return v


def _check(play, opts: Options) -> Verdict:
    return check_play(play, opts.ruleset, opts.cards_files, opts.timeout_ms, opts.rlimit, verify=opts.verify)


def _run_chunk(fn, chunk):
    return [fn(item) for item in chunk]


def ordered_map(fn, items, jobs: int = 1, chunk: int = CHUNK):
    """fn(item) for each item, in order; `jobs` > 1 spreads chunks of `chunk` items over processes."""
    if jobs <= 1:
        for item in items:
            yield fn(item)
        return
    with multiprocessing.Pool(jobs) as pool:
        pending = deque()
        for part in _chunks(items, chunk):
            pending.append(pool.apply_async(_run_chunk, (fn, part)))
            if len(pending) >= jobs * IN_FLIGHT:
                yield from pending.popleft().get()
        while pending:
            yield from pending.popleft().get()


def _chunks(items, size):
    chunk = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def checker(kind: str, opts: Options):
    """The picklable per-item function for `ordered_map`: "path" or "jsonl" items."""
    return partial(check_path if kind == "path" else check_line, opts=opts)

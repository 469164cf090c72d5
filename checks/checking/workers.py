"""Work spread over processes that may die: results in input order, nothing lost, never a hang.

`multiprocessing.Pool` loses a task whose worker dies (killed, out of memory, or unable to
unpickle the task) and then waits for it forever. Here each worker holds one chunk at a time
and answers item by item over its own pipe, and the parent waits on the pipes and on the
processes themselves, so it always knows which items a dead worker held: the one it was on
becomes `lost(item, why)` (an error verdict naming the cause), the ones it had not started are
given to a fresh worker, and everything already answered is kept.
"""
from __future__ import annotations

import multiprocessing
import pickle
import signal
from collections import deque
from dataclasses import dataclass, field
from multiprocessing.connection import wait

from ygo_timing.errors import bounded


class WorkerLost(Exception):
    """An item whose result never came back from its worker, and no `lost` to stand in for it."""


def _serve(conn, fn):
    """A worker: chunks of pickled items in, one pickled ("ok", result) or ("lost", why) out per item."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # the parent handles Ctrl-C and stops us
    while True:
        try:
            chunk = pickle.loads(conn.recv_bytes())
        except (EOFError, OSError):
            return
        for data in chunk:
            try:
                msg = pickle.dumps(("ok", fn(pickle.loads(data))))
            except Exception as e:   # an item or a result that cannot cross the process boundary
                msg = pickle.dumps(("lost", bounded(f"{type(e).__name__}: {e}", 500)))
            conn.send_bytes(msg)


@dataclass
class _Worker:
    proc: multiprocessing.Process
    conn: object
    held: deque = field(default_factory=deque)   # (index, item) sent and not yet answered


def _death(proc) -> str:
    proc.join(5)
    code = proc.exitcode
    if code is not None and code < 0:
        try:
            return f"the worker process was killed by {signal.Signals(-code).name} while checking it"
        except ValueError:
            pass
    return f"the worker process ended (exit code {code}) while checking it"


def ordered_map(fn, items, jobs: int, lost=None, chunk: int = 8, in_flight: int = 4):
    """fn(item) for each item, in input order, over `jobs` processes. An item whose worker
    died, or which (or whose result) cannot be pickled, gives lost(item, why); without `lost`
    that raises WorkerLost. At most jobs * in_flight * chunk items are held at a time."""
    ctx = multiprocessing.get_context()
    source = iter(enumerate(items))
    backlog: deque = deque()   # items of a dead worker it had not started
    done: dict = {}
    next_out, taken, exhausted = 0, 0, False
    failed = [0]   # sends refused in a row (reset by any answer)
    limit = jobs * in_flight * chunk

    def start():
        here, there = ctx.Pipe()
        proc = ctx.Process(target=_serve, args=(there, fn), daemon=True)
        proc.start()
        there.close()
        return _Worker(proc, here)

    def replace(w):
        w.conn.close()
        w.proc.join(5)
        return start()

    def give(w):
        nonlocal taken, exhausted
        batch = []
        while len(batch) < chunk and (backlog or (not exhausted and taken - next_out < limit)):
            if backlog:
                batch.append(backlog.popleft())
                continue
            try:
                batch.append(next(source))
                taken += 1
            except StopIteration:
                exhausted = True
        payload = []
        for index, item in batch:
            try:
                payload.append(pickle.dumps(item))
                w.held.append((index, item))
            except Exception as e:
                done[index] = _lost(item, f"it cannot be sent to a worker: {type(e).__name__}: {e}")
        if payload:
            try:
                w.conn.send_bytes(pickle.dumps(payload))
            except OSError:   # it died before reading them: they go to its successor
                failed[0] += 1
                if failed[0] > 3:   # workers that die as they start: the run still ends
                    index, item = w.held.popleft()
                    done[index] = _lost(item, "the worker processes end before they take any work")
                backlog.extendleft(reversed(w.held))
                w.held.clear()
                return False
        return True

    def _lost(item, why):
        if lost is None:
            return WorkerLost(why)
        return lost(item, bounded(why, 500))

    def answer(w, msg):
        failed[0] = 0
        index, item = w.held.popleft()
        try:
            status, value = pickle.loads(msg)
        except Exception as e:
            status, value = "lost", f"its result cannot be read: {type(e).__name__}: {e}"
        done[index] = value if status == "ok" else _lost(item, value)

    workers = []
    try:
        workers = [start() for _ in range(jobs)]
        while True:
            for k, w in enumerate(workers):
                if not w.held and not give(w):
                    workers[k] = replace(w)
            while next_out in done:
                result = done.pop(next_out)
                next_out += 1
                if isinstance(result, WorkerLost):
                    raise result
                yield result
            busy = [w for w in workers if w.held]
            if not busy:
                if exhausted and not backlog and not done:
                    return
                continue
            ready = set(wait([w.conn for w in busy] + [w.proc.sentinel for w in busy]))
            for k, w in enumerate(workers):
                if w.conn not in ready and w.proc.sentinel not in ready:
                    continue
                try:
                    while w.held and w.conn.poll():
                        answer(w, w.conn.recv_bytes())
                except (EOFError, OSError):
                    pass   # it died mid-answer: its sentinel says so below
                if w.proc.sentinel in ready or not w.proc.is_alive():
                    if w.held:   # the item it was on is lost; those it had not started are not
                        index, item = w.held.popleft()
                        done[index] = _lost(item, _death(w.proc))
                        backlog.extendleft(reversed(w.held))
                    workers[k] = replace(w)
    finally:
        for w in workers:
            w.conn.close()
            if w.proc.is_alive():
                w.proc.terminate()
            w.proc.join(5)

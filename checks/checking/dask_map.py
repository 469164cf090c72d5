"""The batch seam on dask.distributed: `ordered_map`'s contract (batch.py) on a cluster.

`check --jsonl FILE --dask ADDRESS` (docs/performance.md) sends chunks of JSON Lines records to
the workers of a running Dask scheduler and yields the verdicts in input order, as the process
pool does, with a bounded number of chunks in flight (a few per worker thread), so that memory
stays flat however long the input is: a chunk is submitted only when an earlier one has been
taken, and each result is released as soon as it is yielded.

dask.distributed is an optional dependency (`pip install 'ygo-timing[dask]'`), imported only
here and only when asked for. The workers need ygo-timing installed, at the same version.
"""
from __future__ import annotations

from collections import deque
from itertools import islice

from ygo_timing.checking.batch import CHUNK, IN_FLIGHT


CONNECT_TIMEOUT = "30s"   # how long to try to reach the scheduler before saying it cannot be reached


class DaskError(RuntimeError):
    """The cluster cannot run the checks: the message says why and what to do."""


def _run_chunk(fn, chunk):
    return [fn(item) for item in chunk]


def connect(address: str):
    """A client of the scheduler at `address` (e.g. tcp://10.0.0.5:8786), checked for use."""
    try:
        from distributed import Client
    except ImportError:
        raise DaskError("--dask needs dask.distributed: pip install 'ygo-timing[dask]'") from None
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as e:
        raise DaskError(f"cannot reach the Dask scheduler at {address}: {e}") from None
    workers = client.scheduler_info().get("workers", {})
    threaded = [w for w, info in workers.items() if info.get("nthreads", 1) > 1]
    if threaded:   # z3's Python API shares one context per process: not safe across threads
        client.close()
        raise DaskError(f"the Dask workers {', '.join(sorted(threaded)[:3])} run several threads each; "
                        "z3 is not thread-safe, so start them with one thread and several processes: "
                        "dask worker ADDRESS --nthreads 1 --nworkers N")
    return client


def ordered_map(fn, items, client, chunk: int = CHUNK):
    """fn(item) for each item, in order, on the cluster behind `client` (as batch.ordered_map)."""
    slots = max(1, sum(info.get("nthreads", 1) for info in client.scheduler_info().get("workers", {}).values()))
    pending = deque()
    items = iter(items)
    while part := list(islice(items, chunk)):
        # pure=False: two equal chunks are still two tasks (the scheduler must not merge them)
        pending.append(client.submit(_run_chunk, fn, part, pure=False))
        if len(pending) >= slots * IN_FLIGHT:
            yield from _take(pending.popleft())
    while pending:
        yield from _take(pending.popleft())


def _take(future):
    try:
        return future.result()
    except Exception as e:   # noqa: BLE001 -- a worker lost, a cluster gone: no verdict, and no traceback either
        raise DaskError(f"a task on the Dask cluster failed: {type(e).__name__}: {e}") from None
    finally:
        future.release()

"""`check --jsonl --dask` on 1 and on 2 local workers: wall-clock and CPU time (docs/performance.md).

    .venv/bin/python bench/dask_workers.py [--plays N] [--repeat R]

The corpus is the fixtures as JSON Lines, repeated to N records. Each run starts a LocalCluster
of one-thread worker processes on loopback, warms it (one check, so that the workers have
imported the package and read the compiled cache), then times `ygo-timing check --jsonl FILE
--dask ADDRESS` as a subprocess: wall-clock, and CPU of the workers (their processes' user +
system time) and of the client. The process pool with as many --jobs is timed beside it. Prints
figures, never asserts them; the median of --repeat runs.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil
from distributed import LocalCluster

ROOT = Path(__file__).resolve().parent.parent
COMMAND = [sys.executable, "-m", "ygo_timing", "check", "--jsonl"]


def corpus(folder: Path, n: int) -> Path:
    one = folder / "fixtures.jsonl"
    subprocess.run([sys.executable, "-m", "ygo_timing", "convert", str(ROOT / "fixtures" / "plays"),
                    "--to", "jsonl", "--out", str(one)], check=True)
    lines = one.read_text().splitlines()
    out = folder / "corpus.jsonl"
    out.write_text("\n".join((lines * (n // len(lines) + 1))[:n]) + "\n")
    return out


def cpu(procs) -> float:
    total = 0.0
    for p in procs:
        try:
            t = p.cpu_times()
            total += t.user + t.system
        except psutil.NoSuchProcess:
            pass
    return total


def timed(cmd) -> tuple[float, float]:
    """(wall, CPU of the command and its children) of one run."""
    start = time.perf_counter()
    before = os.times()
    subprocess.run(cmd, check=False, stdout=subprocess.DEVNULL)
    after = os.times()
    return time.perf_counter() - start, (after.children_user - before.children_user
                                         + after.children_system - before.children_system)


def dask_run(path: Path, workers: int) -> tuple[float, float, float]:
    """(wall, workers' CPU, client's CPU) of one run on a fresh cluster of `workers` processes."""
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster:
        warm = path.with_name("warm.jsonl")
        warm.write_text(path.read_text().splitlines()[0] + "\n")
        subprocess.run([*COMMAND, str(warm), "--dask", cluster.scheduler_address], stdout=subprocess.DEVNULL)
        procs = [p for p in psutil.Process().children(recursive=True)]
        cpu0 = cpu(procs)
        wall, client = timed([*COMMAND, str(path), "--dask", cluster.scheduler_address])
        return wall, cpu(procs) - cpu0, client


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--plays", type=int, default=400)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        path = corpus(Path(d), args.plays)
        print(f"{args.plays} plays (the fixtures as JSON Lines, repeated); {os.cpu_count()} CPUs, "
              f"load average {os.getloadavg()[0]:.1f}; median of {args.repeat}")
        for workers in (1, 2):
            runs = [dask_run(path, workers) for _ in range(args.repeat)]
            wall, wcpu, ccpu = (statistics.median(r[i] for r in runs) for i in range(3))
            print(f"dask, {workers} worker(s): wall {wall:6.1f} s, workers' CPU {wcpu:6.1f} s, client CPU {ccpu:5.1f} s, "
                  f"{args.plays / wall:6.1f} plays/s")
            pool = [timed([*COMMAND, str(path), "--jobs", str(workers)]) for _ in range(args.repeat)]
            print(f"pool, --jobs {workers}:      wall {statistics.median(w for w, _ in pool):6.1f} s, "
                  f"CPU {statistics.median(c for _, c in pool):6.1f} s")


if __name__ == "__main__":
    main()

"""Benchmarks: `python bench/run.py` (or `--quick`). Prints figures, never asserts them.

Every figure is the median of --repeat runs (at least 3), measured in this run next to its
baseline, the floor: parsing the same files and expanding their actions without checking.
Targets (docs/performance.md) are printed beside the figures for the reader to compare.
"""
from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import z3

sys.path.insert(0, str(Path(__file__).parent))
from corpus import write_corpus  # noqa: E402
from ygo_timing.cards import catalogue  # noqa: E402
from ygo_timing.checking import batch  # noqa: E402
from ygo_timing.checking.run import Run  # noqa: E402
from ygo_timing.inputs.play import PlayError, load  # noqa: E402


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"z3 {z3.get_version_string()}, {platform.system()} {platform.release()}")


def median_time(fn, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def floor(files):
    """Parse and walk: what checking costs beyond reading the plays (no rule is evaluated)."""
    cards = catalogue.catalogue()
    for f in files:
        try:
            play = load(str(f))
            run = Run(play, play.ruleset or "ocg", cards, 1, 1)
            for a in play.actions:
                run.steps_for(a)
        except PlayError:
            pass


def check(files, jobs):
    verdicts = list(batch.ordered_map(batch.checker("path", batch.Options()), files, jobs))
    bad = [v for v in verdicts if v.verdict not in ("legal", "illegal") or not v.matches_expect()]
    if bad:   # the generator wrote each play's expectation from the compiled relation
        raise SystemExit(f"benchmark corpus: {bad[0].path}: {bad[0].verdict} {bad[0].message or ''}")
    return verdicts


def count_actions(files):
    return sum(len(load(str(f)).actions) for f in files)


def cli_time(path, repeat):
    exe = shutil.which("ygo-timing") or str(Path(sys.executable).parent / "ygo-timing")
    return median_time(lambda: subprocess.run([exe, "check", str(path)], capture_output=True), repeat)


def row(name, seconds, actions=None, plays=None, base=None, target=""):
    parts = [f"{name:34} {seconds:8.3f} s"]
    if actions:
        parts.append(f"{actions / seconds:10,.0f} actions/s")
    if plays:
        parts.append(f"{plays / seconds:8,.1f} plays/s")
    if base:
        parts.append(f"{seconds / base:6.1f}x floor")
    if target:
        parts.append(f"[target {target}]")
    print("  ".join(parts), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a small corpus, for CI (figures are not asserted)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=20261130)
    args = ap.parse_args()
    repeat = max(3, args.repeat)
    sizes = {10: 4, 40: 4} if args.quick else {10: 200, 40: 150, 150: 60}
    long_len = 1_000 if args.quick else 10_000
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory(prefix="ygo-bench-") as tmp:
        tmp = Path(tmp)
        t = time.perf_counter()
        files = write_corpus(tmp / "corpus", args.seed, sizes, illegal_share=0.1)
        legal = [f for f in files if f.name.endswith("-legal.play")]
        print(f"corpus: {len(files)} plays ({len(legal)} legal), seed {args.seed}, "
              f"generated in {time.perf_counter() - t:.1f} s")
        n_all, n_legal = count_actions(files), count_actions(legal)
        print(f"actions: {n_all} in all, {n_legal} in the legal plays; median of {repeat} runs\n")

        check(files[:2], 1)   # load the compiled relations once, outside the timings
        base_all = median_time(lambda: floor(files), repeat)
        base_legal = median_time(lambda: floor(legal), repeat)
        row("floor: parse + walk (all)", base_all, n_all, len(files))
        row("check, 1 process (legal plays)", median_time(lambda: check(legal, 1), repeat), n_legal,
            len(legal), base_legal, ">= 10,000 actions/s, <= 20x floor")
        row("check, 1 process (all plays)", median_time(lambda: check(files, 1), repeat), n_all,
            len(files), base_all)
        row("check --jobs 2 (legal plays)", median_time(lambda: check(legal, 2), repeat), n_legal,
            len(legal), base_legal, ">= 18,000 actions/s")
        row("check --jobs 2 (all plays)", median_time(lambda: check(files, 2), repeat), n_all,
            len(files), base_all)

        print()
        for length in (long_len // 10, long_len // 2, long_len):
            (path,) = write_corpus(tmp / f"long{length}", args.seed, {length: 1}, illegal_share=0.0)
            n = count_actions([path])
            row(f"one sequence of {n} actions", median_time(lambda: check([path], 1), repeat), n,
                target="10,000 actions <= 2 s, linear" if length == long_len else "")

        print()
        small = next(f for f in legal if f.name.startswith("len00010"))
        row("CLI wall time, small legal file", cli_time(small, repeat), target="<= 0.5 s")
        bad = next((f for f in files if f.name.startswith("len00010") and f.name.endswith("-illegal.play")), None)
        if bad:
            row("CLI wall time, small illegal file", cli_time(bad, repeat))
        k = 4 if args.quick else 8   # the quick run keeps CI short; the target is for K = 8
        diff = diff_time(repeat, k)
        if diff is not None:
            row(f"diff tcg ocg --max-length {k}", diff, target="<= 30 s at K = 8")


def diff_time(repeat, k):
    exe = shutil.which("ygo-timing") or str(Path(sys.executable).parent / "ygo-timing")
    if subprocess.run([exe, "diff", "--help"], capture_output=True).returncode != 0:
        print("diff tcg ocg: the command does not exist yet")
        return None
    with tempfile.TemporaryDirectory() as out:
        return median_time(lambda: subprocess.run([exe, "diff", "tcg", "ocg", "--max-length", str(k), "--out", out],
                                                  capture_output=True), repeat)


if __name__ == "__main__":
    main()

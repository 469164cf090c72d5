"""The compiled step functions at one size bucket: `python bench/steps.py --cards 24 --effects 32`.

Prints the generated source's lines per step function (model/compiled.py) and, over legal plays
walked from set-ups of exactly that bucket, the design limit (the step functions in a bare loop,
as bench/run.py measures it) and `check` in one process: CPU time with wall time beside it, the
median of --repeat runs; then the same on the native relation (model/native.py), built here if
the cache lacks it. Figures, never asserted. bench/run.py keeps to small set-ups (a cold CI
cache); this is for the sizes where the step functions' size dominates.
"""
from __future__ import annotations

import argparse
import os
import random
import re
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from corpus import grow, setups  # noqa: E402
from run import (  # noqa: E402
    check,
    children_cpu,
    design_limit,
    native_limit,
    native_plays,
    on_python,
    recorded_steps,
    row,
    timed,
)
from ygo_timing.cards import catalogue  # noqa: E402
from ygo_timing.checking.run import Run  # noqa: E402
from ygo_timing.inputs.play import PlayError, load, to_text  # noqa: E402
from ygo_timing.model import compiled, step  # noqa: E402


def step_lines(ruleset, ncards, neffects):
    """Lines of each generated function (`prepare`, `step_<kind>`)."""
    source = compiled.generate(step.relation(ruleset, ncards, neffects))
    return {m.group(1): f.count("\n") for f in re.split(r"\n(?=def )", source)
            if (m := re.match(r"def (prepare|step_\d+)", f))}


def bucket_of(play, cards):
    try:
        run = Run(play, "ocg", cards, 1, 1)
    except PlayError:   # more effects than a play may have
        return None
    return run.ncards, run.neffects


def main():
    os.environ.setdefault("YGO_TIMING_NATIVE", "1")
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cards", type=int, default=24, help="cards a set-up (its bucket is compiled)")
    ap.add_argument("--effects", type=int, default=32, help="keep the set-ups of this effects bucket")
    ap.add_argument("--plays", type=int, default=6)
    ap.add_argument("--length", type=int, default=30)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seed", type=int, default=20261201)
    ap.add_argument("--no-lines", action="store_true", help="skip generating the source to count its lines")
    args = ap.parse_args()
    rng, cards = random.Random(args.seed), catalogue.catalogue()
    want = (step.bucket(args.cards), step.bucket(args.effects))
    bases = [replace(p, ruleset="ocg") for p in setups(rng, 200, cards, args.cards, args.cards)]
    bases = [p for p in bases if bucket_of(p, cards) == want]
    if not bases:
        raise SystemExit(f"no set-up of {args.cards} cards falls in the bucket {want}")
    print(f"bucket {want[0]} cards / {want[1]} effects (ocg), {len(bases)} set-ups of 200 drawn")
    if not args.no_lines:
        c, w = time.process_time(), time.perf_counter()
        lines = step_lines("ocg", *want)
        print(f"generated lines ({time.process_time() - c:.1f} s CPU, {time.perf_counter() - w:.1f} s wall "
              f"to build and print): {sum(lines.values()):,} in all; "
              + ", ".join(f"{k} {v:,}" for k, v in lines.items()), flush=True)
    with tempfile.TemporaryDirectory(prefix="ygo-bench-steps-") as tmp:
        files = []
        for k in range(args.plays):
            play = grow(rng, rng.choice(bases), args.length, False, cards)
            files.append(Path(tmp) / f"play{k}-legal.play")
            files[-1].write_text(to_text(play), encoding="utf-8")
        recorded = recorded_steps(files)
        n = sum(len(load(str(f)).actions) for f in files)
        print(f"{len(files)} legal plays, {n} actions, {sum(len(r[3]) for r in recorded)} compiled steps; "
              f"median of {max(5, args.repeat)} runs")
        repeat = max(5, args.repeat)
        limit = timed(lambda: design_limit(recorded), repeat)
        row("design limit: bare compiled steps", limit, n)
        row("check, 1 process (legal plays, Python path)", timed(on_python(lambda: check(files)), repeat), n, limit[0])
        c, w = time.process_time() + children_cpu(), time.perf_counter()
        fast = native_plays(recorded)   # builds the native relation if the cache lacks it
        if fast is not None:
            print(f"native relation ready in {time.process_time() + children_cpu() - c:.1f} s CPU (the compiler's "
                  f"included), {time.perf_counter() - w:.1f} s wall")
            limit = timed(lambda: native_limit(fast), repeat)
            row("design limit: bare native steps", limit, n)
            row("check, 1 process (legal plays, native)", timed(lambda: check(files), repeat), n, limit[0])


if __name__ == "__main__":
    main()

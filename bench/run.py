"""Benchmarks: `python bench/run.py` (or `--quick`). Prints figures, never asserts them.

Every figure is CPU time (this process, or a child's rusage) with wall time beside it, the
median of --repeat runs (at least 5), measured in this run next to two baselines over the
same plays: the floor (parsing the files alone) and the design limit (the compiled step
functions in a bare loop over the plays' steps: what checking cannot go below without a
faster relation), of the Python relation and of the native one (model/native.py). Targets
(docs/performance.md) are printed beside the figures.

The native relation is on (YGO_TIMING_NATIVE=1: each size bucket is built once, at -O0, in
the cache) unless YGO_TIMING_NATIVE says otherwise; `check` of the legal plays is measured on
both paths.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import z3

sys.path.insert(0, str(Path(__file__).parent))
from corpus import write_corpus  # noqa: E402
from ygo_timing.cards import catalogue  # noqa: E402
from ygo_timing.checking import batch  # noqa: E402
from ygo_timing.checking.check import check_play  # noqa: E402
from ygo_timing.checking.run import Run  # noqa: E402
from ygo_timing.inputs.play import PlayError, load  # noqa: E402
from ygo_timing.model import native  # noqa: E402
from ygo_timing.model.state import ACTION_FIELDS  # noqa: E402

EXE = shutil.which("ygo-timing") or str(Path(sys.executable).parent / "ygo-timing")
ROOT = Path(__file__).resolve().parent.parent


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


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(fn, repeat):
    """(median CPU s, median wall s) of `fn()`, this process and its children together."""
    cpu, wall = [], []
    for _ in range(repeat):
        c, w = time.process_time() + children_cpu(), time.perf_counter()
        fn()
        cpu.append(time.process_time() + children_cpu() - c)
        wall.append(time.perf_counter() - w)
    return statistics.median(cpu), statistics.median(wall)


def cli(*args):
    return lambda: subprocess.run([EXE, *map(str, args)], capture_output=True)


def floor(files):
    """Parsing alone: what any checker pays to read the plays."""
    for f in files:
        try:
            load(str(f))
        except PlayError:
            pass


def recorded_steps(files):
    """Each play's compiled relation, prepared facts, first state and concrete steps, for the
    bare loop; and its run (its facts and relation's key, for the native loop)."""
    cards = catalogue.catalogue()
    out = []
    for f in files:
        play = load(str(f))
        run = Run(play, play.ruleset or "ocg", cards, 1, 1)
        steps, start = [], list(run.vals)
        for a in play.actions:
            acts = run.steps_for(a)
            for act in (acts if acts is not None else list(run.resolve_steps(a))):
                steps.append([act[k] for k in ACTION_FIELDS])
                if run.eval_step(act, a.line)[0] != "sat":
                    break
        out.append((run.evaluator, run.prepared, start, steps, run))
    return out


def design_limit(recorded):
    """The compiled step functions in a bare loop: no parsing, no expansion, no bookkeeping."""
    for ev, prepared, vals, steps, _ in recorded:
        for act in steps:
            broken, post = ev.step(vals, act, prepared)
            if broken:
                break
            vals = post


def native_plays(recorded):
    """Each recorded play's buffers on its native relation (facts and statics set up); None if a
    relation is not native (off, or no C compiler)."""
    out = []
    for _, _, start, steps, run in recorded:
        rel = native.relation(*run.key)
        if rel is None:
            return None
        out.append((rel.play(run.facts, start), start, steps))
    return out


def native_limit(plays):
    """The native step function in a bare loop: each play's state reset, then its steps."""
    for play, start, steps in plays:
        play.vals[:] = start
        for act in steps:
            if play.step(act):
                break


def on_python(fn):
    """`fn` with the native path off."""
    def run():
        saved = os.environ.get("YGO_TIMING_NATIVE")
        os.environ["YGO_TIMING_NATIVE"] = "0"
        try:
            return fn()
        finally:
            if saved is None:
                del os.environ["YGO_TIMING_NATIVE"]
            else:
                os.environ["YGO_TIMING_NATIVE"] = saved
    return run


def check(files, jobs=1):
    verdicts = list(batch.ordered_map(batch.checker("path", batch.Options()), files, jobs))
    bad = [v for v in verdicts if v.verdict not in ("legal", "illegal") or not v.matches_expect()]
    if bad:   # the generator wrote each play's expectation from the compiled relation
        raise SystemExit(f"benchmark corpus: {bad[0].path}: {bad[0].verdict} {bad[0].message or ''}")
    return verdicts


def row(name, t, actions=None, base=None, target=""):
    cpu, wall = t
    parts = [f"{name:44} {cpu * 1000:9.1f} ms CPU {wall * 1000:9.1f} ms wall"]
    if actions:
        parts.append(f"{actions / cpu:9,.0f} actions/s")
    if base:
        parts.append(f"{cpu / base:5.1f}x design limit")
    if target:
        parts.append(f"[target {target}]")
    print("  ".join(parts), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a small corpus, for CI (figures are not asserted)")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seed", type=int, default=20261130)
    args = ap.parse_args()
    repeat = max(5, args.repeat)
    quick = args.quick
    os.environ.setdefault("YGO_TIMING_NATIVE", "1")
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory(prefix="ygo-bench-") as tmp:
        tmp = Path(tmp)
        t = time.perf_counter()
        # a realistic corpus: plays of a Battle Phase, up to the length asked, 10% illegal
        sizes = {20: 10, 60: 6} if quick else {20: 150, 60: 100, 200: 40}
        max_cards = 4 if quick else 20   # the quick run keeps to one size bucket (a cold CI cache)
        files = write_corpus(tmp / "corpus", args.seed, sizes, illegal_share=0.1, max_cards=max_cards)
        legal = [f for f in files if f.name.endswith("-legal.play")]
        illegal = [f for f in files if f.name.endswith("-illegal.play")]
        plays = [load(str(f)) for f in files]
        kinds = Counter(a.kind for p in plays for a in p.actions)
        n_all = sum(kinds.values())
        n_legal = sum(len(load(str(f)).actions) for f in legal)
        sizes_seen = sorted(len(p.cards) for p in plays)
        print(f"corpus: {len(files)} plays ({len(legal)} legal, {len(illegal)} illegal), seed {args.seed}, "
              f"generated in {time.perf_counter() - t:.1f} s; {n_all} actions, "
              f"{kinds['claim'] / n_all:.0%} claims; {sizes_seen[0]}-{sizes_seen[-1]} cards a set-up; "
              f"lengths up to {max(len(p.actions) for p in plays)}")
        print(f"action mix: {', '.join(f'{k} {v / n_all:.0%}' for k, v in kinds.most_common())}")
        print(f"median of {repeat} runs\n")

        row("first check, all plays (builds what the cache lacks)", timed(lambda: check(files), 1))   # outside the timings
        rec_legal = recorded_steps(legal)
        row("floor: parsing alone (legal plays)", timed(lambda: floor(legal), repeat), n_legal)
        limit = timed(lambda: design_limit(rec_legal), repeat)
        row("design limit: bare compiled steps (legal)", limit, n_legal)
        fast = native_plays(rec_legal)
        if fast is not None:
            limit = timed(lambda: native_limit(fast), repeat)
            row("design limit: bare native steps (legal)", limit, n_legal)
        row(f"check, 1 process (legal plays{', native' if fast else ''})", timed(lambda: check(legal), repeat),
            n_legal, limit[0], ">= 20,000 actions/s, <= 3x design limit")
        if fast is not None:
            row("check, 1 process (legal plays, Python path)", timed(on_python(lambda: check(legal)), repeat),
                n_legal, limit[0])
        row("check, 1 process (all plays, 10% illegal)", timed(lambda: check(files), repeat), n_all,
            target=">= 5,000 actions/s")
        row("check --jobs 2 (all plays)", timed(lambda: check(files, 2), repeat), n_all)

        print()
        latencies = []
        for f in illegal:
            play = load(str(f))
            c = time.process_time()
            check_play(play)
            latencies.append(time.process_time() - c)
        latencies.sort()
        p95 = latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))]
        print(f"{'illegal play, in-process (each once)':44} median {statistics.median(latencies) * 1000:.1f} ms, "
              f"p95 {p95 * 1000:.1f} ms CPU over {len(latencies)} plays  [target <= 150 ms]")
        long_len = 200 if quick else 1_000
        for name, share in (("legal", 0.0), ("illegal", 1.0)):
            (path,) = write_corpus(tmp / f"long-{name}", args.seed, {long_len: 1}, illegal_share=share, fill=True,
                                   max_cards=max_cards)
            n = len(load(str(path)).actions)
            row(f"one {name} play of {n} actions", timed(lambda: check_play(load(str(path))), repeat), n,
                target="<= 500 ms" if name == "illegal" and long_len == 1_000 else "")

        print()
        from ygo_timing.symbolic import options as opt
        op = ROOT / "fixtures" / "plays" / "options" / "ex1-counter-trap.play"
        row("options, one query, in-process", timed(lambda: opt.options(load(str(op)), None), repeat),
            target="<= 30 ms")
        row("options --why, one query, in-process", timed(lambda: opt.options(load(str(op)), None, why=True), repeat))

        print()
        small_legal = ROOT / "fixtures" / "plays" / "examples" / "ex1-legal.play"
        small_illegal = ROOT / "fixtures" / "plays" / "examples" / "ex1-illegal.play"
        row("start-up: ygo-timing --help", timed(cli("--help"), repeat), target="<= 250 ms")
        row("CLI: check a small legal play", timed(cli("check", small_legal), repeat))
        row("CLI: check a small illegal play", timed(cli("check", small_illegal), repeat), target="<= 500 ms")
        pool = tmp / "cards.json"
        big = catalogue.builtin()
        n_cards = 1_000 if quick else 10_000
        entries = [dict(c.to_dict(), name=f"Bench {k} {c.name}") for k, c in
                   zip(range(n_cards), (v for _ in range(n_cards) for v in big.values()))]
        pool.write_text(json.dumps({"cards": entries}), encoding="utf-8")
        row(f"CLI: check with --cards of {n_cards:,} cards", timed(cli("check", small_legal, "--cards", pool), repeat),
            target="<= 500 ms" if n_cards == 10_000 else "")
        k = 4 if quick else 8   # the quick run keeps CI short; the target is for K = 8
        with tempfile.TemporaryDirectory() as out:
            row(f"diff tcg ocg --max-length {k}", timed(cli("diff", "tcg", "ocg", "--max-length", k, "--out", out),
                                                        1 if quick else repeat),
                target="<= 10 s at K = 8")


if __name__ == "__main__":
    main()

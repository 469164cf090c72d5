"""Issue 18: workers that die, files that are not files, atomic output, bounded work.

Each test reproduces one fault of the issue (the number in its name) and fails without the fix.
The CLI runs in a subprocess where a hang or a kill is the point, with a timeout: a hang fails
the test instead of stalling the suite.
"""
import importlib
import inspect
import json
import os
import pickle
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import FIXTURES, ROOT
from ygo_timing.checking import workers
from ygo_timing.cli.main import main
from ygo_timing.inputs.play import load, to_json

EX = FIXTURES / "examples"
CLI = [str(Path(sys.executable).with_name("ygo-timing"))]


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def cli(*args, timeout=120, **kw):
    """The installed command in its own process; a hang is a failure, not a stalled suite."""
    return subprocess.run(CLI + [str(a) for a in args], capture_output=True, text=True,
                          timeout=timeout, **kw)


def record(name="ex1-legal.play") -> str:
    return json.dumps(to_json(load(str(EX / name))))


# --- 1, 2: workers ------------------------------------------------------------------------------

def test_1_overlong_jsonl_line_with_two_jobs_is_that_line_s_error(tmp_path):
    path = tmp_path / "plays.jsonl"
    path.write_text(record() + "\n" + "x" * (4 * 1024 * 1024 + 10) + "\n" + record() + "\n")
    r = cli("check", "--jsonl", path, "--jobs", "2", timeout=120)
    out = [json.loads(line) for line in r.stdout.splitlines()]
    assert [(o["record"], o["verdict"]) for o in out] == [(1, "legal"), (2, "error"), (3, "legal")]
    assert "longer than the limit" in out[1]["message"]
    assert r.returncode == 2 and "Traceback" not in r.stderr


def _exception_classes():
    """Every exception class the package defines (a new one must be added to SAMPLES)."""
    found = set()
    for base, prefix in ((ROOT / "checks", "ygo_timing"), (ROOT / "model", "ygo_timing.model")):
        for f in base.rglob("*.py"):
            parts = [p for p in f.relative_to(base).with_suffix("").parts if p != "__init__"]
            if prefix == "ygo_timing" and parts[:1] == ["model"] or parts[-1:] == ["pytest_plugin"]:
                continue
            mod = importlib.import_module(".".join([prefix, *parts]))
            found |= {c for _, c in inspect.getmembers(mod, inspect.isclass)
                      if issubclass(c, BaseException) and c.__module__ == mod.__name__}
    return found


def _samples():
    from ygo_timing.cards.catalogue import CatalogueError
    from ygo_timing.cards.importer import PoolError
    from ygo_timing.cards.luascan import ScriptError
    from ygo_timing.checking.deadline import DeadlineExceeded
    from ygo_timing.cli.main import UsageError
    from ygo_timing.errors import InputError
    from ygo_timing.inputs.convert import ConvertError
    from ygo_timing.inputs.files import NoPlayFiles
    from ygo_timing.inputs.jsonloc import JsonError
    from ygo_timing.inputs.play import PlayError
    from ygo_timing.model.compiled import CompileError, Undetermined
    from ygo_timing.symbolic.diff import Unknown
    return [InputError("a.play", 3, "bad"), PlayError("a.play", 3, "bad"), PlayError("a.play", None, "bad"),
            CatalogueError("c.json", 2, "bad"), PoolError("cards.cdb", None, "bad"),
            ScriptError("c1.lua", 7, "bad"), JsonError("bad", 4, 2, "x.json"), ConvertError("bad"),
            NoPlayFiles("none"), UsageError("usage"), CompileError("x"), Undetermined("x"), Unknown("x"),
            workers.WorkerLost("died"), DeadlineExceeded(5.0, "building the step relation")]


def test_2_every_exception_type_round_trips_through_pickle():
    samples = _samples()
    assert {type(s) for s in samples} >= _exception_classes()
    for s in samples:
        back = pickle.loads(pickle.dumps(s))
        assert type(back) is type(s) and str(back) == str(s) and vars(back) == vars(s), type(s)


def _dies_on_17(n):
    if n == 17:
        os.kill(os.getpid(), signal.SIGKILL)
    return n * n


def _unpicklable_on_5(n):
    return (lambda: n) if n == 5 else n


def test_2_a_killed_worker_costs_the_item_it_was_on_and_nothing_else():
    out = list(workers.ordered_map(_dies_on_17, range(60), 2, lost=lambda n, why: ("lost", n, why)))
    assert len(out) == 60
    assert [o for o in out if isinstance(o, tuple)] == [("lost", 17, out[17][2])]
    assert "SIGKILL" in out[17][2]
    assert [o for k, o in enumerate(out) if k != 17] == [n * n for n in range(60) if n != 17]


def test_2_an_unpicklable_result_or_item_is_that_item_s_loss():
    out = list(workers.ordered_map(_unpicklable_on_5, range(12), 2, lost=lambda n, why: ("lost", n)))
    assert out == [n if n != 5 else ("lost", 5) for n in range(12)]
    items = [1, 2, lambda: 3, 4]   # a lambda cannot be sent to a worker
    out = list(workers.ordered_map(abs, items[:2] + [items[2]] + items[3:], 2, lost=lambda n, why: "lost"))
    assert out == [1, 2, "lost", 4]
    with pytest.raises(workers.WorkerLost):
        list(workers.ordered_map(_dies_on_17, range(20), 2))


def _children(pid):
    with open(f"/proc/{pid}/task/{pid}/children") as f:
        return [int(c) for c in f.read().split()]


def test_2_kill_9_on_a_cli_worker_loses_nothing_and_never_hangs(tmp_path):
    path = tmp_path / "plays.jsonl"
    lines = [record(n) for n in ("ex1-legal.play", "ex1-illegal.play", "ex2-legal.play")] * 20
    path.write_text("\n".join(lines) + "\n")
    p = subprocess.Popen(CLI + ["check", "--jsonl", str(path), "--jobs", "2"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    try:
        first = p.stdout.readline()   # the workers are busy: kill one
        kids = _children(p.pid)
        assert kids and first
        os.kill(kids[0], signal.SIGKILL)
        rest, err = p.communicate(timeout=300)
    finally:
        p.kill()
    out = [json.loads(line) for line in (first + rest).splitlines()]
    assert [o["record"] for o in out] == list(range(1, 61))
    lost = [o for o in out if o["verdict"] == "error"]
    assert len(lost) <= 1 and all("killed by SIGKILL" in o["message"] for o in lost)
    want = {1: "legal", 2: "illegal", 0: "legal"}
    assert all(o["verdict"] == want[o["record"] % 3] for o in out if o["verdict"] != "error")
    assert p.returncode == (2 if lost else 1) and "Traceback" not in err

"""check --jsonl --dask: the batch seam on dask.distributed gives what the process pool gives,
byte for byte and in input order, with a bounded amount of work in flight."""
import itertools
import json

import pytest
from click.testing import CliRunner
from conftest import FIXTURES
from ygo_timing.cli.main import main
from ygo_timing.inputs.play import load, to_json

distributed = pytest.importorskip("distributed")   # the [dask] extra; the test extra installs it

EX = FIXTURES / "examples"
PLAYS = ["ex1-legal.play", "ex1-illegal.play", "ex2-legal.play", "bd2-illegal.play", "ex3-legal.play"]


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as c:
        yield c


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def corpus(tmp_path):
    """The examples, an unexpected illegal play, and bad lines, 20 records (more than one chunk)."""
    lines = [json.dumps(to_json(load(str(EX / p)))) for p in PLAYS] * 3
    unexpected = to_json(load(str(EX / "ex1-illegal.play")))
    unexpected["expect"] = None
    lines += [json.dumps(unexpected), '{"ruleset": "ocg", "bogus": 1}', "not json", ""]
    lines.insert(7, json.dumps(unexpected))
    path = tmp_path / "plays.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_dask_output_is_the_process_pools_byte_for_byte(cluster, tmp_path):
    path = corpus(tmp_path)
    pool = run("check", "--jsonl", path, "--jobs", "2")
    dask = run("check", "--jsonl", path, "--dask", cluster.scheduler_address)
    assert dask.output == pool.output and dask.exit_code == pool.exit_code == 2   # the bad lines
    records = [json.loads(line)["record"] for line in dask.output.splitlines()]
    assert records == sorted(records) and len(records) == 19   # input order; the blank line skipped


def test_in_flight_work_is_bounded(cluster):
    from ygo_timing.checking import batch, dask_map
    seen = []

    def source():
        for n in itertools.count():
            seen.append(n)
            yield n
    with distributed.Client(cluster.scheduler_address) as client:
        out = list(itertools.islice(dask_map.ordered_map(abs, source(), client), 5))
    assert out == [0, 1, 2, 3, 4]
    assert len(seen) <= 2 * batch.IN_FLIGHT * batch.CHUNK + batch.CHUNK   # 2 worker threads


def test_bad_uses_are_usage_errors(cluster, tmp_path):
    r = run("check", EX / "ex1-legal.play", "--dask", cluster.scheduler_address)
    assert r.exit_code == 2 and "--dask checks JSON Lines" in r.output
    r = run("check", "--jsonl", corpus(tmp_path), "--dask", cluster.scheduler_address, "--jobs", "2")
    assert r.exit_code == 2 and "--jobs is for this machine's processes" in r.output


def test_an_unreachable_scheduler_is_a_clear_error(tmp_path, monkeypatch):
    from ygo_timing.checking import dask_map
    monkeypatch.setattr(dask_map, "CONNECT_TIMEOUT", "2s")   # nothing listens there: no need to wait 30 s
    r = run("check", "--jsonl", corpus(tmp_path), "--dask", "tcp://127.0.0.1:9")
    assert r.exit_code == 2 and "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in r.output
    assert "Traceback" not in r.output


def test_threaded_workers_are_refused():
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=":0") as c:
        from ygo_timing.checking import dask_map
        with pytest.raises(dask_map.DaskError, match="--nthreads 1"):
            dask_map.connect(c.scheduler_address)

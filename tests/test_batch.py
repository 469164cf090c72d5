"""check --jsonl and --jobs: results in input order, a bad line is that line's error only."""
import itertools
import json

from click.testing import CliRunner
from conftest import FIXTURES
from ygo_timing.checking import batch
from ygo_timing.cli.main import main
from ygo_timing.inputs.play import load, to_json
from ygo_timing.model import vocab

EX = FIXTURES / "examples"
PLAYS = ["ex1-legal.play", "ex1-illegal.play", "ex2-legal.play", "bd2-illegal.play"]


def jsonl(tmp_path, bad_at=()):
    lines = [json.dumps(to_json(load(str(EX / p)))) for p in PLAYS]
    for k, text in bad_at:
        lines.insert(k, text)
    path = tmp_path / "plays.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def records(output):
    return [json.loads(line) for line in output.splitlines()]


def test_jsonl_results_in_input_order_with_bad_lines_reported_alone(tmp_path):
    path = jsonl(tmp_path, [(1, '{"ruleset": "ocg", "bogus": 1}'), (3, "not json"), (4, "")])
    r = run("check", "--jsonl", path)
    out = records(r.output)
    assert [o["record"] for o in out] == [1, 2, 3, 4, 6, 7]          # the blank line 5 is skipped
    assert [o["verdict"] for o in out] == ["legal", "error", "illegal", "error", "legal", "illegal"]
    assert out[1]["message"].startswith(f"{path}:2: unknown key \"bogus\"")
    assert out[3]["message"].startswith(f"{path}:4: ")
    assert out[2]["first_illegal"]["line"] == 3 and out[2]["path"] == str(path)
    assert r.exit_code == 2


def test_jsonl_from_stdin_and_exit_codes(tmp_path):
    text = jsonl(tmp_path).read_text()
    r = run("check", "--jsonl", "-", input=text)
    assert [o["path"] for o in records(r.output)] == ["<stdin>"] * 4
    assert r.exit_code == 0   # every play meets its `expect:`
    unexpected = json.loads(text.splitlines()[1])   # ex1-illegal.play, which expects illegal T4
    unexpected["expect"] = None
    assert run("check", "--jsonl", "-", input=json.dumps(unexpected) + "\n").exit_code == 1


def test_jobs_give_the_same_results_in_the_same_order(tmp_path):
    path = jsonl(tmp_path)
    one = run("check", "--jsonl", path)
    two = run("check", "--jsonl", path, "--jobs", "2")
    assert one.output == two.output and one.exit_code == two.exit_code == 0
    files = [EX / p for p in PLAYS]
    assert run("check", *files, "--format", "json").output == run("check", *files, "--format", "json",
                                                                  "--jobs", "2").output


def test_ordered_map_streams_with_a_bounded_window():
    """Results come out before the input ends: memory does not grow with the input."""
    seen = []

    def source():
        for n in itertools.count():
            seen.append(n)
            yield n
    out = list(itertools.islice(batch.ordered_map(abs, source(), jobs=2), 5))
    assert out == [0, 1, 2, 3, 4]
    assert len(seen) <= 2 * batch.IN_FLIGHT * batch.CHUNK + batch.CHUNK


def test_overlong_line_is_that_lines_error(tmp_path, monkeypatch):
    monkeypatch.setattr(vocab, "MAX_FILE_BYTES", 200)
    path = tmp_path / "x.jsonl"
    path.write_text('{"title": "' + "x" * 400 + '"}\n{"ruleset": "ocg"}\n')
    out = records(run("check", "--jsonl", path).output)
    assert out[0]["record"] == 1 and "longer than the limit of 200 bytes" in out[0]["message"]
    assert out[1]["record"] == 2 and out[1]["verdict"] == "error"


def test_jsonl_refuses_whole_document_formats(tmp_path):
    r = run("check", "--jsonl", jsonl(tmp_path), "--format", "sarif")
    assert r.exit_code == 2 and "--jsonl writes JSON Lines" in r.output


def test_input_errors_survive_pickling_to_a_worker():
    """A JSON Lines record that is already an error travels to a worker of --jobs as one."""
    import pickle

    from ygo_timing.inputs.play import PlayError
    e = pickle.loads(pickle.dumps(PlayError("x.jsonl", 3, "line is longer than the limit")))
    assert (type(e), e.path, e.line, str(e)) == (PlayError, "x.jsonl", 3, "x.jsonl:3: line is longer than the limit")

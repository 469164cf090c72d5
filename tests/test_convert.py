"""`ygo-timing convert`: text form, JSON form and JSON Lines, round trips on every fixture."""
import json

import pytest
from click.testing import CliRunner
from conftest import FIXTURES
from ygo_timing.cli.main import main
from ygo_timing.inputs import convert
from ygo_timing.inputs.files import play_files
from ygo_timing.inputs.play import load, parse_json, parse_text, to_json
from ygo_timing.model import vocab

PLAYS = play_files([str(FIXTURES)])


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def rel(p):
    return str(p.relative_to(FIXTURES))


@pytest.mark.parametrize("path", PLAYS, ids=rel)
def test_round_trip(path):
    """text -> json -> text and json -> text -> json give the same play (and the same file)."""
    play = load(str(path))
    as_json = convert.render(play, "json")
    from_json = parse_json(as_json, "x.json")
    assert to_json(from_json) == to_json(play)
    as_text = convert.render(from_json, "play")
    from_text = parse_text(as_text, "x.play")
    assert to_json(from_text) == to_json(play)
    assert convert.render(from_text, "json") == as_json
    assert convert.render(parse_json(convert.render(from_text, "jsonl"), "x.json"), "play") == as_text


def test_jsonl_of_a_directory_is_one_play_per_line_in_order(tmp_path):
    out = tmp_path / "all.jsonl"
    r = run("convert", FIXTURES, "--to", "jsonl", "--out", out)
    assert r.exit_code == 0, r.output
    lines = out.read_text("utf-8").splitlines()
    assert len(lines) == len(PLAYS)
    assert [json.loads(l) for l in lines] == [to_json(load(str(p))) for p in PLAYS]
    assert all(l.isascii() for l in lines)


def test_jsonl_to_files_and_back_is_identical(tmp_path):
    src = tmp_path / "all.jsonl"
    run("convert", FIXTURES / "examples", "--to", "jsonl", "--out", src)
    r = run("convert", src, "--to", "play", "--out", tmp_path / "plays")
    assert r.exit_code == 0, r.output
    written = sorted((tmp_path / "plays").iterdir())
    assert [p.name for p in written][:2] == ["all-01.play", "all-02.play"] and len(written) == 14
    r = run("convert", tmp_path / "plays", "--to", "jsonl")
    assert r.output == src.read_text("utf-8")
    r = run("convert", "-", "--to", "jsonl", input=src.read_bytes())   # standard input
    assert r.output == src.read_text("utf-8")


def test_directory_to_json_keeps_the_tree_and_checks_the_same(tmp_path):
    r = run("convert", FIXTURES / "examples", "--to", "json", "--out", tmp_path)
    assert r.exit_code == 0, r.output
    out = tmp_path / "ex1-illegal.json"
    r = run("check", "--format", "json", out)
    v = json.loads(r.output)[0]
    assert (v["verdict"], v["matches_expect"], v["first_illegal"]["index"]) == ("illegal", True, 10)


def test_single_file_to_stdout():
    r = run("convert", FIXTURES / "examples" / "ex1-illegal.play", "--to", "json")
    assert r.exit_code == 0
    assert r.output.splitlines()[1] == '  "title": "EX-1 Rising Energy cannot answer Lily at damage calculation",'
    assert '    {"do": "pass", "player": "A"},' in r.output.splitlines()


def test_bad_record_names_its_line_and_writes_nothing(tmp_path):
    good = json.dumps(to_json(load(str(FIXTURES / "examples" / "ex1-legal.play"))))
    src = tmp_path / "logs.jsonl"
    src.write_text(f"{good}\n\n{{\"turn\": 0}}\n")
    r = run("convert", src, "--to", "play", "--out", tmp_path / "out")
    assert r.exit_code == 2
    assert f"{src}:3: " in r.output and "Traceback" not in r.output
    assert not (tmp_path / "out").exists()
    r = run("convert", "-", "--to", "json", input="[1]\n")
    assert r.exit_code == 2 and "<stdin>:1: " in r.output


def test_overlong_line_is_an_input_error(tmp_path, monkeypatch):
    monkeypatch.setattr(vocab, "MAX_FILE_BYTES", 50)
    src = tmp_path / "big.jsonl"
    src.write_text('{"title": "' + "x" * 100 + '"}\n')
    r = run("convert", src, "--to", "jsonl")
    assert r.exit_code == 2 and f"{src}:1: line is longer than the limit of 50 bytes" in r.output


def test_usage_errors(tmp_path):
    r = run("convert", FIXTURES / "examples", "--to", "play")
    assert r.exit_code == 2 and "holds 14 plays" in r.output and "--out DIR" in r.output
    r = run("convert", tmp_path / "nothing.play", "--to", "json")
    assert r.exit_code == 2 and "no such file" in r.output
    d = tmp_path / "twins"
    d.mkdir()
    ex = (FIXTURES / "examples" / "ex1-legal.play").read_text()
    (d / "a.play").write_text(ex)
    (d / "b.play").write_text(ex)
    r = run("convert", d, "--to", "play", "--out", d)   # would overwrite a.play with itself
    assert r.exit_code == 2 and "overwrite the input" in r.output
    (d / "a.json").write_text(convert.render(load(str(d / "a.play")), "json"))
    r = run("convert", d, "--to", "json", "--out", tmp_path / "o")
    assert r.exit_code == 2 and "would both be written to" in r.output
    assert r.exit_code == 2 and not (tmp_path / "o").exists()

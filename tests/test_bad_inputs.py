"""The bad-input corpus (fixtures/bad/): every malformed or hostile input is exit 2 with one
message naming the file, the line and what was expected, and never a traceback."""
import json

import pytest
from click.testing import CliRunner
from conftest import FIXTURES, ROOT
from ygo_timing.cli.main import main
from ygo_timing.model import vocab

BAD = ROOT / "fixtures" / "bad"
MANIFEST = json.loads((BAD / "expected.json").read_text("utf-8"))
INPUTS = MANIFEST["inputs"]
GOOD = FIXTURES / "examples" / "ex1-legal.play"   # the play checked alongside a bad --cards file


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def assert_one_error(r, path, line, fragment):
    """Exit 2, and exactly one message, `path:line: ...` (`path: ...` for whole-file errors)."""
    assert r.exit_code == 2, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert "Traceback" not in r.output
    where = f"{path}:{line}: " if line is not None else f"{path}: "
    lines = r.output.splitlines()
    if lines[0].startswith("error: "):      # a bad --cards file stops the run before any play
        assert len(lines) == 1, r.output
        msg = lines[0].removeprefix("error: ")
    else:                                   # the play's verdict `error`, then its one message
        assert len(lines) == 2 and lines[0].startswith(f"{path}: ERROR under "), r.output
        msg = lines[1].strip()
    assert msg.startswith(where), r.output
    assert fragment in msg, f"{fragment!r} not in {msg!r}"
    assert len(msg) < 1000, "a message stays readable whatever the input"


def test_the_corpus_is_complete():
    on_disk = {p.name for p in BAD.iterdir()} - {"expected.json"}
    listed = set(INPUTS) | set(MANIFEST["jsonl"])
    assert on_disk == listed
    assert len(INPUTS) + len(MANIFEST["generated"]) >= 50


@pytest.mark.parametrize("name", sorted(INPUTS))
def test_bad_input(name):
    e = INPUTS[name]
    path = BAD / name
    if e.get("cards"):
        r = run("check", "--cards", path, GOOD)
    else:
        r = run("check", path)
    assert_one_error(r, path, e["line"], e["message"])


@pytest.mark.parametrize("name", sorted(n for n, e in INPUTS.items() if not e.get("cards")))
def test_bad_input_json_report(name):
    """The JSON report carries the same message, with verdict `error`."""
    e = INPUTS[name]
    path = BAD / name
    r = run("check", "--format", "json", path)
    assert r.exit_code == 2
    [out] = json.loads(r.output)
    assert out["verdict"] == "error"
    assert out["message"].startswith(f"{path}:{e['line']}: ") and e["message"] in out["message"]


# -- generated inputs (see "generated" in expected.json): too big to commit ------------------

def generated(tmp_path, name):
    """(path, line, fragment) for a generated input."""
    f = tmp_path / name
    acts = ["enter battle phase"] + ["pass A"] * vocab.MAX_ACTIONS
    if name in ("huge-50mb.play", "huge-50mb.json", "huge-50mb.cards.json"):
        with open(f, "wb") as out:
            chunk = b"# " + b"x" * (1 << 20) + b"\n"
            for _ in range(50):
                out.write(chunk)
        if "cards" in name:   # an imported card pool may be much larger than a play
            from ygo_timing.cards.catalogue import MAX_CATALOGUE_BYTES
            return f, None, f"file is larger than {MAX_CATALOGUE_BYTES} bytes"
        return f, None, f"file is larger than the limit of {vocab.MAX_FILE_BYTES} bytes"
    if name == "too-many-actions.play":
        f.write_text("ruleset: ocg\n" + "\n".join(acts) + "\n")
        return f, 1 + len(acts), f"too many actions: a play has at most {vocab.MAX_ACTIONS}"
    if name == "too-many-actions.json":
        body = ",\n".join('{"do": "pass", "player": "A"}' for _ in acts)
        f.write_text('{"ruleset": "ocg", "actions": [\n' + body + "\n]}\n")
        return f, 1 + len(acts), f"too many actions: a play has at most {vocab.MAX_ACTIONS}"
    if name == "too-many-values.json":
        f.write_text('{"title": [\n' + ",".join(["0"] * 250_000) + "]}")
        return f, 2, "more than 200000 values in one document; expected a smaller file"
    if name == "deep-nesting-walk":
        f.mkdir()
        (f / "deep.json").write_text("[" * 100_000)
        return f / "deep.json", 1, "nesting deeper than 64 levels"
    raise KeyError(name)


@pytest.mark.parametrize("name", sorted(MANIFEST["generated"]))
def test_generated_bad_input(tmp_path, name):
    path, line, fragment = generated(tmp_path, name)
    if name == "deep-nesting-walk":
        args = [path.parent]
    elif name.endswith(".cards.json"):
        args = ["--cards", path, GOOD]
    else:
        args = [path]
    assert_one_error(run("check", *args), path, line, fragment)


def test_limits_are_the_documented_ones():
    # the errors docs/robustness.md quotes are the ones the corpus above gets from the tool
    from ygo_timing.inputs.jsonloc import MAX_DEPTH
    doc = (ROOT / "docs" / "robustness.md").read_text("utf-8")
    for fragment in (f"file is larger than the limit of {vocab.MAX_FILE_BYTES} bytes",
                     f"too many cards: a play has at most {vocab.MAX_CARDS}",
                     f"too many actions: a play has at most {vocab.MAX_ACTIONS}",
                     f"a Chain of more than {vocab.MAX_CHAIN} links is beyond what the tool models",
                     f"nesting deeper than {MAX_DEPTH} levels",
                     "expected at most 1000000000", "is out of range (-1000000..1000000)",
                     "at most 8 effects per card", "expected 1 to 200",
                     "a play defines at most 256 cards", "rule IDs; expected at most 256",
                     "more than 64 words on one line", "more than 200000 values in one document"):
        assert fragment in doc, fragment
    messages = [e["message"] for e in INPUTS.values()]
    for fragment in ("too many cards", "a Chain of more than", "nesting deeper than", "expected 1 to 200",
                     "expected at most 1000000000", "at most 8 effects per card",
                     "a play defines at most 256 cards", "rule IDs; expected at most 256",
                     "more than 64 words on one line"):
        assert any(fragment in m for m in messages), fragment


# -- JSON Lines: bad lines are errors of their own, the good lines are still checked ----------

def jsonl_supported():
    return "--jsonl" in run("check", "--help").output


@pytest.mark.skipif(not jsonl_supported(), reason="`check --jsonl` is not in this build yet")
@pytest.mark.parametrize("name", sorted(MANIFEST["jsonl"]))
def test_jsonl_bad_lines(name):
    e = MANIFEST["jsonl"][name]
    path = BAD / name
    r = run("check", "--jsonl", path)
    assert r.exit_code == 2 and "Traceback" not in r.output
    out = [json.loads(line) for line in r.output.splitlines()]   # one result per input line
    errors = [o for o in out if o["verdict"] == "error"]
    others = [o for o in out if o["verdict"] != "error"]
    assert len(errors) == len(e["errors"]), out
    for line, fragment in e["errors"].items():
        [hit] = [o for o in errors if o["record"] == int(line)]
        assert hit["message"].startswith(f"{path}:{line}: ") and fragment in hit["message"], hit
    assert [(o["record"], o["verdict"]) for o in others] == [(n, "legal") for n in e["good_lines"]]


def test_thousands_of_leading_zeros_are_a_number_not_a_crash():
    # Python's int() refuses strings of more than 4300 digits, leading zeros included
    from ygo_timing.inputs.play import parse_text
    play = parse_text("lp: A " + "0" * 6000 + "1, B 8000\nenter battle phase\n", "zeros.play")
    assert play.lp["A"] == 1


def test_a_parser_bug_is_an_error_not_a_traceback(monkeypatch):
    import ygo_timing.checking.batch as batch

    def broken(path):
        raise IndexError("simulated parser bug")
    monkeypatch.setattr(batch, "load", broken)
    r = run("check", GOOD)
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert f"{GOOD}: internal error, please report: IndexError: simulated parser bug" in r.output

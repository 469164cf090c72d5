"""The command line: exit codes, JSON shape, errors without tracebacks."""
import json

from click.testing import CliRunner
from conftest import FIXTURES, ROOT, needs_shared
from ygo_timing.cli.main import main

EX = FIXTURES / "examples"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_legal_exits_0():
    r = run("check", EX / "ex1-legal.play")
    assert r.exit_code == 0, r.output
    assert "LEGAL under tcg" in r.output


def test_expected_illegal_exits_0_and_explains():
    r = run("check", EX / "ex1-illegal.play")
    assert r.exit_code == 0, r.output   # the play expects illegal T4 (exit codes: test_ci_formats.py)
    assert "first illegal action: #10 (line 28)" in r.output
    assert "T4 (S0-TCG 70-78)" in r.output
    assert "window: sub-step 4: at damage calculation (line 25, by T4)" in r.output
    assert '"during damage calculation"' in r.output and "Rising Energy: names none of the timings" in r.output


def test_json_shape():
    r = run("check", "--format", "json", EX / "ex1-illegal.play", EX / "ex1-legal.play")
    out = json.loads(r.output)
    assert [o["verdict"] for o in out] == ["illegal", "legal"]
    bad = out[0]
    assert bad["first_illegal"]["index"] == 10 and bad["first_illegal"]["line"] == 28
    assert {"rule", "statement", "sources"} <= set(bad["violations"][0])
    assert "T4" in {v["rule"] for v in bad["violations"]}
    assert bad["facts"] and bad["ruleset"] == "tcg"


def test_ruleset_option_overrides_the_file(tmp_path):
    # the same play read under ocg: the window names of tcg do not exist there
    r = run("check", "--ruleset", "ocg", "--format", "json", EX / "ex1-legal.play")
    assert json.loads(r.output)[0]["ruleset"] == "ocg"
    assert r.exit_code == 1


def test_bad_input_exits_2_with_location(tmp_path):
    f = tmp_path / "bad.play"
    f.write_text("ruleset: ocg\nA monster \"No Such Card\"\nenter battle phase\n")
    r = run("check", f)
    assert r.exit_code == 2
    assert f"{f}:2: unknown card 'No Such Card'" in r.output
    assert "Traceback" not in r.output


def test_syntax_error_exits_2(tmp_path):
    f = tmp_path / "bad.play"
    f.write_text("ruleset: ocg\nA monster \"Dark Magician\"\nfly away\n")
    r = run("check", f)
    assert r.exit_code == 2 and ":3:" in r.output and "Traceback" not in r.output


def test_missing_path_is_usage_error():
    r = run("check", "no/such/file.play")
    assert r.exit_code == 2


def test_bad_cards_file_exits_2(tmp_path):
    f = tmp_path / "cards.json"
    f.write_text('{"cards": [{"name": "X", "type": "monstr", "subtype": "effect"}]}')
    r = run("check", "--cards", f, EX / "ex1-legal.play")
    assert r.exit_code == 2 and "cards.json:1:" in r.output and "expected one of" in r.output


def test_unknown_is_exit_3_never_legal():
    from ygo_timing.checking.check import check_play
    from ygo_timing.inputs.play import load
    # an illegal step is confirmed by the solver: out of resources, the answer is unknown
    v = check_play(load(str(EX / "ex1-illegal.play")), rlimit=1)
    assert v.verdict == "unknown" and "unknown" in v.message
    # a legal play is the compiled relation's alone, unless --verify asks the solver too
    assert check_play(load(str(EX / "ex1-legal.play")), rlimit=1).verdict == "legal"
    v = check_play(load(str(EX / "ex1-legal.play")), rlimit=1, verify=True)
    assert v.verdict == "unknown" and "unknown" in v.message


def test_cards_override(tmp_path):
    # declaring Rising Energy able to be activated during damage calculation makes EX-1 legal
    import json as j

    from ygo_timing.cards.catalogue import builtin
    card = builtin()["Rising Energy"].to_dict()
    card["effects"][0]["timings"] = ["during_calc"]
    f = tmp_path / "cards.json"
    f.write_text(j.dumps({"cards": [card]}))
    r = run("check", "--cards", f, EX / "ex1-illegal.play")
    assert "LEGAL under tcg" in r.output


def test_examples_flag_runs_builtin_data():
    r = run("check", "--examples")
    assert r.exit_code == 0, r.output   # the illegal attempts expect to be illegal
    heads = [line for line in r.output.splitlines() if not line.startswith(" ")]   # one per play
    assert len(heads) == 14 and all(line.endswith("(as expected)") for line in heads), r.output


def test_rules_json_lists_ids_with_sources():
    out = json.loads(run("rules", "--format", "json").output)
    first = out[0]
    assert {"id", "statement", "sources", "rulesets"} <= set(first)
    assert {e["id"] for e in out} >= {"CH-5", "DS-1", "DS-T1", "D3-3", "T4", "T4-H", "BD-1", "AB-1"}


def test_rules_doc_is_in_sync():
    doc = (ROOT / "docs" / "rules.md").read_text("utf-8")
    assert run("rules", "--format", "markdown").output == doc, "regenerate: ygo-timing rules --format markdown > docs/rules.md"


@needs_shared
def test_cards_json_covers_seed_cards():
    from conftest import SHARED
    names = {c["name"] for c in json.loads(run("cards", "--format", "json").output)}
    seeds = [l.strip() for l in (SHARED / "spec" / "seed-cards.txt").read_text("utf-8").splitlines()
             if l.strip() and not l.startswith("#")]
    assert [s for s in seeds if s not in names] == []


def test_chain_longer_than_the_model_is_an_input_error(tmp_path):
    card = '{"name": "Test Quick", "type": "trap", "subtype": "normal", "effects": [{"kind": "activation"}], "source": "synthetic"}'
    lines = ["ruleset: ocg", f"card: {card}"]
    lines += [f'{p} set "Test Quick" as {p}{k}' for k in range(5) for p in "AB"]
    lines += ["enter battle phase"]
    lines += [f"activate {p} {p}{k}" for k in range(5) for p in "AB"]
    f = tmp_path / "long.play"
    f.write_text("\n".join(lines) + "\n")
    r = run("check", f)
    assert r.exit_code == 2 and "more than 8 links" in r.output and ":22:" in r.output   # the 9th activation


def test_format_doc_examples_get_their_verdict(tmp_path):
    import re
    doc = (ROOT / "docs" / "format.md").read_text("utf-8")
    blocks = re.findall(r"```(play|json) EX-1\n(.*?)```", doc, re.S)
    assert len(blocks) == 2
    for kind, body in blocks:
        f = tmp_path / f"ex1.{kind}"
        f.write_text(body)
        r = run("check", "--format", "json", f)
        out = json.loads(r.output)[0]
        assert out["verdict"] == "illegal" and out["matches_expect"], out


def test_directory_without_plays_is_an_error(tmp_path):
    r = run("check", tmp_path)
    assert r.exit_code == 2 and "no play files" in r.output


def test_directory_walk_skips_card_catalogues(tmp_path):
    (tmp_path / "cards.json").write_text('{"cards": []}')
    (tmp_path / "ex.play").write_text((EX / "ex1-legal.play").read_text())
    r = run("check", "--format", "json", tmp_path)
    assert [o["path"].rsplit("/", 1)[-1] for o in json.loads(r.output)] == ["ex.play"]
    assert r.exit_code == 0

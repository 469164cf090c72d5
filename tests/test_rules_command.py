"""`ygo-timing rules ID`: every rule in text and JSON, its sources quoted from the seeds when they
are there (and said plainly when not), its definition, rows and fixtures; unknown IDs exit 2."""
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from ygo_timing.cli.main import main
from ygo_timing.model import rulebook

ROOT = Path(__file__).resolve().parent.parent
IDS = [e["id"] for e in rulebook.rule_catalogue()]


def run(*args):
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("rid", IDS)
def test_every_rule_in_text_and_json(rid, tmp_path):
    absent = tmp_path / "no-seeds"
    r = run("rules", rid, "--format", "json", "--seeds", str(absent))
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["id"] == rid and d["statement"] and d["sources"] and d["rulesets"]
    for part in d["defined"]:   # file:line is where the builder is
        lines = (ROOT / part["file"]).read_text("utf-8").splitlines()
        assert rid in "\n".join(lines[max(0, part["line"] - 12):part["line"] + 1]), part
    for f in d["fixtures"]:
        assert (ROOT / f["path"]).is_file()
    for s in d["sources"]:
        assert s["lines"] is None and s["note"]   # no seeds there: said, not a crash
    t = run("rules", rid, "--seeds", str(absent))
    assert t.exit_code == 0 and t.output.startswith(rid)
    assert d["statement"] in t.output and "Defined:" in t.output and "Load-bearing:" in t.output


def test_sources_are_quoted_from_the_seed_files(tmp_path):
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    (seeds / rulebook.SEED_FILES["S1"]).write_text("\n".join(f"line {n} of S1" for n in range(1, 80)), "utf-8")
    d = json.loads(run("rules", "CH-2", "--format", "json", "--seeds", str(seeds)).output)
    assert d["sources"][0]["lines"] == [{"line": 64, "text": "line 64 of S1"}]
    assert "  64 | line 64 of S1" in run("rules", "CH-2", "--seeds", str(seeds)).output


def test_machine_name_rows_fixtures_and_load_bearing():
    d = json.loads(run("rules", "trigger.pending", "--format", "json").output)
    assert d["id"] == "GEN-7" and d["name"] == "trigger.pending"
    assert "fixtures/plays/rules/gen/GEN-7-illegal.play" in {f["path"] for f in d["fixtures"]}
    assert d["load_bearing"] is True
    t4 = json.loads(run("rules", "T4", "--format", "json").output)
    assert {"ruleset": "tcg", "table": "transitions", "row": {"from": "t3_before_calc", "to": "t4_at_calc",
                                                              "rule": "T4"}} in t4["table_rows"]
    assert json.loads(run("rules", "D3-6", "--format", "json").output)["load_bearing"] is False


@pytest.mark.parametrize("word,says", [("GEN-1", "GEN-1 was split into GEN-5"), ("GNE-5", "did you mean GEN-5"),
                                       ("nothing.here", "unknown rule")])
def test_unknown_rule_is_a_clear_error(word, says):
    r = run("rules", word)
    assert r.exit_code == 2 and says in r.output

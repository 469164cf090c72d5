"""Every fixture play gets the verdict its header says (taken from the source text)."""
import re

import pytest
from conftest import FIXTURES, SHARED, needs_shared
from ygo_timing.checking.check import check_play
from ygo_timing.inputs.play import load
from ygo_timing.model.rulebook import rule_catalogue

PLAYS = sorted(p for p in FIXTURES.rglob("*") if p.suffix in (".play", ".json"))


def rel(p):
    return str(p.relative_to(FIXTURES))


@pytest.mark.parametrize("path", PLAYS, ids=rel)
def test_fixture_verdict(path):
    play = load(str(path))
    assert play.expect in ("legal", "illegal"), "every fixture states `expect:`"
    assert re.search(r"S\d|S0-(TCG|OCG)|card text|game mechanics", play.source), "every fixture cites its source lines"
    v = check_play(play)
    got = {r["rule"] for r in v.violations}
    assert v.verdict == play.expect, f"{v.verdict}: {v.violations} {v.facts} {v.message}"
    assert set(play.expect_rules) <= got, f"expected {play.expect_rules}, cited {sorted(got)}"


def rules_md_ids():
    """Rule IDs of rules.md sections 2-9 (worked examples excluded)."""
    text = (SHARED / "spec" / "rules.md").read_text("utf-8")
    ids = re.findall(r"^- \*\*([A-Z0-9-]+)\*\*", text, re.M)
    return [i for i in ids if not i.startswith("EX-") and i not in ("BD-2", "D5-4", "D5-5")]


EXAMPLES = ["EX-1", "EX-2", "EX-3", "EX-4", "BD-2", "D5-4", "D5-5"]


@needs_shared
def test_catalogue_lists_every_rules_md_rule():
    ours = {e["id"] for e in rule_catalogue()}
    missing = [i for i in rules_md_ids() if i not in ours]
    assert not missing


def test_every_rule_and_example_has_a_legal_and_an_illegal_fixture():
    seen = {"legal": set(), "illegal": set()}
    for p in PLAYS:
        play = load(str(p))
        seen[play.expect].update(play.rules)
    wanted = [e["id"] for e in rule_catalogue()] + EXAMPLES
    missing = {k: [i for i in wanted if i not in v] for k, v in seen.items()}
    assert missing == {"legal": [], "illegal": []}

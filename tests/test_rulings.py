"""The public rulings corpus (fixtures/rulings/, docs/rulings.md): every play gets the verdict its
ruling gives. A play that names no rule set holds in both games and is checked under both. The
open disagreements listed in docs/rulings.md are asserted to still disagree (strict xfail), so a
fix shows up as an unexpected pass and the list must be updated with it."""
import re

import pytest
from conftest import ROOT
from ygo_timing.checking.check import check_play
from ygo_timing.inputs.play import load
from ygo_timing.model.rulebook import rule_catalogue

RULINGS = ROOT / "fixtures" / "rulings"
DOC = ROOT / "docs" / "rulings.md"
CATEGORIES = ("damage-step", "damage-calc", "battle-step", "chain", "tcg-ocg")
PLAYS = sorted(RULINGS.rglob("*.play"))


def known_disagreements():
    """(play path under fixtures/rulings, rule set) -> reason, from the table in docs/rulings.md."""
    text = DOC.read_text("utf-8")
    section = text.split("## Open disagreements", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([^`]+)` \| (ocg|tcg) \| ([^|]+) \| ([^|]+) \|$", section, re.MULTILINE)
    return {(path, rs): f"{cause.strip()}: {reason.strip()}" for path, rs, cause, reason in rows}


KNOWN = known_disagreements()


def cases():
    for p in PLAYS:
        play = load(str(p))
        rel = p.relative_to(RULINGS).as_posix()
        for rs in ([play.ruleset] if play.ruleset else ["ocg", "tcg"]):
            marks = []
            if (rel, rs) in KNOWN:
                marks.append(pytest.mark.xfail(strict=True, reason=KNOWN[(rel, rs)]))
            yield pytest.param(p, rs, marks=marks, id=f"{rel}[{rs}]")


@pytest.mark.parametrize("path,ruleset", list(cases()))
def test_ruling(path, ruleset):
    play = load(str(path))
    v = check_play(play, ruleset=ruleset)
    got = {r["rule"] for r in v.violations}
    assert v.verdict == play.expect, f"{v.verdict}: {v.violations} {v.facts} {v.message}"
    assert set(play.expect_rules) <= got, f"expected {play.expect_rules}, cited {sorted(got)}"


def test_every_play_cites_a_public_ruling():
    ids = {e["id"] for e in rule_catalogue()}
    for p in PLAYS:
        play = load(str(p))
        text = p.read_text("utf-8")
        assert p.parent.name in CATEGORIES, p
        assert play.expect in ("legal", "illegal"), p
        assert re.search(r"\(https?://[^)]+\)", play.source), f"{p}: source needs a title and an address"
        assert text.startswith("# "), f"{p}: the first line paraphrases the ruling"
        assert set(play.rules) | set(play.expect_rules) <= ids, f"{p}: unknown rule IDs"


def test_known_disagreements_name_real_plays():
    names = {(p.relative_to(RULINGS).as_posix(), rs) for p in PLAYS
             for rs in ([load(str(p)).ruleset] if load(str(p)).ruleset else ["ocg", "tcg"])}
    assert set(KNOWN) <= names, sorted(set(KNOWN) - names)


def test_counts_in_docs_match_the_corpus():
    text = DOC.read_text("utf-8")
    for cat in CATEGORIES:
        n = len(list((RULINGS / cat).glob("*.play")))
        assert re.search(rf"^\| {cat} \| {n} \|", text, re.MULTILINE), f"docs/rulings.md: {cat} should count {n} plays"

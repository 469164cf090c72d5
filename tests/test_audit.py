"""`cards audit`: our rules against the engine's script flags, per card and window."""
import json

import cardpool
import pytest
from click.testing import CliRunner
from ygo_timing.cards import importer as cardimport
from ygo_timing.cli.main import main
from ygo_timing.symbolic import audit


@pytest.fixture(scope="module")
def ocg(tmp_path_factory):
    cdb, sdir = cardpool.build(tmp_path_factory.mktemp("pool"))
    return audit.audit(cardimport.import_pool(str(cdb), str(sdir)), "ocg")


def found(res, card, window=None):
    return [d for d in res.disagreements if d.card == card and (window is None or d.window == window)]


def test_flag_without_a_damage_step_permission_is_our_rule_against_the_script(ocg):
    # "Test Flagged": a Quick Effect that destroys, with EFFECT_FLAG_DAMAGE_STEP: the engine lets it
    # through in the Damage Step, DS-1 has no clause for it (S3 76-92)
    [d] = found(ocg, "Test Flagged", "ds_start")
    assert (d.ours, d.engine) == (False, True)
    assert "DS-1" in d.our_rules and d.unknown == []
    assert any(line.endswith("c1006.lua:9: SetProperty(EFFECT_FLAG_DAMAGE_STEP)") for line in d.engine_lines)
    assert {x.window for x in found(ocg, "Test Flagged")} == {"ds_start", "ds_before_calc", "ds_after_calc", "ds_end"}


def test_atk_changer_without_the_flag(ocg):
    # "Test Unflagged" changes ATK (DS-1(d)) but its script lacks the flag: the engine refuses it
    [d] = found(ocg, "Test Unflagged", "ds_start")
    assert (d.ours, d.engine) == (True, False)
    assert d.engine_why == "no EFFECT_FLAG_DAMAGE_STEP" and "DS-1(d)" in d.our_rules
    assert {x.window for x in found(ocg, "Test Unflagged")} == {"ds_start", "ds_before_calc"}


def test_agreements(ocg):
    # the Quick-Play ATK changer limited to "until damage calculation", the mandatory battle
    # trigger and the flip effect agree in every window
    for name in ("Test Boost", "Test Battler", "Test Flipper", "Test Light Helper"):
        assert found(ocg, name) == [], found(ocg, name)
    assert ocg.agree > 0 and ocg.compared == ocg.agree + len(ocg.disagreements)


def test_not_comparable_is_counted_not_agreed(ocg):
    nc = ocg.not_comparable
    assert nc["triggered by EVENT_SPSUMMON_SUCCESS, an event the rule model does not simulate"] == 9
    assert nc["registered through Fusion.CreateSummonEff; its declaration is not read"] == 9


def test_engine_answer_reads_the_core_gate():
    from ygo_timing.cards.luascan import scan
    s = scan(cardpool.SCRIPTS[1003].encode(), "c1003.lua")
    trig, quick, _ = s.effects
    # a mandatory trigger on a battle event: only in its own window, never blocked by the flags
    assert audit.engine_answer(trig, "monster:effect", False, "ds_end", "ocg", "c").allowed is True
    assert audit.engine_answer(trig, "monster:effect", False, "ds_start", "ocg", "c").allowed is False
    assert audit.engine_answer(trig, "monster:effect", False, "t7_end", "tcg", "c").allowed is True
    assert audit.engine_answer(quick, "monster:effect", False, "ds_during_calc", "ocg", "c").allowed is True


def test_cli_audit_reports_by_rule_and_window(tmp_path):
    cdb, sdir = cardpool.build(tmp_path)
    r = CliRunner().invoke(main, ["cards", "audit", "--cdb", str(cdb), "--scripts", str(sdir), "--ruleset", "ocg"])
    assert r.exit_code == 1, r.output
    assert "-- by window" in r.stdout and "-- by rule" in r.stdout and "Test Flagged (id 1006)" in r.stdout
    assert "c1008.lua:3" in r.stderr   # the malformed script is still named
    j = CliRunner().invoke(main, ["cards", "audit", "--cdb", str(cdb), "--scripts", str(sdir),
                                  "--ruleset", "ocg", "--format", "json"])
    [out] = json.loads(j.stdout)
    assert out["ruleset"] == "ocg" and out["disagree"] == len(out["disagreements"]) > 0
    assert out["by_window"]["ds_start"] >= 2 and "DS-1" in out["by_rule"]
    assert {"card", "window", "our_rules", "engine_lines"} <= set(out["disagreements"][0])


def test_cli_audit_needs_scripts(tmp_path):
    cdb, _ = cardpool.build(tmp_path)
    r = CliRunner().invoke(main, ["cards", "audit", "--cdb", str(cdb)])
    assert r.exit_code == 2 and "--scripts" in r.output


def test_only_cards_of_the_rule_sets_region(tmp_path):
    cdb, sdir = cardpool.build(tmp_path)
    imp = cardimport.import_pool(str(cdb), str(sdir))
    [broken] = [r for r in imp.records if r.id == 1008]   # OCG only, and its script is malformed
    broken.decls = [object()]   # were it comparable, the TCG audit still must not look at it
    res = audit.audit(type(imp)(records=[broken]), "tcg")
    assert res.cards == 0 and res.effects == 0

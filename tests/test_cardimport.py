"""`cards import`: cards.cdb rows and c<id>.lua scripts to a catalogue, unknowns listed, errors
with file:line and the rest still imported."""
import json
from dataclasses import replace

import cardpool
import pytest
from click.testing import CliRunner
from conftest import ROOT
from ygo_timing.cards import catalogue, luascan
from ygo_timing.cards import importer as cardimport
from ygo_timing.cli.main import main
from ygo_timing.inputs import jsonloc


@pytest.fixture
def pool(tmp_path):
    return cardpool.build(tmp_path)


@pytest.fixture
def imported(pool):
    cdb, sdir = pool
    return cardimport.import_pool(str(cdb), str(sdir))


def entry(imported, name):
    [r] = [r for r in imported.records if r.entry["name"] == name]
    return r.entry


def test_quickplay_atk_changer(imported):
    e = entry(imported, "Test Boost")
    assert (e["type"], e["subtype"]) == ("spell", "quickplay")
    [eff] = e["effects"]
    assert eff["kind"] == "activation" and eff["atk_def"] == "direct" and eff["mandatory"] is False
    assert eff["import"]["flags"] == ["DAMAGE_STEP"] and eff["import"]["until_calc"] is True
    assert eff["import"]["speed"] == 2 and eff["import"]["script"].endswith("c1001.lua:5")
    # the until-damage-calculation helper is a timing limit, not an unknown condition
    assert eff["condition"] == "none" and "condition" not in eff["unknown"]
    # its target function selects nothing and its operation does nothing: neither is guessed
    assert eff["unknown"] == ["operations", "target"]
    assert e["import"]["availability"] == ["ocg", "tcg"]


def test_counter_trap_negates_what_its_condition_names(imported):
    [eff] = entry(imported, "Test Negate")["effects"]
    assert eff["negates_activation"] == "spell_trap" and eff["import"]["speed"] == 3
    assert "condition" in eff["unknown"]   # a condition function of its own is not read


def test_a_negation_only_of_the_opponents_activation_says_so():
    """"When your opponent activates": the scripts' conditions compare the activating player (rp,
    or ep for EVENT_CHAINING) with the effect's (Herald of Orange Light: ep~=tp; Gemini Counter:
    rp~=tp); without that comparison the negation answers either player's."""
    from ygo_timing.cards.importer import negated_kind
    assert negated_kind("return ep~=tp and re:IsActiveType(TYPE_MONSTER)") == "opponent_monster_effect"
    assert negated_kind("return rp~=tp and re:IsActiveType(TYPE_SPELL) and re:IsHasType(EFFECT_TYPE_ACTIVATE)") \
        == "opponent_spell"
    assert negated_kind("return rp==1-tp and re:IsHasType(EFFECT_TYPE_ACTIVATE)") == "opponent_spell_trap"
    assert negated_kind("return re:IsActiveType(TYPE_MONSTER) and Duel.IsChainNegatable(ev)") == "monster_effect"
    assert negated_kind("return tp~=ep and Duel.IsChainNegatable(ev)") == "opponent_any"
    assert negated_kind("return Duel.IsChainNegatable(ev)") == "any"


def test_monster_triggers_quick_effects_and_clones(imported):
    e = entry(imported, "Test Battler")
    assert (e["atk"], e["def"], e["level"], e["attribute"]) == (1800, 1000, 4, "DARK")
    trig, quick, clone = e["effects"]
    assert trig == {**trig, "kind": "trigger", "mandatory": True, "trigger_class": "location",
                    "timings": ["ds_end"], "condition": "destroyed_by_battle"}
    assert quick == {**quick, "kind": "quick", "from": "hand", "timings": ["during_calc"], "atk_def": "direct"}
    assert quick["import"]["flags"] == ["DAMAGE_STEP", "DAMAGE_CAL"]
    assert clone["from"] == "graveyard" and clone["timings"] == ["during_calc"]


def test_damage_step_only_condition_names_its_windows(imported):
    [eff] = entry(imported, "Test Light Helper")["effects"]
    assert eff["timings"] == ["ds_start", "before_calc"] and eff["import"]["ds_only"] is True
    assert eff["import"]["until_calc"] is True and "condition" in eff["unknown"]


def test_summon_and_destruction_triggers_are_the_events_of_a_moment(imported):
    # single-card Trigger Effects on EVENT_SPSUMMON_SUCCESS and EVENT_DESTROYED: the model's
    # `summoned` and `destroyed` events (GEN-8)
    summoned, destroyed = entry(imported, "Test Summoner")["effects"]
    assert (summoned["kind"], summoned["condition"], summoned["trigger_class"], summoned["timings"]) == (
        "trigger", "summoned", "location", [])
    assert (destroyed["kind"], destroyed["condition"], destroyed["mandatory"], destroyed["timings"]) == (
        "trigger", "destroyed", True, [])


def test_flip_effect(imported):
    [eff] = entry(imported, "Test Flipper")["effects"]
    assert (eff["kind"], eff["mandatory"], eff["trigger_class"]) == ("flip", True, "flipped")


def test_unknown_stats_and_events_are_marked_never_guessed(imported):
    beast = entry(imported, "Test Beast")
    assert beast["atk"] is None and beast["unknown"] == ["atk"] and beast["effects"] == []
    [eff] = entry(imported, "Test Custom")["effects"]
    assert {"timings", "condition", "trigger_class"} <= set(eff["unknown"])
    assert "timings" not in eff and "condition" not in eff


def test_helper_registered_effect_and_card_text(imported):
    [eff] = entry(imported, "Test Careful")["effects"]
    assert eff["kind"] == "activation" and eff["import"]["helper"] == "Fusion.CreateSummonEff"
    assert eff["no_damage_step"] is True   # the card text says so
    assert {"atk_def", "timings", "condition"} <= set(eff["unknown"])


def test_damage_calculation_modifier_is_unknown(imported):
    e = entry(imported, "Test Field Boost")
    assert "calc_modifier" in e["unknown"] and [x["kind"] for x in e["effects"]] == ["activation"]


def test_malformed_script_warns_with_line_and_rest_imports(imported):
    broken = entry(imported, "Test Broken")
    assert broken["unknown"] == ["effects"] and broken["effects"] == []
    [w] = [w for w in imported.warnings if "c1008.lua" in w]
    assert "c1008.lua:3: unbalanced Lua blocks" in w
    assert len(imported.records) == 13


def test_skipped_rows(imported):
    assert imported.skipped == {"alternate artwork": 1, "not a monster, Spell or Trap (Skill, Action...)": 1}


def test_malformed_rows_are_skipped_with_a_clear_warning(tmp_path):
    rows = cardpool.ROWS[:2]
    cdb, sdir = cardpool.build(tmp_path, rows, {}, extra_sql=[
        "insert into datas values(5000,3,0,0,'lots',0,0,0,0,0,0)",
        "insert into datas values(5001,3,0,0,17,0,0,0,0,0,0)",   # no texts row
    ])
    imp = cardimport.import_pool(str(cdb), str(sdir))
    assert [r.id for r in imp.records] == [1001, 1002]
    assert any("datas id 5000: a numeric column holds text" in w for w in imp.warnings)
    assert any("datas id 5001: no name" in w for w in imp.warnings)


def test_coverage_counts(imported):
    cov = imported.coverage
    assert cov["effect.operations"] == {"derived": 8, "unknown": 6}
    assert cov["effect.every"] == {"derived": 6, "unknown": 8}
    assert cov["continuous.apply"] == {"derived": 0, "unknown": 1}   # Test Field Boost's, with a condition
    assert cov["card.atk"] == {"derived": 8, "unknown": 1}
    assert cov["effect.kind"]["unknown"] == 0 and cov["effect.kind"]["derived"] == 14


def test_output_is_a_valid_catalogue(tmp_path, pool):
    cdb, sdir = pool
    out = tmp_path / "pool.json"
    r = CliRunner().invoke(main, ["cards", "import", "--cdb", str(cdb), "--scripts", str(sdir), "--out", str(out)])
    assert r.exit_code == 1, r.output    # a script was malformed: a problem, reported
    assert "warning: " in r.output and "c1008.lua:3" in r.output
    assert "effect.condition" in r.output and "property coverage (derived / unknown)" in r.output
    cards = {c.name: c for c in catalogue.load_file(str(out))}
    assert cards["Test Boost"].effects[0].unknown == ("operations", "target")
    assert cards["Test Beast"].unknowns() == ["atk"]
    listed = CliRunner().invoke(main, ["cards", "--cards", str(out)])
    assert listed.exit_code == 0 and "Test Battler -- effect monster 1800/1000 L4" in listed.output


def test_unreadable_database_is_an_input_error(tmp_path):
    bad = tmp_path / "x.cdb"
    bad.write_bytes(b"not a database at all" * 100)
    r = CliRunner().invoke(main, ["cards", "import", "--cdb", str(bad)])
    assert r.exit_code == 2 and "x.cdb: not a readable SQLite card database" in r.output
    assert "Traceback" not in r.output
    import sqlite3
    empty = tmp_path / "e.cdb"
    sqlite3.connect(empty).execute("create table datas(id integer)").connection.commit()
    r = CliRunner().invoke(main, ["cards", "import", "--cdb", str(empty)])
    assert r.exit_code == 2 and "no table 'texts'" in r.output


def test_catalogue_rejects_an_unknown_property_name(tmp_path):
    f = tmp_path / "c.json"
    f.write_text(json.dumps({"cards": [{"name": "X", "type": "spell", "subtype": "normal",
                                        "unknown": ["colour"]}]}))
    with pytest.raises(catalogue.CatalogueError, match="unknown property 'colour'"):
        catalogue.load_file(str(f))


def test_a_catalogue_is_read_by_the_fast_parser_and_located_only_on_error(tmp_path, monkeypatch):
    """The plain json parser gives the cards the line-tracking one gives; an entry in error is
    still reported with its line (the file is read again, by jsonloc)."""
    data = (ROOT / "fixtures" / "cards.json").read_bytes()
    fast = catalogue.parse_document(data, "cards.json")
    located = catalogue._parse_value(jsonloc.loads(data, "cards.json", max_values=None), "cards.json")
    assert [replace(c, origin="") for c in fast] == [replace(c, origin="") for c in located]
    calls, real = [], jsonloc.loads
    monkeypatch.setattr(jsonloc, "loads", lambda *a, **k: calls.append(1) or real(*a, **k))
    catalogue.parse_document(data, "cards.json")
    assert calls == []
    bad = '{"cards": [\n{"name": "X", "type": "spell", "subtype": "normal"},\n{"name": "Y", "type": "colour"}]}'
    with pytest.raises(catalogue.CatalogueError) as e:
        catalogue.parse_document(bad.encode(), "bad.json")
    assert e.value.line == 3 and calls == [1]
    for doc, line in (('{"cards": [],\n "cards": []}', 2), ('{"cards": [{"name": "X", "atk": NaN}]}', 1)):
        with pytest.raises(catalogue.CatalogueError) as e:
            catalogue.parse_document(doc.encode(), "dup.json")
        assert e.value.line == line


PLAY = """ruleset: ocg
turn-player: A
A monster "Test Battler" as Battler
B monster "Blue-Eyes White Dragon" as BEWD
enter battle phase
next battle_step
attack Battler -> BEWD
"""


def test_check_never_judges_a_card_with_unknown_properties(tmp_path, pool):
    cdb, sdir = pool
    imp = cardimport.import_pool(str(cdb), str(sdir))
    cat = tmp_path / "pool.json"
    cat.write_text(json.dumps(imp.catalogue()))
    play = tmp_path / "p.play"
    play.write_text(PLAY)
    r = CliRunner().invoke(main, ["check", str(play), "--cards", str(cat)])
    assert r.exit_code == 3, r.output
    assert "UNKNOWN" in r.output and "'Test Battler' (effect 2 operations" in r.output
    assert "would be legal" in r.output
    # once a person settles the properties, the play gets its verdict
    doc = imp.catalogue()
    for c in doc["cards"]:
        c.pop("unknown", None)
        for e in c["effects"]:
            e.pop("unknown", None)
    cat.write_text(json.dumps(doc))
    r = CliRunner().invoke(main, ["check", str(play), "--cards", str(cat)])
    assert r.exit_code == 0, r.output


def test_const_value():
    assert luascan.const_value("EFFECT_TYPE_SINGLE+EFFECT_TYPE_TRIGGER_O") == 0x81
    assert luascan.const_value("EFFECT_FLAG_CARD_TARGET|EFFECT_FLAG_DAMAGE_STEP") == 0x4010
    assert luascan.const_value("EVENT_PHASE+PHASE_BATTLE") == 0x1080
    assert luascan.const_value("(0x10)&LOCATION_GRAVE") == 0x10
    assert luascan.const_value("EVENT_CUSTOM+id") is None
    assert luascan.const_value("s.filter(c)") is None
    assert luascan.const_value("os.execute('rm')") is None


def test_oversized_script_is_refused(tmp_path):
    with pytest.raises(luascan.ScriptError, match="larger than"):
        luascan.scan(b"-" * (luascan.MAX_SCRIPT_BYTES + 1), "c1.lua")


@pytest.mark.parametrize("bits, kind", [
    (0x1 | 0x10, ("monster", "normal")), (0x1 | 0x20, ("monster", "effect")),
    (0x1 | 0x20 | 0x200000, ("monster", "flip")), (0x1 | 0x20 | 0x40, ("monster", "fusion")),
    (0x1 | 0x20 | 0x80, ("monster", "ritual")), (0x1 | 0x20 | 0x2000 | 0x1000, ("monster", "synchro")),
    (0x1 | 0x20 | 0x800000, ("monster", "xyz")), (0x1 | 0x20 | 0x4000000, ("monster", "link")),
    (0x1 | 0x10 | 0x4000, ("monster", "token")), (0x1 | 0x10 | 0x1000000, ("monster", "normal")),
    (0x2, ("spell", "normal")), (0x2 | 0x10000, ("spell", "quickplay")), (0x2 | 0x20000, ("spell", "continuous")),
    (0x2 | 0x40000, ("spell", "equip")), (0x2 | 0x80000, ("spell", "field")), (0x2 | 0x80, ("spell", "ritual")),
    (0x4, ("trap", "normal")), (0x4 | 0x20000, ("trap", "continuous")), (0x4 | 0x100000, ("trap", "counter")),
    (0x8000000, None), (0x10000000 | 0x2, None), (0, None),
])
def test_card_kind_bits(bits, kind):
    assert cardimport.card_kind(bits) == kind


def test_availability_and_link_stats(tmp_path):
    rows = [(7001, 0x1, 0, 0x1 | 0x20 | 0x4000000, 2000, 0x5, 3, 0x20, "Test Link", "link"),
            (7002, 0x2, 0, 0x1 | 0x20 | 0x1000000, 1000, 1000, 0x04040004, 0x1, "Test Pendulum", "scales"),
            (7003, 0x4, 0, 0x2, 0, 0, 0, 0, "Test Anime", "anime only")]
    cdb, sdir = cardpool.build(tmp_path, rows, {})
    imp = cardimport.import_pool(str(cdb), None)
    link, pend, anime = (r.entry for r in imp.records)
    assert link["import"]["availability"] == ["ocg"] and link["def"] is None and link["level"] is None
    assert pend["import"]["availability"] == ["tcg"] and pend["level"] == 4   # scales live in the high bytes
    assert anime["import"]["availability"] == []
    # without scripts nothing is known about the effects of an effect monster or a Spell
    assert "effects" in link["unknown"] and "effects" in anime["unknown"]


def test_oversized_script_file_is_a_warning_and_the_rest_imports(tmp_path):
    scripts = dict(cardpool.SCRIPTS)
    scripts[1004] = "--" + "x" * luascan.MAX_SCRIPT_BYTES
    cdb, sdir = cardpool.build(tmp_path, cardpool.ROWS, scripts)
    imp = cardimport.import_pool(str(cdb), str(sdir))
    assert any("c1004.lua: script is larger than" in w for w in imp.warnings)
    flipper = entry(imp, "Test Flipper")
    assert flipper["effects"] == [] and "effects" in flipper["unknown"]
    assert len(imp.records) == 13


def test_a_large_imported_catalogue_in_a_play_directory_is_skipped(tmp_path, pool):
    cdb, sdir = pool
    plays = tmp_path / "plays"
    plays.mkdir()
    (plays / "p.play").write_text(PLAY.replace("Test Battler", "Dark Magician"))
    r = CliRunner().invoke(main, ["cards", "import", "--cdb", str(cdb), "--scripts", str(sdir)])
    big = r.stdout.replace('{"cards": [\n', '{"cards": [\n' + " " * (5 * 1024 * 1024), 1)
    (plays / "pool.json").write_text(big)
    r = CliRunner().invoke(main, ["check", str(plays), "--cards", str(plays / "pool.json")])
    assert r.exit_code == 0, r.output
    assert "pool.json" not in r.output.replace(str(plays / "pool.json"), "")

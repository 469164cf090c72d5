"""`cards import` derives the effect model (conditions, costs, targets, operations, continuous
effects) from scripts written for the purpose (tests/cardpool.py EFFECT_SCRIPTS), each derived
fact with its script line, and leaves unknown what the vocabulary does not name."""
import json

import cardpool
import pytest
from click.testing import CliRunner
from conftest import ROOT
from ygo_timing.cards import importer, luascan, scriptmodel
from ygo_timing.cli.main import main


@pytest.fixture(scope="module")
def pool(tmp_path_factory):
    return cardpool.build_effects(tmp_path_factory.mktemp("effects"))


@pytest.fixture(scope="module")
def cards(pool):
    imp = importer.import_pool(*map(str, pool))
    assert imp.warnings == []
    return {r.entry["name"]: r.entry for r in imp.records}


def effect(cards, name, k=0):
    return cards[name]["effects"][k]


def test_condition_destroy_all_and_the_script_lines(cards):
    e = effect(cards, "Test Mirror")
    assert e["condition"] == "opponent_attacks"   # Duel.IsTurnPlayer(1-tp) on an attack declaration
    assert e["operations"] == [{"do": "destroy", "on": "all", "select": {"side": "opponent", "filter": "attack_position"}}]
    assert "unknown" not in e
    assert e["import"]["condition"].endswith("c1101.lua:12") and e["import"]["operations"].endswith("c1101.lua:18")


def test_implied_target_negate_attack_then_damage(cards):
    e = effect(cards, "Test Cylinder")
    assert e["target"] == {"filter": {"all": [{"quantity": "attacking", "of": "target", "value": True}]}, "implied": "attacker"}
    assert e["operations"] == [{"do": "negate_attack"},
                               {"do": "damage", "on": "chosen", "amount": "atk", "to": "opponent", "then": True}]


def test_discard_cost_and_negate_destroy(cards):
    e = effect(cards, "Test Jammer")
    assert e["cost"] == [{"do": "discard"}] and e["operations"] == [{"do": "negate_destroy"}]
    assert e["negates_activation"] == "spell"
    assert e["unknown"] == ["condition"]   # re:IsHasType(...) is not a clause the import reads


def test_selected_target_and_a_registered_atk_change(cards):
    e = effect(cards, "Test Rush")
    assert e["target"]["filter"]["all"] == [{"quantity": "location", "of": "target", "value": "monster_zone"},
                                            {"quantity": "face_up", "of": "target", "value": True}]
    assert e["operations"] == [{"do": "atk_add", "on": "chosen", "amount": 700}]


def test_player_and_field_effects_an_operation_registers(cards):
    assert effect(cards, "Test Wall")["operations"] == [
        {"do": "no_battle_damage"},
        {"do": "indestructible_by_battle", "on": "all", "select": {"side": "yours", "filter": "any"}}]


def test_lp_cost_battling_condition_and_update_attack(cards):
    e = effect(cards, "Test Lily")
    assert e["cost"] == [{"do": "pay_lp", "amount": 2000}]
    assert e["condition"] == {"quantity": "battling", "of": "self", "value": True}
    assert e["operations"] == [{"do": "atk_add", "on": "self", "amount": 3000}]


def test_a_gain_reset_at_the_end_of_damage_calculation_lasts_only_for_it(cards):
    # RESET_PHASE+PHASE_DAMAGE_CAL: "during that damage calculation only", on an effect activated then
    assert effect(cards, "Test Soldier")["operations"] == [{"do": "atk_add_at_calc", "on": "self", "amount": 2000},
                                                           {"do": "def_add_at_calc", "on": "self", "amount": 2000}]
    # ... activated at another time (a free chain), the import does not guess when the gain would end
    e = effect(cards, "Test Spurt")
    assert "operations" not in e and "operations" in e["unknown"]


def test_continuous_effects(cards):
    assert [e["apply"] for e in cards["Test Aura"]["effects"]] == [
        {"do": "atk_modifier", "amount": 500, "on": "all", "select": {"side": "yours", "filter": "any"}},
        {"do": "indestructible_by_battle"}]
    # EFFECT_PIERCE: "If this card attacks a Defense Position monster, inflict piercing battle damage"
    assert [e["apply"] for e in cards["Test Lance"]["effects"]] == [{"do": "piercing"}]


def test_a_summon_lock_on_both_players_or_the_opponent_and_nothing_narrower():
    # "Neither player can Special Summon monsters" (Fossil Dyna Pachycephalo's EDOPro script)
    def derived(extra, target_range="1,1"):
        script = luascan.scan(("local s,id=GetID()\nfunction s.initial_effect(c)\n\tlocal e1=Effect.CreateEffect(c)\n"
                               "\te1:SetType(EFFECT_TYPE_FIELD)\n\te1:SetRange(LOCATION_MZONE)\n"
                               "\te1:SetCode(EFFECT_CANNOT_SPECIAL_SUMMON)\n\te1:SetProperty(EFFECT_FLAG_PLAYER_TARGET)\n"
                               f"\te1:SetTargetRange({target_range})\n{extra}\tc:RegisterEffect(e1)\nend\n"
                               "function s.sumlimit(e,c)\n\treturn c:IsLocation(LOCATION_EXTRA)\nend\n").encode(), "c9.lua")
        return scriptmodel.continuous(script.never_activated[0], script.functions)
    assert derived("").value == {"kind": "continuous", "apply": {"do": "lock_special_summon"}}
    assert derived("", "0,1").value["apply"] == {"do": "lock_special_summon", "player": "opponent"}
    assert derived("", "1,0") is scriptmodel.UNKNOWN          # its controller only: no such lock
    assert derived("\te1:SetTarget(s.sumlimit)\n") is scriptmodel.UNKNOWN   # "except from the Extra Deck"


def test_a_graveyard_banish_lock_on_the_opponent_or_both_and_nothing_wider():
    # "Your opponent cannot banish cards from either GY" (Kycoo the Ghost Destroyer's script:
    # EFFECT_CANNOT_REMOVE on players, target range 0,1, a target function on cards in the GY)
    def derived(target="\te1:SetTarget(s.rmlimit)\n", target_range="0,1", where="LOCATION_GRAVE"):
        script = luascan.scan(("local s,id=GetID()\nfunction s.initial_effect(c)\n\tlocal e1=Effect.CreateEffect(c)\n"
                               "\te1:SetType(EFFECT_TYPE_FIELD)\n\te1:SetRange(LOCATION_MZONE)\n"
                               "\te1:SetCode(EFFECT_CANNOT_REMOVE)\n\te1:SetProperty(EFFECT_FLAG_PLAYER_TARGET)\n"
                               f"\te1:SetTargetRange({target_range})\n{target}\tc:RegisterEffect(e1)\nend\n"
                               f"function s.rmlimit(e,c,p)\n\treturn c:IsLocation({where})\nend\n").encode(), "c88240808.lua")
        return scriptmodel.continuous(script.never_activated[0], script.functions)
    assert derived().value == {"kind": "continuous", "apply": {"do": "lock_graveyard_banish", "player": "opponent"}}
    assert derived(target_range="1,1").value["apply"] == {"do": "lock_graveyard_banish"}
    assert derived(target="") is scriptmodel.UNKNOWN                  # every banish: not the model's lock
    assert derived(where="LOCATION_ONFIELD") is scriptmodel.UNKNOWN   # banishing from the field
    assert derived(target_range="1,0") is scriptmodel.UNKNOWN         # its controller only


def test_an_added_attribute_on_the_card_itself_in_the_monster_zone():
    # "While this card is face-up on the field its Attribute is also treated as DARK" (Light and
    # Darkness Dragon's EDOPro script: EFFECT_ADD_ATTRIBUTE, SINGLE_RANGE, LOCATION_MZONE)
    def derived(extra="", value="ATTRIBUTE_DARK", where="LOCATION_MZONE"):
        script = luascan.scan(("local s,id=GetID()\nfunction s.initial_effect(c)\n\tlocal e2=Effect.CreateEffect(c)\n"
                               "\te2:SetType(EFFECT_TYPE_SINGLE)\n\te2:SetProperty(EFFECT_FLAG_SINGLE_RANGE)\n"
                               f"\te2:SetCode(EFFECT_ADD_ATTRIBUTE)\n\te2:SetRange({where})\n\te2:SetValue({value})\n"
                               f"{extra}\tc:RegisterEffect(e2)\nend\nfunction s.con(e)\n\treturn true\nend\n").encode(), "c9.lua")
        return scriptmodel.continuous(script.never_activated[0], script.functions)
    assert derived().value == {"kind": "continuous", "apply": {"do": "add_attribute", "attribute": "DARK"}}
    assert derived(value="ATTRIBUTE_LIGHT+ATTRIBUTE_DARK") is scriptmodel.UNKNOWN   # two at once: not one Attribute
    assert derived(where="LOCATION_GRAVE") is scriptmodel.UNKNOWN   # also in the GY: the model's applies on the field
    assert derived("\te2:SetCondition(s.con)\n") is scriptmodel.UNKNOWN


def test_an_atk_gain_for_each_card_a_count_picks():
    # "This card gains 1000 ATK for each Normal Monster in your GY" (Exodius's EDOPro s.atkval)
    def derived(count):
        script = luascan.scan(("local s,id=GetID()\nfunction s.initial_effect(c)\n\tlocal e4=Effect.CreateEffect(c)\n"
                               "\te4:SetType(EFFECT_TYPE_SINGLE)\n\te4:SetProperty(EFFECT_FLAG_SINGLE_RANGE)\n"
                               "\te4:SetRange(LOCATION_MZONE)\n\te4:SetCode(EFFECT_UPDATE_ATTACK)\n\te4:SetValue(s.atkval)\n"
                               f"\tc:RegisterEffect(e4)\nend\nfunction s.atkval(e,c)\n\treturn {count}\nend\n").encode(), "c9.lua")
        got = scriptmodel.continuous(script.never_activated[0], script.functions)
        return got if got is scriptmodel.UNKNOWN else got.value["apply"].get("amount")
    assert derived("Duel.GetMatchingGroupCount(Card.IsType,c:GetControler(),LOCATION_GRAVE,0,nil,TYPE_NORMAL)*1000") == \
        {"per": 1000, "count": {"side": "yours", "cards": "graveyard", "card_kind": "monster:normal"}}
    assert derived("Duel.GetMatchingGroupCount(Card.IsRace,e:GetHandlerPlayer(),0,LOCATION_MZONE,nil,RACE_DRAGON)*300") == \
        {"per": 300, "count": {"side": "opponent", "monster_type": "dragon"}}
    assert derived("Duel.GetMatchingGroupCount(Card.IsFaceup,c:GetControler(),LOCATION_MZONE,LOCATION_MZONE,nil)*100") == \
        {"per": 100, "count": {"side": "both", "filter": "face_up"}}
    # any monster, Spell or Trap in the GY (a card type); on the field every card in a Monster Zone is a monster
    assert derived("Duel.GetMatchingGroupCount(Card.IsType,c:GetControler(),LOCATION_GRAVE,0,nil,TYPE_MONSTER)*100") == \
        {"per": 100, "count": {"side": "yours", "cards": "graveyard", "card_type": "monster"}}
    assert derived("Duel.GetMatchingGroupCount(Card.IsType,c:GetControler(),0,LOCATION_GRAVE,nil,TYPE_TRAP)*200") == \
        {"per": 200, "count": {"side": "opponent", "cards": "graveyard", "card_type": "trap"}}
    assert derived("Duel.GetMatchingGroupCount(Card.IsType,c:GetControler(),LOCATION_MZONE,0,nil,TYPE_MONSTER)*100") == \
        {"per": 100, "count": {"side": "yours"}}
    # what no selector says: a Spell in a Monster Zone, a type the map lacks, two places at once,
    # the other player's count
    for count in ("Duel.GetMatchingGroupCount(Card.IsType,c:GetControler(),LOCATION_MZONE,0,nil,TYPE_SPELL)*100",
                  "Duel.GetMatchingGroupCount(Card.IsType,c:GetControler(),LOCATION_GRAVE,0,nil,TYPE_XYZ)*100",
                  "Duel.GetMatchingGroupCount(Card.IsType,c:GetControler(),LOCATION_GRAVE+LOCATION_REMOVED,0,nil,TYPE_NORMAL)*100",
                  "Duel.GetMatchingGroupCount(Card.IsFaceup,e:GetOwnerPlayer(),LOCATION_MZONE,0,nil)*100"):
        assert derived(count) is scriptmodel.UNKNOWN


def test_a_summoning_condition_that_refuses_every_special_summon():
    # "Cannot be Special Summoned." (Ancient Gear Golem's EDOPro script: EFFECT_SPSUMMON_CONDITION on
    # the card itself, with no value or aux.FALSE); a value function lets some Summons through
    from ygo_timing.cards import catalogue
    from ygo_timing.cards import luaconst as K
    from ygo_timing.inputs import jsonloc

    def scanned(value=""):
        return luascan.scan(("local s,id=GetID()\nfunction s.initial_effect(c)\n\tlocal e1=Effect.CreateEffect(c)\n"
                             "\te1:SetProperty(EFFECT_FLAG_CANNOT_DISABLE+EFFECT_FLAG_UNCOPYABLE)\n"
                             "\te1:SetType(EFFECT_TYPE_SINGLE)\n\te1:SetCode(EFFECT_SPSUMMON_CONDITION)\n"
                             f"{value}\tc:RegisterEffect(e1)\nend\n").encode(), "c9.lua")
    for value in ("", "\te1:SetValue(aux.FALSE)\n"):
        assert scriptmodel.summoning_condition(scanned(value).never_activated[0]) == "cannot_be_special_summoned"
    assert scriptmodel.summoning_condition(scanned("\te1:SetValue(aux.fuslimit)\n").never_activated[0]) is None
    row = (9, K.OT_OCG | K.OT_TCG, 0, K.TYPE["TYPE_MONSTER"] | K.TYPE["TYPE_EFFECT"], 3000, 3000, 8, 0x1,
           "Test Golem", "Cannot be Special Summoned.")
    entry = importer.map_card(row, scanned(), "c9.lua", print).entry
    assert entry["summoning_condition"] == "cannot_be_special_summoned" and entry["effects"] == []
    # only where the text agrees: a script refuses all where the card's own effect ignores that
    own = row[:-1] + ("Cannot be Normal Summoned/Set. Must be Special Summoned by its own effect.",)
    assert "summoning_condition" not in importer.map_card(own, scanned(), "c9.lua", print).entry
    assert catalogue.parse_card(entry, jsonloc.Located(entry, {}), "t", ()).summoning_condition == "cannot_be_special_summoned"


def test_two_targets_up_to_or_exactly(cards):
    """SelectTarget of 1 to 2 cards is two targets, the second optional; of 2 to 2, both required;
    Duel.GetTargetCards(e) is what the effect targets."""
    face_up = {"filter": {"all": [{"quantity": "location", "of": "target", "value": "monster_zone"},
                                  {"quantity": "face_up", "of": "target", "value": True}]}}
    gale, storm = effect(cards, "Test Gale"), effect(cards, "Test Storm")
    assert gale["target"] == [face_up, {**face_up, "optional": True}]
    assert storm["target"] == [face_up, face_up]
    assert gale["operations"] == storm["operations"] == [{"do": "destroy", "on": "chosen"}]
    assert "unknown" not in gale and "unknown" not in storm
def test_counters_placed_removed_and_an_amount_for_each(cards):
    # c:AddCounter(type, 2) / c:RemoveCounter(tp, type, 1, REASON_EFFECT); value c:GetCounter(type)*500
    e = cards["Test Gnat"]["effects"]
    assert [x.get("operations") for x in e if x["kind"] != "continuous"] == [
        [{"do": "add_counter", "on": "self", "amount": 2}], [{"do": "remove_counter", "on": "self", "amount": 1}]]
    assert [x["apply"] for x in e if x["kind"] == "continuous"] == [{"do": "atk_modifier", "amount": 500, "per": "counter"}]


def test_a_halving_of_every_other_monster(cards):
    # EFFECT_SET_ATTACK_FINAL / SET_DEFENSE_FINAL with math.ceil(c:GetAttack()/2), target c~=e:GetHandler()
    sel = {"side": "both", "filter": "face_up", "other": True}
    assert [e["apply"] for e in cards["Test Root"]["effects"]] == [
        {"do": "atk_halve", "on": "all", "select": sel}, {"do": "def_halve", "on": "all", "select": sel}]


def test_a_target_filter_of_three_atoms(cards):
    # "Target 1 face-up monster your opponent controls": the Monster Zone, the opponent's, face-up
    e = effect(cards, "Test Halver")
    assert e["target"] == {"filter": {"all": [{"quantity": "location", "of": "target", "value": "monster_zone"},
                                              {"quantity": "yours", "of": "target", "value": False},
                                              {"quantity": "face_up", "of": "target", "value": True}]}}
    assert "unknown" not in e or "target" not in e["unknown"]
    assert e["operations"] == [{"do": "atk_halve", "on": "chosen"}]


def test_a_target_filter_beyond_four_atoms_is_unknown_never_shortened():
    # 5 atoms (the Monster Zone, the opponent's, face-up, Attack Position, a Dragon): the format holds
    # 4, and dropping one would admit other cards; without IsRace the same script gives its 4 atoms
    def derived(test):
        script = luascan.scan(("local s,id=GetID()\nfunction s.initial_effect(c)\n\tlocal e1=Effect.CreateEffect(c)\n"
                               "\te1:SetType(EFFECT_TYPE_ACTIVATE)\n\te1:SetProperty(EFFECT_FLAG_CARD_TARGET)\n"
                               "\te1:SetCode(EVENT_FREE_CHAIN)\n\te1:SetTarget(s.tg)\n\tc:RegisterEffect(e1)\nend\n"
                               f"function s.filter(c)\n\treturn {test}\nend\n"
                               "function s.tg(e,tp,eg,ep,ev,re,r,rp,chk,chkc)\n"
                               "\tDuel.SelectTarget(tp,s.filter,tp,0,LOCATION_MZONE,1,1,nil)\nend\n").encode(), "c9.lua")
        return scriptmodel.target(script.effects[0], script.functions, True)
    assert derived("c:IsFaceup() and c:IsAttackPos() and c:IsRace(RACE_DRAGON)") is scriptmodel.UNKNOWN
    assert len(derived("c:IsFaceup() and c:IsAttackPos()").value["filter"]["all"]) == 4


def test_choices_and_searches_are_unknown(cards):
    assert "operations" in effect(cards, "Test Chooser")["unknown"]
    searcher = effect(cards, "Test Searcher")
    # the Deck is not modelled; the target function's check is an activation condition
    assert {"operations", "condition"} <= set(searcher["unknown"])


def test_draw_then_mill_a_constant_number(cards):
    e = effect(cards, "Test Tide")
    assert e["once"] == "per_turn_by_name"   # SetCountLimit(1,id,...): "You can only activate 1 ... per turn"
    assert e["operations"] == [{"do": "draw", "amount": 1, "to": "you"}, {"do": "mill", "amount": 2, "to": "opponent", "then": True}]


def test_a_count_code_per_duel_is_once_per_duel(cards):
    # SetCountLimit(1,id,EFFECT_COUNT_CODE_DUEL): "You can only use this effect of "X" once per Duel"
    e = effect(cards, "Test Vow")
    assert e["once"] == "per_duel" and "once" not in e.get("unknown", [])
    assert e["operations"] == [{"do": "draw", "amount": 1, "to": "you"}]


def test_one_count_code_over_two_effects_is_one_limit(cards):
    # SetCountLimit(1,id,...) on both effects: one count in the engine, "activate 1 ... per turn"
    assert [e["once"] for e in cards["Test Twins"]["effects"]] == ["per_turn_by_card_name"] * 2
    # {id,1} and {id,2}: a count each
    assert [e["once"] for e in cards["Test Pair"]["effects"]] == ["per_turn_by_name"] * 2
    assert [e["operations"] for e in cards["Test Pair"]["effects"]] == [
        [{"do": "draw", "amount": 1, "to": "you"}], [{"do": "draw", "amount": 2, "to": "you"}]]


def test_a_trap_never_battles_so_its_own_battle_event_is_unknown(cards):
    e = effect(cards, "Test Spike")
    assert e["condition"] == "none" and "condition" in e["unknown"]
    assert e["operations"] == [{"do": "damage", "amount": 300, "to": "opponent"}]


def test_half_lp_cost_then_end_battle_phase(cards):
    e = effect(cards, "Test Gate")
    assert e["condition"] == "opponent_attacks" and e["cost"] == [{"do": "pay_half_lp"}]
    assert e["operations"] == [{"do": "negate_attack"}, {"do": "end_battle_phase", "then": True}]


def test_banish_cost_from_the_graveyard_and_set_face_down(cards):
    e = effect(cards, "Test Shifter")
    assert e["from"] == "graveyard" and e["cost"] == [{"do": "banish_self"}]
    assert e["operations"] == [{"do": "set_face_down", "on": "chosen"}]


def test_condition_atoms(cards):
    assert effect(cards, "Test Mender")["condition"] == {"all": [
        "opponent_attacks", {"quantity": "direct_attack", "value": True},
        {"quantity": "lp", "of": "you", "cmp": "<=", "value": 1000}]}
    assert effect(cards, "Test Mender")["operations"] == [{"do": "gain_lp", "amount": 1000, "to": "you"}]


MIRROR = """ruleset: ocg
turn: 2
turn-player: {attacker}
A monster "Blue-Eyes White Dragon" as BEWD
B monster "Dark Magician" as DM
B set "Test Mirror" as TM
A set "Test Mirror" as TM2
enter battle phase
next battle_step
attack {attack}
pass {attacker}
activate B TM
resolve
claim location BEWD graveyard
"""


def test_a_play_with_imported_cards_is_judged_end_to_end(tmp_path, pool):
    """Test Mirror: "When an opponent's monster declares an attack: Destroy all your opponent's
    Attack Position monsters." (its text in the pool)."""
    cat = tmp_path / "pool.json"
    r = CliRunner().invoke(main, ["cards", "import", "--cdb", str(pool[0]), "--scripts", str(pool[1]), "--out", str(cat)])
    assert r.exit_code == 0, r.output
    # the demonstration docs/cards.md gives
    r = CliRunner().invoke(main, ["check", str(ROOT / "docs" / "examples" / "imported-mirror.play"), "--cards", str(cat)])
    assert r.exit_code == 0 and "LEGAL under tcg (as expected)" in r.output, r.output
    legal = tmp_path / "legal.play"
    legal.write_text(MIRROR.format(attacker="A", attack="BEWD -> DM"))
    r = CliRunner().invoke(main, ["check", str(legal), "--cards", str(cat)])
    assert r.exit_code == 0 and "LEGAL" in r.output.upper(), r.output
    # on B's own attack the condition fails: the activation is illegal
    illegal = tmp_path / "illegal.play"
    illegal.write_text(MIRROR.format(attacker="B", attack="DM -> BEWD").replace("claim location BEWD graveyard\n", ""))
    r = CliRunner().invoke(main, ["check", str(illegal), "--cards", str(cat)])
    assert r.exit_code == 1, r.output
    assert "activate B TM" in r.output and "GEN-5" in r.output
    # an imported card with an unknown property is never judged
    unknown = tmp_path / "unknown.play"
    unknown.write_text(MIRROR.format(attacker="A", attack="BEWD -> DM").replace("Test Mirror", "Test Jammer"))
    r = CliRunner().invoke(main, ["check", str(unknown), "--cards", str(cat)])
    assert r.exit_code == 3 and "'Test Jammer' (effect 1 condition" in r.output, r.output


def test_coverage_counts_every_property_and_continuous(pool):
    imp = importer.import_pool(*map(str, pool))
    cov = imp.coverage
    assert cov["effect.every"]["derived"] + cov["effect.every"]["unknown"] == 25   # activated effects
    assert cov["continuous.apply"] == {"derived": 6, "unknown": 0}
    assert cov["effect.operations"]["unknown"] == 3 and cov["effect.cost"]["unknown"] == 0   # Test Spurt's too
    assert json.dumps(cov)   # the report is JSON


def test_compare_joins_entries_by_passcode_property_by_property(tmp_path, pool):
    own = {"cards": [
        {"name": "My Mirror", "type": "trap", "subtype": "normal", "passcode": 1101, "source": "a test",
         "effects": [{"kind": "activation", "condition": "opponent_attacks",
                      "operations": [{"do": "destroy", "on": "all", "select": {"side": "opponent", "filter": "any"}}]}]},
        {"name": "My Gate", "type": "trap", "subtype": "normal", "passcode": 1111, "source": "a test",
         "effects": [{"kind": "activation", "condition": "opponent_attacks", "cost": [{"do": "pay_half_lp"}],
                      "target": {"filter": {"quantity": "attacking", "of": "target"}, "implied": "attacker"},
                      "operations": [{"do": "negate_attack"}, {"do": "end_battle_phase", "then": True}]}]},
        {"name": "Not In The Pool", "type": "spell", "subtype": "quickplay", "passcode": 99, "source": "a test",
         "effects": [{"kind": "activation"}]}]}
    path = tmp_path / "own.json"
    path.write_text(json.dumps(own))
    r = CliRunner().invoke(main, ["cards", "compare", "--cdb", str(pool[0]), "--scripts", str(pool[1]),
                                  "--cards", str(path), "--format", "json"])
    assert r.exit_code == 1, r.output
    report = json.loads(r.output[r.output.index("{"):])
    assert report["cards"] == 2
    assert report["by_property"]["effect.operations"] == {"agree": 1, "differ": 1}
    assert report["by_property"]["effect.cost"] == {"agree": 2}
    # the entries leave timings at none: the import reads the attack declaration's from the event
    assert {(d["card"], d["property"]) for d in report["differences"]} == {
        ("My Mirror", "effect.operations"), ("My Mirror", "effect.timings"), ("My Gate", "effect.timings")}
    [d] = [d for d in report["differences"] if d["property"] == "effect.operations"]
    assert d["card"] == "My Mirror" and d["property"] == "effect.operations"
    assert d["imported"][0]["select"]["filter"] == "attack_position"


def test_compare_counts_two_spellings_of_one_meaning_as_agreement():
    from ygo_timing.cards.crosscheck import _same
    a = {"filter": {"all": [{"quantity": "face_up", "of": "target"}, {"quantity": "location", "of": "target", "value": "monster_zone"}]}}
    b = {"filter": {"all": [{"quantity": "location", "of": "target", "value": "monster_zone"}, {"quantity": "face_up", "of": "target"}]}}
    assert _same(a, b)
    assert _same([{"do": "gain_lp", "on": "self", "amount": 4000, "then": False}], [{"do": "gain_lp", "amount": 4000}])
    # but the order of operations is their meaning, and a field that differs is a difference
    assert not _same([{"do": "negate"}, {"do": "destroy"}], [{"do": "destroy"}, {"do": "negate"}])
    assert not _same([{"do": "destroy", "on": "attacker"}], [{"do": "destroy"}])


def test_an_equip_spells_equip_effects_apply_to_the_equipped_monster():
    # EFFECT_TYPE_EQUIP on an Equip Spell: "The equipped monster gains 300 ATK" is a continuous
    # effect `on` "equipped" (GEN-20); on any other card the import does not guess
    script = luascan.scan(("local s,id=GetID()\nfunction s.initial_effect(c)\n\taux.AddEquipProcedure(c)\n"
                           "\tlocal e2=Effect.CreateEffect(c)\n\te2:SetType(EFFECT_TYPE_EQUIP)\n"
                           "\te2:SetCode(EFFECT_UPDATE_ATTACK)\n\te2:SetValue(300)\n\tc:RegisterEffect(e2)\n"
                           "\tlocal e3=Effect.CreateEffect(c)\n\te3:SetType(EFFECT_TYPE_EQUIP)\n"
                           "\te3:SetCode(EFFECT_PIERCE)\n\tc:RegisterEffect(e3)\nend\n").encode(), "c8.lua")
    atk, pierce = script.never_activated
    assert scriptmodel.continuous(atk, script.functions, equip_spell=True).value == \
        {"kind": "continuous", "apply": {"do": "atk_modifier", "on": "equipped", "amount": 300}}
    assert scriptmodel.continuous(pierce, script.functions, equip_spell=True).value["apply"] == \
        {"do": "piercing", "on": "equipped"}
    assert scriptmodel.continuous(atk, script.functions) is scriptmodel.UNKNOWN


def test_redirects_are_read_where_straightforward_and_unknown_otherwise():
    # where a card goes instead of the Graveyard (GEN-18): EFFECT_TO_GRAVE_REDIRECT on every card
    # ("any card sent to the GY is banished instead": Macro Cosmos) or on monsters destroyed by
    # battle (Grave Protector), EFFECT_LEAVE_FIELD_REDIRECT on the card itself; a value the model
    # has no destination for (the hand), a condition beyond "face-up", or EFFECT_FLAG_CANNOT_DISABLE
    # (it would apply while the card's effects are negated, where GEN-18 stops it) are unknown
    def read(body, functions=""):
        script = luascan.scan((f"local s,id=GetID()\nfunction s.initial_effect(c)\n{body}\tc:RegisterEffect(e1)\nend\n"
                               f"{functions}").encode(), "c9.lua")
        (decl,) = script.never_activated
        got = scriptmodel.continuous(decl, script.functions)
        return got.value["apply"] if got else got
    field = ("\tlocal e1=Effect.CreateEffect(c)\n\te1:SetType(EFFECT_TYPE_FIELD)\n\te1:SetCode(EFFECT_TO_GRAVE_REDIRECT)\n"
             "\te1:SetRange({rng})\n\te1:SetTargetRange({tr})\n\te1:SetValue({value})\n{extra}")
    assert read(field.format(rng="LOCATION_SZONE", tr="0xff,0xff", value="LOCATION_REMOVED", extra="")) == \
        {"do": "graveyard_redirect", "to": "banished"}
    battle = "function s.rmtarget(e,c)\n\treturn c:IsReason(REASON_BATTLE)\nend\n"
    assert read(field.format(rng="LOCATION_MZONE", tr="LOCATION_MZONE,LOCATION_MZONE", value="LOCATION_DECKSHF",
                             extra="\te1:SetTarget(s.rmtarget)\n"), battle) == \
        {"do": "battle_destroyed_redirect", "on": "all", "select": {"side": "both"}, "to": "deck"}
    assert read(field.format(rng="LOCATION_SZONE", tr="0xff,0xff", value="LOCATION_HAND", extra="")) is None
    assert read(field.format(rng="LOCATION_SZONE", tr="LOCATION_MZONE,0", value="LOCATION_REMOVED", extra="")) is None
    single = ("\tlocal e1=Effect.CreateEffect(c)\n\te1:SetType(EFFECT_TYPE_SINGLE)\n\te1:SetCode(EFFECT_LEAVE_FIELD_REDIRECT)\n"
              "\te1:SetCondition(function(e) return e:GetHandler():IsFaceup() end)\n\te1:SetValue(LOCATION_REMOVED)\n{extra}")
    assert read(single.format(extra="")) == {"do": "leave_field_redirect", "to": "banished"}
    assert read(single.format(extra="\te1:SetProperty(EFFECT_FLAG_CANNOT_DISABLE)\n")) is None
    assert read(single.replace("IsFaceup()", "IsAttackPos()").format(extra="")) is None
    # "discard this card" (payable where a redirect banishes it) and "send this card to the GY" (not)
    script = luascan.scan(("local s,id=GetID()\nfunction s.initial_effect(c)\n\tlocal e1=Effect.CreateEffect(c)\n"
                           "\te1:SetType(EFFECT_TYPE_QUICK_O)\n\te1:SetCost(Cost.SelfDiscard)\n\tc:RegisterEffect(e1)\n"
                           "\tlocal e2=e1:Clone()\n\te2:SetCost(Cost.SelfToGrave)\n\tc:RegisterEffect(e2)\nend\n").encode(), "c9.lua")
    assert [scriptmodel.cost(d, script.functions).value for d in script.effects] == [[{"do": "discard_self"}], [{"do": "send_self"}]]
    # "Tribute this card" (a Tribute: payable there too), by the helper or by Duel.Release of itself;
    # Duel.Release of another monster is the Tribute the play names
    script = luascan.scan(("local s,id=GetID()\nfunction s.initial_effect(c)\n\tlocal e1=Effect.CreateEffect(c)\n"
                           "\te1:SetType(EFFECT_TYPE_QUICK_O)\n\te1:SetCost(Cost.SelfTribute)\n\tc:RegisterEffect(e1)\n"
                           "\tlocal e2=e1:Clone()\n\te2:SetCost(s.cost)\n\tc:RegisterEffect(e2)\n"
                           "\tlocal e3=e1:Clone()\n\te3:SetCost(s.cost3)\n\tc:RegisterEffect(e3)\nend\n"
                           "function s.cost(e,tp,eg,ep,ev,re,r,rp,chk)\n\tif chk==0 then return e:GetHandler():IsReleasable() end\n"
                           "\tDuel.Release(e:GetHandler(),REASON_COST)\nend\n"
                           "function s.cost3(e,tp,eg,ep,ev,re,r,rp,chk)\n\tif chk==0 then return Duel.CheckReleaseGroup(tp,nil,1,nil) end\n"
                           "\tlocal g=Duel.SelectReleaseGroup(tp,nil,1,1,nil)\n\tDuel.Release(g,REASON_COST)\nend\n").encode(), "c9.lua")
    assert [scriptmodel.cost(d, script.functions).value for d in script.effects] == \
        [[{"do": "tribute_self"}], [{"do": "tribute_self"}], [{"do": "tribute"}]]
    # "shuffle this card into the Deck" (Gladiator Beasts), by the helpers or by Duel.SendtoDeck of itself
    script = luascan.scan(("local s,id=GetID()\nfunction s.initial_effect(c)\n\tlocal e1=Effect.CreateEffect(c)\n"
                           "\te1:SetType(EFFECT_TYPE_TRIGGER_O)\n\te1:SetCost(Cost.SelfToDeck)\n\tc:RegisterEffect(e1)\n"
                           "\tlocal e2=e1:Clone()\n\te2:SetCost(Cost.SelfToExtra)\n\tc:RegisterEffect(e2)\n"
                           "\tlocal e3=e1:Clone()\n\te3:SetCost(s.cost)\n\tc:RegisterEffect(e3)\nend\n"
                           "function s.cost(e,tp,eg,ep,ev,re,r,rp,chk)\n\tif chk==0 then return e:GetHandler():IsAbleToDeckAsCost() end\n"
                           "\tDuel.SendtoDeck(e:GetHandler(),nil,2,REASON_COST)\nend\n").encode(), "c9.lua")
    assert [scriptmodel.cost(d, script.functions).value for d in script.effects] == [[{"do": "to_deck_self"}]] * 3


def _target_of(test, params="c", extra="", locs="0,LOCATION_MZONE"):
    """The target read off one Activate effect whose SelectTarget (opponent's monsters unless
    `locs` says otherwise, `extra` passed on to the filter) uses `function s.filter(params) return test end`."""
    script = luascan.scan(("local s,id=GetID()\nfunction s.initial_effect(c)\n\tlocal e1=Effect.CreateEffect(c)\n"
                           "\te1:SetType(EFFECT_TYPE_ACTIVATE)\n\te1:SetProperty(EFFECT_FLAG_CARD_TARGET)\n"
                           "\te1:SetCode(EVENT_FREE_CHAIN)\n\te1:SetTarget(s.tg)\n\tc:RegisterEffect(e1)\nend\n"
                           f"function s.filter({params})\n\treturn {test}\nend\n"
                           "function s.tg(e,tp,eg,ep,ev,re,r,rp,chk,chkc)\n"
                           f"\tDuel.SelectTarget(tp,s.filter,tp,{locs},1,1,nil{extra})\nend\n").encode(), "c9.lua")
    got = scriptmodel.target(script.effects[0], script.functions, True)
    return got if got is scriptmodel.UNKNOWN else got.value["filter"]["all"]


def _t(q, v):
    return {"quantity": q, "of": "target", "value": v}


MZ, OPP, MINE = _t("location", "monster_zone"), _t("yours", False), _t("yours", True)


@pytest.mark.parametrize("test, params, extra, atoms", [
    ("c:IsRace(RACE_WINGEDBEAST)", "c", "", [MZ, OPP, _t("monster_type", "winged_beast")]),
    ("c:IsRace(RACE_DIVINE)", "c", "", [MZ, OPP, _t("monster_type", "divine_beast")]),
    ("c:IsType(TYPE_SPELL)", "c", "", [MZ, OPP, _t("card_type", "spell")]),
    ("c:IsTrap()", "c", "", [MZ, OPP, _t("card_type", "trap")]),
    ("c:IsSpellTrap()", "c", "", [MZ, OPP, {"quantity": "card_type", "of": "target", "cmp": "!=", "value": "monster"}]),
    ("c:IsType(TYPE_XYZ)", "c", "", [MZ, OPP, _t("card_kind", "monster:xyz")]),   # an Xyz Pendulum too
    # the filter's tp is what the call passes: the effect's controller, or its opponent
    ("c:IsControler(1-tp)", "c,tp", ",tp", [MZ, OPP]),   # said twice, one atom
    ("c:IsFaceup() and c:IsControler(tp)", "c,tp", ",1-tp", [MZ, OPP, _t("face_up", True)]),
    ("c:IsControler(p)", "c,e,p", ",e,1-tp", [MZ, OPP]),
    ("c:IsPosition(POS_FACEDOWN)", "c", "", [MZ, OPP, _t("face_up", False)]),
    ("c:IsPosition(POS_DEFENSE)", "c", "", [MZ, OPP, _t("defense_position", True)]),
    ("c:IsSpecialSummoned()", "c", "", [MZ, OPP, _t("special_summoned", True)]),
])
def test_card_tests_a_target_filter_reads(test, params, extra, atoms):
    assert _target_of(test, params, extra) == atoms


def test_a_filter_of_both_sides_takes_its_side_from_iscontroler():
    assert _target_of("c:IsControler(tp) and c:IsRace(RACE_DRAGON)", "c,tp", ",tp",
                      "LOCATION_MZONE,LOCATION_MZONE") == [MZ, MINE, _t("monster_type", "dragon")]
    # a face-up Attack Position monster on either side: face-up and not in Defense Position
    assert _target_of("c:IsPosition(POS_FACEUP_ATTACK)", locs="LOCATION_MZONE,LOCATION_MZONE") == [
        MZ, _t("face_up", True), _t("defense_position", False)]
    # ... of your opponent's: four atoms, as many as the format holds; a Dragon besides is one more
    assert _target_of("c:IsPosition(POS_FACEUP_ATTACK)") == [MZ, _t("yours", False), _t("face_up", True),
                                                             _t("defense_position", False)]
    assert _target_of("c:IsPosition(POS_FACEUP_ATTACK) and c:IsRace(RACE_DRAGON)") is scriptmodel.UNKNOWN


@pytest.mark.parametrize("test, params, extra, locs", [
    ("c:IsRace(RACE_DRAGON|RACE_WYRM)", "c", "", "0,LOCATION_MZONE"),   # either Type: no one atom
    ("c:IsRace(RACE_CREATORGOD)", "c", "", "0,LOCATION_MZONE"),         # no catalogue Type
    ("c:IsType(TYPE_MONSTER+TYPE_EFFECT)", "c", "", "0,LOCATION_MZONE"),   # a subtype
    ("c:IsType(TYPE_SPELL|TYPE_TRAP)", "c", "", "0,LOCATION_MZONE"),
    ("c:IsType(TYPE_RITUAL)", "c", "", "0,LOCATION_MZONE"),     # a Ritual Monster or a Ritual Spell
    ("c:IsType(TYPE_EFFECT)", "c", "", "0,LOCATION_MZONE"),     # an Xyz with effects is monster:xyz
    ("c:IsControler(tp)", "c,tp", "", "0,LOCATION_MZONE"),          # the call passes no player: nil
    ("c:IsControler(p)", "c,tp", ",tp", "0,LOCATION_MZONE"),        # not a parameter
    ("c:IsControler(tp)", "c,tp", ",Duel.GetTurnPlayer()", "0,LOCATION_MZONE"),
    ("c:IsPosition(POS_FACEUP_ATTACK|POS_FACEDOWN_DEFENSE)", "c", "", "0,LOCATION_MZONE"),
    ("c:IsStatus(STATUS_SUMMON_TURN)", "c", "", "0,LOCATION_MZONE"),   # also a monster Set this turn
    ("c:IsCode(46986414)", "c", "", "0,LOCATION_MZONE"),               # the import has no name for a passcode
    ("c:IsSpecialSummoned()", "c", "", "LOCATION_GRAVE,0"),          # the engine keeps it in the GY; the model not
    ("c:IsAttackPos()", "c", "", "0,LOCATION_SZONE"),                # a face-up Spell is both positions to the engine
    ("c:IsDefensePos() or c:IsFacedown()", "c", "", "0,LOCATION_MZONE"),   # "or" is never one clause
    # location, opponent's, and the three atoms of "Special Summoned this turn": more than the format holds
    ("c:IsStatus(STATUS_SPSUMMON_TURN)", "c", "", "0,LOCATION_MZONE"),
    ("c:IsFaceup() and c:IsRace(RACE_DRAGON) and c:IsSpecialSummoned()", "c", "", "0,LOCATION_MZONE"),
])
def test_near_misses_of_a_target_filter_stay_unknown(test, params, extra, locs):
    assert _target_of(test, params, extra, locs) is scriptmodel.UNKNOWN


def _c(q, of, v):
    return {"quantity": q, "of": of, "value": v}


@pytest.mark.parametrize("body, in_mzone, atoms", [
    ("return Duel.GetAttacker():IsRace(RACE_DRAGON)", False, [_c("monster_type", "attacker", "dragon")]),
    ("return Duel.GetAttackTarget():IsControler(tp) and Duel.GetAttackTarget():IsPosition(POS_FACEUP_DEFENSE)", False,
     [_c("yours", "attack_target", True), _c("face_up", "attack_target", True),
      _c("defense_position", "attack_target", True)]),
    ("return Duel.GetAttacker():IsSpecialSummoned()", False, [_c("special_summoned", "attacker", True)]),
    ("return Duel.GetAttacker():IsStatus(STATUS_SPSUMMON_TURN)", False,
     [_c("special_summoned", "attacker", True), _c("summoned_this_turn", "attacker", True),
      _c("flip_summoned_this_turn", "attacker", False)]),
    ("return e:GetHandler():IsAttribute(ATTRIBUTE_DARK) and e:GetHandler():IsControler(tp)", False,
     [_c("attribute", "self", "dark"), _c("yours", "self", True)]),
    ("return e:GetHandler():IsAttackPos() and e:GetHandler():IsSpecialSummoned()", True,
     [_c("defense_position", "self", False), _c("special_summoned", "self", True)]),
])
def test_card_tests_a_condition_reads(body, in_mzone, atoms):
    assert scriptmodel.condition_atoms(f"(e,tp,eg,ep,ev,re,r,rp) {body}", self_in_mzone=in_mzone) == atoms


@pytest.mark.parametrize("body, in_mzone", [
    ("return Duel.GetAttacker():IsRace(RACE_DRAGON+RACE_WYRM)", True),
    ("return Duel.GetAttacker():IsControler(p)", True),
    ("return Duel.GetAttacker():IsAbleToHand()", True),      # a condition the model has not: never dropped
    ("return Duel.GetAttacker():IsType(TYPE_MONSTER+TYPE_EFFECT)", True),
    ("return Duel.GetAttackTarget():IsStatus(STATUS_SUMMON_TURN)", True),
    ("return Duel.GetAttacker():IsCode(id)", True),
    ("return c:IsFaceup()", True),                            # no `c` in an activated effect's condition
    # this card may be in the hand or the GY: its position and Summon are the model's on the field only
    ("return e:GetHandler():IsAttackPos()", False),
    ("return e:GetHandler():IsSpecialSummoned()", False),
])
def test_near_misses_of_a_condition_stay_unknown(body, in_mzone):
    assert scriptmodel.condition_atoms(f"(e,tp,eg,ep,ev,re,r,rp) {body}", self_in_mzone=in_mzone) is None


def test_the_atoms_read_load_as_a_catalogue(tmp_path):
    """What the new clauses state is a catalogue the loader accepts (docs/cards-format.md)."""
    from ygo_timing.cards import catalogue
    card = {"name": "Test Reader", "type": "trap", "subtype": "normal", "source": "a test", "effects": [{
        "kind": "activation",
        "condition": {"all": [_c("special_summoned", "attacker", True), _c("summoned_this_turn", "attacker", True),
                              _c("flip_summoned_this_turn", "attacker", False)]},
        "target": {"filter": {"all": [_t("monster_type", "winged_beast"), _t("card_kind", "monster:xyz"),
                                      {"quantity": "card_type", "of": "target", "cmp": "!=", "value": "monster"}]}},
        "operations": [{"do": "destroy", "on": "chosen"}]}]}
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"cards": [card]}))
    [loaded] = catalogue.load_file(str(path))
    assert loaded.name == "Test Reader"

"""Every condition atom means what docs/cards-format.md says: in one fixed position, an effect
whose condition is "quantity of subject == the value the set-up gives" may be activated, and one
whose condition names another value may not (GEN-5). The expected values are read off the
set-up below by hand (Dark Magician: DARK Spellcaster, Level 7, 2500/2100; Blue-Eyes White
Dragon: LIGHT Dragon, Level 8, 3000/2500 — their card text), never from the tool."""
import json

import pytest
from ygo_timing.checking.check import check_play
from ygo_timing.inputs.play.text import parse_text

SETUP = """\
title: atom {name}
source: card text (the set-up's printed values); docs/cards-format.md (what each atom reads)
ruleset: {ruleset}
turn: 2
turn-player: A
lp: A 8000, B 7000
card: {card}

A monster "Dark Magician" as DM
A hand "Kuriboh" as K
B monster "Blue-Eyes White Dragon" as BEWD
B set "Probe" as P

enter battle phase
next battle_step
attack DM -> BEWD
pass A
activate B P
"""


def probe(condition):
    return json.dumps({"name": "Probe", "type": "trap", "subtype": "normal", "archetype": "Probe Series",
                       "effects": [{"kind": "activation", "condition": condition}],
                       "source": "a test card: only its condition matters"})


def atom(quantity, of, value, cmp="==", than=None):
    d = {"quantity": quantity, "cmp": cmp, "value": value}
    if of is not None:
        d["of"] = of
    if than is not None:
        d["than"] = than
        del d["value"]
    return d


# (quantity, subject, the value in the set-up at B's activation, a value it does not have)
CASES = [
    ("location", "attacker", "monster_zone", "hand"),
    ("face_up", "attack_target", True, False),
    ("defense_position", "attack_target", False, True),
    ("atk", "attacker", 2500, 2400),
    ("def", "attack_target", 2500, 2100),
    ("level", "attacker", 7, 8),
    ("attribute", "attacker", "DARK", "LIGHT"),
    ("monster_type", "attack_target", "dragon", "spellcaster"),
    ("archetype", "self", "Probe Series", "Six Samurai"),
    ("name", "attacker", "Dark Magician", "Blue-Eyes White Dragon"),
    ("name", "self", "Probe", "Kuriboh"),
    ("card_type", "self", "trap", "spell"),
    ("card_kind", "attacker", "monster:normal", "monster:synchro"),
    ("original_atk", "attack_target", 3000, 2500),
    ("original_def", "attacker", 2100, 2500),
    ("yours", "attacker", False, True),
    ("battling", "attack_target", True, False),
    ("attacking", "attacker", True, False),
    ("attacked", "attack_target", True, False),
    ("special_summoned", "attacker", False, True),
    ("summoned_this_turn", "attacker", False, True),   # the set-up does not say it was
    ("flip_summoned_this_turn", "attacker", False, True),
    ("destroyed_by_battle", "attack_target", False, True),   # no damage calculation yet
    ("counters", "attacker", 0, 1),   # the set-up gives none
    ("lp", "you", 7000, 8000),
    ("lp", "opponent", 8000, 7000),
    ("monsters", "opponent", 1, 2),
    ("cards", "you", 2, 1),
    ("hand", "opponent", 1, 0),
    ("battle_damage", "you", 0, 500),
    # Dark Magician (2500) attacks Blue-Eyes (3000, Attack Position): its controller, A, would take 500
    ("battle_damage_pending", "opponent", 500, 0),
    ("battle_damage_pending", "you", 0, 500),
    ("turn", "you", False, True),
    ("direct_attack", None, False, True),
    ("chain_length", None, 0, 1),
    ("damage_step", None, False, True),
    ("damage_calculation", None, False, True),
]


def verdict(condition, ruleset="ocg", name="case"):
    v = check_play(parse_text(SETUP.format(name=name, ruleset=ruleset, card=probe(condition)), "atom.play"))
    return v.verdict, {r["rule"] for r in v.violations}


@pytest.mark.parametrize("quantity, of, holds, fails", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_an_atom_holds_exactly_for_its_value(quantity, of, holds, fails):
    assert verdict(atom(quantity, of, holds)) == ("legal", set())
    got, rules = verdict(atom(quantity, of, fails))
    assert got == "illegal" and "GEN-5" in rules
    # and the negation the other way round
    assert verdict(atom(quantity, of, fails, cmp="!="))[0] == "legal"


def test_comparisons_between_two_cards():
    lower = atom("atk", "attacker", 0, cmp="<", than={"quantity": "atk", "of": "attack_target"})   # 2500 < 3000
    assert verdict(lower) == ("legal", set())
    higher = atom("atk", "attacker", 0, cmp=">", than={"quantity": "def", "of": "attack_target"})  # 2500 > 2500: no
    assert verdict(higher)[0] == "illegal"
    offset = atom("atk", "attacker", 500, cmp="==", than={"quantity": "atk", "of": "attack_target"})
    assert verdict(offset)[0] == "illegal"   # 2500 == 3000 + 500: no
    offset["value"] = -500
    assert verdict(offset)[0] == "legal"     # 2500 == 3000 - 500


def test_alternatives_and_negation():
    yes, no = atom("level", "attacker", 7), atom("level", "attacker", 8)
    other = atom("atk", "attacker", 2500)
    assert verdict({"any": [no, yes]})[0] == "legal"
    assert verdict({"all": [no, other]})[0] == "illegal"
    assert verdict({"not": {"all": [no, other]}})[0] == "legal"
    assert verdict({"all": [no, yes]})[0] == "error"   # no attacker is Level 7 and 8: the loader refuses it
    assert verdict({"all": ["opponent_attacks", yes]})[0] == "legal"
    # the event is about Probe itself, a Trap, which is never attacked: the loader refuses it
    assert verdict({"all": ["attacked", yes]})[0] == "error"


@pytest.mark.parametrize("ruleset", ["ocg", "tcg"])
def test_both_rule_sets_read_atoms_alike(ruleset):
    assert verdict(atom("atk", "attacker", 2500), ruleset)[0] == "legal"
    assert verdict(atom("atk", "attacker", 2400), ruleset)[0] == "illegal"


def test_counters_are_the_set_ups_and_only_on_a_face_up_card_on_the_field():
    # `counters N` on Dark Magician (docs/format.md); counters compare as numbers
    with_counters = SETUP.replace('A monster "Dark Magician" as DM', 'A monster "Dark Magician" as DM counters 3')
    for condition, expected in ((atom("counters", "attacker", 3), "legal"), (atom("counters", "attacker", 2, ">="), "legal"),
                                (atom("counters", "attacker", 3, "<"), "illegal")):
        v = check_play(parse_text(with_counters.format(name="c", ruleset="ocg", card=probe(condition)), "c.play"))
        assert v.verdict == expected, condition
    with pytest.raises(Exception, match="counters are on a face-up card on the field"):
        parse_text(SETUP.replace('A hand "Kuriboh" as K', 'A hand "Kuriboh" as K counters 1').format(
            name="c", ruleset="ocg", card=probe("none")), "c.play")


@pytest.mark.parametrize("quantity", ["special_summoned", "summoned_this_turn"])
def test_how_it_was_summoned_is_about_the_monster_still_on_the_field(quantity):
    # Mystic Tomato, Special Summoned by Call of the Haunted, is destroyed by battle: in the
    # Graveyard it is a new card, not "a Special Summoned monster" nor one "Summoned this turn"
    probe_card = json.dumps({"name": "Probe", "type": "trap", "subtype": "normal", "source": "a test card",
                             "effects": [{"kind": "activation", "target": {"filter": atom(quantity, "target", True)}}]})
    play = (f"source: test\nruleset: ocg\nturn: 2\nturn-player: A\ncard: {probe_card}\n"
            'A monster "Dark Magician" as DM\nB graveyard "Mystic Tomato" as T\n'
            'B set "Call of the Haunted" as Call\nB set "Probe" as P\n'
            "enter battle phase\nnext battle_step\npass A\nactivate B Call target T\nresolve\n{probe}"
            "attack DM -> T\nnext ds_start\nnext ds_before_calc\nnext ds_during_calc\nnext ds_after_calc\n"
            "next ds_end\nnext battle_step\nclaim location T graveyard\npass A\nactivate B P target T\n")
    v = check_play(parse_text(play.replace("{probe}", ""), "ss.play"))
    assert v.verdict == "illegal" and {r["rule"] for r in v.violations} == {"GEN-17"}
    # while it is on the field it is one: the same target is accepted right after the summon
    early = play.replace("{probe}", "pass A\nactivate B P target T\n").split("attack DM")[0]
    assert check_play(parse_text(early, "ss.play")).verdict == "legal"
    # a monster the set-up says was Special Summoned (this turn or an earlier one) / Summoned this
    # turn is one; without the option it was not (docs/format.md)
    setup = (f"source: test\nruleset: ocg\nturn: 2\nturn-player: A\ncard: {probe_card}\n"
             'A monster "Dark Magician" as DM{ss}\nB set "Probe" as P\n'
             "enter battle phase\nnext battle_step\npass A\nactivate B P target DM\n")
    option = " " + quantity.replace("_", "-")
    assert check_play(parse_text(setup.replace("{ss}", option), "ss.play")).verdict == "legal"
    v = check_play(parse_text(setup.replace("{ss}", ""), "ss.play"))
    assert v.verdict == "illegal" and {r["rule"] for r in v.violations} == {"GEN-17"}

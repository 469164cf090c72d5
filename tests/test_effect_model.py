"""The effect model's catalogue format (docs/cards-format.md): the loader and the JSON Schema
(docs/cards.schema.json) accept and refuse the same documents, every built-in entry is valid,
conditions normalise as documented, bad input is a located error, and `cards migrate` rewrites
the old one-operation form without changing what a card does."""
import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner
from ygo_timing.cards import catalogue, effect_conditions
from ygo_timing.cards.effect_selectors import SUMMON_KEYS
from ygo_timing.cli.main import main
from ygo_timing.model import vocab

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "docs" / "cards.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def card(**effect):
    e = {"kind": "quick", **effect}
    return {"cards": [{"name": "Test Card", "type": "monster", "subtype": "effect", "atk": 1000, "def": 1000,
                       "level": 4, "effects": [e]}]}


def load(doc):
    return catalogue.parse_document(json.dumps(doc, indent=1).encode(), "test.json")


def schema_ok(doc):
    return not list(VALIDATOR.iter_errors(doc))


def test_every_builtin_entry_meets_the_schema():
    doc = json.loads((ROOT / "fixtures" / "cards.json").read_text())
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in VALIDATOR.iter_errors(doc)]
    assert errors == []
    assert len(load(doc)) == len(doc["cards"])


def test_every_builtin_monster_has_a_type():
    # a monster without `monster_type` reads as having no Type, so a `monster_type` atom or
    # selector ("Poison Fangs": a Beast; "Enlightenment": a Spellcaster) would answer wrongly
    # about it: every built-in monster carries its official Type, and a new entry cannot omit it
    untyped = [c.name for c in catalogue.builtin().values() if c.type == "monster" and not c.monster_type]
    assert untyped == []
    doc = json.loads((ROOT / "fixtures" / "cards.json").read_text())
    assert all(c.get("monster_type") for c in doc["cards"] if c["type"] == "monster")


def test_the_schema_names_exactly_the_vocabulary():
    defs = SCHEMA["$defs"]
    assert defs["atom"]["properties"]["quantity"]["enum"] == list(vocab.QUANTITIES[1:])
    assert defs["operation"]["properties"]["do"]["enum"] == list(vocab.OPERATIONS[1:])
    assert defs["cost"]["properties"]["do"]["enum"] == list(vocab.COSTS[1:])
    assert defs["apply"]["properties"]["do"]["enum"] == list(vocab.CONTINUOUS[1:])
    assert defs["condition"]["oneOf"][0]["enum"] == list(vocab.CONDITIONS)
    assert set(defs["effect"]["properties"]) == catalogue.EFFECT_KEYS
    assert set(defs["card"]["properties"]) == catalogue.CARD_KEYS


# "a Spell/Trap Card on the field": in the Spell & Trap Zone or the Field Zone (docs/cards-format.md)
SPELL_TRAP_ZONES = [{"quantity": "location", "of": "target", "cmp": ">=", "value": "spell_trap_zone"},
                    {"quantity": "location", "of": "target", "cmp": "<=", "value": "field_zone"}]

GOOD = [
    # a mandatory trigger's atoms decide whether it is owed (model/rules/activation.places_trigger)
    dict(kind="trigger", mandatory=True, condition={"all": ["attacked", {"quantity": "face_up", "of": "attacker"}]}),
    # a continuous effect applies while its atoms hold (effects.continuous_condition)
    dict(kind="continuous", condition={"all": [{"quantity": "attacking", "of": "self"}, {"quantity": "damage_step"}]},
         apply={"do": "atk_modifier", "amount": 500}),
    dict(condition={"all": ["attacked", {"quantity": "atk", "of": "attacker", "cmp": ">=", "value": 2000}]}),
    dict(condition={"any": [{"quantity": "attribute", "of": "battle_opponent", "value": "DARK"},
                            {"quantity": "lp", "of": "you", "cmp": "<=", "value": 2000}]}),
    dict(condition={"not": {"quantity": "face_up", "of": "attack_target"}}),
    dict(condition={"quantity": "atk", "of": "self", "cmp": ">=", "than": {"quantity": "def", "of": "attack_target"}}),
    dict(cost=[{"do": "pay_lp", "amount": 1000}, {"do": "discard"}]),
    dict(target={"filter": {"quantity": "face_up", "of": "target"}}, operations=[{"do": "destroy", "on": "chosen"}]),
    dict(operations=[{"do": "destroy", "on": "all", "select": {"side": "opponent", "filter": "attack_position"}}]),
    dict(operations=[{"do": "negate_attack"}, {"do": "damage", "on": "attacker", "amount": "atk", "then": True}]),
    dict(kind="continuous", apply={"do": "atk_modifier", "on": "all", "amount": 500, "select": {"side": "yours"}}),
    dict(kind="continuous", apply={"do": "cannot_be_attacked", "on": "all",   # Machina Sniper
                                   "select": {"archetype": "Machina", "other": "name", "filter": "face_up"}}),
    dict(kind="continuous", apply={"do": "cannot_be_attacked", "on": "all", "select": {"other": True}}),
    dict(operations=[{"do": "destroy", "on": "all",   # Evil HERO Wild Cyclone
                      "select": {"cards": "spells_traps", "side": "opponent", "filter": "face_down"}}]),
    dict(operations=[{"do": "destroy", "on": "all", "select": {"special_summoned": True}}]),   # Fossil Dyna
    dict(target={"filter": {"all": [{"quantity": "card_kind", "of": "target", "value": "monster:synchro"},   # Follow Wing
                                    {"quantity": "yours", "of": "target"}]}}),
    dict(kind="trigger", mandatory=True,   # Amazoness Sage: 3 filter atoms; owed while it has a target
         condition={"all": ["battling", {"quantity": "selected", "cmp": ">=", "value": 1,
                                         "select": {"cards": "spells_traps", "side": "opponent"}}]},
         target={"filter": {"all": [SPELL_TRAP_ZONES[0], SPELL_TRAP_ZONES[1],
                                    {"quantity": "yours", "of": "target", "value": False}]}},
         operations=[{"do": "destroy", "on": "chosen"}]),
    dict(kind="continuous", apply={"do": "lock_traps"}),
    dict(kind="continuous", apply={"do": "position_lock", "on": "all", "position": "defense",   # Area B
                                   "select": {"filter": "face_up", "level_min": 4}}),
    dict(kind="continuous", apply={"do": "position_lock", "on": "all", "position": "attack", "fixed": True,
                                   "select": {"filter": "any"}}),   # Gaap
    dict(kind="continuous", condition={"quantity": "defense_position", "of": "self"},   # Berserk Gorilla
         apply={"do": "self_destruct"}),
    dict(kind="continuous", apply={"do": "self_destruct"},   # Thunder Nyan Nyan
         condition={"quantity": "selected", "cmp": ">=", "value": 1,
                    "select": {"side": "yours", "filter": "face_up", "not_attribute": "light"}}),
    dict(kind="continuous", apply={"do": "self_destruct"},   # Giant Kozaky
         condition={"quantity": "selected", "value": 0, "select": {"filter": "face_up", "name": "Kozaky"}}),
    dict(kind="continuous", condition={"quantity": "attacking", "of": "self"},
         apply={"do": "lock_spells_traps", "player": "opponent"}),
    # two selectors are two counts: none of yours, some of the opponent's; 6 Spell/Trap Cards a side
    dict(condition={"all": [{"quantity": "selected", "value": 0, "select": {"side": "yours"}},
                            {"quantity": "selected", "cmp": ">=", "value": 1, "select": {"side": "opponent"}}]}),
    dict(condition={"quantity": "selected", "value": 12, "select": {"cards": "spells_traps"}}),
    dict(kind="trigger", condition="battle_damage_dealt", not_modelled="draw 1 card from the Deck"),
    dict(operations=[{"do": "double_battle_damage", "to": "opponent"},
                     {"do": "destroy_after_calc", "on": "attacker"}]),   # Cross Counter
    dict(operations=[{"do": "no_battle_damage"}, {"do": "draw", "amount": 1}]),   # Defense Draw
    dict(operations=[{"do": "mill", "amount": 3, "to": "opponent"}]),
    dict(operations=[{"do": "draw_until", "amount": 7, "to": "opponent"}]),   # Sasuke Samurai #3
    # Galaxy-Eyes Photon Dragon: "banish both ..., then return them to the field at the end of the Battle Phase"
    dict(operations=[{"do": "banish_until_bp_end", "on": "self"},
                     {"do": "banish_until_bp_end", "on": "opponent_battling", "both": True}]),
    dict(operations=[{"do": "banish_until_bp_end", "on": "all", "select": {"side": "opponent"}}]),
    # Prideful Roar: "Pay LP equal to the difference in ATK; your monster gains ATK equal to that
    # difference +300, during damage calculation only"
    dict(timings=["during_calc"], cost=[{"do": "pay_lp_battle_difference"}],
         operations=[{"do": "atk_add_at_calc", "on": "own_battling", "amount": {"of": "battle_difference", "plus": 300}}]),
    dict(timings=["during_calc"], operations=[{"do": "atk_add_at_calc", "on": "self", "amount": 500}]),
    dict(operations=[{"do": "atk_add", "on": "own_battling", "amount": "battle_difference"}]),
    dict(once="per_turn"), dict(once="per_turn_by_name"), dict(once="per_turn_by_card_name"),
    # Dark Diviner: "The ATK of the attack target becomes equal to this face-up card's current ATK"
    dict(operations=[{"do": "atk_set", "on": "attack_target", "amount": "self_atk"}]),
    dict(operations=[{"do": "damage", "amount": "self_atk"}]),
    # "it gains ATK equal to the difference" (Performapal Barracuda)
    dict(target={"filter": {"all": [{"quantity": "location", "of": "target", "value": "monster_zone"},
                                    {"quantity": "face_up", "of": "target"},
                                    {"quantity": "archetype", "of": "target", "value": "Performapal"},
                                    {"quantity": "atk", "of": "target", "cmp": "!=",
                                     "than": {"quantity": "original_atk", "of": "target"}}]}},
         operations=[{"do": "atk_add", "on": "chosen", "amount": "atk_difference"}]),
    dict(operations=[{"do": "gain_lp", "amount": "opponent_battle_damage", "to": "you"}]),   # Sebek's Blessing
    # two targets: "Target 2 cards on the field"; "Target up to 2 Spells/Traps"; "Target 1 ... and 1 ..."
    dict(target=[{}, {}], operations=[{"do": "destroy", "on": "chosen"}]),
    dict(target=[{"filter": {"all": SPELL_TRAP_ZONES}}, {"filter": {"all": SPELL_TRAP_ZONES}, "optional": True}],
         operations=[{"do": "destroy", "on": "chosen"}]),
    dict(target=[{"filter": {"quantity": "yours", "of": "target"}}, {"filter": {"quantity": "yours", "of": "target", "value": False}}]),
    # "Tribute 1 Winged Beast monster" (Icarus Attack); "discard 1 Spell"
    dict(cost=[{"do": "tribute", "filter": {"quantity": "monster_type", "value": "winged_beast"}}]),
    dict(cost=[{"do": "discard", "filter": {"all": [{"quantity": "card_type", "value": "spell"}]}}]),
    # Wall of Disruption; Attack and Receive; Zombie Mammoth
    dict(operations=[{"do": "atk_add", "on": "all", "select": {"side": "opponent", "filter": "attack_position"},
                      "amount": {"per": -800, "count": {"side": "opponent"}}}]),
    dict(operations=[{"do": "damage", "amount": {"per": 300, "count": {"cards": "graveyard", "side": "yours",
                                                                          "name": "Attack and Receive"}}}]),
    dict(kind="continuous", condition={"quantity": "selected", "value": 0,
                                       "select": {"cards": "graveyard", "side": "yours", "monster_type": "zombie"}},
         apply={"do": "self_destruct"}),
    # B.E.S.: "Remove 1 counter from this card, or if you cannot, destroy this card"
    dict(operations=[{"do": "remove_counter", "on": "self", "amount": 1}, {"do": "destroy", "otherwise": True}]),
    dict(condition={"quantity": "counters", "of": "self", "cmp": ">=", "value": 1},
         operations=[{"do": "add_counter", "amount": 2}]),
    dict(kind="continuous", apply={"do": "atk_modifier", "amount": 500, "per": "counter"}),   # Des Mosquito
    # Exodius: "This card gains 1000 ATK for each Normal Monster in your GY"
    dict(kind="continuous", apply={"do": "atk_modifier", "amount": {"per": 1000, "count": {
        "cards": "graveyard", "side": "yours", "card_kind": "monster:normal"}}}),
    dict(operations=[{"do": "destroy", "on": "all", "select": {"cards": "spells_traps", "card_kind": "trap:continuous"}}]),
    # "gains 100 ATK for each monster in your GY"; "destroy all Trap Cards on the field"
    dict(kind="continuous", apply={"do": "atk_modifier", "amount": {"per": 100, "count": {
        "cards": "graveyard", "side": "yours", "card_type": "monster"}}}),
    dict(operations=[{"do": "destroy", "on": "all", "select": {"cards": "spells_traps", "card_type": "trap"}}]),
    # "Remove all monsters in each player's Deck and Graveyard from play" (Inferno Tempest)
    dict(operations=[{"do": "banish", "on": "all", "select": {"cards": "graveyard", "card_type": "monster"}},
                     {"do": "banish", "on": "all", "select": {"cards": "deck", "card_type": "monster"}}]),
    dict(kind="continuous", apply={"do": "add_attribute", "attribute": "DARK"}),   # Light and Darkness Dragon
    dict(kind="continuous", apply={"do": "remove_counter_instead", "amount": 1}),
    dict(kind="continuous", condition={"quantity": "yours", "of": "attacker", "value": False},   # Spacegate
         apply={"do": "counter_after_battle", "amount": 1}),
    dict(kind="continuous", apply={"do": "atk_halve", "on": "all", "select": {"other": True, "filter": "face_up"}}),
    dict(kind="continuous", condition={"all": [{"quantity": "attacked", "of": "self"},   # Dark Artist
                                               {"quantity": "damage_calculation"}]}, apply={"do": "def_halve"}),
    dict(kind="continuous", apply={"do": "atk_halve", "on": "attackers"}),   # Mirror Wall
    # where a card goes instead (GEN-18): Macro Cosmos, Grave Protector, Dark Magician of Chaos, Zanji
    dict(kind="continuous", apply={"do": "graveyard_redirect", "to": "banished"}),
    dict(kind="continuous", apply={"do": "battle_destroyed_redirect", "on": "all", "select": {}, "to": "deck"}),
    dict(kind="continuous", apply={"do": "battle_destroyed_redirect", "on": "battle_opponent", "to": "banished"}),
    dict(kind="continuous", apply={"do": "leave_field_redirect", "to": "banished"}),
    dict(kind="continuous", apply={"do": "destroy_replace", "instead": {"side": "yours", "filter": "face_up",
                                                                       "archetype": "Six Samurai", "other": True}}),
    dict(kind="quick", cost=[{"do": "discard_self"}], **{"from": "hand"}),   # Kuriboh: "You can discard this card"
    # cards chosen as the effect resolves (GEN-22): "Send 2 WATER monsters from your Deck to the GY"
    dict(kind="trigger", mandatory=True, condition="destroyed_by_battle",
         choose={"from": "deck", "filter": {"quantity": "attribute", "value": "WATER"}, "count": 2},
         operations=[{"do": "to_graveyard", "on": "choice"}]),
    # "destroy 1 Spell or Trap Card on your opponent's side of the field"
    dict(choose={"from": ["field"], "side": "opponent", "filter": {"quantity": "card_type", "cmp": "!=", "value": "monster"}},
         operations=[{"do": "destroy", "on": "choice"}]),
    # "then you can Special Summon 1 "Stardust" monster from your Extra Deck or GY"; "with ATK less
    # than or equal to the damage you took" (a `than` of a player)
    dict(choose={"from": ["extra_deck", "graveyard"], "filter": {"quantity": "archetype", "value": "Stardust"}, "min": 0},
         operations=[{"do": "negate_attack"}, {"do": "special_summon", "on": "choice", "then": True}]),
    dict(choose={"from": "deck", "filter": {"quantity": "atk", "cmp": "<=", "than": {"quantity": "battle_damage", "of": "you"}}},
         operations=[{"do": "special_summon", "on": "choice"}]),
    # "Special Summon 1 "Morphtronic" monster from your hand", not activated without one (`needed`)
    dict(choose={"from": "hand", "filter": {"quantity": "archetype", "value": "Morphtronic"}, "needed": True},
         operations=[{"do": "special_summon", "on": "choice"}]),
]

# Equip Cards (GEN-20): an effect that equips its own card, and what reads "the equipped monster"
EQUIPS = dict(kind="activation", target={"filter": {"quantity": "monster_type", "of": "target", "value": "warrior"}},
              operations=[{"do": "equip", "on": "chosen"}])
GOOD_EQUIP_CARDS = [
    # an Equip Spell ("Legendary Sword": "Equip only to a Warrior monster. It gains 300 ATK/DEF.")
    [EQUIPS, dict(kind="continuous", apply={"do": "atk_modifier", "on": "equipped", "amount": 300})],
    # a Trap that equips itself, read by a trigger ("Cyclone Blade": "if the equipped monster attacked")
    [dict(EQUIPS, target={}), dict(kind="trigger", mandatory=True, condition={"all": [
        "own_monster_battling", {"quantity": "attacking", "of": "equipped"}]})],
    [dict(EQUIPS, atk_def="direct"), dict(kind="continuous", apply={"do": "def_modifier", "on": "equipped", "amount": 400})],
]

# (effect fields, what the loader's message says); the schema refuses each as well
BAD = [
    (dict(condition="atacked"), "did you mean 'attacked'"),
    (dict(condition={"quantity": "atk", "of": "you"}), "expected one of: self"),
    (dict(condition={"quantity": "monster_typ"}), "did you mean 'monster_type'"),
    (dict(condition={"quantity": "lp", "of": "self", "value": 1}), "'of' is 'self'"),
    (dict(cost=[{"do": "pay_lp"}]), "'amount' (LP, more than 0) goes with 'pay_lp'"),
    (dict(cost=[{"do": "discard", "amount": 1}]), "goes with 'pay_lp'"),
    (dict(kind="continuous", cost=[{"do": "discard"}]), "never activated, so it has no cost"),
    (dict(operations=[{"do": "destroy", "on": "all"}]), "'select' (which cards) goes with"),
    (dict(kind="continuous", apply={"do": "atk_modifier", "on": "attackers", "amount": 500}),
     "'attackers' (each of the opponent's monsters that attacked while it applied) goes with"),
    (dict(operations=[{"do": "banish_until_bp_end", "on": "all", "select": {"cards": "graveyard"}}]),
     "a selector picks \"monsters\""),
    (dict(operations=[{"do": "atk_add", "on": "self"}]), "needs an 'amount'"),
    (dict(operations=[{"do": "banish", "on": "self"}, {"do": "banish", "on": "opponent_battling", "both": True,
                                                        "then": True}]), "'both' (this and the one before, or neither)"),
    (dict(operations=[{"do": "atk_add_at_calc", "on": "self", "amount": 500}]), "its 'timings' names \"during_calc\""),
    (dict(timings=["before_calc"], operations=[{"do": "def_add_at_calc", "on": "self", "amount": 500}]),
     "'def_add_at_calc' (\"during damage calculation only\") is for an effect activated during damage calculation"),
    (dict(timings=["during_calc"], operations=[{"do": "def_add_at_calc", "on": "self", "amount": "battle_difference"}]),
     "'damage', 'gain_lp', 'atk_add', 'atk_add_at_calc'"),
    (dict(operations=[{"do": "def_add", "on": "self", "amount": {"of": "battle_difference", "plus": 300}}]),
     "an amount of the battle's ATK difference is for 'damage', 'gain_lp', 'atk_add', 'atk_add_at_calc'"),
    (dict(operations=[{"do": "atk_add", "on": "self", "amount": {"of": "atk", "plus": 300}}]),
     "expected one of: battle_difference"),
    (dict(cost=[{"do": "pay_lp_battle_difference", "amount": 500}]), "goes with 'pay_lp'"),
    (dict(operations=[{"do": "def_set", "on": "self", "amount": "self_atk"}]), "'gain_lp', 'atk_add', 'atk_set'"),
    (dict(operations=[{"do": "atk_set", "on": "self", "amount": "atk_difference"}]), "'gain_lp', 'atk_add'"),
    (dict(operations=[{"do": "damage", "on": "all", "amount": "atk_difference"}]), "needs one card"),
    (dict(operations=[{"do": "atk_set", "on": "attack_target", "amount": "atk"}]), "is for 'damage', 'gain_lp'"),
    (dict(operations=[{"do": "atk_add", "amount": "opponent_battle_damage"}]), "is for 'damage', 'gain_lp'"),
    (dict(operations=[{"do": "destroy", "on": "all", "select": {"archetype": 3}}]), "an archetype is a name of 1-100"),
    (dict(operations=[{"do": "destroy", "on": "all", "select": {"archetype": " "}}]), "an archetype is a name of 1-100"),
    (dict(operations=[{"do": "destroy", "on": "all", "select": {"other": "names"}}]), "'other' is true (not the"),
    (dict(operations=[{"do": "destroy", "on": "all", "select": {"cards": "spell_traps"}}]), "did you mean 'spells_traps'"),
    (dict(operations=[{"do": "destroy", "on": "all", "select": {"cards": "spells_traps", "level_max": 4}}]),
     "'level_max' is about monsters"),
    (dict(operations=[{"do": "destroy", "on": "all", "select": {"cards": "spells_traps", "special_summoned": True}}]),
     "'special_summoned' is about monsters"),
    (dict(operations=[{"do": "destroy", "on": "all", "select": {"cards": "spells_traps", "not_attribute": "light"}}]),
     "'not_attribute' is about monsters"),
    (dict(operations=[{"do": "destroy", "on": "all", "select": {"cards": "spells_traps", "filter": "defense_position"}}]),
     "has no battle position"),
    (dict(kind="continuous", apply={"do": "indestructible_by_effect", "on": "all", "select": {"cards": "spells_traps"}}),
     "a continuous effect applies to monsters"),
    (dict(operations=[{"do": "destroy", "on": "all", "select": {"special_summoned": False}}]),
     "'special_summoned' is true (only monsters"),
    (dict(operations=[{"do": "destroy", "on": "all", "select": {"summoned_this_turn": 1}}]),
     "'summoned_this_turn' is true (only monsters Summoned this turn)"),
    (dict(operations=[{"do": "destroy", "on": "all", "select": {"cards": "graveyard", "summoned_this_turn": True}}]),
     "'summoned_this_turn' is about monsters"),
    (dict(condition={"quantity": "name", "of": "attacker", "value": 7}), "a card name is a name of 1-100"),
    (dict(condition={"quantity": "name", "of": "attacker", "cmp": ">=", "value": "Dark Magician"}),
     "'name' is a name: it is compared with == or !="),
    (dict(operations=[{"do": "destroy", "amount": 3}]), "takes no 'amount'"),
    (dict(operations=[{"do": "destory"}]), "did you mean 'destroy'"),
    (dict(operations=[{"do": "x"}] * 4), "at most 3 operations"),
    (dict(apply={"do": "lock_traps"}), "'apply' is what a continuous effect does"),
    (dict(kind="continuous", apply={"do": "atk_modifier"}), "'amount' goes with"),
    (dict(resolution={"do": "destroy"}, operations=[{"do": "destroy"}]), "give one of them"),
    (dict(not_modelled=" "), "'not_modelled' is empty"),
    (dict(outside_battle_phase=""), "'outside_battle_phase' is empty"),
    (dict(outside_battle_phase=3), "outside_battle_phase"),
    (dict(kind="continuous", apply={"do": "atk_modifier", "amount": 100, "player": "opponent"}),
     "'player' (whose activations it refuses) goes with"),
    (dict(kind="continuous", apply={"do": "lock_spells", "player": "you"}), "expected one of: both, opponent"),
    (dict(operations=[{"do": "destroy", "to": "you"}]), "'to' is for"),
    (dict(operations=[{"do": "double_battle_damage", "to": "controller_of"}]), "doubles the battle damage of"),
    (dict(operations=[{"do": "draw"}]), "needs an 'amount'"),
    (dict(once="twice_per_turn"), "expected one of: none, per_turn, per_turn_by_name, per_turn_by_card_name"),
    (dict(kind="continuous", apply={"do": "lock_traps"}, once="per_turn"), "has no once-per-turn limit"),
    (dict(operations=[{"do": "draw", "amount": 6}]), "moves 1 to 5 cards"),
    (dict(operations=[{"do": "draw_until", "amount": 11}]), "draws until the hand has 1 to 10 cards"),
    (dict(operations=[{"do": "draw_until", "amount": 7, "on": "chosen"}]), "it takes no 'on'"),
    (dict(operations=[{"do": "mill", "amount": 1, "to": "controller_of"}]), "from the Deck of 'you' or 'opponent'"),
    (dict(operations=[{"do": "draw", "amount": 1, "on": "chosen"}]), "it takes no 'on'"),
    (dict(kind="continuous", apply={"do": "position_lock", "on": "all", "select": {}}), "missing required key 'position'"),
    (dict(kind="continuous", apply={"do": "position_lock", "position": "attak"}), "did you mean 'attack'"),
    (dict(kind="continuous", apply={"do": "cannot_attack", "position": "attack"}), "'position' goes with position_lock"),
    (dict(kind="continuous", apply={"do": "cannot_attack", "fixed": True}), "'fixed' goes with position_lock"),
    (dict(kind="continuous", apply={"do": "position_lock", "position": "attack", "fixed": 1}), "'fixed' must be bool"),
    (dict(kind="continuous", apply={"do": "position_lock", "on": "all", "position": "defense",
                                    "select": {"filter": "attack_position"}}), "a position_lock picks by face"),
    (dict(kind="continuous", condition={"quantity": "defense_position", "of": "self"},
          apply={"do": "self_destruct", "on": "all", "select": {"side": "yours"}}), "is about its own card"),
    (dict(condition={"quantity": "selected", "value": 1}), "goes with quantity 'selected'"),
    (dict(condition={"quantity": "lp", "value": 1, "select": {"side": "yours"}}), "goes with quantity 'selected'"),
    (dict(condition={"quantity": "selected", "value": 1, "select": {"name": ""}}), "a card name is a name of 1-100"),
    (dict(target=[{}]), "a list of targets has two entries"),
    (dict(target=[{}, {}, {}]), "a list of targets has two entries"),
    (dict(target=[{"optional": True}, {}]), "unknown key"),
    (dict(target=[{}, {"implied": "attacker"}]), "unknown key"),
    (dict(target=[{}, "attacker"]), "expected an object"),
    (dict(target="attacker"), "'target' must be an object (one target) or a list of two"),
    (dict(cost=[{"do": "pay_lp", "amount": 100, "filter": {"quantity": "level", "value": 4}}]),
     "'filter' (what the card paid must be) goes with 'discard' and 'tribute'"),
    (dict(cost=[{"do": "tribute", "filter": {"quantity": "monster_typ", "value": "dragon"}}]), "did you mean 'monster_type'"),
    (dict(operations=[{"do": "damage", "amount": {"per": 300}}]), "needs 'count'"),
    (dict(operations=[{"do": "damage", "amount": {"per": 0, "count": {}}}]), "'per' (how much for each card) is not 0"),
    (dict(operations=[{"do": "atk_set", "amount": {"per": 100, "count": {}}}]), "an amount for each card is for"),
    (dict(operations=[{"do": "damage", "amount": {"per": 100, "count": {}, "base": 1}}]), "unknown key"),
    (dict(operations=[{"do": "damage", "amount": "count"}]), "expected one of: atk, original_atk"),
    (dict(kind="continuous", apply={"do": "def_halve", "amount": {"per": 100, "count": {}}}),
     "an amount for each card is for atk_modifier and def_modifier"),
    (dict(kind="continuous", apply={"do": "atk_modifier", "amount": {"per": 100, "count": {}}, "per": "counter"}),
     "give one of them"),
    (dict(kind="continuous", apply={"do": "atk_modifier", "amount": {"per": 100}}), "needs 'count'"),
    (dict(kind="continuous", apply={"do": "atk_modifier", "per": "count", "amount": 100}), "expected one of: none, counter"),
    (dict(kind="continuous", apply={"do": "atk_modifier", "amount": {"per": 100, "count": {"card_kind": "monster:norml"}}}),
     "did you mean 'monster:normal'"),
    (dict(kind="continuous", apply={"do": "atk_modifier", "amount": {"per": 100, "count": {"card_kind": "spell:field"}}}),
     "would pick no card ever"),
    (dict(operations=[{"do": "destroy", "on": "all", "select": {"cards": "spells_traps", "card_kind": "monster:normal"}}]),
     "would pick no card ever"),
    (dict(operations=[{"do": "destroy", "on": "all", "select": {"cards": "spells_traps", "card_type": "monster"}}]),
     "would pick no card ever"),
    (dict(operations=[{"do": "destroy", "on": "all", "select": {"card_type": "monster"}}]),
     "a Monster Zone selector picks monsters only"),
    (dict(operations=[{"do": "destroy", "on": "all", "select": {"cards": "graveyard", "card_type": "monster",
                                                               "card_kind": "monster:normal"}}]),
     "a card kind says its type"),
    (dict(kind="continuous", apply={"do": "atk_modifier", "amount": {"per": 100, "count": {
        "cards": "graveyard", "card_type": "monsters"}}}), "did you mean 'monster'"),
    (dict(operations=[{"do": "banish", "on": "all", "select": {"cards": "deck", "filter": "face_down"}}]),
     "a card in the Deck has no battle position; a Deck selector's filter is any"),
    (dict(operations=[{"do": "banish", "on": "all", "select": {"cards": "deck", "special_summoned": True}}]),
     "'special_summoned' is about monsters in the Monster Zone"),
    (dict(kind="continuous", apply={"do": "add_attribute"}), "missing required key 'attribute'"),
    (dict(kind="continuous", apply={"do": "atk_modifier", "amount": 100, "attribute": "dark"}),
     "'attribute' (the Attribute its card also has) goes with add_attribute"),
    (dict(kind="continuous", apply={"do": "add_attribute", "attribute": "dark", "on": "all", "select": {}}),
     "is about its own card"),
    (dict(kind="continuous", condition={"quantity": "attacking", "of": "self"}, apply={"do": "add_attribute", "attribute": "dark"}),
     "with no condition"),
    # whether a negation applies is read by every condition's atoms: one of its own could read itself
    (dict(kind="continuous", condition={"quantity": "attacking", "of": "self"},
          apply={"do": "negate_opponent_monster_effects"}), "negate_opponent_monster_effects applies while its card is face-up"),
    (dict(kind="continuous", condition={"quantity": "attacking", "of": "self"}, apply={"do": "negate_trap_effects"}),
     "with no condition"),
    (dict(kind="continuous", apply={"do": "negate_opponent_monster_effects", "on": "all"}), "takes no 'on'"),
    (dict(kind="continuous", apply={"do": "negate_battle_opponent"}), "'on' is \"equipped\", got 'self'"),
    (dict(operations=[{"do": "destroy", "on": "all", "select": {"cards": "graveyard", "filter": "face_down"}}]),
     "a Graveyard selector's filter is any"),
    (dict(kind="continuous", apply={"do": "atk_modifier", "amount": 100, "on": "all", "select": {"cards": "graveyard"}}),
     "a continuous effect applies to monsters on the field"),
    (dict(target={}, operations=[{"do": "equip"}]), "'equip' equips this card to the monster it targets: 'on' is \"chosen\""),
    (dict(target={}, operations=[{"do": "equip", "on": "all", "select": {}}]), "'on' is \"chosen\", got 'all'"),
    (dict(kind="continuous", apply={"do": "atk_modifier", "on": "equiped", "amount": 300}), "did you mean 'equipped'"),
    (dict(condition={"quantity": "attacking", "of": "equiped"}), "did you mean 'equipped'"),
    (dict(operations=[{"do": "add_counter"}]), "needs an 'amount'"),
    (dict(operations=[{"do": "remove_counter", "amount": 64}]), "places or removes 1 to 63 counters"),
    (dict(operations=[{"do": "negate_attack"}, {"do": "destroy", "then": True, "otherwise": True}]),
     "together would never apply"),
    (dict(kind="continuous", apply={"do": "indestructible_by_battle", "per": "counter"}), "'per' (the amount for each"),
    (dict(kind="continuous", apply={"do": "remove_counter_instead", "amount": 0}), "places or removes 1 to 63"),
    (dict(kind="continuous", apply={"do": "remove_counter_instead", "amount": 1, "on": "all", "select": {}}),
     "is about its own card"),
    (dict(kind="continuous", apply={"do": "atk_halve", "amount": 2}), "'amount' goes with"),
    (dict(kind="continuous", apply={"do": "atk_modifier", "amount": 500, "on": "attacker"}), "did you mean 'attackers'"),
    (dict(condition={"quantity": "damage_calculation", "of": "self"}), "it takes no 'of'"),
    (dict(kind="continuous", apply={"do": "graveyard_redirect"}), "missing required key 'to'"),
    (dict(kind="continuous", apply={"do": "graveyard_redirect", "to": "banish"}), "did you mean 'banished'"),
    (dict(kind="continuous", apply={"do": "atk_modifier", "amount": 100, "to": "deck"}), "'to' (where the card goes instead"),
    (dict(kind="continuous", apply={"do": "graveyard_redirect", "to": "banished", "on": "all", "select": {}}),
     "it takes no 'on'"),
    (dict(kind="continuous", apply={"do": "battle_destroyed_redirect", "to": "deck"}),
     "battle_destroyed_redirect is about the monsters destroyed by battle"),
    (dict(kind="continuous", apply={"do": "leave_field_redirect", "to": "banished", "on": "battle_opponent"}),
     "'on': 'battle_opponent' (the monster this card battles) goes with"),
    (dict(kind="continuous", apply={"do": "leave_field_redirect", "to": "banished", "on": "all", "select": {}}),
     "is about its own card"),
    (dict(kind="continuous", apply={"do": "destroy_replace"}), "'instead' (which card is destroyed instead"),
    (dict(kind="continuous", apply={"do": "cannot_attack", "instead": {}}), "'instead' (which card is destroyed instead"),
    (dict(kind="continuous", apply={"do": "destroy_replace", "instead": {"cards": "spells_traps"}}),
     "a continuous effect applies to monsters"),
    (dict(cost=[{"do": "discard_self", "amount": 1}]), "goes with 'pay_lp'"),
    (dict(choose={"from": "dek"}, operations=[{"do": "destroy", "on": "choice"}]), "did you mean 'deck'"),
    (dict(choose={"filter": {}}, operations=[{"do": "destroy", "on": "choice"}]), "missing required key 'from'"),
    (dict(choose={"from": "deck", "count": 3}, operations=[{"do": "destroy", "on": "choice"}]), "'count'"),
    (dict(choose={"from": "deck", "side": "all"}, operations=[{"do": "destroy", "on": "choice"}]),
     "expected one of: yours, opponent, both"),
    (dict(kind="continuous", choose={"from": "deck"}), "chooses no card"),
    # `needed` (GEN-22): true only; never with "you can" (min 0), nor counting a Deck the set-up lists in part
    (dict(choose={"from": "hand", "needed": False}, operations=[{"do": "destroy", "on": "choice"}]), "'needed' is true"),
    (dict(choose={"from": "hand", "min": 0, "needed": True}, operations=[{"do": "destroy", "on": "choice"}]),
     "'needed' with 'min' 0"),
    (dict(choose={"from": ["hand", "deck"], "needed": True}, operations=[{"do": "destroy", "on": "choice"}]),
     "'needed' with 'from' 'deck'"),
    (dict(choose={"from": "extra_deck", "needed": True}, operations=[{"do": "destroy", "on": "choice"}]),
     "'needed' with 'from' 'extra_deck'"),
]

# what only the loader can check (the schema has no arithmetic over a condition)
SEMANTIC = [
    (dict(condition={"quantity": "level", "cmp": "<", "value": 0}), "holds for no card or state ever"),
    (dict(condition={"all": [{"quantity": "level", "cmp": ">=", "value": 5}, {"quantity": "level", "cmp": "<=", "value": 3}]}),
     "holds for no card or state ever"),
    (dict(condition={"not": "attacked"}), "an event cannot be negated"),
    (dict(condition={"any": ["attacked", "battling"]}), "must name the same event"),
    (dict(condition={"any": [{"all": [{"quantity": "level", "value": n}, {"quantity": "atk", "value": n}]}
                             for n in range(1, 4)]}), "at most 2 alternatives"),
    (dict(atk_def="direct", operations=[{"do": "destroy"}]), "no operation changes ATK or DEF"),
    (dict(kind="continuous", condition="attacked", apply={"do": "atk_modifier", "amount": 500}),
     "a continuous effect applies while its condition's atoms hold"),
    (dict(timings=["during_calc"], text="Before damage calculation: destroy it."), "the effect's text does not name it"),
    (dict(target={"filter": {"quantity": "face_up", "of": "attacker"}}), "a target's filter is about the target"),
    (dict(target={"filter": {"quantity": "card_kind", "of": "target", "value": "synchro"}}),
     "did you mean 'monster:synchro'"),
    (dict(operations=[{"do": "destroy", "then": True}]), "the first operation has no operation before it"),
    (dict(kind="continuous", apply={"do": "self_destruct"}), "give the condition"),
    (dict(operations=[{"do": "destroy", "otherwise": True}]), "no operation before it that could not be done"),
    (dict(operations=[{"do": "destroy", "both": True}]), "no operation before it to apply together with"),
    (dict(kind="continuous", apply={"do": "counter_after_battle", "amount": 1}), "give the condition (which battle"),
    (dict(condition={"quantity": "counters", "of": "self", "cmp": ">", "value": 63}), "holds for no card or state ever"),
    (dict(condition={"quantity": "selected", "value": 11, "select": {}}), "holds for no card or state ever"),
    (dict(condition={"quantity": "selected", "value": 13, "select": {"cards": "spells_traps"}}),
     "holds for no card or state ever"),
    # the battle damage to come is read as an effect is activated, not in a condition every state reads
    (dict(kind="continuous", condition={"quantity": "battle_damage_pending", "cmp": ">=", "value": 2000},
          apply={"do": "atk_modifier", "amount": 500}), "'battle_damage_pending' is read as an effect is activated"),
    (dict(kind="trigger", mandatory=True, condition={"all": ["battled", {"quantity": "battle_damage_pending",
                                                                          "of": "opponent", "value": 0}]}),
     "'battle_damage_pending' is read as an effect is activated"),
    # an Attribute is any case: the schema takes a string
    (dict(kind="continuous", apply={"do": "add_attribute", "attribute": "drak"}), "did you mean 'dark'"),
    (dict(condition={"quantity": "selected", "value": 1, "select": {"not_attribute": "ligth"}}), "did you mean 'light'"),
    (dict(condition={"quantity": "selected", "value": 1, "select": {"attribute": "dark", "not_attribute": "light"}}),
     "give one of them"),
    (dict(target={"filter": {"quantity": "selected", "value": 1, "select": {}}}), "put it in 'condition'"),
    # the model holds only the Deck cards a set-up lists: counting them would miss the rest; and a
    # card in the Deck is moved out of it, not destroyed or given ATK
    (dict(condition={"quantity": "selected", "value": 1, "select": {"cards": "deck"}}),
     "\"cards\": \"deck\" is for an operation's 'select'"),
    (dict(operations=[{"do": "damage", "to": "opponent", "amount": {"per": 100, "count": {"cards": "deck"}}}]),
     "\"cards\": \"deck\" is for an operation's 'select'"),
    (dict(operations=[{"do": "destroy", "on": "all", "select": {"cards": "deck"}}]),
     "cards in the Deck are moved out of it (banish, to_hand, to_graveyard), not 'destroy'"),
    # the relation has 4 filter slots, and every atom of a filter must hold
    (dict(target={"filter": {"all": SPELL_TRAP_ZONES + [{"quantity": "yours", "of": "target", "value": False},
                                                        {"quantity": "face_up", "of": "target"},
                                                        {"quantity": "card_type", "of": "target", "value": "trap"}]}}),
     "a target's filter is at most 4 atoms that must all hold"),
    (dict(target={"filter": {"any": [{"quantity": "face_up", "of": "target"}, {"quantity": "yours", "of": "target"}]}}),
     "a target's filter is at most 4 atoms that must all hold"),
    (dict(target=[{}, {"filter": {"quantity": "face_up", "of": "attacker"}}]), "a target's filter is about the target"),
    (dict(target=[{}, {}], operations=[{"do": "damage", "on": "chosen", "amount": "atk", "to": "opponent"}]),
     "names one card; this effect targets two"),
    (dict(target=[{}, {}], operations=[{"do": "atk_add", "on": "chosen", "amount": "atk_difference"}]),
     "names one card; this effect targets two"),
    (dict(cost=[{"do": "tribute", "filter": {"quantity": "level", "of": "self", "value": 4}}]), "leave out 'of'"),
    # a choice (GEN-22) and the operations on it go together; the relation has 4 filter slots
    (dict(operations=[{"do": "destroy", "on": "choice"}]), "give them in 'choose'"),
    (dict(choose={"from": "deck", "filter": {"quantity": "level", "of": "self", "value": 4}},
          operations=[{"do": "destroy", "on": "choice"}]), "leave out 'of'"),
    (dict(choose={"from": "deck"}, operations=[{"do": "destroy"}]), "needs an operation on them"),
    (dict(choose={"from": "deck", "count": 2, "min": 3}, operations=[{"do": "destroy", "on": "choice"}]),
     "'min' (the fewest it chooses"),
    (dict(choose={"from": ["deck", "deck"]}, operations=[{"do": "destroy", "on": "choice"}]), "listed twice"),
    (dict(choose={"from": "deck", "filter": {"all": [{"quantity": "level", "value": 4}, {"quantity": "atk", "value": 1},
                                                     {"quantity": "def", "value": 1}, {"quantity": "face_up"},
                                                     {"quantity": "attribute", "value": "dark"}]}},
          operations=[{"do": "destroy", "on": "choice"}]), "a choice's filter is at most 4 atoms"),
    (dict(choose={"from": "deck", "filter": {"quantity": "atk", "cmp": "<=", "than": {"quantity": "atk", "of": "attacker"}}},
          operations=[{"do": "destroy", "on": "choice"}]), "not with 'attacker'"),
    (dict(choose={"from": "deck", "count": 2}, operations=[{"do": "damage", "on": "choice", "amount": "atk"}]),
     "names one card; this effect chooses 2"),
    (dict(choose={"from": "graveyard", "count": 2}, operations=[{"do": "gain_lp", "on": "choice", "amount": "half_original_atk"}]),
     "names one card; this effect chooses 2"),
    (dict(cost=[{"do": "tribute", "filter": {"quantity": "level", "cmp": "<", "value": 0}}]), "holds for no card"),
]


def equip_card(card_type, subtype, effects):
    return {"cards": [{"name": "Test Equip", "type": card_type, "subtype": subtype, "effects": effects}]}


@pytest.mark.parametrize("effects", GOOD_EQUIP_CARDS)
@pytest.mark.parametrize("card_type, subtype", [("spell", "equip"), ("trap", "normal")])
def test_loader_and_schema_accept_equip_cards(effects, card_type, subtype):
    doc = equip_card(card_type, subtype, effects)
    assert schema_ok(doc)
    (c,) = load(doc)
    assert c.effects[0].operations[0].do == "equip" and c.effects[0].chooses_target


@pytest.mark.parametrize("card_type, subtype, effects, message", [
    # an Equip Spell's activation equips it (GEN-20): "Equip only to ..." is its target's filter
    ("spell", "equip", [dict(kind="activation", target={}, operations=[{"do": "destroy", "on": "chosen"}])],
     "an Equip Spell's activation equips it to the monster it targets"),
    ("spell", "equip", [dict(kind="activation")], "an Equip Spell's activation equips it"),
    # an effect that equips targets the monster it equips
    ("trap", "normal", [dict(kind="activation", operations=[{"do": "equip", "on": "chosen"}])], "give the 'target'"),
    # only a card that equips itself reads "the equipped monster"
    ("trap", "continuous", [dict(kind="continuous", apply={"do": "atk_modifier", "on": "equipped", "amount": 300})],
     "'equipped' is the monster this card is equipped to, and this card never equips itself"),
    ("monster", "effect", [dict(kind="trigger", condition={"all": ["battling", {"quantity": "attacking", "of": "equipped"}]})],
     "'equipped' is the monster this card is equipped to, and this card never equips itself"),
    ("monster", "effect", [dict(kind="ignition", target={}, operations=[{"do": "equip", "on": "chosen"}])],
     "a monster becoming an Equip Card is not modelled"),
    # an ATK changer that equips changes ATK through its continuous effects on the equipped monster
    ("trap", "normal", [dict(EQUIPS, atk_def="direct")], "'atk_def' is 'direct' but neither its operations nor"),
])
def test_loader_refuses_what_equipping_rules_out(card_type, subtype, effects, message):
    doc = equip_card(card_type, subtype, effects)
    if card_type == "monster":
        doc["cards"][0].update(atk=1000, level=4, **{"def": 1000})
    with pytest.raises(catalogue.CatalogueError) as e:
        load(doc)
    assert message in str(e.value) and e.value.line


@pytest.mark.parametrize("effect", GOOD)
def test_loader_and_schema_accept(effect):
    doc = card(**effect)
    assert schema_ok(doc)
    load(doc)


@pytest.mark.parametrize("effect, message", BAD)
def test_loader_and_schema_refuse(effect, message):
    doc = card(**effect)
    assert not schema_ok(doc)
    with pytest.raises(catalogue.CatalogueError) as e:
        load(doc)
    assert message in str(e.value)
    assert str(e.value).startswith("test.json:") and e.value.line   # file and line


@pytest.mark.parametrize("effect, message", SEMANTIC)
def test_loader_refuses_what_the_schema_cannot_say(effect, message):
    with pytest.raises(catalogue.CatalogueError) as e:
        load(card(**effect))
    assert message in str(e.value) and e.value.line


def typed(card_type, effect):
    """card(**effect) as a monster, or as a Spell / Trap (Continuous unless `card_type` names the
    subtype: "spell:equip")."""
    doc = card(**effect)
    if card_type != "monster":
        entry = doc["cards"][0]
        kind, _, subtype = card_type.partition(":")
        entry.update(type=kind, subtype=subtype or "continuous")
        for k in ("atk", "def", "level"):
            del entry[k]
    return doc


@pytest.mark.parametrize("kind, effect, message, fits", [
    # the negations the model reads from one kind of card (model/rules/effects.py)
    ("monster", dict(kind="continuous", apply={"do": "negate_monster_effects"}), "is a Spell or Trap Card's effect", "trap"),
    ("trap", dict(kind="continuous", apply={"do": "negate_trap_effects"}), "is a monster's effect", "monster"),
    ("spell", dict(kind="continuous", apply={"do": "negate_opponent_monster_effects"}), "is a monster's effect", "monster"),
    ("monster", dict(kind="continuous", apply={"do": "negate_battle_opponent", "on": "equipped"}),
     "is an Equip Card's effect", "spell:equip"),
    # a Spell or Trap Card never battles: an event about this card in a battle never holds
    ("trap", dict(kind="trigger", condition="battle_damage_dealt"), "a Trap Card never battles", "monster"),
    ("spell", dict(kind="activation", condition={"all": ["attacked", {"quantity": "lp", "of": "you", "cmp": ">", "value": 0}]}),
     "a Spell Card never battles", "monster"),
])
def test_loader_refuses_what_the_card_type_rules_out(kind, effect, message, fits):
    with pytest.raises(catalogue.CatalogueError) as e:
        load(typed(kind, effect))
    assert message in str(e.value) and e.value.line
    assert load(typed(fits, effect))   # the kind of card it is about takes it


def test_conditions_normalise_to_alternatives_of_atoms():
    c = load(card(condition={"all": ["attacked", {"not": {"any": [
        {"quantity": "level", "of": "attacker", "cmp": ">", "value": 4},
        {"quantity": "face_up", "of": "attacker", "value": False}]}}]}))[0]
    e = c.effects[0]
    assert e.condition == "attacked"
    assert e.atoms == ((effect_conditions.Atom("level", "attacker", "<=", 4), effect_conditions.Atom("face_up", "attacker", "!=", 0)),)
    # the event alone in one alternative: the other alternative adds nothing
    e = load(card(condition={"any": ["attacked", {"all": ["attacked", {"quantity": "level", "value": 4}]}]}))[0].effects[0]
    assert (e.condition, e.atoms) == ("attacked", ())


def test_named_values_are_read_as_their_vocabulary_index():
    e = load(card(condition={"all": [{"quantity": "attribute", "of": "attacker", "value": "light"},
                                     {"quantity": "location", "value": "graveyard"}]}))[0].effects[0]
    assert e.atoms[0] == (effect_conditions.Atom("attribute", "attacker", "==", vocab.ATTRIBUTES.index("light")),
                          effect_conditions.Atom("location", "self", "==", vocab.L["graveyard"]))


def test_card_fields_are_checked_with_their_line():
    doc = card()
    doc["cards"][0]["attribute"] = "DRAK"
    with pytest.raises(catalogue.CatalogueError, match="did you mean 'dark'"):
        load(doc)
    doc = card()
    doc["cards"][0]["passcode"] = -5
    with pytest.raises(catalogue.CatalogueError, match="passcode"):
        load(doc)


def test_migrate_rewrites_the_old_form_and_keeps_what_cards_do(tmp_path):
    old = card(resolution={"do": "atk_add", "amount": 700, "target": "chosen"}, condition="battling")
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    before = [c.to_dict() for c in catalogue.load_file(str(path))]
    result = CliRunner().invoke(main, ["cards", "migrate", str(path), "--out", str(tmp_path / "new.json")])
    assert result.exit_code == 0, result.output
    assert "1 effect(s) had the old 'resolution' form" in result.output
    new = json.loads((tmp_path / "new.json").read_text())
    assert "resolution" not in new["cards"][0]["effects"][0]
    assert new["cards"][0]["effects"][0]["operations"] == [{"do": "atk_add", "on": "chosen", "amount": 700}]
    assert schema_ok(new)
    assert [c.to_dict() for c in catalogue.load_file(str(tmp_path / "new.json"))] == before


def test_migrate_refuses_a_file_that_is_not_a_catalogue(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"cards": [{"name": 1}]}')
    result = CliRunner().invoke(main, ["cards", "migrate", str(path)])
    assert result.exit_code == 2 and "bad.json:1" in result.output and "Traceback" not in result.output


def kinds_used(card):
    """The condition quantities, costs, operations and continuous kinds a card's effects use."""
    out = set()
    for e in card.effects:
        out |= {("quantity", a.quantity) for alt in e.atoms + ((e.target_filter or ()),) for a in alt}
        out |= {("quantity", a.than[0]) for alt in e.atoms + ((e.target_filter or ()),) for a in alt if a.than}
        # "the equipped monster" (GEN-20): as a condition's subject, and as what a continuous effect is on
        out |= {("subject", a.of) for alt in e.atoms for a in alt if a.of == "equipped"}
        out |= {("subject", a.than[1]) for alt in e.atoms for a in alt if a.than and a.than[1] == "equipped"}
        out |= {("cost", c.do) for c in e.costs} | {("operation", o.do) for o in e.operations}
        out |= {("amount", o.amount_of) for o in e.operations if o.amount_of != "number"}
        out |= select_kinds([o.count for o in e.operations if o.count is not None])
        out |= {("operation", "otherwise") for o in e.operations if o.otherwise}
        out |= {("operation", "both") for o in e.operations if o.both}
        if e.apply is not None:
            out.add(("continuous", e.apply.do))
            if e.apply.on in ("equipped", "attackers", "battle_opponent"):
                out.add(("continuous_on", e.apply.on))
            if e.apply.per != "none":
                out.add(("per", e.apply.per))
        out |= select_kinds([o.select for o in e.operations if o.on == "all"] +
                            ([e.apply.select] if e.apply is not None and e.apply.on == "all" else []) +
                            ([e.apply.count] if e.apply is not None and e.apply.count is not None else []))
        if e.once != "none":
            out.add(("once", e.once))
        # cards chosen as the effect resolves (GEN-22): where, whose, how many, and what they must be
        out |= {("operation_on", "choice") for o in e.operations if o.on == "choice"}
        if e.choose is not None:
            c = e.choose
            out |= {("choose_from", p) for p in c.places} | {("choose_side", c.side), ("choose_count", c.count),
                                                           ("choose_min", "none" if c.min == 0 else "all")}
            out |= {("choose_needed", True)} if c.needed else set()
            out |= {("quantity", a.quantity) for a in c.filter} | {("quantity", a.than[0]) for a in c.filter if a.than}
    return out


def select_kinds(selects):
    """The selector values a card's selectors use beyond picking every monster ("cards", "special_summoned",
    "summoned_this_turn", "card_kind", "card_type")."""
    return ({("select", f"cards:{s.cards}") for s in selects if s.cards != "monsters"} |
            {("select", key) for s in selects for key in SUMMON_KEYS if getattr(s, key)} |
            {("select", key) for s in selects for key in ("card_kind", "card_type") if getattr(s, key) is not None})


SELECT_KINDS = ({("select", f"cards:{c}") for c in vocab.SELECT_CARDS[1:]} | {("select", key) for key in SUMMON_KEYS} |
                {("select", "card_kind"), ("select", "card_type")})
# an effect's `choose` (GEN-22): each place, each side, each count, "you can" (min 0) and the default
# (as many as it says), a choice the activation needs, and operations on the cards chosen
CHOOSE_KINDS = ({("choose_from", p) for p in vocab.CHOOSE_FROM} | {("choose_side", s) for s in vocab.CHOOSE_SIDES} |
                {("choose_count", n) for n in range(1, vocab.MAX_CHOICES + 1)} |
                {("choose_min", "none"), ("choose_min", "all"), ("choose_needed", True), ("operation_on", "choice")})


# Kinds no fixture turns on yet (docs/cards-format.md says what each does); the test fails when
# one of them gains a legal and an illegal fixture, so this list only shrinks.
NOT_YET_IN_FIXTURES = {
    # no fixture pair yet: no real card with a text found and verified for them so far (what each
    # atom reads is still tested, on a test card, by tests/test_effect_atoms.py). original_def: in
    # the texts of ygopro cards.cdb to 2020 (ygoes002/pc-english, duelists-unite/ygodb_cleanup) no
    # effect usable in the Battle Phase compares an original DEF (the one condition on it,
    # Superheavy Samurai Soulbreaker Armor's "whose current DEF is lower than its original DEF",
    # is an Ignition Effect from the GY)
    ("quantity", "original_def"),
}


def test_every_effect_kind_has_a_legal_and_an_illegal_fixture():
    from ygo_timing.checking.facts import play_cards
    from ygo_timing.inputs.play import load as load_play
    plays = sorted(p for p in (ROOT / "fixtures").rglob("*") if p.suffix in (".play", ".json")
                   and "bad" not in p.parts and p.name != "cards.json" and "witnesses" not in p.parts)
    seen = {"legal": set(), "illegal": set()}
    for p in plays:
        play = load_play(str(p))
        cards = play_cards(play)
        for spec in play.cards:
            if spec.name in cards:
                seen[play.expect] |= kinds_used(cards[spec.name])
    every = ({("quantity", q) for q in vocab.QUANTITIES[1:]} | {("cost", c) for c in vocab.COSTS[1:]} |
             {("operation", o) for o in vocab.OPERATIONS[1:]} | {("continuous", c) for c in vocab.CONTINUOUS[1:]} |
             {("once", o) for o in vocab.ONCE[1:]} | SELECT_KINDS | {("amount", a) for a in vocab.AMOUNT_OF[1:]} |
             {("subject", "equipped"), ("continuous_on", "equipped"), ("operation", "otherwise")} |
             {("operation", "both")} |
             {("per", p) for p in vocab.CONTINUOUS_PER[1:]} | {("continuous_on", "attackers")} |
             {("continuous_on", "battle_opponent")} | CHOOSE_KINDS)
    missing = {k for k in every if not (k in seen["legal"] and k in seen["illegal"])}
    assert sorted(missing - NOT_YET_IN_FIXTURES) == []
    assert sorted(NOT_YET_IN_FIXTURES - missing) == [], "covered now: remove from NOT_YET_IN_FIXTURES"


def test_each_effect_with_a_watched_condition_takes_a_watched_slot():
    # model/rules/effects.watched_atoms: only watched slots build atoms in every state, so every
    # mandatory trigger with atoms and every continuous effect with a condition needs one (slots
    # in pairs), and a play without such an effect pays nothing
    from ygo_timing.checking.facts import Universe, static_facts
    from ygo_timing.inputs.play import parse_text
    cards = catalogue.builtin()

    def universe(*names):
        setup = "".join(f'{"AB"[k % 2]} monster "{n}" as C{k}\n' for k, n in enumerate(names))
        return Universe(parse_text(f"source: test\nturn: 2\nturn-player: A\n{setup}enter battle phase\n", "<t>"), cards)
    assert universe("Dark Magician", "Blue-Eyes White Dragon").nwatched == 0
    one = universe("Ryu Kokki", "Dark Magician")
    assert (one.watched, one.nwatched) == ([0], 2)
    three = universe("Ryu Kokki", "Getsu Fuhma", "Ryu Kokki")
    assert (len(three.watched), three.nwatched) == (3, 4)
    facts = {f.arg: f.value for f in static_facts(one, one.play, 4, 2) if f.fn == "watched_effect"}
    assert facts == {0: 0, 1: -1}
    with pytest.raises(ValueError):   # a relation with too few slots is refused, never silently used
        static_facts(three, three.play, 4, 2)
    # Steamroid's two continuous effects: each continuous slot names its watched slot (1-based)
    steam = universe("Dark Magician", "Steamroid")
    assert (steam.watched, steam.nwatched) == ([0, 1], 2)   # Dark Magician has no effect
    watch = {f.arg: f.value for f in static_facts(steam, steam.play, 4, 2) if f.fn == "continuous_watch"}
    assert {k: v for k, v in watch.items() if v} == {1 * vocab.MAX_CONTINUOUS: 1, 1 * vocab.MAX_CONTINUOUS + 1: 2}


# effects whose behaviour the model holds outside `operations` and `apply`: in card-level fields
# (docs/cards-format.md, "A card"; an Equip Card's are the equipped monster's: BP-5, BP-8, BD-1)
CARD_LEVEL = ("must_attack", "calc_modifier", "battle_damage_modifier", "extra_attacks", "attack_restriction")


def test_every_builtin_effect_does_something_or_says_what_is_not_modelled():
    # issue 12 item 5: no Battle Phase text kept only as a note; what the model has no state for
    # is named in `not_modelled`, which verdicts list (checking/caveats.py)
    silent = []
    for c in catalogue.builtin().values():
        for k, e in enumerate(c.effects, 1):
            does = e.operations or e.apply is not None or e.costs or e.not_modelled or e.outside_battle_phase
            placed = e.kind == "activation" and c.subtype in ("continuous", "field")   # activating places the card
            elsewhere = e.kind == "continuous" and any(getattr(c, f) not in (None, False, 0, "none") for f in CARD_LEVEL)
            if not (does or placed or elsewhere):
                silent.append(f"{c.name} effect {k}")
    assert silent == []


def test_a_verdict_names_the_card_text_it_does_not_weigh():
    from ygo_timing.checking.check import check_play
    from ygo_timing.inputs.play import parse_text
    head = "ruleset: ocg\nturn-player: A\nA monster \"Don Zaloog\" as Don\n"
    battle = ("enter battle phase\nnext battle_step\nattack Don direct\nnext ds_start\nnext ds_before_calc\n"
              "next ds_during_calc\nnext ds_after_calc\nclaim lp B 6600\n")
    v = check_play(parse_text(head + battle + "next ds_end\n", "t.play"))
    assert v.verdict == "legal" and v.not_modelled == []   # its optional trigger was not activated
    v = check_play(parse_text(head + battle + "activate A Don\nresolve\n", "t.play"))
    assert v.verdict == "legal", v.message
    assert v.not_modelled == ["Don Zaloog (effect 1): " + catalogue.builtin()["Don Zaloog"].effects[0].not_modelled]
    assert v.to_dict()["not_modelled"] == v.not_modelled
    # an illegal verdict rests on the actions up to the first illegal one only
    v = check_play(parse_text(head + battle.replace("claim lp B 6600", "claim lp B 1") + "activate A Don\nresolve\n", "t.play"))
    assert v.verdict == "illegal" and v.not_modelled == []
    # text outside the Battle Phase is not listed: Susa Soldier's return in the End Phase
    v = check_play(parse_text("ruleset: ocg\nA monster \"Susa Soldier\"\nenter battle phase\n", "t.play"))
    assert v.verdict == "legal" and v.not_modelled == []
    assert catalogue.builtin()["Susa Soldier"].effects[0].outside_battle_phase
    # a continuous effect is named when its card is set up, activated or not
    v = check_play(parse_text("ruleset: ocg\nA monster \"Elemental Hero Wildedge\"\nenter battle phase\n", "t.play"))
    assert v.not_modelled and v.not_modelled[0].startswith("Elemental Hero Wildedge (effect 1): ")


def test_a_range_of_zones_is_said_as_the_zones():
    """A filter's `location` range (Amazoness Sage: "Target 1 Spell/Trap Card your opponent controls")
    is said as the zones it leaves, once, beside its other atoms."""
    from ygo_timing.checking.wording import atoms_words
    sage = catalogue.builtin()["Amazoness Sage"]
    assert atoms_words(sage.effects[0].target_filter) == \
        "the target is in the Spell & Trap Zone or the Field Zone and the target is not controlled by its controller"
    dystopia = catalogue.builtin()["Destiny HERO - Dystopia"]
    assert atoms_words(dystopia.effects[0].target_filter) == \
        "the target is in the Monster Zone, the Spell & Trap Zone or the Field Zone"


def test_a_summoning_condition_bars_a_choice_and_a_fixed_special_summon():
    """A card's `summoning_condition` "cannot_be_special_summoned" (GEN-19) is no card to choose for
    a Special Summon (GEN-22: "then you can Special Summon" chooses none), and a mandatory trigger
    that Special Summons its own such card is still owed: it is activated and Summons nothing."""
    from ygo_timing.checking.check import check_play
    from ygo_timing.inputs.play import parse_text
    builtin = json.loads((ROOT / "fixtures" / "cards.json").read_text())["cards"]
    flipper = {**next(c for c in builtin if c["name"] == "Miracle Flipper"), "name": "Test Flipper",
               "summoning_condition": "cannot_be_special_summoned"}
    stardust = {"name": "Test Stardust", "type": "monster", "subtype": "synchro", "attribute": "WIND",
                "monster_type": "dragon", "level": 8, "atk": 2500, "def": 2000, "archetype": "Stardust",
                "summoning_condition": "cannot_be_special_summoned", "effects": [], "source": "test"}
    re_spark = (f"ruleset: ocg\nturn: 2\nturn-player: A\nlp: B 3000\ncard: {json.dumps(stardust)}\n"
                "A monster \"Blue-Eyes White Dragon\" as BEWD special-summoned\nB set \"Stardust Re-Spark\" as SR\n"
                "B deck \"Kuriboh\" as K\nB graveyard \"Test Stardust\" as SD\n"
                "enter battle phase\nnext battle_step\nattack BEWD direct\npass A\nactivate B SR\n")
    v = check_play(parse_text(re_spark + "resolve choose SD\n", "t.play"))
    assert v.verdict == "illegal" and "GEN-22" in {x["rule"] for x in v.violations}, v.message
    v = check_play(parse_text(re_spark + "resolve\nclaim location SD graveyard\n", "t.play"))
    assert v.verdict == "legal", v.message
    battle = "".join(f"next {w}\n" for w in ("ds_start", "ds_before_calc", "ds_during_calc", "ds_after_calc", "ds_end",
                                             "battle_step"))
    v = check_play(parse_text(f"ruleset: ocg\nturn: 2\nturn-player: A\ncard: {json.dumps(flipper)}\n"
                              "A monster \"Blue-Eyes White Dragon\" as BEWD\nB monster \"Test Flipper\" as MF\n"
                              f"enter battle phase\nnext battle_step\nattack BEWD -> MF\n{battle}end battle phase\n"
                              "pass A\nactivate B MF effect 2\nresolve\nclaim location MF graveyard\n", "t.play"))
    assert v.verdict == "legal", v.message


def test_shuffling_itself_into_the_deck_is_refused_while_its_own_redirect_would_banish_it():
    # to_deck_self (GEN-16): ygopro-core's card::is_capable_cost_to_deck reads the card's own
    # leave-the-field redirect and refuses the cost when the card would not reach the Deck
    from ygo_timing.checking.check import check_play
    from ygo_timing.inputs.play import parse_text
    tag_out = {"kind": "trigger", "trigger_class": "other", "timings": ["end_step"], "condition": "battled",
               "cost": [{"do": "to_deck_self"}]}
    banish = {"kind": "continuous", "apply": {"do": "leave_field_redirect", "to": "banished"}}

    def play(effects):
        card = {"name": "Tagger", "type": "monster", "subtype": "effect", "attribute": "EARTH", "level": 4,
                "atk": 1800, "def": 400, "effects": effects, "source": "test"}
        return parse_text("ruleset: ocg\nturn: 2\nturn-player: A\ncard: " + json.dumps(card) + "\n"
                          "A monster \"Tagger\" as T\nB monster \"Kuriboh\" as K\nenter battle phase\n"
                          "next battle_step\nattack T -> K\nnext ds_start\nnext ds_before_calc\nnext ds_during_calc\n"
                          "next ds_after_calc\nnext ds_end\nnext battle_step\nend battle phase\nactivate A T\n"
                          "claim location T deck\n", "t.play")
    assert check_play(play([tag_out])).verdict == "legal"
    v = check_play(play([tag_out, banish]))
    assert v.verdict == "illegal" and "GEN-16" in {r["rule"] for r in v.violations}, v.message

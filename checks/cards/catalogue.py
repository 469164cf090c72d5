"""The card catalogue: the properties timing depends on, per card (fixtures/cards.json).

Entries are validated strictly (unknown keys and values are errors with file:line), since
a user's `--cards` file is untrusted input.
"""
from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from types import MappingProxyType

from ygo_timing.inputs import fileio, jsonloc
from ygo_timing.model import vocab

from . import effect_conditions, effect_format
from .reader import REQUIRED, CatalogueError, Reader, short


@dataclass
class Effect:
    kind: str
    from_: str = "field"
    mandatory: bool = False
    atk_def: str = "none"
    negates: str = "none"
    trigger_class: str = "none"
    fusion_summon: bool = False
    timings: tuple = ()
    condition: str = "none"       # the event (vocab.CONDITIONS) that places it, "none" if none
    atoms: tuple = ()             # and the condition's other atoms: alternatives of Atoms (effect_conditions)
    ruling_allowed: bool = False
    no_damage_step: bool = False
    costs: tuple = ()             # effect_format.Cost, paid on activation in this order
    target_filter: tuple | None = None   # Atoms about the chosen target; None: it targets nothing
    implied_target: str | None = None    # the card the text leaves no choice of, when the play names none
    second_filter: tuple | None = None   # Atoms about a second target ("Target 2 cards"); None: one target
    second_optional: bool = False        # the second target may be left out ("Target up to 2")
    choose: effect_format.Choose | None = None   # the cards it chooses as it resolves, without targeting (GEN-22)
    operations: tuple = ()        # effect_format.Operation, applied in this order on resolution
    apply: effect_format.Continuous | None = None   # a continuous effect's
    text: str = ""                # the card text of this effect, where the entry quotes it
    note: str = ""
    # what the text does that the model does not hold ("place a counter: the model has no
    # counters"); a verdict on a play that activates the effect, or sets up its card for a
    # continuous one, names it (checking/caveats.py): the verdict does not weigh that part
    not_modelled: str = ""
    # what the text does outside the Battle Phase a play covers (a Main Phase Ignition Effect, a
    # return in the End Phase, a cost in the next Standby Phase): no Battle Phase verdict rests on
    # it, so verdicts do not list it (docs/cards-format.md)
    outside_battle_phase: str = ""
    once: str = "none"            # vocab.ONCE: its once-per-turn limit
    unknown: tuple = ()   # properties an import could not settle (left at their defaults)
    legacy: bool = False  # read from the old one-operation `resolution` (cards migrate rewrites it)

    @property
    def chooses_target(self) -> bool:
        """The play names the card it is activated for: it targets one the text does not fix, or
        its first operation is on the chosen card."""
        return (self.target_filter is not None and self.implied_target is None) or self.first.on == "chosen"

    @property
    def pays_with_card(self) -> bool:
        """Its cost discards or Tributes a card the play names (`cost CARD`, GEN-16)."""
        return any(c.do in ("discard", "tribute") for c in self.costs)

    @property
    def negates_a_link(self) -> bool:
        """It negates an activation (its kind says so, or one of its operations does)."""
        return self.negates != "none" or any(o.do in ("negate", "negate_destroy") for o in self.operations)

    @property
    def first(self) -> effect_format.Operation:
        """The first operation: the one whose card is fixed when the effect is activated."""
        return self.operations[0] if self.operations else effect_format.Operation("none")


@dataclass
class Card:
    name: str
    type: str
    subtype: str
    attribute: str | None = None
    monster_type: str | None = None
    passcode: int | None = None
    level: int | None = None
    atk: int | None = None
    def_: int | None = None
    effects: list = field(default_factory=list)
    must_attack: bool = False
    calc_modifier: dict | None = None
    battle_damage_modifier: str = "none"
    archetype: str | None = None
    extra_attacks: int = 0
    attack_restriction: str | None = None
    summoning_condition: str | None = None   # vocab.SUMMONING_CONDITIONS: not an effect (GEN-19)
    source: str = ""
    origin: str = ""   # the file (file:line when it was read with lines) the entry came from
    unknown: tuple = ()   # properties an import could not settle (left at their defaults)

    def unknowns(self):
        """"property" and "effect N property" for everything unsettled on this card."""
        return list(self.unknown) + [f"effect {k} {p}" for k, e in enumerate(self.effects, 1) for p in e.unknown]

    @property
    def kind(self):
        return f"{self.type}:{self.subtype}"

    def to_dict(self):
        d = {"name": self.name, "type": self.type, "subtype": self.subtype}
        if self.type == "monster":
            d.update(attribute=self.attribute, level=self.level, atk=self.atk, **{"def": self.def_})
            if self.monster_type:
                d["monster_type"] = self.monster_type
        if self.passcode is not None:
            d["passcode"] = self.passcode
        d["effects"] = [effect_format.effect_dict(e) for e in self.effects]
        for key in ("must_attack", "calc_modifier", "archetype", "extra_attacks", "attack_restriction",
                    "summoning_condition"):
            if getattr(self, key):
                d[key] = getattr(self, key)
        if self.battle_damage_modifier != "none":
            d["battle_damage_modifier"] = self.battle_damage_modifier
        if self.unknown:
            d["unknown"] = list(self.unknown)
        d["source"] = self.source
        return d


CARD_KEYS = {"name", "type", "subtype", "attribute", "monster_type", "passcode", "level", "atk", "def", "effects", "must_attack",
             "calc_modifier", "battle_damage_modifier", "archetype", "extra_attacks",
             "attack_restriction", "summoning_condition", "source", "unknown", "import"}
EFFECT_KEYS = {"kind", "from", "mandatory", "atk_def", "negates_activation", "trigger_class",
               "fusion_summon", "timings", "condition", "ruling_allowed", "no_damage_step",
               "cost", "target", "choose", "operations", "apply", "text", "resolution", "note", "not_modelled",
               "outside_battle_phase", "unknown", "import", "once"}
# What an imported entry may list as `unknown` (checks/cards/importer.py); `import` is its
# provenance (card id, script lines), kept for people and ignored by the solver.
UNKNOWABLE_CARD = ("attribute", "level", "atk", "def", "effects", "continuous", "must_attack", "extra_attacks",
                   "battle_damage_modifier", "calc_modifier", "attack_restriction")
UNKNOWABLE_EFFECT = ("kind", "from", "mandatory", "atk_def", "negates_activation", "trigger_class",
                     "fusion_summon", "timings", "condition", "no_damage_step", "resolution", "operations", "cost", "target",
                     "until_calc", "flags", "once")


def parse_unknown(r, d, choices, what):
    """The `unknown` list of an imported entry, and a check that `import` is a small object."""
    names = r.get(d, "unknown", list, [], what=what)
    for n in names:
        if n not in choices:
            r.fail("unknown", f"{what}: unknown property {n!r}; expected names from: {', '.join(choices)}")
    imp = r.get(d, "import", dict, None, what=what)
    if imp is not None and (len(imp) > 16 or not all(
            isinstance(v, (str, int, bool, list)) and len(str(v)) <= 2000 for v in imp.values())):
        r.fail("import", f"{what}: 'import' must be an object of at most 16 values of at most 2000 characters")
    return tuple(dict.fromkeys(names))


# An imported card pool (cards import) is larger than a play: ~13,000 cards take ~8 MB.
MAX_CATALOGUE_BYTES = vocab.MAX_CATALOGUE_BYTES


def parse_card(value, doc, path, where) -> Card:
    r = Reader(doc, path, where)
    d = r.obj(value, CARD_KEYS, "card")
    name = r.get(d, "name", str, REQUIRED, what="card")
    what = f"card {short(name)}"
    if not name.strip() or len(name) > 200:
        r.fail("name", f"{what}: a name is 1-200 characters")
    ctype = r.get(d, "type", str, REQUIRED, choices=vocab.CARD_TYPES, what=what)
    sub = r.get(d, "subtype", str, REQUIRED, choices=vocab.SUBTYPES[ctype], what=what)
    line = doc.line(where)   # None when the fast parser read the file (no error to report)
    card = Card(name=name, type=ctype, subtype=sub, origin=f"{path}:{line}" if line else path)
    card.attribute = r.get(d, "attribute", str, None, what=what)
    if card.attribute is not None and card.attribute.lower() not in vocab.ATTRIBUTES[1:]:
        r.fail("attribute", f"{what}: attribute {short(card.attribute)}"
                            f"{effect_format.did_you_mean(card.attribute.lower(), vocab.ATTRIBUTES)}; "
                            f"expected one of: {', '.join(a.upper() for a in vocab.ATTRIBUTES[1:])}")
    card.monster_type = r.get(d, "monster_type", str, None, choices=vocab.MONSTER_TYPES[1:], what=what)
    card.passcode = d.get("passcode")
    if card.passcode is not None and (not isinstance(card.passcode, int) or isinstance(card.passcode, bool)
                                      or not 0 < card.passcode < 10**10):
        r.fail("passcode", f"{what}: a passcode is a positive number (the card's YGOPro id)")
    for key, attr in (("level", "level"), ("atk", "atk"), ("def", "def_")):
        setattr(card, attr, r.get(d, key, int, None, what=what))
    card.must_attack = r.get(d, "must_attack", bool, False, what=what)
    card.battle_damage_modifier = r.get(d, "battle_damage_modifier", str, "none",
                                        choices=vocab.BATTLE_DAMAGE_MODIFIERS, what=what)
    card.archetype = r.get(d, "archetype", str, None, what=what)
    card.extra_attacks = r.get(d, "extra_attacks", int, 0, what=what)
    card.attack_restriction = r.get(d, "attack_restriction", str, None, choices=("tyrant_wing",), what=what)
    card.summoning_condition = r.get(d, "summoning_condition", str, None, choices=vocab.SUMMONING_CONDITIONS,
                                     what=what)
    card.source = r.get(d, "source", str, "", what=what)
    card.unknown = parse_unknown(r, d, UNKNOWABLE_CARD, what)
    cm = r.get(d, "calc_modifier", dict, None, what=what)
    if cm is not None:
        cr = Reader(doc, path, where + ("calc_modifier",))
        cr.obj(cm, {"amount", "applies_to", "when", "attacker_archetype"}, f"{what} calc_modifier")
        card.calc_modifier = {
            "amount": cr.get(cm, "amount", int, REQUIRED, what=f"{what} calc_modifier"),
            "applies_to": cr.get(cm, "applies_to", str, "attacker", choices=("attacker", "target"), what=what),
            "when": cr.get(cm, "when", str, "always", choices=vocab.CALC_MODIFIER_WHEN, what=what),
        }
        # Skyscraper: 'When an "Elemental HERO" monster attacks, ...'
        attacker_archetype = cr.get(cm, "attacker_archetype", str, None, what=f"{what} calc_modifier")
        if attacker_archetype is not None:
            card.calc_modifier["attacker_archetype"] = attacker_archetype
    effects = r.get(d, "effects", list, [], what=what)
    if len(effects) > 8:
        r.fail("effects", f"{what}: at most 8 effects per card")
    card.effects = [parse_effect(e, doc, path, where + ("effects", k), what) for k, e in enumerate(effects)]
    for k, e in enumerate(card.effects):
        sources = NEGATION_SOURCES.get(e.apply.do) if e.apply is not None else None
        if sources and card.type not in sources[0]:
            Reader(doc, path, where + ("effects", k, "apply")).fail(
                "do", f"{what} effect {k + 1}: {e.apply.do!r} is {sources[1]}; this card is a {card.type}")
    if card.type != "monster":   # a Spell or Trap Card never battles: such a condition never holds
        for k, e in enumerate(card.effects):
            if e.condition in BATTLE_EVENTS_OF_THIS_CARD:
                Reader(doc, path, where + ("effects", k)).fail(
                    "condition", f"{what} effect {k + 1}: condition {e.condition!r} is about this card in a battle, "
                                 f"and a {card.type.capitalize()} Card never battles; write the monster it is about "
                                 "as atoms (e.g. {'quantity': 'attacking', 'of': 'own_battling'})")
            # the model activates such a trigger from where a monster went (GEN-13); a Spell or Trap
            # Card's "if this Set card is destroyed" is not modelled
            if e.condition in vocab.LEAVING:
                Reader(doc, path, where + ("effects", k)).fail(
                    "condition", f"{what} effect {k + 1}: condition {e.condition!r} (this card leaving the field) is "
                                 f"modelled for a monster only; a {card.type.capitalize()} Card's is not: leave the "
                                 "effect's event 'none' and say so in its 'not_modelled'")
            # GEN-13: a Spell/Trap Card is activated Set on the field (a Quick-Play Spell also from
            # the hand); only its other effects are activated from where their text says (the GY)
            if e.from_ != "field" and (e.kind == "activation" or e.from_ == "hand"):
                Reader(doc, path, where + ("effects", k)).fail(
                    "from", f"{what} effect {k + 1}: 'from' {e.from_!r} on a {card.type.capitalize()} Card's "
                            + ("activation: a Spell/Trap Card is activated from the field (a Quick-Play Spell also "
                               "from the hand, without 'from'); expected 'field'" if e.kind == "activation" else
                               "effect: the model activates a Spell/Trap Card's other effects on the field or in "
                               "the GY only; expected 'field' or 'graveyard'"))
    if sum(e.apply is not None for e in card.effects) > vocab.MAX_CONTINUOUS:
        r.fail("effects", f"{what}: at most {vocab.MAX_CONTINUOUS} continuous effects with 'apply' per card")
    check_equipping(card, doc, path, where)
    return card


def check_equipping(card: Card, doc, path, where):
    """What equipping asks of a whole card (GEN-20): an Equip Spell's activation equips it; only a
    card that equips itself (an `equip` operation, or an Equip Spell) reads "the equipped monster";
    a monster never becomes an Equip Card in the model; an ATK changer that equips changes ATK or
    DEF through its continuous effects on the equipped monster."""
    what = f"card {short(card.name)}"
    equips = [k for k, e in enumerate(card.effects) if any(o.do == "equip" for o in e.operations)]
    for k, e in enumerate(card.effects):
        er = Reader(doc, path, where + ("effects", k))
        if k in equips and card.type == "monster":
            er.fail("operations", f"{what} effect {k + 1}: 'equip' makes this card an Equip Card; a monster "
                                  "becoming an Equip Card is not modelled (only a Spell or Trap Card equips itself)")
        if (card.kind == "spell:equip" and e.kind == "activation" and k not in equips
                and not {"operations", "resolution", "target"} & set(e.unknown)):
            er.fail("operations", f"{what} effect {k + 1}: an Equip Spell's activation equips it to the monster it "
                                  "targets; add {\"do\": \"equip\", \"on\": \"chosen\"} to 'operations' and the "
                                  "'target' (\"Equip only to ...\" is its filter)")
        subjects = {a.of for alt in e.atoms + ((e.target_filter or ()),) for a in alt} | \
            {a.than[1] for alt in e.atoms + ((e.target_filter or ()),) for a in alt if a.than}
        reads = "equipped" in subjects or (e.apply is not None and e.apply.on == "equipped")
        if reads and not equips and card.kind != "spell:equip":
            er.fail("apply" if e.apply is not None and e.apply.on == "equipped" else "condition",
                    f"{what} effect {k + 1}: 'equipped' is the monster this card is equipped to, and this card "
                    "never equips itself (it is no Equip Spell and has no 'equip' operation)")
        if k in equips and e.atk_def == "direct" and not any(
                c.apply is not None and c.apply.on == "equipped" and c.apply.do in effect_format.AMOUNT_CONTINUOUS
                for c in card.effects):
            er.fail("atk_def", f"{what} effect {k + 1}: 'atk_def' is 'direct' but neither its operations nor a "
                               "continuous effect on the equipped monster change ATK or DEF")


# the negations the model reads from one kind of card only (model/rules/effects.py): (types, words)
NEGATION_SOURCES = {"negate_monster_effects": (("spell", "trap"), "a Spell or Trap Card's effect (\"Skill Drain\")"),
                    "negate_trap_effects": (("monster",), "a monster's effect (\"Jinzo\")"),
                    "negate_opponent_monster_effects": (("monster",), "a monster's effect (\"Destiny HERO - Plasma\")"),
                    "negate_battle_opponent": (("spell", "trap"), "an Equip Card's effect (\"Rainbow Veil\")")}
# the events (vocab.CONDITIONS) about the effect's own card battling: only a monster's
BATTLE_EVENTS_OF_THIS_CARD = (
    "battling", "attacked", "attacked_face_down", "flipped_by_attack", "destroyed_by_battle", "destroys_by_battle",
    "battle_damage_dealt", "attacks_face_up_defense", "attacks_face_up_level_3_or_lower", "attacks_face_up",
    "attacks_face_down", "battled")



def reads_quantity(alternatives, q) -> bool:
    """Some atom of a condition's alternatives compares quantity `q`, on either side."""
    return any(q in (a.quantity, a.than and a.than[0]) for alt in alternatives for a in alt)


def parse_effect(value, doc, path, where, what) -> Effect:
    r = Reader(doc, path, where)
    d = r.obj(value, EFFECT_KEYS, f"{what} effect")
    w = f"{what} effect"
    e = Effect(kind=r.get(d, "kind", str, REQUIRED, choices=vocab.EFFECT_KINDS, what=w))
    e.from_ = r.get(d, "from", str, "field", choices=("field", "hand", "graveyard"), what=w)
    e.mandatory = r.get(d, "mandatory", bool, False, what=w)
    e.atk_def = r.get(d, "atk_def", str, "none", choices=vocab.ATK_DEF, what=w)
    e.negates = r.get(d, "negates_activation", str, "none", choices=vocab.NEGATES, what=w)
    e.trigger_class = r.get(d, "trigger_class", str, "none", choices=vocab.TRIGGER_CLASSES, what=w)
    e.fusion_summon = r.get(d, "fusion_summon", bool, False, what=w)
    timings = r.get(d, "timings", list, [], what=w)
    for t in timings:
        if t not in vocab.TIMINGS:
            r.fail("timings", f"{w}: timing {short(t)}; expected one of: {', '.join(vocab.TIMINGS)}")
    e.timings = tuple(timings)
    e.condition, e.atoms = effect_conditions.parse_condition(r, d.get("condition", "none"), w)
    if e.kind == "continuous" and e.condition != "none":
        # an event is what happened: it places a trigger; a continuous effect applies while a state holds
        r.fail("condition", f"{w}: a continuous effect applies while its condition's atoms hold; event "
                            f"{e.condition!r} places a trigger (write the state as atoms, e.g. "
                            "{'quantity': 'attacking', 'of': 'self'})")
    if e.condition in vocab.EVENTS and e.kind != "trigger":
        # the event makes a Trigger Effect pending (GEN-8); on any other kind it would hold always
        r.fail("condition", f"{w}: condition {e.condition!r} is the event of a Trigger Effect; kind is {e.kind!r}, "
                            "expected 'trigger'")
    e.ruling_allowed = r.get(d, "ruling_allowed", bool, False, what=w)
    e.no_damage_step = r.get(d, "no_damage_step", bool, False, what=w)
    e.text = r.get(d, "text", str, "", what=w)
    e.note = r.get(d, "note", str, "", what=w)
    e.not_modelled = r.get(d, "not_modelled", str, "", what=w)
    e.once = r.get(d, "once", str, "none", choices=vocab.ONCE, what=w)
    if e.kind == "continuous" and e.once != "none":
        r.fail("once", f"{w}: a continuous effect is never activated, so it has no once-per-turn limit")
    e.outside_battle_phase = r.get(d, "outside_battle_phase", str, "", what=w)
    if "outside_battle_phase" in d and not e.outside_battle_phase.strip():
        r.fail("outside_battle_phase", f"{w}: 'outside_battle_phase' is empty; expected what the text does "
                                       "outside the Battle Phase (\"a Main Phase Ignition Effect\"), or leave the key out")
    if "not_modelled" in d and not e.not_modelled.strip():
        r.fail("not_modelled", f"{w}: 'not_modelled' is empty; expected what the text does that the model "
                               "does not hold (or leave the field out)")
    e.unknown = parse_unknown(r, d, UNKNOWABLE_EFFECT, w)
    e.costs = effect_format.parse_costs(r, d, w, e.kind)
    e.target_filter, e.implied_target, e.second_filter, e.second_optional = effect_format.parse_target(r, d, w)
    e.choose = effect_format.parse_choose(r, d, w, e.kind)
    e.operations = effect_format.parse_operations(r, d, w, e.kind)
    on_choice = [k for k, o in enumerate(e.operations) if o.on == "choice"]
    if (e.choose is not None) != bool(on_choice):
        if e.choose is None:
            Reader(doc, path, where + ("operations", on_choice[0])).fail(
                "on", f"{w} operation {on_choice[0] + 1}: 'on': \"choice\" is the cards the effect chooses as it "
                      "resolves; give them in 'choose' (where from, which, how many)")
        r.fail("choose", f"{w}: 'choose' (cards chosen as it resolves) needs an operation on them (\"on\": \"choice\")")
    if e.choose is not None and e.choose.count > 1 and any(
            e.operations[k].amount_of in effect_format.CARD_AMOUNTS for k in on_choice):
        # "damage equal to its ATK" names one card: with two chosen it would say which
        r.fail("operations", f"{w}: an amount of the ATK of 'choice' names one card; this effect chooses "
                             f"{e.choose.count}")
    e.apply = effect_format.parse_apply(r, d, w, e.kind)
    if e.second_filter is not None and any(o.on == "chosen" and o.amount_of in effect_format.CARD_AMOUNTS
                                           for o in e.operations):
        # "damage equal to its ATK" names one card: with two targets it would say which
        r.fail("operations", f"{w}: an amount of the ATK of 'chosen' names one card; this effect targets two")
    at_calc = [k for k, o in enumerate(e.operations) if o.do in effect_format.AT_CALC]
    if at_calc and "during_calc" not in e.timings:
        # a gain "during damage calculation only" from an effect activated before it would apply nowhere
        # the text says; the texts that have one are activated during damage calculation ("Prideful Roar")
        k = at_calc[0]
        Reader(doc, path, where + ("operations", k)).fail(
            "do", f"{w} operation {k + 1}: {e.operations[k].do!r} (\"during damage calculation only\") "
                  "is for an effect activated during damage calculation: its 'timings' names \"during_calc\"")
    if e.apply is not None and e.apply.do == "self_destruct" and not e.atoms:
        # without a condition the card would be destroyed as soon as it is face-up: no text says that
        r.fail("apply", f"{w}: 'self_destruct' destroys its card while its condition holds; give the "
                        "condition (\"If ..., destroy this card\") as atoms in 'condition'")
    if e.apply is not None and e.apply.do == "counter_after_battle" and not e.atoms:
        # "Each time an opponent's monster battles": without one it would count every battle
        r.fail("apply", f"{w}: 'counter_after_battle' places its counters after a battle that meets its condition; "
                        "give the condition (which battle: e.g. an opponent's monster attacking) as atoms in 'condition'")
    if reads_quantity(e.atoms, "battle_damage_pending") and (e.apply is not None or
                                                            (e.mandatory and e.kind in ("trigger", "flip"))):
        # such a condition is read in every state (effects.watched_atoms), also by the continuous
        # effects damage calculation reads: the battle damage to come would be read in its own terms
        r.fail("condition", f"{w}: 'battle_damage_pending' is read as an effect is activated; a continuous "
                            "effect's or a mandatory Trigger Effect's condition is read in every state, where "
                            "the battle damage to come depends on the continuous effects that apply")
    res = r.get(d, "resolution", dict, None, what=w)
    if res is not None:   # the one-operation form of earlier catalogues (cards migrate rewrites it)
        if e.operations:
            r.fail("resolution", f"{w}: 'resolution' is the old one-operation form of 'operations'; give one of them")
        rr = Reader(doc, path, where + ("resolution",))
        rr.obj(res, {"do", "amount", "target"}, f"{w} resolution")
        do = rr.get(res, "do", str, "none", choices=vocab.RESOLUTIONS, what=w)
        e.legacy = True
        if do != "none":
            e.operations = (effect_format.Operation(
                do, rr.get(res, "target", str, "self", choices=vocab.TARGETS, what=w),
                rr.get(res, "amount", int, 0, what=w) if do == "atk_add" else 0),)
    if any(o.do == "equip" for o in e.operations) and e.target_filter is None:
        r.fail("operations", f"{w}: 'equip' equips this card to the monster its activation targets; give the "
                             "'target' (\"Equip only to ...\" is its filter; {} for any face-up monster)")
    # an effect that equips changes ATK or DEF through its card's continuous effects (parse_card)
    if e.atk_def == "direct" and not effect_format.changes_atk_def_directly(e.operations, e.apply) \
            and not any(o.do == "equip" for o in e.operations) \
            and "operations" not in e.unknown and "resolution" not in e.unknown and e.operations:
        r.fail("atk_def", f"{w}: 'atk_def' is 'direct' but no operation changes ATK or DEF")
    for t in e.timings if e.text else ():
        if not any(p in e.text.lower() for p in TIMING_PHRASES[t]):
            r.fail("timings", f"{w}: timing {t!r} is listed but the effect's text does not name it "
                              f"(expected {' or '.join(repr(p) for p in TIMING_PHRASES[t])}); "
                              "'timings' lists only the Damage Step timings the text names")
    return e


# what a card's text says when it names a timing (`timings` may list only what the text names)
TIMING_PHRASES = {
    "start_step": ("start of the battle phase", "start step"),
    "attack_declared": ("declares an attack", "attack declaration", "declared an attack",
                        "targeted for an attack", "selected as an attack target"),   # the target is chosen when the attack is declared
    "ds_start": ("start of the damage step",), "before_calc": ("before damage calculation",),
    "during_calc": ("during damage calculation", "during the damage calculation"),
    # a text that answers taking battle damage names the part after damage calculation, where
    # such effects activate (D4-5: "Gorz the Emissary of Darkness", "Numinous Healer")
    "after_calc": ("after damage calculation", "when you take"), "ds_end": ("end of the damage step",),
    "end_step": ("end of the battle phase", "end step"),
}


def parse_entries(entries, doc, path, where=()) -> list[Card]:
    if not isinstance(entries, list):
        raise CatalogueError(path, doc.line(where), "expected a list of cards")
    cards = [parse_card(v, doc, path, where + (k,)) for k, v in enumerate(entries)]
    seen = {}
    for k, c in enumerate(cards):
        if c.name in seen:
            raise CatalogueError(path, doc.line(where + (k,)), f"card {short(c.name)} is listed twice")
        seen[c.name] = c
    return cards


_LOADED: dict = {}   # (path, mtime, size) -> cards: an imported pool is parsed once per run, not per play


def _file_key(path: str):
    p = Path(path)
    try:
        st = p.stat()
    except OSError as e:
        raise CatalogueError(path, None, f"cannot read: {e.strerror}") from None
    return (str(p.resolve()), st.st_mtime_ns, st.st_size)


def load_file(path: str) -> list[Card]:
    key = _file_key(path)
    if key in _LOADED:
        return _LOADED[key]
    if key[2] > MAX_CATALOGUE_BYTES:
        raise CatalogueError(path, None, f"file is larger than {MAX_CATALOGUE_BYTES} bytes")
    # a FIFO or a device is refused; what is read is bounded whatever stat said (st_size only
    # spares reading a file already known to be too large)
    data = fileio.read_regular(path, MAX_CATALOGUE_BYTES, CatalogueError)
    if len(data) > MAX_CATALOGUE_BYTES:
        raise CatalogueError(path, None, f"file is larger than {MAX_CATALOGUE_BYTES} bytes")
    cards = parse_document(data, path)
    if len(_LOADED) > 8:
        _LOADED.clear()
    _LOADED[key] = cards
    return cards


def load_source(source) -> list[Card]:
    """A catalogue file's path, or (from the library API) a catalogue already in memory: a dict
    {"cards": [...]}, checked as the same document read from a file named `<cards dict>`."""
    if isinstance(source, Mapping):
        try:
            data = json.dumps(source, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError) as e:
            raise CatalogueError("<cards dict>", None, f"not a JSON document: {e}") from None
        return parse_document(data, "<cards dict>")
    return load_file(source)


def parse_document(data, path) -> list[Card]:
    """The cards of a catalogue file. The plain `json` parser reads it (ten times faster than the
    line-tracking one); only a document it refuses, or one with an error to report, is read
    again by `jsonloc`, whose messages give the line."""
    value = _fast_json(data)
    if value is not None:
        try:
            return _parse_value(jsonloc.Located(value, {}), path)
        except CatalogueError:
            pass   # reported below, with its line
    try:
        doc = jsonloc.loads(data, path, max_values=None)   # bounded by MAX_CATALOGUE_BYTES
    except jsonloc.JsonError as e:
        raise CatalogueError(path, e.line, e.message) from None
    return _parse_value(doc, path)


def _parse_value(doc: jsonloc.Located, path) -> list[Card]:
    if not isinstance(doc.value, dict) or set(doc.value) - {"cards"} or "cards" not in doc.value:
        raise CatalogueError(path, 1, 'expected an object {"cards": [...]}')
    return parse_entries(doc.value["cards"], doc, path, ("cards",))


class _Refused(Exception):
    pass


def _refuse(*_):
    raise _Refused


def _no_duplicates(pairs):
    d = dict(pairs)
    if len(d) != len(pairs):
        raise _Refused
    return d


def _finite(text):
    x = float(text)
    if x in (float("inf"), float("-inf")):
        raise _Refused
    return x


def _fast_json(data: bytes):
    """The document by `json.loads`, or None wherever jsonloc is stricter (duplicate keys, NaN,
    Infinity, floats out of range, lone surrogate escapes, deep nesting) or would say more."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    if _SURROGATE_ESCAPE.search(data):
        return None
    try:
        value = json.loads(data.decode("utf-8"), object_pairs_hook=_no_duplicates,
                           parse_constant=_refuse, parse_float=_finite)
    except (_Refused, ValueError, RecursionError):
        return None
    stack = [(value, 1)]
    while stack:   # the same nesting bound as jsonloc
        v, depth = stack.pop()
        if isinstance(v, (dict, list)):
            if depth > jsonloc.MAX_DEPTH:
                return None
            stack.extend((x, depth + 1) for x in (v.values() if isinstance(v, dict) else v))
    return value


_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


_BUILTIN: dict | None = None


def builtin() -> dict[str, Card]:
    global _BUILTIN
    if _BUILTIN is None:
        data = resources.files("ygo_timing.data").joinpath("cards.json").read_bytes()
        _BUILTIN = {c.name: c for c in parse_document(data, "fixtures/cards.json")}
    return _BUILTIN


_MERGED: dict = {}   # the files' keys -> the built-in catalogue merged with them, once per run


def _merged(sources) -> dict[str, Card]:
    cards = dict(builtin())
    for source in sources:
        cards.update({c.name: c for c in load_source(source)})
    return cards


def catalogue(extra_files=(), inline=()) -> Mapping[str, Card]:
    """The built-in catalogue, overridden by user files, then by cards given inline in a play
    (read-only: the merge of the files is shared by every play of a run). A source is a file's
    path or, from the library API, a catalogue in memory (load_source)."""
    if any(isinstance(source, Mapping) for source in extra_files):   # the API's cards in memory: not kept
        merged = MappingProxyType(_merged(extra_files))
    else:
        key = tuple(_file_key(p) for p in extra_files)
        if key not in _MERGED:
            if len(_MERGED) > 8:
                _MERGED.clear()
            _MERGED[key] = MappingProxyType(_merged(extra_files))
        merged = _MERGED[key]
    if not inline:
        return merged
    cards = dict(merged)
    for c in inline:
        cards[c.name] = c
    return MappingProxyType(cards)

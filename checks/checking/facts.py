"""Encoding a play's set-up as facts: the cards as solver indexes (Universe), what holds for the
whole play (Fact, with the words an explanation shows), the state before the first action, and
the catalogue the play is checked with."""
from __future__ import annotations

from dataclasses import dataclass

import z3
from ygo_timing.cards import catalogue
from ygo_timing.inputs import jsonloc
from ygo_timing.inputs.play import Play, PlayError
from ygo_timing.model import vocab
from ygo_timing.model.state import NONE

TIMING_WORDS = {
    "start_step": "at the start of the Battle Phase", "attack_declared": "when an attack is declared",
    "ds_start": "at the start of the Damage Step", "before_calc": "before damage calculation",
    "during_calc": "during damage calculation", "after_calc": "after damage calculation",
    "ds_end": "at the end of the Damage Step", "end_step": "at the end of the Battle Phase",
}


class Universe:
    """The play's cards as solver indexes, and the facts about them."""

    def __init__(self, play: Play, cards: dict):
        self.play = play
        self.specs = play.cards
        self.index = {c.label: i for i, c in enumerate(play.cards)}
        self.cards = []
        for spec in play.cards:
            card = cards.get(spec.name)
            if card is None:
                raise PlayError(play.path, spec.line, f"unknown card {spec.name!r}: not in the catalogue "
                                                      "(add it with --cards FILE or a `card:` line)")
            self.cards.append(card)
        self.effects = []   # (card index, effect number 1-based, Effect)
        self.eff_id = {}
        for i, card in enumerate(self.cards):
            for k, e in enumerate(card.effects, start=1):
                self.eff_id[(i, k)] = len(self.effects)
                self.effects.append((i, k, e))
        archetypes = sorted({c.archetype for c in self.cards if c.archetype})
        self.archetype_id = {a: n + 1 for n, a in enumerate(archetypes)}

    def card(self, label, line):
        if label is None:
            return NONE
        if label not in self.index:
            raise PlayError(self.play.path, line, f"no card labelled {label!r} in the set-up")
        return self.index[label]

    def effect(self, label, number, line):
        i = self.card(label, line)
        if (i, number) not in self.eff_id:
            n = len(self.cards[i].effects)
            raise PlayError(self.play.path, line, f"{self.specs[i].label!r} has {n} activatable effect(s) in the "
                                                  f"catalogue; effect {number} does not exist")
        return self.eff_id[(i, number)]

    def label(self, i):
        return self.specs[i].label if 0 <= i < len(self.specs) else "(none)"


@dataclass(frozen=True)
class Fact:
    """A fact that holds for the whole play: static function `fn` at `arg` is `value`."""
    fn: str               # the z3 name of a Statics function (or constant, with arg None)
    arg: int | None
    value: int | bool
    text: str             # how an explanation shows it ("" for bookkeeping facts)


def static_facts(uni: Universe, play: Play, neffects: int) -> list[Fact]:
    """Every fact that holds for the whole play; `neffects` is the relation's effect slots."""
    out = [Fact("turn", None, play.turn, f"turn {play.turn} (line {play.line_of.get('turn', '-')})"),
           Fact("turn_player", None, vocab.PLAYERS.index(play.turn_player),
                f"turn player {play.turn_player} (line {play.line_of.get('turn_player', '-')})")]
    for i, (spec, card) in enumerate(zip(uni.specs, uni.cards)):
        n = spec.label
        cm = card.calc_modifier or {}
        out += [Fact(fn, i, value, text) for fn, value, text in (
            ("controller", vocab.PLAYERS.index(spec.player), f"{n}: controlled by {spec.player} (line {spec.line})"),
            ("card_kind", vocab.K[card.kind], f"{n}: {card.subtype} {card.type} (catalogue)"),
            ("level", card.level or 0, f"{n}: Level {card.level} (catalogue)"),
            ("original_atk", card.atk or 0, f"{n}: original ATK {card.atk} (catalogue)"),
            ("must_attack", card.must_attack, f"{n}: {'must' if card.must_attack else 'need not'} attack (catalogue)"),
            ("calc_modifier_amount", cm.get("amount", 0), f"{n}: damage-calculation ATK bonus {cm.get('amount', 0)} (catalogue)"),
            ("calc_modifier_to_attacker", cm.get("applies_to", "attacker") == "attacker", f"{n}: bonus applies to the {cm.get('applies_to', 'attacker')} (catalogue)"),
            ("calc_modifier_when", vocab.CALC_MODIFIER_WHEN.index(cm.get("when", "always")), f"{n}: bonus applies {cm.get('when', 'always')} (catalogue)"),
            ("battle_damage_modifier", vocab.BATTLE_DAMAGE_MODIFIERS.index(card.battle_damage_modifier), f"{n}: battle damage modifier {card.battle_damage_modifier} (catalogue)"),
            ("archetype", uni.archetype_id.get(card.archetype, 0), f"{n}: archetype {card.archetype or 'none'} (catalogue)"),
            ("extra_attacks", card.extra_attacks + sum(1 for e in spec.equip if e == "Tyrant Wing"), f"{n}: extra attacks (catalogue / equip, line {spec.line})"),
            ("attack_restriction_tyrant_wing", "Tyrant Wing" in spec.equip or card.attack_restriction == "tyrant_wing", f"{n}: \"Tyrant Wing\" restriction (line {spec.line})"),
        )]
    for e, (i, k, eff) in enumerate(uni.effects):
        n = uni.specs[i].label + (f" effect {k}" if len(uni.cards[i].effects) > 1 else "")
        out += [Fact(fn, e, value, text) for fn, value, text in (
            ("effect_card", i, ""),
            ("effect_kind", vocab.EK[eff.kind], f"{n}: {eff.kind} effect (catalogue)"),
            ("from_hand", eff.from_ == "hand", f"{n}: activated from the {eff.from_} (catalogue)"),
            ("from_graveyard", eff.from_ == "graveyard", f"{n}: activated from the {eff.from_} (catalogue)"),
            ("mandatory", eff.mandatory, f"{n}: {'mandatory' if eff.mandatory else 'optional'} (catalogue)"),
            ("atk_def", vocab.AD[eff.atk_def], f"{n}: " + ({"none": "does not change ATK/DEF", "direct": "changes ATK/DEF directly", "indirect": "changes ATK/DEF indirectly", "maybe": "may or may not change ATK/DEF"}[eff.atk_def]) + " (catalogue)"),
            ("negates", vocab.NG[eff.negates], f"{n}: " + ("negates no activation" if eff.negates == "none" else f"negates the activation of: {eff.negates}") + " (catalogue)"),
            ("trigger_class", vocab.TC[eff.trigger_class], f"{n}: trigger class {eff.trigger_class} (catalogue)"),
            ("fusion_summon", eff.fusion_summon, f"{n}: {'is' if eff.fusion_summon else 'is not'} a Fusion Summon effect (catalogue)"),
            ("condition", vocab.CO[eff.condition], f"{n}: condition {eff.condition} (catalogue)"),
            ("ruling_allowed", eff.ruling_allowed, f"{n}: {'allowed' if eff.ruling_allowed else 'not allowed'} in the Damage Step by a ruling (catalogue)"),
            ("no_damage_step", eff.no_damage_step, f"{n}: {'cannot' if eff.no_damage_step else 'does not say it cannot'} be activated during the Damage Step (catalogue)"),
            ("resolution", vocab.RS[eff.resolution], f"{n}: resolves as {eff.resolution} (catalogue)"),
            ("amount", eff.amount, f"{n}: amount {eff.amount} (catalogue)"),
            ("resolution_target", vocab.TARGETS.index(eff.target), f"{n}: applies to {eff.target} (catalogue)"),
        )]
        for t in vocab.TIMINGS:
            named = t in eff.timings
            out.append(Fact(f"names_{t}", e, named, f"{n}: {'names' if named else 'names no'} \"{TIMING_WORDS[t]}\" timing (catalogue)"))
    # the relation has room for more effects than the play uses: the spare ones never trigger
    for e in range(len(uni.effects), neffects):
        out += [Fact("effect_kind", e, vocab.EK["continuous"], ""), Fact("effect_card", e, NONE, "")]
    return out


def fact_terms(S, facts: list[Fact]):
    """(z3 term, text) for each fact, over the Statics record `S`."""
    fns = statics_by_name(S)
    return [((fns[f.fn] if f.arg is None else fns[f.fn](f.arg)) == f.value, f.text) for f in facts]


def statics_by_name(S):
    out = {}
    for v in vars(S).values():
        for f in (v.values() if isinstance(v, dict) else [v]):
            out[f.name() if isinstance(f, z3.FuncDeclRef) else f.decl().name()] = f
    return out


def fact_tables(facts: list[Fact]):
    """The facts as the compiled relation reads them: per function {arg: value}, and constants."""
    tables, consts = {}, {}
    for f in facts:
        if f.arg is None:
            consts[f.fn] = f.value
        else:
            tables.setdefault(f.fn, {})[f.arg] = f.value
    return tables, consts


def initial_state(layout, uni: Universe, play: Play) -> dict:
    """Concrete values of every state variable before the first action, by name."""
    tp = vocab.PLAYERS.index(play.turn_player)
    v = {name: False if is_bool else 0 for name, is_bool in layout}
    v.update(window=vocab.W["main1"], prio=tp, attacker=NONE, target=NONE)
    for k in range(vocab.MAX_CHAIN):
        v[f"link_eff[{k}]"] = 0
        v[f"link_target[{k}]"] = NONE
    v["lp[0]"], v["lp[1]"] = play.lp["A"], play.lp["B"]
    for i, (spec, card) in enumerate(zip(uni.specs, uni.cards)):
        v[f"loc[{i}]"] = vocab.L[spec.zone]
        v[f"faceup[{i}]"] = spec.face_up
        v[f"defpos[{i}]"] = spec.defense
        v[f"atk[{i}]"] = spec.atk if spec.atk is not None else (card.atk or 0)
        v[f"def_[{i}]"] = spec.def_ if spec.def_ is not None else (card.def_ or 0)
    return v


def py_value(expr):
    """A z3 Boolean or integer value as Python's."""
    if z3.is_true(expr):
        return True
    if z3.is_false(expr):
        return False
    return expr.as_long()


def play_cards(play: Play, cards_files=()) -> dict:
    """The catalogue a play is checked with: built-in, then --cards files, then its `card:` lines."""
    inline = []
    for i, c in enumerate(play.custom_cards):
        lines = {k[2:]: v for k, v in play.line_of.items()
                 if isinstance(k, tuple) and k[:2] == ("custom_cards", i)}
        inline.append(catalogue.parse_card(c, jsonloc.Located(c, lines), play.path, ()))
    return catalogue.catalogue(cards_files, inline)

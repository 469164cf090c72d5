"""Encoding a play's set-up as facts: the cards as solver indexes (Universe), what holds for the
whole play (Fact, with the words an explanation shows), the state before the first action, and
the catalogue the play is checked with."""
from __future__ import annotations

from typing import NamedTuple

import z3
from ygo_timing.cards import catalogue
from ygo_timing.checking import wording
from ygo_timing.inputs import jsonloc
from ygo_timing.inputs.play import Play, PlayError
from ygo_timing.model import vocab
from ygo_timing.model.state import NONE


def watched(eff) -> bool:
    """The relation builds this effect's atoms (and a mandatory trigger's target filter) in every
    state (Universe.watched)."""
    owed = eff.mandatory and eff.kind in ("trigger", "flip")
    return (bool(eff.atoms) and (owed or eff.apply is not None)) or (owed and eff.target_filter is not None)


def selectors(card):
    """Every selector of a card's effects (its operations' and its continuous effects')."""
    for e in card.effects:
        yield from (o.select for o in e.operations)
        yield from (o.count for o in e.operations if o.count is not None)
        if e.apply is not None:
            yield e.apply.select
        yield from (a.select for alt in e.atoms for a in alt if a.select is not None)


def atom_values(cards, quantity) -> set:
    """The values the cards' atoms about `quantity` name (in conditions, target filters, costs'
    filters and choices): the archetypes or card names a play's ids must cover."""
    return {a.value for c in cards for e in c.effects
            for alt in e.atoms + ((e.target_filter or ()), (e.second_filter or ()))
            + tuple(c.filter for c in e.costs) + ((e.choose.filter if e.choose else ()),)
            for a in alt if a.quantity == quantity and isinstance(a.value, str)}


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
        for spec, card in zip(self.specs, self.cards):   # `equipped-to`: the set-up's Equip Cards (GEN-20)
            if spec.equipped_to is not None:
                monster = self.cards[self.index[spec.equipped_to]]
                if card.type == "monster" or monster.type != "monster":
                    raise PlayError(play.path, spec.line, f"{spec.label!r} is set up equipped to {spec.equipped_to!r}: "
                                    "an Equip Card is a Spell or Trap Card equipped to a monster; "
                                    f"this is a {card.type} card equipped to a {monster.type} card")
        self.effects = []   # (card index, effect number 1-based, Effect)
        self.eff_id = {}
        for i, card in enumerate(self.cards):
            for k, e in enumerate(card.effects, start=1):
                self.eff_id[(i, k)] = len(self.effects)
                self.effects.append((i, k, e))
        if len(self.effects) > vocab.MAX_PLAY_EFFECTS:   # keeps building the relation within a deadline
            raise PlayError(play.path, None, f"the play's cards have {len(self.effects)} activatable effects; "
                                             f"a play may have at most {vocab.MAX_PLAY_EFFECTS}")
        archetypes = sorted({c.archetype for c in self.cards if c.archetype} | atom_values(self.cards, "archetype") |
                            {sel.archetype for c in self.cards for sel in selectors(c) if sel.archetype} |
                            {c.calc_modifier["attacker_archetype"] for c in self.cards
                             if c.calc_modifier and c.calc_modifier.get("attacker_archetype")})
        self.archetype_id = {a: n + 1 for n, a in enumerate(archetypes)}
        # a selector's `other: "name"` tells cards of one name from the others, a selector's `name`
        # its cards and a `name` atom its card (a name no card of the play has gets an id of its own)
        self.name_id = {name: n + 1 for n, name in enumerate(sorted({c.name for c in self.cards} |
                                                                    {sel.name for c in self.cards for sel in selectors(c) if sel.name} |
                                                                    atom_values(self.cards, "name")))}
        # effects whose condition atoms every state must build (model/rules/effects.watched_atoms):
        # a mandatory trigger's decide whether it is owed, a continuous effect's whether it
        # applies; each takes a watched slot, and slots come in pairs so that plays share relations
        self.watched = [e for e, (_, _, eff) in enumerate(self.effects) if watched(eff)]
        self.nwatched = -(-len(self.watched) // 2) * 2
        self.used = [self.spent_before(i, k) for i, spec in enumerate(self.specs) for k in spec.used]

    def spent_before(self, i, k):
        """The effect whose limit the set-up's `used k` on card i says a use before the play spent:
        one that has a limit a turn (or a Duel) keeps; a once-per-battle limit is restored when a
        battle ends, and the play's first battle starts after the set-up (GEN-3)."""
        spec = self.specs[i]
        if (i, k) not in self.eff_id:
            raise PlayError(self.play.path, spec.line, f"'used {k}': {spec.name!r} has {len(self.cards[i].effects)} "
                                                      f"activatable effect(s) in the catalogue; expected 1 to that")
        e = self.eff_id[(i, k)]
        once = self.effects[e][2].once
        if once in ("none", "per_battle"):
            raise PlayError(self.play.path, spec.line, f"'used {k}': effect {k} of {spec.name!r} has "
                            + ("no once-per-turn limit" if once == "none" else "a once-per-battle limit, which no "
                               "battle before the play can have spent (GEN-3)")
                            + "; expected an effect whose `once` is per_turn, per_turn_by_name, "
                              "per_turn_by_card_name or per_duel")
        return e

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


class Fact(NamedTuple):
    """A fact that holds for the whole play: static function `fn` at `arg` is `value`. A named
    tuple: a play makes some hundreds, and a frozen dataclass's constructor cost a third of a
    legal check's set-up (docs/performance.md, "A native relation")."""
    fn: str               # the z3 name of a Statics function (or constant, with arg None)
    arg: int | None
    value: int | bool
    text: str             # how an explanation shows it ("" for bookkeeping facts)


def static_facts(uni: Universe, play: Play, neffects: int, nwatched: int) -> list[Fact]:
    """Every fact that holds for the whole play; `neffects` and `nwatched` are the relation's
    effect slots and watched slots (Universe.nwatched)."""
    if len(uni.watched) > nwatched:
        raise ValueError(f"{len(uni.watched)} effects with watched conditions; the relation has {nwatched} slots")
    out = [Fact("turn", None, play.turn, f"turn {play.turn} (line {play.line_of.get('turn', '-')})"),
           Fact("turn_player", None, vocab.PLAYERS.index(play.turn_player),
                f"turn player {play.turn_player} (line {play.line_of.get('turn_player', '-')})")]
    for i, (spec, card) in enumerate(zip(uni.specs, uni.cards)):
        out += [Fact(fn, i, value, text)
                for fn, value, text in wording.card_facts(spec.label, spec, card, card.calc_modifier or {},
                                                          uni.archetype_id, uni.name_id[card.name])]
        applies = [e.apply for e in card.effects if e.apply is not None]
        out += [Fact(fn, i * vocab.MAX_CONTINUOUS + k, value, text)
                for fn, k, value, text in wording.continuous_facts(spec.label, applies, uni.archetype_id, uni.name_id)]
        conditioned = [k for k, e in enumerate(card.effects, start=1) if e.apply is not None]
        for k in range(vocab.MAX_CONTINUOUS):   # a condition's words are its effect's (slot_facts)
            e = uni.eff_id[(i, conditioned[k])] if k < len(conditioned) else None
            out.append(Fact("continuous_watch", i * vocab.MAX_CONTINUOUS + k,
                            uni.watched.index(e) + 1 if e in uni.watched else 0, ""))
    # "no card" (NONE) is an index too: a term may read a static of it (an absent attack target's
    # controller); the compiled relation reads an absent fact as 0, so the solver is told the same
    per_card = {f.fn: isinstance(f.value, bool) for f in out if f.arg is not None}
    out += [Fact(fn, NONE, False if boolean else 0, "") for fn, boolean in sorted(per_card.items())]
    for e, (i, k, eff) in enumerate(uni.effects):
        n = uni.specs[i].label + (f" effect {k}" if len(uni.cards[i].effects) > 1 else "")
        out.append(Fact("effect_card", e, i, ""))
        out += [Fact(fn, e, value, text) for fn, value, text in wording.effect_facts(n, eff)]
        out += [Fact(fn, e if k is None else e * wording.SLOT_WIDTH[fn] + k, value, text)
                for fn, k, value, text in wording.slot_facts(n, eff, uni.archetype_id, uni.name_id)]
        for t in vocab.TIMINGS:
            out.append(Fact(f"names_{t}", e, t in eff.timings, wording.timing_fact(n, t, t in eff.timings)))
    # the relation has room for more effects than the play uses: the spare ones never trigger,
    # and their composition is empty (a free slot would let the solver pick one the compiled
    # relation does not: model/compiled.py reads an absent fact as 0)
    blank = catalogue.Effect(kind="continuous")
    empty = [(fn, None, value) for fn, value, _ in wording.effect_facts("", blank)]
    empty += [(f"names_{t}", None, False) for t in vocab.TIMINGS]
    empty += [(fn, k, value) for fn, k, value, _ in wording.slot_facts("", blank, {}, {})]
    for e in range(len(uni.effects), neffects):
        out.append(Fact("effect_card", e, NONE, ""))
        out += [Fact(fn, e if k is None else e * wording.SLOT_WIDTH[fn] + k, value, "") for fn, k, value in empty]
    # once-per-turn limits: the effects that share one share a group (a copy's own; or, for a
    # player, every card of the name they control: its same effect, or every effect of it); 0 for
    # none, and for the spare effects. A name's limit is each player's ("You can only ...": the
    # opponent's copies keep theirs; docs/interpretations.md "Once-per-turn limits")
    groups: dict = {}
    for e, (i, k, eff) in enumerate(uni.effects):
        whose = (uni.specs[i].player, uni.cards[i].name)
        key = {"per_turn": (e,), "per_battle": (e,), "per_turn_by_name": whose + (k,),
               "per_turn_by_card_name": whose, "per_duel": ("duel",) + whose + (k,)}.get(eff.once)
        group = 0 if eff.once == "none" else groups.setdefault(key, len(groups) + 1)
        words = wording.once_fact(uni.specs[i].label, k, eff.once)
        out += [Fact("once_group", e, group, words), Fact("once_per_battle", e, eff.once == "per_battle", words)]
    out += [Fact(fn, e, value, "") for e in range(len(uni.effects), neffects)
            for fn, value in (("once_group", 0), ("once_per_battle", False))]
    # the relation's watched slots: a spare one names no effect
    out += [Fact("watched_effect", k, uni.watched[k] if k < len(uni.watched) else NONE, "") for k in range(nwatched)]
    return out


def fact_terms(S, facts: list[Fact], cache: dict | None = None):
    """(z3 term, text) for each fact, over the Statics record `S`. `cache` (the relation's, kept
    for the process) holds the terms made before: plays of one batch share most of their facts.
    The terms are made with z3's C API: the Python wrappers' coercions cost ~0.1 ms a fact, more
    than an illegal play's other set-up (docs/performance.md)."""
    cache = {} if cache is None else cache
    fns = None
    out = []
    for f in facts:
        key = (f.fn, f.arg, f.value)
        term = cache.get(key)
        if term is None:
            fns = fns or statics_by_name(S)
            term = cache[key] = equation(fns[f.fn], f.arg, f.value)
        out.append((term, f.text))
    return out


def equation(fn, arg, value) -> z3.BoolRef:
    """`fn(arg) == value` (`fn == value` for a constant or a variable), the term z3's Python
    API makes, at half its cost (a check's facts are some hundreds of these). Each
    new term is wrapped at once: the wrapper holds its reference count (z3 may free a term
    nothing holds)."""
    c = fn.ctx
    ref = c.ref()
    if arg is None:
        lhs = fn
    else:
        n = z3.ExprRef(z3.Z3_mk_int64(ref, arg, z3.Z3_get_domain(ref, fn.ast, 0)), c)
        lhs = z3.ExprRef(z3.Z3_mk_app(ref, fn.ast, 1, (z3.Ast * 1)(n.ast)), c)
    sort = z3.Z3_get_sort(ref, lhs.ast)
    if z3.Z3_get_sort_kind(ref, sort) == z3.Z3_BOOL_SORT:
        rhs = z3.ExprRef(z3.Z3_mk_true(ref) if value else z3.Z3_mk_false(ref), c)
    else:
        rhs = z3.ExprRef(z3.Z3_mk_int64(ref, int(value), sort), c)
    return z3.BoolRef(z3.Z3_mk_eq(ref, lhs.ast, rhs.ast), c)


def statics_by_name(S):
    out = {}
    stack = list(vars(S).values())
    while stack:
        v = stack.pop()
        if isinstance(v, dict):   # names_<timing>, and the atoms' functions per prefix
            stack.extend(v.values())
        else:
            out[v.name() if isinstance(v, z3.FuncDeclRef) else v.decl().name()] = v
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
        v[f"link_target2[{k}]"] = NONE
    v["lp[0]"], v["lp[1]"] = play.lp["A"], play.lp["B"]
    for i, (spec, card) in enumerate(zip(uni.specs, uni.cards)):
        v[f"loc[{i}]"] = vocab.L[spec.zone]
        v[f"faceup[{i}]"] = spec.face_up
        v[f"defpos[{i}]"] = spec.defense
        v[f"ssum[{i}]"] = spec.special_summoned   # the set-up's special-summoned (docs/format.md)
        v[f"sumt[{i}]"] = vocab.SUMMONED_THIS_TURN.index(   # the set-up's (flip-)summoned-this-turn
            "flip" if spec.flip_summoned_this_turn else "normal_or_special" if spec.summoned_this_turn else "no")
        v[f"counters[{i}]"] = spec.counters       # the set-up's counters N
        v[f"atk[{i}]"] = spec.atk if spec.atk is not None else (card.atk or 0)
        v[f"def_[{i}]"] = spec.def_ if spec.def_ is not None else (card.def_ or 0)
        # the set-up's `equipped-to` (GEN-20); NONE: not an Equip Card equipped to a monster
        v[f"equip[{i}]"] = uni.index[spec.equipped_to] if spec.equipped_to is not None else NONE
        v[f"recorded[{i}]"] = NONE   # no "Mirror Wall" has recorded it before the play
    for e in uni.used:   # the set-up's `used N`: a limit spent before the play (GEN-5)
        v[f"used[{e}]"] = True
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

"""An effect's condition (docs/cards-format.md): its atoms (Atom, the quantities they compare and the
range of each), the and/or/not tree they form, its reader and its writer back to the format. A
module of its own because a condition is read in more places than the condition field: a cost's,
a target's and a choice's filter are conditions too (effect_format.py reads them with this).

A condition is any and/or/not tree; it is normalised here to what the relation has slots for
(vocab.CONDITION_ALTERNATIVES alternatives of vocab.CONDITION_ATOMS atoms, plus at most one event
from vocab.CONDITIONS, which places a trigger), and refused with its line when it does not fit.
"""
from __future__ import annotations

from dataclasses import dataclass

from ygo_timing.model import vocab

from .effect_selectors import Select, _select, select_dict
from .reader import REQUIRED, Reader, did_you_mean, short

TRUTH = ("face_up", "defense_position", "yours", "battling", "attacking", "attacked", "special_summoned",
         "summoned_this_turn", "flip_summoned_this_turn", "destroyed_by_battle", "turn", "direct_attack", "damage_step", "damage_calculation")
NAMED = {"location": vocab.LOCATIONS, "attribute": vocab.ATTRIBUTES, "monster_type": vocab.MONSTER_TYPES,
         "card_type": vocab.CARD_TYPES, "card_kind": vocab.CARD_KINDS}
NUMERIC = ("atk", "def", "level", "original_atk", "original_def", "lp", "monsters", "cards", "hand",
           "battle_damage", "battle_damage_pending", "chain_length", "selected", "counters")
# the range of each quantity, for refusing a condition no card or state can ever meet
DOMAIN = {**{q: (0, 1) for q in TRUTH}, **{q: (0, len(v) - 1) for q, v in NAMED.items()},
          "level": (0, 13), "archetype": (0, 10**6), "chain_length": (0, vocab.MAX_CHAIN),
          "selected": (0, 10), "counters": (0, vocab.MAX_COUNTERS)}   # at most 5 monsters a side (SELECTED_SPELLS_TRAPS: Spell/Trap Cards)
SELECTED_SPELLS_TRAPS = (0, 12)   # at most 6 a side: 5 in the Spell & Trap Zone, 1 in the Field Zone
SELECTED_GRAVEYARD = (0, vocab.MAX_CARDS)   # the play's cards in the Graveyards
MAX_ALTERNATIVES_WHILE_NORMALISING = 16


@dataclass(frozen=True)
class Atom:
    """`quantity` of `of` compared (`cmp`) with `value`, plus `than`'s quantity when given."""
    quantity: str
    of: str | None
    cmp: str
    value: int | str = 0          # a number, or an archetype's name (facts.py gives it an id)
    than: tuple | None = None     # (quantity, of) on the right-hand side, or None
    select: "Select | None" = None   # `selected`: which monsters it counts

    def negated(self):
        return Atom(self.quantity, self.of, vocab.NEGATED_COMPARISON[self.cmp], self.value, self.than, self.select)


# quantities whose value is a name the play gives an id (facts.Universe): an archetype, a card name
NAME_QUANTITIES = {"archetype": "an archetype", "name": "a card name"}


def parse_atom(r: Reader, d, what, subject_default=None) -> Atom:
    r.obj(d, {"quantity", "of", "cmp", "value", "than", "select"}, what)
    q = r.get(d, "quantity", str, REQUIRED, choices=vocab.QUANTITIES[1:], what=what)
    if ("select" in d) != (q == "selected"):
        r.fail("select" if "select" in d else None,
               f"{what}: 'select' (which monsters it counts) goes with quantity 'selected' and only with it")
    select = _select(r, d, what, "all") if q == "selected" else None
    of = _subject(r, d, "of", q, what, subject_default)
    cmp = r.get(d, "cmp", str, "==", choices=vocab.COMPARISONS, what=what)
    if q in NAME_QUANTITIES and cmp not in ("==", "!="):
        r.fail("cmp", f"{what}: {q!r} is a name: it is compared with == or !=, got {cmp!r}")
    than = None
    if "than" in d:
        if q not in NUMERIC:
            r.fail("than", f"{what}: 'than' compares numbers; {q!r} is not a number")
        rr = Reader(r.doc, r.path, r.where + ("than",))
        t = rr.obj(d["than"], {"quantity", "of"}, f"{what} than")
        q2 = rr.get(t, "quantity", str, REQUIRED, choices=tuple(n for n in NUMERIC if n != "selected"), what=f"{what} than")
        than = (q2, _subject(rr, t, "of", q2, f"{what} than", subject_default))
    value = _value(r, d, q, what, required=than is None)
    atom = Atom(q, of, cmp, value, than, select)
    if than is None and not satisfiable([atom]):
        r.fail("value", f"{what}: {q} {cmp} {short(value)} holds for no card or state ever")
    return atom


def _subject(r, d, key, q, what, default):
    if q in vocab.GAME_QUANTITIES:
        if key in d:
            r.fail(key, f"{what}: {q!r} is about the game; it takes no {key!r}")
        return None
    choices = vocab.PLAYER_SUBJECTS if q in vocab.PLAYER_QUANTITIES else vocab.CARD_SUBJECTS
    fallback = "you" if q in vocab.PLAYER_QUANTITIES else (default or "self")
    return r.get(d, key, str, fallback, choices=choices, what=what)


def _value(r, d, q, what, required):
    if "value" not in d:
        if q in TRUTH:
            return 1
        if required:
            r.fail(None, f"{what}: missing required key 'value' (or 'than')")
        return 0
    v = d["value"]
    if q in TRUTH:
        if not isinstance(v, bool):
            r.fail("value", f"{what}: {q!r} is true or false, got {short(v)}")
        return int(v)
    if q in NAMED:
        names = NAMED[q]
        name = v.lower() if isinstance(v, str) else v
        if name not in names:
            r.fail("value", f"{what}: {q} {short(v)}{did_you_mean(name, names)}; expected one of: {', '.join(names)}")
        return names.index(name)
    if q in NAME_QUANTITIES:
        if not isinstance(v, str) or not v.strip() or len(v) > 100:
            r.fail("value", f"{what}: {NAME_QUANTITIES[q]} is a name of 1-100 characters, got {short(v)}")
        return v
    if not isinstance(v, int) or isinstance(v, bool) or not -10**6 <= v <= 10**6:
        r.fail("value", f"{what}: {q!r} is compared with a whole number (-1000000..1000000), got {short(v)}")
    return v


def _holds(x, cmp, v):
    return {"==": x == v, "!=": x != v, "<": x < v, "<=": x <= v, ">": x > v, ">=": x >= v}[cmp]


def satisfiable(atoms) -> bool:
    """Some value of each quantity meets every atom (with a constant right-hand side) about it."""
    groups: dict = {}
    for a in atoms:
        if a.than is None and not isinstance(a.value, str):
            # `selected` atoms with different selectors count different cards
            groups.setdefault((a.quantity, a.of, a.select), []).append(a)
    for (q, _, select), group in groups.items():
        cards = select.cards if select is not None else None
        lo, hi = {"spells_traps": SELECTED_SPELLS_TRAPS, "graveyard": SELECTED_GRAVEYARD}.get(cards) or \
            DOMAIN.get(q, (0, 10**7))
        points = {lo, hi} | {p for a in group for p in (a.value - 1, a.value, a.value + 1)}
        if not any(lo <= p <= hi and all(_holds(p, a.cmp, a.value) for a in group) for p in points):
            return False
    return True


# --- conditions: any and/or/not tree -> (event, alternatives) -----------------------------------
def parse_condition(r: Reader, value, what, key="condition", allow_events=True, subject_default=None, limit=None):
    """(event name, alternatives: tuple of tuples of Atom) of a condition tree at `key`. `limit`:
    (alternatives, atoms, the message) when the slots are fewer than a condition's (a target's
    filter)."""
    alts = _dnf(Reader(r.doc, r.path, r.where + (key,)), value, what, allow_events, subject_default)
    events = {frozenset(e for e in alt if isinstance(e, str)) for alt in alts}
    if len(events) > 1:
        r.fail(key, f"{what}: every alternative of a condition must name the same event "
                    f"({', '.join(sorted(set().union(*events))) or 'none'}): the event places a trigger")
    event_set = next(iter(events)) if events else frozenset()
    if len(event_set) > 1:
        r.fail(key, f"{what}: at most one event per condition, got {', '.join(sorted(event_set))}")
    event = next(iter(event_set)) if event_set else "none"
    alternatives = []
    for alt in alts:
        atoms = tuple(dict.fromkeys(a for a in alt if isinstance(a, Atom)))
        if not satisfiable(atoms):
            continue   # an alternative no state meets adds nothing
        if not atoms:
            alternatives = None   # one alternative is the event alone: the atoms add nothing
            break
        if atoms not in alternatives:
            alternatives.append(atoms)
    if alternatives is None:
        return event, ()
    if not alternatives:
        r.fail(key, f"{what}: this condition holds for no card or state ever")
    if limit is not None:   # the filter's own slots, which replace the condition's
        most_alternatives, most_atoms, message = limit
        if len(alternatives) > most_alternatives or any(len(a) > most_atoms for a in alternatives):
            r.fail(key, message)
    elif len(alternatives) > vocab.CONDITION_ALTERNATIVES or any(len(a) > vocab.CONDITION_ATOMS for a in alternatives):
        r.fail(key, f"{what}: a condition may have at most {vocab.CONDITION_ALTERNATIVES} alternatives ('any') "
                    f"of at most {vocab.CONDITION_ATOMS} atoms each once written as an 'any' of 'all's; "
                    f"this one has {len(alternatives)} of up to {max(len(a) for a in alternatives)}")
    return event, tuple(alternatives)


def _dnf(r: Reader, value, what, allow_events, subject_default, negate=False):
    """A list of alternatives, each a list of event names and Atoms."""
    if isinstance(value, str):
        if not allow_events:
            r.fail(None, f"{what}: an event ({short(value)}) cannot be part of a target's filter; write atoms")
        if value not in vocab.CONDITIONS:
            r.fail(None, f"{what}: unknown event {short(value)}{did_you_mean(value, vocab.CONDITIONS)}; expected an "
                         f"atom object, all/any/not, or one of: {', '.join(vocab.CONDITIONS)}")
        if negate and value != "none":
            r.fail(None, f"{what}: an event cannot be negated ('not' {value!r}): write what the text asks for")
        return [[]] if value == "none" else [[value]]
    if not isinstance(value, dict):
        r.fail(None, f"{what}: a condition is an event name, an atom object or an all/any/not object")
    if len(value) == 1 and next(iter(value)) in ("all", "any", "not"):
        op, arg = next(iter(value.items()))
        sub = Reader(r.doc, r.path, r.where + (op,))
        if op == "not":
            return _dnf(sub, arg, what, allow_events, subject_default, not negate)
        if not isinstance(arg, list) or not arg:
            sub.fail(None, f"{what}: {op!r} takes a non-empty list")
        parts = [_dnf(Reader(r.doc, r.path, r.where + (op, k)), v, what, allow_events, subject_default, negate)
                 for k, v in enumerate(arg)]
        if (op == "any") != negate:   # or: the alternatives side by side
            out = [alt for p in parts for alt in p]
        else:                          # and: every combination
            out = [[]]
            for p in parts:
                out = [a + b for a in out for b in p]
                if len(out) > MAX_ALTERNATIVES_WHILE_NORMALISING:
                    break
        if len(out) > MAX_ALTERNATIVES_WHILE_NORMALISING:
            r.fail(None, f"{what}: this condition has more than {MAX_ALTERNATIVES_WHILE_NORMALISING} alternatives "
                         "once written as an 'any' of 'all's")
        return out
    atom = parse_atom(r, value, f"{what} atom", subject_default)
    return [[atom.negated() if negate else atom]]


# --- writing a condition back (cards --format json, cards migrate) ------------------------------
def atom_dict(a: Atom, of: bool = True) -> dict:
    """An atom as the catalogue writes it; `of` False: without its subject (a cost's filter)."""
    d = {"quantity": a.quantity}
    if a.of is not None and of:
        d["of"] = a.of
    if a.cmp != "==":
        d["cmp"] = a.cmp
    if a.quantity in NAMED:
        d["value"] = NAMED[a.quantity][a.value]
    elif a.quantity in TRUTH:
        d["value"] = bool(a.value)
    elif a.than is None or a.value:
        d["value"] = a.value
    if a.than is not None:
        d["than"] = {"quantity": a.than[0], "of": a.than[1]}
    if a.select is not None:
        d["select"] = select_dict(a.select)
    return d


def condition_value(event: str, alternatives: tuple):
    """The condition as the format writes it: the event's name alone, or an all/any tree."""
    if not alternatives:
        return event
    lead = [event] if event != "none" else []
    alts = [lead + [atom_dict(a) for a in alt] for alt in alternatives]
    alls = [{"all": alt} if len(alt) > 1 else alt[0] for alt in alts]
    return alls[0] if len(alls) == 1 else {"any": alls}

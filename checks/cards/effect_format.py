"""An effect as a composition (docs/cards-format.md): a condition over atoms, costs, a target with
a filter, operations, and, for a continuous effect, what it applies. This module reads and checks
those fields of a catalogue entry; model/rules/effects.py gives them their meaning.

A condition is any and/or/not tree; it is normalised here to what the relation has slots for
(vocab.CONDITION_ALTERNATIVES alternatives of vocab.CONDITION_ATOMS atoms, plus at most one event
from vocab.CONDITIONS, which places a trigger), and refused with its line when it does not fit.
"""
from __future__ import annotations

from dataclasses import dataclass

from ygo_timing.model import vocab

from .reader import REQUIRED, Reader, did_you_mean, short

TRUTH = ("face_up", "defense_position", "yours", "battling", "attacking", "attacked", "special_summoned",
         "summoned_this_turn", "destroyed_by_battle", "turn", "direct_attack", "damage_step", "damage_calculation")
NAMED = {"location": vocab.LOCATIONS, "attribute": vocab.ATTRIBUTES, "monster_type": vocab.MONSTER_TYPES,
         "card_type": vocab.CARD_TYPES, "card_kind": vocab.CARD_KINDS}
NUMERIC = ("atk", "def", "level", "original_atk", "original_def", "lp", "monsters", "cards", "hand",
           "battle_damage", "chain_length", "selected", "counters")
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


@dataclass(frozen=True)
class Cost:
    do: str
    amount: int = 0
    filter: tuple = ()   # Atoms the card discarded or Tributed must meet ("Tribute 1 Winged Beast monster")


@dataclass(frozen=True)
class Select:
    """Which cards an `on: all` picks: monsters in the Monster Zone, or (`cards`: "spells_traps")
    Spell and Trap Cards in the Spell & Trap Zone and Field Zone; whose, in which position, and of
    which Attribute, Type, Level range and archetype (names, 0..99 and None: any); only Special
    Summoned ones (`special_summoned`), only ones Summoned this turn (`summoned_this_turn`); `other`: not the effect's own card (True: "another
    monster"), or no card of its name ("name": "except \"Machina Sniper\"")."""
    side: str = "both"
    filter: str = "any"
    attribute: str = "none"
    monster_type: str = "none"
    level_min: int = 0
    level_max: int = 99
    other: bool | str = False     # False, True (not the effect's card) or "name" (no card of its name)
    archetype: str | None = None  # an archetype's name (facts.py gives it an id)
    cards: str = "monsters"       # vocab.SELECT_CARDS
    special_summoned: bool = False  # True: only monsters that were Special Summoned
    name: str | None = None       # a card name: only cards of that name (facts.py's name ids)
    not_attribute: str = "none"   # not of this Attribute ("a non-LIGHT monster")
    summoned_this_turn: bool = False  # True: only monsters Summoned this turn ("the turn they are Summoned")


@dataclass(frozen=True)
class Operation:
    do: str
    on: str = "self"
    amount: int = 0
    amount_of: str = "number"     # vocab.AMOUNT_OF
    to: str = "opponent"          # vocab.LP_PLAYERS: whose LP, battle damage or Deck (the parser: TO_YOU's default "you")
    select: Select = Select()     # on == "all"
    then: bool = False            # applies only if the operation before it did
    otherwise: bool = False       # "or if you cannot": applies only if the operation before it could not
    count: Select | None = None   # amount_of "count": the cards counted ("for each monster they control")


@dataclass(frozen=True)
class Choose:
    """The cards an effect chooses as it resolves, without targeting (GEN-22): from which places
    (vocab.CHOOSE_FROM), whose (vocab.CHOOSE_SIDES), meeting which atoms (about the card chosen,
    written without `of`), how many, and the fewest while that many fit (0: "you can")."""
    places: tuple = ("deck",)
    side: str = "yours"
    filter: tuple = ()
    count: int = 1
    min: int = 1


@dataclass(frozen=True)
class Continuous:
    do: str
    on: str = "self"
    amount: int = 0
    select: Select = Select()
    position: str = ""     # position_lock: the battle position it imposes (vocab.POSITIONS)
    fixed: bool = False    # position_lock: "their battle positions cannot be changed"
    per: str = "none"      # atk_modifier / def_modifier: the amount per counter on its card (vocab.CONTINUOUS_PER)
    to: str = ""           # a redirect (vocab.REDIRECTS): where the card goes instead (vocab.REDIRECT_TO)
    # destroy_replace's `instead` selector is `select` (the card destroyed instead; `on` is "self")


# --- what each operation takes ------------------------------------------------------------------
AMOUNT_OPS = ("atk_add", "atk_set", "def_add", "def_set", "damage", "gain_lp", "draw", "mill", "add_counter",
              "remove_counter")
COUNTED_OPS = ("atk_add", "def_add", "damage", "gain_lp")   # "N for each card": what adds or takes away
COUNTER_OPS = ("add_counter", "remove_counter")   # `amount`: 1 to vocab.MAX_COUNTERS counters
TO_OPS = ("damage", "gain_lp", "double_battle_damage", "draw", "mill")
DECK_OPS = ("draw", "mill")   # about a player's Deck: no card, `to` is whose Deck
TO_YOU = ("double_battle_damage",) + DECK_OPS   # `to` is "you" unless the text names the opponent
GAME_OPS = ("negate", "negate_destroy", "negate_attack", "end_battle_phase", "skip_damage_calc",
            "no_battle_damage", "halve_battle_damage", "double_battle_damage", "reflect_battle_damage")
DIRECT_ATK_DEF = ("atk_add", "atk_set", "atk_halve", "atk_double", "atk_gain_opponent", "atk_halve_original",
                  "atk_double_original", "def_add", "def_set", "def_halve", "def_double")
AMOUNT_CONTINUOUS = ("atk_modifier", "def_modifier", "remove_counter_instead", "counter_after_battle")
COUNTER_CONTINUOUS = ("remove_counter_instead", "counter_after_battle")   # `amount`: counters, 1 or more
MODIFIERS = ("atk_modifier", "def_modifier")   # `per`: counter takes one of these


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
    if limit is not None:
        most_alternatives, most_atoms, message = limit
        if len(alternatives) > most_alternatives or any(len(a) > most_atoms for a in alternatives):
            r.fail(key, message)
    if len(alternatives) > vocab.CONDITION_ALTERNATIVES or any(len(a) > vocab.CONDITION_ATOMS for a in alternatives):
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


# --- costs, target, operations, continuous effects ----------------------------------------------
def _activated_list(r: Reader, d, key, most, kind, what, why):
    """The list at `key` of an activated effect: at most `most` entries; a continuous effect
    (never activated) has none, for the reason `why`."""
    items = r.get(d, key, list, [], what=what)
    if items and kind == "continuous":
        r.fail(key, f"{what}: {why}")
    if len(items) > most:
        r.fail(key, f"{what}: at most {most} {key.rstrip('s')}s per effect")
    return items


def parse_costs(r: Reader, d, what, kind) -> tuple:
    costs = _activated_list(r, d, "cost", vocab.MAX_COSTS, kind, what,
                            "a continuous effect is never activated, so it has no cost")
    out = []
    for k, c in enumerate(costs):
        cr = Reader(r.doc, r.path, r.where + ("cost", k))
        w = f"{what} cost {k + 1}"
        cr.obj(c, {"do", "amount", "filter"}, w)
        do = cr.get(c, "do", str, REQUIRED, choices=vocab.COSTS[1:], what=w)
        amount = cr.get(c, "amount", int, None, what=w)
        if (do == "pay_lp") != (amount is not None):
            cr.fail("amount" if amount is not None else None,
                    f"{w}: 'amount' (LP, more than 0) goes with 'pay_lp' and only with it")
        if do == "pay_lp" and amount <= 0:
            cr.fail("amount", f"{w}: a LP cost is more than 0")
        filt = ()
        if "filter" in c:
            if do not in PAID_WITH_CARD:
                cr.fail("filter", f"{w}: 'filter' (what the card paid must be) goes with "
                                  f"{' and '.join(map(repr, PAID_WITH_CARD))}: the play names that card")
            if _names_a_subject(c["filter"]):
                cr.fail("filter", f"{w}: a cost's filter is about the card discarded or Tributed: leave out 'of'")
            filt = _target_filter(cr, c, f"{w}: the card paid")
        out.append(Cost(do, amount or 0, filt))
    if sum(c.do in ("discard", "tribute") for c in out) > 1:
        r.fail("cost", f"{what}: one discarded or Tributed card per effect (the play names it: `cost CARD`)")
    return tuple(out)


IMPLIED_TARGETS = ("attacker", "attack_target", "own_battling", "opponent_battling")


def parse_target(r: Reader, d, what):
    """(the first target's filter: atoms about `target`, all of which must hold; or None: it
    targets nothing), the card the text leaves no choice of ("Target the attacking monster"), if
    any, and the second target's filter (None: it targets one card) and whether the second is
    optional ("Target up to 2"). Two targets are a list of two target objects."""
    t = d.get("target")
    if t is None:
        return None, None, None, False
    if not isinstance(t, (dict, list)):
        r.fail("target", f"{what}: 'target' must be an object (one target) or a list of two, got {type(t).__name__}")
    tr = Reader(r.doc, r.path, r.where + ("target",))
    if isinstance(t, dict):
        tr.obj(t, {"filter", "implied"}, f"{what} target")
        implied = tr.get(t, "implied", str, None, choices=IMPLIED_TARGETS, what=f"{what} target")
        return _target_filter(tr, t, f"{what} target"), implied, None, False
    if len(t) != 2:
        tr.fail(None, f"{what}: a list of targets has two entries (\"Target 2 cards\", \"Target 1 ... and 1 ...\"): "
                      f"got {len(t)}; write one target as an object")
    filters = []
    for k, one in enumerate(t):
        kr = Reader(r.doc, r.path, r.where + ("target", k))
        w = f"{what} target {k + 1}"
        if not isinstance(one, dict):
            kr.fail(None, f"{w}: expected an object (\"filter\", and \"optional\" on the second), got {short(one)}")
        kr.obj(one, {"filter", "optional"} if k else {"filter"}, w)
        filters.append(_target_filter(kr, one, w))
        optional = kr.get(one, "optional", bool, False, what=w) if k else False
    return filters[0], None, filters[1], optional


PAID_WITH_CARD = ("discard", "tribute")   # costs paid with a card the play names (`cost CARD`)


def parse_choose(r: Reader, d, what, kind) -> Choose | None:
    """An effect's `choose`: the cards it chooses as it resolves, without targeting ("Special
    Summon 1 "Morphtronic" monster from your hand"); None when it chooses none."""
    c = r.get(d, "choose", dict, None, what=what)
    if c is None:
        return None
    w = f"{what} choose"
    if kind == "continuous":
        r.fail("choose", f"{what}: a continuous effect never resolves, so it chooses no card ('choose')")
    cr = Reader(r.doc, r.path, r.where + ("choose",))
    cr.obj(c, {"from", "side", "filter", "count", "min"}, w)
    places = c.get("from", REQUIRED)
    if places is REQUIRED:
        cr.fail(None, f"{w}: missing required key 'from' (where the text looks: {', '.join(vocab.CHOOSE_FROM)})")
    places = [places] if isinstance(places, str) else places
    if not isinstance(places, list) or not places:
        cr.fail("from", f"{w}: 'from' is a place or a non-empty list of places ({', '.join(vocab.CHOOSE_FROM)})")
    for k, place in enumerate(places):
        if not isinstance(place, str) or place not in vocab.CHOOSE_FROM:
            hint = did_you_mean(place, vocab.CHOOSE_FROM) if isinstance(place, str) else ""
            Reader(cr.doc, cr.path, cr.where + ("from",)).fail(
                k if isinstance(c["from"], list) else None,
                f"{w}: place {short(place)}{hint}; "
                f"expected one of: {', '.join(vocab.CHOOSE_FROM)}")
    if len(set(places)) != len(places):
        cr.fail("from", f"{w}: a place is listed twice in 'from'")
    side = cr.get(c, "side", str, "yours", choices=vocab.CHOOSE_SIDES, what=w)
    count = cr.get(c, "count", int, 1, what=w)
    if not 1 <= count <= vocab.MAX_CHOICES:
        cr.fail("count", f"{w}: 'count' (the cards it chooses) is 1 to {vocab.MAX_CHOICES}; got {count}")
    least = cr.get(c, "min", int, count, what=w)
    if not 0 <= least <= count:
        cr.fail("min", f"{w}: 'min' (the fewest it chooses while that many fit; 0 for \"you can\") is 0 to "
                       f"'count' ({count}); got {least}")
    filt = ()
    if "filter" in c:
        if _atom_names_a_subject(c["filter"]):
            cr.fail("filter", f"{w}: a choice's filter is about the card chosen: leave out 'of' (a 'than' may name "
                              "'you' or 'opponent')")
        filt = _filter_atoms(cr, c, w, "a choice's filter", "the card chosen")
        for a in filt:
            if a.than and a.than[1] not in ("target",) + vocab.PLAYER_SUBJECTS:
                cr.fail("filter", f"{w}: a choice's filter compares the card chosen with itself or with a player "
                                  f"('you', 'opponent'), not with {a.than[1]!r}")
    return Choose(tuple(places), side, filt, count, least)


def _atom_names_a_subject(value) -> bool:
    """Whether an atom of a condition tree has its own `of` (a `than` may have one)."""
    if isinstance(value, list):
        return any(_atom_names_a_subject(v) for v in value)
    if not isinstance(value, dict):
        return False
    if len(value) == 1 and next(iter(value)) in ("all", "any", "not"):
        return _atom_names_a_subject(next(iter(value.values())))
    return "of" in value


def _names_a_subject(value) -> bool:
    """Whether a condition tree has an atom with an `of`."""
    if isinstance(value, dict):
        return "of" in value or any(_names_a_subject(v) for v in value.values() if isinstance(v, (dict, list)))
    return isinstance(value, list) and any(_names_a_subject(v) for v in value)


def _filter_atoms(r: Reader, t, what, noun, about):
    """The atoms of the filter at `t["filter"]`, about one card (a target, a card chosen as the
    effect resolves: `noun` and `about` name them in messages): at most vocab.TARGET_FILTER_ATOMS,
    all of which must hold, none counting cards (`selected`)."""
    _, alts = parse_condition(r, t["filter"], f"{what} filter", key="filter", allow_events=False,
                              subject_default="target",
                              limit=(1, vocab.TARGET_FILTER_ATOMS, f"{what}: {noun} is at most "
                                     f"{vocab.TARGET_FILTER_ATOMS} atoms that must all hold (no 'any')"))
    atoms = alts[0] if alts else ()
    for a in atoms:
        if a.quantity == "selected":
            r.fail("filter", f"{what}: {noun} is about {about}; 'selected' counts cards on the field: "
                             "put it in 'condition'")
    return atoms


def _target_filter(tr: Reader, t, what):
    """A target's filter atoms (() if it has no filter: it may be any card)."""
    if "filter" not in t:
        return ()
    atoms = _filter_atoms(tr, t, what, "a target's filter", "the target")
    for a in atoms:
        other = a.of if a.of != "target" else (a.than[1] if a.than and a.than[1] != "target" else None)
        if other is not None:
            tr.fail("filter", f"{what}: a target's filter is about the target (\"of\": \"target\"), "
                              f"not {other!r}: put other requirements in 'condition'")
    return atoms


def parse_operations(r: Reader, d, what, kind) -> tuple:
    ops = _activated_list(r, d, "operations", vocab.MAX_OPERATIONS, kind, what,
                          "a continuous effect applies ('apply'); it has no operations")
    return tuple(_operation(Reader(r.doc, r.path, r.where + ("operations", k)), o, f"{what} operation {k + 1}", k)
                 for k, o in enumerate(ops))


def _operation(r: Reader, o, w, k) -> Operation:
    r.obj(o, {"do", "on", "amount", "to", "select", "then", "otherwise"}, w)
    do = r.get(o, "do", str, REQUIRED, choices=vocab.OPERATIONS[1:], what=w)
    on = r.get(o, "on", str, "self", choices=vocab.OPERATION_ON, what=w)
    if do in GAME_OPS + DECK_OPS and "on" in o and on != "self":
        r.fail("on", f"{w}: {do!r} is about the attack, the Chain or a player's Deck, not a card: it takes no 'on'")
    amount, amount_of, count = 0, "number", None
    if "amount" in o:
        if do not in AMOUNT_OPS:
            r.fail("amount", f"{w}: {do!r} takes no 'amount'")
        v = o["amount"]
        if isinstance(v, dict):   # "800 ATK for each monster they control": {"per": -800, "count": SELECT}
            ar = Reader(r.doc, r.path, r.where + ("amount",))
            ar.obj(v, {"per", "count"}, f"{w} amount")
            if do not in COUNTED_OPS:
                r.fail("amount", f"{w}: an amount for each card is for {', '.join(map(repr, COUNTED_OPS))}")
            amount, amount_of = ar.get(v, "per", int, REQUIRED, what=f"{w} amount"), "count"
            if amount == 0:
                ar.fail("per", f"{w} amount: 'per' (how much for each card) is not 0")
            count = _select(ar, v, f"{w} amount", "all", key="count")
        elif isinstance(v, str):
            amount_of = r.get(o, "amount", str, choices=[a for a in vocab.AMOUNT_OF[1:] if a != "count"], what=w)
            if do not in ("damage", "gain_lp") and not (amount_of == "self_atk" and do in ("atk_add", "atk_set")):
                r.fail("amount", f"{w}: an amount of {v!r} is for 'damage' and 'gain_lp'"
                                 + (" (and 'atk_add', 'atk_set')" if amount_of == "self_atk" else ""))
        else:
            amount = r.get(o, "amount", int, 0, what=w)
    elif do in AMOUNT_OPS:
        r.fail(None, f"{w}: {do!r} needs an 'amount'")
    # `to`: whose LP damage / gain_lp change; whose battle damage double_battle_damage doubles
    # (its controller's unless the text says the opponent's: "Cross Counter")
    to = r.get(o, "to", str, "you" if do in TO_YOU else "opponent", choices=vocab.LP_PLAYERS, what=w)
    if "to" in o and do not in TO_OPS:
        r.fail("to", f"{w}: 'to' is for 'damage' and 'gain_lp' (whose LP), 'double_battle_damage' (whose battle "
                     "damage) and 'draw' and 'mill' (whose Deck)")
    if do == "double_battle_damage" and to == "controller_of":
        r.fail("to", f"{w}: 'double_battle_damage' doubles the battle damage of 'you' or 'opponent'")
    if do in DECK_OPS and to == "controller_of":
        r.fail("to", f"{w}: {do!r} moves cards from the Deck of 'you' or 'opponent'")
    if do in DECK_OPS and not 1 <= amount <= vocab.MAX_DRAW:
        r.fail("amount", f"{w}: {do!r} moves 1 to {vocab.MAX_DRAW} cards; got {amount}")
    if do == "equip" and on != "chosen":
        r.fail("on" if "on" in o else None,
               f"{w}: 'equip' equips this card to the monster it targets: 'on' is \"chosen\", got {on!r}")
    if do in COUNTER_OPS and not 1 <= amount <= vocab.MAX_COUNTERS:
        r.fail("amount", f"{w}: {do!r} places or removes 1 to {vocab.MAX_COUNTERS} counters; got {amount}")
    if amount_of in ("atk", "original_atk") and on == "all":
        r.fail("amount", f"{w}: an amount of one card's ATK needs one card: 'on' is not 'all'")
    select = _select(r, o, w, on)
    then = r.get(o, "then", bool, False, what=w)
    if then and k == 0:
        r.fail("then", f"{w}: the first operation has no operation before it to depend on")
    otherwise = r.get(o, "otherwise", bool, False, what=w)
    if otherwise and k == 0:
        r.fail("otherwise", f"{w}: the first operation has no operation before it that could not be done")
    if otherwise and then:
        r.fail("otherwise", f"{w}: 'then' (only if the one before did) and 'otherwise' (only if it could not) "
                            "together would never apply; give one of them")
    return Operation(do, on, amount, amount_of, to, select, then, otherwise, count)


SELECT_KEYS = {"side", "filter", "attribute", "monster_type", "level_min", "level_max", "other", "archetype",
               "cards", "special_summoned", "name", "not_attribute", "summoned_this_turn"}
# what only a monster has: a Spell/Trap selector with one of these would pick no card ever
MONSTER_ONLY_KEYS = ("attribute", "not_attribute", "monster_type", "level_min", "level_max", "special_summoned",
                     "summoned_this_turn")
# how a monster came to the Monster Zone: a selector picks only those (true) or any (left out)
SUMMON_KEYS = {"special_summoned": "only monsters that were Special Summoned",
               "summoned_this_turn": "only monsters Summoned this turn"}


def _select(r: Reader, o, w, on, continuous=False, key="select"):
    """The selector at `key` of `o`: `select`, with "on": "all" and only with it; an amount's
    `count` (required there: the caller passes "all")."""
    sel = r.get(o, key, dict, None, what=w)
    if (sel is not None) != (on == "all"):
        if key == "count":
            r.fail(None, f"{w}: an amount for each card needs 'count' (which cards it counts)")
        r.fail("select" if sel is not None else "on", f"{w}: 'select' (which cards) goes with \"on\": \"all\" and only with it")
    if sel is None:
        return Select()
    sr = Reader(r.doc, r.path, r.where + (key,))
    w = f"{w} {key}"
    sr.obj(sel, SELECT_KEYS, w)
    attribute, not_attribute = (sr.get(sel, key, str, "none", what=w) for key in ("attribute", "not_attribute"))
    for key, v in (("attribute", attribute), ("not_attribute", not_attribute)):
        if v.lower() not in vocab.ATTRIBUTES:
            sr.fail(key, f"{w}: {key} {short(v)}{did_you_mean(v.lower(), vocab.ATTRIBUTES)}; "
                         f"expected one of: {', '.join(vocab.ATTRIBUTES)}")
    if attribute.lower() != "none" and not_attribute.lower() != "none":
        sr.fail("not_attribute", f"{w}: 'attribute' and 'not_attribute' together: give one of them")
    out = Select(sr.get(sel, "side", str, "both", choices=vocab.SELECT_SIDES, what=w),
                 sr.get(sel, "filter", str, "any", choices=vocab.SELECT_FILTERS, what=w), attribute.lower(),
                 sr.get(sel, "monster_type", str, "none", choices=vocab.MONSTER_TYPES, what=w),
                 sr.get(sel, "level_min", int, 0, what=w), sr.get(sel, "level_max", int, 99, what=w),
                 _other(sr, sel, w), _name_key(sr, sel, w, "archetype"),
                 sr.get(sel, "cards", str, "monsters", choices=vocab.SELECT_CARDS, what=w),
                 _summoned(sr, sel, w, "special_summoned"), _name_key(sr, sel, w, "name"), not_attribute.lower(),
                 _summoned(sr, sel, w, "summoned_this_turn"))
    if not 0 <= out.level_min <= out.level_max <= 99:
        sr.fail("level_min", f"{w}: a Level range is 0 <= level_min <= level_max <= 99; this one picks no monster ever")
    if out.cards == "spells_traps":
        if continuous:
            sr.fail("cards", f"{w}: a continuous effect applies to monsters; \"cards\": \"spells_traps\" is for "
                             "operations (\"destroy all Spell and Trap Cards\")")
        for key in MONSTER_ONLY_KEYS:
            if key in sel:
                sr.fail(key, f"{w}: {key!r} is about monsters; a Spell/Trap selector (\"cards\": \"spells_traps\") "
                             "with it would pick no card ever")
        if out.filter in vocab.POSITION_FILTERS:
            sr.fail("filter", f"{w}: a Spell or Trap Card has no battle position; a Spell/Trap selector's filter is "
                              "any, face_up or face_down")
    if out.cards == "graveyard":
        if continuous:
            sr.fail("cards", f"{w}: a continuous effect applies to monsters on the field; \"cards\": \"graveyard\" "
                             "counts or picks cards in the Graveyard")
        if out.filter != "any":
            sr.fail("filter", f"{w}: a card in the Graveyard has no battle position and is face-up; a Graveyard "
                              "selector's filter is any")
        for key in SUMMON_KEYS:
            if key in sel:
                sr.fail(key, f"{w}: {key!r} is about monsters in the Monster Zone (a card that left the field is "
                             "a new card)")
    return out


def _summoned(sr: Reader, sel, w, key):
    if key not in sel:
        return False
    if sel[key] is not True:
        sr.fail(key, f"{w}: {key!r} is true ({SUMMON_KEYS[key]}); leave it out to pick monsters however they "
                     f"came, got {short(sel[key])}")
    return True


def _other(sr: Reader, sel, w):
    other = sel.get("other", False)
    if other is True or other is False or other == "name":
        return other
    sr.fail("other", f"{w}: 'other' is true (not the effect's own card) or \"name\" (no card of the effect "
                     f"card's name), got {short(other)}")


def _name_key(sr: Reader, sel, w, key):
    """An archetype's (or, `key` "name", a card's) name, or None: any."""
    if key not in sel:
        return None
    v = sel[key]
    if not isinstance(v, str) or not v.strip() or len(v) > 100:
        sr.fail(key, f"{w}: {'an archetype' if key == 'archetype' else 'a card name'} is a name of 1-100 characters, got {short(v)}")
    return v


def parse_apply(r: Reader, d, what, kind) -> Continuous | None:
    a = r.get(d, "apply", dict, None, what=what)
    if a is None:
        return None
    ar = Reader(r.doc, r.path, r.where + ("apply",))
    if kind != "continuous":
        r.fail("apply", f"{what}: 'apply' is what a continuous effect does while its card is face-up; "
                        f"kind is {kind!r}: use 'operations'")
    w = f"{what} apply"
    ar.obj(a, {"do", "on", "amount", "select", "player", "position", "fixed", "per", "to", "instead"}, w)
    do = ar.get(a, "do", str, REQUIRED, choices=vocab.CONTINUOUS[1:], what=w)
    on = ar.get(a, "on", str, "self", choices=vocab.CONTINUOUS_ON, what=w)
    redirect = do in vocab.REDIRECTS
    to = ar.get(a, "to", str, REQUIRED if redirect else "", choices=vocab.REDIRECT_TO if redirect else None, what=w)
    if "to" in a and not redirect:
        ar.fail("to", f"{w}: 'to' (where the card goes instead of the Graveyard) goes with "
                      f"{', '.join(vocab.REDIRECTS)} and only with them")
    if do == "battle_destroyed_redirect" and on not in ("all", "battle_opponent"):
        ar.fail("on" if "on" in a else None,
                f"{w}: battle_destroyed_redirect is about the monsters destroyed by battle: 'on' is \"all\" (with "
                f"'select': \"monsters destroyed by battle\") or \"battle_opponent\" (\"destroyed by battle with this card\")")
    if on == "battle_opponent" and do != "battle_destroyed_redirect":
        ar.fail("on", f"{w}: 'on': 'battle_opponent' (the monster this card battles) goes with "
                      "battle_destroyed_redirect and only with it")
    if do == "destroy_replace" and "select" in a:
        ar.fail("select", f"{w}: destroy_replace is about its own card; which card is destroyed instead is its 'instead'")
    if ("instead" in a) != (do == "destroy_replace"):
        ar.fail("instead" if "instead" in a else None,
                f"{w}: 'instead' (which card is destroyed instead: a selector) goes with destroy_replace and only with it")
    amount = ar.get(a, "amount", int, None, what=w)
    if (do in AMOUNT_CONTINUOUS) != (amount is not None):
        ar.fail("amount" if amount is not None else None, f"{w}: 'amount' goes with {', '.join(AMOUNT_CONTINUOUS)} and only with them")
    if do in COUNTER_CONTINUOUS and not 1 <= amount <= vocab.MAX_COUNTERS:
        ar.fail("amount", f"{w}: {do!r} places or removes 1 to {vocab.MAX_COUNTERS} counters; got {amount}")
    per = ar.get(a, "per", str, "none", choices=vocab.CONTINUOUS_PER, what=w)
    if "per" in a and do not in MODIFIERS:
        ar.fail("per", f"{w}: 'per' (the amount for each counter on its card) goes with {' and '.join(MODIFIERS)} and only with them")
    if do in vocab.SELF_ONLY_CONTINUOUS and on != "self":
        ar.fail("on", f"{w}: {do!r} is about its own card (\"destroy this card\"): 'on' is \"self\"")
    if on == "attacker" and do not in vocab.HALVING:
        ar.fail("on", f"{w}: 'on': 'attacker' (the attacking monster, while it attacks) goes with "
                      f"{' and '.join(vocab.HALVING)} and only with them")
    if do in vocab.GAME_CONTINUOUS and "on" in a:
        ar.fail("on", f"{w}: {do!r} applies to the game (or its controller), not to cards: it takes no 'on'")
    player = ar.get(a, "player", str, "both", choices=vocab.LOCK_PLAYERS, what=w)
    if "player" in a and do not in vocab.LOCKS:
        ar.fail("player", f"{w}: 'player' (whose activations it refuses) goes with {', '.join(vocab.LOCKS)} and only with them")
    # a lock's select side is the player it refuses (model/rules/continuous.py, GEN-19); destroy_replace's
    # selector is the card destroyed instead (its `instead`)
    select = Select(side=player) if do in vocab.LOCKS else \
        _select(ar, a, w, "all", continuous=True, key="instead") if do == "destroy_replace" else \
        _select(ar, a, w, on, continuous=True)
    lock = do == "position_lock"
    for key in ("position", "fixed"):
        if key in a and not lock:
            ar.fail(key, f"{w}: {key!r} goes with position_lock and only with it")
    position = ar.get(a, "position", str, REQUIRED if lock else "", choices=vocab.POSITIONS if lock else None, what=w)
    fixed = ar.get(a, "fixed", bool, False, what=w)
    if lock and select.filter not in vocab.LOCK_FILTERS:
        # the lock sets the position: a selector by position would pick by what it changes
        Reader(ar.doc, ar.path, ar.where + ("select",)).fail(
            "filter", f"{w}: a position_lock picks by face ({' or '.join(vocab.LOCK_FILTERS)}), "
                      f"not by the position it changes; got {select.filter!r}")
    return Continuous(do, on, amount or 0, select, position, fixed, per, to)


def changes_atk_def_directly(ops, apply) -> bool:
    return any(o.do in DIRECT_ATK_DEF for o in ops) or \
        (apply is not None and apply.do in MODIFIERS + vocab.HALVING)


# --- writing an effect back (cards --format json, cards migrate) -----------------------------------
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


def select_dict(sel: Select) -> dict:
    d = {"side": sel.side, "filter": sel.filter}
    d.update({k: v for k, v in (("attribute", sel.attribute), ("monster_type", sel.monster_type)) if v != "none"})
    d.update({k: v for k, v in (("level_min", sel.level_min), ("level_max", sel.level_max)) if v != Select().__dict__[k]})
    if sel.other:
        d["other"] = sel.other
    if sel.archetype is not None:
        d["archetype"] = sel.archetype
    if sel.cards != "monsters":
        d["cards"] = sel.cards
    if sel.special_summoned:
        d["special_summoned"] = True
    if sel.name is not None:
        d["name"] = sel.name
    if sel.not_attribute != "none":
        d["not_attribute"] = sel.not_attribute
    if sel.summoned_this_turn:
        d["summoned_this_turn"] = True
    return d


def operation_dict(o: Operation) -> dict:
    d = {"do": o.do}
    if o.do not in GAME_OPS + DECK_OPS:
        d["on"] = o.on
    if o.do in AMOUNT_OPS:
        d["amount"] = o.amount if o.amount_of == "number" else \
            {"per": o.amount, "count": select_dict(o.count)} if o.amount_of == "count" else o.amount_of
    if o.do in ("damage", "gain_lp") or (o.do in TO_YOU and o.to != "you"):
        d["to"] = o.to
    if o.on == "all":
        d["select"] = select_dict(o.select)
    if o.then:
        d["then"] = True
    if o.otherwise:
        d["otherwise"] = True
    return d


def choose_dict(c: Choose) -> dict:
    d = {"from": list(c.places)}
    if c.side != "yours":
        d["side"] = c.side
    if c.filter:
        d["filter"] = {"all": [atom_dict(a, of=False) for a in c.filter]}
    d["count"] = c.count
    if c.min != c.count:
        d["min"] = c.min
    return d


def target_dict(atoms) -> dict:
    return {"filter": {"all": [atom_dict(a) for a in atoms]}} if atoms else {}


def effect_dict(e) -> dict:
    d = {"kind": e.kind, "from": e.from_, "mandatory": e.mandatory, "atk_def": e.atk_def,
         "negates_activation": e.negates, "trigger_class": e.trigger_class, "fusion_summon": e.fusion_summon,
         "timings": list(e.timings), "condition": condition_value(e.condition, e.atoms),
         "ruling_allowed": e.ruling_allowed, "no_damage_step": e.no_damage_step}
    if e.costs:
        d["cost"] = [{"do": c.do, **({"amount": c.amount} if c.do == "pay_lp" else {}),
                      **({"filter": {"all": [atom_dict(a, of=False) for a in c.filter]}} if c.filter else {})}
                     for c in e.costs]
    if e.target_filter is not None:
        d["target"] = target_dict(e.target_filter)
        if e.implied_target:
            d["target"]["implied"] = e.implied_target
        if e.second_filter is not None:
            d["target"] = [d["target"], {**target_dict(e.second_filter), **({"optional": True} if e.second_optional else {})}]
    if e.choose is not None:
        d["choose"] = choose_dict(e.choose)
    if e.operations:
        d["operations"] = [operation_dict(o) for o in e.operations]
    if e.apply is not None:
        a = e.apply
        d["apply"] = {"do": a.do, **({"on": a.on} if a.on != "self" else {}),
                      **({"amount": a.amount} if a.do in AMOUNT_CONTINUOUS else {}),
                      **({"select": select_dict(a.select)} if a.on == "all" else {}),
                      **({"player": a.select.side} if a.do in vocab.LOCKS and a.select.side != "both" else {}),
                      **({"position": a.position} if a.do == "position_lock" else {}),
                      **({"fixed": True} if a.fixed else {}),
                      **({"per": a.per} if a.per != "none" else {}),
                      **({"to": a.to} if a.do in vocab.REDIRECTS else {}),
                      **({"instead": select_dict(a.select)} if a.do == "destroy_replace" else {})}
    if e.text:
        d["text"] = e.text
    if e.note:
        d["note"] = e.note
    if e.once != "none":
        d["once"] = e.once
    if e.not_modelled:
        d["not_modelled"] = e.not_modelled
    if e.unknown:
        d["unknown"] = list(e.unknown)
    return d

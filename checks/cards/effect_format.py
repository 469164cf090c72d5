"""An effect as a composition (docs/cards-format.md): a condition over atoms, costs, a target with
a filter, operations, and, for a continuous effect, what it applies. This module reads and checks
those fields of a catalogue entry; model/rules/effects.py gives them their meaning.

The condition and its atoms are read in effect_conditions.py and the selectors (`on: all`) in
effect_selectors.py; this module reads the rest, and writes a whole effect back to the format.
"""
from __future__ import annotations

from dataclasses import dataclass

from ygo_timing.model import vocab

from .effect_conditions import atom_dict, condition_value, parse_condition
from .effect_selectors import Select, _select, select_dict
from .reader import REQUIRED, Reader, did_you_mean, short


@dataclass(frozen=True)
class Cost:
    do: str
    amount: int = 0
    filter: tuple = ()   # Atoms the card discarded or Tributed must meet ("Tribute 1 Winged Beast monster")


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
    both: bool = False            # "banish both": this and the operation before it apply together or not at all


@dataclass(frozen=True)
class Choose:
    """The cards an effect chooses as it resolves, without targeting (GEN-22): from which places
    (vocab.CHOOSE_FROM), whose (vocab.CHOOSE_SIDES), meeting which atoms (about the card chosen,
    written without `of`), how many, the fewest while that many fit (0: "you can"), and whether
    the effect is activated only while that many fit (`needed`)."""
    places: tuple = ("deck",)
    side: str = "yours"
    filter: tuple = ()
    count: int = 1
    min: int = 1
    needed: bool = False


@dataclass(frozen=True)
class Continuous:
    do: str
    on: str = "self"
    amount: int = 0
    select: Select = Select()
    position: str = ""     # position_lock: the battle position it imposes (vocab.POSITIONS)
    fixed: bool = False    # position_lock: "their battle positions cannot be changed"
    per: str = "none"      # atk_modifier / def_modifier: the amount per counter or per card (vocab.CONTINUOUS_PER)
    to: str = ""           # a redirect (vocab.REDIRECTS): where the card goes instead (vocab.REDIRECT_TO)
    count: Select | None = None   # per "count": the cards it counts ("for each Normal Monster in your GY")
    attribute: str = ""    # add_attribute: the Attribute its card also has (vocab.ATTRIBUTES)
    # destroy_replace's `instead` selector is `select` (the card destroyed instead; `on` is "self")


# --- what each operation takes ------------------------------------------------------------------
AT_CALC = ("atk_add_at_calc", "def_add_at_calc", "atk_double_original_at_calc")   # "during damage calculation only": activated then
AMOUNT_OPS = ("atk_add", "atk_set", "def_add", "def_set", "damage", "gain_lp", "draw", "mill", "draw_until",
              "add_counter", "remove_counter", "atk_add_at_calc", "def_add_at_calc")
# amounts read from a card that an ATK change takes besides damage and gain_lp: "becomes equal to this
# card's ATK" (Dark Diviner), "gains ATK equal to the difference" (Performapal Barracuda)
STAT_AMOUNTS = {"self_atk": ("atk_add", "atk_set"), "atk_difference": ("atk_add",),
                "battle_difference": ("atk_add", "atk_add_at_calc")}   # "gains ATK equal to the difference +300"
# amounts read from the one card the operation is on ("damage equal to its ATK"): not on `all`, nor on
# `chosen` / `choice` when there are two of them (which one would it be?)
CARD_AMOUNTS = ("atk", "original_atk", "half_original_atk", "atk_difference")
COUNTED_OPS = ("atk_add", "def_add", "damage", "gain_lp")   # "N for each card": what adds or takes away
COUNTER_OPS = ("add_counter", "remove_counter")   # `amount`: 1 to vocab.MAX_COUNTERS counters
DECK_OPS = ("draw", "mill", "draw_until")   # about a player's Deck: no card, `to` is whose Deck
TO_OPS = ("damage", "gain_lp", "double_battle_damage") + DECK_OPS
DECK_MOVES = ("banish", "to_hand", "to_graveyard")   # what an operation does to cards in the Deck (`"cards": "deck"`)
TO_YOU = ("double_battle_damage",) + DECK_OPS   # `to` is "you" unless the text names the opponent
GAME_OPS = ("negate", "negate_destroy", "negate_attack", "end_battle_phase", "skip_damage_calc",
            "no_battle_damage", "halve_battle_damage", "double_battle_damage", "reflect_battle_damage",
            "halve_damage", "halve_effect_damage")
DIRECT_ATK_DEF = ("atk_add", "atk_set", "atk_halve", "atk_double", "atk_gain_opponent", "atk_halve_original",
                  "atk_double_original", "def_add", "def_set", "def_halve", "def_double") + AT_CALC
AMOUNT_CONTINUOUS = ("atk_modifier", "def_modifier", "remove_counter_instead", "counter_after_battle")
COUNTER_CONTINUOUS = ("remove_counter_instead", "counter_after_battle")   # `amount`: counters, 1 or more
MODIFIERS = ("atk_modifier", "def_modifier")   # an amount per counter or per card takes one of these


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


# places whose cards a set-up lists only in part (docs/format.md): a `needed` choice cannot count them
UNLISTED_PLACES = ("deck", "extra_deck")


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
    cr.obj(c, {"from", "side", "filter", "count", "min", "needed"}, w)
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
    needed = "needed" in c
    if needed:
        if c["needed"] is not True:
            cr.fail("needed", f"{w}: 'needed' is true (the effect is activated only while a card fits); leave it out "
                              f"otherwise, got {short(c['needed'])}")
        if least == 0:
            cr.fail("needed", f"{w}: 'needed' with 'min' 0: a text that may choose none (\"you can\") does not need a "
                              "card to be activated")
        unlisted = [p for p in places if p in UNLISTED_PLACES]
        if unlisted:
            cr.fail("needed", f"{w}: 'needed' with 'from' {unlisted[0]!r}: a play's set-up lists only some cards of a "
                              "Deck, so whether one fits is not known (the others are not in the model)")
    return Choose(tuple(places), side, filt, count, least, needed)


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
    r.obj(o, {"do", "on", "amount", "to", "select", "then", "otherwise", "both"}, w)
    do = r.get(o, "do", str, REQUIRED, choices=vocab.OPERATIONS[1:], what=w)
    on = r.get(o, "on", str, "self", choices=vocab.OPERATION_ON, what=w)
    if do in GAME_OPS + DECK_OPS and "on" in o and on != "self":
        r.fail("on", f"{w}: {do!r} is about the attack, the Chain or a player's Deck, not a card: it takes no 'on'")
    amount, amount_of, count = 0, "number", None
    if "amount" in o:
        if do not in AMOUNT_OPS:
            r.fail("amount", f"{w}: {do!r} takes no 'amount'")
        v = o["amount"]
        if isinstance(v, dict) and "of" in v:   # "the difference +300": {"of": "battle_difference", "plus": 300}
            ar = Reader(r.doc, r.path, r.where + ("amount",))
            ar.obj(v, {"of", "plus"}, f"{w} amount")
            amount_of = ar.get(v, "of", str, REQUIRED, choices=["battle_difference"], what=f"{w} amount")
            amount = ar.get(v, "plus", int, 0, what=f"{w} amount")
            takers = ("damage", "gain_lp") + STAT_AMOUNTS[amount_of]
            if do not in takers:
                r.fail("amount", f"{w}: an amount of the battle's ATK difference is for {', '.join(map(repr, takers))}")
        elif isinstance(v, dict):   # "800 ATK for each monster they control": {"per": -800, "count": SELECT}
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
            takers = ("damage", "gain_lp") + STAT_AMOUNTS.get(amount_of, ())
            if do not in takers:
                r.fail("amount", f"{w}: an amount of {v!r} is for {', '.join(map(repr, takers))}")
        else:
            amount = r.get(o, "amount", int, 0, what=w)
    elif do in AMOUNT_OPS:
        r.fail(None, f"{w}: {do!r} needs an 'amount'")
    # `to`: whose LP damage / gain_lp change; whose battle damage double_battle_damage doubles
    # (its controller's unless the text says the opponent's: "Cross Counter")
    to = r.get(o, "to", str, "you" if do in TO_YOU else "opponent", choices=vocab.LP_PLAYERS, what=w)
    if "to" in o and do not in TO_OPS:
        r.fail("to", f"{w}: 'to' is for 'damage' and 'gain_lp' (whose LP), 'double_battle_damage' (whose battle "
                     "damage) and 'draw', 'mill' and 'draw_until' (whose Deck)")
    if do == "double_battle_damage" and to == "controller_of":
        r.fail("to", f"{w}: 'double_battle_damage' doubles the battle damage of 'you' or 'opponent'")
    if do in DECK_OPS and to == "controller_of":
        r.fail("to", f"{w}: {do!r} moves cards from the Deck of 'you' or 'opponent'")
    most = vocab.MAX_HAND if do == "draw_until" else vocab.MAX_DRAW   # a hand size, or cards moved
    if do in DECK_OPS and not 1 <= amount <= most:
        r.fail("amount", f"{w}: {do!r} " + ("draws until the hand has" if do == "draw_until" else "moves")
               + f" 1 to {most} cards; got {amount}")
    if do == "equip" and on != "chosen":
        r.fail("on" if "on" in o else None,
               f"{w}: 'equip' equips this card to the monster it targets: 'on' is \"chosen\", got {on!r}")
    if do in COUNTER_OPS and not 1 <= amount <= vocab.MAX_COUNTERS:
        r.fail("amount", f"{w}: {do!r} places or removes 1 to {vocab.MAX_COUNTERS} counters; got {amount}")
    if amount_of in CARD_AMOUNTS and on == "all":
        r.fail("amount", f"{w}: an amount of one card's ATK needs one card: 'on' is not 'all'")
    select = _select(r, o, w, on, operation=True)
    if select.cards == "deck" and do not in DECK_MOVES:
        r.fail("do", f"{w}: cards in the Deck are moved out of it ({', '.join(DECK_MOVES)}), not {do!r}")
    # only a monster in the Monster Zone is banished to return (resolution.py): anything else never is
    if do == "banish_until_bp_end" and (on == "choice" or (on == "all" and select.cards != "monsters")):
        r.fail("on", f"{w}: 'banish_until_bp_end' banishes monsters in the Monster Zone until the end of the "
                     f"Battle Phase: not cards chosen as it resolves, and a selector picks \"monsters\"")
    then = r.get(o, "then", bool, False, what=w)
    if then and k == 0:
        r.fail("then", f"{w}: the first operation has no operation before it to depend on")
    otherwise = r.get(o, "otherwise", bool, False, what=w)
    if otherwise and k == 0:
        r.fail("otherwise", f"{w}: the first operation has no operation before it that could not be done")
    if otherwise and then:
        r.fail("otherwise", f"{w}: 'then' (only if the one before did) and 'otherwise' (only if it could not) "
                            "together would never apply; give one of them")
    both = r.get(o, "both", bool, False, what=w)
    if both and k == 0:
        r.fail("both", f"{w}: the first operation has no operation before it to apply together with")
    if both and (then or otherwise):
        r.fail("both", f"{w}: 'both' (this and the one before, or neither) goes without 'then' and 'otherwise'")
    return Operation(do, on, amount, amount_of, to, select, then, otherwise, count, both)


def parse_apply(r: Reader, d, what, kind) -> Continuous | None:
    a = r.get(d, "apply", dict, None, what=what)
    if a is None:
        return None
    ar = Reader(r.doc, r.path, r.where + ("apply",))
    if kind != "continuous":
        r.fail("apply", f"{what}: 'apply' is what a continuous effect does while its card is face-up; "
                        f"kind is {kind!r}: use 'operations'")
    w = f"{what} apply"
    ar.obj(a, {"do", "on", "amount", "select", "player", "position", "fixed", "per", "to", "instead", "attribute"}, w)
    do = ar.get(a, "do", str, REQUIRED, choices=vocab.CONTINUOUS[1:], what=w)
    attribute = _added_attribute(ar, a, do, w)
    if do in vocab.UNCONDITIONAL and d.get("condition", "none") not in ("none", None):
        r.fail("condition", f"{w}: {do} applies while its card is face-up on the field, with no condition")
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
    amount, count = a.get("amount"), None
    if not isinstance(amount, dict):
        amount = ar.get(a, "amount", int, None, what=w)
    else:   # "1000 ATK for each Normal Monster in your GY": {"per": 1000, "count": SELECT}
        if do not in MODIFIERS:
            ar.fail("amount", f"{w}: an amount for each card is for {' and '.join(MODIFIERS)}")
        if "per" in a:
            ar.fail("per", f"{w}: an amount for each card ('amount': {{'per': N, 'count': ...}}) and 'per' "
                           "(for each counter) together: give one of them")
        cr = Reader(ar.doc, ar.path, ar.where + ("amount",))
        cr.obj(amount, {"per", "count"}, f"{w} amount")
        count = _select(cr, amount, f"{w} amount", "all", key="count")
        amount = cr.get(amount, "per", int, REQUIRED, what=f"{w} amount")
        if amount == 0:
            cr.fail("per", f"{w} amount: 'per' (how much for each card) is not 0")
    if (do in AMOUNT_CONTINUOUS) != (amount is not None):
        ar.fail("amount" if amount is not None else None, f"{w}: 'amount' goes with {', '.join(AMOUNT_CONTINUOUS)} and only with them")
    if do in COUNTER_CONTINUOUS and not 1 <= amount <= vocab.MAX_COUNTERS:
        ar.fail("amount", f"{w}: {do!r} places or removes 1 to {vocab.MAX_COUNTERS} counters; got {amount}")
    per = "count" if count is not None else \
        ar.get(a, "per", str, "none", choices=[p for p in vocab.CONTINUOUS_PER if p != "count"], what=w)
    if "per" in a and do not in MODIFIERS:
        ar.fail("per", f"{w}: 'per' (the amount for each counter on its card) goes with {' and '.join(MODIFIERS)} and only with them")
    if do in vocab.SELF_ONLY_CONTINUOUS and on != "self":
        ar.fail("on", f"{w}: {do!r} is about its own card (\"destroy this card\"): 'on' is \"self\"")
    if do == "negate_battle_opponent" and on != "equipped":
        ar.fail("on" if "on" in a else None, f"{w}: negate_battle_opponent negates the monster battling the equipped "
                                             f"monster: 'on' is \"equipped\", got {on!r}")
    if on == "attackers" and do not in vocab.HALVING:
        ar.fail("on", f"{w}: 'on': 'attackers' (each of the opponent's monsters that attacked while it applied) goes with "
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
    return Continuous(do, on, amount or 0, select, position, fixed, per, to, count, attribute)


def _added_attribute(ar: Reader, a, do, w) -> str:
    """add_attribute's `attribute` (lower case; "" for any other kind). Its effect takes no
    condition (vocab.UNCONDITIONAL)."""
    if do != "add_attribute":
        if "attribute" in a:
            ar.fail("attribute", f"{w}: 'attribute' (the Attribute its card also has) goes with add_attribute and only with it")
        return ""
    v = ar.get(a, "attribute", str, REQUIRED, what=w)
    if v.lower() not in vocab.ATTRIBUTES[1:]:
        ar.fail("attribute", f"{w}: attribute {short(v)}{did_you_mean(v.lower(), vocab.ATTRIBUTES[1:])}; "
                             f"expected one of: {', '.join(vocab.ATTRIBUTES[1:])}")
    return v.lower()


def changes_atk_def_directly(ops, apply) -> bool:
    return any(o.do in DIRECT_ATK_DEF for o in ops) or \
        (apply is not None and apply.do in MODIFIERS + vocab.HALVING)


# --- writing an effect back (cards --format json, cards migrate) -----------------------------------
def operation_dict(o: Operation) -> dict:
    d = {"do": o.do}
    if o.do not in GAME_OPS + DECK_OPS:
        d["on"] = o.on
    if o.do in AMOUNT_OPS:
        d["amount"] = o.amount if o.amount_of == "number" else \
            {"per": o.amount, "count": select_dict(o.count)} if o.amount_of == "count" else \
            {"of": o.amount_of, "plus": o.amount} if o.amount_of == "battle_difference" and o.amount else o.amount_of
    if o.do in ("damage", "gain_lp") or (o.do in TO_YOU and o.to != "you"):
        d["to"] = o.to
    if o.on == "all":
        d["select"] = select_dict(o.select)
    if o.then:
        d["then"] = True
    if o.otherwise:
        d["otherwise"] = True
    if o.both:
        d["both"] = True
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
    if c.needed:
        d["needed"] = True
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
                      **({"amount": {"per": a.amount, "count": select_dict(a.count)} if a.per == "count" else a.amount}
                         if a.do in AMOUNT_CONTINUOUS else {}),
                      **({"select": select_dict(a.select)} if a.on == "all" else {}),
                      **({"player": a.select.side} if a.do in vocab.LOCKS and a.select.side != "both" else {}),
                      **({"position": a.position} if a.do == "position_lock" else {}),
                      **({"fixed": True} if a.fixed else {}),
                      **({"per": a.per} if a.per == "counter" else {}),
                      **({"to": a.to} if a.do in vocab.REDIRECTS else {}),
                      **({"attribute": a.attribute.upper()} if a.do == "add_attribute" else {}),
                      **({"instead": select_dict(a.select)} if a.do == "destroy_replace" else {})}
    if e.text:
        d["text"] = e.text
    if e.note:
        d["note"] = e.note
    if e.once != "none":
        d["once"] = e.once
    if e.not_modelled:
        d["not_modelled"] = e.not_modelled
    if e.outside_battle_phase:
        d["outside_battle_phase"] = e.outside_battle_phase
    if e.unknown:
        d["unknown"] = list(e.unknown)
    return d

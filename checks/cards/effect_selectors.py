"""Selectors (docs/cards-format.md): which cards an operation or continuous effect with `on: all`
picks, and which cards a `selected` atom counts: the Select record, the keys a selector takes, its
reader and its writer back to the format. A module of its own because conditions
(effect_conditions.py), operations and continuous effects (effect_format.py) all read it.
"""
from __future__ import annotations

from dataclasses import dataclass

from ygo_timing.model import vocab

from .reader import Reader, did_you_mean, short


@dataclass(frozen=True)
class Select:
    """Which cards an `on: all` picks: monsters in the Monster Zone, or (`cards`: "spells_traps")
    Spell and Trap Cards in the Spell & Trap Zone and Field Zone; whose, in which position, and of
    which Attribute, Type, Level range and archetype (names, 0..99 and None: any); only Special
    Summoned ones (`special_summoned`), only ones Summoned this turn (`summoned_this_turn`); `other`: not the effect's own card (True: "another
    monster"), or no card of its name ("name": "except \"Machina Sniper\""); `card_kind`: only cards
    of that kind (a vocab.CARD_KINDS name: "monster:normal", "a Normal Monster"); `card_type`: only
    cards of that type (a vocab.CARD_TYPES name: "monster", "each monster in your GY")."""
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
    card_kind: str | None = None  # a vocab.CARD_KINDS name: only cards of that kind ("Normal Monster")
    card_type: str | None = None  # a vocab.CARD_TYPES name: only cards of that type ("monster")


SELECT_KEYS = {"side", "filter", "attribute", "monster_type", "level_min", "level_max", "other", "archetype",
               "cards", "special_summoned", "name", "not_attribute", "summoned_this_turn", "card_kind", "card_type"}
# what only a monster has: a Spell/Trap selector with one of these would pick no card ever
MONSTER_ONLY_KEYS = ("attribute", "not_attribute", "monster_type", "level_min", "level_max", "special_summoned",
                     "summoned_this_turn")
# how a monster came to the Monster Zone: a selector picks only those (true) or any (left out)
SUMMON_KEYS = {"special_summoned": "only monsters that were Special Summoned",
               "summoned_this_turn": "only monsters Summoned this turn"}


def _select(r: Reader, o, w, on, continuous=False, key="select", operation=False):
    """The selector at `key` of `o`: `select`, with "on": "all" and only with it; an amount's
    `count` (required there: the caller passes "all"). `operation`: an operation's selector, the
    only one that may pick cards in the Deck."""
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
                 _summoned(sr, sel, w, "summoned_this_turn"),
                 sr.get(sel, "card_kind", str, None, choices=vocab.CARD_KINDS, what=w),
                 sr.get(sel, "card_type", str, None, choices=vocab.CARD_TYPES, what=w))
    if out.card_kind is not None and out.cards in ("monsters", "spells_traps") and \
            out.card_kind.startswith("monster") != (out.cards == "monsters"):
        sr.fail("card_kind", f"{w}: a {'Spell/Trap' if out.cards == 'spells_traps' else 'monster'} selector with "
                             f"card_kind {out.card_kind!r} would pick no card ever")
    if out.card_type is not None:
        if out.card_kind is not None:
            sr.fail("card_type", f"{w}: 'card_kind' and 'card_type' together: a card kind says its type; give one")
        if out.cards == "monsters":
            sr.fail("card_type", f"{w}: a Monster Zone selector picks monsters only; 'card_type' is for a Graveyard "
                                 "(\"cards\": \"graveyard\"), Deck or Spell/Trap selector")
        if out.cards == "spells_traps" and out.card_type == "monster":
            sr.fail("card_type", f"{w}: a Spell/Trap selector with card_type 'monster' would pick no card ever")
    if not 0 <= out.level_min <= out.level_max <= 99:
        sr.fail("level_min", f"{w}: a Level range is 0 <= level_min <= level_max <= 99; this one picks no monster ever")
    if out.cards == "spells_traps":
        if continuous:
            sr.fail("cards", f"{w}: a continuous effect applies to monsters; \"cards\": \"spells_traps\" is for "
                             "operations (\"destroy all Spell and Trap Cards\")")
        _refuse(sr, sel, MONSTER_ONLY_KEYS, w, "is about monsters; a Spell/Trap selector (\"cards\": \"spells_traps\") "
                                               "with it would pick no card ever")
        if out.filter in vocab.POSITION_FILTERS:
            sr.fail("filter", f"{w}: a Spell or Trap Card has no battle position; a Spell/Trap selector's filter is "
                              "any, face_up or face_down")
    if out.cards == "deck" and not operation:
        # the model holds only the Deck cards a set-up lists: a count or condition over the Deck
        # would read those alone, while "banish all monsters in the Deck" is right on each of them
        sr.fail("cards", f"{w}: \"cards\": \"deck\" is for an operation's 'select' (\"banish all monsters in each "
                         "player's Deck\"): the model holds only the Deck cards a set-up lists, so a count or "
                         "condition over the Deck would miss the rest")
    if out.cards in ("graveyard", "deck"):
        place = {"graveyard": "Graveyard", "deck": "Deck"}[out.cards]
        if continuous:
            sr.fail("cards", f"{w}: a continuous effect applies to monsters on the field; \"cards\": \"graveyard\" "
                             "counts or picks cards in the Graveyard")
        if out.filter != "any":
            sr.fail("filter", f"{w}: a card in the {place} has no battle position"
                              f"{' and is face-up' if out.cards == 'graveyard' else ''}; a {place} selector's filter is any")
        _refuse(sr, sel, SUMMON_KEYS, w, "is about monsters in the Monster Zone (a card that left the field is a new card)")
    return out


def _refuse(sr: Reader, sel, keys, w, why):
    """The first of `keys` the selector has is an error: `why` says what it is about."""
    for key in keys:
        if key in sel:
            sr.fail(key, f"{w}: {key!r} {why}")


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


# --- writing a selector back (cards --format json, cards migrate) -------------------------------
def select_dict(sel: Select) -> dict:
    """`side` and `filter`, then each key whose value is not its default, in the fields' order."""
    default = Select()
    return {k: v for k, v in vars(sel).items() if k in ("side", "filter") or v != getattr(default, k)}

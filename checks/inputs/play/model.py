"""The data model of a play (Play, CardSpec, ActionSpec, PlayError), the vocabulary and limits of
its forms, and the checks both parsers share (labels, references, rule IDs, set-up cards)."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from ygo_timing.errors import InputError
from ygo_timing.model import vocab

# ---------------------------------------------------------------------------
# Vocabulary of the play forms
# ---------------------------------------------------------------------------

ACTION_KINDS = (
    "enter_bp", "skip_bp", "attack", "activate", "pass", "resolve", "next",
    "end_bp", "retarget", "stop_attack", "replace", "claim",
)
CLAIM_KINDS = ("lp", "destroyed_by_battle", "location", "atk", "window", "face_up", "calc", "def", "position",
               "attacking", "counters")
POSITIONS = ("attack", "defense")   # `claim position CARD attack|defense`
CALC_VALUES = ("done", "skipped", "pending")
RULESETS = ("ocg", "tcg")

# Zones a card can start in (every location but the "none" slot marker).
SETUP_ZONES = tuple(z for z in vocab.LOCATIONS if z != "none")

# Text-form zone word -> (location, face-up by default).
ZONE_WORDS = {
    "monster": ("monster_zone", True),
    "set": ("spell_trap_zone", False),
    "spell": ("spell_trap_zone", True),
    "field": ("field_zone", True),
    "hand": ("hand", False),
    "graveyard": ("graveyard", True),
    "banished": ("banished", True),
    "deck": ("deck", False),
    "extra": ("extra_deck", False),
}
# JSON form: face_up when the entry does not say (the text form's zone word
# for that location; `spell_trap_zone` defaults to a Set, face-down card).
DEFAULT_FACE_UP = {
    "monster_zone": True, "spell_trap_zone": False, "field_zone": True,
    "hand": False, "graveyard": True, "banished": True, "deck": False, "extra_deck": False,
}
assert set(DEFAULT_FACE_UP) == set(SETUP_ZONES)

MAX_NUMBER = 10 ** 9  # largest number a play may write (ATK, LP, turn, ...)
MAX_WORDS = 64       # words and quoted strings on one line of the text form
MAX_INLINE_CARDS = 256  # catalogue entries a play defines itself (`card:` lines, JSON "cards")
MAX_RULE_IDS = 256   # IDs on one `rules:` / `expect:` line (there are about 100 rules)
MAX_NAME = 200       # longest card name (the catalogue's limit, checks/cards/catalogue.py)

HEADER_KEYS = ("title", "ruleset", "turn", "turn-player", "lp", "expect", "rules", "source", "card")
_HEADER_FIELD = {"title": "title", "ruleset": "ruleset", "turn": "turn", "turn-player": "turn_player",
                 "turn_player": "turn_player", "lp": "lp", "expect": "expect", "rules": "rules",
                 "source": "source", "card": "card"}
VERBS = ("enter", "skip", "attack", "activate", "chain", "pass", "resolve", "next", "end",
         "retarget", "stop", "replace", "claim")
CLAIM_WORDS = ("lp", "atk", "destroyed", "not-destroyed", "location", "face-up", "face-down",
               "window", "calc", "def", "position", "attacking", "not-attacking", "counters")
SETUP_OPTIONS = ("as", "attack", "defense", "face-up", "face-down", "atk", "def", "equipped-to", "special-summoned",
                 "counters", "summoned-this-turn", "flip-summoned-this-turn", "used")
# Bare words that cannot be bare labels (quote such a label instead).
KEYWORDS = frozenset(SETUP_OPTIONS + ("direct", "effect", "target", "link", "with", "choose"))

_LABEL = re.compile(r"[A-Za-z][A-Za-z0-9_-]*\Z")
_RULE_ID = re.compile(r"[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*\Z")
_NUMBER = re.compile(r"[0-9]+\Z")
_HEADER = re.compile(r"\s*([A-Za-z][A-Za-z_-]*)\s*:")
_NEEDS_JSON = re.compile(r'[\\\x00-\x1f\x7f]')  # a quoted string JSON must decode
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_TOKEN = re.compile(r'\s+|(?P<q>"(?:[^"\\]|\\.)*+")|(?P<arrow>->)|(?P<w>(?:(?!->)[^\s"])+)|(?P<bad>")')


# ---------------------------------------------------------------------------
# Data model
# ---------------------------------------------------------------------------


class PlayError(InputError):
    """A play file problem. str() -> "path:line: message"."""


@dataclass
class CardSpec:
    label: str            # unique handle within the play (the `as` label, else the card name)
    name: str             # catalogue name
    player: str           # "A" | "B"
    zone: str             # one of vocab.LOCATIONS except "none"
    face_up: bool
    defense: bool         # battle position for monsters (False = Attack Position)
    atk: int | None       # override of the catalogue ATK (None: catalogue)
    def_: int | None
    line: int
    special_summoned: bool = False   # a monster Special Summoned before the play (this turn or an earlier one)
    equipped_to: str | None = None   # an Equip Card's: the label of the monster it is equipped to
    counters: int = 0     # the counters on it as the play begins (a face-up card on the field)
    summoned_this_turn: bool = False   # a monster Normal (Tribute) or Special Summoned earlier this turn
    flip_summoned_this_turn: bool = False   # a monster Flip Summoned earlier this turn
    # its effects (1-based numbers) whose once-per-turn / per-Duel limit a use before the play
    # spent: earlier this turn (the Main Phase 1), or, for a per-Duel limit, earlier in the Duel
    used: tuple = ()


@dataclass
class ActionSpec:
    kind: str             # one of ACTION_KINDS
    line: int
    text: str             # the source line (text form, comment removed) or its text-form rendering (JSON form)
    player: str | None = None
    card: str | None = None      # label: attacker / activated / resolved / replaced / claimed card
    effect: int = 1              # 1-based effect number of the card
    target: str | None = None    # label
    target2: str | None = None   # `activate`: the second target's label ("Target 2 cards")
    direct: bool = False
    window: str | None = None    # `next <window>` / `claim window <window>`
    link: int = 0                # `link N` on activate; -1 for `chain`; 0: not said
    other: str | None = None     # `replace X with Y`: Y; `activate ... cost Y`: the card discarded or Tributed
    claim: str | None = None     # one of CLAIM_KINDS
    value: object = None         # int (lp, atk); zone (location); bool (destroyed_by_battle, face_up); CALC_VALUES (calc)
    # `resolve ... choose X [choose Y]`: the cards the first link it resolves chooses as it resolves (GEN-22)
    choice: str | None = None
    choice2: str | None = None


@dataclass
class Play:
    path: str
    title: str = ""
    ruleset: str | None = None   # "ocg" | "tcg" | None
    turn: int = 2
    turn_player: str = "A"
    lp: dict = field(default_factory=lambda: {"A": 8000, "B": 8000})
    cards: list[CardSpec] = field(default_factory=list)
    actions: list[ActionSpec] = field(default_factory=list)
    expect: str | None = None    # "legal" | "illegal"
    expect_rules: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    source: str = ""
    custom_cards: list[dict] = field(default_factory=list)
    # Header field name -> line ("title", "ruleset", "turn", "turn_player", "lp",
    # "expect", "rules", "source"); and ("custom_cards", i, *json_path) -> line
    # for every value inside inline catalogue entry i.
    line_of: dict = field(default_factory=dict)


# ---------------------------------------------------------------------------
# Shared helpers
# ---------------------------------------------------------------------------


def _one_of(options) -> str:
    return "expected one of: " + ", ".join(options)


def _q(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def _short(s: str, n: int = 60, quote=repr) -> str:
    """A user's text quoted for a message, cut so a 4 MB token cannot flood the message."""
    return quote(s) if len(s) <= n else quote(s[:n]) + f"... ({len(s)} characters)"


def _short_q(s: str) -> str:
    return _short(s, quote=_q)


def _check_rule_ids(rids, err, line: int):
    if len(rids) > MAX_RULE_IDS:
        err(line, f"{len(rids)} rule IDs; expected at most {MAX_RULE_IDS}")
    for rid in rids:
        _check_rule_id(rid, err, line)


def _check_rule_id(rid: str, err, line: int):
    if not (_RULE_ID.match(rid) and any(ch.isdigit() for ch in rid)):
        err(line, f"bad rule ID {_short(rid)}; expected an ID like T4, CH-5 or DS-T1 "
                  "(capital letters and digits, parts joined by '-', at least one digit)")


def _assign_labels(pending, err):
    """pending: list of (CardSpec with label None if unlabeled, explicit label or None).

    Labels are unique. An unlabeled card is labeled by its name; several
    unlabeled cards with one name become "Name#1", "Name#2", ... (so a
    reference by that name is ambiguous and says so)."""
    used: dict[str, int] = {}
    for card, explicit in pending:
        if explicit is not None:
            if explicit in used:
                err(card.line, f"label {_short_q(explicit)} is already used on line {used[explicit]}; "
                               "expected a label unique in the play")
            used[explicit] = card.line
            card.label = explicit
    groups: dict[str, list] = {}
    for card, explicit in pending:
        if explicit is None:
            groups.setdefault(card.name, []).append(card)
    for name, cards in groups.items():
        labels = [name] if len(cards) == 1 else [f"{name}#{k}" for k in range(1, len(cards) + 1)]
        for card, label in zip(cards, labels):
            if label in used:
                err(max(card.line, used[label]),
                    f"card {_short_q(card.name)} (line {card.line}) is labeled {_short_q(label)}, "
                    f"which is already a label on line {used[label]}; expected `as <label>` "
                    "to tell them apart")
            used[label] = card.line
            card.label = label


def _resolve(cards: list[CardSpec], ref: str, err, line: int, what: str = "card") -> str:
    """Label of the card `ref` names: a label, else the name of exactly one card."""
    for c in cards:
        if c.label == ref:
            return c.label
    named = [c for c in cards if c.name == ref]
    if len(named) == 1:
        return named[0].label
    if named:
        lines = ", ".join(str(c.line) for c in named)
        err(line, f"card name {_short_q(ref)} is ambiguous: {len(named)} cards have that name "
                  f"(lines {lines}); expected a label -- give each an `as <label>` and use it")
    labels = [render_ref(c.label) if len(c.label) <= 60 else _short_q(c.label) for c in cards]
    if not labels:
        err(line, f"unknown {what} {_short_q(ref)}: the set-up has no cards")
    shown = ", ".join(labels[:12]) + (", ..." if len(labels) > 12 else "")
    err(line, f"unknown {what} {_short_q(ref)}; expected a label or card name from the set-up: {shown}")


# what the set-up option `equip "Name"` (JSON "equip": [names]) was replaced by
EQUIP_MOVED = ("an Equip Card is a card of the set-up: write it on its own line, equipped to its monster, "
               "`A spell \"Legendary Sword\" equipped-to DM` (JSON: \"equipped_to\": \"DM\"); docs/format.md")


def _resolve_equips(cards: list[CardSpec], refs, err):
    """The set-up's `equipped-to` references (card, reference, line), once every card has its label:
    an Equip Card face-up in the Spell & Trap Zone, equipped to a face-up monster in the Monster
    Zone (GEN-20: "Equip Cards are equipped only to face-up monsters on the field")."""
    for card, ref, line in refs:
        label = _resolve(cards, ref, err, line)
        monster = next(c for c in cards if c.label == label)
        if monster is card:
            err(line, f"{_short_q(card.label)} is equipped to itself; expected the label of the monster it is equipped to")
        if card.zone != "spell_trap_zone" or not card.face_up:
            err(line, f"equipped-to is for a face-up Equip Card in the Spell & Trap Zone (`spell`); this card is "
                      f"{'face-down ' if not card.face_up else ''}in {card.zone}")
        if monster.zone != "monster_zone" or not monster.face_up:
            err(line, f"an Equip Card is equipped to a face-up monster in the monster zone; {_short_q(monster.label)} "
                      f"(line {monster.line}) is {'face-down ' if not monster.face_up else ''}in {monster.zone}")
        card.equipped_to = label


def _check_setup_card(card: CardSpec, err):
    if card.zone != "monster_zone" and card.defense:
        err(card.line, f"battle position (attack/defense) applies only to a card in the monster zone, "
                       f"not {card.zone}")
    if card.counters and not (card.face_up and card.zone in ("monster_zone", "spell_trap_zone", "field_zone")):
        err(card.line, f"counters are on a face-up card on the field; this card is {'face-down in ' if not card.face_up else ''}"
                       f"{card.zone} (a card has none elsewhere)")
    if not 0 <= card.counters <= vocab.MAX_COUNTERS:
        err(card.line, f"a card has 0 to {vocab.MAX_COUNTERS} counters, got {card.counters}")
    if card.summoned_this_turn and card.flip_summoned_this_turn:
        err(card.line, "summoned-this-turn (a Normal, Tribute or Special Summon) and flip-summoned-this-turn (a Flip "
                       "Summon) together: a monster is Summoned one way in a turn; expected one of them")
    for flag, word in ((card.special_summoned, "special-summoned"), (card.summoned_this_turn, "summoned-this-turn"),
                       (card.flip_summoned_this_turn, "flip-summoned-this-turn")):
        if flag and card.zone != "monster_zone":
            err(card.line, f"{word} says how a monster on the field came there; this card is in {card.zone}, "
                           "not the monster zone (a card that leaves the field is a new card)")
    if card.zone == "monster_zone" and not card.face_up and not card.defense:
        err(card.line, "a face-down monster must be in Defense Position; expected `defense` "
                       "(JSON: \"defense\": true)")


# ---------------------------------------------------------------------------
# Text form
# ---------------------------------------------------------------------------

def render_ref(label: str) -> str:
    if _LABEL.match(label) and label.lower() not in KEYWORDS:
        return label
    return _q(label)

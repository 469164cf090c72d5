"""Play files: the data model and its two forms.

A play is a Battle Phase written step by step: header facts (rule set, turn,
LP, the verdict it expects), the cards on the field and elsewhere (set-up),
and the actions in order. Two forms carry the same play:

* the text form (`.play`), line-oriented and hand-written -- `parse_text`;
* the JSON form (`.json`) -- `parse_json`.

`load(path)` picks the form by extension. `to_text`/`to_json` write a `Play`
back; each round-trips through its parser. docs/format.md is the reference.

Every problem is a `PlayError` naming the file, the line and what was expected.
This module only reads and writes plays; whether a play is legal is the
solver's business (model/, checks/checking/check.py).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from ygo_timing.errors import InputError
from ygo_timing.inputs import fileio, jsonloc
from ygo_timing.model import vocab

__all__ = [
    "PlayError", "CardSpec", "ActionSpec", "Play",
    "parse_text", "parse_json", "load", "to_json", "to_text",
    "ACTION_KINDS", "CLAIM_KINDS", "CALC_VALUES", "ZONE_WORDS", "SETUP_ZONES", "MAX_NUMBER",
]

# ---------------------------------------------------------------------------
# Vocabulary of the play forms
# ---------------------------------------------------------------------------

ACTION_KINDS = (
    "enter_bp", "skip_bp", "attack", "activate", "pass", "resolve", "next",
    "end_bp", "retarget", "stop_attack", "replace", "claim",
)
CLAIM_KINDS = ("lp", "destroyed_by_battle", "location", "atk", "window", "face_up", "calc")
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
               "window", "calc")
SETUP_OPTIONS = ("as", "attack", "defense", "face-up", "face-down", "atk", "def", "equip")
# Bare words that cannot be bare labels (quote such a label instead).
KEYWORDS = frozenset(SETUP_OPTIONS + ("direct", "effect", "target", "link", "with"))

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
    equip: list[str]      # names of cards equipped to it
    line: int


@dataclass
class ActionSpec:
    kind: str             # one of ACTION_KINDS
    line: int
    text: str             # the source line (text form, comment removed) or its text-form rendering (JSON form)
    player: str | None = None
    card: str | None = None      # label: attacker / activated / resolved / replaced / claimed card
    effect: int = 1              # 1-based effect number of the card
    target: str | None = None    # label
    direct: bool = False
    window: str | None = None    # `next <window>` / `claim window <window>`
    link: int = 0                # `link N` on activate; -1 for `chain`; 0: not said
    other: str | None = None     # `replace X with Y`: Y
    claim: str | None = None     # one of CLAIM_KINDS
    value: object = None         # int (lp, atk); zone (location); bool (destroyed_by_battle, face_up); CALC_VALUES (calc)


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
    labels = [_render_ref(c.label) if len(c.label) <= 60 else _short_q(c.label) for c in cards]
    if not labels:
        err(line, f"unknown {what} {_short_q(ref)}: the set-up has no cards")
    shown = ", ".join(labels[:12]) + (", ..." if len(labels) > 12 else "")
    err(line, f"unknown {what} {_short_q(ref)}; expected a label or card name from the set-up: {shown}")


def _render_ref(label: str) -> str:
    if _LABEL.match(label) and label.lower() not in KEYWORDS:
        return label
    return _q(label)


def _render_action(a: ActionSpec) -> str:
    r = _render_ref
    k = a.kind
    if k == "enter_bp":
        return "enter battle phase"
    if k == "skip_bp":
        return "skip battle phase"
    if k == "end_bp":
        return "end battle phase"
    if k == "stop_attack":
        return "stop attack"
    if k == "attack":
        return f"attack {r(a.card)} direct" if a.direct else f"attack {r(a.card)} -> {r(a.target)}"
    if k == "activate":
        s = f"{'chain' if a.link == -1 else 'activate'} {a.player} {r(a.card)}"
        if a.effect != 1:
            s += f" effect {a.effect}"
        if a.target is not None:
            s += f" target {r(a.target)}"
        if a.link > 0:
            s += f" link {a.link}"
        return s
    if k == "pass":
        return f"pass {a.player}"
    if k == "resolve":
        return "resolve" if a.card is None else f"resolve {r(a.card)}"
    if k == "next":
        return "next" if a.window is None else f"next {a.window}"
    if k == "retarget":
        return "retarget direct" if a.direct else f"retarget {r(a.target)}"
    if k == "replace":
        return f"replace {r(a.card)} with {r(a.other)}"
    if k == "claim":
        c = a.claim
        if c == "lp":
            return f"claim lp {a.player} {a.value}"
        if c == "atk":
            return f"claim atk {r(a.card)} {a.value}"
        if c == "destroyed_by_battle":
            return f"claim {'destroyed' if a.value else 'not-destroyed'} {r(a.card)}"
        if c == "location":
            return f"claim location {r(a.card)} {a.value}"
        if c == "face_up":
            return f"claim {'face-up' if a.value else 'face-down'} {r(a.card)}"
        if c == "window":
            return f"claim window {a.window}"
        if c == "calc":
            return f"claim calc {a.value}"
    raise ValueError(f"cannot render action {a!r}")


def _check_setup_card(card: CardSpec, err):
    if card.zone != "monster_zone" and card.defense:
        err(card.line, f"battle position (attack/defense) applies only to a card in the monster zone, "
                       f"not {card.zone}")
    if card.zone == "monster_zone" and not card.face_up and not card.defense:
        err(card.line, "a face-down monster must be in Defense Position; expected `defense` "
                       "(JSON: \"defense\": true)")


# ---------------------------------------------------------------------------
# Text form
# ---------------------------------------------------------------------------


def _strip_comment(line: str) -> str:
    """The line without its `#` comment (a `#` inside double quotes is text)."""
    if "#" not in line:
        return line
    if '"' not in line:
        return line[:line.index("#")]
    in_q = False
    i, n = 0, len(line)
    while i < n:
        c = line[i]
        if in_q:
            if c == "\\":
                i += 1
            elif c == '"':
                in_q = False
        elif c == '"':
            in_q = True
        elif c == "#":
            return line[:i]
        i += 1
    return line


class _Tok:
    __slots__ = ("kind", "value", "col", "raw")

    def __init__(self, kind, value, col, raw):
        self.kind, self.value, self.col, self.raw = kind, value, col, raw

    def word(self) -> str | None:
        return self.value.lower() if self.kind == "w" else None


def _describe(tok: _Tok | None) -> str:
    if tok is None:
        return "end of line"
    if len(tok.raw) > 60:
        return _short(tok.raw)
    return repr(tok.raw) if tok.kind != "q" else tok.raw


class _TextParser:
    def __init__(self, text: str, path: str):
        self.text = text
        self.path = path
        self.play = Play(path=path)
        self.pending: list = []          # (CardSpec, explicit label or None)
        self.first_action_line: int | None = None
        self.header_seen: dict[str, int] = {}

    def err(self, line, message):
        raise PlayError(self.path, line, message)

    # -- tokens -----------------------------------------------------------
    def tokenize(self, code: str, lineno: int) -> list[_Tok]:
        toks = []
        for m in _TOKEN.finditer(code):
            # bounds the work on a 4 MB line: no line of the format needs this many words
            if len(toks) >= MAX_WORDS and m.lastgroup is not None:
                self.err(lineno, f"more than {MAX_WORDS} words on one line; expected one header, "
                                 "set-up line or action per line")
            if m.group("q") is not None:
                raw = m.group("q")
                if not _NEEDS_JSON.search(raw):   # no escapes or control characters: the text itself
                    toks.append(_Tok("q", raw[1:-1], m.start() + 1, raw))
                    continue
                try:
                    val = jsonloc.loads(raw, self.path, first_line=lineno,
                                        first_column=m.start() + 1).value
                except jsonloc.JsonError as e:
                    self.err(lineno, f"bad quoted string {raw}: {e.message}")
                toks.append(_Tok("q", val, m.start() + 1, raw))
            elif m.group("arrow") is not None:
                toks.append(_Tok("arrow", "->", m.start() + 1, "->"))
            elif m.group("w") is not None:
                toks.append(_Tok("w", m.group("w"), m.start() + 1, m.group("w")))
            elif m.group("bad") is not None:
                self.err(lineno, f"unterminated quoted string starting at column {m.start() + 1}; "
                                 "expected a closing '\"'")
        return toks

    # -- driver -----------------------------------------------------------
    def parse(self) -> Play:
        text = self.text
        if text.startswith("\ufeff"):
            text = text[1:]
        lines = _LINE_BREAK.split(text)   # a lone CR ends a line too, as editors show it
        any_content = False
        last_line = 1
        for i, raw in enumerate(lines):
            lineno = i + 1
            if raw.endswith("\r"):
                raw = raw[:-1]
            code = _strip_comment(raw)
            lead = len(code) - len(code.lstrip())
            code = code.strip()
            if not code:
                continue
            any_content = True
            last_line = lineno
            m = _HEADER.match(code)
            if m:
                rest = code[m.end():]
                value = rest.strip()
                # 1-based column of the value in the raw line
                value_col = lead + m.end() + (len(rest) - len(rest.lstrip())) + 1
                self.header(m.group(1), value, lineno, value_col)
                continue
            toks = self.tokenize(code, lineno)
            first = toks[0]
            w = first.word()
            if w in ("a", "b"):
                if self.first_action_line is not None:
                    self.err(lineno, "set-up line after the first action (line "
                                     f"{self.first_action_line}); expected set-up lines before the actions")
                self.setup(toks, lineno)
                continue
            if w in VERBS:
                if self.first_action_line is None:
                    self.first_action_line = lineno
                    self.finish_setup()
                if len(self.play.actions) >= vocab.MAX_ACTIONS:
                    self.err(lineno, f"too many actions: a play has at most {vocab.MAX_ACTIONS}")
                self.play.actions.append(self.action(toks, lineno, code))
                continue
            self.err(lineno, f"unknown action {_describe(first)}; "
                             + _one_of(VERBS + ("A or B (a set-up line)", "key: value (a header)")))
        if not any_content:
            self.err(1, "empty play file; expected header lines, set-up lines and at least one action")
        if not self.play.actions:
            self.err(last_line, "the play has no actions; expected at least one action "
                                "(e.g. `enter battle phase`)")
        return self.play

    def finish_setup(self):
        _assign_labels(self.pending, self.err)

    # -- headers ----------------------------------------------------------
    def header(self, key: str, value: str, lineno: int, value_col: int):
        k = key.lower()
        name = _HEADER_FIELD.get(k)
        if name is None:
            hint = " (actions and set-up lines have no ':')" if k in VERBS or k in ("a", "b") else ""
            self.err(lineno, f"unknown keyword {_short(key)}{hint}; " + _one_of(HEADER_KEYS))
        if self.first_action_line is not None:
            self.err(lineno, f"header {_short(key)} after the first action (line {self.first_action_line}); "
                             "expected header lines before the actions")
        p = self.play
        if name != "card":
            if name in self.header_seen:
                self.err(lineno, f"duplicate header {_short(key)} (first on line {self.header_seen[name]}); "
                                 "expected each header at most once")
            self.header_seen[name] = lineno
            p.line_of[name] = lineno
        if name in ("title", "source"):
            setattr(p, name, self.free_text(value, lineno))
        elif name == "ruleset":
            v = value.lower()
            if v not in RULESETS:
                self.err(lineno, f"unknown ruleset {_short(value)}; " + _one_of(RULESETS))
            p.ruleset = v
        elif name == "turn":
            p.turn = self.number(value, lineno, "turn", low=1)
        elif name == "turn_player":
            p.turn_player = self.player_word(value, lineno)
        elif name == "lp":
            self.lp(value, lineno)
        elif name == "expect":
            parts = value.replace(",", " ").split()
            if not parts or parts[0].lower() not in ("legal", "illegal"):
                got = _short(parts[0]) if parts else "nothing"
                self.err(lineno, f"expected `legal` or `illegal [RULE-ID ...]` after 'expect:', got {got}")
            p.expect = parts[0].lower()
            if p.expect == "legal" and len(parts) > 1:
                self.err(lineno, f"unexpected {_short(parts[1])} after `expect: legal`; rule IDs go only "
                                 "with `illegal`")
            _check_rule_ids(parts[1:], self.err, lineno)
            p.expect_rules = parts[1:]
        elif name == "rules":
            parts = value.replace(",", " ").split()
            _check_rule_ids(parts, self.err, lineno)
            p.rules = parts
        elif name == "card":
            if not value:
                self.err(lineno, "expected a one-line JSON catalogue entry after 'card:'")
            if len(p.custom_cards) >= MAX_INLINE_CARDS:
                self.err(lineno, f"too many 'card:' lines: a play defines at most {MAX_INLINE_CARDS} cards")
            try:
                doc = jsonloc.loads(value, self.path, first_line=lineno, first_column=value_col)
            except jsonloc.JsonError as e:
                self.err(lineno, f"bad 'card:' entry: {e.message}")
            if not isinstance(doc.value, dict):
                self.err(lineno, "expected a JSON object (a catalogue entry) after 'card:'")
            i = len(p.custom_cards)
            p.custom_cards.append(doc.value)
            for sub, ln in doc.lines.items():
                p.line_of[("custom_cards", i) + sub] = ln

    def free_text(self, value: str, lineno: int) -> str:
        if len(value) >= 2 and value[0] == '"' and value[-1] == '"':
            toks = None
            try:
                toks = self.tokenize(value, lineno)
            except PlayError:
                toks = None
            if toks and len(toks) == 1 and toks[0].kind == "q":
                return toks[0].value
        return value

    def number(self, s: str, lineno: int, what: str, low: int = 0) -> int:
        if not _NUMBER.match(s):
            self.err(lineno, f"bad number {_short(s)} for {what}; expected a whole number {low} or more")
        if len(s.lstrip("0")) > len(str(MAX_NUMBER)):   # before int(): Python refuses > 4300 digits
            self.err(lineno, f"number {_short(s, quote=str)} for {what} is too large; "
                             f"expected at most {MAX_NUMBER}")
        n = int(s.lstrip("0") or "0")
        if n < low:
            self.err(lineno, f"bad number {_short(s)} for {what}; expected a whole number {low} or more")
        if n > MAX_NUMBER:
            self.err(lineno, f"number {s} for {what} is too large; expected at most {MAX_NUMBER}")
        return n

    def player_word(self, s: str, lineno: int) -> str:
        if s.upper() not in vocab.PLAYERS:
            self.err(lineno, f"expected a player (A or B), got {_short(s)}")
        return s.upper()

    def lp(self, value: str, lineno: int):
        seen = {}
        for part in value.split(","):
            words = part.split()
            if len(words) != 2:
                self.err(lineno, f"bad lp entry {_short(part.strip())}; expected `lp: A 8000, B 8000`")
            player = self.player_word(words[0], lineno)
            if player in seen:
                self.err(lineno, f"player {player} given twice in 'lp:'; expected each player at most once")
            seen[player] = self.number(words[1], lineno, f"{player}'s LP")
        self.play.lp.update(seen)

    # -- set-up -----------------------------------------------------------
    def setup(self, toks: list[_Tok], lineno: int):
        cur = _Cursor(self, toks, lineno)
        player = cur.player()
        zt = cur.next("a zone word (" + ", ".join(ZONE_WORDS) + ")")
        zw = zt.word()
        if zw not in ZONE_WORDS:
            self.err(lineno, f"unknown zone {_describe(zt)}; " + _one_of(ZONE_WORDS))
        zone, face_up = ZONE_WORDS[zw]
        nt = cur.next("a card name in double quotes")
        if nt.kind != "q":
            self.err(lineno, f"expected a card name in double quotes, got {_describe(nt)}")
        name = nt.value
        if not name.strip() or len(name) > MAX_NAME:
            self.err(lineno, f"card name of {len(name)} characters; expected 1 to {MAX_NAME} (as in the catalogue)")
        label = None
        position = None
        face = None
        atk = def_ = None
        equip: list[str] = []
        seen: set = set()
        while not cur.done():
            t = cur.next("")
            w = t.word()
            if w not in SETUP_OPTIONS:
                self.err(lineno, f"unexpected {_describe(t)} in set-up line; " + _one_of(SETUP_OPTIONS))
            group = {"attack": "position", "defense": "position", "face-up": "face",
                     "face-down": "face"}.get(w, w)
            if group in seen and w != "equip":
                self.err(lineno, f"{w!r} conflicts with an earlier option on this line; "
                                 "expected each option at most once")
            seen.add(group)
            if w == "as":
                lt = cur.next("a label")
                if lt.kind == "w":
                    if not _LABEL.match(lt.value):
                        self.err(lineno, f"bad label {_short(lt.value)}; expected a letter followed by letters, "
                                         "digits, '_' or '-', or a quoted label")
                    if lt.value.lower() in KEYWORDS:
                        self.err(lineno, f"label {_short(lt.value)} is a keyword; expected a quoted label: "
                                         f"as {_q(lt.value)}")
                elif lt.kind != "q":
                    self.err(lineno, f"expected a label after 'as', got {_describe(lt)}")
                if lt.value == "":
                    self.err(lineno, "expected a non-empty label after 'as'")
                label = lt.value
            elif w in ("attack", "defense"):
                position = w == "defense"
            elif w in ("face-up", "face-down"):
                face = w == "face-up"
            elif w in ("atk", "def"):
                nt2 = cur.next("a number")
                if nt2.kind != "w":
                    self.err(lineno, f"bad number {_describe(nt2)} after {w!r}; expected a whole number 0 or more")
                n = self.number(nt2.value, lineno, f"{w!r}")
                if w == "atk":
                    atk = n
                else:
                    def_ = n
            elif w == "equip":
                et = cur.next("a card name in double quotes")
                if et.kind != "q":
                    self.err(lineno, f"expected a card name in double quotes after 'equip', got {_describe(et)}")
                equip.append(et.value)
        if len(self.pending) >= vocab.MAX_CARDS:
            self.err(lineno, f"too many cards: a play has at most {vocab.MAX_CARDS}")
        card = CardSpec(label="", name=name, player=player, zone=zone,
                        face_up=face_up if face is None else face,
                        defense=bool(position), atk=atk, def_=def_, equip=equip, line=lineno)
        _check_setup_card(card, self.err)
        self.pending.append((card, label))
        self.play.cards.append(card)

    # -- actions ----------------------------------------------------------
    def action(self, toks: list[_Tok], lineno: int, code: str) -> ActionSpec:
        cur = _Cursor(self, toks, lineno)
        verb = cur.next("").word()
        a = ActionSpec(kind="", line=lineno, text=code)
        if verb in ("enter", "skip", "end"):
            cur.phrase_bp(verb)
            a.kind = {"enter": "enter_bp", "skip": "skip_bp", "end": "end_bp"}[verb]
        elif verb == "stop":
            cur.keyword(("attack",))
            a.kind = "stop_attack"
        elif verb == "attack":
            a.kind = "attack"
            a.card = cur.card()
            t = cur.next("'->' or 'direct'")
            if t.kind == "arrow":
                a.target = cur.card()
            elif t.word() == "direct":
                a.direct = True
            else:
                self.err(lineno, f"expected '->' or 'direct' after the attacker, got {_describe(t)}")
        elif verb in ("activate", "chain"):
            a.kind = "activate"
            a.player = cur.player()
            a.card = cur.card()
            opts = ("effect", "target", "link") if verb == "activate" else ("effect", "target")
            seen = set()
            while not cur.done():
                w = cur.keyword(opts)
                if w in seen:
                    self.err(lineno, f"{w!r} given twice; expected each option at most once")
                seen.add(w)
                if w == "effect":
                    a.effect = cur.number("effect", low=1)
                elif w == "target":
                    a.target = cur.card()
                else:
                    a.link = cur.number("link", low=1)
            if verb == "chain":
                a.link = -1
        elif verb == "pass":
            a.kind = "pass"
            a.player = cur.player()
        elif verb == "resolve":
            a.kind = "resolve"
            if not cur.done():
                a.card = cur.card()
        elif verb == "next":
            a.kind = "next"
            if not cur.done():
                a.window = cur.window()
        elif verb == "retarget":
            a.kind = "retarget"
            t = cur.peek()
            if t is not None and t.word() == "direct":
                cur.next("")
                a.direct = True
            else:
                a.target = cur.card()
        elif verb == "replace":
            a.kind = "replace"
            a.card = cur.card()
            cur.keyword(("with",))
            a.other = cur.card()
        elif verb == "claim":
            a.kind = "claim"
            w = cur.keyword(CLAIM_WORDS)
            if w == "lp":
                a.claim = "lp"
                a.player = cur.player()
                a.value = cur.number("LP")
            elif w == "atk":
                a.claim = "atk"
                a.card = cur.card()
                a.value = cur.number("ATK")
            elif w in ("destroyed", "not-destroyed"):
                a.claim = "destroyed_by_battle"
                a.card = cur.card()
                a.value = w == "destroyed"
            elif w == "location":
                a.claim = "location"
                a.card = cur.card()
                t = cur.next("a zone name (" + ", ".join(SETUP_ZONES) + ")")
                z = t.word()
                if z not in SETUP_ZONES:
                    self.err(lineno, f"unknown zone {_describe(t)}; " + _one_of(SETUP_ZONES))
                a.value = z
            elif w in ("face-up", "face-down"):
                a.claim = "face_up"
                a.card = cur.card()
                a.value = w == "face-up"
            elif w == "window":
                a.claim = "window"
                a.window = cur.window()
            else:
                a.claim = "calc"
                t = cur.next("done, skipped or pending")
                if t.word() not in CALC_VALUES:
                    self.err(lineno, f"unexpected {_describe(t)} after 'claim calc'; " + _one_of(CALC_VALUES))
                a.value = t.word()
        cur.end()
        return a


class _Cursor:
    def __init__(self, parser: _TextParser, toks: list[_Tok], lineno: int):
        self.p = parser
        self.toks = toks
        self.i = 0
        self.line = lineno

    def err(self, message):
        self.p.err(self.line, message)

    def done(self) -> bool:
        return self.i >= len(self.toks)

    def peek(self) -> _Tok | None:
        return None if self.done() else self.toks[self.i]

    def next(self, expected: str) -> _Tok:
        if self.done():
            self.err(f"expected {expected}, got end of line")
        t = self.toks[self.i]
        self.i += 1
        return t

    def end(self):
        if not self.done():
            self.err(f"unexpected {_describe(self.peek())}; expected end of line")

    def keyword(self, options) -> str:
        t = self.next("one of: " + ", ".join(options))
        w = t.word()
        if w not in options:
            self.err(f"unexpected {_describe(t)}; " + _one_of(options))
        return w

    def phrase_bp(self, verb: str):
        t = self.next("'battle phase' or 'bp'")
        w = t.word()
        if w == "bp":
            return
        if w == "battle":
            t2 = self.next("'phase'")
            if t2.word() == "phase":
                return
            self.err(f"unexpected {_describe(t2)} after '{verb} battle'; expected 'phase'")
        self.err(f"unexpected {_describe(t)} after {verb!r}; expected 'battle phase' or 'bp'")

    def player(self) -> str:
        t = self.next("a player (A or B)")
        w = t.word()
        if w not in ("a", "b"):
            self.err(f"expected a player (A or B), got {_describe(t)}")
        return w.upper()

    def card(self) -> str:
        t = self.next("a card (a label or a \"quoted name\")")
        if t.kind not in ("q", "w"):
            self.err(f"expected a card (a label or a \"quoted name\"), got {_describe(t)}")
        return _resolve(self.p.play.cards, t.value, self.p.err, self.line)

    def number(self, what: str, low: int = 0) -> int:
        t = self.next(f"a number ({what})")
        if t.kind != "w":
            self.err(f"bad number {_describe(t)} for {what}; expected a whole number {low} or more")
        return self.p.number(t.value, self.line, what, low)

    def window(self) -> str:
        t = self.next("a window name")
        w = t.word() if t.kind == "w" else None
        if w not in vocab.WINDOWS:
            self.err(f"unknown window {_describe(t)}; " + _one_of(vocab.WINDOWS))
        return w


def parse_text(text: str, path: str) -> Play:
    """Parse the text form (`.play`)."""
    if len(text) > vocab.MAX_FILE_BYTES:
        raise PlayError(path, None, f"file is larger than the limit of {vocab.MAX_FILE_BYTES} bytes")
    return _TextParser(text, path).parse()


# ---------------------------------------------------------------------------
# JSON form
# ---------------------------------------------------------------------------

_TOP_KEYS = ("$schema", "title", "ruleset", "turn", "turn_player", "lp", "expect", "rules",
             "source", "cards", "setup", "actions")
_SETUP_KEYS = ("player", "zone", "card", "label", "face_up", "defense", "atk", "def", "equip")
_ACTION_KEYS = {
    "enter_bp": (), "skip_bp": (), "end_bp": (), "stop_attack": (),
    "attack": ("card", "target", "direct"),
    "activate": ("player", "card", "effect", "target", "link"),
    "pass": ("player",),
    "resolve": ("card",),
    "next": ("window",),
    "retarget": ("target", "direct"),
    "replace": ("card", "other"),
    "claim": ("claim", "player", "card", "window", "value"),
}
_CLAIM_KEYS = {
    "lp": ("player", "value"), "atk": ("card", "value"),
    "destroyed_by_battle": ("card", "value"), "location": ("card", "value"),
    "face_up": ("card", "value"), "window": ("window",), "calc": ("value",),
}


class _JsonParser:
    def __init__(self, doc: jsonloc.Located, path: str):
        self.doc = doc
        self.path = path

    def err(self, line, message):
        raise PlayError(self.path, line, message)

    def at(self, p: tuple) -> int:
        return self.doc.line(p) or 1

    def fail(self, p: tuple, message: str):
        self.err(self.at(p), message)

    @staticmethod
    def name(p: tuple) -> str:
        out = ""
        for k in p:
            out += f"[{k}]" if isinstance(k, int) else (f".{k}" if out else k)
        return out or "the document"

    def obj(self, v, p, keys, what):
        if not isinstance(v, dict):
            self.fail(p, f"{self.name(p)}: expected a JSON object ({what}), got {_jtype(v)}")
        for k in v:
            if k not in keys:
                self.fail(p + (k,), f"unknown key {_short_q(k)} in {what}; " + _one_of(keys))
        return v

    def string(self, v, p, nonempty=True):
        if not isinstance(v, str):
            self.fail(p, f"{self.name(p)}: expected a string, got {_jtype(v)}")
        if nonempty and not v:
            self.fail(p, f"{self.name(p)}: expected a non-empty string")
        return v

    def boolean(self, v, p):
        if not isinstance(v, bool):
            self.fail(p, f"{self.name(p)}: expected true or false, got {_jtype(v)}")
        return v

    def integer(self, v, p, low=0, high=MAX_NUMBER):
        if isinstance(v, bool) or not isinstance(v, int):
            self.fail(p, f"{self.name(p)}: bad number {json.dumps(v)[:40]}; expected a whole number "
                         f"{low} or more")
        if v < low or v > high:
            self.fail(p, f"{self.name(p)}: number {_short(str(v), quote=str)} out of range; "
                         f"expected {low} to {high}")
        return v

    def enum(self, v, p, options, what):
        if not isinstance(v, str) or v not in options:
            shown = _short_q(v) if isinstance(v, str) else _jtype(v)
            self.fail(p, f"{self.name(p)}: unknown {what} {shown}; " + _one_of(options))
        return v

    def array(self, v, p):
        if not isinstance(v, list):
            self.fail(p, f"{self.name(p)}: expected an array, got {_jtype(v)}")
        return v

    def parse(self) -> Play:
        top = self.obj(self.doc.value, (), _TOP_KEYS, "a play")
        play = Play(path=self.path)
        for k in top:
            if k in ("title", "ruleset", "turn", "turn_player", "lp", "expect", "rules", "source"):
                play.line_of[k] = self.at((k,))
        if "$schema" in top:
            self.string(top["$schema"], ("$schema",))
        if "title" in top:
            play.title = self.string(top["title"], ("title",), nonempty=False)
        if "source" in top:
            play.source = self.string(top["source"], ("source",), nonempty=False)
        if top.get("ruleset") is not None:
            play.ruleset = self.enum(top["ruleset"], ("ruleset",), RULESETS, "ruleset")
        if "turn" in top:
            play.turn = self.integer(top["turn"], ("turn",), low=1)
        if "turn_player" in top:
            play.turn_player = self.enum(top["turn_player"], ("turn_player",), vocab.PLAYERS, "player")
        if "lp" in top:
            lp = self.obj(top["lp"], ("lp",), vocab.PLAYERS, "lp (LP per player)")
            for pl, n in lp.items():
                play.lp[pl] = self.integer(n, ("lp", pl))
        if top.get("expect") is not None:
            e = self.obj(top["expect"], ("expect",), ("verdict", "rules"), "expect")
            if "verdict" not in e:
                self.fail(("expect",), "expect: missing key \"verdict\"; expected \"legal\" or \"illegal\"")
            play.expect = self.enum(e["verdict"], ("expect", "verdict"), ("legal", "illegal"), "verdict")
            rules = self.rule_ids(e.get("rules", []), ("expect", "rules"))
            if play.expect == "legal" and rules:
                self.fail(("expect", "rules"), "expect.rules must be empty when the verdict is \"legal\"")
            play.expect_rules = rules
        if "rules" in top:
            play.rules = self.rule_ids(top["rules"], ("rules",))
        if "cards" in top:
            for i, entry in enumerate(self.array(top["cards"], ("cards",))):
                if i >= MAX_INLINE_CARDS:
                    self.fail(("cards", i), f"too many cards in \"cards\": a play defines at most "
                                            f"{MAX_INLINE_CARDS}")
                if not isinstance(entry, dict):
                    self.fail(("cards", i), f"cards[{i}]: expected a JSON object (a catalogue entry), "
                                            f"got {_jtype(entry)}")
                play.custom_cards.append(entry)
            for sub, ln in self.doc.lines.items():
                if len(sub) >= 2 and sub[0] == "cards":
                    play.line_of[("custom_cards",) + sub[1:]] = ln
        pending = []
        for i, c in enumerate(self.array(top.get("setup", []), ("setup",))):
            if i >= vocab.MAX_CARDS:
                self.fail(("setup", i), f"too many cards: a play has at most {vocab.MAX_CARDS}")
            pending.append(self.setup_card(c, ("setup", i)))
        play.cards = [c for c, _ in pending]
        _assign_labels(pending, self.err)
        if "actions" not in top:
            self.fail((), "missing key \"actions\"; expected a list of at least one action")
        acts = self.array(top["actions"], ("actions",))
        if not acts:
            self.fail(("actions",), "actions: expected at least one action")
        for i, a in enumerate(acts):
            if i >= vocab.MAX_ACTIONS:
                self.fail(("actions", i), f"too many actions: a play has at most {vocab.MAX_ACTIONS}")
            play.actions.append(self.action(a, ("actions", i), play.cards))
        return play

    def rule_ids(self, v, p) -> list[str]:
        out = []
        if len(self.array(v, p)) > MAX_RULE_IDS:
            self.fail(p, f"{self.name(p)}: {len(v)} rule IDs; expected at most {MAX_RULE_IDS}")
        for i, rid in enumerate(self.array(v, p)):
            self.string(rid, p + (i,))
            _check_rule_id(rid, self.err, self.at(p + (i,)))
            out.append(rid)
        return out

    def setup_card(self, c, p):
        c = self.obj(c, p, _SETUP_KEYS, "a set-up card")
        for k in ("player", "zone", "card"):
            if k not in c:
                self.fail(p, f"{self.name(p)}: missing key {_short_q(k)}; expected "
                             "\"player\", \"zone\" and \"card\"")
        player = self.enum(c["player"], p + ("player",), vocab.PLAYERS, "player")
        zone = c["zone"]
        if not isinstance(zone, str) or zone not in SETUP_ZONES:
            shown = _short_q(zone) if isinstance(zone, str) else _jtype(zone)
            self.fail(p + ("zone",), f"{self.name(p + ('zone',))}: unknown zone {shown}; "
                      + _one_of(SETUP_ZONES))
        name = self.string(c["card"], p + ("card",))
        if not name.strip() or len(name) > MAX_NAME:
            self.fail(p + ("card",), f"{self.name(p + ('card',))}: card name of {len(name)} characters; "
                                     f"expected 1 to {MAX_NAME} (as in the catalogue)")
        label = c.get("label")
        if label is not None:
            label = self.string(label, p + ("label",))
        face_up = c.get("face_up")
        face_up = DEFAULT_FACE_UP[zone] if face_up is None else self.boolean(face_up, p + ("face_up",))
        defense = c.get("defense")
        defense = False if defense is None else self.boolean(defense, p + ("defense",))
        atk = c.get("atk")
        atk = None if atk is None else self.integer(atk, p + ("atk",))
        def_ = c.get("def")
        def_ = None if def_ is None else self.integer(def_, p + ("def",))
        equip_v = c.get("equip")
        equip = [] if equip_v is None else [
            self.string(e, p + ("equip", j))
            for j, e in enumerate(self.array(equip_v, p + ("equip",)))]
        card = CardSpec(label="", name=name, player=player, zone=zone, face_up=face_up,
                        defense=defense, atk=atk, def_=def_, equip=equip, line=self.at(p))
        _check_setup_card(card, self.err)
        return card, label

    def action(self, a, p, cards) -> ActionSpec:
        if not isinstance(a, dict):
            self.fail(p, f"{self.name(p)}: expected a JSON object (an action), got {_jtype(a)}")
        if "do" not in a:
            self.fail(p, f"{self.name(p)}: missing key \"do\"; " + _one_of(ACTION_KINDS))
        kind = a["do"]
        if not isinstance(kind, str) or kind not in ACTION_KINDS:
            shown = _short_q(kind) if isinstance(kind, str) else _jtype(kind)
            self.fail(p + ("do",), f"unknown action {shown}; " + _one_of(ACTION_KINDS))
        allowed = ("do",) + _ACTION_KEYS[kind]
        if kind == "claim":
            if a.get("claim") is None:
                self.fail(p, f"{self.name(p)}: missing key \"claim\"; " + _one_of(CLAIM_KINDS))
            self.enum(a["claim"], p + ("claim",), CLAIM_KINDS, "claim")
            allowed = ("do", "claim") + _CLAIM_KEYS[a["claim"]]
        self.obj(a, p, allowed, f"a {_q(kind)} action")
        line = self.at(p)
        spec = ActionSpec(kind=kind, line=line, text="")
        get = a.get

        def card(key, required=True):
            v = get(key)
            if v is None:
                if required:
                    self.fail(p, f"{self.name(p)}: missing key {_q(key)}; expected a card label or name")
                return None
            self.string(v, p + (key,))
            return _resolve(cards, v, self.err, self.at(p + (key,)))

        def player():
            if get("player") is None:
                self.fail(p, f"{self.name(p)}: missing key \"player\"; expected \"A\" or \"B\"")
            return self.enum(a["player"], p + ("player",), vocab.PLAYERS, "player")

        def window(required):
            v = get("window")
            if v is None:
                if required:
                    self.fail(p, f"{self.name(p)}: missing key \"window\"; " + _one_of(vocab.WINDOWS))
                return None
            return self.enum(v, p + ("window",), vocab.WINDOWS, "window")

        def value_required():
            if "value" not in a or a["value"] is None:
                self.fail(p, f"{self.name(p)}: missing key \"value\"")
            return a["value"]

        if kind == "attack":
            spec.card = card("card")
            direct = get("direct")
            spec.direct = False if direct is None else self.boolean(direct, p + ("direct",))
            spec.target = card("target", required=False)
            if spec.direct == (spec.target is not None):
                self.fail(p, f"{self.name(p)}: an attack needs exactly one of \"target\" (a card) "
                             "or \"direct\": true")
        elif kind == "activate":
            spec.player = player()
            spec.card = card("card")
            if get("effect") is not None:
                spec.effect = self.integer(a["effect"], p + ("effect",), low=1)
            spec.target = card("target", required=False)
            if get("link") is not None:
                spec.link = self.integer(a["link"], p + ("link",), low=-1)
        elif kind == "pass":
            spec.player = player()
        elif kind == "resolve":
            spec.card = card("card", required=False)
        elif kind == "next":
            spec.window = window(False)
        elif kind == "retarget":
            direct = get("direct")
            spec.direct = False if direct is None else self.boolean(direct, p + ("direct",))
            spec.target = card("target", required=False)
            if spec.direct == (spec.target is not None):
                self.fail(p, f"{self.name(p)}: retarget needs exactly one of \"target\" (a card) "
                             "or \"direct\": true")
        elif kind == "replace":
            spec.card = card("card")
            spec.other = card("other")
        elif kind == "claim":
            c = spec.claim = a["claim"]
            vp = p + ("value",)
            if c == "lp":
                spec.player = player()
                spec.value = self.integer(value_required(), vp)
            elif c == "atk":
                spec.card = card("card")
                spec.value = self.integer(value_required(), vp)
            elif c in ("destroyed_by_battle", "face_up"):
                spec.card = card("card")
                spec.value = self.boolean(value_required(), vp)
            elif c == "location":
                spec.card = card("card")
                spec.value = self.enum(value_required(), vp, SETUP_ZONES, "zone")
            elif c == "window":
                spec.window = window(True)
            elif c == "calc":
                spec.value = self.enum(value_required(), vp, CALC_VALUES, "calc state")
        spec.text = _render_action(spec)
        return spec


def _jtype(v) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return f"the number {v}"
    if isinstance(v, str):
        return f"the string {_q(v[:40])}"
    if isinstance(v, list):
        return "an array"
    return "an object"


def _decode(data: bytes, path: str, first_line: int = 1) -> str:
    if len(data) > vocab.MAX_FILE_BYTES:   # load() reads one byte past the limit, no more
        raise PlayError(path, None, f"file is larger than the limit of {vocab.MAX_FILE_BYTES} bytes "
                                    f"({vocab.MAX_FILE_BYTES // 2**20} MB); expected a smaller play")
    try:
        return jsonloc.decode_utf8(data, path)
    except jsonloc.JsonError as e:   # the line in the file, not in this record (JSON Lines)
        raise PlayError(path, e.line + first_line - 1, e.message) from None


def parse_json(data: bytes | str, path: str, first_line: int = 1) -> Play:
    """Parse the JSON form (`first_line`: where it starts in its file, e.g. a JSON Lines line)."""
    text = _decode(data, path, first_line) if isinstance(data, (bytes, bytearray)) else data
    if len(text) > vocab.MAX_FILE_BYTES:
        raise PlayError(path, None, f"file is larger than the limit of {vocab.MAX_FILE_BYTES} bytes")
    try:
        doc = jsonloc.loads(text, path, first_line=first_line)
    except jsonloc.JsonError as e:
        raise PlayError(path, e.line, e.message) from None
    return _JsonParser(doc, path).parse()


def load(path: str) -> Play:
    """Read a play file: `.json` is the JSON form, anything else the text form."""
    data = fileio.read_regular(path, vocab.MAX_FILE_BYTES, PlayError)   # a FIFO or device: refused
    path = str(path)
    if path.lower().endswith(".json"):
        return parse_json(data, path)
    return parse_text(_decode(data, path), path)


# ---------------------------------------------------------------------------
# Writers
# ---------------------------------------------------------------------------


def to_json(play: Play) -> dict:
    """The JSON form of a play (parse_json(json.dumps(to_json(p))) gives p back,
    up to line numbers and action text)."""
    out: dict = {}
    if play.title:
        out["title"] = play.title
    out["ruleset"] = play.ruleset
    out["turn"] = play.turn
    out["turn_player"] = play.turn_player
    out["lp"] = {k: play.lp[k] for k in vocab.PLAYERS if k in play.lp}
    out["expect"] = (None if play.expect is None
                     else {"verdict": play.expect, "rules": list(play.expect_rules)})
    out["rules"] = list(play.rules)
    if play.source:
        out["source"] = play.source
    out["cards"] = [dict(c) for c in play.custom_cards]
    out["setup"] = [
        {"player": c.player, "zone": c.zone, "card": c.name, "label": c.label,
         "face_up": c.face_up, "defense": c.defense, "atk": c.atk, "def": c.def_,
         "equip": list(c.equip)}
        for c in play.cards
    ]
    out["actions"] = [_action_json(a) for a in play.actions]
    return out


def _action_json(a: ActionSpec) -> dict:
    d: dict = {"do": a.kind}
    k = a.kind
    if k == "attack":
        d["card"] = a.card
        if a.direct:
            d["direct"] = True
        else:
            d["target"] = a.target
    elif k == "activate":
        d.update(player=a.player, card=a.card, effect=a.effect, target=a.target, link=a.link)
    elif k == "pass":
        d["player"] = a.player
    elif k == "resolve":
        if a.card is not None:
            d["card"] = a.card
    elif k == "next":
        if a.window is not None:
            d["window"] = a.window
    elif k == "retarget":
        if a.direct:
            d["direct"] = True
        else:
            d["target"] = a.target
    elif k == "replace":
        d.update(card=a.card, other=a.other)
    elif k == "claim":
        d["claim"] = a.claim
        if a.claim == "lp":
            d.update(player=a.player, value=a.value)
        elif a.claim == "window":
            d["window"] = a.window
        elif a.claim == "calc":
            d["value"] = a.value
        else:
            d.update(card=a.card, value=a.value)
    return d


def _free_text(s: str) -> str:
    needs_quotes = (
        "#" in s or s != s.strip() or any(ord(ch) < 0x20 or ch == "\x7f" for ch in s)
        or (s.startswith('"') and s.endswith('"'))
    )
    return _q(s) if needs_quotes else s


def to_text(play: Play) -> str:
    """The text form of a play (parse_text(to_text(p)) gives p back, up to line
    numbers and action text)."""
    out: list[str] = []
    if play.title:
        out.append(f"title: {_free_text(play.title)}")
    if play.source:
        out.append(f"source: {_free_text(play.source)}")
    if play.ruleset is not None:
        out.append(f"ruleset: {play.ruleset}")
    out.append(f"turn: {play.turn}")
    out.append(f"turn-player: {play.turn_player}")
    out.append("lp: " + ", ".join(f"{k} {play.lp[k]}" for k in vocab.PLAYERS if k in play.lp))
    if play.expect is not None:
        out.append(" ".join(["expect:", play.expect] + list(play.expect_rules)))
    if play.rules:
        out.append("rules: " + " ".join(play.rules))
    for entry in play.custom_cards:
        out.append("card: " + json.dumps(entry, ensure_ascii=False, separators=(", ", ": ")))
    if play.cards:
        out.append("")
    names = [c.name for c in play.cards]
    for c in play.cards:
        # No `as` when the card's name gives it its label back; auto labels
        # ("Name#2") are written out, so they come back as explicit labels.
        out.append(_setup_line(c, implicit=c.label == c.name and names.count(c.name) == 1))
    out.append("")
    for a in play.actions:
        out.append(_render_action(a))
    return "\n".join(out) + "\n"


def _setup_line(c: CardSpec, implicit: bool) -> str:
    if c.zone == "spell_trap_zone":
        word = "spell" if c.face_up else "set"
        face_default = c.face_up
    else:
        word = next(w for w, (z, _) in ZONE_WORDS.items() if z == c.zone)
        face_default = ZONE_WORDS[word][1]
    parts = [c.player, word, _q(c.name)]
    if not implicit:
        parts.append("as " + _render_ref(c.label))
    if c.face_up != face_default:
        parts.append("face-up" if c.face_up else "face-down")
    if c.defense:
        parts.append("defense")
    if c.atk is not None:
        parts.append(f"atk {c.atk}")
    if c.def_ is not None:
        parts.append(f"def {c.def_}")
    for e in c.equip:
        parts.append(f"equip {_q(e)}")
    return " ".join(parts)

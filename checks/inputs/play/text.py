"""The text form (`.play`): the line-oriented parser (header lines, set-up lines, action lines).

Its writer, which round-trips with it, is text_writer.py; the tokens and the cursor it reads a
line with are text_tokens.py.
"""
from __future__ import annotations

import difflib

from ygo_timing.inputs import jsonloc
from ygo_timing.inputs.play.model import (
    _HEADER,
    _HEADER_FIELD,
    _LABEL,
    _LINE_BREAK,
    _NEEDS_JSON,
    _NUMBER,
    _TOKEN,
    CALC_VALUES,
    CLAIM_WORDS,
    HEADER_KEYS,
    KEYWORDS,
    MAX_INLINE_CARDS,
    MAX_NAME,
    MAX_NUMBER,
    MAX_WORDS,
    POSITIONS,
    EQUIP_MOVED,
    RULESETS,
    SETUP_OPTIONS,
    SETUP_ZONES,
    VERBS,
    ZONE_WORDS,
    ActionSpec,
    CardSpec,
    Play,
    PlayError,
    _assign_labels,
    _check_rule_ids,
    _check_setup_card,
    _one_of,
    _q,
    _resolve_equips,
    _short,
)
from ygo_timing.inputs.play.text_tokens import _Cursor, _describe, _strip_comment, _Tok
from ygo_timing.model import vocab


class _TextParser:
    def __init__(self, text: str, path: str):
        self.text = text
        self.path = path
        self.play = Play(path=path)
        self.pending: list = []          # (CardSpec, explicit label or None)
        self.equips: list = []           # (CardSpec, the `equipped-to` reference, line)
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
        _resolve_equips(self.play.cards, self.equips, self.err)

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
        equipped_to = None
        special = this_turn = flip = False
        counters = 0
        used: list = []
        seen: set = set()
        while not cur.done():
            t = cur.next("")
            w = t.word()
            if w == "equip":
                self.err(lineno, f"'equip' is no set-up option any more: {EQUIP_MOVED}")
            if w not in SETUP_OPTIONS:
                close = difflib.get_close_matches(w, SETUP_OPTIONS, n=1, cutoff=0.7) if t.kind == "w" else []
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                self.err(lineno, f"unexpected {_describe(t)} in set-up line{hint}; " + _one_of(SETUP_OPTIONS))
            group = {"attack": "position", "defense": "position", "face-up": "face",
                     "face-down": "face"}.get(w, w)
            if group in seen and w != "used":   # `used N` once for each of the card's effects
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
            elif w == "special-summoned":
                special = True
            elif w == "summoned-this-turn":
                this_turn = True
            elif w == "flip-summoned-this-turn":
                flip = True
            elif w == "counters":
                counters = cur.number("counters")
            elif w == "used":
                n = cur.number("the number of the card's effect whose limit was used", low=1)
                if n in used:
                    self.err(lineno, f"'used {n}' given twice; expected each of the card's effects at most once")
                used.append(n)
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
            elif w == "equipped-to":
                et = cur.next("a card (a label or a \"quoted name\")")
                if et.kind not in ("q", "w"):
                    self.err(lineno, f"expected the monster's label or \"quoted name\" after 'equipped-to', "
                                     f"got {_describe(et)}")
                equipped_to = et.value
        if len(self.pending) >= vocab.MAX_CARDS:
            self.err(lineno, f"too many cards: a play has at most {vocab.MAX_CARDS}")
        card = CardSpec(label="", name=name, player=player, zone=zone,
                        face_up=face_up if face is None else face,
                        defense=bool(position), atk=atk, def_=def_, line=lineno,
                        special_summoned=special, counters=counters, summoned_this_turn=this_turn,
                        flip_summoned_this_turn=flip, used=tuple(used))
        _check_setup_card(card, self.err)
        if equipped_to is not None:
            self.equips.append((card, equipped_to, lineno))
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
            opts = ("effect", "target", "cost", "link") if verb == "activate" else ("effect", "target", "cost")
            seen = set()
            while not cur.done():
                w = cur.keyword(opts)
                if w in seen and not (w == "target" and a.target2 is None):
                    self.err(lineno, f"{w!r} given {'three times' if w == 'target' else 'twice'}; expected each "
                                     "option at most once ('target' twice for an effect that targets two cards)")
                seen.add(w)
                if w == "effect":
                    a.effect = cur.number("effect", low=1)
                elif w == "target" and a.target is not None:
                    a.target2 = cur.card()
                elif w == "target":
                    a.target = cur.card()
                elif w == "cost":
                    a.other = cur.card()
                else:
                    a.link = cur.number("link", low=1)
            if verb == "chain":
                a.link = -1
        elif verb == "pass":
            a.kind = "pass"
            a.player = cur.player()
        elif verb == "resolve":
            a.kind = "resolve"
            t = cur.peek()
            if t is not None and not (t.kind == "w" and t.word() == "choose"):
                a.card = cur.card()
            while not cur.done():   # the cards the link chooses as it resolves (GEN-22)
                cur.keyword(("choose",))
                if a.choice2 is not None:
                    self.err(lineno, f"'choose' given three times; expected at most {vocab.MAX_CHOICES} cards "
                                     "(an effect chooses at most two as it resolves)")
                if a.choice is None:
                    a.choice = cur.card()
                else:
                    a.choice2 = cur.card()
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
            elif w in ("atk", "def", "counters"):
                a.claim = w
                a.card = cur.card()
                a.value = cur.number(w.upper() if w != "counters" else "counters")
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
            elif w == "position":
                a.claim = "position"
                a.card = cur.card()
                t = cur.next("attack or defense")
                if t.word() not in POSITIONS:
                    self.err(lineno, f"unexpected {_describe(t)} after 'claim position CARD'; " + _one_of(POSITIONS))
                a.value = t.word()
            elif w in ("attacking", "not-attacking"):
                a.claim = "attacking"
                a.value = w == "attacking"
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


def parse_text(text: str, path: str) -> Play:
    """Parse the text form (`.play`)."""
    if len(text) > vocab.MAX_FILE_BYTES:
        raise PlayError(path, None, f"file is larger than the limit of {vocab.MAX_FILE_BYTES} bytes")
    return _TextParser(text, path).parse()

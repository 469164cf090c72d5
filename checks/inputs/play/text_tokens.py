"""The text form's tokens: a line without its comment, the token the parser's tokenizer makes,
how a token is named in an error, and the cursor a set-up or action line's tokens are read with.

Separate from the parser (text.py), which holds the grammar of the lines: these are the pieces
below it, that take one token at a time and say what was found where something else was
expected.
"""
from __future__ import annotations

from typing import NoReturn, Protocol

from ygo_timing.inputs.play.model import Play, _one_of, _resolve, _short
from ygo_timing.model import vocab


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


class _LineParser(Protocol):
    """What a cursor uses of the parser (text.py's _TextParser) whose line it reads."""
    play: Play

    def err(self, line, message) -> NoReturn: ...

    def number(self, s: str, lineno: int, what: str, low: int = 0) -> int: ...


class _Cursor:
    def __init__(self, parser: _LineParser, toks: list[_Tok], lineno: int):
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

"""Strict JSON that remembers the line of every value.

`loads(text, path)` returns a `Located`: the plain Python value (dict, list,
str, int, float, bool, None) and `lines`, a dict mapping the path of every
value -- a tuple of object keys and array indexes, `()` for the whole
document -- to the line (1-based) where that value starts:

    doc = loads('{"actions": [\\n {"do": "pass"}]}', "p.json")
    doc.lines[("actions", 0, "do")]   # -> 2
    doc.line(("actions", 0, "player"))  # absent: nearest ancestor's line -> 2

Stricter than the `json` module: duplicate object keys, NaN, Infinity,
numbers out of float range, lone surrogate escapes and nesting deeper than
`MAX_DEPTH` are errors. Every error is a `JsonError` carrying the line, the
column and what was expected. A leading byte-order mark is skipped.
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from json.decoder import scanstring as _scanstring

from ygo_timing.errors import InputError

MAX_DEPTH = 64  # arrays/objects nested in one another
# Values in one play document: above any play the limits allow (10,000 actions, 24 set-up cards and
# 256 inline cards are at most ~120,000 values), low enough that a hostile 4 MB file of tiny
# values is refused in a second or two rather than parsed for twenty.
MAX_VALUES = 200_000

__all__ = ["MAX_DEPTH", "MAX_VALUES", "JsonError", "Located", "loads", "decode_utf8"]


class JsonError(InputError):
    """A JSON syntax or encoding error. str() -> "path:line: message"."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None,
                 path: str = "<json>"):
        super().__init__(path, line, message)
        self.column = column

    def __reduce__(self):
        return (self.__class__, (self.message, self.line, self.column, self.path))


@dataclass
class Located:
    """A parsed JSON document and the line where each of its values starts."""

    value: object
    lines: dict = field(default_factory=dict)

    def line(self, path: tuple = ()) -> int | None:
        """Line of the value at `path`, or of its nearest recorded ancestor."""
        path = tuple(path)
        while True:
            if path in self.lines:
                return self.lines[path]
            if not path:
                return None
            path = path[:-1]


def decode_utf8(data: bytes, path: str = "<json>") -> str:
    """Strict UTF-8 decoding; the error names the line of the first bad byte."""
    try:
        return data.decode("utf-8", errors="strict")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        column = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise JsonError(
            f"not valid UTF-8: byte 0x{data[e.start]:02x} at column {column} "
            f"({e.reason}); expected UTF-8 text",
            line, column, path) from None


def loads(text: str | bytes, path: str = "<json>", *, first_line: int = 1,
          first_column: int = 1, max_values: int | None = MAX_VALUES) -> Located:
    """Parse one JSON document. `first_line`/`first_column` say where `text`
    starts in its file (for JSON embedded in another file's line); `max_values`
    None lifts the limit (an imported card pool, bounded by its own file size)."""
    if isinstance(text, (bytes, bytearray)):
        text = decode_utf8(bytes(text), path)
    p = _Parser(text, path, first_line, first_column)
    p.max_values = max_values if max_values is not None else float("inf")
    return p.document()


_WS = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_STR_FAST = re.compile(r'"([^"\\\x00-\x1f]*)"')
_STR_CHUNK = re.compile(r'[^"\\\x00-\x1f]*')
_SURROGATE = re.compile("[\ud800-\udfff]")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUMBER_TAIL = set("0123456789.eE+-") | set("abcdfghijklmnopqrstuvwxyzABCDFGHIJKLMNOPQRSTUVWXYZ_")
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_VALUE_START = "a JSON value (object, array, string, number, true, false or null)"


class _Parser:
    def __init__(self, s: str, path: str, first_line: int, first_column: int):
        self.s = s
        self.path = path
        self.pos = 0
        self.line = first_line
        # Position of the first character of the current line, adjusted so that
        # pos - line_start + 1 is the column (first line may start mid-line).
        self.line_start = -(first_column - 1)
        self.lines: dict = {}

    # -- helpers ---------------------------------------------------------
    def error(self, message: str, pos: int | None = None, line: int | None = None):
        if pos is None:
            pos = self.pos
        column = pos - self.line_start + 1 if line is None else None
        if line is None:
            line = self.line
        where = f" (column {column})" if column is not None else ""
        raise JsonError(message + where, line, column, self.path)

    def got(self) -> str:
        s, pos = self.s, self.pos
        if pos >= len(s):
            return "end of file"
        m = _WORD.match(s, pos)
        if m:
            return repr(m.group()[:20])
        c = s[pos]
        if c < " ":
            return f"control character U+{ord(c):04X}"
        return repr(c)

    def skip_ws(self):
        s = self.s
        m = _WS.match(s, self.pos)
        end = m.end()
        if end != self.pos:
            n = s.count("\n", self.pos, end)
            if n:
                self.line += n
                self.line_start = s.rfind("\n", self.pos, end) + 1
            self.pos = end

    # -- grammar ---------------------------------------------------------
    def document(self) -> Located:
        if self.s.startswith("\ufeff"):
            self.pos = 1
            self.line_start += 1
        self.skip_ws()
        if self.pos >= len(self.s):
            self.error(f"empty document: expected {_VALUE_START}")
        value = self.value((), 0)
        self.skip_ws()
        if self.pos < len(self.s):
            self.error(f"expected end of file after the JSON value, got {self.got()}")
        return Located(value, self.lines)

    def value(self, path: tuple, depth: int):
        # caller has skipped whitespace
        s, pos = self.s, self.pos
        self.lines[path] = self.line
        if len(self.lines) > self.max_values:
            self.error(f"more than {self.max_values} values in one document; expected a smaller file")
        if pos >= len(s):
            self.error(f"expected {_VALUE_START}, got end of file")
        c = s[pos]
        if c == '"':
            return self.string()
        if c == "{":
            return self.obj(path, depth + 1)
        if c == "[":
            return self.array(path, depth + 1)
        if c == "-" or "0" <= c <= "9":
            return self.number()
        for word, val in (("true", True), ("false", False), ("null", None)):
            if s.startswith(word, pos):
                end = pos + len(word)
                if end < len(s) and (s[end].isalnum() or s[end] == "_"):
                    break
                self.pos = end
                return val
        m = _WORD.match(s, pos)
        if m and m.group() in ("NaN", "Infinity"):
            self.error(f"{m.group()} is not allowed in JSON; expected a finite number")
        self.error(f"expected {_VALUE_START}, got {self.got()}")

    def obj(self, path: tuple, depth: int) -> dict:
        if depth > MAX_DEPTH:
            self.error(f"nesting deeper than {MAX_DEPTH} levels")
        self.pos += 1
        out: dict = {}
        key_lines: dict = {}
        self.skip_ws()
        if self.pos < len(self.s) and self.s[self.pos] == "}":
            self.pos += 1
            return out
        while True:
            if self.pos >= len(self.s) or self.s[self.pos] != '"':
                self.error(f"expected a string key in double quotes, got {self.got()}")
            key_line = self.line
            key = self.string()
            if key in out:
                self.error(f"duplicate key {_q(key)} (first at line {key_lines[key]})",
                           line=key_line)
            key_lines[key] = key_line
            self.skip_ws()
            if self.pos >= len(self.s) or self.s[self.pos] != ":":
                self.error(f"expected ':' after key {_q(key)}, got {self.got()}")
            self.pos += 1
            self.skip_ws()
            out[key] = self.value(path + (key,), depth)
            self.skip_ws()
            c = self.s[self.pos] if self.pos < len(self.s) else ""
            if c == ",":
                self.pos += 1
                self.skip_ws()
                continue
            if c == "}":
                self.pos += 1
                return out
            self.error(f"expected ',' or '}}', got {self.got()}")

    def array(self, path: tuple, depth: int) -> list:
        if depth > MAX_DEPTH:
            self.error(f"nesting deeper than {MAX_DEPTH} levels")
        self.pos += 1
        out: list = []
        self.skip_ws()
        if self.pos < len(self.s) and self.s[self.pos] == "]":
            self.pos += 1
            return out
        while True:
            out.append(self.value(path + (len(out),), depth))
            self.skip_ws()
            c = self.s[self.pos] if self.pos < len(self.s) else ""
            if c == ",":
                self.pos += 1
                self.skip_ws()
                if self.pos < len(self.s) and self.s[self.pos] == "]":
                    self.error("expected a JSON value after ',' (trailing commas are not allowed)")
                continue
            if c == "]":
                self.pos += 1
                return out
            self.error(f"expected ',' or ']', got {self.got()}")

    def number(self):
        s, pos = self.s, self.pos
        m = _NUMBER.match(s, pos)
        if m is None:
            if s.startswith("-Infinity", pos):
                self.error("-Infinity is not allowed in JSON; expected a finite number")
            self.error(f"expected a number, got {self.got()}")
        end = m.end()
        if end < len(s) and s[end] in _NUMBER_TAIL:
            tail = re.match(r"[0-9A-Za-z_.+-]*", s[pos:]).group()
            self.error(f"invalid number {tail[:30]!r}; expected a JSON number like 12, -3 or 1.5e3")
        text = m.group()
        if m.group(1) is None and m.group(2) is None:
            try:
                val = int(text)
            except ValueError:
                self.error(f"number too long ({len(text)} digits)")
        else:
            val = float(text)
            if math.isinf(val):
                self.error(f"number {text[:30]} is out of range; expected a finite number")
        self.pos = end
        return val

    def string(self) -> str:
        s = self.s
        m = _STR_FAST.match(s, self.pos)
        if m:
            self.pos = m.end()
            return m.group(1)
        try:   # the json module's C scanner for the valid case; the loop below finds the error
            val, end = _scanstring(s, self.pos + 1, True)
        except ValueError:
            val = None
        if val is not None and not _SURROGATE.search(val):   # (it lets lone surrogates through)
            self.pos = end
            return val
        start = self.pos
        pos = start + 1
        parts = []
        while True:
            m = _STR_CHUNK.match(s, pos)
            parts.append(m.group())
            pos = m.end()
            if pos >= len(s):
                self.error("unterminated string: expected a closing '\"'", start)
            c = s[pos]
            if c == '"':
                self.pos = pos + 1
                return "".join(parts)
            if c == "\\":
                if pos + 1 >= len(s):
                    self.error("unterminated string: expected a closing '\"'", start)
                e = s[pos + 1]
                if e in _ESCAPES:
                    parts.append(_ESCAPES[e])
                    pos += 2
                    continue
                if e == "u":
                    code, pos = self.hex4(pos)
                    if 0xD800 <= code <= 0xDBFF:
                        if s.startswith("\\u", pos):
                            low, pos2 = self.hex4(pos)
                            if 0xDC00 <= low <= 0xDFFF:
                                parts.append(chr(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)))
                                pos = pos2
                                continue
                        self.error("lone surrogate in \\u escape; expected a surrogate pair", pos - 6)
                    if 0xDC00 <= code <= 0xDFFF:
                        self.error("lone surrogate in \\u escape; expected a surrogate pair", pos - 6)
                    parts.append(chr(code))
                    continue
                self.error(f"invalid escape '\\{e}' in string; expected one of: "
                           "\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX", pos)
            # control character
            if c == "\n":
                self.error("unterminated string: expected a closing '\"' before the end of the line", start)
            self.error(f"control character U+{ord(c):04X} in string; expected it escaped", pos)

    def hex4(self, pos: int):
        digits = self.s[pos + 2:pos + 6]
        if len(digits) != 4 or not all(ch in "0123456789abcdefABCDEF" for ch in digits):
            self.error("invalid \\u escape; expected 4 hexadecimal digits", pos)
        return int(digits, 16), pos + 6


def _q(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)

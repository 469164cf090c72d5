"""Typed, located access to a catalogue's JSON objects: every error names the file and line,
and says what was expected (a user's `--cards` file is untrusted input)."""
from __future__ import annotations

import difflib

from ygo_timing.errors import InputError
from ygo_timing.inputs import jsonloc


class CatalogueError(InputError):
    """A catalogue file problem. str() -> "path:line: message"."""


REQUIRED = object()


def short(v, n: int = 60) -> str:
    """repr() of a user's value for a message, cut so a huge value cannot flood it."""
    s = repr(v)
    return s if len(s) <= n else s[:n] + f"... ({len(s)} characters)"


def did_you_mean(value, choices) -> str:
    """" (did you mean 'x'?)" when `value` is close to one of `choices`, else ""."""
    if not isinstance(value, str):
        return ""
    close = difflib.get_close_matches(value, [str(c) for c in choices], n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


class Reader:
    """Typed access to one JSON object, with errors that name the file and line."""

    def __init__(self, doc: jsonloc.Located, path: str, where: tuple):
        self.doc, self.path, self.where = doc, path, where

    def fail(self, key, message):
        line = self.doc.line(self.where + ((key,) if key is not None else ()))
        raise CatalogueError(self.path, line, message)

    def obj(self, value, keys, what):
        if not isinstance(value, dict):
            self.fail(None, f"{what}: expected an object")
        unknown = sorted(set(value) - keys)
        if unknown:
            self.fail(unknown[0], f"{what}: unknown key {short(unknown[0])}{did_you_mean(unknown[0], keys)}; "
                                  f"expected one of: {', '.join(sorted(keys))}")
        return value

    def get(self, d, key, kind, default=None, choices=None, what=""):
        if key not in d:
            if default is REQUIRED:
                self.fail(None, f"{what}: missing required key {key!r}")
            return default
        v = d[key]
        if v is None and default is not REQUIRED and kind is not bool:
            return default
        ok = isinstance(v, kind) and not (kind is int and isinstance(v, bool))
        if not ok:
            self.fail(key, f"{what}: {key!r} must be {kind.__name__}, got {type(v).__name__}")
        if choices is not None and v not in choices:
            self.fail(key, f"{what}: {key!r} is {short(v)}{did_you_mean(v, choices)}; expected one of: "
                           f"{', '.join(choices)}")
        if kind is int and not -10**6 <= v <= 10**6:
            self.fail(key, f"{what}: {key!r} is out of range (-1000000..1000000)")
        return v

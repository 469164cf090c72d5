"""What every command shares: `--timeout` in one unit, and defaults from `[tool.ygo-timing]`.

`--timeout` is seconds everywhere (a decimal number, or with a unit: `20`, `2.5`, `500ms`,
`20s`). `check`, `options` and the pytest plugin used to read a bare number as milliseconds; a
bare number over their limit of 600 s is refused with the spelling to use instead, so an old
`--timeout 20000` never turns silently into 5.6 hours.

The defaults come from the first pyproject.toml with a `[tool.ygo-timing]` table, walking up
from the working directory (docs/guide.md, "Configuration"). Options given on the command line
win over it; `cards` paths are relative to the pyproject.toml's directory.
"""
from __future__ import annotations

import math
import sys
from pathlib import Path

import click
from ygo_timing.model import rulesets

if sys.version_info >= (3, 11):
    import tomllib
else:   # the same parser, as a package, before it joined the standard library (pyproject.toml)
    import tomli as tomllib

PER_QUERY_MAX_S = 600.0   # check, options, the pytest plugin: one solver query
SEARCH_MAX_S = 86_400.0   # diff, consistency: the whole search


class Seconds(click.ParamType):
    """A time limit in seconds: `20`, `2.5`, `500ms`, `20s`."""
    name = "seconds"

    def __init__(self, maximum: float, old_ms: bool = False):
        self.maximum, self.old_ms = maximum, old_ms

    def convert(self, value, param, ctx):
        try:
            return parse_seconds(str(value).strip(), self.maximum, self.old_ms)
        except ValueError as e:
            self.fail(str(e), param, ctx)


def parse_seconds(text: str, maximum: float, old_ms: bool = False) -> float:
    """Seconds from `20`, `2.5`, `500ms` or `20s`; ValueError says what was expected."""
    unit = 1.0
    number = text
    if text.endswith("ms"):
        unit, number = 0.001, text[:-2]
    elif text.endswith("s"):
        number = text[:-1]
    try:
        seconds = float(number) * unit
    except ValueError:
        raise ValueError(f"{text!r} is not a time; expected seconds such as 20, 2.5, 500ms or 20s") from None
    if not seconds > 0 or math.isnan(seconds):
        raise ValueError(f"{text!r}: expected a time above 0 (seconds, or e.g. 500ms)")
    if seconds > maximum:
        if old_ms and number == text:
            raise ValueError(f"{text!r}: --timeout is in seconds now (it was milliseconds); "
                             f"write {float(text) / 1000:g} or {text}ms (at most {maximum:g} s)")
        raise ValueError(f"{text!r}: expected at most {maximum:g} seconds")
    return seconds


def timeout_ms(seconds: float) -> int:
    """The solver's per-query limit (z3 counts milliseconds), at least 1 ms."""
    return max(1, round(seconds * 1000))


# --- [tool.ygo-timing] ---------------------------------------------------------------------
CHECK_FORMATS = ("text", "json", "junit", "github", "sarif")
KEYS = {   # key: what it must be (for the error message)
    "ruleset": f"one of {', '.join(rulesets.NAMES)}",
    "cards": "a list of card catalogue paths (relative to this file)",
    "format": f"one of {', '.join(CHECK_FORMATS)}",
    "jobs": "a whole number from 1 to 256",
    "timeout": f"seconds per solver query (a number above 0, at most {PER_QUERY_MAX_S:g}, or a string such as '500ms')",
}


class ConfigError(click.UsageError):
    exit_code = 2


def find_config(start: Path) -> Path | None:
    """The first pyproject.toml with a [tool.ygo-timing] table, from `start` up to the root."""
    for d in [start, *start.parents]:
        f = d / "pyproject.toml"
        if f.is_file() and "ygo-timing" in _read(f).get("tool", {}):
            return f
    return None


def _read(f: Path) -> dict:
    try:
        return tomllib.loads(f.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise ConfigError(f"{f}: cannot read it as TOML: {e}") from None


def settings(f: Path) -> dict:
    """The [tool.ygo-timing] table of `f`, checked: {key: value}, cards as paths from the cwd."""
    table = _read(f)["tool"]["ygo-timing"]
    where = f"{f}: [tool.ygo-timing]"
    if not isinstance(table, dict):
        raise ConfigError(f"{where} must be a table")
    out = {}
    for key, value in table.items():
        if key not in KEYS:
            raise ConfigError(f"{where}: unknown key {key!r}; expected one of: {', '.join(KEYS)}")
        if not _valid(key, value):
            raise ConfigError(f"{where}: {key} = {value!r}; expected {KEYS[key]}")
        if key == "cards":
            value = tuple(str(f.parent / p) for p in value)
        elif key == "timeout":
            value = parse_seconds(str(value), PER_QUERY_MAX_S)
        out[key] = value
    return out


def _valid(key, value) -> bool:
    if key == "ruleset":
        return value in rulesets.NAMES
    if key == "cards":
        return isinstance(value, list) and all(isinstance(p, str) and p for p in value)
    if key == "format":
        return value in CHECK_FORMATS
    if isinstance(value, bool):   # TOML's true/false are no number, no time
        return False
    if key == "jobs":
        return isinstance(value, int) and 1 <= value <= 256
    try:   # timeout
        parse_seconds(str(value), PER_QUERY_MAX_S)
    except ValueError:
        return False
    return isinstance(value, (int, float, str))


def default_map(start: Path) -> dict:
    """click's default_map: each command gets the settings it has an option for."""
    f = find_config(start)
    if f is None:
        return {}
    s = settings(f)
    names = {"ruleset": "ruleset", "cards": "cards_files", "format": "fmt", "jobs": "jobs", "timeout": "timeout"}
    check = {names[k]: v for k, v in s.items()}
    options = {names[k]: v for k, v in s.items() if k in ("ruleset", "cards", "timeout")}
    if s.get("format") in ("text", "json"):
        options["fmt"] = s["format"]
    return {"check": check, "options": options}


def default_root(start: Path) -> Path:
    """What CI paths are relative to (--root): the repository's root when `start` is inside git
    (the nearest directory up holding .git, a directory or a worktree's file), else `start`."""
    for d in [start, *start.parents]:
        if (d / ".git").exists():
            return d
    return start

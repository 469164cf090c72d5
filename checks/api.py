"""The library's public API (docs/api.md): check a play, ask what may be done, diff rule sets.

Everything here is typed and re-exported by `ygo_timing` itself (lazily: `import ygo_timing`
loads no solver). A play is given as a path (`check_file`) or as its text (`check_text`); cards
as catalogue file paths or as dicts (one card, or a catalogue document `{"cards": [...]}`).
The answers are frozen dataclasses; the command line formats the same records.
"""
from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Union

from ygo_timing.checking.check import check_play
from ygo_timing.checking.deadline import DEFAULT_DEADLINE_S
from ygo_timing.checking.verdict import DEFAULT_RLIMIT, Verdict
from ygo_timing.errors import InputError
from ygo_timing.inputs.play import Play, PlayError, load, parse_bytes, parse_json
from ygo_timing.output.ci_formats import exit_status

__all__ = ["CardSource", "Rule", "Action", "CheckResult", "Choice", "OptionsResult", "Difference",
           "DiffResult", "InputError", "check_file", "check_text", "options_file", "options_text", "diff",
           "DEFAULT_TIMEOUT"]

# InputError (ygo_timing.errors): bad input to `options_*` or `diff`, with `path`, `line` and
# `message` (what was expected); `check_*` answer bad input with an "error" verdict instead.

#: a catalogue file, or cards in memory: one card's dict, or a catalogue document {"cards": [...]}
CardSource = Union[str, "os.PathLike[str]", Mapping[str, Any]]
VerdictKind = Literal["legal", "illegal", "error", "unknown"]
DEFAULT_TIMEOUT: float = 20.0   # seconds per solver query, as `--timeout` of the command line


@dataclass(frozen=True)
class Rule:
    id: str                       # a rule ID of docs/rules.md, e.g. "T4"
    statement: str
    sources: tuple[str, ...]      # source lines, e.g. ("S0-TCG 70-78",)


@dataclass(frozen=True)
class Action:
    index: int                    # 1-based, in the order of the play's actions
    line: int                     # the play file's line
    text: str                     # the action as written


@dataclass(frozen=True)
class CheckResult:
    """One play's verdict: `legal`, `illegal` (with the first illegal action, the rules it
    breaks and the facts that make it so), `error` (bad input: `message` says where and what)
    or `unknown` (the solver gave up within its limits; never a legal)."""
    path: str
    ruleset: str
    verdict: VerdictKind
    first_illegal: Action | None
    rules: tuple[Rule, ...]
    facts: tuple[str, ...]
    message: str | None
    expect: str | None            # the play's own `expect:` verdict, if it states one
    expect_rules: tuple[str, ...]
    raw: Verdict                  # the record `ygo-timing check` formats (to_dict: its JSON)
    # card text the verdict does not weigh: "CARD (effect N): WHAT" (checking/caveats.py)
    not_modelled: tuple[str, ...] = ()

    @property
    def matches_expect(self) -> bool:
        """True when the play states no `expect:` or its verdict (and cited rules) meet it."""
        return self.raw.matches_expect()

    @property
    def passed(self) -> bool:
        """As `check`'s exit code 0: it meets its `expect:`, or is legal without one."""
        return exit_status(self.raw) == 0

    def to_dict(self) -> dict[str, Any]:
        return dict(self.raw.to_dict())


def _result(v: Verdict) -> CheckResult:
    fi = v.first_illegal
    return CheckResult(
        path=v.path, ruleset=v.ruleset, verdict=v.verdict,  # type: ignore[arg-type]
        first_illegal=Action(fi["index"], fi["line"], fi["action"].strip()) if fi else None,
        rules=tuple(Rule(r["rule"], r["statement"], tuple(r["sources"])) for r in v.violations),
        facts=tuple(v.facts), message=v.message, expect=v.expect, expect_rules=tuple(v.expect_rules), raw=v,
        not_modelled=tuple(v.not_modelled))


def card_sources(cards: Iterable[CardSource]) -> tuple[Any, ...]:
    """Paths as strings; a dict that is one card becomes a catalogue document of that card."""
    if isinstance(cards, (str, os.PathLike, Mapping)):
        cards = [cards]   # one source given alone
    out: list[Any] = []
    for c in cards:
        if isinstance(c, Mapping):
            out.append(dict(c) if set(c) == {"cards"} else {"cards": [dict(c)]})
        else:
            out.append(os.fspath(c))
    return tuple(out)


def parse(data: str | bytes, name: str) -> Play:
    """A play from its text or bytes; `name` stands for its file in messages. The form is the
    name's (`.json` the JSON form, `.play` the text form); any other name reads a document that
    starts with `{` as JSON and anything else as text."""
    raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    if not name.lower().endswith((".json", ".play")) and raw.lstrip()[:1] == b"{":
        return parse_json(raw, name)
    return parse_bytes(raw, name)


def _check(get_play, name: str, ruleset: str | None, cards: Iterable[CardSource], timeout: float,
           rlimit: int, verify: bool, deadline: float | None) -> CheckResult:
    rs = ruleset or "ocg"
    try:
        play = get_play()
        sources = card_sources(cards)
    except PlayError as e:
        return _result(Verdict(name, rs, "error", message=str(e)))
    v = check_play(play, ruleset, sources, max(1, round(timeout * 1000)), rlimit, verify=verify, deadline_s=deadline)
    return _result(v)


def check_file(path: str | os.PathLike[str], *, ruleset: str | None = None, cards: Iterable[CardSource] = (),
               timeout: float = DEFAULT_TIMEOUT, rlimit: int = DEFAULT_RLIMIT,
               verify: bool = False, deadline: float | None = DEFAULT_DEADLINE_S) -> CheckResult:
    """The verdict on the play file at `path` (`.json`: the JSON form; else the text form).

    `ruleset` overrides the play's own (`ocg` or `tcg`); `cards` add to or override the built-in
    catalogue; `timeout` is seconds per solver query and `rlimit` z3's resource limit per query;
    `verify` replays a legal play through the solver too; past `deadline` seconds for the whole
    play (None: no deadline) the verdict is unknown."""
    name = os.fspath(path)
    return _check(lambda: load(name), name, ruleset, cards, timeout, rlimit, verify, deadline)


def check_text(text: str | bytes, *, name: str = "<text>", ruleset: str | None = None,
               cards: Iterable[CardSource] = (), timeout: float = DEFAULT_TIMEOUT, rlimit: int = DEFAULT_RLIMIT,
               verify: bool = False, deadline: float | None = DEFAULT_DEADLINE_S) -> CheckResult:
    """The verdict on a play given as its text (either form; see `parse`); `name` stands for the
    file in messages. The other arguments are those of `check_file`."""
    return _check(lambda: parse(text, name), name, ruleset, cards, timeout, rlimit, verify, deadline)


# --- options: what may be done after action N -----------------------------------------------
@dataclass(frozen=True)
class Choice:
    """One thing a player (or the game) may try next, and the answer."""
    player: str | None            # "A", "B", or None for the game's own moves (next window, resolve)
    action: str                   # as a play line, e.g. 'chain A "Rising Energy"'
    allowed: bool | None          # None: the solver answered unknown
    rules: tuple[Rule, ...]       # the rules that refuse it
    facts: tuple[str, ...]


@dataclass(frozen=True)
class OptionsResult:
    path: str
    ruleset: str
    at: int                       # actions replayed (0: the set-up)
    action: str                   # the last action replayed
    window: str
    priority: str | None
    chain: tuple[str, ...]        # the open Chain, link 1 first
    activations: tuple[Choice, ...]
    game: tuple[Choice, ...]
    mandatory: tuple[str, ...]    # mandatory triggers waiting

    def allowed(self) -> tuple[Choice, ...]:
        """The choices the rules allow (activations, then the game's moves)."""
        return tuple(c for c in self.activations + self.game if c.allowed)


def _choice(o: Any) -> Choice:
    return Choice(o.player, o.what, o.allowed,
                  tuple(Rule(r["rule"], r["statement"], tuple(r["sources"])) for r in o.rules), tuple(o.facts))


def _options(play: Play, ruleset: str | None, cards: Iterable[CardSource], at: int | None,
             timeout: float) -> OptionsResult:
    from ygo_timing.symbolic import options as opt
    o = opt.options(play, ruleset, card_sources(cards), at, max(1, round(timeout * 1000)))
    return OptionsResult(o.path, o.ruleset, o.at, o.at_text, o.state["window"], o.state["priority"],
                         tuple(o.state["chain"]), tuple(map(_choice, o.cards)), tuple(map(_choice, o.game)),
                         tuple(str(m) for m in o.mandatory))


def options_file(path: str | os.PathLike[str], *, at: int | None = None, ruleset: str | None = None,
                 cards: Iterable[CardSource] = (), timeout: float = DEFAULT_TIMEOUT) -> OptionsResult:
    """What each player may activate, and whether the game may move on, after action `at` (1-based;
    None: after the last). Raises InputError for a bad play, or one illegal before `at`."""
    return _options(load(os.fspath(path)), ruleset, cards, at, timeout)


def options_text(text: str | bytes, *, name: str = "<text>", at: int | None = None,
                 ruleset: str | None = None, cards: Iterable[CardSource] = (),
                 timeout: float = DEFAULT_TIMEOUT) -> OptionsResult:
    """`options_file` for a play given as its text (either form; see `parse`)."""
    return _options(parse(text, name), ruleset, cards, at, timeout)


# --- diff: where two rule sets disagree ------------------------------------------------------
@dataclass(frozen=True)
class Difference:
    """One class of plays legal under one rule set and illegal under the other, with a shortest
    witness: the play in each set's form, checked by `check` as claimed."""
    kind: str                     # "contradiction" | "coverage gap"
    legal_in: str
    illegal_in: str
    rules: tuple[str, ...]        # the rule IDs involved (both sides)
    length: int                   # actions after the scenario's opening
    scenario: str
    plays: Mapping[str, str]      # rule set -> the witness play's text
    facts: tuple[str, ...]        # why the step is illegal in `illegal_in`


@dataclass(frozen=True)
class DiffResult:
    a: str
    b: str
    max_length: int
    status: str                   # "complete" | "timeout" | "unknown"
    differences: tuple[Difference, ...]
    seconds: float
    note: str


def diff(a: str, b: str, *, max_length: int = 8, timeout: float = 600.0,
         out_dir: str | os.PathLike[str] | None = None) -> DiffResult:
    """Where rule sets `a` and `b` ("ocg", "tcg") disagree, up to `max_length` actions after each
    scenario's opening, within `timeout` seconds for the whole search; `out_dir` also writes each
    witness play there. Raises InputError for an unknown rule set."""
    from ygo_timing.model import rulesets
    from ygo_timing.symbolic import diff as d
    for name in (a, b):
        if name not in rulesets.NAMES:
            raise InputError("diff", None, f"unknown rule set {name!r}; expected one of: {', '.join(rulesets.NAMES)}")
    r = d.diff(a, b, max_length, timeout, os.fspath(out_dir) if out_dir is not None else None)
    return DiffResult(r.a, r.b, r.max_length, r.status, tuple(
        Difference(x.kind, x.legal_in, x.illegal_in, tuple(x.rules), x.length, x.scenario, dict(x.plays),
                   tuple(x.facts)) for x in r.differences), r.seconds, r.note)

"""Check a play against a rule set, one step at a time.

The compiled relation (model/compiled.py) walks the play. At the first step it finds illegal,
the solver is asked from the state reached (the state before and the action fixed by
assumptions, every rule's literal assumed): it confirms each rule the compiled step reports
broken (alone unsat) and that the others hold together (sat), and its minimised unsat cores
give the facts behind it. `--verify` replays the whole play through the solver instead. Unknown
(time or resource limit) is never legal.
"""
from __future__ import annotations

import z3
from ygo_timing.cards import catalogue
from ygo_timing.checking.caveats import not_modelled
from ygo_timing.checking.deadline import DEFAULT_DEADLINE_S, Deadline, DeadlineExceeded
from ygo_timing.checking.facts import play_cards
from ygo_timing.checking.run import Outcome, Run, walk
from ygo_timing.checking.verdict import DEFAULT_RLIMIT, DEFAULT_TIMEOUT_MS, Verdict
from ygo_timing.errors import internal
from ygo_timing.inputs.play import Play, PlayError
from ygo_timing.model import compiled
from ygo_timing.model.rulebook import rule_info, short_statement


def check_play(play: Play, ruleset: str | None = None, cards_files=(), timeout_ms=DEFAULT_TIMEOUT_MS,
               rlimit=DEFAULT_RLIMIT, without: frozenset = frozenset(), verify: bool = False,
               deadline_s: float | None = DEFAULT_DEADLINE_S) -> Verdict:
    """The verdict on one play. `without` removes rules (to test that each one matters);
    `verify` replays a legal play through the solver too (illegal ones always are); past
    `deadline_s` seconds for the whole play (None: no deadline) the verdict is unknown."""
    from ygo_timing.cards.unsettled import (
        demote,  # imported cards with unknown properties never get a verdict
    )
    deadline = Deadline(deadline_s)
    try:
        return demote(_check(play, ruleset, cards_files, timeout_ms, rlimit, without, verify, deadline),
                      play, cards_files)
    except DeadlineExceeded as e:
        return Verdict(play.path, ruleset or play.ruleset or "ocg", "unknown",
                       message=f"{play.path}: {e}; no verdict -- raise --deadline")
    except z3.Z3Exception as e:   # e.g. a resource limit hit while building terms
        return Verdict(play.path, ruleset or play.ruleset or "ocg", "unknown",
                       message=f"{play.path}: the solver gave up ({e}); no verdict")
    except Exception as e:  # a bug must not print a traceback, nor pass for "legal"
        return Verdict(play.path, ruleset or play.ruleset or "ocg", "error", message=internal(play.path, e))


def _check(play, ruleset, cards_files, timeout_ms, rlimit, without, verify, deadline=None):
    name = ruleset or play.ruleset or "ocg"
    v = Verdict(play.path, name, "legal", expect=play.expect, expect_rules=list(play.expect_rules))
    try:
        cards = play_cards(play, cards_files)
        run = Run(play, name, cards, timeout_ms, rlimit, without, deadline)
    except (PlayError, catalogue.CatalogueError) as e:
        v.verdict, v.message = "error", str(e)
        return v
    fast = None
    if run.evaluator is not None:
        try:
            fast = run.walk_compiled()
        except compiled.Undetermined:
            fast = None   # the solver decides this play alone
        if fast is not None and fast.kind in ("legal", "error") and not verify:
            return _caveats(_fill(v, fast), play, cards)
    if fast is not None and fast.kind == "illegal" and not verify and \
            not any(r.startswith("(absent") for r in fast.detail):
        # the solver is asked once, at the illegal step, from the state the walk reached: it
        # confirms each broken rule independently of the compiled code and explains the step
        explained = run
        outcome = run.confirm(fast)
    else:
        # a verified play (or one the compiled relation cannot decide) is replayed from the
        # start by the solver
        explained = Run(play, name, cards, timeout_ms, rlimit, without, deadline)
        outcome = walk(explained, explained.step)
    if fast is not None and not _agree(fast, outcome):
        v.verdict = "error"
        v.message = (f"{play.path}: internal error, please report: the compiled relation and the solver "
                     f"disagree ({_summary(fast)} vs {_summary(outcome)})")
        return v
    v = _fill(v, outcome, f" within its limits per query ({timeout_ms} ms, rlimit {rlimit})")
    if v.verdict == "illegal":
        v.reason = getattr(explained, "reason", "")   # the explanation's first sentence (wording.reason)
    return _caveats(v, play, cards)


def _caveats(v: Verdict, play, cards) -> Verdict:
    """The card text the verdict does not weigh: of the actions up to the first illegal one."""
    if v.verdict in ("legal", "illegal"):
        v.not_modelled = not_modelled(play, cards, v.first_illegal["index"] if v.verdict == "illegal" else None)
    return v


def _agree(fast: Outcome, slow: Outcome) -> bool:
    if slow.kind == "unknown":
        return True   # nothing to compare; the verdict says unknown
    if (fast.kind, fast.index) != (slow.kind, slow.index):
        return False
    if fast.kind != "illegal" or any(r.startswith("(absent") for r in fast.detail):
        return True
    return set(fast.detail) == set(slow.detail[0])


def _summary(o: Outcome) -> str:
    if o.kind == "legal":
        return "legal"
    broken = o.detail if o.kind == "illegal" and isinstance(o.detail, list) else \
        o.detail[0] if o.kind == "illegal" else []
    return f"{o.kind} at line {o.action.line}" + (f" by {', '.join(broken)}" if broken else "")


def _fill(v: Verdict, o: Outcome, limits: str = "") -> Verdict:
    v.steps = o.steps
    if o.kind == "legal":
        return v
    v.verdict = o.kind
    if o.kind == "error":
        v.message = o.detail
    elif o.kind == "unknown":
        v.message = (f"{v.path}:{o.action.line}: the solver answered unknown ({o.detail}){limits}; no verdict"
                     + (" -- raise --timeout or --rlimit" if limits else ""))
    else:
        broken, facts = o.detail
        info = rule_info()
        v.first_illegal = {"index": o.index, "line": o.action.line, "action": o.action.text}
        v.violations = [dict(info[r], statement=short_statement(r)) for r in broken]
        v.facts = facts
    return v

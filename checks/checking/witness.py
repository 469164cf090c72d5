"""Sat answers without the solver, for an explanation's deletion (checking.explain.minimise).

A deletion trial asks whether a restriction can hold once one fact is dropped from its core:
`lits + [restrict:RULE] + rest` sat? A concrete model settles "sat": every fact as the play has
it, except the dropped one, which takes another value; the compiled relation (model/compiled.py)
evaluates that step, and if neither RULE nor an absent rule's default is broken there, the
assignment is a model of the relation's assertions under the trial's assumptions (other rules'
restrictions are not assumed; the definitions and updates are the compiled code's own), so the
trial is sat. The timing hint's windows (checking.explain) are
found the same way: a step moved to a window where GATED is broken shows the gate closed there.
Only "sat" is ever concluded, and only from a step the compiled relation decides:
anything else (no other value found, Undetermined) goes to the solver, so an unsat answer, and so
every fact an explanation drops, is still the solver's.
"""
from __future__ import annotations

from collections import Counter

from ygo_timing.checking.facts import fact_tables
from ygo_timing.model import compiled
from ygo_timing.model.state import ACTION_FIELDS, NONE

# The restriction `Implies(activating a timed effect, grant("timing"))` (model/rules/activation.py):
# broken only where the gate is closed
GATED = "GEN-6"


class Witness:
    """Concrete models for the trials of one explanation: the step `run.current_act` from the
    run's current state, over the play's facts (`pre`: the statics then the state before, `acts`:
    the action's fields, as Run.assumptions builds them)."""

    def __init__(self, run, pre, acts):
        self.run, self.ev = run, run.evaluator
        self.act = [run.current_act[f] for f in ACTION_FIELDS]
        statics = run.statics
        self.where = {}   # a fact's term id -> ("static" | "pre" | "act", its position)
        shared = Counter((f.fn, f.arg) for f in run.facts)
        for k, ((term, _), f) in enumerate(zip(statics, run.facts)):
            if shared[(f.fn, f.arg)] == 1:   # changing a table entry changes that one fact only
                self.where[term.get_id()] = ("static", k)
        for k, term in enumerate(pre[len(statics):]):
            self.where[term.get_id()] = ("pre", k)
        fields = list(run.current_act)
        for name, term in zip(fields, acts):
            self.where[term.get_id()] = ("act", ACTION_FIELDS.index(name))
        self.rule_of = {lit.get_id(): rid for rid, lit in run.rel.rlits.items()}
        self.values = {v for v in run.vals + self.act if not isinstance(v, bool)}

    def rule(self, fixed):
        """The one restriction `fixed` assumes (None if not exactly one)."""
        rules = [self.rule_of[t.get_id()] for t in fixed if t.get_id() in self.rule_of]
        return rules[0] if len(rules) == 1 else None

    def sat(self, rid, dropped) -> bool:
        """True if some other value of the fact `dropped` makes a step where `rid` holds (and
        no absent rule's default is broken); False: not found, ask the solver."""
        return self.other_value(rid, dropped) is not None

    def other_value(self, rid, dropped):
        """The other value of `dropped`'s left side that makes `sat` true (the model is the play's
        facts with that one changed), or None."""
        where = self.where.get(dropped.get_id())
        if where is None or rid is None:
            return None
        kind, k = where
        vals, act, prepared = self.run.vals, self.act, self.run.prepared
        if kind == "static":   # and the values the same function has elsewhere in the play
            fn, value = self.run.facts[k].fn, self.run.facts[k].value
            others = _others(value, {f.value for f in self.run.facts if f.fn == fn})
        else:   # and the values of the state and the action (a claim's value, a card's index)
            others = _others(vals[k] if kind == "pre" else act[k], self.values)
        for other in others:
            try:
                if kind == "static":
                    facts = list(self.run.facts)
                    facts[k] = facts[k]._replace(value=other)
                    broken, _ = self.ev.step(vals, act, self.ev.prepare(*fact_tables(facts)))
                elif kind == "pre":
                    broken, _ = self.ev.step(vals[:k] + [other] + vals[k + 1:], act, prepared)
                else:
                    broken, _ = self.ev.step(vals, act[:k] + [other] + act[k + 1:], prepared)
            except compiled.Undetermined:
                continue
            if rid not in broken and not any(r.startswith("(absent") for r in broken):
                return other
        return None

    def closed(self, window) -> bool:
        """True if the step, from the current state moved to `window`, breaks GATED: a state
        where the `timing` gate is closed to the effect activated (explain.timing_hint's sat)."""
        k = self.run.index["window"]
        try:
            broken, _ = self.ev.step(self.run.vals[:k] + [window] + self.run.vals[k + 1:], self.act,
                                     self.run.prepared)
        except compiled.Undetermined:
            return False
        return GATED in broken and not any(r.startswith("(absent") for r in broken)


def _others(value, seen=()):
    """Other values to try for a fact: the other Boolean, or the neighbouring integers, 0, 1,
    "no card" and the values in `seen`."""
    if isinstance(value, bool):
        return [not value]
    out = []
    for v in (value + 1, value - 1, 0, 1, NONE, *sorted(seen)):
        if v != value and v not in out:
            out.append(v)
    return out

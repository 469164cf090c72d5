"""Explaining an illegal step: every restriction it breaks (each alone against the solver), and a
minimal set of facts behind it (QuickXplain, which reads no unsat core: the same facts in any batch), in words with their lines (the
words are wording.py's)."""
from __future__ import annotations

import z3
from ygo_timing.checking import wording
from ygo_timing.checking.facts import py_value
from ygo_timing.model import vocab
from ygo_timing.model.rulebook import hints
from ygo_timing.model.rules.tables import matches
from ygo_timing.model.state import A


class Unknown(Exception):
    """The solver answered unknown while explaining (a time or resource limit)."""


class Explainer:
    """The explanation of the step a Run has just found illegal (its current line and action)."""

    def __init__(self, run):
        self.run = run

    def explain(self, pre, acts, expected=None):
        """Every restriction the step breaks, and a minimal set of facts behind it. `expected`:
        the rules the compiled step reports broken, confirmed with one query each plus one that
        the others hold together; if the solver does not agree, it lists them itself."""
        self.run.phase = "explaining"
        rel = self.run.rel
        lits = list(rel.lits.values())
        broken = self.confirmed(expected, lits, pre + acts) if expected else None
        if broken is None:
            broken = [rid for rid, rlit in rel.rlits.items()
                      if rid in rel.restrictions and self.check(lits + [rlit] + pre + acts) == z3.unsat]
        if not broken:   # only rules together fail: a minimal set of them
            broken = [str(r).split(":", 1)[1] for r in
                      self.minimise(lits + pre + acts, [rel.rlits[r] for r in rel.restrictions])]
        statics = {t.get_id(): text for t, text in self.run.statics}
        facts = pre + acts
        core = []
        for rid in broken:   # the facts behind each broken rule, minimised, in order
            for t in self.minimise(lits + [rel.rlits[rid]], facts):
                if t.get_id() not in {c.get_id() for c in core}:
                    core.append(t)
        out = []
        action_ids = {t.get_id() for t in acts}
        if any(t.get_id() in action_ids for t in core):
            out.append(f"action (line {self.run.current_line}): {self.run.current_text.strip()}")
        for t in core:
            if t.get_id() in action_ids:
                continue
            text = statics[t.get_id()] if t.get_id() in statics else self.describe(t)
            if text and text not in out:
                out.append(text)
        out = wording.merge_timings(out)
        windows = self.timing_hint(acts) if "windows" in hints(broken) else []   # declared by the rules
        self.run.reason = wording.reason(self.run, broken, windows)
        return broken, out

    def timing_hint(self, acts):
        """The windows the rule set opens for the effect activated (the `timing` gate GEN-6 asks
        for, and that makes GEN-7's triggers pending), each with the rules of the rows that open
        it: [(window, [rule ID])]."""
        ctx, rel = self.run.ctx, self.run.rel
        eff = self.run.current_act.get("eff")
        if self.run.current_act.get("kind") != A["activate"] or eff is None:
            return []
        lits = list(rel.lits.values())
        statics = [t for t, _ in self.run.statics]
        fixed = lits + statics + [ctx.act.eff == eff, ctx.act.kind == A["activate"]]
        gate = ctx.grant("timing")
        out = []
        for w in vocab.WINDOWS:
            if self.run.solve(fixed + [ctx.pre.window == vocab.W[w], z3.Not(gate)]) != z3.unsat:
                continue
            rows = [g["rule"] for g in self.run.rel.ruleset.timing_grants if g["window"] == w
                    and self.run.solve(statics + [z3.Not(matches(ctx, g, eff))]) == z3.unsat]
            out.append((w, sorted(set(rows))))
        return out

    def check(self, terms):
        result = self.run.solve(terms)
        if result == z3.unknown:
            raise Unknown(self.run.rel.solver.reason_unknown())
        return result

    def confirmed(self, expected, lits, facts):
        """`expected` if each of those rules alone refuses the step and the others hold together
        (then no other rule refuses it alone); else None."""
        rel = self.run.rel
        if not all(rid in rel.restrictions for rid in expected):
            return None
        rest = [rel.rlits[r] for r in rel.restrictions if r not in expected]
        if self.check(lits + rest + facts) != z3.sat:
            return None
        for rid in expected:
            if self.check(lits + [rel.rlits[rid]] + facts) != z3.unsat:
                return None
        return [r for r in rel.rlits if r in expected]   # in the order the full listing has

    def minimise(self, fixed, facts):
        """A minimal subset of `facts` that `fixed` makes unsat: the one QuickXplain prefers in the
        order of `facts`. It depends only on which subsets are unsat, never on an unsat core,
        which depends on what the shared solver was asked before (other plays, other
        processes): the same play gets the same facts in any batch, with any --jobs."""
        if self.check(fixed + facts) != z3.unsat:
            return []

        def split(base, changed, candidates):
            if changed and self.check(base) == z3.unsat:
                return []
            if len(candidates) == 1:
                return list(candidates)
            half = len(candidates) // 2
            later = split(base + candidates[:half], True, candidates[half:])
            return split(base + later, bool(later), candidates[:half]) + later
        return split(fixed, False, facts)

    def describe(self, term):
        """A fact about the state, in words, with the line it comes from."""
        return wording.describe(self.run, str(term.arg(0))[4:], py_value(term.arg(1)))

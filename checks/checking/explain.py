"""Explaining an illegal step: every restriction it breaks (each alone against the solver), and a
minimal set of facts behind it (deletion-minimised unsat cores), in words with their lines."""
from __future__ import annotations

import re

import z3
from ygo_timing.checking.facts import py_value
from ygo_timing.model import vocab
from ygo_timing.model.state import NONE, A

NAMES_NO = re.compile(r'^(.*): names no "(.*)" timing \(catalogue\)$')


def merge_timings(facts):
    """One line for the timings an effect does not name, where the core lists several."""
    out, merged = [], {}
    for f in facts:
        m = NAMES_NO.match(f)
        if not m:
            out.append(f)
            continue
        if m.group(1) not in merged:
            merged[m.group(1)] = []
            out.append(m.group(1))   # placeholder, filled below
        merged[m.group(1)].append(m.group(2))

    def line(who):
        said = '", "'.join(merged[who])
        many = len(merged[who]) > 1
        return f'{who}: names {"none of the timings" if many else "no"} "{said}"{"" if many else " timing"} (catalogue)'
    return [line(f) if f in merged else f for f in out]


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
        out = merge_timings(out)
        if "GEN-1" in broken:
            hint = self.timing_hint(acts)
            if hint:
                out.append(hint)
        return broken, out

    def timing_hint(self, acts):
        """Where the rule set opens a window for the effect activated (GEN-1's gate)."""
        ctx, rel = self.run.ctx, self.run.rel
        eff = self.run.current_act.get("eff")
        if self.run.current_act.get("kind") != A["activate"] or eff is None:
            return ""
        lits = list(rel.lits.values())
        statics = [t for t, _ in self.run.statics]
        gate = ctx.grant("timing")
        timed = [w for w in vocab.WINDOWS
                 if self.run.solve(lits + statics + [ctx.act.eff == eff, ctx.act.kind == A["activate"],
                                                 ctx.pre.window == vocab.W[w], z3.Not(gate)]) == z3.unsat]
        if not timed:
            return ""
        c, k, _ = self.run.uni.effects[eff]
        return (f"{self.run.uni.label(c)} effect {k}: by its timing, {self.run.ruleset} opens these windows "
                f"for it: {', '.join(timed)}")

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
        """A minimal subset of `facts` that with `fixed` is unsat: the unsat core, then each fact
        of it dropped in turn where the rest stays unsat (the shorter query's own core shrinks
        the set further). z3's own core minimisation (core.minimize) is not used: its cores
        were not always minimal, so the deletion pass was needed anyway, and on the relation of
        an 18-card set-up it cost half a second (docs/performance.md)."""
        if self.check(fixed + facts) != z3.unsat:
            return []
        core = self._core(facts)
        k = 0
        while k < len(core):
            trial = core[:k] + core[k + 1:]
            if self.check(fixed + trial) == z3.unsat:
                core = self._core(trial)
            else:
                k += 1
        return core

    def _core(self, facts):
        ids = {c.get_id() for c in self.run.rel.solver.unsat_core()}
        return [f for f in facts if f.get_id() in ids]

    def describe(self, term):
        """A fact about the state, in words, with the line it comes from."""
        lhs, rhs = term.arg(0), term.arg(1)
        name = str(lhs)
        value = py_value(rhs)
        field = name[4:]   # pre_<field>: the action itself is reported as one line
        where = self.run.line_of.get(self._state_name(field), ("set-up", None))
        src = f"line {where[1]}" if where[1] else "initial state"
        if where[0] == "set-up" and where[1]:
            src = f"set-up line {where[1]}"
        if len(where) > 2 and where[2]:
            src += f", by {where[2]}"
        if field.endswith("_trig"):
            c, k, _ = self.run.uni.effects[int(field[1:-5])]
            return f"{self.run.uni.label(c)} effect {k}: " + ("a trigger is pending" if value else
                                                          "no trigger pending now") + f" ({src})"
        return f"{self.render_state(field)}: {self.render(field, value)} ({src})"

    def _state_name(self, field):
        for name in self.run.names:
            if self.run.pre_vars[name].decl().name() == "pre_" + field:
                return name
        return field

    def render_state(self, field):
        if field.startswith("c") and "_" in field and field[1:field.index("_")].isdigit():
            i = int(field[1:field.index("_")])
            return f"{self.run.uni.label(i)} {field[field.index('_') + 1:]}"
        if field.startswith("e") and "_" in field and field[1:field.index("_")].isdigit():
            e = int(field[1:field.index("_")])
            c, k, _ = self.run.uni.effects[e] if e < len(self.run.uni.effects) else (NONE, 0, None)
            return f"{self.run.uni.label(c)} effect {k} {field[field.index('_') + 1:]}"
        return field.replace("_", " ")

    def render(self, field, value):
        if field.endswith("window"):
            return vocab.WINDOW_TITLES.get(vocab.WINDOWS[value], value) if 0 <= value < len(vocab.WINDOWS) else "(not said)"
        if field.endswith("loc"):
            return vocab.LOCATIONS[value].replace("_", " ")
        if field in ("prio", "player") or field.endswith("player"):
            return vocab.PLAYERS[value] if value in (0, 1) else "(none)"
        if field in ("attacker", "target", "card", "other") or field.endswith("target"):
            return self.run.uni.label(value)
        if field == "eff" or field.endswith("_eff"):
            if 0 <= value < len(self.run.uni.effects):
                c, k, _ = self.run.uni.effects[value]
                return f"{self.run.uni.label(c)} effect {k}"
        if field == "calc":
            return ("pending", "done", "skipped")[value]
        return str(value)

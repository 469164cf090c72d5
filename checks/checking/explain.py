"""Explaining an illegal step: every restriction it breaks (each alone against the solver), and a
minimal set of facts behind it (an unsat core, then deletion), in words with their lines (the
words are wording.py's).

The cores come from a solver of the explanation's own (`Own`): a fresh z3 context that reads
the relation's SMT-LIB text. An unsat core depends on everything the solver was asked before;
the relation's solver serves every play of a process, so its cores would give a play other
facts in another batch, order or --jobs (docs/robustness.md, item 11). A fresh solver's cores
depend only on the questions of this one explanation; every other question (sat or unsat) has
one answer whoever asks it: they go to a second solver on the same part (`Tester`, cheaper
than the relation's solver, which holds every update), kept with the relation for the process,
and the deletion's "sat" answers come from concrete steps of the compiled relation where it can
show one (checking.witness), without a query.
"""
from __future__ import annotations

import re
import weakref
from functools import cached_property

import z3
from ygo_timing.checking import wording
from ygo_timing.checking.facts import py_value
from ygo_timing.checking.witness import Witness
from ygo_timing.model import vocab
from ygo_timing.model.rulebook import hints
from ygo_timing.model.dag import names_in
from ygo_timing.model.rules.tables import matches
from ygo_timing.model.state import A
from ygo_timing.model.step import UNRESTRICTED


class Unknown(Exception):
    """The solver answered unknown while explaining (a time or resource limit)."""


class Own:
    """A solver for one explanation, in a z3 context of its own: it reads an SMT-LIB text (the
    relation's part for explanations, model.step.explaining) and takes the process's terms,
    copied in the order they are asked (`local`), so that nothing in it depends on what the
    process did before."""

    def __init__(self, text: str):
        self.ctx = z3.Context()
        self.solver = z3.Solver(ctx=self.ctx)
        self.solver.from_string(text)
        self.terms = {}   # id in the process's context -> (that term, its copy here); keeps both alive
        self.back = {}    # id of a copy here -> the process's term

    def local(self, terms):
        out = []
        for t in terms:
            pair = self.terms.get(t.get_id())
            if pair is None:
                pair = self.terms[t.get_id()] = (t, t.translate(self.ctx))
                self.back[pair[1].get_id()] = t
            out.append(pair[1])
        return out

    def core(self) -> set:
        """The ids (in the process's context) of the assumptions in the last unsat core."""
        return {self.back[t.get_id()].get_id() for t in self.solver.unsat_core() if t.get_id() in self.back}


class Tester:
    """The relation's part for explanations (model.step.explaining) read into the process's own
    z3 context, so that it takes the process's terms as they are: it is asked only sat or unsat,
    answers that do not depend on what it was asked before, so one serves every explanation on
    its relation (`tester`). It answers as the relation: what the part leaves out are update
    equations `post == f(...)` of state-after variables that nothing kept reads and no
    assumption names, each defining its variable once and acyclically (the compiled relation
    evaluates them in order), so a model of the part extends to one of the relation, and a part
    that is unsat makes the whole unsat. Its sat queries are several times cheaper than the
    relation's solver's, which holds every update."""

    def __init__(self, text: str):
        self.solver = z3.Solver()
        self.solver.from_string(text)

    def local(self, terms):
        return terms


_testers = weakref.WeakKeyDictionary()   # relation -> {None: its part's Tester, rule ID: its slice's}


def tester(rel, rid: str | None = None) -> Tester:
    """The Tester of the relation's part, or of one restriction's slice (model.step.rule_slices:
    on a query about that rule alone it answers as the part, in a fraction of the time)."""
    mine = _testers.setdefault(rel, {})
    if rid not in mine:
        mine[rid] = Tester(rel.explaining if rid is None else rel.slices[rid])
    return mine[rid]


class Explainer:
    """The explanation of the step a Run has just found illegal (its current line and action)."""

    def __init__(self, run):
        self.run = run
        self.witness = None   # concrete models for the deletion (explain), when the compiled relation hints
        self.consistent = False   # the step's facts found sat with the relation's part (`confirmed`)
        self._owns = {}   # rule ID -> the own solver of its slice (`own_for`)

    @cached_property
    def own(self) -> Own:
        return Own(self.run.rel.explaining)

    def own_for(self, rid: str | None) -> Own:
        """The own solver for the cores of one broken rule: a fresh one on its slice, made once
        per explanation (None: the part's, for the rules that only fail together)."""
        if rid is None:
            return self.own
        if rid not in self._owns:
            self._owns[rid] = Own(self.run.rel.slices[rid])
        return self._owns[rid]

    @cached_property
    def tester(self) -> Tester:
        """The solver asked every sat-or-unsat question of the explanation (`Tester`), apart from
        the core solver (`own`), so that `own` is asked exactly the questions it would be
        otherwise."""
        return tester(self.run.rel)

    def explain(self, pre, acts, expected=None):
        """Every restriction the step breaks, and a minimal set of facts behind it. `expected`:
        the rules the compiled step reports broken, confirmed with one query each plus one that
        the others hold together; if the solver does not agree, it lists them itself. With
        `expected`, the deletion's "sat" answers come from the compiled relation where it shows
        a model (checking.witness); without it (--verify) every answer is the solver's."""
        self.run.phase = "explaining"
        rel = self.run.rel
        if expected is not None and self.run.evaluator is not None:
            self.witness = Witness(self.run, pre, acts)
        lits = list(rel.lits.values())
        broken = self.confirmed(expected, lits, pre + acts) if expected else None
        if broken is None:   # each restriction alone, on its slice (it answers that query as the relation)
            broken = [rid for rid, rlit in rel.rlits.items()
                      if rid in rel.restrictions and self.check(lits + [rlit] + pre + acts, tester(rel, rid)) == z3.unsat]
        if not broken:   # only rules together fail: a minimal set of them
            broken = [str(r).split(":", 1)[1] for r in
                      self.minimise(lits + pre + acts, [rel.rlits[r] for r in rel.restrictions])]
        statics = {t.get_id(): text for t, text in self.run.statics}
        facts = pre + acts
        core = []
        about = self.run.symbols(self.run.current_act)
        # the state of a spare card (the relation's size bucket holds more cards than the play)
        # is background, as the relation is: a core of the play's own facts explains the step
        # ("no card has higher ATK"), not one about a card the play does not have
        spare = re.compile(rf"{self.run.ctx.pre.prefix}c(\d+)_\w+")
        padding = {name for name in about if (m := spare.fullmatch(name)) and int(m.group(1)) >= len(self.run.uni.specs)}
        for rid in broken:   # the facts behind each broken rule, minimised, in order
            reads = rel.slice_reads[rid]   # a fact about nothing its slice reads is in no core of it
            mine = [t for t, name in zip(facts, about) if name in reads and name not in padding]
            background = [t for t, name in zip(facts, about) if name in reads and name in padding]
            for t in self.minimise(lits + [rel.rlits[rid]] + background, mine, rid):
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
        free = self.unrestricted(gate)
        out = []
        for w in vocab.WINDOWS:
            if self.witness and self.witness.closed(vocab.W[w]):
                continue   # a state in w where the gate is closed: not a window that opens it
            if self.run.solve(fixed + [ctx.pre.window == vocab.W[w], z3.Not(gate)], free) != z3.unsat:
                continue
            rows = [g["rule"] for g in self.run.rel.ruleset.timing_grants if g["window"] == w
                    and self.implied(statics, matches(ctx, g, eff))]
            out.append((w, sorted(set(rows))))
        return out

    @cached_property
    def static_pairs(self) -> list:
        """(function name, `S.fn(arg)`, value) of each of the play's statics, for `implied`
        (taken apart once: a row per window asks, and z3's wrappers cost ~0.1 ms a fact)."""
        return [(f.fn, t.arg(0), t.arg(1)) for (t, _), f in zip(self.run.statics, self.run.facts)]

    def implied(self, statics, term):
        """Whether the play's statics imply `term`: at once where putting their values in and
        simplifying leaves `true` or `false` (a row about the effect's own facts; `false` once the
        confirmation has found the step's facts, statics included, consistent with the relation);
        else the tester says whether `statics + [not term]` is unsat."""
        names = names_in([term])   # the statics of the functions the row reads, put in
        pairs = [(lhs, rhs) for fn, lhs, rhs in self.static_pairs if fn in names]
        settled = z3.simplify(z3.substitute(term, *pairs) if pairs else term)
        if z3.is_true(settled):
            return True
        if z3.is_false(settled) and self.consistent:   # the query is then the statics alone: sat
            return False
        return self.run.solve(statics + [z3.Not(term)], self.unrestricted(term)) == z3.unsat

    def unrestricted(self, term) -> Tester:
        """The tester for a query that assumes no restriction and `term`: the slice without any
        (model.step.UNRESTRICTED) where `term` reads no variable of the state after (the
        slice's updates are only those its definitions read), else the part's."""
        if any(name.startswith(self.run.ctx.post.prefix) for name in names_in([term])):
            return self.tester
        return tester(self.run.rel, UNRESTRICTED)

    def check(self, terms, own=None):
        """sat or unsat of `terms` on the relation's solver (or `own`); Unknown otherwise."""
        result = self.run.solve(terms, own)
        if result == z3.unknown:
            raise Unknown((self.run.rel.solver if own is None else own.solver).reason_unknown())
        return result

    def confirmed(self, expected, lits, facts):
        """`expected` if each of those rules alone refuses the step and the others hold together
        (then no other rule refuses it alone); else None."""
        rel = self.run.rel
        if not all(rid in rel.restrictions for rid in expected):
            return None
        rest = [rel.rlits[r] for r in rel.restrictions if r not in expected]
        if self.check(lits + rest + facts, self.tester) != z3.sat:
            return None
        self.consistent = True
        for rid in expected:   # the slice unsat: the relation, which holds more, is unsat too
            if self.check(lits + [rel.rlits[rid]] + facts, tester(rel, rid)) != z3.unsat:
                return None
        return [r for r in rel.rlits if r in expected]   # in the order the full listing has

    def minimise(self, fixed, facts, rid: str | None = None):
        """A minimal subset of `facts` that `fixed` makes unsat: an unsat core from this
        explanation's own solver, then each fact of it dropped in turn where the tester (the
        same part of the relation, equisatisfiable with it) finds the rest still unsat (and
        the own solver's core of the rest shrinks it further). With `rid`, `fixed` assumes
        that one restriction, and both solvers hold its slice (model.step.rule_slices). A fact
        kept is needed: without it the query is sat, shown by a concrete step of the compiled
        relation (`witness`) or else by the tester. Those are asked only sat or unsat, never for a core, so the result
        depends only on the query. z3's own core minimisation (core.minimize) is not used: its
        cores were not always minimal, and it cost half a second on big relations
        (docs/performance.md)."""
        part = self.tester if rid is None else tester(self.run.rel, rid)
        own = self.own_for(rid)

        def test(terms):
            return self.check(terms, part)
        rule = self.witness.rule(fixed) if self.witness else None

        core = self.core(fixed, facts, own)
        if core is None:   # not refuted by the own solver's part of the relation: the whole of it
            if self.check(fixed + facts) != z3.unsat:
                return []
            core = self.core(fixed, facts, Own(self.run.rel.text))
            if core is None:
                raise Unknown("no unsat core for a query the relation refutes")
            test = self.check   # the part did not answer as the relation: ask the relation
        k = 0
        while k < len(core):
            trial = core[:k] + core[k + 1:]
            if rule is not None and self.witness.sat(rule, core[k]):
                k += 1   # a model without core[k]: it is needed
            elif test(fixed + trial) == z3.unsat:
                shorter = self.core(fixed, trial, own)
                core = trial if shorter is None else shorter
            else:
                k += 1
        return core

    def core(self, fixed, facts, own):
        """Those of `facts` in `own`'s unsat core of `fixed + facts`, in their order; None if
        `own` does not find it unsat. The own solver holds the relation without the updates
        no rule reads (model.step.explaining): a part of the relation, so its cores are cores
        of the relation; what it finds sat is asked of the relation's solver."""
        if self.run.solve(fixed + facts, own) != z3.unsat:
            return None
        ids = own.core()
        return [t for t in facts if t.get_id() in ids]

    def describe(self, term):
        """A fact about the state, in words, with the line it comes from."""
        return wording.describe(self.run, str(term.arg(0))[4:], py_value(term.arg(1)))

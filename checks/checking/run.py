"""Stepping a play: its actions as steps of the relation, taken by the compiled relation (fast,
concrete) or by the solver (which confirms, and explains an illegal step)."""
from __future__ import annotations

import re
import time
from dataclasses import dataclass
from functools import cached_property

import z3
from ygo_timing.checking import explain
from ygo_timing.checking.deadline import Deadline, DeadlineExceeded
from ygo_timing.checking.explain import Explainer, Unknown
from ygo_timing.checking.facts import (
    Universe,
    equation,
    fact_tables,
    fact_terms,
    initial_state,
    py_value,
    static_facts,
)
from ygo_timing.inputs.play import ActionSpec, Play, PlayError
from ygo_timing.model import compiled, memory, native, vocab
from ygo_timing.model.state import ACTION_FIELDS, CL, NONE, A, action, layout
from ygo_timing.model.step import UNRESTRICTED, bucket, solver_relation


class Run:
    """One play being checked."""

    def __init__(self, play: Play, ruleset: str, cards: dict, timeout_ms: int, rlimit: int,
                 without: frozenset = frozenset(), deadline: Deadline | None = None):
        self.deadline = deadline or Deadline(None)   # checked before every step and query
        self.phase, self.current_line = "checking", None
        self.play, self.ruleset, self.without = play, ruleset, without
        self.uni = Universe(play, cards)
        self.ncards, self.neffects = bucket(max(1, len(self.uni.specs))), bucket(max(1, len(self.uni.effects)))
        self.layout = layout(self.ncards, self.neffects)
        self.names = [name for name, _ in self.layout]
        self.facts = static_facts(self.uni, play, self.neffects, self.uni.nwatched)
        self.index = {name: k for k, name in enumerate(self.names)}
        self.state = initial_state(self.layout, self.uni, play)
        self.line_of = Provenance(self)
        self.history = []   # compiled steps taken: (line, action, state before), for Provenance
        self._models = {}   # history index -> the solver's model of that step (its update causes)
        self.on_native = None   # the NativePlay stepping this run, while `walk_natively` walks it
        self.timeout_ms, self.rlimit = timeout_ms, rlimit
        self.steps = 0

    # the state is a list in layout order (what the compiled relation reads); by name on demand
    @property
    def state(self) -> dict:
        return dict(zip(self.names, self.vals))

    @state.setter
    def state(self, values: dict):
        self.vals = [values[n] for n in self.names]

    def get(self, name):
        return self.vals[self.index[name]]

    # the solver side is built only when a step needs the solver
    @cached_property
    def rel(self):
        memory.relieve()   # a process past its budget lets its kept relations go first
        rel = solver_relation(self.ruleset, self.ncards, self.neffects, self.without, self.uni.nwatched)
        self.deadline.check("building the step relation")
        return rel

    @cached_property
    def ctx(self):
        return self.rel.ctx

    @cached_property
    def statics(self):
        return fact_terms(self.ctx.S, self.facts, self.rel.equalities)

    @cached_property
    def pre_vars(self):
        return dict(self.ctx.pre.fields())

    @cached_property
    def post_vars(self):
        return dict(self.ctx.post.fields())

    @cached_property
    def act_vars(self):
        return dict(self.ctx.act.fields())

    @cached_property
    def evaluator(self):
        memory.relieve()
        ev = compiled.evaluator(self.ruleset, self.ncards, self.neffects, self.without, self.uni.nwatched)
        self.deadline.check("compiling the step relation")
        return ev

    @cached_property
    def prepared(self):
        return self.evaluator.prepare(*fact_tables(self.facts))

    # --- expanding the play's actions into steps of the relation ------------------------------
    def steps_for(self, a: ActionSpec):
        """Concrete actions for one line of the play (a `resolve` may need several)."""
        u, line = self.uni, a.line
        base = action(kind=A.get(a.kind, 0))
        player = vocab.PLAYERS.index(a.player) if a.player else NONE
        if a.kind == "resolve":
            return None  # expanded lazily (depends on the state reached)
        d = dict(base, player=player)
        if a.kind == "attack":
            d.update(card=u.card(a.card, line), target=u.card(a.target, line), direct=a.direct,
                     player=vocab.PLAYERS.index(self.play.turn_player))
        elif a.kind == "activate":
            e = u.effect(a.card, a.effect, line)
            self._check_target(a, u.effects[e][2])
            d.update(eff=e, target=u.card(a.target, line),
                     target2=u.card(a.target2, line), link=a.link, other=u.card(a.other, line))
        elif a.kind == "retarget":
            d.update(target=u.card(a.target, line), direct=a.direct)
        elif a.kind == "replace":
            d.update(card=u.card(a.card, line), other=u.card(a.other, line))
        elif a.kind == "next":
            d.update(window=vocab.W[a.window] if a.window else NONE)
        elif a.kind == "claim":
            d.update(claim=CL[a.claim], card=u.card(a.card, line), player=player, value=self._claim_value(a))
        return [d]

    def _check_target(self, a: ActionSpec, eff):
        """A `target` the effect has no use for is an error, not a silent no-op: a play that names
        the card an effect is for when the text fixes it ("Special Summon that monster") would be
        judged as if it had been obeyed. (A second target on a one-target effect is a play GEN-17
        refuses: the effect does target.)"""
        used = eff.target_filter is not None or eff.implied_target or any(o.on == "chosen" for o in eff.operations)
        unsettled = "target" in eff.unknown or "operations" in eff.unknown
        if a.target is not None and not (used or unsettled):
            raise PlayError(self.play.path, a.line, f"{a.card!r} effect {a.effect} targets no card and has no operation "
                                                     f"on a card the play names; leave out 'target {a.target}'")

    def _claim_value(self, a):
        if a.claim in ("lp", "atk", "def", "counters"):
            return int(a.value)
        if a.claim == "position":
            return 1 if a.value == "defense" else 0
        if a.claim == "location":
            return vocab.L[a.value]
        if a.claim == "window":
            return vocab.W[a.window or a.value]
        if a.claim == "calc":
            return {"pending": 0, "done": 1, "skipped": 2}[a.value]
        return 1 if a.value else 0

    def resolve_steps(self, a: ActionSpec):
        """`resolve`: the players pass as needed, then links resolve (all, or the one named)."""
        base = action()
        if not self.get("resolving") and self.get("chain_len") > 0:
            p = self.get("prio")
            yield dict(base, kind=A["pass"], player=p)
            if not self.get("resolving"):
                yield dict(base, kind=A["pass"], player=self.get("prio"))
        count = 1 if a.card else max(1, self.get("chain_len"))
        # the cards the line chooses belong to the first link it resolves (the last Chain Link): a
        # choice is made as that link resolves (GEN-22), in its step
        choice = dict(choice=self.uni.card(a.choice, a.line), choice2=self.uni.card(a.choice2, a.line))
        for n in range(count):
            named = NONE
            if a.card:
                i = self.uni.card(a.card, a.line)
                top = self.get(f"link_eff[{max(0, self.get('chain_len') - 1)}]")
                own = [e for e, (c, _, _) in enumerate(self.uni.effects) if c == i]
                named = top if (self.get("chain_len") and self.uni.effects[top][0] == i) else (own[0] if own else NONE)
            yield dict(base, kind=A["resolve_link"], named=named, **(choice if n == 0 else {}))

    # --- one step -------------------------------------------------------------------------------
    def assumptions(self, act, vals=None):
        """The step's facts: the play's statics and the state before (`vals`, default the run's
        current state), and the action."""
        pre = [t for t, _ in self.statics] + [self.equals(self.pre_vars[n], v)
                                              for n, v in zip(self.names, self.vals if vals is None else vals)]
        acts = [self.equals(self.act_vars[n], v) for n, v in act.items()]
        return pre, acts

    def symbols(self, act) -> list[str]:
        """The z3 name of what each fact of `assumptions(act)` is about, in their order: a static
        function or constant, a variable of the state before, an action field."""
        names = self.rel.symbol_names
        if not names:
            names.update({("pre", n): v.decl().name() for n, v in self.pre_vars.items()})
            names.update({("act", n): v.decl().name() for n, v in self.act_vars.items()})
        return ([f.fn for f in self.facts] + [names[("pre", n)] for n in self.names]
                + [names[("act", n)] for n in act])

    def equals(self, var, value):
        """var == value, built once per relation (most of a state is the same step after step)."""
        key = (var.get_id(), value)
        term = self.rel.equalities.get(key)
        if term is None:
            term = self.rel.equalities[key] = equation(var, None, value)
        return term

    def solve(self, extra, own=None):
        """The relation's solver on `extra` (assumptions), or an explanation's own solver
        (checking.explain.Own), which takes the same terms."""
        where = f"{self.phase} line {self.current_line}"
        self.deadline.check(where)
        s = self.rel.solver if own is None else own.solver
        limit = self.deadline.clamp_ms(self.timeout_ms)
        s.set("timeout", limit)
        s.set("rlimit", self.rlimit)
        # Solver.check(*terms) re-casts every assumption, which costs more than the check
        # itself with ~450 of them; they are Boolean terms already
        asts = [t.as_ast() for t in (extra if own is None else own.local(extra))]
        terms = (z3.Ast * len(asts))(*asts)
        result = z3.CheckSatResult(z3.Z3_solver_check_assumptions(s.ctx.ref(), s.solver, len(asts), terms))
        if result == z3.unknown:   # the query's time limit may have been the deadline's
            if limit < self.timeout_ms and s.reason_unknown() in ("timeout", "canceled"):
                # the clamp stops the query a few ms before the deadline: it is the deadline
                raise DeadlineExceeded(self.deadline.seconds, where)
            self.deadline.check(where)
        return result

    def guard(self, act, line):
        if act["kind"] == A["activate"] and self.get("chain_len") >= vocab.MAX_CHAIN:
            raise PlayError(self.play.path, line, f"a Chain of more than {vocab.MAX_CHAIN} links is beyond "
                                                  "what the tool models")

    def eval_step(self, act, line, text=""):
        """One step by the compiled relation: ("sat", None), or ("unsat", the rule IDs it breaks)
        (a candidate the solver then confirms); raises Undetermined when it cannot decide.
        While `walk_natively` walks, the step is the native relation's, and no history is kept."""
        self.deadline.check(f"checking line {line}")
        self.guard(act, line)
        if self.on_native is not None:
            broken = self.on_native.step([act[f] for f in ACTION_FIELDS])
            self.steps += 1
            return ("unsat", list(broken)) if broken else ("sat", None)
        broken, post = self.evaluator.step(self.vals, [act[f] for f in ACTION_FIELDS], self.prepared)
        self.steps += 1
        if broken:
            return "unsat", list(broken)
        self.history.append((line, act, self.vals))   # the old list is kept, never copied
        self.vals = post
        return "sat", None

    def walk_compiled(self) -> Outcome:
        """The play walked by the compiled relation: natively if that finds it legal, else (or
        without a native relation) in Python, whose walk keeps what an explanation reads."""
        found = self.walk_natively()
        if found is not None:
            return found
        c = time.process_time()
        try:
            return walk(self, self.eval_step)
        finally:
            native.spent(self.key, time.process_time() - c)

    @cached_property
    def key(self):
        return (self.ruleset, self.ncards, self.neffects, self.without, self.uni.nwatched)

    def walk_natively(self) -> Outcome | None:
        """The play walked by the native relation (model/native.py) with its state in C buffers,
        if it is legal there; None otherwise (the run is then as before, for the Python walk:
        an illegal play's explanation reads the steps' states, which only that walk keeps)."""
        rel = native.relation(*self.key)
        if rel is None:
            return None
        start, steps = self.vals, self.steps
        try:
            self.on_native = rel.play(self.facts, start)
            self.vals = self.on_native.vals   # `get` reads the C buffer in place
            outcome = walk(self, self.eval_step)
            if outcome.kind == "legal":
                self.vals = self.on_native.values()
                return outcome
        except (compiled.Undetermined, OverflowError, compiled.CompileError):
            pass
        finally:
            self.on_native = None
        self.vals, self.steps = start, steps
        return None

    def evaluate(self, act) -> list | None:
        """The rule IDs the compiled relation finds `act` breaking now ([]: legal), the state left
        as it is; None when it cannot decide."""
        if self.evaluator is None:
            return None
        try:
            broken, _ = self.evaluator.step(self.vals, [act[f] for f in ACTION_FIELDS], self.prepared)
        except compiled.Undetermined:
            return None
        return list(broken)

    def step(self, act, line, text="", hinted=False, explain=True):
        """One step by the solver: ("sat", None), ("unsat", (broken, facts)) or ("unknown", why).
        `hinted`: an illegal step's broken rules are first taken from the compiled relation and
        confirmed by the solver (checking.explain: one query each and one for the others), not
        found by asking every restriction alone: the same rules in fewer queries. `--verify`
        does not hint, so that its replay owes nothing to the compiled code. Without `explain`,
        an illegal step is ("unsat", None)."""
        self.current_line, self.current_text, self.current_act = line, text, act
        self.guard(act, line)
        pre, acts = self.assumptions(act)
        lits = list(self.rel.lits.values()) + list(self.rel.rlits.values())
        result = self.solve(lits + pre + acts)
        self.steps += 1
        if result == z3.sat:
            m = self.rel.solver.model()
            new, old = {}, self.state
            for name, var in self.post_vars.items():
                new[name] = py_value(m.eval(var, model_completion=True))
                if new[name] != old[name]:
                    self.line_of[name] = ("line", line, self.cause(m, name))
            self.state = new
            return "sat", None
        if result == z3.unsat and not explain:
            return "unsat", None
        if result == z3.unsat:
            try:
                return "unsat", Explainer(self).explain(pre, acts, expected=self.evaluate(act) if hinted else None)
            except Unknown as e:
                return "unknown", str(e)
        return "unknown", self.rel.solver.reason_unknown()

    def confirm(self, found: Outcome) -> Outcome:
        """The solver's own verdict on the step the compiled walk `found` illegal, asked once, from
        the state the walk reached: it confirms each rule the compiled step reports broken and
        explains the step (checking.explain)."""
        a, act = found.action, found.act
        self.current_line, self.current_text, self.current_act = a.line, a.text, act
        pre, acts = self.assumptions(act)
        try:
            detail = Explainer(self).explain(pre, acts, expected=found.detail)
        except Unknown as e:
            return Outcome("unknown", found.index, a, str(e), self.steps, act)
        return Outcome("illegal", found.index, a, detail, self.steps, act)

    def last_change(self, name):
        """("line", N, rule) of the compiled step that last changed `name`, or None."""
        i, post = self.index[name], self.vals
        for k in range(len(self.history) - 1, -1, -1):
            line, _, pre = self.history[k]
            if pre[i] != post[i]:
                return ("line", line, self.cause_at(k, name))
            post = pre
        return None

    def cause_at(self, k, name):
        """The rule whose update set `name` in compiled step `k`, from a model of that step (asked
        once a step): the explanations' tester (checking.explain.Tester) with the state after
        fixed too, as the compiled step computed it, so that the updates it leaves out need not
        be solved; the relation's solver if the tester does not find it."""
        if k not in self._models:
            _, act, pre = self.history[k]
            after = self.history[k + 1][2] if k + 1 < len(self.history) else self.vals
            p, a = self.assumptions(act, pre)
            post = [self.equals(self.post_vars[n], v) for n, v in zip(self.names, after)]
            tester = explain.tester(self.rel, UNRESTRICTED)   # it assumes no restriction
            if self.solve(list(self.rel.lits.values()) + p + a + post, tester) == z3.sat:
                self._models[k] = tester.solver.model()
            else:
                lits = list(self.rel.lits.values()) + list(self.rel.rlits.values())
                self._models[k] = self.rel.solver.model() if self.solve(lits + p + a) == z3.sat else None
        return self.cause(self._models[k], name) if self._models[k] is not None else None

    def cause(self, model, name):
        """The rule whose update set this variable in the step just taken."""
        for rid, when in self.rel.causes.get(name, []):
            if z3.is_true(model.eval(when, model_completion=True)):
                return rid
        return None


class Provenance:
    """Where each state variable got its value: ("set-up", line or None), or ("line", N, rule) of
    the step that last changed it. Solver steps record it as they go; after compiled steps it is
    worked out from the run's history for the variables an explanation shows."""

    def __init__(self, run: Run):
        self.run, self.solved = run, {}

    @cached_property
    def setup(self) -> dict:
        """("set-up", line) of each variable a step has not changed: a card's from its set-up
        line. Worked out when an explanation first asks (a legal play never does)."""
        specs = self.run.uni.specs
        setup = {name: ("set-up", None) for name in self.run.names}
        for e in self.run.uni.used:   # `used N` is on its card's set-up line
            setup[f"used[{e}]"] = ("set-up", specs[self.run.uni.effects[e][0]].line)
        # a card's own variables (model/state.py names them c<i>_...; a player's, an effect's and a
        # Chain Link's are indexed too, and are not on a card's line)
        card_var = re.compile(re.escape(self.run.ctx.pre.prefix) + r"c(\d+)_")
        for name, var in self.run.pre_vars.items():
            m = card_var.match(var.decl().name())
            if m and int(m.group(1)) < len(specs):
                setup[name] = ("set-up", specs[int(m.group(1))].line)
        return setup

    def __setitem__(self, name, where):
        self.solved[name] = where

    def get(self, name, default=None):
        if name in self.solved:
            return self.solved[name]
        if name in self.run.index:
            found = self.run.last_change(name)
            if found is not None:
                return found
        return self.setup.get(name, default)


@dataclass
class Outcome:
    """What walking a play with one stepper found."""
    kind: str                 # legal | illegal | unknown | error
    index: int = 0            # the action (1-based) that is illegal / undecided / wrong
    action: ActionSpec | None = None
    detail: object = None     # illegal: broken IDs (compiled) or (broken, facts) (solver); else a message
    steps: int = 0
    act: dict | None = None   # the step (of the action's steps) that is illegal / undecided


def walk(run: Run, stepper, done=None) -> Outcome:
    """Take the play's actions one step at a time with `stepper` (Run.eval_step or Run.step);
    `done(index, action)`, if given, is called after each legal action (a timeline's rows)."""
    for index, a in enumerate(run.play.actions, start=1):
        try:
            acts = run.steps_for(a)
            for act in (acts if acts is not None else run.resolve_steps(a)):
                result, detail = stepper(act, a.line, a.text)
                if result != "sat":
                    kind = "illegal" if result == "unsat" else "unknown"
                    return Outcome(kind, index, a, detail, run.steps, act)
        except PlayError as e:
            return Outcome("error", index, a, str(e), run.steps)
        if done is not None:
            done(index, a)
    return Outcome("legal", steps=run.steps)

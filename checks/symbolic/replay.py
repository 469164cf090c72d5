"""Concrete replay of a sequence of actions under two rule sets, with check's own machinery.

The symbolic searches find actions as values of the relation's action record; this module
turns them back into play lines, steps them with `checking.run.Run` under each rule set, and writes
play files that `ygo-timing check` reads. When one set has finer Damage Step windows than the
other (`tcg` sub-steps 2 and 3 are both "before damage calculation" in `ocg`, 5 and 6 both
"after damage calculation"), the `next` that moves between two fine windows of one coarse part
is left out of the coarse set's play: `ALIGN` says where.
"""
from __future__ import annotations

import z3
from ygo_timing.cards import catalogue
from ygo_timing.checking.facts import fact_terms, initial_state, static_facts
from ygo_timing.checking.run import Run
from ygo_timing.checking.verdict import DEFAULT_RLIMIT
from ygo_timing.inputs.play import (  # its renderer keeps lines parseable
    ActionSpec,
    Play,
    parse_text,
    render_action,
)
from ygo_timing.model import rulesets, vocab
from ygo_timing.model.compiled import Undetermined
from ygo_timing.model.state import ACTIONS, CLAIMS, NONE, layout

# fine rule set -> coarse rule set -> windows of the fine set whose `next` stays in the same
# part of the coarse set (S0-TCG 47-68 sub-steps 2-3 vs S0-OCG 171-180 "before damage
# calculation"; S0-TCG 96-116 sub-steps 5-6 vs S0-OCG 198-203 "after damage calculation")
ALIGN = {"tcg": {"ocg": ("t2_flip", "t5_battle_damage")}}


def stutter_windows(fine: str, coarse: str) -> tuple:
    return ALIGN.get(fine, {}).get(coarse, ())


def fine_of(a: str, b: str):
    """(fine, coarse) when the two sets have aligned windows of different grain, else None."""
    if stutter_windows(a, b):
        return a, b
    if stutter_windows(b, a):
        return b, a
    return None


def fact_list(rel, uni, play) -> list:
    """The play's static facts as terms over the relation's Statics (check's own facts)."""
    return [t for t, _ in fact_terms(rel.ctx.S, static_facts(uni, play, rel.ctx.neffects, rel.ctx.nwatched))]


def start_state(rel, uni, play) -> dict:
    """The state before the play's first action, by variable name (check's own)."""
    return initial_state(layout(rel.ctx.ncards, rel.ctx.neffects), uni, play)


def scenario_play(scenario, path="scenario") -> Play:
    opening = scenario.opening or ("enter battle phase",)   # a play file needs an action
    text = "turn: 2\nturn-player: A\n" + scenario.setup + "\n" + "\n".join(opening) + "\n"
    play = parse_text(text, path)
    if not scenario.opening:
        play.actions = []
    return play


class Side:
    """One rule set's run through a sequence, and the play lines it took."""

    def __init__(self, play: Play, ruleset: str, cards: dict, timeout_ms: int):
        self.ruleset = ruleset
        self.run = Run(play, ruleset, cards, timeout_ms, DEFAULT_RLIMIT)
        self.specs: list[ActionSpec] = []
        self.verdict = "legal"
        self.detail = None      # (broken rules, facts) of the illegal step
        self.needed: list = []   # rules without which the last step would be illegal
        self.solved = False      # a step was the solver's: so are the rest

    def step(self, act: dict, spec: ActionSpec, last=False, only=None):
        """Steps before the last are the compiled relation's (the search found them legal with
        it; a compiled "legal" is a solver "legal", docs/architecture.md), the last one the
        solver's, which names the class; so is every step from one the compiled relation
        refuses or cannot decide."""
        if last and self.verdict == "legal":
            self.needed = needed_rules(self.run, act, only)
        self.specs.append(spec)
        result = None
        if not last and not self.solved and self.run.evaluator is not None:
            try:
                result, detail = self.run.eval_step(act, len(self.specs), spec.text)
            except Undetermined:
                pass
        if result != "sat":
            self.solved = True   # the solver's provenance from here on (checking.run.Provenance)
            result, detail = self.run.step(act, len(self.specs), spec.text, hinted=True)
        if result == "sat":
            if spec.kind == "next":   # say the window reached, for people reading the play
                self.specs[-1] = _said(spec, self.run.state["window"])
            return True
        self.verdict = "illegal" if result == "unsat" else "unknown"
        self.detail = detail
        return False


def _said(spec, window):
    return ActionSpec("next", spec.line, f"next {vocab.WINDOWS[window]}", window=vocab.WINDOWS[window])


def needed_rules(run: Run, act: dict, only=None) -> list:
    """Rule IDs (of `only`, default all) whose literal, switched off alone, makes this legal
    step illegal: the permissions and table rows the step relies on."""
    rel = run.rel
    pre, acts = run.assumptions(act)
    rlits = list(rel.rlits.values())
    out = []
    for rid, lit in rel.lits.items():
        if only is not None and rid not in only:
            continue
        others = [v for r, v in rel.lits.items() if r != rid]
        if run.solve(others + [z3.Not(lit)] + rlits + pre + acts) == z3.unsat:
            out.append(rid)
    return out


def spec_of(act: dict, run: Run) -> ActionSpec:
    """The play line for one action of the relation (labels from the run's universe)."""
    u = run.uni
    kind = ACTIONS[act["kind"]]
    player = vocab.PLAYERS[act["player"]] if act["player"] in (0, 1) else None
    label = (lambda i: u.label(i) if i != NONE else None)
    s = ActionSpec(kind, 0, "", player=player)
    if kind == "attack":
        s.player = None
        s.card, s.target, s.direct = label(act["card"]), label(act["target"]), act["direct"]
    elif kind == "activate":
        c, k, _ = u.effects[act["eff"]]
        s.card, s.effect, s.target, s.other = u.label(c), k, label(act["target"]), label(act["other"])
        s.target2 = label(act.get("target2", NONE))
    elif kind == "retarget":
        s.target, s.direct = label(act["target"]), act["direct"]
    elif kind == "replace":
        s.card, s.other = label(act["card"]), label(act["other"])
    elif kind == "resolve_link":
        top = run.state.get(f"link_eff[{max(0, run.state['chain_len'] - 1)}]", 0)
        s = ActionSpec("resolve", 0, "", card=u.label(u.effects[top][0]), choice=label(act.get("choice", NONE)),
                       choice2=label(act.get("choice2", NONE)))
    elif kind == "claim":
        claim = CLAIMS[act["claim"]]
        s.claim, s.player = claim, (player if claim == "lp" else None)
        s.card = label(act["card"]) if claim != "lp" else None
        v = act["value"]
        s.value = {"lp": v, "atk": v, "location": vocab.LOCATIONS[v] if 0 <= v < len(vocab.LOCATIONS) else v,
                   "destroyed_by_battle": bool(v), "face_up": bool(v)}[claim]
    elif kind in ("pass",):
        pass
    else:
        s.player = None
    s.text = render_action(s)
    return s


def replay(play: Play, names: tuple, cards: dict, acts: list, timeout_ms: int = 20_000):
    """Step the play's opening and then `acts` under each rule set in `names` (fine set first
    when aligned). Returns {name: Side}; a side stops at its first illegal step."""
    align = fine_of(*names) if len(names) == 2 else None
    order = list(align) if align else list(names)
    stutter = stutter_windows(*align) if align else ()
    sides = {n: Side(play, n, cards, timeout_ms) for n in order}
    rules = {n: set(rulesets.load(n).rules) for n in order}
    own = {n: rules[n] - set().union(*(rules[m] for m in order if m != n)) if len(order) > 1 else rules[n]
           for n in order}
    fine = sides[order[0]]
    steps = [(a, None) for a in play.actions] + [(None, act) for act in acts]
    for i, (spec, act) in enumerate(steps):
        last = bool(acts) and i == len(steps) - 1   # the opening alone has no last step to explain
        fine_window = vocab.WINDOWS[fine.run.state["window"]]
        for n in order:
            side = sides[n]
            if side.verdict != "legal":
                continue
            if spec is not None:
                concrete = side.run.steps_for(spec)
                s = spec
            else:
                concrete = [act]
                s = spec_of(act, side.run)
            is_next = (s.kind == "next")
            if side is not fine and is_next and fine_window in stutter:
                continue
            for c in concrete:
                if not side.step(c, ActionSpec(s.kind, 0, s.text, **_fields(s)), last=last, only=own[n]):
                    break
    return sides


def _fields(s: ActionSpec) -> dict:
    return {k: getattr(s, k) for k in ("player", "card", "effect", "target", "direct", "window", "link",
                                       "other", "claim", "value")}


def catalogue_cards():
    return catalogue.catalogue((), [])


class Ablated(Run):
    """A Run with one rule switched off through its literals (no recompilation): its
    permissions, table rows and updates are off and its restrictions are not asked for."""

    def __init__(self, play, ruleset, cards, rid, timeout_ms=20_000):
        super().__init__(play, ruleset, cards, timeout_ms, DEFAULT_RLIMIT)
        self.off = {lit.get_id() for lit in (self.rel.lits.get(rid), self.rel.rlits.get(rid)) if lit is not None}
        self.neg = [z3.Not(self.rel.lits[rid])] if rid in self.rel.lits else []

    def solve(self, extra, own=None):
        return super().solve([e for e in extra if e.get_id() not in self.off] + self.neg, own)


def verdict_of(run: Run, play: Play):
    """(verdict, number of the first illegal action or None) of a whole play on a prepared run."""
    for i, a in enumerate(play.actions, start=1):
        steps = run.steps_for(a)
        for act in (steps if steps is not None else run.resolve_steps(a)):
            r, _ = run.step(act, a.line, a.text, explain=False)   # the verdict alone
            if r != "sat":
                return ("illegal" if r == "unsat" else "unknown"), i
    return "legal", None


def rules_in(term) -> set:
    """Rule IDs whose literal occurs in a term."""
    out, seen, todo = set(), set(), [term]
    while todo:
        t = todo.pop()
        if t.get_id() in seen:
            continue
        seen.add(t.get_id())
        if z3.is_const(t) and t.decl().name().startswith("rule:"):
            out.add(t.decl().name()[5:])
        todo.extend(t.children())
    return out


def update_rules(rel, var_name: str) -> set:
    """Rule IDs whose literal occurs in the update of one state variable (by field name): its
    equation among the solver's assertions, which a relation read from the disk cache holds
    as a built one does."""
    post = dict(rel.ctx.post.fields()).get(var_name)
    for a in rel.solver.assertions() if post is not None else ():
        if z3.is_eq(a) and a.arg(0).eq(post):
            return rules_in(a)
    return set()

"""Exhaustive bounded search over the states a scenario reaches, stepping the compiled relation.

`diff` runs it over pairs of states (one per rule set, along one sequence of actions) to find
the actions legal under one set and illegal under the other; `consistency` over one set's
states to find deadlocks. Each step is the compiled relation (`model/compiled.py`: the
solver's own terms, specialised per action kind; `tests/test_compiled.py` proves it gives the
solver's verdicts, broken rules and post-states). Every action of `unroll.action_domain` is
tried at every state, and a state already reached is not expanded again, so the search is
exhaustive up to its bound and meets everything first at its shortest length. What it finds
is replayed by the solver (`checking.run.Run`) before it is reported.
"""
from __future__ import annotations

import time

import z3
from ygo_timing.model import vocab
from ygo_timing.model.state import ACTION_FIELDS, CLAIMS
from ygo_timing.model.state import A as AK
from ygo_timing.symbolic import unroll
from ygo_timing.symbolic.replay import (
    fine_of,
    needed_rules,
    replay,
    scenario_play,
    stutter_windows,
)

DECLARED = vocab.W["attack_declared"]


class Scene:
    """One scenario after its opening: a `checking.run.Run` per rule set (placed at any state the
    search reaches, to ask the solver about it) and the actions the search tries."""

    def __init__(self, names: tuple, scenario, cards):
        self.names, self.sc, self.cards = tuple(names), scenario, cards
        self.play = scenario_play(scenario, f"<{scenario.name}>")
        opened = replay(self.play, self.names, cards, [])
        for side in opened.values():
            if side.verdict != "legal":
                raise RuntimeError(f"scenario {scenario.name}: its opening is {side.verdict} under {side.ruleset}")
        self.runs = {n: opened[n].run for n in self.names}
        first = self.runs[self.names[0]]
        if any(r.evaluator is None for r in self.runs.values()):
            raise RuntimeError("the search steps the compiled relation, and it could not be built")
        self.uni, self.index = first.uni, first.index
        self.start = tuple(tuple(self.runs[n].vals) for n in self.names)
        tp = 0 if self.play.turn_player == "A" else 1
        acts = action_list(first.ctx, len(self.uni.specs), len(self.uni.effects), tp, untargeted(self.uni),
                           paying(self.uni), two_targets(self.uni), choosing(self.uni))
        self.actions = [(act, [act[f] for f in ACTION_FIELDS]) for act in acts]
        self._placed = {}

    @property
    def a(self):
        return self.names[0]

    @property
    def b(self):
        return self.names[-1]

    def at(self, name, state, act: list):
        """The compiled relation of `name` on one step (an action in ACTION_FIELDS order):
        (broken rule IDs, state after)."""
        run = self.runs[name]
        broken, post = run.evaluator.step(state, act, run.prepared)
        return broken, tuple(post)

    def needed(self, name, state, act, rules) -> set:
        """Which of `rules` the legal step `act` relies on under `name` (replay.needed_rules)."""
        run = self.runs[name]
        run.vals = list(state)
        return set(needed_rules(run, act, set(rules)))

    def placed(self, name, rid, eff: int) -> bool:
        """Whether rule `rid` of set `name` opens some window for effect `eff`: its timing
        grant holds for some state, under the set-up's facts."""
        key = (name, rid, eff)
        if key not in self._placed:
            run = self.runs[name]
            lit = run.rel.lits.get(rid)
            # each grant is And(rule literal, term): the literal names the rule it comes from
            bodies = [z3.And(list(t.children())[1:]) for t in run.ctx._grants.get("timing", [])
                      if lit is not None and z3.is_and(t) and t.num_args() > 1 and t.arg(0).eq(lit)]
            s = z3.Solver()
            s.add([t for t, _ in run.statics] + [run.ctx.act.eff == eff, z3.Or(bodies)])
            self._placed[key] = bool(bodies) and s.check() == z3.sat
        return self._placed[key]


def untargeted(uni) -> list:
    """Effects whose text chooses no target: the catalogue's operations apply to fixed cards
    and the effect negates nothing (a negation names the Chain Link it answers)."""
    return [e for e, (_, _, eff) in enumerate(uni.effects)
            if not eff.chooses_target and not eff.negates_a_link]


def paying(uni) -> list:
    """Effects whose cost discards or Tributes a card the play names (GEN-16)."""
    return [e for e, (_, _, eff) in enumerate(uni.effects) if eff.pays_with_card]


def two_targets(uni) -> list:
    """Effects whose text targets two cards (the play names a second target)."""
    return [e for e, (_, _, eff) in enumerate(uni.effects) if eff.second_filter is not None]


def choosing(uni) -> int:
    """The most cards an effect of the play chooses as it resolves (GEN-22); 0 when none chooses."""
    return max((eff.choose.count for _, _, eff in uni.effects if eff.choose is not None), default=0)


def action_list(ctx, ncards, neffects, tp, untargeted, paying=(), two_targets=(), choosing=0) -> list:
    """Every action `unroll.action_domain` admits, enumerated by the solver (claims with value
    0: the search puts in the values the states hold, see `claim_values`)."""
    act = unroll.action_vars(0, ctx)
    s = z3.Solver()
    s.add(unroll.action_domain(act, ncards, neffects, tp, untargeted=untargeted, paying=paying,
                               two_targets=two_targets, choosing=choosing))
    s.add(z3.Implies(act["kind"] == AK["claim"], act["value"] == 0))
    out = []
    while s.check() == z3.sat:
        m = s.model()
        out.append(unroll.concrete(m, act))
        s.add(z3.Or([v != m.eval(v, model_completion=True) for v in act.values()]))
    return sorted(out, key=lambda a: [int(a[f]) for f in ACTION_FIELDS])


VALUE = ACTION_FIELDS.index("value")   # a claim's value, among the action's fields


def claimed_var(act: dict) -> str:
    """The state variable a claim is about (GEN-4)."""
    claim = CLAIMS[act["claim"]]
    return {"lp": f"lp[{act['player']}]", "atk": f"atk[{act['card']}]", "location": f"loc[{act['card']}]",
            "destroyed_by_battle": f"dbb[{act['card']}]", "face_up": f"faceup[{act['card']}]"}[claim]


def claim_values(scene, act, states) -> list:
    """GEN-4 makes a claim legal exactly when its value is the state's, so only the values the
    states hold can be legal under one set and not another. (A claimed ATK with a continuous
    modifier applying is the variable plus the bonus: the search misses such a class, it never
    invents one.)"""
    i = scene.index[claimed_var(act)]
    return sorted({int(s[i]) for s in states})


class Explorer:
    """Breadth first over the tuples of states (one per rule set of the scene) that one
    sequence of actions reaches, legal under every set. `frontier` holds the tuples first
    reached at the current length; `path` gives the actions that reach one."""

    def __init__(self, scene):
        self.scene = scene
        names = scene.names
        align = fine_of(*names) if len(names) == 2 else None
        # with two sets of different grain, the fine set leads: a `next` between two of its
        # windows that are one part of the coarse set leaves the coarse state as it is
        self.lead = names.index(align[0]) if align else 0
        self.coarse = names.index(align[1]) if align else None
        self.stutter = {vocab.W[w] for w in stutter_windows(*align)} if align else set()
        self.parent = {scene.start: None}
        self.frontier = [scene.start]
        ix = scene.index
        self.window, self.passes, self.chain_len = ix["window"], ix["passes"], ix["chain_len"]

    def path(self, joint) -> list:
        acts = []
        while self.parent[joint] is not None:
            joint, act = self.parent[joint]
            acts.append(act)
        return acts[::-1]

    def level(self, deadline):
        """One action more from every tuple of the frontier. Yields (tuple, action, broken rule
        IDs per set) for each action legal under some set and illegal under another; the tuples
        every set reaches legally form the next frontier. At the deadline the frontier becomes
        None and the level stops."""
        sc = self.scene
        names = sc.names
        nxt = []
        for joint in self.frontier:
            if time.monotonic() > deadline:
                self.frontier = None
                return
            lead = joint[self.lead]
            for act, fields in sc.actions:
                kind = act["kind"]
                # closing a window is `next`; two passes with an empty Chain are the same step,
                # except at the attack declaration (BS-2: they lead to the Battle Step's open state)
                if kind == AK["pass"] and lead[self.chain_len] == 0 and lead[self.passes] == 1 \
                        and lead[self.window] != DECLARED:
                    continue
                stut = kind == AK["next"] and lead[self.window] in self.stutter
                # that is the same game only when nobody has passed yet (the fine set resets priority)
                if stut and lead[self.passes] != 0:
                    continue
                if kind == AK["claim"]:   # a claim changes no state: only ever the last action
                    for v in claim_values(sc, act, joint):
                        claimed = fields[:VALUE] + [v] + fields[VALUE + 1:]
                        broken = [sc.at(n, s, claimed)[0] for n, s in zip(names, joint)]
                        if len({bool(b) for b in broken}) > 1:
                            yield joint, dict(act, value=v), broken
                    continue
                steps = [((), s) if stut and i == self.coarse else sc.at(n, s, fields)
                         for i, (n, s) in enumerate(zip(names, joint))]
                broken = [b for b, _ in steps]
                if len({bool(b) for b in broken}) > 1:
                    if not stut:
                        yield joint, act, broken
                elif not broken[0]:
                    after = tuple(s for _, s in steps)
                    if after not in self.parent:
                        self.parent[after] = (joint, act)
                        nxt.append(after)
        self.frontier = nxt

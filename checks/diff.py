"""Where two rule sets disagree: shortest plays legal under one and illegal under the other.

For each set-up of `scenarios.SCENARIOS` both step relations are unrolled along one shared
sequence of actions (`unroll.py`); the solver is asked for a sequence whose steps are legal
under both sets except the last, which is legal under one and illegal under the other. Lengths
grow from 1 to K, so the first witness of a class is a shortest one. The witness is replayed
with `check.Run` under both sets, which names the class: the rules the illegal step breaks and
the rules the legal step needs. The class is then blocked (the same broken rules, with the same
permissions holding) and the solver asked again, until no class is left up to K or time runs out.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import z3

from . import unroll
from .check import Universe, check_play
from .model import rulesets, vocab
from .model.state import A as AK
from .model.state import CL, CLAIMS
from .model.step import relation
from .play import Play, parse_text, to_text
from .replay import (Ablated, catalogue_cards, fact_list, fine_of, replay, scenario_play, stutter_windows,
                     update_rules, verdict_of)
from .scenarios import SCENARIOS

DEFAULT_MAX_LENGTH = 8
DEFAULT_TIMEOUT_S = 300

# Rules of the two sets that speak to the same matter (rules.md: "tcg uses DS-T1 in its place";
# section 6 gives each sub-step the OCG part it splits). A difference decided by a set-specific
# rule that has a counterpart in the other set is a contradiction; one decided by a rule with
# no counterpart is a coverage gap: the other set is silent and falls back to its default.
COUNTERPARTS = {
    "DS-1": ("DS-T1",),
    "D1-1": ("T1",), "D1-3": ("T1",), "D1-4": ("T1",), "D1-5": ("T1",),
    "D2-1": ("T2",), "D2-6": ("T2", "T3"),
    "D3-1": ("T4",), "D3-2": ("T4",), "D3-3": ("T4",), "D3-4": ("T4",), "D3-5": ("T4",),
    "D4-4": ("T6",), "D4-5": ("T5", "T6"),
    "D5-1": ("T7",), "D5-2": ("T7",), "D5-6": ("BS-8",),
}


def counterparts(rid: str) -> set:
    out = set(COUNTERPARTS.get(rid, ()))
    out |= {o for o, ts in COUNTERPARTS.items() if rid in ts}
    return out


@dataclass
class Difference:
    legal_in: str
    illegal_in: str
    broken: list            # rules the illegal step breaks (in `illegal_in`)
    needed: list            # set-specific rules the legal step relies on (in `legal_in`)
    claim: str | None       # for a claim: what is claimed (the states differ, GEN-4 reports it)
    causes: dict            # for a claim: rule set -> the rule that set the claimed value
    kind: str               # contradiction | coverage gap
    placed: list            # for a refused timing: the illegal set's rules that open a window for it
    length: int             # actions after the scenario's opening
    scenario: str
    plays: dict             # rule set -> play text
    facts: list             # why the illegal step is illegal (check's explanation)
    confirmed: dict = field(default_factory=dict)   # rule set -> check's verdict on the play
    files: dict = field(default_factory=dict)

    @property
    def rules(self):
        return sorted(set(self.broken) | set(self.needed) | set(self.placed)
                      | {c for c in self.causes.values() if c})

    def key(self):
        return (self.legal_in, self.illegal_in, tuple(sorted(self.broken)), tuple(sorted(self.needed)),
                tuple(sorted(self.placed)), self.claim, tuple(sorted((k, v or "") for k, v in self.causes.items())))

    def to_dict(self):
        return {"kind": self.kind, "legal_in": self.legal_in, "illegal_in": self.illegal_in,
                "rules": self.rules, "broken": self.broken, "needed": self.needed, "claim": self.claim,
                "causes": self.causes, "placed": self.placed, "length": self.length, "scenario": self.scenario,
                "because": self.facts, "plays": self.plays, "files": self.files, "confirmed": self.confirmed}


@dataclass
class Result:
    a: str
    b: str
    max_length: int
    differences: list
    status: str              # complete | timeout | unknown
    seconds: float
    scenarios: list
    note: str = ""

    def to_dict(self):
        return {"a": self.a, "b": self.b, "max_length": self.max_length, "status": self.status,
                "seconds": round(self.seconds, 1), "scenarios": self.scenarios, "note": self.note,
                "differences": [d.to_dict() for d in self.differences]}

    def closing_line(self):
        if self.status == "complete":
            return (f"no further difference up to {self.max_length} actions after each scenario's opening "
                    f"({len(self.differences)} class(es) found)")
        return f"stopped at {self.status} after {len(self.differences)} class(es): {self.note}"


def classify(a_sets, legal_in, illegal_in, broken, needed, causes):
    """The rules that refuse decide first: a set-specific refusing rule with no counterpart
    (D3-7, D5-3) means the other set is silent. When only shared rules refuse (GEN-1 for a
    timing, GEN-4 for a claim), the set-specific rules the verdicts rest on decide."""
    rules = {n: set(rulesets.load(n).rules) for n in (legal_in, illegal_in)}
    only = {legal_in: rules[legal_in] - rules[illegal_in], illegal_in: rules[illegal_in] - rules[legal_in]}

    def has_counterpart(r, n):
        return bool(counterparts(r) & rules[illegal_in if n == legal_in else legal_in])
    refusing = [r for r in broken if r in only[illegal_in]]
    if refusing:
        return "contradiction" if all(has_counterpart(r, illegal_in) for r in refusing) else "coverage gap"
    resting = [(r, n) for n in (legal_in, illegal_in) for r in needed if r in only[n]]
    resting += [(r, n) for n, r in causes.items() if r and r in only[n]]
    return "contradiction" if any(has_counterpart(r, n) for r, n in resting) else "coverage gap"


class Search:
    """One scenario's unrolled question, asked again after each class is blocked."""

    def __init__(self, a, b, scenario, cards, blocks, timeout_ms):
        self.a, self.b, self.sc = a, b, scenario
        self.play = scenario_play(scenario, f"<{scenario.name}>")
        self.cards = cards
        self.uni = Universe(self.play, cards)
        n, m = len(self.uni.specs), len(self.uni.effects)
        self.ncards, self.neffects = n, m
        self.rels = {r: relation(r, n, m) for r in (a, b)}
        facts = fact_list(self.rels[a], self.uni, self.play)
        opened = replay(self.play, (a, b), cards, [])
        for side in opened.values():
            if side.verdict != "legal":
                raise RuntimeError(f"scenario {scenario.name}: its opening is {side.verdict} under {side.ruleset}")
        self.traj = {r: unroll.Trajectory(self.rels[r], f"{r}_", opened[r].run.state, facts) for r in (a, b)}
        self.align = fine_of(a, b)
        self.stutter = [z3.IntVal(0)]
        self.solver = z3.Solver()
        self.solver.set("timeout", timeout_ms)
        self.solver.add(facts)
        for t in self.traj.values():
            self.solver.add(t.init)
        self.acts = []
        self.untargeted = untargeted(self.uni)
        self.blocks = blocks      # shared list of Difference (blocked in every scenario)

    def _stutter(self, k, act):
        if not self.align:
            return z3.BoolVal(False)
        fine = self.traj[self.align[0]].state(k)
        ws = stutter_windows(*self.align)
        return z3.And(act["kind"] == AK["next"], z3.Or([fine["window"] == vocab.W[w] for w in ws]))

    def extend(self, k):
        """Add step k's action variables; steps before k are legal under both sets."""
        act = unroll.action_vars(k, self.rels[self.a].ctx)
        self.acts.append(act)
        tp = 0 if self.play.turn_player == "A" else 1
        self.solver.add(unroll.action_domain(act, self.ncards, self.neffects, tp, untargeted=self.untargeted))
        lead = self.traj[self.align[0] if self.align else self.a].state(k)
        # closing a window is `next`; two passes with an empty Chain are the same step
        self.solver.add(z3.Not(z3.And(act["kind"] == AK["pass"], lead["chain_len"] == 0, lead["passes"] == 1)))
        # a `next` between two fine windows of one coarse part leaves the coarse state as it is;
        # that is the same game only when nobody has passed yet (the fine set resets priority)
        self.solver.add(z3.Implies(self._stutter(k, act), lead["passes"] == 0))
        return act

    def commit(self, k):
        act, stut = self.acts[k], self._stutter(k, self.acts[k])
        # a claim changes no state: in a shortest witness only the last action is one
        self.solver.add(act["kind"] != AK["claim"])
        for r, t in self.traj.items():
            if self.align and r == self.align[1]:
                self.solver.add(z3.If(stut, t.stutter(k), t.legal(k, act)))
            else:
                self.solver.add(t.legal(k, act))

    def placed(self, name, rid, eff):
        """Whether rule `rid` of set `name` opens some window for effect `eff` (a term over
        the action's effect, or a concrete one): its timing grant, with the window left open."""
        t = self.traj[name]
        g = t.tpl.grants.get("timing", {}).get(rid)
        if g is None:
            return z3.BoolVal(False)
        w = t.ctx.pre.window
        return z3.substitute(z3.Or([z3.substitute(g, (w, z3.IntVal(i))) for i in range(len(vocab.WINDOWS))]),
                             (t.ctx.act.eff, eff))

    def blocked(self, k, legal_in, illegal_in):
        """A found class is blocked: one of the rules it broke holds, or one of the rules the
        legal side needed grants nothing (for a claim: a different claim). A witness that breaks
        the class's rules and more is counted in the class."""
        act, out = self.acts[k], []
        L, I = self.traj[legal_in], self.traj[illegal_in]
        for d in self.blocks:
            if (d.legal_in, d.illegal_in) != (legal_in, illegal_in):
                continue
            other = [I.restriction(k, act, r) for r in d.broken if r in I.tpl.restrictions]
            for r in ([] if d.claim else d.needed):   # a claim's class is its broken rules and claim
                bodies = [g[r] for g in L.tpl.grants.values() if r in g]
                if bodies:
                    other.append(z3.Not(L.at(k, act, z3.Or(bodies))))
            if d.claim:
                other.append(z3.Or(act["kind"] != AK["claim"], act["claim"] != CL[d.claim]))
            if d.placed:
                other.append(z3.Not(z3.And([self.placed(illegal_in, r, act["eff"]) for r in d.placed])))
            out.append(z3.Or(other))
        return out

    def ask(self, k):
        """A witness of length k+1 not in a blocked class: the actions, or None / 'unknown'."""
        act = self.acts[k]
        stut = self._stutter(k, act)
        dirs = []
        for legal_in, illegal_in in ((self.a, self.b), (self.b, self.a)):
            dirs.append(z3.And([self.traj[legal_in].legal(k, act), z3.Not(stut),
                                self.traj[illegal_in].illegal(k, act)] + self.blocked(k, legal_in, illegal_in)))
        self.solver.push()
        self.solver.add(z3.Or(dirs))
        r = self.solver.check()
        out = None
        if r == z3.sat:
            m = self.solver.model()
            out = [unroll.concrete(m, a) for a in self.acts[:k + 1]]
        elif r == z3.unknown:
            out = "unknown"
        self.solver.pop()
        return out


def untargeted(uni) -> list:
    """Effects whose text chooses no target: the catalogue's resolution applies to a fixed card
    and the effect negates nothing (a negation names the Chain Link it answers)."""
    return [e for e, (_, _, eff) in enumerate(uni.effects)
            if eff.target != "chosen" and eff.negates == "none" and eff.resolution not in ("negate", "negate_destroy")]


def explain(search: Search, acts, length):
    """Replay a witness with check's machinery and name its class."""
    a, b = search.a, search.b
    sides = replay(search.play, (a, b), search.cards, acts)
    verdicts = {n: s.verdict for n, s in sides.items()}
    if sorted(verdicts.values()) != ["illegal", "legal"]:
        raise RuntimeError(f"scenario {search.sc.name}: the solver's witness replays as {verdicts}; "
                           "the unrolled relation and check disagree")
    legal_in = next(n for n, v in verdicts.items() if v == "legal")
    illegal_in = next(n for n, v in verdicts.items() if v == "illegal")
    broken, facts = sides[illegal_in].detail
    only = set(rulesets.load(legal_in).rules) - set(rulesets.load(illegal_in).rules)
    needed = sorted(r for r in sides[legal_in].needed if r in only)
    last = acts[-1]
    claim, causes = None, {}
    if last["kind"] == AK["claim"]:
        claim = CLAIMS[last["claim"]]
        var = {"lp": f"lp[{last['player']}]", "atk": f"atk[{last['card']}]", "location": f"loc[{last['card']}]",
               "destroyed_by_battle": f"dbb[{last['card']}]", "face_up": f"faceup[{last['card']}]"}[claim]
        for n, s in sides.items():
            where = s.run.line_of.get(var, ())
            causes[n] = where[2] if len(where) > 2 else None
    plays = {n: _play_text(search, s, broken) for n, s in sides.items()}
    if claim:
        needed = sorted(set(needed) | decisive(search, sides, var, plays))
    placed = []
    if "GEN-1" in broken and last["kind"] == AK["activate"]:
        mine = set(rulesets.load(illegal_in).rules) - set(rulesets.load(legal_in).rules)
        placed = [r for r in sorted(mine)
                  if z3.is_true(z3.simplify(search.placed(illegal_in, r, z3.IntVal(last["eff"]))))]
    kind = classify((a, b), legal_in, illegal_in, broken, needed + placed, causes)
    return Difference(legal_in, illegal_in, list(broken), needed, claim, causes, kind, placed, length,
                      search.sc.name, plays, facts)


def _play_text(search, s, broken):
    p = Play(f"<{s.ruleset}>", title="", ruleset=s.ruleset, turn=search.play.turn,
             turn_player=search.play.turn_player, lp=dict(search.play.lp), cards=list(search.play.cards),
             actions=list(s.specs), expect=s.verdict,
             expect_rules=list(broken) if s.verdict == "illegal" else [])
    return to_text(p)


def decisive(search, sides, var, plays) -> set:
    """For a claim: the set-specific rules in the update of the claimed variable whose removal
    from their set flips that set's verdict on its witness play (e.g. BD-1's order of battle
    damage modifiers inside the damage calculation)."""
    names = list(sides)
    out = set()
    for n in names:
        mine = set(rulesets.load(n).rules) - set().union(*(set(rulesets.load(m).rules) for m in names if m != n))
        for rid in sorted(update_rules(sides[n].run.rel, var) & mine):
            play = parse_text(plays[n], f"<{n}>")
            v, at = verdict_of(Ablated(play, n, search.cards, rid), play)
            # the flip must be at the claim itself: a rule whose removal breaks the play earlier
            # (a window transition) is not what the claim tells apart
            if v != sides[n].verdict and (v == "legal" or at == len(play.actions)):
                out.add(rid)
    return out


def confirm(d: Difference, out_dir: Path | None, number: int):
    """Check every witness play as `ygo-timing check` would, and write it under out_dir."""
    slug = "-".join([f"{number:02d}", d.kind.split()[0], d.legal_in, "allows"] + d.rules)[:80]
    for n, text in d.plays.items():
        title = (f"{d.kind}: legal under {d.legal_in}, illegal under {d.illegal_in} "
                 f"({', '.join(d.rules)})")
        header = f"title: {title}\nsource: ygo-timing diff, scenario {d.scenario}\n"
        full = header + text
        d.plays[n] = full
        path = f"{out_dir / f'{slug}.{n}.play'}" if out_dir else f"<{slug}.{n}>"
        v = check_play(parse_text(full, path))
        d.confirmed[n] = v.verdict if v.matches_expect() else f"{v.verdict} (NOT as claimed)"
        if n == d.illegal_in and v.verdict == "illegal":
            d.facts = v.facts   # check's own explanation, with the lines of the play as written
        if out_dir:
            out_dir.mkdir(parents=True, exist_ok=True)
            Path(path).write_text(full, "utf-8")
            d.files[n] = path


def diff(a: str, b: str, max_length=DEFAULT_MAX_LENGTH, timeout_s=DEFAULT_TIMEOUT_S, out_dir=None,
         scenarios=SCENARIOS, progress=None) -> Result:
    start = time.monotonic()
    if a == b:   # one relation: every play has one verdict
        return Result(a, b, max_length, [], "complete", 0.0, [], "the same rule set")
    deadline = start + timeout_s
    cards = catalogue_cards()
    found: list[Difference] = []
    keys = set()
    status, note = "complete", ""
    for sc in scenarios:
        search = Search(a, b, sc, cards, found, timeout_ms=max(1000, int(timeout_s * 1000)))
        for k in range(max_length):
            search.extend(k)
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    status, note = "timeout", f"time limit {timeout_s} s reached in scenario {sc.name} at length {k + 1}"
                    break
                search.solver.set("timeout", max(1, int(left * 1000)))
                acts = search.ask(k)
                if acts is None:
                    break
                if acts == "unknown":
                    status = "timeout" if time.monotonic() >= deadline - 0.5 else "unknown"
                    note = f"the solver answered unknown in scenario {sc.name} at length {k + 1}"
                    break
                d = explain(search, acts, k + 1)
                if d.key() in keys:
                    raise RuntimeError(f"class {d.key()} found twice: blocking did not exclude it")
                keys.add(d.key())
                confirm(d, Path(out_dir) if out_dir else None, len(found) + 1)
                found.append(d)
                if progress:
                    progress(d)
            if status != "complete":
                break
            search.commit(k)
        if status != "complete":
            break
    return Result(a, b, max_length, found, status, time.monotonic() - start,
                  [{"name": s.name, "about": s.about} for s in scenarios], note)

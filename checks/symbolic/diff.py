"""Where two rule sets disagree: shortest plays legal under one and illegal under the other.

For each set-up of `scenarios.SCENARIOS` both rule sets are stepped along shared sequences of
actions, breadth first (`explore.py`): every action at every pair of states reached legally
under both, so lengths grow from 1 to K and the first witness of a class is a shortest one. A
witness is an action legal under one set and illegal under the other. It is replayed with
`checking.run.Run` under both sets (compiled up to its last action, which the solver takes), and
the solver names its class: the rules the illegal step breaks and the rules the legal step needs. Later witnesses of a found class are counted in it
(`member`); the search goes on until every pair up to K has been tried or time runs out.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from ygo_timing.checking.check import check_play
from ygo_timing.inputs.play import Play, parse_text, to_text
from ygo_timing.model import rulesets
from ygo_timing.model.rulebook import counterparts, hints
from ygo_timing.model.state import CLAIMS
from ygo_timing.model.state import A as AK
from ygo_timing.symbolic.explore import Explorer, Scene, claimed_var
from ygo_timing.symbolic.replay import (
    Ablated,
    catalogue_cards,
    replay,
    update_rules,
    verdict_of,
)
from ygo_timing.symbolic.scenarios import SCENARIOS

DEFAULT_MAX_LENGTH = 8
DEFAULT_TIMEOUT_S = 300

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
        # a refusing rule's counterpart in the legal set (DS-1 -> DS-T1) is where that set
        # answers the same matter the other way, so the reader sees both
        answer = {c for r in self.broken for c in counterparts(r) if c in rulesets.load(self.legal_in).rules}
        return sorted(set(self.broken) | set(self.needed) | set(self.placed) | answer
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
    (D3-7, D5-3) means the other set is silent. When only shared rules refuse (GEN-6 for a
    timing, GEN-4 for a claim), the set-specific rules the verdicts rest on decide. Counterparts
    are declared on the rules (`counterparts=`, rules.md: "tcg uses DS-T1 in its place"; section
    6 gives each sub-step the OCG part it splits)."""
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


class Unknown(Exception):
    """The solver could not decide a witness within its limits."""


def explain(scene: Scene, acts, length):
    """Replay a witness with check's machinery (the solver) and name its class."""
    a, b = scene.a, scene.b
    sides = replay(scene.play, (a, b), scene.cards, acts)
    verdicts = {n: s.verdict for n, s in sides.items()}
    if "unknown" in verdicts.values():
        raise Unknown(f"the solver answered unknown replaying a witness in scenario {scene.sc.name} "
                      f"at length {length}")
    if sorted(verdicts.values()) != ["illegal", "legal"]:
        raise RuntimeError(f"scenario {scene.sc.name}: the witness replays as {verdicts}; "
                           "the compiled relation and the solver disagree")
    legal_in = next(n for n, v in verdicts.items() if v == "legal")
    illegal_in = next(n for n, v in verdicts.items() if v == "illegal")
    broken, facts = sides[illegal_in].detail
    only = set(rulesets.load(legal_in).rules) - set(rulesets.load(illegal_in).rules)
    needed = sorted(r for r in sides[legal_in].needed if r in only)
    last = acts[-1]
    claim, causes = None, {}
    if last["kind"] == AK["claim"]:
        claim = CLAIMS[last["claim"]]
        var = claimed_var(last)
        for n, s in sides.items():
            where = s.run.line_of.get(var, ())
            causes[n] = where[2] if len(where) > 2 else None
    plays = {n: _play_text(scene, s, broken) for n, s in sides.items()}
    if claim:
        needed = sorted(set(needed) | decisive(scene, sides, var, plays))
    placed = []
    # a refused timing: the rules of the illegal set that open a window for the effect
    if "windows" in hints(broken) and last["kind"] == AK["activate"]:
        mine = set(rulesets.load(illegal_in).rules) - set(rulesets.load(legal_in).rules)
        placed = [r for r in sorted(mine) if scene.placed(illegal_in, r, last["eff"])]
    kind = classify((a, b), legal_in, illegal_in, broken, needed + placed, causes)
    return Difference(legal_in, illegal_in, list(broken), needed, claim, causes, kind, placed, length,
                      scene.sc.name, plays, facts)


def member(scene: Scene, d: Difference, joint, act, broken: dict, legal_in, illegal_in) -> bool:
    """Whether a witness belongs to found class `d`: the same direction, it breaks all of the
    class's rules (and maybe more), the same claim, or, for an activation, the illegal set
    places the effect by the same rules and the legal step relies on the same rules."""
    if (d.legal_in, d.illegal_in) != (legal_in, illegal_in) or not set(d.broken) <= set(broken[illegal_in]):
        return False
    if d.claim:
        return act["kind"] == AK["claim"] and CLAIMS[act["claim"]] == d.claim
    if not all(scene.placed(illegal_in, r, act["eff"]) for r in d.placed):
        return False
    state = joint[(scene.a, scene.b).index(legal_in)]
    return not d.needed or scene.needed(legal_in, state, act, d.needed) >= set(d.needed)


def _play_text(scene, s, broken):
    p = Play(f"<{s.ruleset}>", title="", ruleset=s.ruleset, turn=scene.play.turn,
             turn_player=scene.play.turn_player, lp=dict(scene.play.lp), cards=list(scene.play.cards),
             actions=list(s.specs), expect=s.verdict,
             expect_rules=list(broken) if s.verdict == "illegal" else [])
    return to_text(p)


def decisive(scene, sides, var, plays) -> set:
    """For a claim: the set-specific rules in the update of the claimed variable whose removal
    from their set flips that set's verdict on its witness play (e.g. BD-1's order of battle
    damage modifiers inside the damage calculation)."""
    names = list(sides)
    out = set()
    for n in names:
        mine = set(rulesets.load(n).rules) - set().union(*(set(rulesets.load(m).rules) for m in names if m != n))
        for rid in sorted(update_rules(sides[n].run.rel, var) & mine):
            play = parse_text(plays[n], f"<{n}>")
            v, at = verdict_of(Ablated(play, n, scene.cards, rid), play)
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
    """`progress(done, total)`, if given, hears of each (scenario, length) level searched."""
    start = time.monotonic()
    if a == b:   # one relation: every play has one verdict
        return Result(a, b, max_length, [], "complete", 0.0, [], "the same rule set")
    deadline = start + timeout_s
    cards = catalogue_cards()
    found: list[Difference] = []
    keys = set()
    status, note = "complete", ""
    for sc in scenarios:
        scene = Scene((a, b), sc, cards)
        search = Explorer(scene)
        for k in range(max_length):
            for joint, act, broken in search.level(deadline):
                broken = dict(zip((a, b), broken))
                legal_in = a if not broken[a] else b
                illegal_in = b if legal_in == a else a
                if any(member(scene, d, joint, act, broken, legal_in, illegal_in) for d in found):
                    continue
                try:
                    d = explain(scene, search.path(joint) + [act], k + 1)
                except Unknown as e:
                    status, note = "unknown", str(e)
                    break
                if d.key() in keys:
                    raise RuntimeError(f"class {d.key()} found twice: a witness of it was not counted in it")
                keys.add(d.key())
                confirm(d, Path(out_dir) if out_dir else None, len(found) + 1)
                found.append(d)
            if progress:
                progress(scenarios.index(sc) * max_length + k + 1, len(scenarios) * max_length)
            if status != "complete":
                break
            if search.frontier is None:
                status, note = "timeout", f"time limit {timeout_s} s reached in scenario {sc.name} at length {k + 1}"
                break
            if not search.frontier:
                break   # no pair of states to go on from: nothing longer differs either
        if status != "complete":
            break
    return Result(a, b, max_length, found, status, time.monotonic() - start,
                  [{"name": s.name, "about": s.about} for s in scenarios], note)

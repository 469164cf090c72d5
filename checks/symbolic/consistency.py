"""Is a rule set consistent? Satisfiability, deadlocks, dead rules, and the source conflicts.

* satisfiable: the unrolled relation is asked for a legal Battle Phase with an attack, damage
  calculation and the End Step; the witness is replayed through `check`.
* contradictions: from each scenario's opening, a reachable state (up to K actions) in which
  every candidate action is refused (a deadlock: the rules demand opposite things), or a
  mandatory trigger is pending and its activation is refused; each comes with its witness and,
  per refused action, the rules that refuse it (each restriction alone, as `check` does).
* dead rules: a rule with no term in the compiled relation changes no verdict at any length, by
  construction; on request every other rule is tested against its own fixtures (a fixture whose
  verdict flips without it shows it alive).
* source conflicts (rules.md notes to CH-5, D2-1, D3-3): each reading is a switch on the same
  relation; a play shows where the two readings give different verdicts.
"""
from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import z3
from ygo_timing.checking.check import check_play
from ygo_timing.checking.facts import Universe
from ygo_timing.checking.run import Run
from ygo_timing.checking.verdict import DEFAULT_RLIMIT
from ygo_timing.inputs.play import Play, load, parse_text, to_text
from ygo_timing.model import rulesets, vocab
from ygo_timing.model.rules.chain import speed_term
from ygo_timing.model.state import ACTION_FIELDS, NONE, action
from ygo_timing.model.state import A as AK
from ygo_timing.model.step import StepRelation, bucket, relation
from ygo_timing.symbolic import unroll
from ygo_timing.symbolic.explore import Explorer, Scene
from ygo_timing.symbolic.options import options
from ygo_timing.symbolic.replay import (
    catalogue_cards,
    fact_list,
    replay,
    scenario_play,
    start_state,
)
from ygo_timing.symbolic.scenarios import SCENARIOS, Scenario


@dataclass
class Finding:
    kind: str            # deadlock | mandatory refused
    scenario: str
    rules: list          # the rules involved (minimal per refused action)
    detail: list         # per candidate: "action: rules"
    play: str


@dataclass
class Report:
    ruleset: str
    max_length: int
    satisfiable: dict
    contradictions: list
    contradictions_status: str
    dead: list
    alive: dict
    conflicts: list
    seconds: float = 0.0
    notes: list = field(default_factory=list)

    def exit_code(self):
        if self.satisfiable.get("verdict") == "unknown" or self.contradictions_status != "complete":
            return 3 if not (self.contradictions or self.dead) else 1
        return 1 if (self.contradictions or self.dead or not self.satisfiable.get("found")) else 0

    def to_dict(self):
        return {"ruleset": self.ruleset, "max_length": self.max_length, "seconds": round(self.seconds, 1),
                "satisfiable": self.satisfiable,
                "contradictions": {"status": self.contradictions_status,
                                   "bound": f"up to {self.max_length} actions after each scenario's opening",
                                   "found": [dataclasses.asdict(f) for f in self.contradictions]},
                "dead_rules": self.dead, "alive_by_fixture": self.alive,
                "source_conflicts": self.conflicts, "notes": self.notes}


# --- satisfiability -------------------------------------------------------------------------

SAT_SCENARIO = Scenario("battle", "a Battle Phase from Main Phase 1",
                        'A monster "Dark Magician"\nB monster "Kuriboh"\n', ())


def satisfiable(name: str, timeout_s: float, max_steps: int = 16) -> dict:
    """A legal Battle Phase with an attack, damage calculation and the End Step, found by the
    solver on the unrolled relation and replayed through check."""
    play = scenario_play(SAT_SCENARIO, "<battle>")
    cards = catalogue_cards()
    uni = Universe(play, cards)
    rel = relation(name, len(uni.specs), len(uni.effects), nwatched=uni.nwatched)
    facts = fact_list(rel, uni, play)
    traj = unroll.Trajectory(rel, "s_", start_state(rel, uni, play), facts)
    s = z3.Solver()
    s.set("timeout", int(timeout_s * 1000))
    s.add(facts + traj.init)
    acts = []
    for k in range(max_steps):
        act = unroll.action_vars(k, rel.ctx)
        acts.append(act)
        s.add(unroll.action_domain(act, len(uni.specs), len(uni.effects), 0,
                                   kinds=("enter_bp", "attack", "pass", "next", "end_bp", "resolve_link"),
                                   choosing=max((e.choose.count for _, _, e in uni.effects if e.choose is not None),
                                                default=0)))
        s.add(traj.legal(k, act))
        end = traj.state(k + 1)
        goal = z3.And(end["window"] == vocab.W["end_step"], z3.Or([end[f"battled[{i}]"] for i in range(len(uni.specs))]))
        r = s.check(goal)
        if r == z3.unknown:
            return {"found": False, "verdict": "unknown", "bound": f"{k + 1} actions"}
        if r == z3.sat:
            m = s.model()
            seq = [unroll.concrete(m, a) for a in acts]
            side = replay(play, (name,), cards, seq)[name]
            text = to_text(Play("<battle>", ruleset=name, cards=list(play.cards), actions=side.specs,
                                expect="legal"))
            v = check_play(parse_text(text, "<battle>"))
            return {"found": True, "length": k + 1, "play": text,
                    "verdict": v.verdict if v.matches_expect() else f"{v.verdict} (NOT as claimed)"}
    return {"found": False, "verdict": "none", "bound": f"{max_steps} actions"}


# --- contradictions ---------------------------------------------------------------------------

def candidates(uni) -> list:
    """Every kind of move a player could make now, with no target (a target never makes an
    activation legal that is illegal without one, except for a chosen target, tried by options)."""
    out = [dict(kind=AK["pass"], player=p) for p in (0, 1)]
    out += [dict(kind=AK["next"]), dict(kind=AK["resolve_link"]), dict(kind=AK["end_bp"])]
    for e, (c, _, eff) in enumerate(uni.effects):
        if eff.kind != "continuous":
            out.append(dict(kind=AK["activate"], player=vocab.PLAYERS.index(uni.specs[c].player), eff=e))
    # a link that chooses cards as it resolves (GEN-22) resolves only with a choice its text may make
    most = max((eff.choose.count for _, _, eff in uni.effects if eff.choose is not None), default=0)
    cards = range(len(uni.specs))
    out += [dict(kind=AK["resolve_link"], choice=j) for j in cards if most]
    out += [dict(kind=AK["resolve_link"], choice=j, choice2=k) for j in cards for k in cards if k > j and most > 1]
    return [[action(**c)[f] for f in ACTION_FIELDS] for c in out]


# who holds priority decides who acts first, never whether an effect may be activated at all
PRIORITY = {"PR-1", "PR-2"}


def stuck(scene, state, cands) -> str | None:
    """'deadlock' when the game is still on and every candidate move is refused; 'mandatory
    refused' when a pending mandatory trigger's activation is refused by more than priority
    (the other player may have to act first); else None."""
    name = scene.names[0]
    broken = [scene.at(name, state, c)[0] for c in cands]
    if state[scene.index["window"]] != vocab.W["main2"] and all(broken):
        return "deadlock"
    for c, no in zip(cands, broken):
        eff = c[ACTION_FIELDS.index("eff")]
        if (c[0] == AK["activate"] and set(no) - PRIORITY and scene.uni.effects[eff][2].mandatory
                and state[scene.index[f"trig[{eff}]"]]):
            return "mandatory refused"
    return None


def stuck_search(name, scenario, max_length, deadline, cards):
    """The shortest stuck state from the scenario's opening, breadth first over every state its
    actions reach legally (`explore.py`), up to `max_length` actions."""
    scene = Scene((name,), scenario, cards)
    search, cands = Explorer(scene), candidates(scene.uni)
    for k in range(max_length + 1):
        for (state,) in search.frontier:
            if time.monotonic() > deadline:
                return [], "timeout"
            kind = stuck(scene, state, cands)
            if kind:
                return [describe_stuck(kind, scenario, scene.play, name, cards, search.path((state,)))], "complete"
        if k == max_length:
            break
        for _ in search.level(deadline):
            pass   # one rule set: no action is legal under one set and not another
        if search.frontier is None:
            return [], "timeout"
        if not search.frontier:
            break
    return [], "complete"


def describe_stuck(kind, scenario, play, name, cards, seq):
    side = replay(play, (name,), cards, seq)[name]
    if side.verdict != "legal":
        raise RuntimeError(f"scenario {scenario.name}: the way to a {kind} replays as {side.verdict}; "
                           "the compiled relation and the solver disagree")
    text = to_text(Play(f"<{scenario.name}>", ruleset=name, cards=list(play.cards), actions=side.specs))
    o = options(parse_text(text, f"<{scenario.name}>"), name, why=True)   # the solver confirms each refusal
    detail, rules = [], set()
    for x in o.cards + o.game:
        if x.allowed is False:
            ids = [r["rule"] for r in x.rules]
            detail.append(f"{x.what}: refused by {', '.join(ids)}")
            rules |= set(ids)
    if kind == "deadlock" and any(x.allowed for x in o.game):
        raise RuntimeError(f"scenario {scenario.name}: the solver allows a move in a deadlock the compiled "
                           "relation found")
    return Finding(kind, scenario.name, sorted(rules), detail, text)


# --- dead rules -------------------------------------------------------------------------------

def encoded(rel: StepRelation) -> set:
    """Rule IDs that have a term in the compiled relation (restriction, grant, update,
    definition or table row)."""
    out = set(rel.restrictions)
    names, seen = set(), set()
    todo = list(rel.solver.assertions())
    while todo:
        t = todo.pop()
        if t.get_id() in seen:
            continue
        seen.add(t.get_id())
        if z3.is_const(t) and t.sort() == z3.BoolSort():
            names.add(t.decl().name())
        todo.extend(t.children())
    return out | {rid for rid in rel.lits if f"rule:{rid}" in names}


def fixture_evidence(name, rids, deadline, progress=None):
    """rule ID -> one of the rule's own fixtures (fixtures/plays/rules/*/ID-*.play) whose verdict
    under `name` flips when the rule is removed."""
    root = Path(str(resources.files("ygo_timing.data").joinpath("plays")))
    plays = sorted(root.rglob("*.play"))
    out = {}
    for n, rid in enumerate(rids, start=1):
        if progress:
            progress(n)
        for p in [p for p in plays if p.name.startswith(rid + "-")]:
            if time.monotonic() > deadline:
                return out
            play = load(str(p))
            if (play.ruleset or "ocg") != name:
                continue
            base = check_play(play).verdict
            if check_play(play, without=frozenset([rid])).verdict != base:
                out[rid] = str(p.relative_to(root.parent))
                break
    return out


# --- source conflicts -------------------------------------------------------------------------

class VariantRun(Run):
    """A Run on a given relation (a reading of a source conflict) instead of the cached one."""

    def __init__(self, play, rel, cards, timeout_ms=20_000):
        super().__init__(play, rel.ruleset.name, cards, timeout_ms, DEFAULT_RLIMIT)
        self.rel = rel   # before any use: ctx, statics and the variables follow from it


def verdict_under(rel, text, cards):
    play = parse_text(text, "<conflict>")
    run = VariantRun(play, rel, cards)
    for a in play.actions:
        acts = run.steps_for(a)
        for act in (acts if acts is not None else run.resolve_steps(a)):
            r, detail = run.step(act, a.line, a.text)
            if r == "unsat":
                return f"illegal at line {a.line} ({', '.join(detail[0])})"
            if r != "sat":
                return "unknown"
    return "legal"


def _sized(name, play_text, cards):
    play = parse_text(play_text, "<conflict>")
    uni = Universe(play, cards)
    return rulesets.load(name), bucket(len(uni.specs)), bucket(len(uni.effects))


def reading_d2_1(text, cards):
    rs, n, m = _sized("ocg", text, cards)
    return StepRelation(dataclasses.replace(rs, flip_effect_needs_field=True), n, m)


def reading_d3_3(text, cards):
    rs, n, m = _sized("ocg", text, cards)
    rel = StepRelation(rs, n, m)
    ctx = rel.ctx
    strict = z3.Implies(z3.And(ctx.activating, ctx.win("ds_during_calc"), ctx.pre.chain_len > 0), z3.BoolVal(False))
    rel.restrictions["D3-3"].append(strict)
    rel.solver.add(z3.Implies(rel.rlits["D3-3"], strict))
    return rel


def reading_ch_5(text, cards, name="tcg"):
    rs, n, m = _sized(name, text, cards)
    rel = StepRelation(rs, n, m, without=frozenset({"CH-4"}))
    ctx, S = rel.ctx, rel.ctx.S
    lit = z3.Bool("reading:CH-4")   # not `rule:CH-4`: the relation without CH-4 holds that one false
    rel.lits["CH-4"] = lit

    def s1(e):   # S1 69: Continuous effects listed under Spell Speed 1
        return z3.If(S.ekind(e) == vocab.EK["continuous"], 1, speed_term(ctx, e))
    rel.solver.add(z3.Implies(lit, z3.And(S.speed(ctx.eff) == s1(ctx.eff), S.speed(ctx.top_eff) == s1(ctx.top_eff))))
    return rel


CONFLICTS = (
    {"note": "CH-5", "ruleset": "tcg",
     "readings": ("CH-4: a Continuous effect has no Spell Speed and is never activated (the tool)",
                  "S1 69: Continuous effects are Spell Speed 1"),
     "variant": reading_ch_5,
     "play": 'ruleset: tcg\nA monster "Dark Magician"\nB monster "Amazoness Swords Woman" as Amazoness\n'
             "enter battle phase\nnext battle_step\nattack \"Dark Magician\" -> Amazoness\n"
             "next t1_start\nnext t2_flip\nnext t3_before_calc\nnext t4_at_calc\npass A\n"
             "activate B Amazoness effect 1\n"},
    {"note": "D2-1", "ruleset": "ocg",
     "readings": ("S3 21: the Flip Effect activates even if the monster left the field (the tool)",
                  "S2 81: it does not activate if the monster is no longer on the field"),
     "variant": reading_d2_1,
     "play": 'ruleset: ocg\nA monster "Drillroid"\nB monster "Ryko, Lightsworn Hunter" as Ryko face-down defense\n'
             "enter battle phase\nnext battle_step\nattack Drillroid -> Ryko\nnext ds_start\nnext ds_before_calc\n"
             "activate A Drillroid\nresolve\nclaim location Ryko graveyard\nnext\nnext ds_after_calc\npass A\n"
             "activate B Ryko\n"},
    {"note": "D3-3", "ruleset": "ocg",
     "readings": ("one Chain during damage calculation, responses inside it allowed (the tool; S2 57, D3-1)",
                  "S0-OCG 188: cards cannot be activated in response to this Chain"),
     "variant": reading_d3_3,
     "play": 'ruleset: ocg\nA monster "Dark Magician"\nA set "Divine Wrath"\nA hand "Blue-Eyes White Dragon" as K\n'
             'B monster "Injection Fairy Lily" as Lily\n'
             "enter battle phase\nnext battle_step\nattack \"Dark Magician\" -> Lily\nnext ds_start\n"
             "next ds_before_calc\nnext ds_during_calc\npass A\nactivate B Lily\nchain A \"Divine Wrath\" cost K\n"},
)


def source_conflicts(cards):
    out = []
    for c in CONFLICTS:
        tool = check_play(parse_text(c["play"], f"<{c['note']} note>"))
        tool_v = tool.verdict + (f" ({', '.join(v['rule'] for v in tool.violations)})" if tool.violations else "")
        other = verdict_under(c["variant"](c["play"], cards), c["play"], cards)
        out.append({"note": c["note"], "ruleset": c["ruleset"], "readings": list(c["readings"]),
                    "verdicts": [tool_v, other], "disagree": tool.verdict != other.split(" ")[0],
                    "play": c["play"]})
    return out


# --- the command --------------------------------------------------------------------------------

def consistency(name: str, max_length: int = 8, timeout_s: float = 600, dead_rules: bool = False,
                scenarios=SCENARIOS, progress=None) -> Report:
    """`progress(done, total)`, if given, hears of each scenario searched (and with
    `dead_rules`, each rule tested)."""
    start = time.monotonic()
    deadline = start + timeout_s
    cards = catalogue_cards()
    sat = satisfiable(name, timeout_s)
    found, status = [], "complete"
    enc = encoded(relation(name, 4, 4))
    testable = [r for r in rulesets.load(name).rules if r in enc] if dead_rules else []
    total = len(scenarios) + len(testable)
    for n, sc in enumerate(scenarios, start=1):
        f, st = stuck_search(name, sc, max_length, deadline, cards)
        found += f
        if progress:
            progress(n, total)
        if st != "complete":
            status = st
            break
    dead = [r for r in rulesets.load(name).rules if r not in enc]
    alive, notes = {}, []
    if dead_rules:
        alive = fixture_evidence(name, testable, deadline,
                                 progress and (lambda k: progress(len(scenarios) + k, total)))
        missing = [r for r in rulesets.load(name).rules if r in enc and r not in alive]
        if missing:
            notes.append("rules with terms that none of their own fixtures flips under this set "
                         "(neither shown dead nor alive here): " + ", ".join(missing))
    else:
        notes.append("rules with terms were not tested for liveness (--dead-rules runs each against its "
                     "own fixtures; `python -m ygo_timing.checking.ablate` against all)")
    conflicts = source_conflicts(cards)
    return Report(name, max_length, sat, found, status, dead, alive, conflicts, time.monotonic() - start, notes)


def text(r: Report) -> str:
    out = [f"consistency of {r.ruleset} (contradictions searched up to {r.max_length} actions after each "
           f"scenario's opening)"]
    s = r.satisfiable
    if s.get("found"):
        out.append(f"satisfiable: a legal Battle Phase with an attack, damage calculation and the End Step, "
                   f"{s['length']} actions; check says {s['verdict']}")
        out += ["    " + ln for ln in s["play"].splitlines() if ln and not ln.startswith(("turn", "lp", "expect"))]
    else:
        out.append(f"satisfiable: NOT SHOWN ({s.get('verdict')}, bound {s.get('bound')})")
    out.append(f"contradictions ({r.contradictions_status}): {len(r.contradictions)}")
    for f in r.contradictions:
        out.append(f"  {f.kind} in scenario {f.scenario}; rules: {', '.join(f.rules)}")
        out += [f"    {d}" for d in f.detail]
        out += ["      | " + ln for ln in f.play.splitlines() if ln]
    out.append(f"dead rules (no term in the relation: removing them changes no verdict): {', '.join(r.dead) or 'none'}")
    out.append(f"alive rules (a fixture flips without them): {len(r.alive)}")
    out += [f"  note: {n}" for n in r.notes]
    out.append("source conflicts (rules.md notes), each reading on one play:")
    for c in r.conflicts:
        out.append(f"  {c['note']} note ({c['ruleset']}): {'the readings DISAGREE' if c['disagree'] else 'the readings agree'}")
        for reading, v in zip(c["readings"], c["verdicts"]):
            out.append(f"    {reading}: {v}")
        out += ["      | " + ln for ln in c["play"].splitlines()]
    out.append(f"time: {round(r.seconds, 1)} s")
    return "\n".join(out)

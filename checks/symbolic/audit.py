"""`cards audit`: where our rules and the engine's script flags disagree on activating a card.

For every imported card, every activated effect and every Battle Phase window of a rule set,
two answers are compared:

* ours -- the compiled step relation (model/step.py) is asked whether some state in that window
  lets the effect be activated, with the effect's catalogue facts fixed (the same facts `check`
  uses). Unsat: the rule IDs are each restriction that forbids it on its own (else a minimal
  set from the unsat core). Sat: the permissions it needs are the rule literals that, switched
  off, make it unsat.
* the engine's -- what ygopro-core's effect::is_activateable lets through, read off the
  script's declaration: the effect type, the event code (which window the event happens in),
  EFFECT_FLAG_DAMAGE_STEP / EFFECT_FLAG_DAMAGE_CAL (with the core's exemptions: Counter Traps,
  mandatory and FLIP effects, optional single-card triggers, battle event codes), Spell Speed 1
  (Main Phase only) and the "until damage calculation" helper conditions.

Both ignore the effect's own further conditions (its condition function on the engine side; on
ours, any state the solver can pick), so they answer the same question: can this effect be
activated in this window at all? Effects triggered by events the rule model does not simulate
(sent to the GY by a card effect, summoned, ...) and effects registered through procedures not
read are reported as not comparable, with counts, never as agreements.
Cards with identical facts share one set of solver queries.
"""
from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field

import z3
from ygo_timing.cards import catalogue
from ygo_timing.cards import luaconst as K
from ygo_timing.cards.importer import DS_ONLY, UNTIL_CALC
from ygo_timing.checking.facts import Universe, fact_terms, static_facts
from ygo_timing.inputs.play import CardSpec, Play
from ygo_timing.model import vocab
from ygo_timing.model.rules import RULES
from ygo_timing.model.state import A
from ygo_timing.model.step import relation

ET, E = K.ET, K.EVENT
WINDOWS = {
    "ocg": ("start_step", "battle_step", "attack_declared", "ds_start", "ds_before_calc",
            "ds_during_calc", "ds_after_calc", "ds_end", "end_step"),
    "tcg": ("start_step", "battle_step", "attack_declared", "t1_start", "t2_flip", "t3_before_calc",
            "t4_at_calc", "t5_battle_damage", "t6_effect_resolution", "t7_end", "end_step"),
}
# The engine's phase in each window: PHASE_DAMAGE before / after damage calculation, or
# PHASE_DAMAGE_CAL. Battle damage is dealt inside damage calculation, but what it triggers is
# activated once the phase is back to PHASE_DAMAGE, so sub-step 5 counts as after calculation.
PHASE = {"ds_start": "pre", "ds_before_calc": "pre", "ds_during_calc": "cal", "ds_after_calc": "post",
         "ds_end": "post", "t1_start": "pre", "t2_flip": "pre", "t3_before_calc": "pre",
         "t4_at_calc": "cal", "t5_battle_damage": "post", "t6_effect_resolution": "post", "t7_end": "post"}
EVENT_WINDOW = {
    "ocg": {E["EVENT_ATTACK_ANNOUNCE"]: "attack_declared", E["EVENT_BE_BATTLE_TARGET"]: "attack_declared",
            E["EVENT_BATTLE_START"]: "ds_start", E["EVENT_BATTLE_CONFIRM"]: "ds_before_calc",
            E["EVENT_PRE_DAMAGE_CALCULATE"]: "ds_during_calc", E["EVENT_DAMAGE_CALCULATING"]: "ds_during_calc",
            E["EVENT_PRE_BATTLE_DAMAGE"]: "ds_during_calc", E["EVENT_BATTLED"]: "ds_after_calc",
            E["EVENT_BATTLE_END"]: "ds_after_calc", E["EVENT_BATTLE_DAMAGE"]: "ds_after_calc",
            E["EVENT_FLIP"]: "ds_after_calc", E["EVENT_BATTLE_DESTROYING"]: "ds_end",
            E["EVENT_BATTLE_DESTROYED"]: "ds_end", E["EVENT_DAMAGE_STEP_END"]: "ds_end"},
    "tcg": {E["EVENT_ATTACK_ANNOUNCE"]: "attack_declared", E["EVENT_BE_BATTLE_TARGET"]: "attack_declared",
            E["EVENT_BATTLE_START"]: "t1_start", E["EVENT_BATTLE_CONFIRM"]: "t3_before_calc",
            E["EVENT_PRE_DAMAGE_CALCULATE"]: "t4_at_calc", E["EVENT_DAMAGE_CALCULATING"]: "t4_at_calc",
            E["EVENT_PRE_BATTLE_DAMAGE"]: "t4_at_calc", E["EVENT_BATTLED"]: "t6_effect_resolution",
            E["EVENT_BATTLE_END"]: "t6_effect_resolution", E["EVENT_BATTLE_DAMAGE"]: "t5_battle_damage",
            E["EVENT_FLIP"]: "t6_effect_resolution", E["EVENT_BATTLE_DESTROYING"]: "t7_end",
            E["EVENT_BATTLE_DESTROYED"]: "t7_end", E["EVENT_DAMAGE_STEP_END"]: "t7_end"},
}
for _rs in EVENT_WINDOW.values():
    _rs[E["EVENT_PHASE"] + K.PHASE["PHASE_BATTLE_START"]] = "start_step"
    _rs[E["EVENT_PHASE_START"] + K.PHASE["PHASE_BATTLE_START"]] = "start_step"
    _rs[E["EVENT_PHASE"] + K.PHASE["PHASE_BATTLE"]] = "end_step"
# Events that can happen in any window: a free Chain, a response to an activation or targeting
# (for effects activated in response; a Trigger Effect on them is not simulated by the rules).
ANY_WINDOW = {E["EVENT_FREE_CHAIN"], E["EVENT_CHAINING"], E["EVENT_BECOME_TARGET"]}
FLAG_DS, FLAG_CAL = K.DAMAGE_STEP_FLAG, K.DAMAGE_CAL_FLAG


@dataclass
class Answer:
    allowed: bool | None          # None: not comparable
    why: str
    lines: list = field(default_factory=list)   # "file:line: text" that decided it


def _line(d, name, path):
    s = d.settings.get(name)
    return f"{path}:{s.line}: Set{name}({s.text})" if s else None


def engine_answer(d, card_kind: str, tbits_counter: bool, window: str, ruleset: str, path: str) -> Answer:
    """What ygopro-core lets through for declaration `d` in `window` (see module doc)."""
    typ = d.get("Type")
    created = f"{path}:{d.line}: effect {d.var} created"
    if d.helper:
        return Answer(None, f"registered through {d.helper}; its declaration is not read", [f"{path}:{d.line}"])
    if typ is None:
        return Answer(None, "no constant SetType", [created])
    tline = _line(d, "Type", path)
    if typ & ET["ACTIVATE"] and card_kind.startswith("spell") and card_kind != "spell:quickplay":
        return Answer(False, "Spell Speed 1 card activation: Main Phase only", [tline, f"cards.cdb type {card_kind}"])
    if typ & ET["ACTIVATE"] and card_kind.startswith("monster"):
        return Answer(False, "Pendulum Scale activation (Spell Speed 1): Main Phase only",
                      [tline, f"cards.cdb type {card_kind}"])
    if typ & ET["IGNITION"]:
        return Answer(False, "Ignition Effect: Main Phase only", [tline])
    code = d.settings.get("Code")
    if typ & ET["FLIP"]:
        codev = E["EVENT_FLIP"]
    elif code is None:
        return Answer(None, "no SetCode", [tline])
    elif code.value is None:
        return Answer(None, f"event {code.text!r} is not a constant", [_line(d, "Code", path)])
    else:
        codev = code.value
    cline = _line(d, "Code", path) or tline
    responds = codev in ANY_WINDOW and not typ & (ET["TRIGGER_O"] | ET["TRIGGER_F"])
    if not responds:
        at = EVENT_WINDOW[ruleset].get(codev)
        if at is None:
            name = K.event_name(codev)
            return Answer(None, f"triggered by {name}, an event the rule model does not simulate", [cline])
        if at != window:
            return Answer(False, f"its event happens in {at}", [cline])
    phase = PHASE.get(window)
    exempt = (typ & ET["ACTIVATE"] and tbits_counter) or (not typ & ET["ACTIVATE"] and (
        typ & (ET["FLIP"] | ET["TRIGGER_F"]) or (typ & ET["TRIGGER_O"] and typ & ET["SINGLE"])))
    prop = d.settings.get("Property")
    if prop is not None and prop.value is None:
        return Answer(None, "SetProperty is not a constant", [_line(d, "Property", path)])
    flags = prop.value if prop is not None else 0
    pline = _line(d, "Property", path) or f"{tline} (no SetProperty)"
    if phase in ("pre", "post") and not exempt and not 1132 <= codev <= 1149 and not flags & FLAG_DS:
        return Answer(False, "no EFFECT_FLAG_DAMAGE_STEP", [pline])
    if phase == "cal" and not exempt and not 1134 <= codev <= 1136 and not flags & FLAG_CAL:
        return Answer(False, "no EFFECT_FLAG_DAMAGE_CAL", [pline])
    cond = d.settings.get("Condition")
    if cond is not None and phase != "pre" and DS_ONLY.search(d.cond_body):
        return Answer(False, "condition allows it only in the Damage Step before damage calculation",
                      [_line(d, "Condition", path)])
    if phase == "post" and cond is not None and UNTIL_CALC.search(d.cond_body):
        return Answer(False, "condition allows it only until damage calculation", [_line(d, "Condition", path)])
    why = []
    if phase in ("pre", "post", "cal"):
        why.append("exempt from the Damage Step flags" if exempt else
                   "battle event" if 1132 <= codev <= 1149 else "Damage Step flags set")
    return Answer(True, "; ".join(why) or "activatable", [x for x in (tline, cline, pline if phase else None) if x])


# --- our answer -----------------------------------------------------------------------------------
PERMISSION_RULES = {r.id for r in RULES if r.shape in ("permission", "table")}


class Ours:
    """Solver queries for one rule set, cached per (card kind, effect facts, window). Only the
    yes/no costs a query per window; the rule IDs are worked out for disagreements alone."""

    # every fact of an effect the relation reads (a condition's atoms, costs, the target and the
    # operations too: two effects that differ in any of them must not share an answer)
    FACT_FIELDS = ("kind", "from_", "mandatory", "atk_def", "negates", "trigger_class", "fusion_summon",
                   "timings", "condition", "atoms", "ruling_allowed", "no_damage_step", "costs",
                   "target_filter", "implied_target", "operations", "apply")

    def __init__(self, ruleset: str, timeout_ms: int = 10_000):
        self.ruleset = ruleset
        self.rel = relation(ruleset, 1, 1, nwatched=2)   # room for a mandatory trigger's atoms
        self.timeout_ms = timeout_ms
        self.cache, self.why_cache, self.facts_cache = {}, {}, {}
        self.queries = 0
        self.lits = list(self.rel.lits.values())
        self.rlits = {rid: self.rel.rlits[rid] for rid in self.rel.restrictions}

    def key(self, card: catalogue.Card, k: int):
        e = card.effects[k]
        return repr((card.kind, tuple(getattr(e, f) for f in self.FACT_FIELDS)))   # frozen dataclasses: a stable repr

    def facts(self, card, k, key):
        if key not in self.facts_cache:
            one = catalogue.Card(name=card.name, type=card.type, subtype=card.subtype, level=card.level,
                                 atk=card.atk, def_=card.def_, effects=[card.effects[k]])
            play = Play(path="<audit>", cards=[CardSpec("X", card.name, "A", "monster_zone", True, False,
                                                        None, None, 0)])
            ctx = self.rel.ctx
            facts = static_facts(Universe(play, {card.name: one}), play, ctx.neffects, ctx.nwatched)
            statics = [t for t, _ in fact_terms(ctx.S, facts)]
            self.facts_cache[key] = statics + [ctx.act.kind == A["activate"], ctx.act.eff == 0]
        return self.facts_cache[key]

    def solve(self, assumptions):
        s = self.rel.solver
        s.set("timeout", self.timeout_ms)
        self.queries += 1
        return s.check(*assumptions)

    def allowed(self, card, k, window) -> bool | None:
        """Whether some state in `window` lets the effect be activated (None: solver unknown)."""
        key = self.key(card, k)
        if (key, window) not in self.cache:
            facts = self.facts(card, k, key) + [self.rel.ctx.pre.window == vocab.W[window]]
            r = self.solve(self.lits + list(self.rlits.values()) + facts)
            self.cache[(key, window)] = True if r == z3.sat else False if r == z3.unsat else None
        return self.cache[(key, window)]

    def rules(self, card, k, window) -> list:
        """The rule IDs behind the answer: the restrictions that forbid the activation (a minimal
        set), or the permissions it cannot do without."""
        key = self.key(card, k)
        if (key, window) in self.why_cache:
            return self.why_cache[(key, window)]
        facts = self.facts(card, k, key) + [self.rel.ctx.pre.window == vocab.W[window]]
        rlits = list(self.rlits.values())
        if self.allowed(card, k, window):
            out = [rid for rid, lit in self.rel.lits.items() if rid in PERMISSION_RULES
                   and self.solve([z3.Not(lit)] + [x for x in self.lits if x is not lit] + rlits + facts) == z3.unsat]
        else:
            # every restriction that forbids it on its own (as `check` lists them); only when
            # none does alone, a minimal set of them together
            out = [rid for rid, lit in self.rlits.items() if self.solve(self.lits + [lit] + facts) == z3.unsat]
            if not out:
                self.solve(self.lits + rlits + facts)
                out = self.blame(facts)
        self.why_cache[(key, window)] = out
        return out

    def blame(self, facts):
        s = self.rel.solver
        core_ids = {c.get_id() for c in s.unsat_core()}
        core = [rid for rid, lit in self.rlits.items() if lit.get_id() in core_ids]
        k = 0
        while k < len(core):
            trial = core[:k] + core[k + 1:]
            if self.solve(self.lits + [self.rlits[r] for r in trial] + facts) == z3.unsat:
                core = trial
            else:
                k += 1
        return core


def ds1_clauses(card, e) -> list:
    """Which DS-1 clauses the facts meet (to read a Damage Step permission at a glance)."""
    out = []
    if card.kind == "trap:counter":
        out.append("a")
    if e.mandatory:
        out.append("b")
    if e.kind == "quick" and e.negates != "none":
        out.append("c")
    if e.atk_def == "direct":
        out.append("d")
    if e.kind in ("trigger", "flip") and not e.mandatory and not e.fusion_summon and (
            e.kind == "flip" or e.trigger_class in ("location", "flipped", "position")):
        out.append("e")
    if set(e.timings) & {"ds_start", "before_calc", "during_calc", "after_calc", "ds_end"}:
        out.append("f")
    return out


def ds_t1_clauses(card, e) -> list:
    """Which DS-T1 clauses the facts meet (S0-TCG 26-33)."""
    from ygo_timing.cards.importer import spell_speed
    out = []
    if card.kind == "trap:counter":
        out.append("1")
    if e.atk_def != "none" and spell_speed(card.kind, e.kind) >= 2:
        out.append("2")
    if e.kind in ("trigger", "flip") or set(e.timings) & {"ds_start", "before_calc", "during_calc", "after_calc", "ds_end"}:
        out.append("3")
    if e.kind == "quick" and e.negates != "none":
        out.append("4")
    return out


# --- the audit --------------------------------------------------------------------------------------
@dataclass
class Disagreement:
    card: str
    id: int
    effect: int
    window: str
    ours: bool
    engine: bool
    our_rules: list
    engine_why: str
    engine_lines: list
    unknown: list

    def to_dict(self):
        return dict(self.__dict__)


@dataclass
class AuditResult:
    ruleset: str
    cards: int = 0
    effects: int = 0
    compared: int = 0                       # (effect, window) pairs both answered
    agree: int = 0
    disagreements: list = field(default_factory=list)
    not_comparable: Counter = field(default_factory=Counter)   # reason -> (effect, window) pairs
    solver_unknown: int = 0
    vectors: int = 0
    queries: int = 0


# Properties the rules read: an effect with one of these unknown is judged "import incomplete".
RULE_READ = {"kind", "from", "mandatory", "atk_def", "negates_activation", "trigger_class", "fusion_summon",
             "timings", "condition", "no_damage_step", "cost", "target", "operations"}


def audit(imported, ruleset: str, progress=None) -> AuditResult:
    ours = Ours(ruleset)
    res = AuditResult(ruleset)
    bit = K.OT_OCG if ruleset == "ocg" else K.OT_TCG
    for n, rec in enumerate(imported.records):
        if progress and n % 100 == 0:
            progress(n, len(imported.records))
        if not rec.ot & bit or not rec.decls:
            continue
        card = catalogue.parse_card(rec.entry, _located(rec.entry), rec.script or "<import>", ())
        res.cards += 1
        path = rec.script or "?"
        counter = card.kind == "trap:counter"
        for k, d in enumerate(rec.decls):
            if d is None:
                continue   # a continuous effect: never activated
            res.effects += 1
            for w in WINDOWS[ruleset]:
                eng = engine_answer(d, card.kind, counter, w, ruleset, path)
                if eng.allowed is None:
                    res.not_comparable[eng.why] += 1
                    continue
                allowed = ours.allowed(card, k, w)
                if allowed is None:
                    res.solver_unknown += 1
                    continue
                res.compared += 1
                if allowed == eng.allowed:
                    res.agree += 1
                    continue
                rules = ours.rules(card, k, w)
                if allowed and PHASE.get(w):
                    for rid, clauses in (("DS-1", ds1_clauses(card, card.effects[k])),
                                         ("DS-T1", ds_t1_clauses(card, card.effects[k]))):
                        if clauses and rid in ours.rel.lits:
                            rules = rules + [f"{rid}({','.join(clauses)})"]
                res.disagreements.append(Disagreement(
                    card.name, rec.id, k + 1, w, allowed, eng.allowed, list(rules), eng.why,
                    [x for x in eng.lines if x], sorted(set(card.effects[k].unknown) & RULE_READ)))
    res.vectors = len({key for key, _ in ours.cache})
    res.queries = ours.queries
    return res


def _located(entry):
    from ygo_timing.inputs.jsonloc import Located
    return Located(entry, {})


# --- reports -------------------------------------------------------------------------------------
def _rule_labels(d):
    """Our rule IDs; when ours allows and no permission is needed, nothing in the rule set
    forbids the activation there, which is itself the finding."""
    return d.our_rules or (["(no rule forbids it)"] if d.ours else ["(no rule named)"])


def by_rule(res: AuditResult, settled: bool = False) -> Counter:
    c = Counter()
    for d in res.disagreements:
        if settled and d.unknown:
            continue
        for r in _rule_labels(d):
            c[r] += 1
    return c


def summary(res: AuditResult) -> dict:
    direction = Counter(("ours allows, engine forbids" if d.ours else "engine allows, ours forbids")
                        + (" (import incomplete)" if d.unknown else " (facts settled)") for d in res.disagreements)
    return {
        "ruleset": res.ruleset, "cards": res.cards, "effects": res.effects,
        "pairs_compared": res.compared, "agree": res.agree, "disagree": len(res.disagreements),
        "by_direction": dict(direction),
        "by_window": dict(Counter(d.window for d in res.disagreements).most_common()),
        "by_rule": dict(by_rule(res).most_common()),
        "by_rule_facts_settled": dict(by_rule(res, settled=True).most_common()),
        "by_engine_reason": dict(Counter(d.engine_why for d in res.disagreements).most_common()),
        "not_comparable": dict(res.not_comparable.most_common()),
        "solver_unknown": res.solver_unknown, "distinct_fact_vectors": res.vectors,
        "solver_queries": res.queries,
    }


def text_report(results, limit: int = 5) -> str:
    out = []
    for res in results:
        s = summary(res)
        out.append(f"== {res.ruleset.upper()}: {s['cards']} cards, {s['effects']} activated effects, "
                   f"{s['pairs_compared']} (effect, window) pairs compared: {s['agree']} agree, "
                   f"{s['disagree']} disagree")
        for k, v in s["by_direction"].items():
            out.append(f"   {v:6}  {k}")
        nc = sum(res.not_comparable.values())
        out.append(f"   not comparable: {nc} pairs" + (f"; solver unknown: {res.solver_unknown}" if res.solver_unknown else ""))
        for why, n in res.not_comparable.most_common(8):
            out.append(f"   {n:6}  {why}")
        out.append("-- by window")
        for w, n in s["by_window"].items():
            out.append(f"   {n:6}  {w}")
        out.append("-- by rule (ours; a disagreement may name several rules): all / with facts settled")
        groups = defaultdict(list)
        for d in res.disagreements:
            for r in _rule_labels(d):
                groups[r].append(d)
        settled = by_rule(res, settled=True)
        for rule, n in by_rule(res).most_common():
            out.append(f"   {n:6} / {settled.get(rule, 0):<6} {rule}")
            # examples: settled facts first, one per card
            seen, shown = set(), 0
            for d in sorted(groups[rule], key=lambda d: bool(d.unknown)):
                if d.id in seen or shown >= limit:
                    continue
                seen.add(d.id)
                shown += 1
                out.append(f"           {d.card} (id {d.id}) effect {d.effect} at {d.window}: ours "
                           f"{'allows' if d.ours else 'forbids'}, engine {'allows' if d.engine else 'forbids'}"
                           f" ({d.engine_why})" + (f"; import unknown: {', '.join(d.unknown)}" if d.unknown else ""))
                for ln in d.engine_lines[:3]:
                    out.append(f"             {ln}")
    return "\n".join(out)


def json_report(results) -> str:
    return json.dumps([{**summary(r), "disagreements": [d.to_dict() for d in r.disagreements]} for r in results],
                      indent=1, ensure_ascii=False)

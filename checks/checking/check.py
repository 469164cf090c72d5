"""Check a play against a rule set, one step at a time, with the compiled step relation.

Every step is a solver query: the state before and the action are fixed by
assumptions, with every rule's literal assumed. Sat: the step is legal and the
model gives the state after. Unsat: the step is illegal; each restriction is
then tested alone to list every rule it breaks, and the unsat core (minimised)
gives the facts behind it. Unknown (time or resource limit) is never legal.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

import z3
from ygo_timing.cards import catalogue
from ygo_timing.checking.deadline import DEFAULT_DEADLINE_S, Deadline, DeadlineExceeded
from ygo_timing.errors import internal
from ygo_timing.inputs import jsonloc
from ygo_timing.inputs.play import ActionSpec, Play, PlayError
from ygo_timing.model import compiled, vocab
from ygo_timing.model.rulebook import rule_info
from ygo_timing.model.state import ACTION_FIELDS, CL, NONE, A, layout
from ygo_timing.model.step import bucket, relation

DEFAULT_TIMEOUT_MS = 20_000
TIMING_WORDS = {
    "start_step": "at the start of the Battle Phase", "attack_declared": "when an attack is declared",
    "ds_start": "at the start of the Damage Step", "before_calc": "before damage calculation",
    "during_calc": "during damage calculation", "after_calc": "after damage calculation",
    "ds_end": "at the end of the Damage Step", "end_step": "at the end of the Battle Phase",
}
DEFAULT_RLIMIT = 50_000_000


@dataclass
class Verdict:
    path: str
    ruleset: str
    verdict: str                      # legal | illegal | error | unknown
    first_illegal: dict | None = None  # {index, line, action}
    violations: list = field(default_factory=list)  # [{rule, statement, sources}]
    facts: list = field(default_factory=list)
    message: str | None = None
    expect: str | None = None
    expect_rules: list = field(default_factory=list)
    steps: int = 0
    record: int | None = None         # the line of a JSON Lines record (check --jsonl)

    def to_dict(self):
        d = {"path": self.path, "ruleset": self.ruleset, "verdict": self.verdict}
        if self.record is not None:
            d["record"] = self.record
        if self.verdict == "illegal":
            d.update(first_illegal=self.first_illegal, violations=self.violations, facts=self.facts)
        if self.message:
            d["message"] = self.message
        if self.expect:
            d["expect"] = self.expect
            d["matches_expect"] = self.matches_expect()
        return d

    def matches_expect(self) -> bool:
        if self.expect is None:
            return True
        if self.verdict != self.expect:
            return False
        found = {v["rule"] for v in self.violations}
        return set(self.expect_rules) <= found


class Universe:
    """The play's cards as solver indexes, and the facts about them."""

    def __init__(self, play: Play, cards: dict):
        self.play = play
        self.specs = play.cards
        self.index = {c.label: i for i, c in enumerate(play.cards)}
        self.cards = []
        for spec in play.cards:
            card = cards.get(spec.name)
            if card is None:
                raise PlayError(play.path, spec.line, f"unknown card {spec.name!r}: not in the catalogue "
                                                      "(add it with --cards FILE or a `card:` line)")
            self.cards.append(card)
        self.effects = []   # (card index, effect number 1-based, Effect)
        self.eff_id = {}
        for i, card in enumerate(self.cards):
            for k, e in enumerate(card.effects, start=1):
                self.eff_id[(i, k)] = len(self.effects)
                self.effects.append((i, k, e))
        if len(self.effects) > vocab.MAX_PLAY_EFFECTS:   # keeps building the relation within a deadline
            raise PlayError(play.path, None, f"the play's cards have {len(self.effects)} activatable effects; "
                                             f"a play may have at most {vocab.MAX_PLAY_EFFECTS}")
        archetypes = sorted({c.archetype for c in self.cards if c.archetype})
        self.archetype_id = {a: n + 1 for n, a in enumerate(archetypes)}

    def card(self, label, line):
        if label is None:
            return NONE
        if label not in self.index:
            raise PlayError(self.play.path, line, f"no card labelled {label!r} in the set-up")
        return self.index[label]

    def effect(self, label, number, line):
        i = self.card(label, line)
        if (i, number) not in self.eff_id:
            n = len(self.cards[i].effects)
            raise PlayError(self.play.path, line, f"{self.specs[i].label!r} has {n} activatable effect(s) in the "
                                                  f"catalogue; effect {number} does not exist")
        return self.eff_id[(i, number)]

    def label(self, i):
        return self.specs[i].label if 0 <= i < len(self.specs) else "(none)"


@dataclass(frozen=True)
class Fact:
    """A fact that holds for the whole play: static function `fn` at `arg` is `value`."""
    fn: str               # the z3 name of a Statics function (or constant, with arg None)
    arg: int | None
    value: int | bool
    text: str             # how an explanation shows it ("" for bookkeeping facts)


def static_facts(uni: Universe, play: Play, neffects: int) -> list[Fact]:
    """Every fact that holds for the whole play; `neffects` is the relation's effect slots."""
    out = [Fact("turn", None, play.turn, f"turn {play.turn} (line {play.line_of.get('turn', '-')})"),
           Fact("turn_player", None, vocab.PLAYERS.index(play.turn_player),
                f"turn player {play.turn_player} (line {play.line_of.get('turn_player', '-')})")]
    for i, (spec, card) in enumerate(zip(uni.specs, uni.cards)):
        n = spec.label
        cm = card.calc_modifier or {}
        out += [Fact(fn, i, value, text) for fn, value, text in (
            ("controller", vocab.PLAYERS.index(spec.player), f"{n}: controlled by {spec.player} (line {spec.line})"),
            ("card_kind", vocab.K[card.kind], f"{n}: {card.subtype} {card.type} (catalogue)"),
            ("level", card.level or 0, f"{n}: Level {card.level} (catalogue)"),
            ("original_atk", card.atk or 0, f"{n}: original ATK {card.atk} (catalogue)"),
            ("must_attack", card.must_attack, f"{n}: {'must' if card.must_attack else 'need not'} attack (catalogue)"),
            ("calc_modifier_amount", cm.get("amount", 0), f"{n}: damage-calculation ATK bonus {cm.get('amount', 0)} (catalogue)"),
            ("calc_modifier_to_attacker", cm.get("applies_to", "attacker") == "attacker", f"{n}: bonus applies to the {cm.get('applies_to', 'attacker')} (catalogue)"),
            ("calc_modifier_when", vocab.CALC_MODIFIER_WHEN.index(cm.get("when", "always")), f"{n}: bonus applies {cm.get('when', 'always')} (catalogue)"),
            ("battle_damage_modifier", vocab.BATTLE_DAMAGE_MODIFIERS.index(card.battle_damage_modifier), f"{n}: battle damage modifier {card.battle_damage_modifier} (catalogue)"),
            ("archetype", uni.archetype_id.get(card.archetype, 0), f"{n}: archetype {card.archetype or 'none'} (catalogue)"),
            ("extra_attacks", card.extra_attacks + sum(1 for e in spec.equip if e == "Tyrant Wing"), f"{n}: extra attacks (catalogue / equip, line {spec.line})"),
            ("attack_restriction_tyrant_wing", "Tyrant Wing" in spec.equip or card.attack_restriction == "tyrant_wing", f"{n}: \"Tyrant Wing\" restriction (line {spec.line})"),
        )]
    for e, (i, k, eff) in enumerate(uni.effects):
        n = uni.specs[i].label + (f" effect {k}" if len(uni.cards[i].effects) > 1 else "")
        out += [Fact(fn, e, value, text) for fn, value, text in (
            ("effect_card", i, ""),
            ("effect_kind", vocab.EK[eff.kind], f"{n}: {eff.kind} effect (catalogue)"),
            ("from_hand", eff.from_ == "hand", f"{n}: activated from the {eff.from_} (catalogue)"),
            ("from_graveyard", eff.from_ == "graveyard", f"{n}: activated from the {eff.from_} (catalogue)"),
            ("mandatory", eff.mandatory, f"{n}: {'mandatory' if eff.mandatory else 'optional'} (catalogue)"),
            ("atk_def", vocab.AD[eff.atk_def], f"{n}: " + ({"none": "does not change ATK/DEF", "direct": "changes ATK/DEF directly", "indirect": "changes ATK/DEF indirectly", "maybe": "may or may not change ATK/DEF"}[eff.atk_def]) + " (catalogue)"),
            ("negates", vocab.NG[eff.negates], f"{n}: " + ("negates no activation" if eff.negates == "none" else f"negates the activation of: {eff.negates}") + " (catalogue)"),
            ("trigger_class", vocab.TC[eff.trigger_class], f"{n}: trigger class {eff.trigger_class} (catalogue)"),
            ("fusion_summon", eff.fusion_summon, f"{n}: {'is' if eff.fusion_summon else 'is not'} a Fusion Summon effect (catalogue)"),
            ("condition", vocab.CO[eff.condition], f"{n}: condition {eff.condition} (catalogue)"),
            ("ruling_allowed", eff.ruling_allowed, f"{n}: {'allowed' if eff.ruling_allowed else 'not allowed'} in the Damage Step by a ruling (catalogue)"),
            ("no_damage_step", eff.no_damage_step, f"{n}: {'cannot' if eff.no_damage_step else 'does not say it cannot'} be activated during the Damage Step (catalogue)"),
            ("resolution", vocab.RS[eff.resolution], f"{n}: resolves as {eff.resolution} (catalogue)"),
            ("amount", eff.amount, f"{n}: amount {eff.amount} (catalogue)"),
            ("resolution_target", vocab.TARGETS.index(eff.target), f"{n}: applies to {eff.target} (catalogue)"),
        )]
        for t in vocab.TIMINGS:
            named = t in eff.timings
            out.append(Fact(f"names_{t}", e, named, f"{n}: {'names' if named else 'names no'} \"{TIMING_WORDS[t]}\" timing (catalogue)"))
    # the relation has room for more effects than the play uses: the spare ones never trigger
    for e in range(len(uni.effects), neffects):
        out += [Fact("effect_kind", e, vocab.EK["continuous"], ""), Fact("effect_card", e, NONE, "")]
    return out


def fact_terms(S, facts: list[Fact]):
    """(z3 term, text) for each fact, over the Statics record `S`."""
    fns = statics_by_name(S)
    return [((fns[f.fn] if f.arg is None else fns[f.fn](f.arg)) == f.value, f.text) for f in facts]


def statics_by_name(S):
    out = {}
    for v in vars(S).values():
        for f in (v.values() if isinstance(v, dict) else [v]):
            out[f.name() if isinstance(f, z3.FuncDeclRef) else f.decl().name()] = f
    return out


def fact_tables(facts: list[Fact]):
    """The facts as the compiled relation reads them: per function {arg: value}, and constants."""
    tables, consts = {}, {}
    for f in facts:
        if f.arg is None:
            consts[f.fn] = f.value
        else:
            tables.setdefault(f.fn, {})[f.arg] = f.value
    return tables, consts


def initial_state(layout, uni: Universe, play: Play) -> dict:
    """Concrete values of every state variable before the first action, by name."""
    tp = vocab.PLAYERS.index(play.turn_player)
    v = {name: False if is_bool else 0 for name, is_bool in layout}
    v.update(window=vocab.W["main1"], prio=tp, attacker=NONE, target=NONE)
    for k in range(vocab.MAX_CHAIN):
        v[f"link_eff[{k}]"] = 0
        v[f"link_target[{k}]"] = NONE
    v["lp[0]"], v["lp[1]"] = play.lp["A"], play.lp["B"]
    for i, (spec, card) in enumerate(zip(uni.specs, uni.cards)):
        v[f"loc[{i}]"] = vocab.L[spec.zone]
        v[f"faceup[{i}]"] = spec.face_up
        v[f"defpos[{i}]"] = spec.defense
        v[f"atk[{i}]"] = spec.atk if spec.atk is not None else (card.atk or 0)
        v[f"def_[{i}]"] = spec.def_ if spec.def_ is not None else (card.def_ or 0)
    return v


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


def py_value(expr):
    """A z3 Boolean or integer value as Python's."""
    if z3.is_true(expr):
        return True
    if z3.is_false(expr):
        return False
    return expr.as_long()


class Run:
    """One play being checked."""

    def __init__(self, play: Play, ruleset: str, cards: dict, timeout_ms: int, rlimit: int,
                 without: frozenset = frozenset(), deadline: Deadline | None = None):
        self.play, self.ruleset, self.without = play, ruleset, without
        self.deadline = deadline or Deadline(None)   # checked before every step and query
        self.phase, self.current_line = "checking", None
        self.uni = Universe(play, cards)
        self.ncards, self.neffects = bucket(max(1, len(self.uni.specs))), bucket(max(1, len(self.uni.effects)))
        self.layout = layout(self.ncards, self.neffects)
        self.names = [name for name, _ in self.layout]
        self.facts = static_facts(self.uni, play, self.neffects)
        self.index = {name: k for k, name in enumerate(self.names)}
        self.state = initial_state(self.layout, self.uni, play)
        self.line_of = {name: ("set-up", None) for name in self.names}
        for i, spec in enumerate(self.uni.specs):
            for name in self.names:
                if name.endswith(f"[{i}]") and not name.startswith(("link", "trig", "bd", "lp")):
                    self.line_of[name] = ("set-up", spec.line)
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
        rel = relation(self.ruleset, self.ncards, self.neffects, self.without)
        self.deadline.check("building the step relation")
        return rel

    @cached_property
    def ctx(self):
        return self.rel.ctx

    @cached_property
    def statics(self):
        return fact_terms(self.ctx.S, self.facts)

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
        ev = compiled.evaluator(self.ruleset, self.ncards, self.neffects, self.without)
        self.deadline.check("compiling the step relation")
        return ev

    @cached_property
    def prepared(self):
        return self.evaluator.prepare(*fact_tables(self.facts))

    # --- expanding the play's actions into steps of the relation ------------------------------
    def steps_for(self, a: ActionSpec):
        """Concrete actions for one line of the play (a `resolve` may need several)."""
        u, line = self.uni, a.line
        base = dict(kind=A.get(a.kind, 0), player=NONE, eff=0, card=NONE, target=NONE, direct=False,
                    window=NONE, link=0, named=NONE, other=NONE, claim=0, value=0)
        player = vocab.PLAYERS.index(a.player) if a.player else NONE
        if a.kind == "resolve":
            return None  # expanded lazily (depends on the state reached)
        d = dict(base, player=player)
        if a.kind == "attack":
            d.update(card=u.card(a.card, line), target=u.card(a.target, line), direct=a.direct,
                     player=vocab.PLAYERS.index(self.play.turn_player))
        elif a.kind == "activate":
            d.update(eff=u.effect(a.card, a.effect, line), target=u.card(a.target, line), link=a.link)
        elif a.kind == "retarget":
            d.update(target=u.card(a.target, line), direct=a.direct)
        elif a.kind == "replace":
            d.update(card=u.card(a.card, line), other=u.card(a.other, line))
        elif a.kind == "next":
            d.update(window=vocab.W[a.window] if a.window else NONE)
        elif a.kind == "claim":
            d.update(claim=CL[a.claim], card=u.card(a.card, line), player=player, value=self._claim_value(a))
        return [d]

    def _claim_value(self, a):
        if a.claim in ("lp", "atk"):
            return int(a.value)
        if a.claim == "location":
            return vocab.L[a.value]
        if a.claim == "window":
            return vocab.W[a.window or a.value]
        if a.claim == "calc":
            return {"pending": 0, "done": 1, "skipped": 2}[a.value]
        return 1 if a.value else 0

    def resolve_steps(self, a: ActionSpec):
        """`resolve`: the players pass as needed, then links resolve (all, or the one named)."""
        base = dict(player=NONE, eff=0, card=NONE, target=NONE, direct=False, window=NONE, link=0,
                    named=NONE, other=NONE, claim=0, value=0)
        if not self.get("resolving") and self.get("chain_len") > 0:
            p = self.get("prio")
            yield dict(base, kind=A["pass"], player=p)
            if not self.get("resolving"):
                yield dict(base, kind=A["pass"], player=self.get("prio"))
        count = 1 if a.card else max(1, self.get("chain_len"))
        for _ in range(count):
            named = NONE
            if a.card:
                i = self.uni.card(a.card, a.line)
                top = self.get(f"link_eff[{max(0, self.get('chain_len') - 1)}]")
                own = [e for e, (c, _, _) in enumerate(self.uni.effects) if c == i]
                named = top if (self.get("chain_len") and self.uni.effects[top][0] == i) else (own[0] if own else NONE)
            yield dict(base, kind=A["resolve_link"], named=named)

    # --- one step -------------------------------------------------------------------------------
    def assumptions(self, act):
        pre = [t for t, _ in self.statics] + [self.equals(self.pre_vars[n], v) for n, v in self.state.items()]
        acts = [self.equals(self.act_vars[n], v) for n, v in act.items()]
        return pre, acts

    def equals(self, var, value):
        """var == value, built once per relation (most of a state is the same step after step)."""
        key = (var.get_id(), value)
        term = self.rel.equalities.get(key)
        if term is None:
            term = self.rel.equalities[key] = var == value
        return term

    def solve(self, extra):
        where = f"{self.phase} line {self.current_line}"
        self.deadline.check(where)
        s = self.rel.solver
        s.set("timeout", self.deadline.clamp_ms(self.timeout_ms))
        s.set("rlimit", self.rlimit)
        # Solver.check(*terms) re-casts every assumption, which costs more than the check
        # itself with ~450 of them; they are Boolean terms already
        terms = (z3.Ast * len(extra))(*(t.as_ast() for t in extra))
        result = z3.CheckSatResult(z3.Z3_solver_check_assumptions(s.ctx.ref(), s.solver, len(extra), terms))
        if result == z3.unknown:   # the query's time limit may have been the deadline's
            self.deadline.check(where)
        return result

    def guard(self, act, line):
        if act["kind"] == A["activate"] and self.get("chain_len") >= vocab.MAX_CHAIN:
            raise PlayError(self.play.path, line, f"a Chain of more than {vocab.MAX_CHAIN} links is beyond "
                                                  "what the tool models")

    def eval_step(self, act, line, text=""):
        """One step by the compiled relation: ("sat", None), or ("unsat", the rule IDs it breaks)
        (a candidate the solver then confirms); raises Undetermined when it cannot decide."""
        self.guard(act, line)
        self.deadline.check(f"checking line {line}")
        broken, post = self.evaluator.step(self.vals, [act[f] for f in ACTION_FIELDS], self.prepared)
        self.steps += 1
        if broken:
            return "unsat", list(broken)
        self.vals = post
        return "sat", None

    def step(self, act, line, text=""):
        """One step by the solver: ("sat", None), ("unsat", (broken, facts)) or ("unknown", why)."""
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
        if result == z3.unsat:
            return "unsat", self.explain(pre, acts)
        return "unknown", self.rel.solver.reason_unknown()

    def cause(self, model, name):
        """The rule whose update set this variable in the step just taken."""
        for rid, when in self.rel.causes.get(name, []):
            if z3.is_true(model.eval(when, model_completion=True)):
                return rid
        return None

    def explain(self, pre, acts):
        """Every restriction the step breaks, and a minimal set of facts behind it."""
        self.phase = "explaining"
        rel = self.rel
        lits = list(rel.lits.values())
        broken = []
        for rid, rlit in rel.rlits.items():
            if rid in rel.restrictions and self.solve(lits + [rlit] + pre + acts) == z3.unsat:
                broken.append(rid)
        if not broken:   # only rules together fail: a minimal set of them
            broken = [str(r).split(":", 1)[1] for r in
                      self.minimise(lits + pre + acts, [rel.rlits[r] for r in rel.restrictions])]
        statics = {t.get_id(): text for t, text in self.statics}
        facts = pre + acts
        core = []
        for rid in broken:   # the facts behind each broken rule, minimised, in order
            for t in self.minimise(lits + [rel.rlits[rid]], facts):
                if t.get_id() not in {c.get_id() for c in core}:
                    core.append(t)
        out = []
        action_ids = {t.get_id() for t in acts}
        if any(t.get_id() in action_ids for t in core):
            out.append(f"action (line {self.current_line}): {self.current_text.strip()}")
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
        ctx, rel = self.ctx, self.rel
        eff = self.current_act.get("eff")
        if self.current_act.get("kind") != A["activate"] or eff is None:
            return ""
        lits = list(rel.lits.values())
        statics = [t for t, _ in self.statics]
        gate = ctx.grant("timing")
        timed = [w for w in vocab.WINDOWS
                 if self.solve(lits + statics + [ctx.act.eff == eff, ctx.act.kind == A["activate"],
                                                 ctx.pre.window == vocab.W[w], z3.Not(gate)]) == z3.unsat]
        if not timed:
            return ""
        c, k, _ = self.uni.effects[eff]
        return (f"{self.uni.label(c)} effect {k}: by its timing, {self.ruleset} opens these windows "
                f"for it: {', '.join(timed)}")

    def minimise(self, fixed, facts):
        """A minimal subset of `facts` that `fixed` makes unsat: the one QuickXplain prefers in the
        order of `facts`. It depends only on which subsets are unsat, never on an unsat core,
        which depends on what the shared solver was asked before (other plays, other
        processes): the same play gets the same facts in any batch, with any --jobs."""
        if self.solve(fixed + facts) != z3.unsat:
            return []

        def split(base, changed, candidates):
            if changed and self.solve(base) == z3.unsat:
                return []
            if len(candidates) == 1:
                return list(candidates)
            half = len(candidates) // 2
            later = split(base + candidates[:half], True, candidates[half:])
            return split(base + later, bool(later), candidates[:half]) + later
        return split(fixed, False, facts)

    def describe(self, term):
        """A fact about the state, in words, with the line it comes from."""
        lhs, rhs = term.arg(0), term.arg(1)
        name = str(lhs)
        value = py_value(rhs)
        field = name[4:]   # pre_<field>: the action itself is reported as one line
        where = self.line_of.get(self._state_name(field), ("set-up", None))
        src = f"line {where[1]}" if where[1] else "initial state"
        if where[0] == "set-up" and where[1]:
            src = f"set-up line {where[1]}"
        if len(where) > 2 and where[2]:
            src += f", by {where[2]}"
        if field.endswith("_trig"):
            c, k, _ = self.uni.effects[int(field[1:-5])]
            return f"{self.uni.label(c)} effect {k}: " + ("a trigger is pending" if value else
                                                          "no trigger pending now") + f" ({src})"
        return f"{self.render_state(field)}: {self.render(field, value)} ({src})"

    def _state_name(self, field):
        for name in self.names:
            if self.pre_vars[name].decl().name() == "pre_" + field:
                return name
        return field

    def render_state(self, field):
        if field.startswith("c") and "_" in field and field[1:field.index("_")].isdigit():
            i = int(field[1:field.index("_")])
            return f"{self.uni.label(i)} {field[field.index('_') + 1:]}"
        if field.startswith("e") and "_" in field and field[1:field.index("_")].isdigit():
            e = int(field[1:field.index("_")])
            c, k, _ = self.uni.effects[e] if e < len(self.uni.effects) else (NONE, 0, None)
            return f"{self.uni.label(c)} effect {k} {field[field.index('_') + 1:]}"
        return field.replace("_", " ")

    def render(self, field, value):
        if field.endswith("window"):
            return vocab.WINDOW_TITLES.get(vocab.WINDOWS[value], value) if 0 <= value < len(vocab.WINDOWS) else "(not said)"
        if field.endswith("loc"):
            return vocab.LOCATIONS[value].replace("_", " ")
        if field in ("prio", "player") or field.endswith("player"):
            return vocab.PLAYERS[value] if value in (0, 1) else "(none)"
        if field in ("attacker", "target", "card", "other") or field.endswith("target"):
            return self.uni.label(value)
        if field == "eff" or field.endswith("_eff"):
            if 0 <= value < len(self.uni.effects):
                c, k, _ = self.uni.effects[value]
                return f"{self.uni.label(c)} effect {k}"
        if field == "calc":
            return ("pending", "done", "skipped")[value]
        return str(value)


def check_play(play: Play, ruleset: str | None = None, cards_files=(), timeout_ms=DEFAULT_TIMEOUT_MS,
               rlimit=DEFAULT_RLIMIT, without: frozenset = frozenset(), verify: bool = False,
               deadline_s: float | None = DEFAULT_DEADLINE_S) -> Verdict:
    """The verdict on one play. `without` removes rules (to test that each one matters);
    `verify` replays a legal play through the solver too (illegal ones always are); past
    `deadline_s` seconds for the whole play (None: no deadline) the verdict is unknown."""
    deadline = Deadline(deadline_s)
    from ygo_timing.cards.unsettled import (
        demote,  # imported cards with unknown properties never get a verdict
    )
    try:
        return demote(_check(play, ruleset, cards_files, timeout_ms, rlimit, without, verify, deadline),
                      play, cards_files)
    except DeadlineExceeded as e:
        return Verdict(play.path, ruleset or play.ruleset or "ocg", "unknown",
                       message=f"{play.path}: {e}; no verdict -- raise --deadline")
    except z3.Z3Exception as e:   # e.g. a resource limit hit while building terms
        return Verdict(play.path, ruleset or play.ruleset or "ocg", "unknown",
                       message=f"{play.path}: the solver gave up ({e}); no verdict")
    except Exception as e:  # a bug must not print a traceback, nor pass for "legal"
        return Verdict(play.path, ruleset or play.ruleset or "ocg", "error", message=internal(play.path, e))


@dataclass
class Outcome:
    """What walking a play with one stepper found."""
    kind: str                 # legal | illegal | unknown | error
    index: int = 0            # the action (1-based) that is illegal / undecided / wrong
    action: ActionSpec | None = None
    detail: object = None     # illegal: broken IDs (compiled) or (broken, facts) (solver); else a message
    steps: int = 0


def walk(run: Run, stepper) -> Outcome:
    """Take the play's actions one step at a time with `stepper` (Run.eval_step or Run.step)."""
    for index, a in enumerate(run.play.actions, start=1):
        try:
            acts = run.steps_for(a)
            for act in (acts if acts is not None else run.resolve_steps(a)):
                result, detail = stepper(act, a.line, a.text)
                if result != "sat":
                    kind = "illegal" if result == "unsat" else "unknown"
                    return Outcome(kind, index, a, detail, run.steps)
        except PlayError as e:
            return Outcome("error", index, a, str(e), run.steps)
    return Outcome("legal", steps=run.steps)


def play_cards(play: Play, cards_files=()) -> dict:
    """The catalogue a play is checked with: built-in, then --cards files, then its `card:` lines."""
    inline = []
    for i, c in enumerate(play.custom_cards):
        lines = {k[2:]: v for k, v in play.line_of.items()
                 if isinstance(k, tuple) and k[:2] == ("custom_cards", i)}
        inline.append(catalogue.parse_card(c, jsonloc.Located(c, lines), play.path, ()))
    return catalogue.catalogue(cards_files, inline)


def _check(play, ruleset, cards_files, timeout_ms, rlimit, without, verify, deadline=None):
    name = ruleset or play.ruleset or "ocg"
    v = Verdict(play.path, name, "legal", expect=play.expect, expect_rules=list(play.expect_rules))
    try:
        cards = play_cards(play, cards_files)
        run = Run(play, name, cards, timeout_ms, rlimit, without, deadline)
    except (PlayError, catalogue.CatalogueError) as e:
        v.verdict, v.message = "error", str(e)
        return v
    fast = None
    if run.evaluator is not None:
        try:
            fast = walk(run, run.eval_step)
        except compiled.Undetermined:
            fast = None   # the solver decides this play alone
        if fast is not None and fast.kind in ("legal", "error") and not verify:
            return _fill(v, fast)
    # an illegal step (or a verified play) is replayed from the start by the solver, which
    # confirms it independently of the compiled code and explains it
    slow = Run(play, name, cards, timeout_ms, rlimit, without, deadline)
    outcome = walk(slow, slow.step)
    if fast is not None and not _agree(fast, outcome):
        v.verdict = "error"
        v.message = (f"{play.path}: internal error, please report: the compiled relation and the solver "
                     f"disagree ({_summary(fast)} vs {_summary(outcome)})")
        return v
    return _fill(v, outcome, f" within its limits per query ({timeout_ms} ms, rlimit {rlimit})")


def _agree(fast: Outcome, slow: Outcome) -> bool:
    if slow.kind == "unknown":
        return True   # nothing to compare; the verdict says unknown
    if (fast.kind, fast.index) != (slow.kind, slow.index):
        return False
    if fast.kind != "illegal" or any(r.startswith("(absent") for r in fast.detail):
        return True
    return set(fast.detail) == set(slow.detail[0])


def _summary(o: Outcome) -> str:
    if o.kind == "legal":
        return "legal"
    broken = o.detail if o.kind == "illegal" and isinstance(o.detail, list) else \
        o.detail[0] if o.kind == "illegal" else []
    return f"{o.kind} at line {o.action.line}" + (f" by {', '.join(broken)}" if broken else "")


def _fill(v: Verdict, o: Outcome, limits: str = "") -> Verdict:
    v.steps = o.steps
    if o.kind == "legal":
        return v
    v.verdict = o.kind
    if o.kind == "error":
        v.message = o.detail
    elif o.kind == "unknown":
        v.message = (f"{v.path}:{o.action.line}: the solver answered unknown ({o.detail}){limits}; no verdict"
                     + (" -- raise --timeout or --rlimit" if limits else ""))
    else:
        broken, facts = o.detail
        info = rule_info()
        v.first_illegal = {"index": o.index, "line": o.action.line, "action": o.action.text}
        v.violations = [info[r] for r in broken]
        v.facts = facts
    return v

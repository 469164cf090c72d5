"""The step relation unrolled over several steps, for questions about sequences of actions.

A compiled `StepRelation` is one solver over the variables of one step (`pre_*`, `act_*`,
`post_*`) with rule literals. Here its assertions are copied per step with `z3.substitute`:
pre -> s_k, act -> a_k, post -> s_{k+1}, every rule literal -> True. The static facts are
uninterpreted functions shared by all steps, so one set-up's facts serve the whole sequence.
No rule is restated: every term comes from the relation `check` uses.
"""
from __future__ import annotations

from dataclasses import dataclass

import z3
from ygo_timing.checking.facts import py_value
from ygo_timing.model import vocab
from ygo_timing.model.compiled import literal_values
from ygo_timing.model.state import CL, NONE, A

# Actions the searches try. `next` closes a window (the same as two passes with an empty
# Chain, which the searches therefore leave out, except at the attack declaration, where two
# passes lead to the Battle Step's open state and `next` past it); a `next` that names a window, and claims of
# a window, are left out because window names differ between rule sets.
SEARCH_KINDS = ("enter_bp", "skip_bp", "attack", "activate", "pass", "resolve_link", "next",
                "end_bp", "retarget", "stop_attack", "replace", "claim")
SEARCH_CLAIMS = ("lp", "destroyed_by_battle", "location", "atk", "face_up")
MAX_VALUE = 100_000


@dataclass
class Templates:
    """One relation's terms, split so that a step can be asked legal or illegal."""
    restrictions: dict      # rule ID -> BoolRef (all of its parts)
    side: list              # definitions and absent-rule defaults (always asserted)
    transition: list        # post == If-chain equations
    grants: dict            # gate -> {rule ID: BoolRef}


def inline(rel, statics):
    """A rewriter that puts a set-up's static facts into a term: each uninterpreted function
    becomes an If-chain over the facts (other arguments share one free value per function),
    the Spell Speed its CH-4 definition, every rule literal True. The relation's terms then
    fold to what matters for these cards, which keeps unrolled questions small."""
    from ygo_timing.model.rules.chain import speed_term
    S = rel.ctx.S
    consts, tables = [], {}
    for t in statics:
        lhs, rhs = t.arg(0), t.arg(1)
        if lhs.num_args() == 0:
            consts.append((lhs, rhs))
        else:
            tables.setdefault(lhs.decl(), {})[lhs.arg(0).as_long()] = rhs
    funs = []
    for f, rows in tables.items():
        x = z3.Var(0, z3.IntSort())
        body = z3.FreshConst(f.range(), f"any_{f.name()}")
        for i, v in sorted(rows.items(), reverse=True):
            body = z3.If(x == i, v, body)
        funs.append((f, body))
    speed = (S.speed, speed_term(rel.ctx, z3.Var(0, z3.IntSort())))
    lits = literal_values(rel)

    def sub(t):
        t = z3.substitute_funs(t, speed)
        t = z3.substitute_funs(t, *funs) if funs else t
        t = z3.substitute(t, *(consts + lits)) if consts + lits else t
        return z3.simplify(t)
    return sub


def templates(rel, statics) -> Templates:
    sub = inline(rel, statics)
    restr = {rid: sub(z3.And(terms)) for rid, terms in rel.restrictions.items()}
    side = [sub(t) for _, t in rel.definitions] + [sub(t) for t in rel.absent]
    trans = [sub(t) for t in rel.transition]
    grants = {}
    ids = {lit.get_id(): rid for rid, lit in rel.lits.items()}
    for gate, terms in rel.ctx._grants.items():
        for t in terms:
            # each grant is And(rule literal, term): the literal names the rule it comes from
            rid = ids.get(t.arg(0).get_id()) if z3.is_and(t) and t.num_args() else None
            if rid is None:
                continue
            body = sub(z3.And(list(t.children())[1:]))
            g = grants.setdefault(gate, {})
            g[rid] = z3.Or(g[rid], body) if rid in g else body
    return Templates(restr, side, trans, grants)


def _fresh(var, name):
    return z3.Bool(name) if var.sort() == z3.BoolSort() else z3.Int(name)


class Trajectory:
    """States s_0..s_k of one rule set along a shared sequence of actions."""

    def __init__(self, rel, tag: str, init: dict, statics):
        self.rel, self.tag = rel, tag
        self.tpl = templates(rel, statics)
        self.ctx = rel.ctx
        self.pre_fields = self.ctx.pre.fields()
        self.post_fields = self.ctx.post.fields()
        self.states = [self._state(0)]
        self._cache = {}
        self.init = [self.states[0][n] == (z3.BoolVal(v) if isinstance(v, bool) else z3.IntVal(v))
                     for n, v in init.items()]

    def _state(self, k):
        return {n: _fresh(v, f"{self.tag}{k}_{n}") for n, v in self.pre_fields}

    def state(self, k):
        while len(self.states) <= k:
            self.states.append(self._state(len(self.states)))
        return self.states[k]

    def mapping(self, k, act: dict):
        s0, s1 = self.state(k), self.state(k + 1)
        m = [(v, s0[n]) for n, v in self.pre_fields] + [(v, s1[n]) for n, v in self.post_fields]
        m += [(v, act[n]) for n, v in self.ctx.act.fields()]
        return m

    def at(self, k, act, term):
        return z3.substitute(term, *self.mapping(k, act))

    def _step(self, k, act):
        """Step k's terms, substituted in one call (a call per term costs far more)."""
        key = (k, id(act["kind"]))
        if self._cache.get("key") != key:
            ids = list(self.tpl.restrictions)
            parts = [self.tpl.restrictions[r] for r in ids] + self.tpl.transition + self.tpl.side
            done = self.at(k, act, z3.And(parts)).children() if parts else []
            n = len(ids)
            self._cache = {"key": key, "restr": dict(zip(ids, done[:n])), "rest": done[n:]}
        return self._cache

    def transition(self, k, act):
        return self._step(k, act)["rest"]

    def legal(self, k, act):
        """Step k is legal, and s_{k+1} is the state after it."""
        c = self._step(k, act)
        return z3.And(list(c["restr"].values()) + c["rest"])

    def restriction(self, k, act, rid):
        return self._step(k, act)["restr"][rid]

    def illegal(self, k, act):
        """Step k is illegal: some restriction fails (s_{k+1} is still defined, unused)."""
        c = self._step(k, act)
        return z3.And(c["rest"] + [z3.Not(z3.And(list(c["restr"].values())))])

    def stutter(self, k):
        s0, s1 = self.state(k), self.state(k + 1)
        return z3.And([s1[n] == s0[n] for n, _ in self.pre_fields])


def action_vars(k: int, ctx) -> dict:
    return {n: _fresh(v, f"a{k}_{n}") for n, v in ctx.act.fields()}


def action_domain(act: dict, ncards: int, neffects: int, tp: int, kinds=SEARCH_KINDS,
                  untargeted=(), paying=(), two_targets=(), choosing=0) -> z3.BoolRef:
    """The actions a search may pick: the shapes `Run.steps_for` produces from play lines.
    Effects in `untargeted` (their text chooses no target) are activated without `target`; only
    effects in `paying` (their cost discards or Tributes a card) name a card as `other`, and only
    those in `two_targets` (their text targets two cards) a second target. A resolution names
    the cards its link chooses as it resolves (GEN-22 says which may) when some effect of the play
    chooses (`choosing`: the most cards one chooses, 0 for none)."""
    k = act["kind"]
    card_or_none = lambda v: z3.And(v >= NONE, v < ncards)   # noqa: E731
    card = lambda v: z3.And(v >= 0, v < ncards)              # noqa: E731
    is_ = lambda *names: z3.Or([k == A[n] for n in names])   # noqa: E731
    claims = z3.Or([act["claim"] == CL[c] for c in SEARCH_CLAIMS])
    return z3.And(
        z3.Or([k == A[n] for n in kinds]),
        act["window"] == NONE, act["link"] == 0, act["named"] == NONE,
        z3.If(is_("activate", "pass"), z3.Or(act["player"] == 0, act["player"] == 1),
              z3.If(is_("attack"), act["player"] == tp,
                    z3.If(z3.And(is_("claim"), act["claim"] == CL["lp"]),
                          z3.Or(act["player"] == 0, act["player"] == 1), act["player"] == NONE))),
        z3.If(is_("activate"), z3.And(act["eff"] >= 0, act["eff"] < neffects), act["eff"] == 0),
        z3.If(is_("attack", "replace"), card(act["card"]),
              z3.If(z3.And(is_("claim"), act["claim"] != CL["lp"]), card(act["card"]), act["card"] == NONE)),
        z3.If(is_("activate", "attack", "retarget"), card_or_none(act["target"]), act["target"] == NONE),
        z3.And([z3.Implies(z3.And(is_("activate"), act["eff"] == e), act["target"] == NONE) for e in untargeted]),
        z3.If(z3.And(is_("activate"), z3.Or([act["eff"] == e for e in two_targets])),
              z3.And(card_or_none(act["target2"]), act["target2"] != act["target"]), act["target2"] == NONE),
        z3.If(is_("attack", "retarget"), act["direct"] == (act["target"] == NONE), z3.Not(act["direct"])),
        z3.If(z3.And(is_("resolve_link"), z3.BoolVal(choosing > 0)), card_or_none(act["choice"]), act["choice"] == NONE),
        z3.If(z3.And(is_("resolve_link"), z3.BoolVal(choosing > 1)),
              z3.Or(act["choice2"] == NONE, z3.And(card(act["choice2"]), act["choice"] != NONE,
                                                   act["choice2"] != act["choice"])), act["choice2"] == NONE),
        # an activation names the card it discards or Tributes as its cost (GEN-16 says which may)
        z3.If(is_("replace"), card(act["other"]),
              z3.If(z3.And(is_("activate"), z3.Or([act["eff"] == e for e in paying])), card_or_none(act["other"]),
                    act["other"] == NONE)),
        z3.If(is_("claim"), z3.And(claims, act["value"] >= 0, act["value"] <= MAX_VALUE,
                                   z3.Implies(z3.Or(act["claim"] == CL["destroyed_by_battle"],
                                                    act["claim"] == CL["face_up"]), act["value"] <= 1),
                                   z3.Implies(act["claim"] == CL["location"],
                                              act["value"] < len(vocab.LOCATIONS))),
              z3.And(act["claim"] == 0, act["value"] == 0)),
    )


def concrete(model, act: dict) -> dict:
    return {n: py_value(model.eval(v, model_completion=True)) for n, v in act.items()}


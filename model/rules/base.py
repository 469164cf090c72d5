"""What a rule is, and the context rules are written against.

A rule is written once, as a z3 term over one step of play: the state before
(`ctx.pre`), the action (`ctx.act`) and the state after (`ctx.post`). There are
three shapes:

* restriction -- a constraint every step must satisfy (`build` returns a BoolRef);
* permission  -- grants that a gate restriction asks for (`build` returns
  {gate: BoolRef}); a gate is satisfied when any granted permission holds;
* update      -- how the state after follows from the state before
  (`build` returns [Update]); updates make the step relation deterministic;
* definition  -- a term that defines a derived fact other rules read (CH-4's Spell Speeds);
* table       -- no term of its own: rows of the rule sets' tables carry its ID.

A rule may also say what holds when it is *absent* from a rule set (`absent`),
for rules whose absence is not simply "no constraint".
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Callable

import z3

from .. import vocab
from ..state import NONE, A, Action, State, Statics

RULES: list["Rule"] = []


@dataclass
class Update:
    var: str          # State attribute name, e.g. "window" or "atk"
    index: int | None  # list index for per-card / per-effect / per-link variables
    when: z3.BoolRef
    value: z3.ExprRef
    # `when` reads `ctx.mid`, the state the step's other updates leave: such an update applies
    # over their result (a self-destruction, model/rules/continuous.py); step.py says how
    settled: bool = False


@dataclass
class Rule:
    """One part of a rule: its builder and shape. The first part of an ID (`rule`) carries the
    metadata; further parts (`part`) share it and must be in the same module."""
    id: str
    statement: str
    sources: tuple[str, ...]
    shape: str                    # restriction | permission | update | definition | table
    build: Callable
    absent: Callable | None = None
    expressible: str = "full"     # full | partial
    note: str = ""                # for partial rules: what is left out, and why
    family: str = ""              # the module that holds it (model/rules/<family>.py)
    name: str = ""                # short machine name, e.g. "timing.window"
    priority: int | None = None   # updates: when two updates of one variable apply, the lower wins
    hint: str = ""                # an explanation's extra line for this rule (checking/explain.py)
    counterparts: tuple[str, ...] = ()   # the other rule set's rules on the same matter (diff)
    line: int = 0                 # where the builder is defined
    summary: str = ""             # a verdict's short form of a long statement (DS-1, DS-T1)
    # which rule sets hold a rule is data: model/rulesets/*.json (rulesets.membership())


def _register(r: Rule):
    if r.shape == "update" and r.priority is None:
        raise ValueError(f"{r.id}: an update declares its priority")
    RULES.append(r)


def rule(id, statement, sources, shape="restriction", expressible="full", note="", absent=None,
         name="", priority=None, hint="", counterparts=(), summary=""):
    """Register the decorated builder as a rule. Which rule sets hold it is data
    (model/rulesets/*.json), not said here."""
    def wrap(fn):
        _register(Rule(id, statement, tuple(sources), shape, fn, absent, expressible, note,
                       fn.__module__.rsplit(".", 1)[-1], name, priority, hint, tuple(counterparts),
                       fn.__code__.co_firstlineno, summary))
        return fn
    return wrap


def part(id, shape="restriction", priority=None):
    """Register another part (shape) of rule `id`, declared by `rule` earlier in this module."""
    def wrap(fn):
        family = fn.__module__.rsplit(".", 1)[-1]
        first = next((r for r in RULES if r.id == id and r.statement), None)
        if first is None or first.family != family:
            raise ValueError(f"{id}: a part must follow the rule's declaration in the same module")
        _register(Rule(id, "", first.sources, shape, fn, None, first.expressible, "", family,
                       first.name, priority, "", (), fn.__code__.co_firstlineno))
        return fn
    return wrap


def table_rule(id, statement, sources, **kw):
    """A rule whose terms are rows of the rule sets' tables (see tables.py)."""
    frame = sys._getframe(1)
    fn = lambda ctx: []
    _register(Rule(id, statement, tuple(sources), "table", fn, None, kw.pop("expressible", "full"),
                   kw.pop("note", ""), frame.f_globals["__name__"].rsplit(".", 1)[-1], kw.pop("name", ""),
                   None, "", tuple(kw.pop("counterparts", ())), frame.f_lineno))
    if kw:
        raise TypeError(f"{id}: unknown table_rule arguments {sorted(kw)}")


@dataclass
class Ctx:
    """Everything a rule builder may read: the step's records and the rule set."""

    ruleset: "object"
    ncards: int
    neffects: int
    nwatched: int = 0   # watched slots: effects whose atoms every state builds (effects.watched_atoms)
    pre: State = field(init=False)
    post: State = field(init=False)
    act: Action = field(init=False)
    S: Statics = field(init=False)

    def __post_init__(self):
        self.pre = State("pre_", self.ncards, self.neffects)
        self.post = State("post_", self.ncards, self.neffects)
        # the state after without the `settled` updates (Update): never a variable of the relation,
        # step.py replaces it by the other updates' terms
        self.mid = State("mid_", self.ncards, self.neffects)
        self.act = Action()
        self.S = Statics()
        self.cards = range(self.ncards)
        self.effects = range(self.neffects)
        self._grants: dict[str, list[z3.BoolRef]] = {}
        self._lits: dict[str, z3.BoolRef] = {}

    def lit(self, rule_id):
        """The literal that switches rule `rule_id` on (False when the set lacks it)."""
        return self._lits.get(rule_id, z3.BoolVal(False))

    # --- selection over fixed-size lists -------------------------------------------
    @staticmethod
    def sel(values, index, default=None):
        """values[index] for a symbolic index (If-chain); `default` when out of range."""
        out = default if default is not None else values[0]
        for k in range(len(values) - 1, -1, -1):
            out = z3.If(index == k, values[k], out)
        return out

    # --- the step's action -----------------------------------------------------------
    def is_(self, *kinds):
        return z3.Or([self.act.kind == A[k] for k in kinds])

    @property
    def activating(self):
        return self.act.kind == A["activate"]

    @property
    def eff(self):
        return self.act.eff

    # --- windows ---------------------------------------------------------------------
    def win(self, *names, state=None):
        st = state if state is not None else self.pre
        return z3.Or([st.window == vocab.W[n] for n in names]) if names else z3.BoolVal(False)

    def ds(self, state=None):
        return self.win(*self.ruleset.damage_step, state=state)

    # --- the Chain -------------------------------------------------------------------
    def link(self, values, k):
        """values of link k (0-based) for a symbolic k."""
        return self.sel(values, k)

    @property
    def top_eff(self):
        return self.link(self.pre.link_eff, self.pre.chain_len - 1)

    def top_target(self):
        return self.link(self.pre.link_target, self.pre.chain_len - 1)

    def top_target2(self):
        return self.link(self.pre.link_target2, self.pre.chain_len - 1)

    def opp(self, player):
        return 1 - player

    # --- effect properties -------------------------------------------------------------
    def kind_is(self, eff, *kinds):
        return self.kind_is_card(self.S.inst(eff), *kinds)

    def kind_is_card(self, card, *kinds):
        return z3.Or([self.S.ckind(card) == vocab.K[k] for k in kinds])

    def ekind_is(self, eff, *kinds):
        return z3.Or([self.S.ekind(eff) == vocab.EK[k] for k in kinds])

    def names_any(self, eff, timings):
        return z3.Or([self.S.names[t](eff) for t in timings]) if timings else z3.BoolVal(False)

    def monster_in_zone(self, card, state=None):
        st = state if state is not None else self.pre
        return z3.And(card != NONE, self.sel(st.loc, card, z3.IntVal(0)) == vocab.L["monster_zone"])

    def monsters_of(self, player, state=None):
        """Number of monsters `player` controls."""
        st = state if state is not None else self.pre
        return z3.Sum([z3.If(z3.And(st.loc[i] == vocab.L["monster_zone"], self.S.ctrl(i) == player), 1, 0)
                       for i in self.cards]) if self.ncards else z3.IntVal(0)

    # --- gates -----------------------------------------------------------------------------
    def grant(self, gate):
        """Or of the permissions granted to `gate` by the rules of this set."""
        grants = self._grants.get(gate, [])
        return z3.Or(grants) if grants else z3.BoolVal(False)

    def add_grant(self, gate, term):
        self._grants.setdefault(gate, []).append(term)


# terms a module reads that a module above it builds: a condition's `battle_damage_pending`
# (effects.quantity) is damage calculation's own arithmetic (calc.pending_damage), which builds
# on the conditions' terms; the builder registers its name here, so the reader need not import it
TERMS: dict[str, Callable] = {}


def provides(name):
    """Register the decorated function as the builder of term `name` (`provided` reads it)."""
    def wrap(fn):
        TERMS[name] = fn
        return fn
    return wrap


def provided(ctx, name, *args):
    """Term `name`, built by the function a rule module registered for it (`provides`)."""
    return TERMS[name](ctx, *args)


def once(ctx, key, build):
    """`build()` the first time `key` is asked for on this context, the same term after: a term
    many rules read (a condition, a lock) is built once per relation, not once per reader."""
    memo = ctx.__dict__.setdefault("_memo", {})
    if key not in memo:
        memo[key] = build()
    return memo[key]

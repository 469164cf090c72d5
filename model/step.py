"""The step relation: every rule of a rule set compiled once into one solver.

Each rule ID gets a literal `rule:<ID>`. Restrictions are asserted as
`lit => term`; permissions enter their gate as `lit and term`; updates define
the state after as an If-chain over `lit and when`. A check assumes every
literal plus the facts of one step; the unsat core names the rules and facts
behind an illegal step. An explanation asks a solver of its own, read from `explaining`'s text
(checking.explain says why).
"""
from __future__ import annotations

import json
from functools import cached_property, lru_cache
from pathlib import Path

import z3

from . import diskcache, rulesets
from .dag import Reads, names_in
from .rules import RULES, Ctx, tables
from .state import State

FORMAT = 6   # bump when the cached relation's shape changes


class RuleTerms:
    """Every rule's terms for one rule set and size, each gated by its rule's literal, as the rules
    build them: the expensive part of a relation (seconds of Python building z3 terms). The
    relations of one size share them: one without a rule (`ablate` removes each in turn) switches
    that rule's literal off instead of building every other rule's terms again."""

    def __init__(self, ruleset: rulesets.RuleSet, ncards: int, neffects: int, nwatched: int = 0):
        self.ruleset = ruleset
        self.ctx = ctx = Ctx(ruleset, ncards, neffects, nwatched)
        self.lits = {rid: z3.Bool(f"rule:{rid}") for rid in ruleset.rules}
        ctx._lits = self.lits
        parts = [r for r in RULES if r.id in self.lits]
        for r in parts:
            if r.shape == "permission":
                for gate, term in r.build(ctx).items():
                    ctx.add_grant(gate, z3.And(self.lits[r.id], term))
        # the tables' rows read the rules' grants (the flip row: D1-1, T1)
        t_restr, t_grants, t_updates = tables.build(ctx, self.lits)
        for rid, gate, term in t_grants:
            if rid in self.lits:
                ctx.add_grant(gate, z3.And(self.lits[rid], term))
        # (rule ID, restriction term) in order (a rule may have several parts)
        self.restrictions = [(r.id, r.build(ctx)) for r in parts if r.shape == "restriction"]
        self.restrictions += [(rid, term) for rid, term in t_restr if rid in self.lits]
        self.definitions = [(r.id, r.build(ctx)) for r in parts if r.shape == "definition"]
        # update priority is declared on the rules (lower wins; ties by module and line), so the
        # order the rule modules are imported in changes nothing; the tables' rows come first
        self.updates = [(rid, u) for rid, u in t_updates if rid in self.lits]
        ordered = sorted((r for r in parts if r.shape == "update"), key=lambda r: (r.priority, r.family, r.line))
        self.updates += [(r.id, u) for r in ordered for u in r.build(ctx)]


class StepRelation:
    def __init__(self, ruleset: rulesets.RuleSet, ncards: int, neffects: int, without: frozenset = frozenset(),
                 nwatched: int = 0, terms: RuleTerms | None = None):
        terms = terms or RuleTerms(ruleset, ncards, neffects, nwatched)
        assert (terms.ruleset, terms.ctx.ncards, terms.ctx.neffects, terms.ctx.nwatched) == \
            (ruleset, ncards, neffects, nwatched), "rule terms of another rule set or size"
        self.ruleset = ruleset
        # for the concrete checks (check.Run): (variable id, value) and a static's (name, arg,
        # value) -> its equation; ("pre" | "act", layout name) -> the variable's z3 name
        self.equalities, self.symbol_names = {}, {}
        self.ctx = ctx = terms.ctx
        self.lits = {rid: lit for rid, lit in terms.lits.items() if rid not in without}
        # restrictions have literals of their own, so that each can be tested alone
        self.rlits = {rid: z3.Bool(f"restrict:{rid}") for rid in self.lits}
        # a removed rule's literal is false: its grants and updates, and what other rules say
        # only while it holds (ctx.lit), are off
        self.off = {rid: lit for rid, lit in terms.lits.items() if rid in without}

        # rule ID -> restriction terms (a rule may have several parts)
        self.restrictions: dict[str, list[z3.BoolRef]] = {}
        for rid, term in terms.restrictions:
            if rid in self.lits:
                self.restrictions.setdefault(rid, []).append(term)
        self.definitions = [(rid, term) for rid, term in terms.definitions if rid in self.lits]
        self.absent = [r.absent(ctx) for r in RULES
                       if r.absent and r.id not in self.lits and r.id in ruleset.rules + tuple(without)]
        self.transition = self._transition([(rid, u) for rid, u in terms.updates if rid in self.lits])

        self.solver = z3.Solver()
        for lit in self.off.values():
            self.solver.add(z3.Not(lit))
        for rid, parts in self.restrictions.items():
            for term in parts:
                self.solver.add(z3.Implies(self.rlits[rid], term))
        for rid, term in self.definitions:
            self.solver.add(z3.Implies(self.lits[rid], term))
        for term in self.absent:
            self.solver.add(term)
        for eq in self.transition:
            self.solver.add(eq)

    @cached_property
    def text(self) -> str:
        """The relation's SMT-LIB (what the disk cache holds), as one conjunction."""
        return sexpr_of(self.solver.assertions())

    @cached_property
    def explaining(self) -> str:
        return sexpr_of(self._part)

    @cached_property
    def _sliced(self) -> dict[str, tuple[str, list]]:
        return rule_slices(self._part, self.rlits, [v for _, v in self.ctx.post.fields()])

    @cached_property
    def slices(self) -> dict[str, str]:
        return {rid: text for rid, (text, _) in self._sliced.items()}

    @cached_property
    def slice_reads(self) -> dict[str, frozenset]:
        return {rid: frozenset(names) for rid, (_, names) in self._sliced.items()}

    @cached_property
    def _part(self) -> list:
        return explained_part(self.solver, [v for _, v in self.ctx.post.fields()])

    def _transition(self, updates):
        ctx = self.ctx
        by_var: dict[tuple, list] = {}
        for rid, u in updates:
            by_var.setdefault((u.var, u.index), []).append((rid, u))

        def fold(pairs, term, post_var, sub=lambda t: t):
            for rid, u in reversed(pairs):
                value = u.value
                if not isinstance(value, z3.ExprRef):
                    value = z3.BoolVal(value) if post_var.sort() == z3.BoolSort() else z3.IntVal(value)
                term = z3.If(z3.And(self.lits[rid], sub(u.when)), sub(value), term)
            return term
        # the ordinary updates first; a `settled` one (its `when` reads ctx.mid) applies over their
        # result, and wins: its card is destroyed in the step whose other updates meet its condition
        rhs, late = {}, {}
        for name, post_var in ctx.post.fields():
            base, index = _split(name)
            pairs = by_var.get((base, index), [])
            rhs[name] = fold([p for p in pairs if not p[1].settled], _get(ctx.pre, base, index), post_var)
            late[name] = [p for p in pairs if p[1].settled]
        sub = self._settled(rhs, {name for name, pairs in late.items() if pairs}) if any(late.values()) else (lambda t: t)
        eqs = []
        self.causes = {}   # post-state variable name -> [(rule ID, when)], first match wins
        for name, post_var in ctx.post.fields():
            base, index = _split(name)
            self.causes[name] = [(rid, sub(u.when)) for rid, u in late[name]] + \
                                [(rid, u.when) for rid, u in by_var.get((base, index), []) if not u.settled]
            eqs.append(post_var == fold(late[name], rhs[name], post_var, sub))
        return eqs

    def _settled(self, rhs: dict, settled: set):
        """A function that replaces, in a term, each variable of `ctx.mid` by the term of the state
        the ordinary updates leave. A variable whose ordinary term reads no variable with a
        settled update (`settled`), directly or through other updates, is that state's already:
        its variable of the state after stands in. The others (damage calculation reads where
        the monsters are) are expanded to the ordinary updates' terms, down to the state before.
        So a settled update never reads itself, nor another settled update (two self-destroying
        cards that read each other's place see the state before either is destroyed): no cycle."""
        ctx = self.ctx
        post_of = {v.decl().name(): name for name, v in ctx.post.fields()}
        mid_of = {v.decl().name(): name for name, v in ctx.mid.fields()}
        post_var = dict(ctx.post.fields())
        mid_var = dict(ctx.mid.fields())
        memo: dict[str, z3.ExprRef] = {}
        busy: set = set()
        post_refs, mid_refs = Reads(set(post_of), ctx.pre.window.ctx), Reads(set(mid_of), ctx.pre.window.ctx)
        direct = {name: {post_of[n] for n in post_refs.of(rhs[name])} for name in rhs}
        tainted = set(settled)   # the variables whose ordinary term reads a settled one
        grown = True
        while grown:
            grown = False
            for name, reads in direct.items():
                if name not in tainted and reads & tainted:
                    tainted.add(name)
                    grown = True

        def expanded(name):   # the ordinary term of post variable `name`, over the state before
            if name not in tainted:
                return post_var[name]
            if name in busy:
                # an update that reads its own variable's state after (damage calculation's, in a
                # rule set whose monsters destroyed by battle leave at once): the solver's relation
                # holds such equations as they are, and so does this term
                return post_var[name]
            if name not in memo:
                busy.add(name)
                reads = sorted(direct[name] & tainted)
                memo[name] = z3.substitute(rhs[name], *[(post_var[r], expanded(r)) for r in reads]) \
                    if reads else rhs[name]
                busy.discard(name)
            return memo[name]

        def sub(term):
            pairs = [(mid_var[mid_of[n]], expanded(mid_of[n])) for n in sorted(mid_refs.of(term))]
            return z3.substitute(term, *pairs) if pairs else term
        return sub


def explained_part(solver: z3.Solver, post_vars: list) -> list:
    """The solver's assertions without the updates of the state after that nothing
    else reads (directly or through other updates): a restriction, a definition or an absent
    rule's default reads few variables of the state after (the window), so most updates go,
    and a fresh solver reads the rest in a few milliseconds. An unsat core of these assertions
    is one of the whole relation (they are a part of it); checking.explain takes only cores
    from them."""
    posts = {v.get_id() for v in post_vars}
    updates, readers = {}, []   # post variable id -> its update equation; every other assertion
    for a in solver.assertions():
        v = a.arg(0).get_id() if z3.is_eq(a) else None
        if v in posts and v not in updates:
            updates[v] = a
        else:
            readers.append(a)
    read = _read_closure(readers, updates, posts)
    gone = {a.get_id() for v, a in updates.items() if v not in read}
    return [a for a in solver.assertions() if a.get_id() not in gone]


UNRESTRICTED = "-"   # the slice that holds no restriction (a key no rule ID is)


def rule_slices(part: list, rlits: dict, post_vars: list) -> dict[str, tuple[str, list]]:
    """For each restriction, the text of the part (`explained_part`) that its core is taken
    from, and the names of the constants and functions it reads (a fact about any other cannot
    be in its core): its own assertions `restrict:ID => term`, the definitions and absent rules'
    defaults, and the updates it reads. The other restrictions go: each is `restrict:X => term`
    with a literal nothing else names, which a model sets false when the query does not assume it, so
    the slice and the part are equisatisfiable on a query about that rule, and the slice's cores
    are the part's. A slice is a few kilobytes where the part is some hundreds: a fresh solver
    reads it and answers its first query in a few milliseconds (docs/performance.md). The slice
    UNRESTRICTED holds none: it answers as the part a query that assumes no restriction (a
    timing gate's windows, a step's provenance)."""
    by_lit = {rlits[rid].get_id(): rid for rid in rlits}
    posts = {v.decl().name() for v in post_vars}
    names = [names_in([a]) for a in part]   # each assertion walked once, not once per slice
    own, updates, shared = {}, {}, []   # rule ID -> [index]; post name -> index; [index]
    for k, a in enumerate(part):
        rid = by_lit.get(a.arg(0).get_id()) if z3.is_implies(a) else None
        if rid is not None:
            own.setdefault(rid, []).append(k)
        elif z3.is_eq(a) and z3.is_const(a.arg(0)) and a.arg(0).decl().name() in posts:
            updates[a.arg(0).decl().name()] = k
        else:
            shared.append(k)
    out = {}
    for rid, mine in [(UNRESTRICTED, [])] + list(own.items()):
        keep = set(mine + shared)
        read = set().union(*(names[k] for k in keep)) & posts
        todo = list(read)
        while todo:   # and what the kept updates read
            k = updates.get(todo.pop())
            if k is not None and k not in keep:
                keep.add(k)
                for v in (names[k] & posts) - read:
                    read.add(v)
                    todo.append(v)
        kept = sorted(keep)   # in the part's order
        out[rid] = (sexpr_of([part[k] for k in kept]), sorted(set().union(*(names[k] for k in kept))))
    return out


def sexpr_of(assertions) -> str:
    """SMT-LIB of the assertions as one conjunction: z3 shares a subterm (`let`) within one
    assertion only, and the update conditions share most of theirs (one assertion each made the
    files 15x larger). A solver that reads it back holds the same models and cores."""
    one = z3.Solver()
    one.add(z3.And(list(assertions)))
    return one.sexpr()


def _read_closure(readers, updates: dict, posts: set) -> set:
    """The ids of the variables of the state after that `readers` read, directly or through
    the updates (`updates`: variable id -> its equation) of those they read."""
    read = _reads(readers, posts)
    todo = list(read)
    while todo:
        for v in _reads([updates[todo.pop()].arg(1)], posts) - read:
            read.add(v)
            todo.append(v)
    return read


def _reads(terms, wanted: set) -> set:
    """The ids of the constants in `wanted` that occur in `terms`."""
    out, seen, todo = set(), set(), list(terms)
    while todo:
        t = todo.pop()
        k = t.get_id()
        if k in seen:
            continue
        seen.add(k)
        if k in wanted:
            out.add(k)
        todo.extend(t.children())
    return out


def _split(name):
    if "[" in name:
        base, rest = name.split("[", 1)
        return base, int(rest[:-1])
    return name, None


def _get(state: State, base, index):
    value = getattr(state, base)
    return value[index] if index is not None else value


def bucket(n: int, step: int = 4) -> int:
    """Round sizes up so that plays of similar size share one compiled relation."""
    return max(step, -(-n // step) * step)


# relations kept in memory per process: a solver relation with its solver and the explanations'
# testers takes some hundreds of MB in z3 (more for big set-ups), which z3 keeps for reuse once
# freed, so a process that checks plays of many size buckets grew without bound with 16 (the test
# suite passed 17 GB: docs/performance.md, "Memory"); a reload from the disk cache costs 10-50 ms
RELATIONS_IN_MEMORY = 4
# a bucket's rule terms (RuleTerms: no solver) are small (the 16 buckets of the fixtures hold
# 133 MB together) and take 4-19 s to build; `ablate` builds a relation without one rule from
# them for every rule and bucket its search reaches, so it keeps every bucket's (32, as compiled.MEMORY)
TERMS_IN_MEMORY = 32


@lru_cache(maxsize=RELATIONS_IN_MEMORY)
def relation(name: str, ncards: int, neffects: int, without: frozenset = frozenset(),
             nwatched: int = 0) -> StepRelation:
    ncards, neffects = bucket(ncards), bucket(neffects)
    return StepRelation(rulesets.load(name), ncards, neffects, without, nwatched,
                        rule_terms(name, ncards, neffects, nwatched))


@lru_cache(maxsize=TERMS_IN_MEMORY)
def rule_terms(name: str, ncards: int, neffects: int, nwatched: int = 0) -> RuleTerms:
    return RuleTerms(rulesets.load(name), ncards, neffects, nwatched)


class LoadedRelation:
    """What a concrete check asks of a relation (checking.run.Run: the solver, the rule literals,
    the restrictions' IDs, the update causes, the gates' grants, the text explanations read),
    read back from the disk cache: z3 parses SMT-LIB in milliseconds, where building the terms takes a second or more.
    Constants and functions are z3's by name, so the terms are the ones a fresh `Ctx` makes."""

    def __init__(self, data: dict, ruleset: rulesets.RuleSet, ncards: int, neffects: int, nwatched: int = 0):
        self.ruleset = ruleset
        self.equalities, self.symbol_names = {}, {}   # as StepRelation's
        self.ctx = ctx = Ctx(ruleset, ncards, neffects, nwatched)
        self.lits = {rid: z3.Bool(f"rule:{rid}") for rid in data["lits"]}
        self.rlits = {rid: z3.Bool(f"restrict:{rid}") for rid in data["lits"]}
        self.off = {}   # the cache holds only relations with every rule
        ctx._lits = self.lits
        self.restrictions = {rid: None for rid in data["restrictions"]}   # the IDs, in order
        self.key = (ruleset.name, ncards, neffects, nwatched)
        self.text, self.explaining, self.assertions = data["solver"], data["explaining"], data["assertions"]
        self.slices = data["slices"]
        self.slice_reads = {rid: frozenset(names) for rid, names in data["slice_reads"].items()}
        if set(self.slices) != set(self.restrictions) | {UNRESTRICTED} or set(self.slice_reads) != set(self.slices):
            raise ValueError("the cached relation's slices are incomplete")
        (side,) = z3.parse_smt2_string(data["extra"])
        extra = [eq.arg(1) for eq in side.children()]
        if len(extra) != data["extra_count"]:
            raise ValueError("the cached relation is incomplete")
        self.causes = {name: [(rid, extra[k]) for rid, k in pairs] for name, pairs in data["causes"].items()}
        ctx._grants = {gate: [extra[k] for k in ks] for gate, ks in data["grants"].items()}

    @cached_property
    def solver(self) -> z3.Solver:
        """The whole relation, read when a step first asks it: an illegal play is confirmed and
        explained by the relation's part (`explaining`), so most processes never parse the
        whole (~40 ms of a CLI run; docs/performance.md)."""
        s = z3.Solver()
        try:
            (whole,) = z3.parse_smt2_string(self.text)   # one conjunction (`sexpr_of`)
            s.add(*whole.children())
        except z3.Z3Exception:
            pass
        if len(s.assertions()) == self.assertions:
            return s
        # a damaged cache file is never trusted: the relation is built, and the file rewritten
        built = solver_relation(*self.key[:3], frozenset(), self.key[3], rebuild=True)
        self.text = built.text
        return built.solver


def _dump(rel: StepRelation) -> str:
    extra, causes, grants = [], {}, {}

    def index(term):
        extra.append(term)
        return len(extra) - 1
    for name, pairs in rel.causes.items():
        causes[name] = [(rid, index(when)) for rid, when in pairs]
    for gate, terms in rel.ctx._grants.items():
        grants[gate] = [index(t) for t in terms]
    # `x!k == term`: a conjunct is never dropped, even `true`
    side = sexpr_of([z3.Bool(f"extra!{k}") == term for k, term in enumerate(extra)])
    return json.dumps({"lits": list(rel.lits), "restrictions": list(rel.restrictions),
                       "solver": rel.text, "assertions": len(rel.solver.assertions()),
                       "explaining": rel.explaining, "slices": rel.slices,
                       "slice_reads": {rid: sorted(names) for rid, names in rel.slice_reads.items()},
                       "extra": side, "extra_count": len(extra), "causes": causes, "grants": grants})


def solver_cached_path(key: tuple) -> Path | None:
    """Where the solver relation `key` is cached: beside the compiled relation's."""
    return diskcache.entry(f"solver-{FORMAT}", key, "solver-{digest}.json")


@lru_cache(maxsize=RELATIONS_IN_MEMORY)
def solver_relation(name: str, ncards: int, neffects: int, without: frozenset = frozenset(), nwatched: int = 0,
                    rebuild: bool = False):
    """The relation for concrete checks: from the disk cache (next to the compiled relation's,
    keyed the same way) when it is there, else (or if `rebuild`) built and cached."""
    ncards, neffects = bucket(ncards), bucket(neffects)
    path = solver_cached_path((name, ncards, neffects, without, nwatched))
    if path and path.is_file() and not rebuild:
        try:
            return LoadedRelation(json.loads(path.read_text("utf-8")), rulesets.load(name), ncards, neffects, nwatched)
        except Exception:   # a damaged cache file is rebuilt, never trusted
            pass
    rel = relation(name, ncards, neffects, without, nwatched)
    if not path:
        return rel
    data = _dump(rel)
    diskcache.write_atomically(path, data.encode("utf-8"))
    # the runs solve on the relation read back, as a warm process does: the built one (kept by
    # `relation` for symbolic checks and generation) would otherwise gather a solver's and the
    # explanations' testers' state as well (docs/performance.md, "Memory")
    return LoadedRelation(json.loads(data), rulesets.load(name), ncards, neffects, nwatched)

"""The step relation's own terms, compiled to Python for checking concrete steps fast.

A concrete step fixes the state before, the action and the play's static facts;
what is left (the state after) follows from the update equations. So a step can
be *evaluated* instead of solved. This module takes the very terms the solver
holds (restrictions, absent-rule defaults, definitions, update equations), fixes
every rule literal to true and the action kind to each value in turn, lets z3's
own simplifier prune them, and prints the resulting DAG as straight-line Python,
one function per action kind. No rule is written twice.

Why an evaluated "legal" is a solver "legal": the evaluation picks one
interpretation of the uninterpreted statics (the play's facts where given, 0 /
False elsewhere, and the defined functions — Spell Speed — from their
definitions) and computes the unique state after under it; if every restriction
then holds, that assignment is a model of the solver's assertions. An evaluated
"illegal" is only a candidate: check.py has the solver confirm and explain it.
Tests compare both paths step by step (tests/test_compiled.py).

The compiled code is cached on disk (the relation takes seconds to build), keyed by a
hash of the model's sources, the rule set, the sizes and z3's version, in
$YGO_TIMING_CACHE or ~/.cache/ygo-timing (a directory as trusted as the user's home:
what is there is run).
"""
from __future__ import annotations

import hashlib
import importlib.util
import marshal
import os
import sys
import tempfile
from collections import OrderedDict
from pathlib import Path

import z3

from .state import ACTIONS

FORMAT = 2   # bump when the generated code's shape changes
ROOT = Path(__file__).parent


class CompileError(Exception):
    """A term the compiler does not handle; the caller uses the solver instead."""


class Undetermined(Exception):
    """The concrete evaluation cannot decide this step; the caller asks the solver."""


def cache_key(name: str, ncards: int, neffects: int, without: frozenset) -> str:
    h = hashlib.sha256(f"{FORMAT}|{z3.get_version_string()}|{name}|{ncards}|{neffects}|"
                       f"{sorted(without)}".encode())
    for p in sorted(ROOT.rglob("*.py")) + sorted(ROOT.glob("rulesets/*.json")):
        h.update(p.relative_to(ROOT).as_posix().encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:32]


def cache_dir() -> Path | None:
    """$YGO_TIMING_CACHE, else the user cache directory; None disables the disk cache."""
    env = os.environ.get("YGO_TIMING_CACHE")
    if env is not None:
        return Path(env) if env else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "ygo-timing"


# --- z3 term -> Python --------------------------------------------------------------------------
K = z3  # operator kinds, by their z3 names
NARY = {K.Z3_OP_AND: " and ", K.Z3_OP_OR: " or ", K.Z3_OP_ADD: " + ", K.Z3_OP_MUL: " * "}
BINARY = {K.Z3_OP_EQ: "==", K.Z3_OP_IFF: "==", K.Z3_OP_XOR: "!=", K.Z3_OP_LE: "<=", K.Z3_OP_GE: ">=",
          K.Z3_OP_LT: "<", K.Z3_OP_GT: ">"}
CALLS = {K.Z3_OP_IDIV: "_div", K.Z3_OP_MOD: "_mod", K.Z3_OP_REM: "_rem"}

HELPERS = '''
_NONE = {}   # a function with no facts: every point is open

def _div(a, b):
    # SMT-LIB integer division (Euclidean); division by zero is uninterpreted: 0 is one reading
    if b == 0:
        return 0
    return a // b if b > 0 else -(a // -b)


def _mod(a, b):
    return a - b * _div(a, b) if b != 0 else 0


def _rem(a, b):
    m = _mod(a, b)
    return m if b >= 0 else -m
'''


class Statics:
    """Nodes that depend on the play's facts only: computed once per play, by `prepare`."""

    def __init__(self):
        self.names: dict[int, str] = {}   # node id -> literal text or s<N>
        self.lines: list[str] = []
        self.tables: dict[str, str] = {}  # static function name -> local T<N>
        self.keep = []   # z3 reuses the ids of freed terms: hold every term named here

    def table(self, name):
        return self.tables.setdefault(name, f"T{len(self.tables)}")


class Emitter:
    """Prints a DAG of z3 terms as assignments, children first, each node once; nodes that
    depend on the facts only go to the shared `Statics`."""

    def __init__(self, leaves: dict, statics: Statics, defined: set):
        self.leaves, self.statics, self.defined = leaves, statics, defined
        self.names: dict[int, str] = {}
        self.lines: list[str] = []
        self.keep = []
        self.used: set[str] = set()   # static names this function reads

    def value(self, e) -> str:
        """The Python expression for node `e` (a literal, a leaf or an assigned variable)."""
        stack = [(e, False)]
        while stack:   # iterative post-order: the terms are deep
            node, expanded = stack.pop()
            nid = node.get_id()
            if nid in self.names or nid in self.statics.names:
                continue
            kids = node.children()
            if not expanded and kids and not self._is_leaf(node):
                stack.append((node, True))
                stack.extend((c, False) for c in kids)
                continue
            self._emit(node)
        return self._ref(e.get_id())

    def _ref(self, nid):
        if nid in self.names:
            return self.names[nid]
        name = self.statics.names[nid]
        if name.startswith("s"):
            self.used.add(name)
        return name

    def _is_leaf(self, e):
        return z3.is_const(e) and e.decl().kind() == K.Z3_OP_UNINTERPRETED

    def _emit(self, e):
        st = self.statics
        k, nid = e.decl().kind(), e.get_id()
        literal = {K.Z3_OP_TRUE: "True", K.Z3_OP_FALSE: "False"}.get(k)
        if k == K.Z3_OP_ANUM:
            literal = str(e.as_long())
        if literal is not None:
            st.names[nid] = literal
            st.keep.append(e)
            return
        kids = e.children()
        static, leaf = all(c.get_id() in st.names for c in kids), False
        if k == K.Z3_OP_UNINTERPRETED and e.num_args() == 0:
            name = e.decl().name()
            if name not in self.leaves:
                raise CompileError(f"free variable {name}")
            code = self.leaves[name]
            static, leaf = code.startswith("C"), not code.startswith("C")
        else:
            code = self._code(e, k, [st.names[c.get_id()] if c.get_id() in st.names else self.names[c.get_id()]
                                     for c in kids])
            static = static and not (k == K.Z3_OP_UNINTERPRETED and e.decl().name() in self.defined)
        if leaf:   # P[i], A[i] or an earlier post value: read in place
            self.names[nid] = code
            self.keep.append(e)
        elif static:
            st.names[nid] = f"s{len(st.lines)}"
            st.lines.append(f"    s{len(st.lines)} = {code}")
            st.keep.append(e)
        else:
            for c in kids:
                self._ref(c.get_id())   # note the statics it reads
            self.names[nid] = f"v{len(self.lines)}"
            self.lines.append(f"    v{len(self.lines)} = {code}")
            self.keep.append(e)

    def _code(self, e, k, args) -> str:
        if k == K.Z3_OP_UNINTERPRETED:
            name = e.decl().name()
            if e.num_args() != 1:
                raise CompileError(f"function {name} of {e.num_args()} arguments")
            table = f"D[{name!r}]" if name in self.defined else self.statics.table(name)
            if not table.startswith("D"):
                self.used.add(table)
            default = "False" if e.sort() == z3.BoolSort() else "0"
            return f"{table}.get({args[0]}, {default})"
        if k in NARY:
            return NARY[k].join(args)
        if k in BINARY and len(args) == 2:
            return f"{args[0]} {BINARY[k]} {args[1]}"
        if k == K.Z3_OP_DISTINCT:
            return f"len({{{', '.join(args)}}}) == {len(args)}"
        if k == K.Z3_OP_NOT:
            return f"not {args[0]}"
        if k == K.Z3_OP_IMPLIES:
            return f"not {args[0]} or {args[1]}"
        if k == K.Z3_OP_ITE:
            return f"{args[1]} if {args[0]} else {args[2]}"
        if k == K.Z3_OP_SUB:
            return " - ".join(args)
        if k == K.Z3_OP_UMINUS:
            return f"-{args[0]}"
        if k in CALLS and len(args) == 2:
            return f"{CALLS[k]}({args[0]}, {args[1]})"
        raise CompileError(f"operator {e.decl()} ({k})")


def generate(rel) -> str:
    """Python source of the module: `prepare(T, C)` computes what depends on the play's facts
    only; `step_<kind>(P, A, K)` checks one step of that action kind."""
    ctx = rel.ctx
    pre, act, post = ctx.pre.fields(), ctx.act.fields(), ctx.post.fields()
    leaves = {v.decl().name(): f"P[{i}]" for i, (_, v) in enumerate(pre)}
    leaves.update({v.decl().name(): f"A[{i}]" for i, (_, v) in enumerate(act)})
    leaves.update({ctx.S.turn.decl().name(): "C.get('turn', 0)",
                   ctx.S.tp.decl().name(): "C.get('turn_player', 0)"})
    true = [(lit, z3.BoolVal(True)) for lit in list(rel.lits.values()) + list(rel.rlits.values())]
    # definitions: F(a) == t pairs; F is then read from the table D the pairs fill
    pairs = []
    for rid, term in rel.definitions:
        for eq in (term.children() if z3.is_and(term) else [term]):
            lhs, rhs = eq.arg(0), eq.arg(1)
            if not (z3.is_eq(eq) and lhs.num_args() == 1 and lhs.decl().kind() == K.Z3_OP_UNINTERPRETED):
                raise CompileError(f"definition of {rid} is not F(x) == term")
            pairs.append((lhs.decl().name(), lhs.arg(0), rhs))
    defined = {name for name, _, _ in pairs}
    rule_ids = list(rel.restrictions) + [f"(absent-rule default {k})" for k in range(len(rel.absent))]
    restriction_terms = [z3.And(ts) for ts in rel.restrictions.values()] + list(rel.absent)
    post_names = [v.decl().name() for _, v in post]

    statics = Statics()
    steps, frontier = [], []
    for kind in range(len(ACTIONS)):
        subst = true + [(ctx.act.kind, z3.IntVal(kind))]

        def simple(t):
            return z3.simplify(z3.substitute(t, *subst))

        em = Emitter(dict(leaves), statics, defined)
        for name, arg, value in pairs:
            a, v = em.value(simple(arg)), em.value(simple(value))
            em.lines.append(f"    _define(D, {name!r}, {a}, {v})")
        # the state after: each post variable's equation, in dependency order
        rhs = {v.decl().name(): simple(eq.arg(1)) for (_, v), eq in zip(post, rel.transition)}
        done: dict[str, str] = {}

        def emit_post(name, path=()):
            if name in done:
                return done[name]
            if name in path:
                raise CompileError(f"the update of {name} depends on itself")
            for dep in sorted(_post_refs(rhs[name], set(post_names))):
                emit_post(dep, path + (name,))
            em.leaves.update({n: done[n] for n in done})
            done[name] = em.value(rhs[name])
            return done[name]
        for name in post_names:
            emit_post(name)
        em.leaves.update(done)
        oks = [em.value(simple(t)) for t in restriction_terms]
        used = sorted(em.used, key=lambda n: (n[0], int(n[1:])))
        frontier.append(used)
        body = [f"def step_{kind}(P, A, K):"]
        if used:
            body.append(f"    {', '.join(used)}, = K[{kind}]")
        if pairs:
            body.append("    D = {}")
        body += em.lines
        body.append(f"    post = [{', '.join(done[n] for n in post_names)}]")
        body.append(f"    if {' and '.join(oks) or 'True'}:")
        body.append("        return (), post")
        body.append(f"    return tuple(r for r, ok in zip(RULE_IDS, ({', '.join(oks)},)) if not ok), post")
        steps.append("\n".join(body) + "\n")
    prepare = ["def prepare(T, C):"]
    prepare += [f"    {t} = T.get({n!r}, _NONE)" for n, t in statics.tables.items()]
    prepare += statics.lines
    prepare.append("    return (" + " ".join(f"({''.join(n + ', ' for n in used)})," for used in frontier) + ")")
    out = ["# generated by ygo_timing.model.compiled; do not edit", HELPERS, "\n".join(prepare) + "\n"] + steps
    out.append(f"RULE_IDS = {tuple(rule_ids)!r}")
    out.append(f"STEPS = ({', '.join(f'step_{k}' for k in range(len(ACTIONS)))},)")
    out.append('''

def _define(D, name, arg, value):
    table = D.setdefault(name, {})
    if table.get(arg, value) != value:
        raise Undetermined(f"{name}({arg}) defined twice, differently")
    table[arg] = value
''')
    return "\n".join(out)


def _post_refs(term, post_names):
    out, seen, stack = set(), set(), [term]
    while stack:
        x = stack.pop()
        if x.get_id() in seen:
            continue
        seen.add(x.get_id())
        if z3.is_const(x) and x.decl().name() in post_names:
            out.add(x.decl().name())
        stack.extend(x.children())
    return out


class Evaluator:
    """One compiled relation: `step(pre, act, prepared)` -> (broken rule IDs, post values)."""

    def __init__(self, code):
        ns = {"Undetermined": Undetermined}
        exec(code, ns)   # our own generated code (see `generate`), from memory or our cache
        self.steps, self.rule_ids, self.prepare = ns["STEPS"], ns["RULE_IDS"], ns["prepare"]

    def step(self, pre: list, act: list, prepared: tuple):
        """`prepared` is `prepare(tables, consts)` of the play's facts (see check.fact_tables)."""
        kind = act[0]
        if not 0 <= kind < len(self.steps):
            raise Undetermined(f"action kind {kind}")
        return self.steps[kind](pre, act, prepared)


_loaded: OrderedDict = OrderedDict()   # (rule set, sizes, removed rules) -> Evaluator | None
MEMORY = 8    # evaluators kept in memory; ablation builds one per removed rule


def evaluator(name: str, ncards: int, neffects: int, without: frozenset = frozenset()) -> Evaluator | None:
    """The compiled relation for these (bucketed) sizes, from memory, disk or built; None if the
    terms hold something the compiler does not handle (then the solver checks every step)."""
    key = (name, ncards, neffects, without)
    if key in _loaded:
        _loaded.move_to_end(key)
        return _loaded[key]
    while len(_loaded) >= MEMORY:
        _loaded.popitem(last=False)
    digest = cache_key(*key)
    folder = cache_dir() if not without else None   # removals are one-off: not worth the disk
    # the compiled bytecode is cached (compiling the source takes longer than a small check)
    path = folder / f"relation-{digest}-{sys.implementation.cache_tag}.bin" if folder else None
    header = digest.encode() + importlib.util.MAGIC_NUMBER
    if path and path.is_file():
        try:
            data = path.read_bytes()
            if data.startswith(header):
                _loaded[key] = Evaluator(marshal.loads(data[len(header):]))
                return _loaded[key]
        except Exception:   # a damaged cache file is rebuilt, never trusted
            pass
    from .step import relation
    try:
        source = generate(relation(name, ncards, neffects, without))
    except CompileError:
        _loaded[key] = None
        return None
    code = compile(source, f"<ygo_timing compiled relation {digest}>", "exec")
    _loaded[key] = Evaluator(code)
    if path:
        _write_atomically(path, header + marshal.dumps(code))
    return _loaded[key]


def _write_atomically(path: Path, data: bytes):
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError:   # a read-only home is no reason to fail a check
        pass

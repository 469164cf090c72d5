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

The compiled code is cached on disk (the relation takes seconds to build; model/diskcache.py
says where and how it is keyed).
"""
from __future__ import annotations

import importlib.util
import marshal
import sys
from collections import OrderedDict
from pathlib import Path

import z3

from . import dag, diskcache
from .dag import Reads
from .state import ACTIONS

FORMAT = 4   # bump when the generated code's shape changes


class CompileError(Exception):
    """A term the compiler does not handle; the caller uses the solver instead."""


class Undetermined(Exception):
    """The concrete evaluation cannot decide this step; the caller asks the solver."""


# --- z3 term -> Python --------------------------------------------------------------------------
K = z3  # operator kinds, by their z3 names
COMPARE = {K.Z3_OP_EQ: "==", K.Z3_OP_IFF: "==", K.Z3_OP_XOR: "!=", K.Z3_OP_DISTINCT: "!=", K.Z3_OP_LE: "<=",
           K.Z3_OP_GE: ">=", K.Z3_OP_LT: "<", K.Z3_OP_GT: ">"}   # of two arguments; the same in C
CALLS = {K.Z3_OP_IDIV: "_div", K.Z3_OP_MOD: "_mod", K.Z3_OP_REM: "_rem"}
LEAF = "leaf"   # an Op that reads a constant of the play: its one kid is the leaf's text

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
        self.ops: list[Op] = []           # s<N> is ops[N], whose kids are names
        self.tables: dict[str, str] = {}  # static function name -> local T<N>
        self.keep = []   # z3 reuses the ids of freed terms: hold every term named here

    def table(self, name):
        return self.tables.setdefault(name, f"T{len(self.tables)}")


class Node:
    """What the emitter needs of one term, read with z3's C API (the Python wrappers' checks
    cost more than the compilation itself on terms this size). `a` must stay alive: it does
    while the term it belongs to is held (Emitter.keep)."""
    __slots__ = ("id", "kind", "name", "kids", "is_bool", "numeral")

    def __init__(self, c, a):
        self.id = dag.ast_id(c, a)
        kind = dag.ast_kind(c, a)
        self.numeral = dag.numeral(c, a) if kind == z3.Z3_NUMERAL_AST else None
        if self.numeral is not None:
            self.kind, self.name, self.kids = K.Z3_OP_ANUM, "", []
        elif kind == z3.Z3_APP_AST:
            d = dag.app_decl(c, a)
            self.kind = dag.decl_kind(c, d)
            self.name = dag.decl_name(c, d)
            self.kids = dag.kids(c, a)
        else:
            raise CompileError("a quantifier or bound variable")
        self.is_bool = dag.sort_kind(c, dag.sort_of(c, a)) == z3.Z3_BOOL_SORT


def post_order(c, term, done, nodes: dict):
    """The nodes under `term` that are not `done(id)` yet, children first (iteratively: the
    terms are deep). The caller marks each node done before asking for the next. `nodes` (id ->
    Node) is shared by the step functions, whose terms share most of their nodes."""
    stack = [(term.as_ast(), None)]
    while stack:
        a, node = stack.pop()
        nid = dag.ast_id(c, a)
        if done(nid):
            continue
        if node is None:
            node = nodes.get(nid)
            if node is None:
                node = nodes[nid] = Node(c, a)
            if node.kids:
                stack.append((a, node))
                stack.extend((k, None) for k in node.kids)
                continue
        yield node


class Op:
    """One node of a step function (kids: node ids) or of `prepare` (kids: names), kept until the
    function is printed (`Emitter.finish`)."""
    __slots__ = ("is_bool", "kids", "kind", "name", "var")

    def __init__(self, node: Node, kids, var):
        self.kind, self.name, self.is_bool, self.kids, self.var = node.kind, node.name, node.is_bool, kids, var


# An inlined expression deeper than this (in parentheses) or longer (in characters) is assigned to
# a variable instead: Python's parser refuses 200 nested parentheses and its compiler recurses.
MAX_DEPTH, MAX_LENGTH = 40, 4000


class Emitter:
    """Collects a DAG of z3 terms as a step function's operations, each node once, children
    first; nodes that depend on the facts only go to the shared `Statics`. `finish` prints them
    with a printer: Python here, C in model/native.py (the same operations, the same order).

    A node with exactly one parent in the function is printed inside its parent's expression, not
    assigned to a variable, so that Python's short-circuit `and` / `or` and conditional
    expressions skip it when its value cannot matter (most of a step's nodes, on most steps,
    sit under a false conjunct or an untaken branch). Skipping is safe because every generated
    expression is pure and total: `_div` / `_mod` / `_rem` return for any divisor, tables are read
    with `.get`, and the `_define` statements that fill `D` come first. A node with
    several parents, a root (a post value, a restriction, a definition's pair) and an expression
    beyond MAX_DEPTH / MAX_LENGTH stay variables, computed once."""

    def __init__(self, leaves: dict, statics: Statics, defined: set, ctx, nodes: dict):
        self.leaves, self.statics, self.defined, self.nodes = leaves, statics, defined, nodes
        self.c = ctx.ref()
        self.names: dict[int, str] = {}
        self.ops: dict[int, Op] = {}       # node id -> its operation, in creation order
        self.parents: dict[int, int] = {}  # node id -> how many times an op reads it
        self.roots: set[int] = set()
        self.order: list = []              # node ids and statements (tuples), in order
        self.lines: list[str] = []         # the body, once `finish` has printed it
        self.keep = []
        self.used: set[str] = set()   # static names and tables this function reads

    def value(self, e) -> str:
        """A name for term `e` (a literal, a leaf, a static or a variable) valid from here on."""
        self.keep.append(e)
        self.statics.keep.append(e)
        names, static_names = self.names, self.statics.names
        for node in post_order(self.c, e, lambda nid: nid in names or nid in static_names, self.nodes):
            self._emit(node)
        nid = dag.ast_id(self.c, e.as_ast())
        self.roots.add(nid)
        return self._ref(nid)

    def statement(self, *words):
        """A statement of the body, after every node emitted so far: ("define", function, arg,
        value) is the only kind."""
        self.order.append(words)

    def _ref(self, nid):
        if nid in self.names:
            return self.names[nid]
        name = self.statics.names[nid]
        if name.startswith("s"):
            self.used.add(name)
        return name

    def _emit(self, node: Node):
        st, c = self.statics, self.c
        k, nid = node.kind, node.id
        literal = {K.Z3_OP_TRUE: "True", K.Z3_OP_FALSE: "False"}.get(k)
        if k == K.Z3_OP_ANUM:
            literal = str(int(node.numeral))
        if literal is not None:
            st.names[nid] = literal
            return
        kid_ids = [dag.ast_id(c, a) for a in node.kids]
        static, leaf = all(i in st.names for i in kid_ids), False
        table = k == K.Z3_OP_UNINTERPRETED and node.kids and node.name not in self.defined
        if table:
            st.table(node.name)
        if k == K.Z3_OP_UNINTERPRETED and not node.kids:
            if node.name not in self.leaves:
                raise CompileError(f"free variable {node.name}")
            code = self.leaves[node.name]
            static, leaf = code.startswith("C"), not code.startswith("C")
        else:
            static = static and not (k == K.Z3_OP_UNINTERPRETED and node.name in self.defined)
        if leaf:   # P[i], A[i] or an earlier post value: read in place
            self.names[nid] = code
        elif static:   # prepare's: an operation on statics, or a constant of the play (C)
            st.names[nid] = f"s{len(st.ops)}"
            op = Op(node, [st.names[i] for i in kid_ids] if node.kids else [code], st.names[nid])
            if not node.kids:
                op.kind = LEAF
            st.ops.append(op)
        else:
            for i in kid_ids:
                self._ref(i)   # note the statics it reads
                if i in self.ops:
                    self.parents[i] = self.parents.get(i, 0) + 1
            if table:
                self.used.add(st.tables[node.name])
            self.names[nid] = f"v{len(self.ops)}"
            self.ops[nid] = Op(node, kid_ids, self.names[nid])
            self.order.append(nid)

    def finish(self, printer=None):
        """Print the body: each op a variable or inlined into its one parent (see the class)."""
        printer = printer or PythonPrinter(self.statics, self.defined)
        ops, parents, roots, names = self.ops, self.parents, self.roots, self.names
        inline: dict[int, tuple] = {}   # inlined node id -> (its expression, depth, inlined nodes)
        lines = []
        for item in self.order:
            if isinstance(item, tuple):
                lines.append(printer.statement(*item))
                continue
            op = ops[item]
            args, depth, cost = [], 0, 1
            for i in op.kids:
                if i in inline:
                    expr, d, n = inline.pop(i)
                    args.append((n, f"({expr})"))
                    depth, cost = max(depth, d), cost + n
                else:
                    args.append((0, printer.ref(names.get(i) or self.statics.names[i])))
            if op.kind in (K.Z3_OP_AND, K.Z3_OP_OR):   # cheapest first: pure, so the order is free
                args.sort(key=lambda a: a[0])
            code = printer.code(op, [a for _, a in args])
            if item in roots or parents.get(item, 0) != 1 or depth >= MAX_DEPTH or len(code) > MAX_LENGTH:
                lines.append(printer.assign(op.var, code))
            else:
                inline[item] = (code, depth + 1, cost)
        assert not inline, "an inlined node without its parent"
        self.lines = lines
        return lines


class Printer:
    """Operations as expressions of one language: `FORMS` (kind -> (arity, format of the
    arguments)) and `JOIN` (kind -> separator of any number of arguments), with the table reads
    and the n-ary arithmetic the language's own."""
    FORMS: dict = {}
    JOIN: dict = {}

    def code(self, op: Op, args) -> str:
        k = op.kind
        if k == LEAF:
            return args[0]   # printed by `ref` already
        if k == K.Z3_OP_UNINTERPRETED:
            if len(args) != 1:
                raise CompileError(f"function {op.name} of {len(args)} arguments")
            return self.read(op, args[0])
        if k in self.JOIN:
            return self.join(k, args)
        if k == K.Z3_OP_DISTINCT and len(args) > 2:
            return self.distinct(args)
        arity, form = self.FORMS.get(k, (None, None))
        if arity != len(args):
            raise CompileError(f"operator {op.name} ({k})")
        return form.format(*args)

    def join(self, k, args) -> str:
        return self.JOIN[k].join(args)


class PythonPrinter(Printer):
    """Operations as Python expressions."""
    JOIN = {K.Z3_OP_AND: " and ", K.Z3_OP_OR: " or ", K.Z3_OP_ADD: " + ", K.Z3_OP_MUL: " * ", K.Z3_OP_SUB: " - "}
    FORMS = {**{k: (2, "{0} %s {1}" % sign) for k, sign in COMPARE.items()},
             K.Z3_OP_NOT: (1, "not {0}"), K.Z3_OP_IMPLIES: (2, "not {0} or {1}"), K.Z3_OP_ITE: (3, "{1} if {0} else {2}"),
             K.Z3_OP_UMINUS: (1, "-{0}"), **{k: (2, f"{f}({{0}}, {{1}})") for k, f in CALLS.items()}}

    def __init__(self, statics: Statics, defined: set):
        self.statics, self.defined = statics, defined

    def ref(self, name: str) -> str:
        return name   # the Emitter's names are Python already

    def assign(self, var, code) -> str:
        return f"    {var} = {code}"

    def statement(self, what, name, arg, value) -> str:
        assert what == "define"
        return f"    _define(D, {name!r}, {arg}, {value})"

    def read(self, op: Op, arg) -> str:
        table = f"D[{op.name!r}]" if op.name in self.defined else self.statics.tables[op.name]
        return f"{table}.get({arg}, {'False' if op.is_bool else '0'})"

    def distinct(self, args) -> str:
        return f"len({{{', '.join(args)}}}) == {len(args)}"


class StepFunction:
    """One action kind's step, collected: its operations (`em`), then the names of the state
    after (`post`, in the state's order) and of the restrictions' values (`oks`, RULE_IDS order)."""

    def __init__(self, kind: int, em: Emitter, post: list[str], oks: list[str]):
        self.kind, self.em, self.post, self.oks = kind, em, post, oks

    def used(self) -> list[str]:
        """The tables and statics the function reads from `prepare`, in a stable order."""
        return sorted(self.em.used, key=lambda n: (n[0], int(n[1:])))


class Program:
    """The relation's terms as operations, before printing: `prepare`'s (the statics), each
    action kind's step function, the defined functions and the rule IDs of the restrictions."""

    def __init__(self, statics: Statics, steps: list[StepFunction], defined: list[str], rule_ids: list[str],
                 consts: list[str]):
        self.statics, self.steps, self.defined, self.rule_ids = statics, steps, defined, rule_ids
        self.consts = consts   # the play's constants, read as C.get(name, 0)


def program(rel, kinds=tuple(range(len(ACTIONS)))) -> Program:
    """The terms of relation `rel` with its rule literals set (`literal_values`), simplified per
    action kind and collected as operations (see the module's docstring). A kind None is the terms
    with the action kind left a variable (A[0]): one function for every kind."""
    ctx = rel.ctx
    pre, act, post = ctx.pre.fields(), ctx.act.fields(), ctx.post.fields()
    leaves = {v.decl().name(): f"P[{i}]" for i, (_, v) in enumerate(pre)}
    leaves.update({v.decl().name(): f"A[{i}]" for i, (_, v) in enumerate(act)})
    consts = ["turn", "turn_player"]
    for name, var in zip(consts, (ctx.S.turn, ctx.S.tp)):
        leaves[var.decl().name()] = f"C.get({name!r}, 0)"
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
    steps = []
    # which post variables each kind's terms read: one walk for all kinds, whose simplified terms
    # share most of their nodes
    refs = Reads(set(post_names), ctx.pre.window.ctx)
    nodes: dict = {}   # id -> Node, for every step function (the terms are held by `statics`)
    # every term, as the arguments of one application, so that each substitution and each kind's
    # simplification is one z3 call over the shared DAG, not one per term (each call has its own
    # cache, and the terms share most of their nodes); each simplified argument is the term
    # simplified alone, but for the order of commutative arguments (z3 sorts them by node id)
    terms = [t for _, arg, value in pairs for t in (arg, value)] + [eq.arg(1) for eq in rel.transition] \
        + restriction_terms
    bare = _substitute_all(_bundle(terms), literal_values(rel))

    for kind in kinds:
        simple = iter(z3.simplify(bare if kind is None else _substitute(bare, ctx.act.kind, z3.IntVal(kind)))
                      .children())
        em = Emitter(dict(leaves), statics, defined, ctx.pre.window.ctx, nodes)
        for name, _, _ in pairs:
            a, v = em.value(next(simple)), em.value(next(simple))
            em.statement("define", name, a, v)
        # the state after: each post variable's equation, in dependency order
        rhs = {v.decl().name(): next(simple) for _, v in post}
        done: dict[str, str] = {}

        def emit_post(name, path=()):
            if name in done:
                return done[name]
            if name in path:
                raise CompileError(f"the update of {name} depends on itself")
            for dep in sorted(refs.of(rhs[name])):
                emit_post(dep, path + (name,))
            em.leaves.update({n: done[n] for n in done})
            done[name] = em.value(rhs[name])
            return done[name]
        for name in post_names:
            emit_post(name)
        em.leaves.update(done)
        oks = [em.value(t) for t in simple]
        steps.append(StepFunction(kind, em, [done[n] for n in post_names], oks))
    return Program(statics, steps, sorted(defined), rule_ids, consts)


def literal_values(rel) -> list:
    """(literal, value) for the terms of relation `rel` as a check takes them: each rule's and each
    restriction's literal true, a removed rule's false (step.StepRelation.off)."""
    return [(lit, z3.BoolVal(True)) for lit in list(rel.lits.values()) + list(rel.rlits.values())] \
        + [(lit, z3.BoolVal(False)) for lit in rel.off.values()]


def generate(rel) -> str:
    """Python source of the module: `prepare(T, C)` computes what depends on the play's facts
    only; `step_<kind>(P, A, K)` checks one step of that action kind."""
    return python_source(program(rel))


def python_source(prog: Program) -> str:
    statics = prog.statics
    printer = PythonPrinter(statics, set(prog.defined))
    out = ["# generated by ygo_timing.model.compiled; do not edit", HELPERS]
    prepare = ["def prepare(T, C):"]
    prepare += [f"    {t} = T.get({n!r}, _NONE)" for n, t in statics.tables.items()]
    prepare += [f"    {op.var} = {printer.code(op, op.kids)}" for op in statics.ops]
    prepare.append("    return (" + " ".join(f"({''.join(n + ', ' for n in f.used())})," for f in prog.steps) + ")")
    out.append("\n".join(prepare) + "\n")
    for f in prog.steps:
        body = [f"def step_{f.kind}(P, A, K):"]
        used = f.used()
        if used:
            body.append(f"    {', '.join(used)}, = K[{f.kind}]")
        if prog.defined:
            body.append("    D = {}")
        body += f.em.finish(printer)
        body.append(f"    post = [{', '.join(f.post)}]")
        body.append(f"    if {' and '.join(ok for ok in f.oks if ok != 'True') or 'True'}:")
        body.append("        return (), post")
        body.append(f"    return tuple(r for r, ok in zip(RULE_IDS, ({', '.join(f.oks)},)) if not ok), post")
        out.append("\n".join(body) + "\n")
    out.append(f"RULE_IDS = {tuple(prog.rule_ids)!r}")
    out.append(f"STEPS = ({', '.join(f'step_{f.kind}' for f in prog.steps)},)")
    out.append('''

def _define(D, name, arg, value):
    table = D.setdefault(name, {})
    if table.get(arg, value) != value:
        raise Undetermined(f"{name}({arg}) defined twice, differently")
    table[arg] = value
''')
    return "\n".join(out)


def _substitute(term, var, value):
    """z3.substitute for one pair, without its per-call sort checks (they dominate here)."""
    a, b = (z3.Ast * 1)(var.as_ast()), (z3.Ast * 1)(value.as_ast())
    return z3.z3._to_expr_ref(z3.Z3_substitute(term.ctx.ref(), term.as_ast(), 1, a, b), term.ctx)


def _bundle(terms):
    """One term whose arguments are `terms`: an application of an uninterpreted function that
    nothing else reads."""
    bundle = z3.Function("compiled:terms", *[t.sort() for t in terms], z3.BoolSort())
    return bundle(*terms)


def _substitute_all(term, pairs):
    if not pairs:
        return term
    a = (z3.Ast * len(pairs))(*(p[0].as_ast() for p in pairs))
    b = (z3.Ast * len(pairs))(*(p[1].as_ast() for p in pairs))
    return z3.z3._to_expr_ref(z3.Z3_substitute(term.ctx.ref(), term.as_ast(), len(pairs), a, b), term.ctx)


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
MEMORY = 32   # evaluators kept in memory: a corpus of 2-20 card set-ups uses some 30 size buckets


def cached_path(key: tuple) -> Path | None:
    """Where relation `key`'s bytecode is cached (compiling the source takes longer than a small check)."""
    return diskcache.entry(f"compiled-{FORMAT}", key, f"relation-{{digest}}-{sys.implementation.cache_tag}.bin")


def evaluator(name: str, ncards: int, neffects: int, without: frozenset = frozenset(),
              nwatched: int = 0) -> Evaluator | None:
    """The compiled relation for these (bucketed) sizes, from memory, disk or built; None if the
    terms hold something the compiler does not handle (then the solver checks every step)."""
    key = (name, ncards, neffects, without, nwatched)
    if key in _loaded:
        _loaded.move_to_end(key)
        return _loaded[key]
    while len(_loaded) >= MEMORY:
        _loaded.popitem(last=False)
    digest = diskcache.key(f"compiled-{FORMAT}", *key)
    path = cached_path(key)
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
        source = generate(relation(name, ncards, neffects, without, nwatched))
    except CompileError:
        _loaded[key] = None
        return None
    code = compile(source, f"<ygo_timing compiled relation {digest}>", "exec")
    _loaded[key] = Evaluator(code)
    if path:
        diskcache.write_atomically(path, header + marshal.dumps(code))
    return _loaded[key]

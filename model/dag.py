"""Walks over z3's shared term DAG with its C API: the Python wrappers' checks cost ten times
more on a relation's terms. The nodes stay alive while the terms walked are held."""
from __future__ import annotations

import z3

# z3's C functions, called without z3core's wrappers: each wrapper reads the context's error
# code after the call, which was a third of the time of compiled.generate. These only read the
# structure of a live term and cannot fail. z3core keeps the raw function in each wrapper's
# default argument (its library object is deleted after import); should that change, the
# wrapper itself stands in.


def _raw(name):
    wrapper = getattr(z3, name)
    held = (wrapper.__defaults__ or (None,))[-1]
    return getattr(held, "f", wrapper)


ast_id, ast_kind, app_decl = _raw("Z3_get_ast_id"), _raw("Z3_get_ast_kind"), _raw("Z3_get_app_decl")
app_num_args, app_arg = _raw("Z3_get_app_num_args"), _raw("Z3_get_app_arg")
decl_kind, sort_kind, sort_of = _raw("Z3_get_decl_kind"), _raw("Z3_get_sort_kind"), _raw("Z3_get_sort")
_symbol, _decl_name = _raw("Z3_get_symbol_string"), _raw("Z3_get_decl_name")
_numeral = _raw("Z3_get_numeral_string")

def _text(s) -> str:
    return s.decode() if isinstance(s, bytes) else s


def decl_name(c, decl) -> str:
    return _text(_symbol(c, _decl_name(c, decl)))


def numeral(c, a) -> str:
    return _text(_numeral(c, a))


def kids(c, a) -> list:
    return [app_arg(c, a, i) for i in range(app_num_args(c, a))]


def names_in(terms) -> set:
    """The names of the uninterpreted constants and functions that occur in `terms`."""
    if not terms:
        return set()
    c = terms[0].ctx.ref()
    out, seen, todo = set(), set(), [t.as_ast() for t in terms]
    while todo:
        a = todo.pop()
        k = ast_id(c, a)
        if k in seen or ast_kind(c, a) != z3.Z3_APP_AST:
            continue
        seen.add(k)
        d = app_decl(c, a)
        if decl_kind(c, d) == z3.Z3_OP_UNINTERPRETED:
            out.add(decl_name(c, d))
        todo.extend(kids(c, a))
    return out


class Reads:
    """Which of the constants `names` a term reads, memoised over the shared DAG: the terms of
    one relation share most of their subterms, so they are walked once for all of them. The
    terms walked are held: z3 reuses the ids of freed nodes, and the memo is keyed by id."""

    def __init__(self, names: set, ctx: z3.Context):
        self.names, self.c, self.memo, self.held = names, ctx.ref(), {}, []

    def of(self, term) -> frozenset:
        self.held.append(term)
        c, memo, empty = self.c, self.memo, frozenset()
        root = ast_id(c, term.as_ast())
        stack = [(term.as_ast(), root, None)]   # iteratively: the terms are deep
        while stack:
            a, k, below = stack.pop()
            if below is not None:   # the children are done
                memo[k] = empty.union(*(memo[i] for i in below))
                continue
            if k in memo:
                continue
            if ast_kind(c, a) != z3.Z3_APP_AST:   # a numeral
                memo[k] = empty
                continue
            args = kids(c, a)
            if args:
                ids = [ast_id(c, x) for x in args]
                stack.append((a, k, ids))
                stack.extend((x, i, None) for x, i in zip(args, ids) if i not in memo)
            else:
                name = decl_name(c, app_decl(c, a))
                memo[k] = frozenset([name]) if name in self.names else empty
        return memo[root]

"""Walks over z3's shared term DAG with its C API: the Python wrappers' checks cost ten times
more on a relation's terms. The nodes stay alive while the terms walked are held."""
from __future__ import annotations

import z3


class Reads:
    """Which of the constants `names` a term reads, memoised over the shared DAG: the terms of
    one relation share most of their subterms, so they are walked once for all of them."""

    def __init__(self, names: set, ctx: z3.Context):
        self.names, self.c, self.memo = names, ctx.ref(), {}

    def of(self, term) -> frozenset:
        c, memo = self.c, self.memo
        stack = [(term.as_ast(), False)]   # iteratively: the terms are deep
        while stack:
            a, kids_done = stack.pop()
            k = z3.Z3_get_ast_id(c, a)
            if k in memo:
                continue
            if z3.Z3_get_ast_kind(c, a) != z3.Z3_APP_AST:   # a numeral
                memo[k] = frozenset()
                continue
            kids = [z3.Z3_get_app_arg(c, a, i) for i in range(z3.Z3_get_app_num_args(c, a))]
            if kids and not kids_done:
                stack.append((a, True))
                stack.extend((kid, False) for kid in kids)
            elif kids:
                memo[k] = frozenset().union(*(memo[z3.Z3_get_ast_id(c, kid)] for kid in kids))
            else:
                name = z3.Z3_get_symbol_string(c, z3.Z3_get_decl_name(c, z3.Z3_get_app_decl(c, a)))
                memo[k] = frozenset([name]) if name in self.names else frozenset()
        return memo[z3.Z3_get_ast_id(c, term.as_ast())]

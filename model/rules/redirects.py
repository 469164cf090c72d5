"""Where a card goes instead (GEN-18's settled part): the redirects and destruction replacements
that apply. continuous.py moves the card; costs.py and ocg.py read whether one applies. A module
of its own because it builds on effects.py's continuous terms and three rule families read it.
"""
import z3

from .base import once
from .effects import activation_pending, applying, card_state, picks


def redirecting(ctx, kind, st):
    """(card j, slot s, term) for each continuous slot of `kind` (a vocab.REDIRECTS kind, or
    destroy_replace) that applies in `st`, once its card's activation has resolved (a Continuous
    Trap's "any card sent to the GY is banished instead" applies after its activation resolves,
    as a position lock does)."""
    return once(ctx, ("redirecting", kind, st.prefix), lambda: [
        (j, s, z3.And(t, z3.Not(activation_pending(ctx, j, st)))) for j, s, t in applying(ctx, kind, st)])


def graveyard_barred(ctx, card, st):
    """A redirect keeps `card` (a term) from the Graveyard in `st`: an "any card sent to the GY is
    banished instead" applies, or its own "if this face-up card would leave the field, banish it
    instead" (it is face-up on the field). A cost that sends it to the Graveyard cannot be paid
    (GEN-16: "send this card to the GY"; "discard this card" can, and it is banished instead)."""
    every = [t for _, _, t in redirecting(ctx, "graveyard_redirect", st)]
    return z3.Or(every + [leaving_barred(ctx, card, st)])


def leaving_barred(ctx, card, st):
    """`card`'s own "if this face-up card would leave the field, banish it instead" applies in `st`:
    a cost that must take it to the Graveyard or the Deck cannot be paid (ygopro-core's
    is_capable_cost_to_grave / is_capable_cost_to_deck read the redirect)."""
    own = [z3.And(t, card == j) for j, _, t in redirecting(ctx, "leave_field_redirect", st)]
    return z3.Or(own) if own else z3.BoolVal(False)


def replaceable_by(ctx, card, other, st):
    """`card`'s "If this card would be destroyed, you can destroy another ... instead" (destroy_replace)
    applies in `st` and its `instead` selector (the continuous slot's selector, seen from its
    controller) picks `other` (both terms): the play's `replace card with other` (D3-7)."""
    facts = card_state(ctx, other, st)
    terms = [z3.And(t, card == j, picks(ctx, ctx.S.ctrl(j), "continuous", s, other, facts, j))
             for j, s, t in redirecting(ctx, "destroy_replace", st)]
    return z3.Or(terms) if terms else z3.BoolVal(False)

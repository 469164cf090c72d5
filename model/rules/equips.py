"""Equip Cards (GEN-20): whether a monster can be equipped, and what the Equip Cards on a monster
give it (extra attacks, an attack restriction, a battle damage modifier). A module of its own
because it builds on effects.py's continuous terms and four rule families read it.
"""
import z3

from ..state import NONE
from .base import once
from .effects import MZ, monster_effects_negated, source_live


def equippable(ctx, card, st):
    """`card` (a term) can be equipped with an Equip Card in `st`: a face-up monster in the Monster
    Zone ("Equip Cards are equipped to a face-up monster on the field"; an Equip Card whose monster
    is no longer one is destroyed: GEN-20)."""
    if isinstance(card, int):
        return z3.And(st.loc[card] == MZ, st.faceup[card])
    return z3.And(ctx.monster_in_zone(card, st), ctx.sel(st.faceup, card, z3.BoolVal(False)))


def equip_grants(ctx, card, st):
    """(extra attacks, the "Tyrant Wing" restriction, a battle damage modifier) that the Equip Cards
    equipped to `card` give it in `st`: an Equip Card's card-level `extra_attacks`,
    `attack_restriction` and `battle_damage_modifier` are its equipped monster's ("it can make up
    to 2 attacks on monsters"; "battle damage you take from battles involving the equipped monster
    is also inflicted to your opponent"), while its effects apply (GEN-18: face-up on the field, not
    negated). Of several modifiers, the first card's (the sources give no order)."""
    return once(ctx, ("equip_grants", card, st.prefix), lambda: _equip_grants(ctx, card, st))


def _equip_grants(ctx, card, st):
    S = ctx.S
    if not ctx.ncards:
        return z3.IntVal(0), z3.BoolVal(False), z3.IntVal(0)
    gate, negated = ctx.grant("continuous_effects"), monster_effects_negated(ctx, st)
    on = [z3.And(gate, st.equip[j] != NONE, st.equip[j] == card, source_live(ctx, j, st, negated)) for j in ctx.cards]
    modifier = z3.IntVal(0)
    for j, t in reversed(list(zip(ctx.cards, on))):
        modifier = z3.If(z3.And(t, S.bd_mod(j) != 0), S.bd_mod(j), modifier)
    return (z3.Sum([z3.If(t, S.extra_attacks(j), 0) for j, t in zip(ctx.cards, on)]),
            z3.Or([z3.And(t, S.tyrant_wing(j)) for j, t in zip(ctx.cards, on)]), modifier)

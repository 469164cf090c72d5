"""The effect model's terms: an atom's value in a state, a condition's alternatives, a target's
filter, the cards a selector picks and the continuous effects that apply (docs/cards-format.md).

An effect's composition is data (the play's facts, checking/facts.py): each atom, cost and
operation has a slot, numbered `effect * slots + k` (vocab.CONDITION_*, MAX_COSTS,
MAX_OPERATIONS), and each card's continuous effects `card * MAX_CONTINUOUS + k`. So one relation
serves every card pool, and the terms below read a slot's fields instead of naming effects.
"""
import z3

from .. import vocab
from ..state import NONE
from .base import once, provided

MZ, STZ, FZ, HAND, GY, DECK = (vocab.L[n] for n in ("monster_zone", "spell_trap_zone", "field_zone", "hand", "graveyard",
                                                   "deck"))
FLIP_SUMMONED = vocab.SUMMONED_THIS_TURN.index("flip")
ATOM_SLOTS = vocab.CONDITION_ALTERNATIVES * vocab.CONDITION_ATOMS
FIELD = (MZ, STZ, FZ)
CHOICE, CHOSEN = vocab.OPERATION_ON.index("choice"), vocab.OPERATION_ON.index("chosen")
MONSTER_KINDS, TRAP_KINDS = vocab.TYPE_KINDS["monster"], vocab.TYPE_KINDS["trap"]


def slot(e, k, n):
    return e * n + k


def subject_card(ctx, eff, of, st, target):
    """The card an atom's card subject names (vocab.CARD_SUBJECTS); `target` is the effect's
    chosen target at this point (the action's when activating, the Chain Link's on resolution)."""
    S = ctx.S
    c = S.inst(eff)
    opponent = z3.If(c == st.attacker, st.target, z3.If(c == st.target, st.attacker, z3.IntVal(NONE)))
    mine = S.ctrl(st.attacker) == S.ctrl(c)
    cards = {"self": c, "attacker": z3.If(st.attacking, st.attacker, NONE),
             "attack_target": z3.If(st.attacking, st.target, NONE), "target": target,
             "battle_opponent": z3.If(st.attacking, opponent, NONE),
             "own_battling": z3.If(st.attacking, z3.If(mine, st.attacker, st.target), NONE),
             "opponent_battling": z3.If(st.attacking, z3.If(mine, st.target, st.attacker), NONE),
             # the monster this Equip Card is equipped to (NONE while it is not: GEN-20 keeps it so)
             "equipped": ctx.sel(st.equip, c, z3.IntVal(NONE))}
    out = z3.IntVal(NONE)
    for name, card in cards.items():
        out = z3.If(of == vocab.SJ[name], card, out)
    return out


def card_values(ctx, c, st, me):
    """The card quantities (vocab.CARD_QUANTITIES) of card `c` in `st`, seen from player `me`;
    `c` a term, or a card index (a target filter read for each card: watched_target), which
    reads that card's fields without an If-chain over the cards."""
    S = ctx.S
    if isinstance(c, int):
        def sel(values, _, default=None):
            return values[c]
        c_t, known = z3.IntVal(c), True
    else:
        sel, c_t, known = ctx.sel, c, False

    def b(t):
        return z3.If(t, 1, 0)
    there = z3.BoolVal(True) if known else c_t != NONE
    return {
        "location": sel(st.loc, c_t, z3.IntVal(0)), "face_up": b(sel(st.faceup, c_t, z3.BoolVal(False))),
        "defense_position": b(sel(st.defpos, c_t, z3.BoolVal(False))), "atk": sel(st.atk, c_t, z3.IntVal(0)),
        "def": sel(st.def_, c_t, z3.IntVal(0)), "level": S.level(c_t), "attribute": S.attribute(c_t),
        "monster_type": S.monster_type(c_t), "archetype": S.archetype(c_t), "name": S.name_id(c_t),
        "card_type": z3.If(S.ckind(c_t) < len(vocab.SUBTYPES["monster"]), 0,
                           z3.If(S.ckind(c_t) < len(vocab.SUBTYPES["monster"]) + len(vocab.SUBTYPES["spell"]), 1, 2)),
        "original_atk": S.orig_atk(c_t), "original_def": S.orig_def(c_t), "yours": b(S.ctrl(c_t) == me),
        "battling": b(z3.And(st.attacking, there, z3.Or(c_t == st.attacker, c_t == st.target))),
        "attacking": b(z3.And(st.attacking, there, c_t == st.attacker)),
        "attacked": b(z3.And(st.attacking, there, c_t == st.target)),
        # a card that leaves the field is a new card: the flag is about the monster still there
        "special_summoned": b(z3.And(sel(st.ssum, c_t, z3.BoolVal(False)), sel(st.loc, c_t, z3.IntVal(0)) == MZ)),
        "summoned_this_turn": b(z3.And(sel(st.sumt, c_t, z3.IntVal(0)) != 0, sel(st.loc, c_t, z3.IntVal(0)) == MZ)),
        "flip_summoned_this_turn": b(z3.And(sel(st.sumt, c_t, z3.IntVal(0)) == FLIP_SUMMONED,
                                            sel(st.loc, c_t, z3.IntVal(0)) == MZ)),
        "card_kind": S.ckind(c_t),   # a vocab.CARD_KINDS index ("monster:synchro")
        # determined destroyed by the battle going on (AB-1's mark, until the battle ends: GEN-3)
        "destroyed_by_battle": b(sel(st.dbb, c_t, z3.BoolVal(False))),
        "counters": counters_on(ctx, c, st),
    }


def counters_on(ctx, c, st):
    """The counters on card `c` (an index or a term) in `st`: a card has counters only while it is
    face-up on the field (they are removed when it leaves the field or is turned face-down; a
    card that comes back is a new card, resolution.py starts it at none)."""
    if isinstance(c, int):
        up, loc, n = st.faceup[c], st.loc[c], st.counters[c]
    else:
        up, loc = ctx.sel(st.faceup, c, z3.BoolVal(False)), ctx.sel(st.loc, c, z3.IntVal(0))
        n = ctx.sel(st.counters, c, z3.IntVal(0))
    return z3.If(z3.And(up, z3.Or([loc == z for z in FIELD])), n, 0)


def times(amount, n):
    """`amount` x `n` (a count of counters or of cards, at most vocab.MAX_COUNTERS), as a sum over
    the binary digits of `n`: the amount is a fact, so a product would make the relation nonlinear
    for the solver."""
    n = z3.If(n > vocab.MAX_COUNTERS, vocab.MAX_COUNTERS, n)
    return z3.Sum([z3.If((n / 2 ** k) % 2 == 1, amount * 2 ** k, 0) for k in range(vocab.COUNTER_BITS)])


def quantity(ctx, eff, q, of, st, target, k=None, pending=False):
    """The value of quantity `q` (an index of vocab.QUANTITIES) of subject `of` in state `st`;
    (value, defined): an atom about a card that is not there is false whatever it compares. `k`:
    the condition atom slot whose selector `selected` counts (None: no selector, it is 0).
    `pending`: `battle_damage_pending` is built (atoms_hold says where), else it is 0."""
    S, sel = ctx.S, ctx.sel
    c = subject_card(ctx, eff, of, st, target)
    me = S.ctrl(S.inst(eff))
    p = z3.If(of == vocab.SJ["you"], me, 1 - me)

    def b(t):
        return z3.If(t, 1, 0)
    values = {
        **card_values(ctx, c, st, me), **player_quantities(ctx, p, st),
        **({"battle_damage_pending": pending_of(ctx, p, st)} if pending else {}),
        "direct_attack": b(z3.And(st.attacking, st.target == NONE)), "chain_length": st.chain_len,
        # the monsters the atom's selector picks, seen from the effect card's controller
        "selected": z3.Sum([b(picks(ctx, me, "cond", k, j, card_state(ctx, j, st), S.inst(eff))) for j in ctx.cards])
        if k is not None and ctx.ncards else z3.IntVal(0),
        # "during the Damage Step only": such effects apply there by D1-2 / T1
        "damage_step": b(z3.And(ctx.ds(st), ctx.grant("damage_step_effects"))),
        "damage_calculation": damage_calculation(ctx, st),
    }
    out = of_quantity(q, values)
    card_q = z3.And(q >= vocab.Q[vocab.CARD_QUANTITIES[0]], q <= vocab.Q[vocab.CARD_QUANTITIES[-1]])
    return out, z3.Or(z3.Not(card_q), c != NONE)


def pending_of(ctx, p, st):
    """The battle damage player `p` (a term) would take from the damage calculation of the battle
    going on in `st` (calc.pending_damage, the calculation's own terms)."""
    mine = provided(ctx, "pending_damage", st)
    return z3.If(p == 0, mine[0], mine[1])


def damage_calculation(ctx, st):
    """1 in the rule set's damage-calculation window, where effects that apply "during damage
    calculation only" apply (D3-4, T4: read as a step begins, so the step that performs damage
    calculation reads it), else 0."""
    return z3.If(z3.And(ctx.win(ctx.ruleset.calc_window, state=st), ctx.grant("bonuses_at_calc")), 1, 0)


def atom_holds(ctx, eff, k, prefix, st, target, pending=False):
    """Slot k of the effect's atoms (functions `<prefix>_quantity` ...) holds in `st`; an empty
    slot (quantity `nothing`) holds. `pending`: as in quantity."""
    F = ctx.S.atoms[prefix]
    q, of, cmp, value = F["quantity"](k), F["of"](k), F["cmp"](k), F["value"](k)
    lhs, defined = quantity(ctx, eff, q, of, st, target, k if prefix == "cond" else None, pending)
    q2 = F["than_quantity"](k)
    rhs2, defined2 = quantity(ctx, eff, q2, F["than_of"](k), st, target, pending=pending)
    rhs = value + z3.If(q2 == 0, 0, rhs2)
    holds = also_attribute(ctx, q, cmp, rhs, subject_card(ctx, eff, of, st, target), st, compare(cmp, lhs, rhs))
    return z3.Or(q == 0, z3.And(defined, z3.Or(q2 == 0, defined2), holds))


def also_attribute(ctx, q, cmp, rhs, card, st, holds):
    """`holds` (an atom compared on `card`'s printed Attribute) for a card that also has another
    (added_attribute): "== DARK" holds if either is DARK, "!= DARK" ("a non-DARK monster") only if
    neither is; other quantities unchanged."""
    extra = added_attribute(ctx, card, st)
    other = compare(cmp, extra, rhs)
    both = z3.If(cmp == vocab.CMP["!="], z3.And(holds, other), z3.Or(holds, other))
    return z3.If(z3.And(q == vocab.Q["attribute"], extra != 0), both, holds)


def of_quantity(q, values: dict):
    """The value of quantity `q` (a vocab.Q index) among `values` (quantity name -> term); 0 for
    one not there."""
    out = z3.IntVal(0)
    for name, v in values.items():
        out = z3.If(q == vocab.Q[name], v, out)
    return out


def compare(cmp, lhs, rhs):
    """`lhs <cmp> rhs` for the comparison `cmp` (a vocab.CMP index)."""
    cases = {"==": lhs == rhs, "!=": lhs != rhs, "<": lhs < rhs, "<=": lhs <= rhs, ">": lhs > rhs,
             ">=": lhs >= rhs}
    out = z3.BoolVal(False)
    for name, t in cases.items():
        out = z3.If(cmp == vocab.CMP[name], t, out)
    return out


def atoms_hold(ctx, eff, st, target, pending=False):
    """The effect's condition atoms (beyond its event) hold: one of its alternatives does.
    `pending`: they may read `battle_damage_pending` (as the effect is activated: GEN-5). A
    watched condition may not (the loader refuses it there): damage calculation reads the
    continuous effects that apply, whose conditions are watched atoms, so the battle damage to come
    would be a term of itself (a cycle)."""
    n = vocab.CONDITION_ATOMS
    alts = []
    for a in range(vocab.CONDITION_ALTERNATIVES):
        alts.append(z3.And(ctx.S.alternatives(eff) > a,
                           *[atom_holds(ctx, eff, slot(eff, a * n + k, ATOM_SLOTS), "cond", st, target, pending)
                             for k in range(n)]))
    return z3.Or(ctx.S.alternatives(eff) == 0, *alts)


def watched_atoms(ctx, k, st):
    """The atoms of the effect watched slot `k` names hold in `st`, with nothing targeted (an
    atom about `target` is false). The relation builds atoms in every state only for its watched
    slots, each naming one effect that needs them there (a mandatory trigger: is it owed? a
    continuous effect: does it apply?): building them for every effect made the compiled step
    functions four to six times larger (docs/performance.md)."""
    return once(ctx, ("watched", k, st.prefix),
                lambda: atoms_hold(ctx, ctx.S.watched(k), st, z3.IntVal(NONE)))


def filter_fits_card(ctx, eff, st, j, prefix="filter", players=None):
    """Card index `j` meets the target filter of effect `eff` (a term) in `st`: target_fits for a
    known card, built from its own fields only. A filter's atoms are about the target, both sides
    (cards/effect_format.parse_target), so only card quantities and the game's (no player's, no
    `selected`) can occur in it. `prefix` "choicef": the filter of the cards it chooses as it
    resolves (GEN-22), whose `than` may be a player's quantity: `players` (player_values) gives them."""
    S = ctx.S
    F = S.atoms[prefix]
    game = game_values(ctx, st)
    vals = {**card_values(ctx, j, st, S.ctrl(S.inst(eff))), **game}
    atoms = []
    for a in range(vocab.TARGET_FILTER_ATOMS):
        k = slot(eff, a, vocab.TARGET_FILTER_ATOMS)
        q, cmp, q2 = F["quantity"](k), F["cmp"](k), F["than_quantity"](k)
        than = vals if players is None else {**vals, **{
            name: z3.If(F["than_of"](k) == vocab.SJ["opponent"], theirs, mine)
            for name, (mine, theirs) in players.items()}}
        lhs, rhs = of_quantity(q, vals), F["value"](k) + z3.If(q2 == 0, 0, of_quantity(q2, than))
        atoms.append(z3.Or(q == 0, also_attribute(ctx, q, cmp, rhs, j, st, compare(cmp, lhs, rhs))))
    return z3.And(atoms)


def game_values(ctx, st):
    """The game's quantities a filter may read in `st`, built once per state."""
    return once(ctx, ("game_values", st.prefix), lambda: {
        "direct_attack": z3.If(z3.And(st.attacking, st.target == NONE), 1, 0), "chain_length": st.chain_len,
        "damage_step": z3.If(z3.And(ctx.ds(st), ctx.grant("damage_step_effects")), 1, 0),
        "damage_calculation": damage_calculation(ctx, st)})


def player_values(ctx, me, st):
    """The player quantities (vocab.PLAYER_QUANTITIES) of player `me` and of the opponent in `st`:
    name -> (theirs for `you`, theirs for `opponent`)."""
    def of(p):   # a choice's filter is read as the effect resolves: it may read the damage to come
        return {**player_quantities(ctx, p, st), "battle_damage_pending": pending_of(ctx, p, st)}
    mine, theirs = of(me), of(1 - me)
    return {name: (mine[name], theirs[name]) for name in mine}


def player_quantities(ctx, p, st):
    """The player quantities (vocab.PLAYER_QUANTITIES) of player `p` (a term) in `st`."""
    S, sel = ctx.S, ctx.sel

    def count(where):
        return z3.Sum([z3.If(z3.And(where(j), S.ctrl(j) == p), 1, 0) for j in ctx.cards] or [z3.IntVal(0)])
    return {"lp": sel(st.lp, p), "battle_damage": sel(st.bd, p), "turn": z3.If(S.tp == p, 1, 0),
            "monsters": count(lambda j: st.loc[j] == MZ),
            "cards": count(lambda j: z3.Or([st.loc[j] == z for z in FIELD])),
            "hand": count(lambda j: st.loc[j] == HAND)}


def watched_target(ctx, k, st):
    """Some card can be the target of the effect watched slot `k` names in `st` (true for an
    effect that targets nothing): it meets the effect's filter (GEN-17) and is not a monster
    determined destroyed by battle still on the field (AB-1: it cannot be targeted), nor one that
    cannot be Special Summoned if the effect must Special Summon it (GEN-19). A mandatory
    effect that targets cannot be activated without a target, so it is owed only then
    (activation.places_trigger; docs/interpretations.md). Read only in watched slots, like
    watched_atoms, and only the filter: for an effect whose text leaves it no choice of target
    (`target.implied`) this asks whether any card fits, not whether that one does."""
    def build():
        S = ctx.S
        eff = S.watched(k)
        if not ctx.ncards:
            return z3.Not(S.targets(eff))
        untargetable = ctx.grant("battle_destroyed_untargetable")   # AB-1
        marked = [z3.And(untargetable, st.dbb[j], st.loc[j] == MZ) for j in ctx.cards]
        # nor, for an effect that must Special Summon its target, one that cannot be (GEN-19)
        summons = summons_named(ctx, eff)
        some = z3.Or([z3.And(filter_fits_card(ctx, eff, st, j), z3.Not(marked[j]),
                             z3.Not(z3.And(summons, unsummonable(ctx, j)))) for j in ctx.cards])
        return z3.Or(z3.Not(S.targets(eff)), some)
    return once(ctx, ("watched_target", k, st.prefix), build)


def target_fits(ctx, eff, st, target, prefix="filter"):
    """The target meets the effect's filter in `st` (GEN-17); true for an effect without one.
    `prefix` "filter2": the filter of its second target."""
    n = vocab.TARGET_FILTER_ATOMS
    return z3.And([atom_holds(ctx, eff, slot(eff, k, n), prefix, st, target) for k in range(n)])


def card_state(ctx, card, st):
    """(face-up, in Defense Position, in the Monster Zone, controller, a Spell/Trap Card on the field
    (its Spell & Trap Zone or Field Zone), Special Summoned, its location (vocab.L; 0 for no card),
    Summoned this turn, the Attribute it also has) of `card` in `st`, read once however many
    selectors ask."""
    S = ctx.S
    spell_trap = z3.Not(ctx.kind_is_card(card, *MONSTER_KINDS))
    if isinstance(card, int):
        return (st.faceup[card], st.defpos[card], st.loc[card] == MZ, S.ctrl(card),
                z3.And(spell_trap, z3.Or(st.loc[card] == STZ, st.loc[card] == FZ)), st.ssum[card], st.loc[card],
                st.sumt[card] != 0, added_attribute(ctx, card, st))
    loc = ctx.sel(st.loc, card, z3.IntVal(0))
    return (ctx.sel(st.faceup, card, z3.BoolVal(False)), ctx.sel(st.defpos, card, z3.BoolVal(False)),
            ctx.monster_in_zone(card, st), S.ctrl(card),
            z3.And(card != NONE, spell_trap, z3.Or(loc == STZ, loc == FZ)), ctx.sel(st.ssum, card, z3.BoolVal(False)),
            loc, ctx.sel(st.sumt, card, z3.IntVal(0)) != 0, added_attribute(ctx, card, st))


def picks(ctx, owner, prefix, s, card, facts, source):
    """Selector slot `s` (functions `<prefix>_side` ...) of card `source`, controlled by `owner`,
    picks `card`, whose state is `facts`: a monster in the Monster Zone (or, for `cards:
    spells_traps`, a Spell or Trap Card in the Spell & Trap Zone or Field Zone) on that side, in
    that position (face-up or face-down), of that Attribute (or not of `not_attribute`), Type,
    Level range, archetype, name, card kind and card type (0: any; "Normal Monster"; "monster"; a card that also has
    another Attribute, added_attribute, is of either), Special Summoned or Summoned this turn if the selector
    says so, and not `source` itself if the selector says `other` ("another monster"), nor any card
    of `source`'s name if it says `other: "name"` ("except \"Machina Sniper\""). The loader keeps a
    Spell/Trap selector to the filters a Spell or Trap can meet (no battle position, Attribute,
    Type, Level or Summon)."""
    S = ctx.S
    F = S.select[prefix]
    up, dpos, in_mz, ctrl, in_st, ssum, loc, sumt, also = facts
    side, filt = F["side"](s), F["filter"](s)
    sides = {"both": z3.BoolVal(True), "yours": ctrl == owner, "opponent": ctrl != owner}
    filters = {"any": z3.BoolVal(True), "attack_position": z3.Not(dpos), "defense_position": dpos,
               "face_up": up, "face_down": z3.Not(up)}
    side_ok = z3.Or([z3.And(side == vocab.SELECT_SIDES.index(n), t) for n, t in sides.items()])
    filt_ok = z3.Or([z3.And(filt == vocab.SELECT_FILTERS.index(n), t) for n, t in filters.items()])
    printed = z3.And(z3.Or(F["attribute"](s) == 0, F["attribute"](s) == S.attribute(card), F["attribute"](s) == also),
                     z3.Or(F["monster_type"](s) == 0, F["monster_type"](s) == S.monster_type(card)),
                     S.level(card) >= F["level_min"](s), S.level(card) <= F["level_max"](s),
                     z3.Or(F["archetype"](s) == 0, F["archetype"](s) == S.archetype(card)),
                     z3.Or(F["special_summoned"](s) == 0, ssum),
                     z3.Or(F["summoned_this_turn"](s) == 0, sumt),
                     z3.Or(F["name"](s) == 0, F["name"](s) == S.name_id(card)),
                     z3.Or(F["not_attribute"](s) == 0,
                           z3.And(F["not_attribute"](s) != S.attribute(card), F["not_attribute"](s) != also)),
                     z3.Or(F["card_kind"](s) == 0, F["card_kind"](s) == S.ckind(card) + 1),   # 1 + vocab.K
                     z3.Or(F["card_type"](s) == 0,   # 1 + a vocab.CARD_TYPES index
                           *[z3.And(F["card_type"](s) == t + 1, ctx.kind_is_card(card, *vocab.TYPE_KINDS[name]))
                             for t, name in enumerate(vocab.CARD_TYPES)]))
    other = F["other"](s)
    not_source = z3.Or(other == 0, z3.And(card != source, z3.Or(other == vocab.SELECT_OTHER.index(True),
                                                                  S.name_id(card) != S.name_id(source))))
    # a continuous effect picks monsters only (the loader refuses a Spell/Trap selector there), so
    # its terms need not read the Spell & Trap Zone
    cards = F["cards"](s)
    where = in_mz if prefix == "continuous" else \
        z3.If(cards == vocab.SELECT_CARDS.index("spells_traps"), in_st,
              z3.If(cards == vocab.SELECT_CARDS.index("graveyard"), loc == GY,
                    z3.If(cards == vocab.SELECT_CARDS.index("deck"), loc == DECK, in_mz)))
    return z3.And(where, side_ok, filt_ok, printed, not_source)


# --- continuous effects (GEN-18) -----------------------------------------------------------------
def source_live(ctx, j, st, negated=None):
    """Card j's continuous effects apply: it is face-up on the field (a Set card waits to be
    activated: S1 65-78), and, if it is a monster in the Monster Zone, no "negate the effects of
    face-up monsters" applies, and if it is a Trap, no "negate all Trap effects on the field".
    `negated`: monster_effects_negated(ctx, st), when already built."""
    negated = monster_effects_negated(ctx, st) if negated is None else negated
    return z3.And(st.faceup[j], z3.Or([st.loc[j] == z for z in FIELD]), z3.Not(flip_waits(ctx, j, st)),
                  z3.Not(effects_negated(ctx, j, st, negated)))


def flip_waits(ctx, j, st):
    """Card j was flipped face-up by the attack and its Continuous Effects do not apply yet: they
    apply at once where the rule set grants it (D2-2, T2)."""
    return z3.And(st.flipped[j], z3.Not(ctx.grant("flipped_continuous_apply")))


def effects_negated(ctx, j, st, drained=None):
    """Card j (an index or a term), face-up on the field, has its effects negated: a monster in
    the Monster Zone by a "negate the effects of face-up monsters" that reaches its controller's
    side (`drained`: monster_effects_negated, when built), a Trap by a "negate all Trap effects
    on the field"."""
    drained = monster_effects_negated(ctx, st) if drained is None else drained
    loc = st.loc[j] if isinstance(j, int) else ctx.sel(st.loc, j, z3.IntVal(0))
    veiled = battle_opponent_negated(ctx, st)
    veiled = veiled[j] if isinstance(j, int) else ctx.sel(veiled, j, z3.BoolVal(False))
    monster = z3.And(ctx.kind_is_card(j, *MONSTER_KINDS), loc == MZ, z3.Or(side_negated(ctx, j, drained), veiled))
    trap = z3.And(ctx.kind_is_card(j, *TRAP_KINDS), trap_effects_negated(ctx, st))
    return z3.Or(monster, trap)


def battle_opponent_negated(ctx, st):
    """For each card: it is the monster battling a monster that a face-up Equip Card with
    negate_battle_opponent is equipped to ("Rainbow Veil"), so its effects are negated. The Equip
    Card is a Spell or Trap (cards/catalogue.py), whose effects no negation of monsters reaches."""
    def build():
        gate = ctx.grant("continuous_effects")
        veils = [z3.And(has_continuous(ctx, e, "negate_battle_opponent"), st.faceup[e],
                        z3.Or([st.loc[e] == z for z in FIELD]), st.equip[e] != NONE) for e in ctx.cards]
        return [z3.And(gate, st.attacking, z3.Or([z3.And(v, z3.Or(z3.And(st.attacker == st.equip[e], st.target == j),
                                                                 z3.And(st.target == st.equip[e], st.attacker == j)))
                                                  for e, v in zip(ctx.cards, veils)] or [z3.BoolVal(False)]))
                for j in ctx.cards]
    return once(ctx, ("veiled", st.prefix), build)


def side_negated(ctx, j, drained):
    """The effects of face-up monsters card j's controller controls are negated (`drained`:
    monster_effects_negated, one term per player)."""
    return z3.If(ctx.S.ctrl(j) == 0, drained[0], drained[1])


def added_attribute(ctx, card, st):
    """The Attribute `card` (an index or a term) also has in `st`, a vocab.ATTRIBUTES index (0:
    none): its own add_attribute applies ("While this card is face-up on the field its Attribute is
    also treated as DARK", Light and Darkness Dragon): face-up on the field, its effects not negated. It has no
    condition (the loader refuses one), so it never reads a condition's atoms, which may read an
    Attribute."""
    def build():
        S, negated, gate = ctx.S, monster_effects_negated(ctx, st), ctx.grant("continuous_effects")
        out = []
        for j in ctx.cards:
            live, v = source_live(ctx, j, st, negated), z3.IntVal(0)
            for k in range(vocab.MAX_CONTINUOUS):
                s = slot(j, k, vocab.MAX_CONTINUOUS)
                v = z3.If(z3.And(gate, S.cont(s) == vocab.CN["add_attribute"], live), S.cont_attribute(s), v)
            out.append(v)
        return out
    per_card = once(ctx, ("added_attribute", st.prefix), build)
    return per_card[card] if isinstance(card, int) else ctx.sel(per_card, card, z3.IntVal(0))


def applying(ctx, kind, st):
    """(card j, slot s, term) for each continuous slot: card j's slot s is `kind` and applies in `st`."""
    return once(ctx, ("applying", kind, st.prefix), lambda: _applying(ctx, kind, st))


def locks_player(ctx, kind, player, st):
    """A lock of `kind` (vocab.LOCKS) applies in `st` and names `player` (a term): both players,
    or its controller's opponent (a lock's side is the player it refuses)."""
    held = [once(ctx, ("locks", kind, p, st.prefix), lambda p=p: _locks(ctx, kind, p, st)) for p in (0, 1)]
    return z3.If(player == 0, held[0], held[1])


def _locks(ctx, kind, player: int, st):
    S = ctx.S
    side = S.select["continuous"]["side"]
    opponent = vocab.SELECT_SIDES.index("opponent")
    return z3.Or([z3.And(t, z3.Or(side(s) != opponent, S.ctrl(j) != player))
                  for j, s, t in applying(ctx, kind, st)] or [z3.BoolVal(False)])


def must_special_summon(ctx, eff):
    """Effect `eff` Special Summons as its text's whole answer: an operation of it does, and is
    neither a `then` one ("then you can Special Summon") nor on cards it may choose none of ("you
    can": a `choose` of min 0). The engine does not activate such an effect when the Summon cannot
    be made (the scripts' activation checks: IsCanBeSpecialSummoned of the target or of a card to
    choose); an effect that Summons only as a follow-up is activated and Summons nothing."""
    S = ctx.S
    slots = [slot(eff, k, vocab.MAX_OPERATIONS) for k in range(vocab.MAX_OPERATIONS)]
    return z3.Or([z3.And(S.op(s) == vocab.OP["special_summon"], z3.Not(S.op_then(s)),
                         z3.Or(S.op_on(s) != vocab.OPERATION_ON.index("choice"), S.choose_min(eff) > 0))
                  for s in slots])


def summon_barred(ctx, eff, st):
    """Effect `eff` is not activated in `st` (GEN-19): it must Special Summon, a Summon lock names
    its controller, and it is not mandatory. A mandatory trigger is still activated and Summons
    nothing, as the engine does for one whose activation check asks nothing ("Miracle Flipper":
    `if chk==0 then return true end`)."""
    S = ctx.S
    return z3.And(z3.Not(S.mandatory(eff)), must_special_summon(ctx, eff),
                  locks_player(ctx, "lock_special_summon", S.ctrl(S.inst(eff)), st))


def banish_barred(ctx, player, card, st):
    """`player` cannot banish `card` in `st`: it is in a Graveyard and a "cannot banish cards from
    either GY" lock (GEN-19, Kycoo the Ghost Destroyer) names that player."""
    at = st.loc[card] if isinstance(card, int) else ctx.sel(st.loc, card, z3.IntVal(0))
    return z3.And(at == GY, locks_player(ctx, "lock_graveyard_banish", player, st))


def on_named(ctx, eff, k):
    """Operation slot k of effect `eff` is on the card its activation fixes (chain.resolution_target:
    its target, the card the play names for a `chosen` operation, or the first operation's
    subject): the first operation, or a later one on `chosen` or on the first one's subject
    (resolution.op_card); never one on cards chosen as it resolves (`choice`)."""
    S = ctx.S
    s, s0 = slot(eff, k, vocab.MAX_OPERATIONS), slot(eff, 0, vocab.MAX_OPERATIONS)
    return z3.And(S.op_on(s) != CHOICE, z3.Or(k == 0, S.op_on(s) == CHOSEN, S.op_on(s) == S.op_on(s0)))


def summons_named(ctx, eff):
    """Effect `eff` must Special Summon the card its activation fixes ("Special Summon that
    target"): an operation on that card Special Summons and is not a `then` one."""
    S = ctx.S
    return z3.Or([z3.And(S.op(slot(eff, k, vocab.MAX_OPERATIONS)) == vocab.OP["special_summon"],
                         z3.Not(S.op_then(slot(eff, k, vocab.MAX_OPERATIONS))), on_named(ctx, eff, k))
                  for k in range(vocab.MAX_OPERATIONS)])


def unsummonable(ctx, card):
    """`card` (a card index, or a term: NONE for none) has the Summoning condition "Cannot be
    Special Summoned" (vocab.SUMMONING_CONDITIONS). A Summoning condition is not an effect: it is
    read wherever the card is, face-up or face-down, and no negation stops it (unlike `applying`'s
    continuous effects)."""
    return z3.And(card != NONE, ctx.S.no_special_summon(card))


def _applying(ctx, kind, st):
    S = ctx.S
    negated = monster_effects_negated(ctx, st)
    gate = ctx.grant("continuous_effects")   # GEN-18
    out = []
    for j in ctx.cards:
        live = source_live(ctx, j, st, negated)
        for k in range(vocab.MAX_CONTINUOUS):
            s = slot(j, k, vocab.MAX_CONTINUOUS)
            out.append((j, s, z3.And(gate, S.cont(s) == vocab.CN[kind], live, continuous_condition(ctx, s))))
    return out


def continuous_condition(ctx, s, st=None):
    """Continuous slot s's condition holds ("If this card attacks, it gains 500 ATK during the
    Damage Step only"): fact `continuous_watch` names its watched slot (0: no condition). It is
    read in the state before the step, also where the effect is read in the state after it: damage
    calculation computes the battle damage from the stats after the step, and a condition read
    there could depend on that damage (a cycle the compiled relation refuses). A self-destruction
    reads it in `ctx.mid` (`st`), the state the step's other updates leave (continuous.py)."""
    w = ctx.S.cont_watch(s)
    st = ctx.pre if st is None else st
    return z3.And([z3.Implies(w == k + 1, watched_atoms(ctx, k, st)) for k in range(ctx.nwatched)] +
                  [z3.Or(w == 0, w <= ctx.nwatched)])


def monster_effects_negated(ctx, st):
    """For each player (0, 1): the effects of the face-up monsters that player controls are
    negated in `st`. By a "negate the effects of face-up monsters" (Skill Drain) whose Spell or
    Trap card is face-up on the field, both sides; or by a "negate the effects of face-up monsters
    while your opponent controls them" (Destiny HERO - Plasma) of the other player's face-up
    monster in the Monster Zone whose own effects Skill Drain does not negate. Read in that order,
    as Jinzo's is (docs/interpretations.md, "Jinzo and Skill Drain"): a Plasma's own effect is not
    negated by the other player's Plasma."""
    return once(ctx, ("drained", st.prefix), lambda: _monster_effects_negated(ctx, st))


def _monster_effects_negated(ctx, st):
    gate = ctx.grant("continuous_effects")
    drained = z3.And(gate, z3.Or([z3.And(has_continuous(ctx, j, "negate_monster_effects"), st.faceup[j],
                                         z3.Or([st.loc[j] == z for z in FIELD]), z3.Not(ctx.kind_is_card(j, *MONSTER_KINDS)))
                                  for j in ctx.cards] or [z3.BoolVal(False)]))
    # a monster's, over its opponent's side (the card list says a monster: cards/catalogue.py)
    plasmas = [(j, z3.And(has_continuous(ctx, j, "negate_opponent_monster_effects"), monster_live(ctx, j, st)))
               for j in ctx.cards]
    return tuple(z3.Or(drained, z3.And(gate, z3.Or([z3.And(on, ctx.S.ctrl(j) != p) for j, on in plasmas]
                                                   or [z3.BoolVal(False)]))) for p in (0, 1))


def has_continuous(ctx, j, kind):
    """One of card j's continuous slots is `kind`."""
    return z3.Or([ctx.S.cont(slot(j, k, vocab.MAX_CONTINUOUS)) == vocab.CN[kind] for k in range(vocab.MAX_CONTINUOUS)])


def monster_live(ctx, j, st):
    """Card j is a face-up monster in the Monster Zone whose Continuous Effects apply (not flipped
    by the attack where they wait: flip_waits), before any negation is read."""
    return z3.And(st.faceup[j], st.loc[j] == MZ, ctx.kind_is_card(j, *MONSTER_KINDS), z3.Not(flip_waits(ctx, j, st)))


def trap_effects_negated(ctx, st):
    """A monster's "Negate all Trap effects on the field" (Jinzo) applies: it is face-up in the
    Monster Zone and its own effects are not negated. A "negate the effects of face-up monsters"
    (Skill Drain, a Trap) negates Jinzo's and is not negated by it (docs/interpretations.md)."""
    return once(ctx, ("trap_negated", st.prefix), lambda: _trap_effects_negated(ctx, st))


def _trap_effects_negated(ctx, st):
    drained = monster_effects_negated(ctx, st)
    return z3.And(ctx.grant("continuous_effects"),
                  z3.Or([z3.And(has_continuous(ctx, j, "negate_trap_effects"), monster_live(ctx, j, st),
                                z3.Not(side_negated(ctx, j, drained))) for j in ctx.cards] or [z3.BoolVal(False)]))


def continuous_on(ctx, j, s, card, facts, st):
    """Continuous slot s of card j applies to `card` in `st` (itself, every monster it selects, or
    the monster it is equipped to: "The equipped monster gains 500 ATK")."""
    S = ctx.S
    every = z3.And(S.cont_on(s) == vocab.CONTINUOUS_ON.index("all"), picks(ctx, S.ctrl(j), "continuous", s, card, facts, j))
    equipped = z3.And(S.cont_on(s) == vocab.CONTINUOUS_ON.index("equipped"), st.equip[j] != NONE, card == st.equip[j])
    return z3.Or(z3.And(S.cont_on(s) == 0, card == j), every, equipped)


def continuous_applies(ctx, kind, card, st):
    """A continuous effect of `kind` applies to `card` in `st`."""
    facts = card_state(ctx, card, st)
    return z3.Or([z3.And(t, continuous_on(ctx, j, s, card, facts, st)) for j, s, t in applying(ctx, kind, st)] or
                 [z3.BoolVal(False)])


def player_protected(ctx, kind, player, st):
    """A continuous effect of `kind` of a card `player` controls applies to this battle: the card
    is battling ("you take no battle damage from battles involving this card")."""
    return z3.Or([z3.And(t, ctx.S.ctrl(j) == player, z3.Or(st.attacker == j, st.target == j))
                  for j, _, t in applying(ctx, kind, st)] or [z3.BoolVal(False)])


def counter_instead(ctx, card, st):
    """(applies, how many): a "remove N counters instead" of `card`'s own applies in `st` and it
    has the N counters it needs ("If this card would be destroyed by battle, remove 1 counter
    from this card instead", Des Mosquito): then it is not destroyed by battle (calc.py). The
    counters are read as the step begins: damage calculation reads the state after the step's
    resolution, and the counters after it depend on this (GEN-18 removes them)."""
    ok, amount = z3.BoolVal(False), z3.IntVal(0)
    for j, s, t in applying(ctx, "remove_counter_instead", st):
        n = ctx.S.cont_amount(s)
        here = z3.And(t, card == j, counters_on(ctx, j, ctx.pre) >= n)
        ok, amount = z3.Or(ok, here), z3.If(here, n, amount)
    return ok, amount


def activation_pending(ctx, j, st):
    """Card j's activation is on the Chain in `st`, not yet resolved: a Continuous Spell/Trap's
    effect applies once it resolves ("Final Attack Orders" changes the monsters' positions then)."""
    S = ctx.S
    return once(ctx, ("activation_pending", j, st.prefix), lambda: z3.Or(
        [z3.And(st.chain_len > k, S.inst(st.link_eff[k]) == j, ctx.ekind_is(st.link_eff[k], "activation"))
         for k in range(vocab.MAX_CHAIN)]))


def position_locks(ctx, card, st):
    """(to Attack Position, to Defense Position, cannot be changed): the position_lock effects
    that apply to `card` in `st` ("Change all face-up Level 4 or higher monsters to Defense
    Position"; "... and their battle positions cannot be changed")."""
    return once(ctx, ("position_locks", card, st.prefix), lambda: _position_locks(ctx, card, st))


def _position_locks(ctx, card, st):
    S = ctx.S
    facts = card_state(ctx, card, st)
    out = ([], [], [])
    for j, s, t in applying(ctx, "position_lock", st):
        on = z3.And(t, z3.Not(activation_pending(ctx, j, st)), continuous_on(ctx, j, s, card, facts, st))
        out[0].append(z3.And(on, S.cont_position(s) == vocab.POSITIONS.index("attack")))
        out[1].append(z3.And(on, S.cont_position(s) == vocab.POSITIONS.index("defense")))
        out[2].append(z3.And(on, S.cont_fixed(s) == 1))
    return tuple(z3.Or(ts) if ts else z3.BoolVal(False) for ts in out)

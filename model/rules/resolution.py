"""What a Chain Link does when it resolves (GEN-15, GEN-17), and where activated cards go (GEN-14).

A resolving effect applies its operations (vocab.OPERATIONS) in order, each on its card, the
Chain Link's target or every monster its selector picks (model/rules/effects.py); an operation
marked `then` applies only if the one before it did.
"""
import z3

from .. import vocab
from ..state import CALC_DONE, CALC_PENDING, NONE
from .base import Update, once, part, rule
from .chain import resolution_target
from .effects import (
    FIELD,
    banish_barred,
    card_state,
    continuous_applies,
    counters_on,
    effects_negated,
    filter_fits_card,
    locks_player,
    on_named,
    picks,
    player_quantities,
    player_values,
    position_locks,
    slot,
    target_fits,
    times,
    unsummonable,
)
from .equips import equippable
from .stats import battle_difference

# after the rule sets' own updates that override a result (AB-1, D2-5: calc, ocg), before the
# triggers that read it (triggers.py)
PRIORITY = 60

MZ, GY, BAN = vocab.L["monster_zone"], vocab.L["graveyard"], vocab.L["banished"]
STZ, FZ, HAND, DECK = vocab.L["spell_trap_zone"], vocab.L["field_zone"], vocab.L["hand"], vocab.L["deck"]
OPS = vocab.MAX_OPERATIONS
MOVES = {"banish": BAN, "to_hand": HAND, "to_deck": DECK, "to_graveyard": GY}
CHOICE = vocab.OPERATION_ON.index("choice")
MARKED, DESTROYED = vocab.DOOMED.index("marked"), vocab.DOOMED.index("destroyed")
LASTING_BD = {n: vocab.BATTLE_DAMAGE_CHANGES.index(n) for n in vocab.BATTLE_DAMAGE_CHANGES[1:]}


def live_link(ctx):
    return once(ctx, ("live_link",), lambda: _live_link(ctx))


def _live_link(ctx):
    """This step resolves a Chain Link that is not negated, and whose effect is not negated by a
    "negate the effects of face-up monsters" (its monster still face-up in the Monster Zone) or a
    "negate all Trap effects on the field" (its Trap still face-up on the field)."""
    pre, S = ctx.pre, ctx.S
    top_negated = ctx.link(pre.link_negated, pre.chain_len - 1)
    c = S.inst(ctx.top_eff)
    loc = ctx.sel(pre.loc, c, z3.IntVal(0))
    on_field = z3.And(ctx.sel(pre.faceup, c, z3.BoolVal(False)), z3.Or([loc == z for z in FIELD]))
    drained = z3.And(on_field, effects_negated(ctx, c, pre))
    return z3.And(ctx.is_("resolve_link"), pre.chain_len > 0, z3.Not(top_negated), z3.Not(drained))


def op_slot(ctx, k):
    return slot(ctx.top_eff, k, OPS)


def applies(ctx, op, k=None):
    """This step resolves a live link one of whose operations (slot `k`, or any) is `op`, and
    that operation applies (a `then` operation only if the one before it did)."""
    slots = range(OPS) if k is None else (k,)
    return once(ctx, ("applies", op, k), lambda: z3.Or([z3.And(applied(ctx, j), ctx.S.op(op_slot(ctx, j)) == vocab.OP[op]) for j in slots]))


def applied(ctx, k):
    return once(ctx, ("applied", k), lambda: _applied(ctx, k))


def _applied(ctx, k):
    """Operation slot k of the resolving link applies: a `then` one only if the one before it did,
    an `otherwise` one ("or if you cannot") only if the one before it could not, and a `both` one
    and the one before it only if each can be done ("banish both it and this card": the script of
    "Galaxy-Eyes Photon Dragon" banishes neither unless both are still there)."""
    S = ctx.S
    s = op_slot(ctx, k)
    # a Special Summon by a player under "cannot Special Summon" (GEN-19's lock) does not happen:
    # the card stays where it is, its "when Summoned" trigger has no event, and a `then` waits in vain
    locked = z3.And(S.op(s) == vocab.OP["special_summon"],
                    locks_player(ctx, "lock_special_summon", S.ctrl(S.inst(ctx.top_eff)), ctx.pre))
    here = z3.And(live_link(ctx), S.op(s) != 0, z3.Not(locked))
    if k + 1 < OPS:   # the next one is `both`: this one waits for its card too (an empty slot has no facts)
        nxt = op_slot(ctx, k + 1)
        here = z3.And(here, z3.Or(S.op(nxt) == 0, z3.Not(S.op_both(nxt)), valid(ctx, k + 1)))
    if k == 0:
        return here
    did = z3.And(applied(ctx, k - 1), valid(ctx, k - 1))
    return z3.And(here, z3.Or(z3.Not(S.op_then(s)), did), z3.Or(z3.Not(S.op_both(s)), did),
                  z3.Or(z3.Not(S.op_otherwise(s)), z3.And(applied(ctx, k - 1), z3.Not(valid(ctx, k - 1)))))


def op_card(ctx, k):
    return once(ctx, ("op_card", k), lambda: _op_card(ctx, k))


def _op_card(ctx, k):
    """The one card operation slot k is on: the card the play chooses as the link resolves for
    `choice` (its first one, GEN-22); the Chain Link's target (fixed when it was activated: CH-1)
    for the first operation and for `chosen`; else the card the subject names now."""
    S, pre = ctx.S, ctx.pre
    s = op_slot(ctx, k)
    t = ctx.top_target()
    if k == 0:
        return z3.If(S.op_on(s) == CHOICE, ctx.act.choice, t)
    player = ctx.link(pre.link_player, pre.chain_len - 1)
    own = z3.If(S.ctrl(pre.attacker) == player, pre.attacker, pre.target)
    opp = z3.If(S.ctrl(pre.attacker) == player, pre.target, pre.attacker)
    cards = {"self": S.inst(ctx.top_eff), "chosen": t, "attacker": pre.attacker, "attack_target": pre.target,
             "own_battling": own, "opponent_battling": opp}
    out = z3.IntVal(NONE)
    for name, c in cards.items():
        out = z3.If(S.op_on(s) == vocab.OPERATION_ON.index(name), c, out)
    return z3.If(S.op_on(s) == CHOICE, ctx.act.choice, z3.If(S.op_on(s) == S.op_on(op_slot(ctx, 0)), t, out))


def target_still_fits(ctx, second=False):
    return once(ctx, ("target_still_fits", second), lambda: _target_still_fits(ctx, second))


def _target_still_fits(ctx, second):
    """GEN-17: the Chain Link's chosen target (`second`: its second target) is still where it was
    when it was targeted, and still meets the effect's filter for it."""
    pre = ctx.pre
    t = ctx.top_target2() if second else ctx.top_target()
    where = ctx.link(pre.link_tloc2 if second else pre.link_tloc, pre.chain_len - 1)
    return z3.And(t != NONE, ctx.sel(pre.loc, t, z3.IntVal(0)) == where,
                  target_fits(ctx, ctx.top_eff, pre, t, "filter2" if second else "filter"))


def uses_target(ctx, k):
    """Operation slot k of the resolving link is on what its effect targets."""
    return z3.And(ctx.S.targets(ctx.top_eff), on_named(ctx, ctx.top_eff, k))


def valid(ctx, k):
    """What operation slot k is on is there for it: its card (a targeting effect's target still
    fits), or its second target (valid_second)."""
    return once(ctx, ("valid", k), lambda: z3.Or(valid_first(ctx, k), valid_second(ctx, k)))


def valid_first(ctx, k):
    return once(ctx, ("valid_first", k), lambda: _valid_first(ctx, k))


def _valid_first(ctx, k):
    S = ctx.S
    s = op_slot(ctx, k)
    fits = z3.Or(z3.Not(uses_target(ctx, k)), z3.Not(ctx.lit("GEN-17")), target_still_fits(ctx))
    one = S.op_on(s) != vocab.OPERATION_ON.index("all")
    # "remove N counters" from one card that has fewer cannot be done (an `otherwise` one applies)
    removable = z3.Or(z3.Not(one), S.op(s) != vocab.OP["remove_counter"],
                      counters_on(ctx, op_card(ctx, k), ctx.pre) >= S.op_amount(s))
    # nor can a card whose Summoning condition says it cannot be Special Summoned (a `then` after waits in vain)
    summonable = z3.Or(z3.Not(one), S.op(s) != vocab.OP["special_summon"], z3.Not(unsummonable(ctx, op_card(ctx, k))))
    # nor can banish_until_bp_end on a card that has left the Monster Zone ("banish both": a `then` after waits)
    there = z3.Or(z3.Not(one), S.op(s) != vocab.OP["banish_until_bp_end"],
                  ctx.sel(ctx.pre.loc, op_card(ctx, k), z3.IntVal(0)) == MZ)
    return z3.And(fits, removable, summonable, there,
                  z3.Or(z3.Not(one), S.op(s) >= vocab.OP["negate"], op_card(ctx, k) != NONE))


def valid_second(ctx, k):
    """Operation slot k is on what its effect targets, and the effect's second target ("Target 2
    cards"; none unless the play named one) still fits: each target that no longer fits is left
    alone, the other is not (GEN-17)."""
    return once(ctx, ("valid_second", k), lambda: z3.And(
        uses_target(ctx, k), ctx.top_target2() != NONE,
        z3.Or(z3.Not(ctx.lit("GEN-17")), target_still_fits(ctx, second=True))))


def hits(ctx, k, i):
    """Operation slot k applies to card i: it is the operation's card, the effect's second target,
    or the selector picks it."""
    S, pre = ctx.S, ctx.pre
    s = op_slot(ctx, k)
    every = z3.And(S.op_on(s) == vocab.OPERATION_ON.index("all"),
                   picks(ctx, S.ctrl(S.inst(ctx.top_eff)), "operation", s, i, card_state(ctx, i, pre),
                         S.inst(ctx.top_eff)))
    first = z3.And(valid_first(ctx, k),
                   z3.Or(every, z3.And(S.op_on(s) != vocab.OPERATION_ON.index("all"), op_card(ctx, k) == i)))
    second = z3.And(valid_second(ctx, k), S.op_on(s) != vocab.OPERATION_ON.index("all"), ctx.top_target2() == i)
    # the second card the play chooses as the link resolves (GEN-22 keeps it to one the text may choose)
    chosen2 = z3.And(S.op_on(s) == CHOICE, ctx.act.choice2 != NONE, ctx.act.choice2 == i)
    # a Special Summon passes over a card that cannot be Special Summoned (its Summoning condition)
    summonable = z3.Or(S.op(s) != vocab.OP["special_summon"], z3.Not(unsummonable(ctx, i)))
    return z3.And(z3.Or(first, second, chosen2), summonable)


def affects(ctx, op, i):
    """This step resolves a live link whose operation `op` applies to card i."""
    return z3.Or([z3.And(applies(ctx, op, k), hits(ctx, k, i)) for k in range(OPS)])


def battling_opponent(ctx, card):
    pre = ctx.pre
    return z3.If(card == pre.attacker, pre.target, pre.attacker)


def stays_on_field(ctx, card):
    """Continuous and Field cards stay after they resolve; a card that this resolution equips (an
    Equip Spell, a Trap that equips itself: `equip`) stays equipped, and one it does not equip (its
    target gone, or its activation negated) goes to the Graveyard."""
    return z3.Or(ctx.kind_is_card(card, "spell:continuous", "spell:field", "trap:continuous"),
                 z3.And(ctx.lit("GEN-15"), z3.Or([t for _, c, t in equips(ctx) if c == card] or [z3.BoolVal(False)])))


def equips(ctx):
    return once(ctx, ("equips",), lambda: _equips(ctx))


def _equips(ctx):
    """(operation slot k, card c, term) for each `equip` the resolving link applies: card c, its
    effect's own card, still face-up on the field, becomes an Equip Card equipped to the card
    operation k is on, if that is still a face-up monster in the Monster Zone (and, for a target,
    still fits: GEN-17's `valid`). An Equip Spell's activation targets the monster it equips: if
    the target is gone at resolution, the card is not equipped (EDOPro proc_equip.lua, EquipOperation)."""
    S, pre = ctx.S, ctx.pre
    own = S.inst(ctx.top_eff)
    out = []
    for k in range(OPS):
        equipped = z3.And(applies(ctx, "equip", k), valid(ctx, k), equippable(ctx, op_card(ctx, k), pre))
        for c in ctx.cards:
            out.append((k, c, z3.And(equipped, own == c, pre.faceup[c], z3.Or(pre.loc[c] == STZ, pre.loc[c] == FZ))))
    return out


def lp_change(ctx, k, player):
    """What operation slot k (damage / gain_lp) changes `player`'s LP by."""
    S, pre = ctx.S, ctx.pre
    s = op_slot(ctx, k)
    card = op_card(ctx, k)
    me = S.ctrl(S.inst(ctx.top_eff))
    whose = z3.If(S.op_to(s) == vocab.LP_PLAYERS.index("you"), me,
                  z3.If(S.op_to(s) == vocab.LP_PLAYERS.index("opponent"), 1 - me, S.ctrl(card)))
    amount = operation_amount(ctx, k, card)
    # effect damage: halved (rounded down, the engine's dam/2) while a halving of the player's
    # applies this turn, once ("You cannot halve the same damage twice with this effect": Damage Diet)
    halved = z3.Or(pre.halved[player], pre.eff_halved[player])
    amount = z3.If(z3.And(S.op(s) == vocab.OP["damage"], halved), amount / 2, amount)
    sign = z3.If(S.op(s) == vocab.OP["damage"], -1, 1)
    lp_op = z3.Or(S.op(s) == vocab.OP["damage"], S.op(s) == vocab.OP["gain_lp"])
    return z3.If(z3.And(applied(ctx, k), valid(ctx, k), lp_op, whose == player), sign * amount, 0)


def operation_amount(ctx, k, card):
    """Operation slot k's amount (vocab.AMOUNT_OF): a number; the ATK or original ATK of `card`,
    the card it is on (a term, or an index); the resolving effect's own card's ATK (`self_atk`:
    "becomes equal to this face-up card's current ATK", Dark Diviner); half the original ATK of `card`
    (rounded down, as the engine does: "Trap Hole of Spikes"); the difference between the ATK and the
    original ATK of `card`, never negative ("gains ATK equal to the difference", Performapal Barracuda's
    script: math.abs of the two); the battle damage its
    controller's opponent took in this battle ("Gain Life Points equal to the Battle Damage that
    the monster inflicted to your opponent", Sebek's Blessing); or the number for each card its
    `count` selector picks (`count`: "800 ATK for each monster they control"), all as before the step."""
    S, pre = ctx.S, ctx.pre
    own, s = S.inst(ctx.top_eff), op_slot(ctx, k)

    def atk(c):
        return pre.atk[c] if isinstance(c, int) else ctx.sel(pre.atk, c, z3.IntVal(0))
    now, orig = atk(card), S.orig_atk(card)
    higher = battle_difference(ctx, S.ctrl(own), pre)
    values = {"atk": now, "original_atk": orig, "half_original_atk": orig / 2, "self_atk": atk(own),
              "atk_difference": z3.If(now >= orig, now - orig, orig - now),
              "opponent_battle_damage": ctx.sel(pre.bd, 1 - S.ctrl(own)),
              "battle_difference": z3.If(higher > 0, higher + S.op_amount(s), 0),
              "count": times(S.op_amount(s), counted(ctx, k))}   # linear: see effects.times
    out = S.op_amount(s)
    for name, value in values.items():
        out = z3.If(S.op_amount_of(s) == vocab.AMOUNT_OF.index(name), value, out)
    return out


def counted(ctx, k):
    """How many cards operation slot k's `count` selector picks as the Chain Link resolves (seen
    from the resolving effect's controller): "for each monster they control"."""
    def build():
        S, pre = ctx.S, ctx.pre
        own, s = S.inst(ctx.top_eff), op_slot(ctx, k)
        return z3.Sum([z3.If(picks(ctx, S.ctrl(own), "count", s, j, card_state(ctx, j, pre), own), 1, 0)
                       for j in ctx.cards] or [z3.IntVal(0)])
    return once(ctx, ("counted", k), build)


def named_player(ctx, k, me):
    """The player operation slot k's `to` names, `me` being the resolving effect's controller: whose
    battle damage double_battle_damage doubles ("Cross Counter": "the Battle Damage inflicted to
    your opponent is doubled"), whose Deck draw / mill take from."""
    return z3.If(ctx.S.op_to(op_slot(ctx, k)) == vocab.LP_PLAYERS.index("opponent"), 1 - me, me)


def from_the_top(ctx, k, i):
    """Card i is among the top `drawn` cards of the Deck whose player operation slot k (draw /
    mill / draw_until) names: it is in that Deck and fewer than `drawn` of that player's Deck
    cards come before it in the set-up (a set-up lists a Deck top first)."""
    S, pre = ctx.S, ctx.pre
    whose = named_player(ctx, k, S.ctrl(S.inst(ctx.top_eff)))
    above = z3.Sum([z3.If(z3.And(pre.loc[j] == DECK, S.ctrl(j) == whose), 1, 0) for j in ctx.cards if j < i] or [z3.IntVal(0)])
    return z3.And(pre.loc[i] == DECK, S.ctrl(i) == whose, above < drawn(ctx, k, whose))


def drawn(ctx, k, whose):
    """How many cards operation slot k moves from the top of `whose` Deck: its amount; for
    draw_until, what that player's hand lacks of it (the script counts the hand as it draws:
    the cards the set-up lists there, as the Chain Link resolves; none if it holds that many)."""
    def build():
        s = op_slot(ctx, k)
        hand = player_quantities(ctx, whose, ctx.pre)["hand"]
        return z3.If(ctx.S.op(s) == vocab.OP["draw_until"], ctx.S.op_amount(s) - hand, ctx.S.op_amount(s))
    return once(ctx, ("drawn", k), build)


def lp_delta(ctx, player):
    """What this step's resolution changes `player`'s LP by (damage calculation, when it happens
    in the same step, starts from it: calc.py)."""
    return once(ctx, ("lp_delta", player), lambda: z3.Sum([lp_change(ctx, k, player) for k in range(OPS)]))


def destroyed_by_effect(ctx, i):
    """The resolving link destroys card i: a `destroy` operation on it, or "negate and destroy" of
    its activation, and nothing keeps it (GEN-15; the event of GEN-8's destruction triggers)."""
    return z3.Or(z3.And(affects(ctx, "destroy", i), destroyable_by_effect(ctx, i)), negate_destroyed(ctx, i))


def negate_destroyed(ctx, i):
    """"Negate and destroy": card i is the card of the link the resolving one negates."""
    S, pre = ctx.S, ctx.pre
    below = ctx.link(pre.link_eff, pre.chain_len - 2)
    return z3.And(applies(ctx, "negate_destroy"), pre.chain_len > 1, S.inst(below) == i, destroyable_by_effect(ctx, i))


def destroyable_by_effect(ctx, i, st=None):
    """Card i, in state `st` (the state before the step unless said), is a card that a card
    effect can destroy: no operation or continuous effect says it "cannot be destroyed by card effects"."""
    st = st if st is not None else ctx.pre
    return z3.And(st.loc[i] != vocab.L["none"], z3.Not(st.ind_effect[i]),
                  z3.Not(continuous_applies(ctx, "indestructible_by_effect", i, st)))


def after_calc_window(ctx):
    """The part of the rule set's Damage Step that follows damage calculation (OCG D4: after damage
    calculation; TCG T5)."""
    ds = ctx.ruleset.damage_step
    return ds[ds.index(ctx.ruleset.calc_window) + 1]


def destroyed_after_calc(ctx, i):
    return once(ctx, ("destroyed_after_calc", i), lambda: _destroyed_after_calc(ctx, i))


def _destroyed_after_calc(ctx, i):
    """Card i, marked by a resolved destroy_after_calc ("Destroy the attacking monster after damage
    calculation": Cross Counter; the EDOPro script destroys it on EVENT_BATTLED), is destroyed by that
    effect in this step: the step enters the part after damage calculation with damage calculation
    performed (a battle that never reached it, its attack negated or a monster gone, destroys
    nothing), and the card is still face-up in the Monster Zone and can be destroyed by a card
    effect ("cannot be destroyed by battle" does not keep it). A monster determined destroyed by
    battle in that calculation is already destroyed (D4-1) and is left to go as such, as D4-2 leaves
    a self-destroying one (docs/interpretations.md). Read in `ctx.mid`: the step's damage
    calculation is another update's result, so this is a settled update (continuous.py's
    redirects, GEN-20's Equip Cards and GEN-8's events read it as they read a self-destruction)."""
    pre, mid = ctx.pre, ctx.mid
    after = vocab.W[after_calc_window(ctx)]
    begins = z3.And(mid.window == after, pre.window != after, mid.calc == CALC_DONE)
    there = z3.And(mid.faceup[i], mid.loc[i] == MZ, z3.Not(mid.dbb[i]))
    return z3.And(begins, mid.doomed[i] == MARKED, there, destroyable_by_effect(ctx, i, mid))


@rule("GEN-15", "A resolving Chain Link that is not negated applies its effect's operations in "
      "order (ATK/DEF, destroy, move, Summon, counters, negate, damage...) to their cards; a `then` "
      "one only if the one before applied, an `otherwise` one only if it could not.",
      ["S1 64", "card text"], shape="update", name="effect.resolution", priority=PRIORITY)
def resolve_effects(ctx):
    S, pre = ctx.S, ctx.pre
    ups = []
    # the first update that applies wins, and a later operation on the same card is applied after
    # an earlier one: the last slot first ("Special Summon it in face-down Defense Position" is a
    # Special Summon, then a set_face_down that overrides its face-up)
    for k in reversed(range(OPS)):
        s = op_slot(ctx, k)
        for i in ctx.cards:
            on_i = hits(ctx, k, i)
            amount = operation_amount(ctx, k, i)

            def do(op, var, value, on=on_i, k=k, i=i):
                ups.append(Update(var, i, z3.And(applies(ctx, op, k), on), value))
            opp_atk = ctx.sel(pre.atk, battling_opponent(ctx, i), z3.IntVal(0))
            do("atk_add", "atk", pre.atk[i] + amount)
            # "during damage calculation only": a face-up monster, while the calculation is ahead
            ahead = z3.And(pre.calc == CALC_PENDING, pre.loc[i] == MZ, pre.faceup[i])
            do("atk_add_at_calc", "calc_atk", pre.calc_atk[i] + amount, z3.And(on_i, ahead))
            do("def_add_at_calc", "calc_def", pre.calc_def[i] + amount, z3.And(on_i, ahead))
            # "becomes": whatever gain for the calculation it had, its ATK for it is double the original
            do("atk_double_original_at_calc", "calc_atk", S.orig_atk(i) * 2 - pre.atk[i], z3.And(on_i, ahead))
            do("atk_set", "atk", amount)
            do("atk_halve", "atk", pre.atk[i] / 2)
            do("atk_double", "atk", pre.atk[i] * 2)
            do("atk_gain_opponent", "atk", pre.atk[i] + opp_atk)
            do("atk_halve_original", "atk", S.orig_atk(i) / 2)
            do("atk_double_original", "atk", S.orig_atk(i) * 2)
            do("def_add", "def_", pre.def_[i] + amount)
            do("def_set", "def_", amount)
            do("def_halve", "def_", pre.def_[i] / 2)
            do("def_double", "def_", pre.def_[i] * 2)
            do("destroy", "loc", z3.IntVal(GY), z3.And(on_i, destroyable_by_effect(ctx, i)))
            for op, where in MOVES.items():
                # a card in a Graveyard stays there when a banish lock names the effect's controller
                barred = banish_barred(ctx, S.ctrl(S.inst(ctx.top_eff)), i, pre) if op == "banish" else False
                do(op, "loc", z3.IntVal(where), z3.And(on_i, pre.loc[i] != vocab.L["none"], z3.Not(barred)))
            # "banish both, then return them at the end of the Battle Phase": a monster in the Monster
            # Zone is banished and marked to return (bp_end_returns); GY banish locks do not reach it
            away = z3.And(on_i, pre.loc[i] == MZ)
            do("banish_until_bp_end", "loc", z3.IntVal(BAN), away)
            do("banish_until_bp_end", "returns", z3.BoolVal(True), away)
            do("special_summon", "loc", z3.IntVal(MZ))
            do("special_summon", "faceup", z3.BoolVal(True))
            do("special_summon", "ssum", z3.BoolVal(True))
            # Summoned this turn (the play is one turn), by a Special Summon
            do("special_summon", "sumt", z3.IntVal(vocab.SUMMONED_THIS_TURN.index("normal_or_special")))
            do("special_summon", "counters", z3.IntVal(0))   # a new card on the field: no counters yet
            # "their battle positions cannot be changed" (a fixed position_lock): these do nothing
            movable = z3.And(on_i, z3.Not(position_locks(ctx, i, pre)[2]))
            do("change_position", "defpos", z3.Not(pre.defpos[i]), z3.And(movable, pre.loc[i] == MZ))
            do("change_position", "faceup", z3.BoolVal(True), z3.And(movable, pre.loc[i] == MZ))
            do("set_face_down", "defpos", z3.BoolVal(True), movable)
            do("set_face_down", "faceup", z3.BoolVal(False), movable)
            do("set_face_down", "counters", z3.IntVal(0), movable)   # counters go when it is turned face-down
            # counters are placed on, and removed from, a face-up card on the field
            has = counters_on(ctx, i, pre)
            up = z3.And(on_i, pre.faceup[i], z3.Or([pre.loc[i] == z for z in FIELD]))
            do("add_counter", "counters", has + amount, up)
            do("remove_counter", "counters", has - amount, z3.And(up, has >= amount))
            do("indestructible_by_battle", "ind_battle", z3.BoolVal(True))
            do("indestructible_by_effect", "ind_effect", z3.BoolVal(True))
            # a monster in the Monster Zone keeps the mark until the battle ends (GEN-3)
            do("destroy_after_calc", "doomed", z3.IntVal(MARKED), z3.And(on_i, pre.loc[i] == MZ))
            # "can attack again": the attack it made no longer counts against BP-5's limit
            do("attack_again", "attacks", pre.attacks[i] - 1, z3.And(on_i, pre.attacks[i] > 0))
    # "equip this card to that target": the effect's own card is equipped to the card it is on
    ups += [Update("equip", c, t, op_card(ctx, k)) for k, c, t in equips(ctx)]
    # draw / mill: cards leave the top of a Deck (a drawn card is hidden in the hand, a milled one face-up)
    for k in range(OPS):
        for i in ctx.cards:
            top = z3.And(valid(ctx, k), from_the_top(ctx, k, i))
            for op, where in (("draw", HAND), ("draw_until", HAND), ("mill", GY)):
                moved = z3.And(applies(ctx, op, k), top)
                ups += [Update("loc", i, moved, z3.IntVal(where)), Update("faceup", i, moved, z3.BoolVal(op == "mill"))]
    ups += [Update("loc", i, negate_destroyed(ctx, i), z3.IntVal(GY)) for i in ctx.cards]
    k = pre.chain_len - 1
    for j in range(vocab.MAX_CHAIN):
        negates_j = z3.And(z3.Or(applies(ctx, "negate"), applies(ctx, "negate_destroy")), k - 1 == j)
        ups.append(Update("link_negated", j, negates_j, z3.BoolVal(True)))
    me = S.ctrl(S.inst(ctx.top_eff))
    for p in (0, 1):
        change = lp_delta(ctx, p)
        ups.append(Update("lp", p, z3.And(live_link(ctx), change != 0), pre.lp[p] + change))
        for op, code in LASTING_BD.items():
            takes = z3.Or([z3.And(applies(ctx, op, k), named_player(ctx, k, me) == p) for k in range(OPS)]) \
                if op == "double_battle_damage" else z3.And(applies(ctx, op), me == p)
            ups.append(Update("bdc", p, takes, z3.IntVal(code)))
        for op, field in (("halve_damage", "halved"), ("halve_effect_damage", "eff_halved")):   # for the turn
            ups.append(Update(field, p, z3.And(applies(ctx, op), me == p), z3.BoolVal(True)))
    ups += [Update("calc", None, applies(ctx, "skip_damage_calc"), z3.IntVal(2)),
            Update("attacking", None, applies(ctx, "negate_attack"), z3.BoolVal(False))]
    return ups


@part("GEN-15", shape="update", priority=0)
def gen15_after_calc(ctx):
    """What a resolved destroy_after_calc left on a monster is done as the part after damage
    calculation begins (destroyed_after_calc): a settled update, its card goes to the Graveyard
    (or where a redirect sends it: continuous.py), and its mark says so (damage calculation, in
    the same step, reads it: calc.present_at_calc)."""
    ups = []
    for i in ctx.cards:
        gone = destroyed_after_calc(ctx, i)
        ups += [Update("loc", i, gone, z3.IntVal(GY), settled=True),
                Update("doomed", i, gone, z3.IntVal(DESTROYED), settled=True)]
    return ups


@part("GEN-15", shape="update", priority=PRIORITY)
def bp_end_returns(ctx):
    """The monsters a banish_until_bp_end operation banished return to the field as the End Step
    begins ("return them to the field at the end of the Battle Phase": the EDOPro script of
    "Galaxy-Eyes Photon Dragon" returns them on EVENT_PHASE+PHASE_BATTLE with ReturnToField, in
    the battle position they left in; S0-TCG 139 lists it among what happens in the End Step), if
    still banished. A temporarily banished monster comes back without its ATK/DEF changes and
    counters, and remembers how it was Summoned (judges' rulings on temporary banishment:
    docs/cards-format.md). A settled update: it reads the End Step's beginning in `ctx.mid`."""
    pre, mid, S = ctx.pre, ctx.mid, ctx.S
    begins = z3.And(mid.window == vocab.W["end_step"], pre.window != vocab.W["end_step"])
    ups = []
    for i in ctx.cards:
        back = z3.And(begins, mid.returns[i], mid.loc[i] == BAN)
        ups += [Update(var, i, back, value, settled=True)
                for var, value in (("loc", z3.IntVal(MZ)), ("returns", z3.BoolVal(False)),
                                   ("atk", S.orig_atk(i)), ("def_", S.orig_def(i)), ("counters", z3.IntVal(0)))]
    return ups


@part("GEN-15", shape="update", priority=PRIORITY)
def calc_gain_ends(ctx):
    """An ATK / DEF gain "during damage calculation only" (atk_add_at_calc, def_add_at_calc: "Prideful
    Roar", "Injection Fairy Lily", "Kinetic Soldier"; their scripts reset it at the end of
    PHASE_DAMAGE_CAL or when the monster leaves the field or is turned face-down) is gone in the step
    after damage calculation was performed or skipped: shown_stat reads it only while the calculation
    is ahead, so the step that performs it still counts it."""
    pre = ctx.pre
    return [Update(var, i, z3.Or(pre.calc != CALC_PENDING, pre.loc[i] != MZ, z3.Not(pre.faceup[i])), z3.IntVal(0))
            for i in ctx.cards for var in ("calc_atk", "calc_def")]


@rule("GEN-17", "A targeting effect is activated only with targets that meet what its text "
      "targets (two different cards for two; not the card paid, nor a Spell/Trap itself); on "
      "resolution, a target that has moved, or no longer meets that, is not affected.",
      ["card text (general game mechanics, not in the sources)"], name="target.fits")
def gen17(ctx):
    # the resolution half is `valid_first` / `valid_second` above, which read this rule's literal
    S, act, pre = ctx.S, ctx.act, ctx.pre
    t, t2, second = resolution_target(ctx), act.target2, S.second_target(act.eff)
    # a Spell/Trap Card's activation cannot target the card itself (yugioh-wiki.net "Icarus Attack";
    # the EDOPro scripts of Twin Twisters, Double Cyclone and Icarus Attack leave it out)
    not_itself = z3.Or(z3.Not(ctx.ekind_is(act.eff, "activation")), z3.And(t != S.inst(act.eff), t2 != S.inst(act.eff)))
    # the card discarded or Tributed for the cost has left before the targets are chosen ("Tribute 1
    # Winged Beast monster, then target 2 cards": yugioh-wiki.net on Icarus Attack)
    not_paid = z3.Or(act.other == NONE, z3.And(t != act.other, t2 != act.other))
    fits = z3.And(t != NONE, target_fits(ctx, act.eff, pre, t))
    fits2 = z3.If(t2 == NONE, second != vocab.SECOND_TARGET.index("required"),
                  z3.And(second != vocab.SECOND_TARGET.index("none"), t2 != t, target_fits(ctx, act.eff, pre, t2, "filter2")))
    return z3.Implies(ctx.activating, z3.And(z3.Implies(S.targets(act.eff), z3.And(fits, not_itself, not_paid)), fits2))


def choosing(ctx):
    """This step resolves a live link whose effect chooses cards as it resolves (its `choose`), and
    an operation on them applies (a `then` one only if the one before it did)."""
    return once(ctx, ("choosing",), lambda: z3.Or([z3.And(applied(ctx, k), ctx.S.op_on(op_slot(ctx, k)) == CHOICE)
                                                  for k in range(OPS)]))


def choice_fits(ctx, j):
    """Card j is one the effect may choose now (GEN-22): in one of the places its `choose` names
    (vocab.CHOOSE_FROM, a bit each: `field` is the Monster, Spell & Trap and Field Zones), on the
    side it names, and meeting its filter (atoms about that card; a `than` may read a player's
    quantity, "ATK less than or equal to the damage you took"), and, to be Special Summoned, one
    that can be (no Summoning condition against it). The effect is the one this step
    activates (a `needed` choice, counted before the activation) or else the resolving link's:
    one set of terms for both, since a step does not do both."""
    def build():
        S, pre = ctx.S, ctx.pre
        eff = z3.If(ctx.activating, ctx.act.eff, ctx.top_eff)
        me = S.ctrl(S.inst(eff))
        mask = S.choose_from(eff)
        where = []
        for b, place in enumerate(vocab.CHOOSE_FROM):
            locs = FIELD if place == "field" else (vocab.L[place],)
            where.append(z3.And((mask / 2 ** b) % 2 == 1, z3.Or([pre.loc[j] == z for z in locs])))
        side = z3.If(S.choose_side(eff) == vocab.CHOOSE_SIDES.index("yours"), S.ctrl(j) == me,
                     z3.Or(S.choose_side(eff) == vocab.CHOOSE_SIDES.index("both"), S.ctrl(j) != me))
        players = once(ctx, ("choice_players",), lambda: player_values(ctx, me, pre))
        # a card chosen to be Special Summoned is one that can be (the scripts' selections ask
        # IsCanBeSpecialSummoned, which a Summoning condition refuses)
        summoned = once(ctx, ("choice_summoned",), lambda: z3.Or(
            [z3.And(S.op(slot(eff, k, OPS)) == vocab.OP["special_summon"], S.op_on(slot(eff, k, OPS)) == CHOICE)
             for k in range(OPS)]))
        return z3.And(z3.Or(where), side, filter_fits_card(ctx, eff, pre, j, "choicef", players),
                      z3.Not(z3.And(summoned, unsummonable(ctx, j))))
    return once(ctx, ("choice_fits", j), build)


@rule("GEN-22", "A card an effect chooses as it resolves, without targeting, is chosen then: of the "
      "cards its text may choose (places, side, filter), as many as it says while enough fit, else "
      "none. An effect that needs them is activated only while that many fit.",
      ["card text (general game mechanics, not in the sources)"], name="choice.fits")
def gen22(ctx):
    # what the operations on `choice` do with the cards is GEN-15's (resolution.hits, op_card)
    S, act = ctx.S, ctx.act
    c1, c2 = act.choice, act.choice2
    eff = ctx.top_eff
    fit = [choice_fits(ctx, j) for j in ctx.cards]
    n_fit = z3.Sum([z3.If(f, 1, 0) for f in fit] or [z3.IntVal(0)])

    def fits(c):
        return z3.Or([z3.And(c == j, f) for j, f in zip(ctx.cards, fit)] or [z3.BoolVal(False)])
    named = z3.If(c1 != NONE, 1, 0) + z3.If(c2 != NONE, 1, 0)
    cards_ok = z3.And(z3.Implies(c1 != NONE, fits(c1)),
                      z3.Implies(c2 != NONE, z3.And(c1 != NONE, c2 != c1, fits(c2))))
    count, least = S.choose_count(eff), S.choose_min(eff)
    how_many = z3.If(n_fit >= least, z3.And(named >= least, named <= count), named == 0)
    chooses = z3.And(ctx.is_("resolve_link"), choosing(ctx))
    return z3.If(chooses, z3.And(cards_ok, how_many), z3.And(c1 == NONE, c2 == NONE))


@part("GEN-22")
def gen22_needed(ctx):
    # "Special Summon 1 "Morphtronic" monster from your hand": a text the engine does not let be
    # activated without a card to choose (its script's activation check) says so with `needed`;
    # counted in the state before the activation, among the cards the set-up lists (the loader
    # refuses it for a Deck, whose other cards are not in the model)
    S, act = ctx.S, ctx.act
    fit = z3.Sum([z3.If(choice_fits(ctx, j), 1, 0) for j in ctx.cards] or [z3.IntVal(0)])
    return z3.Implies(z3.And(ctx.activating, S.choose_needed(act.eff)), fit >= S.choose_min(act.eff))


@rule("GEN-14", "An activated Spell/Trap is placed face-up on the field and goes to the Graveyard "
      "after it resolves unless it is a Continuous or Field card, or its resolution equipped it; a "
      "monster effect activated from the hand sends the card to the Graveyard.",
      ["card text (general game mechanics, not in the sources)"], shape="update", name="card.moves",
      priority=PRIORITY)
def card_moves(ctx):
    S, pre, act = ctx.S, ctx.pre, ctx.act
    card, top_card = S.inst(act.eff), S.inst(ctx.top_eff)
    ups = []
    for i in ctx.cards:
        activated = z3.And(ctx.activating, card == i)
        is_st = ctx.kind_is_card(i, *vocab.TYPE_KINDS["spell"], *vocab.TYPE_KINDS["trap"])
        is_field = ctx.kind_is_card(i, "spell:field")
        hand_monster = z3.And(z3.Not(is_st), S.from_hand(act.eff), pre.loc[i] == HAND)
        ups += [
            Update("loc", i, z3.And(activated, is_st, pre.loc[i] == HAND),
                   z3.If(is_field, FZ, STZ)),
            Update("faceup", i, z3.And(activated, is_st), z3.BoolVal(True)),
            Update("loc", i, z3.And(activated, hand_monster), z3.IntVal(GY)),
        ]
        resolved = z3.And(ctx.is_("resolve_link"), top_card == i, is_st, z3.Not(stays_on_field(ctx, i)),
                          z3.Or(pre.loc[i] == STZ, pre.loc[i] == FZ))
        ups.append(Update("loc", i, resolved, z3.IntVal(GY)))
    return ups

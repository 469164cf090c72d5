"""Costs (GEN-16): what an effect's text makes its controller pay to activate it (pay LP, discard,
Tribute, send, discard, banish or shuffle into the Deck this card), paid at once on activation, in order."""
import z3

from .. import vocab
from ..state import NONE
from .base import Update, part, rule
from .effects import banish_barred, slot, target_fits
from .redirects import graveyard_barred, leaving_barred
from .resolution import PRIORITY as RESOLUTION
from .stats import battle_difference

MZ, GY, BAN, HAND, DECK, EXTRA = (vocab.L[n] for n in ("monster_zone", "graveyard", "banished", "hand", "deck",
                                                      "extra_deck"))
# the monsters a "return this card to the Deck" sends to the Extra Deck instead
EXTRA_KINDS = tuple(vocab.K[f"monster:{s}"] for s in ("fusion", "synchro", "xyz", "link"))
PRIORITY = RESOLUTION - 5   # before GEN-14's moves of the activated card: a cost that banishes it wins


def cost_slots(ctx, eff):
    return [slot(eff, k, vocab.MAX_COSTS) for k in range(vocab.MAX_COSTS)]


def has_cost(ctx, eff, *names):
    return z3.Or([ctx.S.cost(s) == vocab.CT[n] for s in cost_slots(ctx, eff) for n in names])


def lp_cost(ctx, s, lp, me):
    """The LP cost slot s asks of player `me`, who has `lp`: its amount, half of `lp` (rounded down),
    or how much higher the ATK of the opponent's battling monster is than `me`'s, as the effect is
    activated (battle_difference: "pay LP equal to the difference"; GEN-16 refuses it when that is
    not positive); 0 for a cost that is not LP."""
    S = ctx.S
    return z3.If(S.cost(s) == vocab.CT["pay_lp"], S.cost_amount(s),
                 z3.If(S.cost(s) == vocab.CT["pay_half_lp"], lp / 2,
                       z3.If(S.cost(s) == vocab.CT["pay_lp_battle_difference"],
                             battle_difference(ctx, me, ctx.pre), 0)))


def lp_paid(ctx, eff, lp, me):
    """The LP left after player `me` pays the effect's LP costs from `lp`, in order."""
    for s in cost_slots(ctx, eff):
        lp = lp - lp_cost(ctx, s, lp, me)
    return lp


@rule("GEN-16", "An effect with a cost is activated only if its controller can pay it (LP; their own card to "
      "discard or monster to Tribute, of the kind the text names; a card sent to the GY must reach it, one "
      "banished from it be banishable); it is paid on activation.",
      ["card text (general game mechanics, not in the sources)",
       "yugioh-wiki.net 《次元の裂け目》《マクロコスモス》 (\"send to the GY\" costs cannot be paid, \"discard\" ones can)"],
      name="effect.cost")
def gen16(ctx):
    S, pre, act = ctx.S, ctx.pre, ctx.act
    eff, other, me = act.eff, act.other, act.player
    self_card = S.inst(eff)
    lp = ctx.sel(pre.lp, me)
    payable = []
    for s in cost_slots(ctx, eff):   # half the LP can always be paid
        paid = lp_cost(ctx, s, lp, me)
        exact = z3.Or(S.cost(s) == vocab.CT["pay_lp"], S.cost(s) == vocab.CT["pay_lp_battle_difference"])
        payable.append(z3.Implies(exact, lp >= paid))
        # "pay LP equal to the difference" needs one: the opponent's battling monster has the higher ATK
        payable.append(z3.Implies(S.cost(s) == vocab.CT["pay_lp_battle_difference"], paid > 0))
        lp = lp - paid
    mine = z3.And(other != NONE, other != self_card, S.ctrl(other) == me)
    at = ctx.sel(pre.loc, other, z3.IntVal(0))
    # the card paid meets the cost's filter ("Tribute 1 Winged Beast monster"): atoms about it, as a target's
    fits = target_fits(ctx, eff, pre, other, "costf")
    payable += [z3.Implies(has_cost(ctx, eff, "discard"), z3.And(mine, at == HAND, fits)),
                z3.Implies(has_cost(ctx, eff, "tribute"), z3.And(mine, at == MZ, fits)),
                # a card named as paid must be one the text asks for
                z3.Implies(other != NONE, has_cost(ctx, eff, "discard", "tribute")),
                # "send this card to the GY" cannot be paid while a redirect would banish it instead
                # ("discard this card" can: it is banished instead)
                z3.Implies(has_cost(ctx, eff, "send_self"), z3.Not(graveyard_barred(ctx, self_card, pre))),
                # "banish this card from your GY" cannot be paid under "cannot banish cards from either GY"
                z3.Implies(has_cost(ctx, eff, "banish_self"), z3.Not(banish_barred(ctx, me, self_card, pre))),
                # "shuffle this card into the Deck" cannot be paid while its own redirect would banish it
                z3.Implies(has_cost(ctx, eff, "to_deck_self"), z3.Not(leaving_barred(ctx, self_card, pre)))]
    return z3.Implies(ctx.activating, z3.And(payable))


@part("GEN-16", shape="update", priority=PRIORITY)
def gen16_pay(ctx):
    S, pre, act = ctx.S, ctx.pre, ctx.act
    eff = act.eff
    lp_costs = ("pay_lp", "pay_half_lp", "pay_lp_battle_difference")
    ups = [Update("lp", p, z3.And(ctx.activating, act.player == p, has_cost(ctx, eff, *lp_costs)),
                  lp_paid(ctx, eff, pre.lp[p], act.player)) for p in (0, 1)]
    for i in ctx.cards:
        paid = z3.And(ctx.activating, act.other == i)
        this = z3.And(ctx.activating, S.inst(eff) == i)
        ups += [Update("loc", i, paid, z3.IntVal(GY)),
                Update("loc", i, z3.And(this, has_cost(ctx, eff, "banish_self")), z3.IntVal(BAN)),
                Update("loc", i, z3.And(this, has_cost(ctx, eff, "send_self", "discard_self", "tribute_self")), z3.IntVal(GY)),
                Update("loc", i, z3.And(this, has_cost(ctx, eff, "to_deck_self")),
                       z3.If(z3.Or([S.ckind(i) == k for k in EXTRA_KINDS]), z3.IntVal(EXTRA), z3.IntVal(DECK)))]
    return ups

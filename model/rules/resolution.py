"""What a Chain Link does when it resolves (GEN-15), and where activated cards go (GEN-14).

The catalogue describes each effect's result in a small vocabulary
(vocab.RESOLUTIONS); only results that timing depends on are modelled.
"""
import z3

from .. import vocab
from .base import Update, rule

# after the rule sets' own updates that override a result (AB-1, D2-5: calc, ocg), before the
# triggers that read it (triggers.py)
PRIORITY = 60

MZ, GY, BAN = vocab.L["monster_zone"], vocab.L["graveyard"], vocab.L["banished"]
STZ, FZ, HAND = vocab.L["spell_trap_zone"], vocab.L["field_zone"], vocab.L["hand"]


def applies(ctx, res):
    """This step resolves a link whose (un-negated) effect is `res`."""
    pre = ctx.pre
    top_negated = ctx.link(pre.link_negated, pre.chain_len - 1)
    return z3.And(ctx.is_("resolve_link"), pre.chain_len > 0, z3.Not(top_negated),
                  ctx.S.res(ctx.top_eff) == vocab.RS[res])


def battling_opponent(ctx, card):
    pre = ctx.pre
    return z3.If(card == pre.attacker, pre.target, pre.attacker)


def stays_on_field(ctx, card):
    """Continuous, Field and Equip cards stay after they resolve."""
    return ctx.kind_is_card(card, "spell:continuous", "spell:field", "spell:equip", "trap:continuous")


@rule("GEN-15", "A resolving Chain Link that is not negated applies its effect as its text says "
      "(change ATK, destroy, banish, Special Summon, negate, end the attack...) to the card it "
      "was activated for.", ["S1 64", "card text"], shape="update", name="effect.resolution",
      priority=PRIORITY)
def resolve_effects(ctx):
    S, pre = ctx.S, ctx.pre
    t = ctx.top_target()
    k = pre.chain_len - 1
    ups = []
    for i in ctx.cards:
        on_i = t == i
        opp_atk = ctx.sel(pre.atk, battling_opponent(ctx, i), z3.IntVal(0))
        ups += [
            Update("atk", i, z3.And(applies(ctx, "atk_add"), on_i), pre.atk[i] + S.amount(ctx.top_eff)),
            Update("atk", i, z3.And(applies(ctx, "atk_gain_opponent"), on_i), pre.atk[i] + opp_atk),
            Update("atk", i, z3.And(applies(ctx, "atk_halve_original"), on_i), S.orig_atk(i) / 2),
            Update("atk", i, z3.And(applies(ctx, "atk_double"), on_i), pre.atk[i] * 2),
            Update("loc", i, z3.And(applies(ctx, "destroy"), on_i,
                                    ctx.sel(pre.loc, i) != vocab.L["none"]), z3.IntVal(GY)),
            Update("loc", i, z3.And(applies(ctx, "banish"), on_i), z3.IntVal(BAN)),
            Update("loc", i, z3.And(applies(ctx, "special_summon"), on_i), z3.IntVal(MZ)),
            Update("faceup", i, z3.And(applies(ctx, "special_summon"), on_i), z3.BoolVal(True)),
            Update("defpos", i, z3.And(applies(ctx, "set_face_down"), on_i), z3.BoolVal(True)),
            Update("faceup", i, z3.And(applies(ctx, "set_face_down"), on_i), z3.BoolVal(False)),
        ]
        # "negate and destroy": the card of the negated link is destroyed
        below = ctx.link(pre.link_eff, k - 1)
        ups.append(Update("loc", i, z3.And(applies(ctx, "negate_destroy"), pre.chain_len > 1,
                                           S.inst(below) == i), z3.IntVal(GY)))
    for j in range(vocab.MAX_CHAIN):
        negates_j = z3.And(z3.Or(applies(ctx, "negate"), applies(ctx, "negate_destroy")), k - 1 == j)
        ups.append(Update("link_negated", j, negates_j, z3.BoolVal(True)))
    ups += [Update("calc", None, applies(ctx, "skip_damage_calc"), z3.IntVal(2)),
            Update("attacking", None, applies(ctx, "negate_attack"), z3.BoolVal(False))]
    return ups


@rule("GEN-14", "An activated Spell/Trap is placed face-up on the field and goes to the Graveyard "
      "after it resolves unless it is a Continuous, Field or Equip card; a monster effect "
      "activated from the hand sends the card to the Graveyard.",
      ["card text (general game mechanics, not in the sources)"], shape="update", name="card.moves",
      priority=PRIORITY)
def card_moves(ctx):
    S, pre, act = ctx.S, ctx.pre, ctx.act
    card, top_card = S.inst(act.eff), S.inst(ctx.top_eff)
    ups = []
    for i in ctx.cards:
        activated = z3.And(ctx.activating, card == i)
        is_st = ctx.kind_is_card(i, *[k for k in vocab.CARD_KINDS if not k.startswith("monster")])
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

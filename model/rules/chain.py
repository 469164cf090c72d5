"""Chains, spell speed and priority (rules.md section 2)."""
import z3

from .. import vocab
from ..state import NONE
from .base import Update, part, rule

PRIORITY = 10   # update priority (lower wins): the Chain's own bookkeeping first

SPEED_OF_KIND = {  # CH-4, S1 67-77: effect kind (and card kind) -> Spell Speed
    "ignition": 1, "trigger": 1, "flip": 1, "quick": 2,
}
SPEED_OF_CARD = {
    "spell:normal": 1, "spell:continuous": 1, "spell:equip": 1, "spell:field": 1,
    "spell:ritual": 1, "spell:quickplay": 2, "trap:normal": 2, "trap:continuous": 2,
    "trap:counter": 3,
}


def speed_term(ctx, eff):
    """CH-4's table as a term: the Spell Speed of `eff` (0 for Continuous effects)."""
    S = ctx.S
    by_card = z3.IntVal(0)
    for kind, speed in SPEED_OF_CARD.items():
        by_card = z3.If(S.ckind(S.inst(eff)) == vocab.K[kind], speed, by_card)
    by_effect = z3.IntVal(0)
    for kind, speed in SPEED_OF_KIND.items():
        by_effect = z3.If(S.ekind(eff) == vocab.EK[kind], speed, by_effect)
    # (a term of S alone: the timeline calls this with a bare namespace holding S)
    monster = z3.Or([S.ckind(S.inst(eff)) == vocab.K[k] for k in vocab.TYPE_KINDS["monster"]])
    # S1 69-77 lists the effect kinds under "Effect Monster"; a Spell/Trap card's effects (its
    # activation, or a Continuous Trap's triggered effect) have the card's Spell Speed
    return z3.If(S.ekind(eff) == vocab.EK["continuous"], 0, z3.If(monster, by_effect, by_card))


def is_trigger(ctx, eff):
    return ctx.ekind_is(eff, "trigger", "flip")


@rule("CH-1", "A card or effect activated in response to another forms a Chain: the first is "
      "Chain Link 1, the next Chain Link 2, and so on; an effect that negates an activation "
      "needs an activation to respond to.", ["S1 60-61"])
def ch1(ctx):
    act, pre, S = ctx.act, ctx.pre, ctx.S
    said_link_ok = z3.Or(act.link == 0, act.link == pre.chain_len + 1,
                         z3.And(act.link == -1, pre.chain_len > 0))
    negates = z3.Or([z3.Or(S.op(s) == vocab.OP["negate"], S.op(s) == vocab.OP["negate_destroy"])
                     for s in (act.eff * vocab.MAX_OPERATIONS + k for k in range(vocab.MAX_OPERATIONS))])
    negator_needs_link = z3.Implies(negates, pre.chain_len > 0)
    return z3.Implies(ctx.activating, z3.And(said_link_ok, negator_needs_link))


@part("CH-1", shape="update", priority=PRIORITY)
def ch1_push(ctx):
    pre, act = ctx.pre, ctx.act
    ups = [Update("chain_len", None, ctx.activating, pre.chain_len + 1),
           Update("chains", None, z3.And(ctx.activating, pre.chain_len == 0), pre.chains + 1)]
    target = resolution_target(ctx)
    for k in range(vocab.MAX_CHAIN):
        here = z3.And(ctx.activating, pre.chain_len == k)
        ups += [Update("link_eff", k, here, act.eff),
                Update("link_player", k, here, act.player),
                Update("link_target", k, here, target),
                Update("link_tloc", k, here, ctx.sel(pre.loc, target, z3.IntVal(0))),
                Update("link_target2", k, here, act.target2),
                Update("link_tloc2", k, here, ctx.sel(pre.loc, act.target2, z3.IntVal(0))),
                Update("link_negated", k, here, z3.BoolVal(False))]
    return ups


def resolution_target(ctx):
    """The card an activation's resolution applies to, fixed when it is activated: the one the
    play names, else the one the text leaves no choice of (`target.implied`), else the first
    operation's card."""
    S, act, pre = ctx.S, ctx.act, ctx.pre
    own_battling = z3.If(S.ctrl(pre.attacker) == act.player, pre.attacker, pre.target)
    opp_battling = z3.If(S.ctrl(pre.attacker) == act.player, pre.target, pre.attacker)
    choices = {
        "self": S.inst(act.eff), "chosen": act.target, "attacker": pre.attacker,
        "attack_target": pre.target, "own_battling": own_battling,
        "opponent_battling": opp_battling,
    }

    def card(index):
        out = z3.IntVal(NONE)
        for name, value in choices.items():
            out = z3.If(index == vocab.OPERATION_ON.index(name), value, out)
        return out
    implied = S.implied(act.eff)
    s0 = act.eff * vocab.MAX_OPERATIONS   # the first operation's card (resolution.op_card); none: this card
    first = z3.If(S.op(s0) == 0, S.inst(act.eff), card(S.op_on(s0)))
    return z3.If(act.target != NONE, act.target,
                 z3.If(z3.And(S.targets(act.eff), implied >= 0), card(implied), first))


@rule("CH-2", "A Chain resolves from the last link back to the first; only an existing link "
      "can resolve.", ["S1 64"])
def ch2(ctx):
    pre, act = ctx.pre, ctx.act
    named_ok = z3.Or(act.named == NONE, act.named == ctx.top_eff)
    return z3.And(z3.Implies(ctx.is_("resolve_link"),
                             z3.And(pre.chain_len > 0, pre.resolving, named_ok)),
                  z3.Implies(ctx.is_("activate", "pass"), z3.Not(pre.resolving)))


@part("CH-2", shape="update", priority=PRIORITY)
def ch2_pop(ctx):
    pre = ctx.pre
    resolving = ctx.is_("resolve_link")
    k = pre.chain_len - 1
    return [Update("chain_len", None, resolving, k),
            Update("resolving", None, z3.And(resolving, k == 0), z3.BoolVal(False))]


@rule("CH-3", "After each activation the other player gets the chance to respond; the player "
      "who was responded to may respond again. While a Chain is open only the player with "
      "priority may act.", ["S1 62-63"])
def ch3(ctx):
    pre, act = ctx.pre, ctx.act
    return z3.Implies(z3.And(ctx.is_("activate", "pass"), pre.chain_len > 0),
                      act.player == pre.prio)


@rule("PR-2", "Declaring an attack does not pass priority: after the declaration the turn "
      "player may activate first.", ["S2 17-19"], shape="update", priority=PRIORITY - 1)
def pr2(ctx):
    return [Update("prio", None, ctx.is_("attack"), ctx.S.tp),
            Update("passes", None, ctx.is_("attack"), z3.IntVal(0))]


@part("CH-3", shape="update", priority=PRIORITY)
def ch3_turn(ctx):
    # after a player acts the other gets the chance to respond (PR-2 overrides it for an
    # attack declaration: its priority number is lower, so it wins)
    acts = ctx.is_("activate", "attack")
    return [Update("prio", None, acts, ctx.opp(ctx.act.player)),
            Update("passes", None, acts, z3.IntVal(0))]


@rule("CH-4", "Spell Speed 1: Normal, Continuous, Equip, Field and Ritual Spells; Ignition, "
      "Trigger and Flip effects. Spell Speed 2: Quick-Play Spells, Normal and Continuous "
      "Traps, Quick Effects. Spell Speed 3: Counter Traps. Continuous effects are never "
      "activated.", ["S1 67-77", "S0-TCG 38", "S3 22"])
def ch4(ctx):
    return z3.Implies(ctx.activating, ctx.S.speed(ctx.eff) > 0)


@part("CH-4", shape="definition")
def ch4_speeds(ctx):
    # a definition, not a restriction: other rules (CH-5, ST-1, DS-T1...) read the Spell Speed
    S = ctx.S
    return z3.And(S.speed(ctx.eff) == speed_term(ctx, ctx.eff),
                  S.speed(ctx.top_eff) == speed_term(ctx, ctx.top_eff))


@rule("CH-5", "A link may be added only with a Spell Speed equal to or higher than the link it "
      "responds to; Spell Speed 1 can only be Chain Link 1; only Spell Speed 3 can respond "
      "to Spell Speed 3.", ["S1 66-78"])
def ch5(ctx):
    S, pre = ctx.S, ctx.pre
    mine, top = S.speed(ctx.eff), S.speed(ctx.top_eff)
    ok = z3.And(mine >= top, z3.Or(mine > 1, ctx.grant("chain_speed1")))
    return z3.Implies(z3.And(ctx.activating, pre.chain_len > 0), ok)


@rule("CH-6", "Simultaneous triggers go on one Chain (a Spell Speed 1 trigger may join a Chain of "
      "triggers) in order: turn player's mandatory, opponent's mandatory, turn player's optional, "
      "opponent's optional; in the Start and End Step each starts its own Chain.",
      ["S2 7-9", "S0-OCG 222"], shape="permission")
def ch6_grant(ctx):
    pre = ctx.pre
    links_are_triggers = z3.And([z3.Implies(k < pre.chain_len, is_trigger(ctx, pre.link_eff[k]))
                                 for k in range(vocab.MAX_CHAIN)])
    simultaneous = z3.And(is_trigger(ctx, ctx.eff), links_are_triggers,
                          z3.Not(ctx.win("start_step", "end_step")))
    return {"chain_speed1": simultaneous}


@part("CH-6")
def ch6_own_chains(ctx):
    return z3.Implies(z3.And(ctx.activating, is_trigger(ctx, ctx.eff), ctx.win("start_step", "end_step")),
                      ctx.pre.chain_len == 0)


def segoc_rank(ctx, eff):
    """Place of a trigger in a Chain of simultaneous triggers: the turn player's mandatory ones,
    the opponent's mandatory ones, the turn player's optional ones, the opponent's optional ones
    (S2 7-9 puts them on one Chain; the sources give no order, so it is the rulebook's
    chain-building rule, docs/interpretations.md "CH-6 order")."""
    S = ctx.S
    tp = S.ctrl(S.inst(eff)) == S.tp
    return z3.If(S.mandatory(eff), z3.If(tp, 0, 1), z3.If(tp, 2, 3))


@part("CH-6")
def ch6_order(ctx):
    # a trigger added to a Chain of simultaneous triggers comes no earlier in the order than the
    # links below it; a player may still decline an optional trigger altogether
    pre = ctx.pre
    adding = z3.And(ctx.activating, is_trigger(ctx, ctx.eff), pre.chain_len > 0,
                    z3.Not(ctx.win("start_step", "end_step")))
    mine = segoc_rank(ctx, ctx.eff)
    below = [z3.Implies(z3.And(k < pre.chain_len, is_trigger(ctx, pre.link_eff[k])),
                        segoc_rank(ctx, pre.link_eff[k]) <= mine) for k in range(vocab.MAX_CHAIN)]
    return z3.Implies(adding, z3.And(below))


@part("CH-6", shape="update", priority=PRIORITY)
def ch6_one_chain(ctx):
    # when a Chain starts to resolve, triggers of this moment that were not put on it have
    # missed it (they go on one Chain); the Start and End Step are the exception
    pre = ctx.pre
    starts = z3.And(ctx.is_("pass"), pre.passes == 1, pre.chain_len > 0,
                    z3.Not(ctx.win("start_step", "end_step")))
    return [Update("trig", e, starts, z3.BoolVal(False)) for e in ctx.effects]


@rule("PR-1", "At the start of each step (and after a Chain resolves) the turn player has "
      "priority; with no Chain open only the player with priority may act.",
      ["S0-TCG 10", "S0-OCG 147", "S0-OCG 153", "S2 15"])
def pr1(ctx):
    pre, act = ctx.pre, ctx.act
    return z3.Implies(z3.And(ctx.is_("activate", "pass"), pre.chain_len == 0),
                      act.player == pre.prio)


@part("PR-1", shape="update", priority=PRIORITY)
def pr1_reset(ctx):
    pre, post, S = ctx.pre, ctx.post, ctx.S
    entering = post.window != pre.window
    chain_done = z3.And(ctx.is_("resolve_link"), pre.chain_len == 1)
    return [Update("prio", None, z3.Or(entering, chain_done), S.tp),
            Update("passes", None, z3.Or(entering, chain_done), z3.IntVal(0)),
            Update("chains", None, entering, z3.IntVal(0))]


@rule("PR-3", "A window ends, and the game moves on, only after both players pass in "
      "succession with an empty Chain; with a Chain open, two passes in succession resolve it.",
      ["S0-OCG 149", "S0-OCG 157", "S0-OCG 223", "S3 39"])
def pr3(ctx):
    pre = ctx.pre
    moves_on = ctx.is_("next", "end_bp", "attack", "enter_bp", "skip_bp", "retarget", "stop_attack")
    return z3.Implies(moves_on, z3.And(pre.chain_len == 0, z3.Not(pre.resolving)))


def second_pass(ctx):
    """The step is the second of two passes in succession with an empty Chain."""
    pre = ctx.pre
    return z3.And(ctx.is_("pass"), pre.passes == 1, pre.chain_len == 0)


def closing(ctx):
    """The step closes the current window (both players have passed, Chain empty: two passes,
    or `next`, which says so in one step)."""
    return z3.Or(ctx.is_("next"), second_pass(ctx))


@part("PR-3", shape="update", priority=PRIORITY)
def pr3_passes(ctx):
    pre, act = ctx.pre, ctx.act
    passing = ctx.is_("pass")
    return [Update("resolving", None, z3.And(passing, pre.passes == 1, pre.chain_len > 0), z3.BoolVal(True)),
            Update("passes", None, z3.And(passing, pre.passes == 0), z3.IntVal(1)),
            Update("prio", None, z3.And(passing, pre.passes == 0), ctx.opp(act.player))]

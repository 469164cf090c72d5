"""General game mechanics the sources take for granted: a battle's marks, and what a play
claims (GEN-3, GEN-4). They are not in rules.md; docs/interpretations.md says why each is
needed. The other GEN-* rules are in activation.py, triggers.py and resolution.py."""
import z3

from ..state import CALC_PENDING, CL, NONE
from .base import Update, rule
from .effects import counters_on
from .stats import shown_stat
from .triggers import PRIORITY as TRIGGERS

PRIORITY = TRIGGERS + 10   # the last of the updates


@rule("GEN-3", "After a battle ends its marks are cleared: destroyed-by-battle, flipped, \"destroy it after "
      "damage calculation\", battle damage, the calculation state and \"once per battle\" limits (what a "
      "monster did this turn is kept).",
      ["S3 75", "S0-TCG 133"], shape="update", name="battle.marks", priority=PRIORITY)
def gen3(ctx):
    pre, post = ctx.pre, ctx.post
    back = z3.And(z3.Or(ctx.ds(), ctx.win("attack_declared", "battle_step")),
                  z3.Not(post.attacking), z3.Not(ctx.ds(post)), pre.attacking)
    ups = [Update(name, p, back, z3.IntVal(0)) for p in (0, 1) for name in ("bd", "bdc")]
    ups.append(Update("calc", None, back, z3.IntVal(CALC_PENDING)))
    for i in ctx.cards:
        ups += [Update(name, i, back, z3.BoolVal(False)) for name in ("dbb", "flipped")]
        # a "destroy it after damage calculation" mark goes in the step after the battle ended (no
        # attack going on in the state before): damage calculation reads the mark in the state
        # after (calc.present_at_calc), and `back` reads the attack in the state after, which
        # depends on damage calculation; nothing reads the mark between battles
        ups.append(Update("doomed", i, z3.Not(pre.attacking), z3.IntVal(0)))
    # "once per battle" (Injection Fairy Lily): the next battle may use it again
    ups += [Update("used", e, z3.And(back, ctx.S.once_battle(e)), z3.BoolVal(False)) for e in ctx.effects]
    return ups


@rule("GEN-4", "What a play claims about the state (LP, ATK, DEF, battle position, destroyed by "
      "battle, location, window, face-up, counters, the attack going on, damage calculation) must "
      "be what the rules produce.",
      ["card text and game mechanics (not in the sources)"], name="claim.state")
def gen4(ctx):
    pre, act = ctx.pre, ctx.act
    c, v = act.card, act.value
    sel = ctx.sel
    checks = {
        "lp": sel(pre.lp, act.player) == v,
        "destroyed_by_battle": sel(pre.dbb, c, z3.BoolVal(False)) == (v == 1),
        "location": sel(pre.loc, c, z3.IntVal(0)) == v,
        "atk": shown_stat(ctx, "atk", c, pre) == v,
        "def": shown_stat(ctx, "def", c, pre) == v,
        "position": sel(pre.defpos, c, z3.BoolVal(False)) == (v == 1),
        "attacking": pre.attacking == (v == 1),
        "window": pre.window == v,
        "face_up": sel(pre.faceup, c, z3.BoolVal(False)) == (v == 1),
        "calc": pre.calc == v,
        "counters": counters_on(ctx, c, pre) == v,
    }
    body = z3.And([z3.Implies(act.claim == CL[k], t) for k, t in checks.items()])
    said_next = z3.Implies(z3.And(ctx.is_("next"), act.window != NONE), ctx.post.window == act.window)
    return z3.And(z3.Implies(ctx.is_("claim"), body), said_next)

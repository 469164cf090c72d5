"""General game mechanics the sources take for granted (GEN-*). They are not in rules.md;
docs/interpretations.md says why each is needed."""
import z3

from .. import vocab
from ..state import CALC_PENDING, CL, NONE
from .base import Update, rule
from .chain import is_trigger
from .resolution import applies
from .tables import condition_holds, event_trigger, located, passes_with, timed

MZ = vocab.L["monster_zone"]
GENERAL = ["card text and game mechanics (not in the sources)"]


@rule("GEN-1", "An effect is activated only when its own condition holds; an effect that names a "
      "timing, or is triggered, only in a window the rule set opens for it, and a triggered "
      "effect only while its trigger is pending; a Trigger Effect on this card being Special "
      "Summoned becomes pending when the Chain Link that summons it resolves and stays pending "
      "until the window changes or a Chain starts resolving (a mandatory one must be activated "
      "by then: with no Chain open its controller does not pass and nothing else starts a Chain); a replacement-for-destruction effect is applied only where the rule set opens a "
      "window for it (the OCG's D4-7; the TCG sources open none).",
      GENERAL)
def gen1(ctx):
    pre, e = ctx.pre, ctx.eff
    # an event trigger's timing is its event: the pending flag, not a window grant, places it
    in_window = z3.Implies(z3.And(timed(ctx, e), z3.Not(event_trigger(ctx, e))), ctx.grant("timing"))
    pending = z3.Implies(is_trigger(ctx, e), ctx.sel(pre.trig, e, z3.BoolVal(False)))
    activation = z3.Implies(ctx.activating, z3.And(condition_holds(ctx, e, pre), in_window, pending,
                                                   negates_what_it_says(ctx, e)))
    # without this a rule set with no replacement window (tcg) would accept any `replace`
    waiting = waiting_event_triggers(ctx)
    own_pass = z3.And(ctx.is_("pass"), ctx.pre.chain_len == 0, z3.Or(passes_with(ctx, waiting) or [z3.BoolVal(False)]))
    # as for the windows' triggers (tables.build): the waiting trigger starts the Chain
    first = z3.And(ctx.activating, ctx.pre.chain_len == 0, z3.Not(event_trigger(ctx, e)), z3.Or(waiting))
    return z3.And(activation, z3.Implies(ctx.is_("replace"), ctx.grant("replace")),
                  z3.Not(z3.And(event_missed(ctx), z3.Or(waiting))), z3.Not(own_pass), z3.Not(first))


def waiting_event_triggers(ctx):
    """Mandatory event triggers that are pending and could still be activated (the card is face-up
    in the Monster Zone, and is not barred from the Damage Step by its text, DS-3, or by how it
    changes ATK/DEF, DS-4, DS-5)."""
    S, pre = ctx.S, ctx.pre
    out = []
    for e in ctx.effects:
        c = S.inst(e)
        there = z3.And(ctx.sel(pre.loc, c, z3.IntVal(0)) == MZ, ctx.sel(pre.faceup, c, z3.BoolVal(False)))
        barred = z3.And(ctx.ds(), z3.Or(S.no_ds(e), S.atkdef(e) == vocab.AD["indirect"],
                                        S.atkdef(e) == vocab.AD["maybe"]))
        out.append(z3.And(pre.trig[e], S.mandatory(e), event_trigger(ctx, e), there, z3.Not(barred)))
    return out or [z3.BoolVal(False)]


def event_missed(ctx):
    """The step ends the moment an event trigger belongs to: the window changes, or a Chain starts
    resolving (in the Start and End Step triggers start Chains of their own, CH-6)."""
    pre = ctx.pre
    # a replay's choice (retarget, stop attack) comes first and keeps the trigger (gen1_event)
    moves_on = ctx.is_("next", "end_bp", "attack", "enter_bp", "skip_bp")
    second_pass = z3.And(ctx.is_("pass"), pre.passes == 1,
                         z3.Or(pre.chain_len == 0, z3.Not(ctx.win("start_step", "end_step"))))
    return z3.Or(moves_on, second_pass)


def negates_what_it_says(ctx, e):
    """An effect that negates an activation answers only the kind its text names."""
    S, top = ctx.S, ctx.top_eff
    spell = ctx.kind_is(top, *[k for k in vocab.CARD_KINDS if k.startswith("spell")])
    trap = ctx.kind_is(top, *[k for k in vocab.CARD_KINDS if k.startswith("trap")])
    kinds = {"spell": spell, "trap": trap, "monster_effect": z3.Not(z3.Or(spell, trap)),
             "spell_trap": z3.Or(spell, trap), "any": z3.BoolVal(True)}
    ok = z3.And([z3.Implies(S.negates(e) == vocab.NG[k], t) for k, t in kinds.items()])
    return z3.Implies(z3.And(S.negates(e) != vocab.NG["none"], ctx.pre.chain_len > 0), ok)


@rule("GEN-1", "", GENERAL, shape="update")
def gen1_event(ctx):
    # Registered before gen1_clear, so it wins on the step it applies to: a Chain whose end moves
    # the game on (BS-2, D3-3, T4, ES-1), or a replay's choice (BS-3, which comes first), carries
    # the event's pending trigger to the next open game state.
    S, pre = ctx.S, ctx.pre
    t = ctx.top_target()
    summons = z3.And(applies(ctx, "special_summon"), t != NONE,
                     ctx.sel(pre.loc, t, z3.IntVal(0)) != MZ)
    keeps = ctx.is_("resolve_link", "retarget", "stop_attack")
    return [Update("trig", e, z3.And(event_trigger(ctx, e),
                                     z3.Or(z3.And(summons, S.inst(e) == t),
                                           z3.And(keeps, pre.trig[e]))),
                   z3.BoolVal(True))
            for e in ctx.effects]


@rule("GEN-1", "", GENERAL, shape="update")
def gen1_clear(ctx):
    pre, post, act = ctx.pre, ctx.post, ctx.act
    entering = post.window != pre.window
    return [Update("trig", e, z3.Or(z3.And(ctx.activating, act.eff == e), entering), z3.BoolVal(False))
            for e in ctx.effects]


def where_ok(ctx):
    """GEN-2: the card is its controller's, and where its effect is activated from."""
    c = ctx.S.inst(ctx.eff)
    return z3.And(ctx.S.ctrl(c) == ctx.act.player, located(ctx, ctx.eff, ctx.pre))


@rule("GEN-2", "", GENERAL)
def gen2(ctx):
    return z3.Implies(ctx.activating, where_ok(ctx))


@rule("GEN-3", "After a battle ends its marks are cleared: destroyed-by-battle, flipped, battle "
      "damage and the calculation state (what a monster did this turn is kept).", GENERAL,
      shape="update")
def gen3(ctx):
    pre, post = ctx.pre, ctx.post
    back = z3.And(z3.Or(ctx.ds(), ctx.win("attack_declared", "battle_step")),
                  z3.Not(post.attacking), z3.Not(ctx.ds(post)), pre.attacking)
    ups = [Update("bd", p, back, z3.IntVal(0)) for p in (0, 1)]
    ups.append(Update("calc", None, back, z3.IntVal(CALC_PENDING)))
    for i in ctx.cards:
        ups += [Update(name, i, back, z3.BoolVal(False)) for name in ("dbb", "flipped")]
    return ups


@rule("GEN-4", "What a play claims about the state (LP, ATK, destroyed by battle, location, "
      "window, face-up, damage calculation) must be what the rules produce.", GENERAL)
def gen4(ctx):
    pre, act = ctx.pre, ctx.act
    c, v = act.card, act.value
    sel = ctx.sel
    checks = {
        "lp": sel(pre.lp, act.player) == v,
        "destroyed_by_battle": sel(pre.dbb, c, z3.BoolVal(False)) == (v == 1),
        "location": sel(pre.loc, c, z3.IntVal(0)) == v,
        "atk": sel(pre.atk, c, z3.IntVal(0)) == v,
        "window": pre.window == v,
        "face_up": sel(pre.faceup, c, z3.BoolVal(False)) == (v == 1),
        "calc": pre.calc == v,
    }
    body = z3.And([z3.Implies(act.claim == CL[k], t) for k, t in checks.items()])
    said_next = z3.Implies(z3.And(ctx.is_("next"), act.window != NONE), ctx.post.window == act.window)
    return z3.And(z3.Implies(ctx.is_("claim"), body), said_next)

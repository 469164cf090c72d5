"""Rule-set tables turned into terms: each entry is gated by the rule ID it names.

A rule set (model/rulesets/*.json) holds, besides its list of rules:
* `transitions`: which window follows which when both players pass (a row with `"by"` only on
  two passes, `"passes"`, or only on `next`, `"next"`: at the attack declaration they differ);
* `timing_grants`: in which window an effect with a named timing, a trigger
  condition or an effect kind may be (or, if mandatory, must be) activated;
* `atk_windows`: the Damage Step windows where ATK/DEF changers are admitted;
* `flip`: where the face-down attack target is flipped face-up.
Those are the places where TCG and OCG differ as data.
"""
import z3

from .. import vocab
from .activation import can_trigger_there, on_event, places_trigger
from .base import Update
from .calc import battler_gone
from .chain import closing, is_trigger, second_pass
from .triggers import face_up_to_trigger, forced

MZ = vocab.L["monster_zone"]
PRIORITY = 0   # the rows' updates come before every rule's (model/step.py)


def overridden(ctx, eff, before=None):
    """The rule set places this effect by its condition, not by its named timing: a condition
    row (one in a window no later than `before`, when given) is about it."""
    conds = {g["condition"] for g in ctx.ruleset.timing_grants if "condition" in g
             and (before is None or vocab.W[g["window"]] <= vocab.W[before])}
    return z3.Or([ctx.S.cond(eff) == vocab.CO[c] for c in conds]) if conds else z3.BoolVal(False)


def timed_earlier(ctx, eff, window):
    """The effect names a Damage Step timing that the rule set places before `window`."""
    S = ctx.S
    names = {g["timing"] for g in ctx.ruleset.timing_grants if "timing" in g
             and g["timing"] not in OUTSIDE_DS and vocab.W[g["window"]] < vocab.W[window]}
    return z3.Or([S.names[t](eff) for t in sorted(names)]) if names else z3.BoolVal(False)


OUTSIDE_DS = ("start_step", "attack_declared", "end_step")


def matches(ctx, grant, eff):
    """Whether a `timing_grants` row is about this effect. Within the Damage Step an effect whose
    text names a timing and whose trigger condition has a row goes to the earlier of the two: the
    condition's row wins when it is no later (TCG puts battle-damage effects at sub-step 5 even
    when they say "after damage calculation"), the named timing when the condition's row comes
    later ("D.D. Assailant": after damage calculation, though its "destroyed by battle" row is the
    end of the Damage Step; S0-TCG 114). A timing outside the Damage Step (End Step effects) is
    never overridden. No row is about an effect on a moment's event (vocab.EVENTS): the event, not
    a window, makes it pending."""
    S = ctx.S
    no_event = z3.Not(on_event(ctx, eff))
    if "timing" in grant:
        t = grant["timing"]
        if t in OUTSIDE_DS:
            return z3.And(S.names[t](eff), no_event)
        return z3.And(S.names[t](eff), z3.Not(overridden(ctx, eff, grant["window"])), no_event)
    if "condition" in grant:
        return z3.And(S.cond(eff) == vocab.CO[grant["condition"]],
                      z3.Not(z3.Or([S.names[t](eff) for t in OUTSIDE_DS])),
                      z3.Not(timed_earlier(ctx, eff, grant["window"])))
    return z3.And(S.ekind(eff) == vocab.EK[grant["kind"]], z3.Not(overridden(ctx, eff)),
                  z3.Not(z3.Or([S.names[t](eff) for t in vocab.TIMINGS])), no_event)


def build(ctx, lit):
    """(restrictions, grants, updates) from the rule set's tables; `lit(id)` gates an entry."""
    rs, pre, post, act, S = ctx.ruleset, ctx.pre, ctx.post, ctx.act, ctx.S
    restrictions, grants, updates = [], [], []

    for g in rs.timing_grants:
        w = vocab.W[g["window"]]
        grants.append((g["rule"], "timing", z3.And(pre.window == w, matches(ctx, g, act.eff))))
        pending = [z3.And(pre.trig[e], S.mandatory(e), matches(ctx, g, e)) for e in ctx.effects]
        # triggers go on one Chain (CH-6), except in the Start and End Step where each starts
        # its own: there a waiting mandatory trigger must only be activated before the step ends
        own_chains = g["window"] in ("start_step", "end_step")
        resolving_now = z3.And(ctx.is_("pass"), pre.passes == 1, pre.chain_len > 0,
                               z3.BoolVal(not own_chains))
        if pending:   # the row's mandatory triggers are forced as GEN-9 forces event triggers
            own = ctx.sel(pre.trig, act.eff, z3.BoolVal(False))
            restrictions.append((g["rule"], z3.Implies(pre.window == w, forced(
                ctx, pending, z3.Or(closing(ctx), resolving_now), own))))

    for a in rs.atk_windows:
        grants.append((a["rule"], "atk_window", pre.window == vocab.W[a["window"]]))

    for t in rs.transitions:
        by = {"passes": second_pass(ctx), "next": ctx.is_("next")}[t["by"]] if "by" in t else closing(ctx)
        when = z3.And(by, pre.window == vocab.W[t["from"]])
        if "attacking" in t:
            when = z3.And(when, pre.attacking == t["attacking"])
        updates.append((t["rule"], Update("window", None, when, z3.IntVal(vocab.W[t["to"]]))))

    flip = rs.flip
    first = vocab.W[rs.damage_step[0]]
    # D1-1 / T1: at the start of the Damage Step the target is still face-down
    early = z3.And(z3.Not(ctx.grant("face_down_at_ds_start")), post.window == first)
    entering_flip = z3.And(z3.Or(post.window == vocab.W[flip["window"]], early), pre.window != post.window)
    for i in ctx.cards:
        # D1-5 / T1: a target destroyed before this point is never flipped
        gone = z3.And(ctx.grant("destroyed_target_not_flipped"), pre.loc[i] != MZ)
        hit = z3.And(entering_flip, pre.attacking, pre.target == i, z3.Not(pre.faceup[i]), z3.Not(gone))
        updates.append((flip["rule"], Update("faceup", i, hit, z3.BoolVal(True))))
        updates.append((flip["rule"], Update("flipped", i, hit, z3.BoolVal(True))))

    # Trigger Effects become pending when a window opens whose grant matches them; the
    # damage-calculation window's only if there is a damage calculation (D2-7, T4)
    entering = post.window != pre.window
    no_calc = z3.And(post.window == vocab.W[rs.calc_window], ctx.grant("calc_stops_when_gone"),
                     battler_gone(ctx, post))
    for e in ctx.effects:
        for g in rs.timing_grants:
            w = vocab.W[g["window"]]
            there = z3.And(can_trigger_there(ctx, e, post), face_up_to_trigger(ctx, e, post))
            when = z3.And(entering, post.window == w, is_trigger(ctx, e), matches(ctx, g, e),
                          places_trigger(ctx, e, post), there, z3.Not(no_calc))
            updates.append((g["rule"], Update("trig", e, when, z3.BoolVal(True))))
    return restrictions, grants, updates

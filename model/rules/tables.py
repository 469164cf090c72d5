"""Rule-set tables turned into terms: each entry is gated by the rule ID it names.

A rule set (model/rulesets/*.json) holds, besides its list of rules:
* `transitions`: which window follows which when both players pass;
* `timing_grants`: in which window an effect with a named timing, a trigger
  condition or an effect kind may be (or, if mandatory, must be) activated;
* `atk_windows`: the Damage Step windows where ATK/DEF changers are admitted;
* `flip`: where the face-down attack target is flipped face-up.
Those are the places where TCG and OCG differ as data.
"""
import z3

from .. import vocab
from ..state import NONE
from .base import Update
from .chain import closing, is_trigger

MZ, STZ, FZ, HAND, GY, BAN = (vocab.L[n] for n in ("monster_zone", "spell_trap_zone", "field_zone", "hand",
                                                   "graveyard", "banished"))


def condition_holds(ctx, eff, st):
    """The effect's own activation condition (vocab.CONDITIONS) in state `st`."""
    S = ctx.S
    c = S.inst(eff)
    p = S.ctrl(c)
    tgt = st.target
    sel = ctx.sel
    battling = z3.And(st.attacking, z3.Or(c == st.attacker, c == tgt))
    target_up = z3.And(tgt != NONE, sel(st.faceup, tgt))
    cases = {
        "none": z3.BoolVal(True),
        "battling": battling,
        "own_monster_battling": z3.And(st.attacking, z3.Or(S.ctrl(st.attacker) == p,
                                                           z3.And(tgt != NONE, S.ctrl(tgt) == p))),
        "opponent_attacks": z3.And(st.attacking, S.ctrl(st.attacker) != p),
        "attacked": z3.And(st.attacking, tgt == c),
        "attacked_face_down": z3.And(st.attacking, tgt == c, st.target_was_face_down),
        "flipped_by_attack": sel(st.flipped, c),
        # in a battle: this battle's result; after it (End Step): anything this turn
        "destroyed_by_battle": z3.If(st.attacking, sel(st.dbb, c), sel(st.lost, c)),
        "destroys_by_battle": z3.And(sel(st.destroyer, c), sel(st.loc, c) == MZ,  # S2 89: still there
                                     z3.Or(z3.Not(st.attacking), c == st.attacker, c == tgt)),
        "battled": sel(st.battled, c),
        "summoned": z3.BoolVal(True),   # the event is the pending flag (GEN-1), not a state
        "monster_destroyed_by_battle": z3.Or(st.dbb) if ctx.ncards else z3.BoolVal(False),
        "battle_damage_dealt": z3.And(z3.Or(c == st.attacker, c == tgt), ctx.sel(st.bd, 1 - p) > 0),
        "battle_damage_dealt_direct": z3.And(tgt == NONE, S.ctrl(st.attacker) == p, ctx.sel(st.bd, 1 - p) > 0),
        "battle_damage_taken": ctx.sel(st.bd, p) > 0,
        "attacks_face_up_defense": z3.And(st.attacker == c, target_up, sel(st.defpos, tgt)),
        "attacks_face_up_level_3_or_lower": z3.And(st.attacker == c, target_up, S.level(tgt) <= 3),
        "attacks_face_up": z3.And(st.attacker == c, target_up),
        "opponent_monster_count_changed": st.count_changed,
        "controls_same_archetype": z3.Or([z3.And(c != j, st.loc[j] == MZ, st.faceup[j], S.ctrl(j) == p,
                                                 S.archetype(j) == S.archetype(c), S.archetype(c) != 0)
                                          for j in ctx.cards]) if ctx.ncards else z3.BoolVal(False),
    }
    out = z3.BoolVal(False)
    for name, term in cases.items():
        out = z3.If(S.cond(eff) == vocab.CO[name], term, out)
    return out


def located(ctx, eff, st):
    """GEN-2: in state `st` the effect's card is where that effect is activated from (a Spell or
    Trap Set on the field, a Quick-Play Spell also in its controller's hand on their turn; a
    monster effect from the place its text says, face-up in the Monster Zone by default)."""
    S = ctx.S
    c = S.inst(eff)
    loc, up = ctx.sel(st.loc, c, z3.IntVal(0)), ctx.sel(st.faceup, c, z3.BoolVal(False))
    spell_trap = z3.Not(ctx.kind_is_card(c, *[k for k in vocab.CARD_KINDS if k.startswith("monster")]))
    set_card = z3.And(loc == STZ, z3.Not(up))
    spell_from_hand = z3.And(loc == HAND, ctx.kind_is_card(c, *[k for k in vocab.CARD_KINDS if k.startswith("spell")]),
                             S.ctrl(c) == S.tp)
    st_ok = z3.Or(set_card, spell_from_hand,
                  z3.And(z3.Not(ctx.ekind_is(eff, "activation")), up, z3.Or(loc == STZ, loc == FZ)))
    left_field = z3.Or([S.cond(eff) == vocab.CO[n] for n in ("destroyed_by_battle",)])
    flip_anywhere = z3.And(z3.BoolVal(not ctx.ruleset.flip_effect_needs_field),
                           S.cond(eff) == vocab.CO["flipped_by_attack"])
    monster_ok = z3.If(S.from_hand(eff), loc == HAND,
                       z3.If(S.from_gy(eff), loc == GY,
                             z3.Or(z3.And(loc == MZ, up),
                                   z3.And(left_field, z3.Or(loc == GY, loc == BAN)),
                                   flip_anywhere)))
    return z3.If(spell_trap, st_ok, monster_ok)


def event_trigger(ctx, eff):
    """A Trigger Effect whose event happens while a Chain Link resolves (`summoned`): it becomes
    pending then (GEN-1), never because a window opens."""
    return z3.And(is_trigger(ctx, eff), ctx.S.cond(eff) == vocab.CO["summoned"])


def overridden(ctx, eff):
    """The rule set places this effect by its condition, not by its named timing."""
    conds = {g["condition"] for g in ctx.ruleset.timing_grants if "condition" in g}
    return z3.Or([ctx.S.cond(eff) == vocab.CO[c] for c in conds]) if conds else z3.BoolVal(False)


OUTSIDE_DS = ("start_step", "attack_declared", "end_step")


def matches(ctx, grant, eff):
    """Whether a `timing_grants` row is about this effect. Within the Damage Step a row for
    the effect's trigger condition wins over a row for its named timing (TCG puts battle-damage
    effects at sub-step 5 even when they say "after damage calculation"); a timing outside the
    Damage Step (End Step effects) is never overridden. No row is about a `summoned` effect: its
    event, not a window, makes it pending."""
    S = ctx.S
    no_event = S.cond(eff) != vocab.CO["summoned"]
    if "timing" in grant:
        t = grant["timing"]
        if t in OUTSIDE_DS:
            return z3.And(S.names[t](eff), no_event)
        return z3.And(S.names[t](eff), z3.Not(overridden(ctx, eff)), no_event)
    if "condition" in grant:
        return z3.And(S.cond(eff) == vocab.CO[grant["condition"]],
                      z3.Not(z3.Or([S.names[t](eff) for t in OUTSIDE_DS])))
    return z3.And(S.ekind(eff) == vocab.EK[grant["kind"]], z3.Not(overridden(ctx, eff)),
                  z3.Not(z3.Or([S.names[t](eff) for t in vocab.TIMINGS])), no_event)


def timed(ctx, eff):
    """Effects whose timing is fixed: triggered effects, and effects that name a timing."""
    return z3.Or(is_trigger(ctx, eff), z3.Or([ctx.S.names[t](eff) for t in vocab.TIMINGS]))


def passes_with(ctx, waiting) -> list:
    """For each effect, `waiting[e]` and the acting player controls it (their own pass)."""
    S = ctx.S
    return [z3.And(t, S.ctrl(S.inst(e)) == ctx.act.player) for e, t in zip(ctx.effects, waiting)]


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
        if pending:
            # nor may its controller pass with it waiting and no Chain open: after that pass
            # nobody could act (the other player's pass would close the window)
            passing = z3.And(ctx.is_("pass"), pre.chain_len == 0, z3.Or(passes_with(ctx, pending)))
            # and the Chain they start is theirs: nothing else may start it first, or they could
            # not be added to it (CH-6) and the Chain could not resolve
            first = z3.And(ctx.activating, pre.chain_len == 0, z3.Not(ctx.sel(pre.trig, act.eff, z3.BoolVal(False))),
                           z3.Or(pending))
            restrictions.append((g["rule"], z3.Implies(pre.window == w, z3.Not(z3.Or(
                z3.And(z3.Or(closing(ctx), resolving_now), z3.Or(pending)), passing, first)))))

    for a in rs.atk_windows:
        grants.append((a["rule"], "atk_window", pre.window == vocab.W[a["window"]]))

    for t in rs.transitions:
        when = z3.And(closing(ctx), pre.window == vocab.W[t["from"]])
        if "attacking" in t:
            when = z3.And(when, pre.attacking == t["attacking"])
        updates.append((t["rule"], Update("window", None, when, z3.IntVal(vocab.W[t["to"]]))))

    flip = rs.flip
    first = vocab.W[rs.damage_step[0]]
    # D1-1 / T1: at the start of the Damage Step the target is still face-down
    early = z3.And(z3.Not(z3.Or(ctx.lit("D1-1"), ctx.lit("T1"))), post.window == first)
    entering_flip = z3.And(z3.Or(post.window == vocab.W[flip["window"]], early), pre.window != post.window)
    for i in ctx.cards:
        # D1-5 / T1: a target destroyed before this point is never flipped
        gone = z3.And(z3.Or(ctx.lit("D1-5"), ctx.lit("T1")), pre.loc[i] != MZ)
        hit = z3.And(entering_flip, pre.attacking, pre.target == i, z3.Not(pre.faceup[i]), z3.Not(gone))
        updates.append((flip["rule"], Update("faceup", i, hit, z3.BoolVal(True))))
        updates.append((flip["rule"], Update("flipped", i, hit, z3.BoolVal(True))))

    # Trigger Effects become pending when a window opens whose grant matches them.
    entering = post.window != pre.window
    for e in ctx.effects:
        for g in rs.timing_grants:
            w = vocab.W[g["window"]]
            # a card that is not where its effect is activated from does not trigger it (GEN-2):
            # "The Six Samurai - Zanji" destroyed by battle has no end-of-Damage-Step effect to force
            there = z3.Or(z3.Not(ctx.lit("GEN-2")), located(ctx, e, post))
            when = z3.And(entering, post.window == w, is_trigger(ctx, e), matches(ctx, g, e),
                          condition_holds(ctx, e, post), there)
            updates.append((g["rule"], Update("trig", e, when, z3.BoolVal(True))))
    return restrictions, grants, updates

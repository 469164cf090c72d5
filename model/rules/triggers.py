"""Triggered effects: pending, the event of being Special Summoned, and mandatory ones forced
(GEN-7 to GEN-9). Mechanics the sources take for granted; docs/interpretations.md says why each
is needed. Which window makes a trigger pending is the rule sets' data (tables.py)."""
import z3

from .. import vocab
from .activation import event_trigger, located, places_trigger
from .base import Update, once, part, rule
from .chain import is_trigger
from .continuous import destroyed_settled
from .effects import FIELD
from .resolution import PRIORITY as RESOLUTION
from .resolution import affects, destroyed_by_effect

MZ, GY = vocab.L["monster_zone"], vocab.L["graveyard"]
MONSTER_KINDS = vocab.TYPE_KINDS["monster"]
PRIORITY = RESOLUTION + 20   # after the resolutions and the rule-set-specific updates


def passes_with(ctx, waiting) -> list:
    """For each effect, `waiting[e]` and the acting player controls it (their own pass)."""
    S = ctx.S
    return [z3.And(t, S.ctrl(S.inst(e)) == ctx.act.player) for e, t in zip(ctx.effects, waiting)]


def forced(ctx, waiting, ends, own):
    """Mandatory triggers `waiting` (one term per effect) must be activated before the moment
    `ends`; nor may their controller pass with one waiting and no Chain open (after that pass
    nobody could act: the other player's pass would close the window), and the Chain they start
    is theirs: nothing but such a trigger (`own`: the effect activated is one) may start it first,
    or they could not be added to it (CH-6) and the Chain could not resolve."""
    pre = ctx.pre
    passing = z3.And(ctx.is_("pass"), pre.chain_len == 0, z3.Or(passes_with(ctx, waiting) or [z3.BoolVal(False)]))
    first = z3.And(ctx.activating, pre.chain_len == 0, z3.Not(own), z3.Or(waiting))
    return z3.Not(z3.Or(z3.And(ends, z3.Or(waiting)), passing, first))


def face_up_to_trigger(ctx, eff, st):
    """A Spell/Trap card's effects other than its activation need it face-up (GEN-7): a Set
    Continuous Trap can only be activated, so a Set "Coffin Seller" does not trigger. Read by the
    rule sets' trigger rows (tables.py); without GEN-7 in the set, any card triggers."""
    c = ctx.S.inst(eff)
    monster = ctx.kind_is_card(c, *MONSTER_KINDS)
    return z3.Or(z3.Not(ctx.lit("GEN-7")), monster, ctx.sel(st.faceup, c, z3.BoolVal(False)))


@rule("GEN-7", "A triggered effect is activated only while its trigger is pending; it stops being "
      "pending once activated or when the window changes. A Spell/Trap card's trigger needs the "
      "card face-up (a Set Continuous Trap can only be activated).",
      ["S1 69-77", "S2 7-9", "S0-OCG 199", "card text"],
      name="trigger.pending", hint="windows")
def gen7(ctx):
    e = ctx.eff
    return z3.Implies(z3.And(ctx.activating, is_trigger(ctx, e)), ctx.sel(ctx.pre.trig, e, z3.BoolVal(False)))


@rule("GEN-8", "A Trigger Effect on an event of a moment (its card Special Summoned, destroyed or "
      "leaving the field; a monster sent to the opponent's Graveyard) becomes pending in the step "
      "where it happens, until the window changes or a Chain starts resolving.",
      ["S0-TCG 118-122", "S2 87", "S0-OCG 213-216", "card text"], name="trigger.event", shape="update",
      priority=PRIORITY)
def gen8_event(ctx):
    # Before GEN-7's clearing (a lower priority number), so it wins on the step it applies to: a
    # Chain whose end moves the game on (BS-2, D3-3, T4, ES-1), a replay's choice (BS-3, which
    # comes first), or the step that enters the end of the Damage Step (where monsters destroyed
    # by battle are sent to the Graveyard: D5-1, T7) carries the event's pending trigger to the
    # next open game state. Settled (base.Update): a card's destroying itself, one of the events'
    # causes, is read from the state the step's other updates leave (ctx.mid).
    S, pre = ctx.S, ctx.pre
    happened = events(ctx)
    keeps = ctx.is_("resolve_link", "retarget", "stop_attack")
    ups = []
    for e in ctx.effects:
        now = z3.Or([z3.And(S.inst(e) == i, S.cond(e) == vocab.CO[name], t)
                     for i in ctx.cards for name, t in happened[i].items()] or [z3.BoolVal(False)])
        ups.append(Update("trig", e, z3.And(event_trigger(ctx, e),
                                            z3.Or(z3.And(now, places_trigger(ctx, e, ctx.post), located(ctx, e, ctx.post),
                                                         face_up_to_trigger(ctx, e, ctx.post)),
                                                  z3.And(keeps, pre.trig[e]))),
                          z3.BoolVal(True), settled=True))
    return ups


def events(ctx):
    """For each card, {event: it happens to the card in this step} (vocab.EVENTS)."""
    return once(ctx, ("events",), lambda: [_events(ctx, i) for i in ctx.cards])


def _events(ctx, i):
    pre, post = ctx.pre, ctx.post
    on_field = [z3.Or([st.loc[i] == z for z in FIELD]) for st in (pre, post)]
    leaves = z3.And(on_field[0], z3.Not(on_field[1]))
    # destroyed: by battle (still marked as it is sent to the Graveyard, D5-1 / T7, or in the
    # calculation's own step where a rule set sends it at once), by the resolving link (GEN-15),
    # by its own continuous effect, by an effect that destroys it after damage calculation, or as
    # an Equip Card losing its monster (GEN-18, GEN-15, GEN-20), or as the card a replacement
    # destroys instead (D4-7)
    destroyed = z3.And(leaves, z3.Or(pre.dbb[i], post.dbb[i], destroyed_by_effect(ctx, i),
                                     *destroyed_settled(ctx, i),
                                     z3.And(ctx.is_("replace"), ctx.act.other == i)))
    return {
        # a monster the link Special Summons: its target, or a card it chooses as it resolves (GEN-22)
        "summoned": z3.And(affects(ctx, "special_summon", i), pre.loc[i] != MZ),
        "destroyed": destroyed,
        "destroyed_face_up": z3.And(destroyed, pre.faceup[i]),
        "left_field": z3.And(leaves, pre.faceup[i]),
        # from anywhere (the field, the hand, the Deck) to the Graveyard of its owner, who is card
        # i's controller's opponent (a play changes no control: a card's controller owns it)
        "opponent_monster_to_graveyard": z3.Or([z3.And(ctx.kind_is_card(j, *MONSTER_KINDS), ctx.S.ctrl(j) != ctx.S.ctrl(i),
                                                       pre.loc[j] != GY, post.loc[j] == GY)
                                                for j in ctx.cards if j != i] or [z3.BoolVal(False)]),
    }


@part("GEN-7", shape="update", priority=PRIORITY + 1)
def gen7_clear(ctx):
    pre, post, act = ctx.pre, ctx.post, ctx.act
    entering = post.window != pre.window
    return [Update("trig", e, z3.Or(z3.And(ctx.activating, act.eff == e), entering), z3.BoolVal(False))
            for e in ctx.effects]


def waiting_event_triggers(ctx):
    """Mandatory event triggers that are pending and could still be activated (the card is where
    the effect is activated from, GEN-13: face-up in the Monster Zone, or where it went when it
    left the field; and it is not barred from the Damage Step by its text, DS-3, or by how it
    changes ATK/DEF, DS-4, DS-5)."""
    S, pre = ctx.S, ctx.pre
    out = []
    for e in ctx.effects:
        there = located(ctx, e, pre)
        barred = z3.And(ctx.ds(), z3.Or(S.no_ds(e), S.atkdef(e) == vocab.AD["indirect"],
                                        S.atkdef(e) == vocab.AD["maybe"]))
        out.append(z3.And(pre.trig[e], S.mandatory(e), event_trigger(ctx, e), there, z3.Not(barred)))
    return out or [z3.BoolVal(False)]


def event_missed(ctx):
    """The step ends the moment an event trigger belongs to: the window changes, or a Chain starts
    resolving (in the Start and End Step triggers start Chains of their own, CH-6)."""
    pre = ctx.pre
    # a replay's choice (retarget, stop attack) comes first and keeps the trigger (GEN-8)
    moves_on = ctx.is_("next", "end_bp", "attack", "enter_bp", "skip_bp")
    second_pass = z3.And(ctx.is_("pass"), pre.passes == 1,
                         z3.Or(pre.chain_len == 0, z3.Not(ctx.win("start_step", "end_step"))))
    return z3.Or(moves_on, second_pass)


@rule("GEN-9", "A pending mandatory trigger on an event of a moment (GEN-8) must be activated "
      "before the window changes or a Chain starts resolving: its controller does not pass with it "
      "waiting, and nothing else starts the Chain.", ["S0-OCG 166-167", "S3 14", "S0-OCG 213-216"],
      name="trigger.mandatory")
def gen9(ctx):
    # as for the windows' triggers (tables.build): the waiting trigger starts the Chain
    return forced(ctx, waiting_event_triggers(ctx), event_missed(ctx), event_trigger(ctx, ctx.eff))

"""When a card or effect may be activated at all, before any window's own list (GEN-5, GEN-6,
GEN-10 to GEN-13): mechanics the sources take for granted. docs/interpretations.md says why each
is needed; GEN-1 and GEN-2 were split into these and the trigger rules (triggers.py)."""
import z3

from .. import vocab
from ..state import NONE
from .base import Update, once, part, rule
from .chain import is_trigger
from .effects import atoms_hold, watched_atoms, watched_target

MZ, STZ, FZ, HAND, GY, BAN = (vocab.L[n] for n in ("monster_zone", "spell_trap_zone", "field_zone", "hand",
                                                   "graveyard", "banished"))


def condition_holds(ctx, eff, st, target):
    """The effect's own activation condition in state `st` (GEN-5): its event and one alternative
    of its atoms (effects.py; `battle_damage_pending` too); `target`: the card it targets, if chosen."""
    return z3.And(event_holds(ctx, eff, st), atoms_hold(ctx, eff, st, target, pending=True))


def places_trigger(ctx, eff: int, st):
    """The trigger of effect `eff` becomes pending in `st` (tables.py, GEN-8): its event holds
    and, for a mandatory one, its atoms too ("if this card battled a Warrior monster") and, if it
    targets, some card it can target (a mandatory effect that targets is not activated without
    one: effects.watched_target, GEN-17): once pending it is forced (GEN-9). An optional
    trigger's atoms and target are checked when it is activated (GEN-5, GEN-17). A mandatory
    trigger with atoms or a target that no watched slot names is never pending (the checks give
    every such effect a slot: checking/facts.Universe)."""
    def build():
        S = ctx.S
        slots = [z3.And(S.watched(k) == eff, watched_atoms(ctx, k, st), watched_target(ctx, k, st))
                 for k in range(ctx.nwatched)]
        unwatched = z3.And(S.alternatives(eff) == 0, z3.Not(S.targets(eff)))
        atoms = z3.Or(z3.Not(S.mandatory(eff)), unwatched, *slots)
        # a limit used this turn: its event no longer makes it pending, so it is not owed
        return z3.And(event_holds(ctx, eff, st), atoms, z3.Not(spent(ctx, eff, st)))
    return once(ctx, ("places", eff, st.prefix), build)


def event_holds(ctx, eff, st):
    """The effect's event (vocab.CONDITIONS) holds in `st` (with a mandatory trigger's atoms, what
    places a trigger: places_trigger)."""
    key = ("event", eff if isinstance(eff, int) else eff.get_id(), st.prefix)
    return once(ctx, key, lambda: _event_holds(ctx, eff, st))


def _event_holds(ctx, eff, st):
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
        # a moment's event is the pending flag GEN-8 sets, not a state
        **{name: z3.BoolVal(True) for name in vocab.EVENTS},
        "monster_destroyed_by_battle": z3.Or(st.dbb) if ctx.ncards else z3.BoolVal(False),
        "battle_damage_dealt": z3.And(z3.Or(c == st.attacker, c == tgt), ctx.sel(st.bd, 1 - p) > 0),
        "battle_damage_dealt_direct": z3.And(tgt == NONE, S.ctrl(st.attacker) == p, ctx.sel(st.bd, 1 - p) > 0),
        "battle_damage_taken": ctx.sel(st.bd, p) > 0,
        "attacks_face_up_defense": z3.And(st.attacker == c, target_up, sel(st.defpos, tgt)),
        "attacks_face_up_level_3_or_lower": z3.And(st.attacker == c, target_up, S.level(tgt) <= 3),
        "attacks_face_up": z3.And(st.attacker == c, target_up),
        "attacks_face_down": z3.And(st.attacker == c, tgt != NONE, z3.Not(sel(st.faceup, tgt))),
        "opponent_monster_count_changed": st.count_changed,
        "controls_same_archetype": z3.Or([z3.And(c != j, st.loc[j] == MZ, st.faceup[j], S.ctrl(j) == p,
                                                 S.archetype(j) == S.archetype(c), S.archetype(c) != 0)
                                          for j in ctx.cards]) if ctx.ncards else z3.BoolVal(False),
    }
    out = z3.BoolVal(False)
    for name, term in cases.items():
        out = z3.If(S.cond(eff) == vocab.CO[name], term, out)
    return out


@rule("GEN-5", "An effect is activated only when the condition its text states holds (an attack "
      "declared on it, battle damage dealt, ...), and not again once its once-per-turn (or per-Duel) "
      "limit (its own, or its name's) is used, in the play or before it.",
      ["S0-TCG 16-17", "S0-OCG 200-203", "S0-TCG 118-133", "card text"], name="effect.condition")
def gen5(ctx):
    return z3.Implies(ctx.activating, z3.And(condition_holds(ctx, ctx.eff, ctx.pre, ctx.act.target),
                                             z3.Not(spent(ctx, ctx.eff, ctx.pre))))


@part("GEN-5", shape="update", priority=50)
def gen5_used(ctx):
    # a limit counts activations ("You can only activate 1 ... per turn"), negated or not
    return [Update("used", e, z3.And(ctx.activating, ctx.act.eff == e), z3.BoolVal(True)) for e in ctx.effects]


def spent(ctx, eff, st):
    """Effect `eff` has a once-per-turn limit that an activation this turn has used (its own, or
    another card's of its name: fact `once_group`). The play is one turn: a use before its first
    action (the Main Phase 1; an earlier turn, for a per-Duel limit) is the set-up's `used N`, in
    the initial state (checking/facts.py), and none without it."""
    def build():
        S = ctx.S
        g = S.once_group(eff)
        return z3.And(g != 0, z3.Or([z3.And(S.once_group(e) == g, st.used[e]) for e in ctx.effects] or [z3.BoolVal(False)]))
    return once(ctx, ("spent", eff if isinstance(eff, int) else eff.get_id(), st.prefix), build)


def event_trigger(ctx, eff):
    """A Trigger Effect whose event happens at a moment (vocab.EVENTS: its card Special Summoned,
    destroyed or leaving the field; a monster sent to the opponent's GY): it becomes pending then
    (GEN-8), never because a window opens."""
    return z3.And(is_trigger(ctx, eff), on_event(ctx, eff))


def on_event(ctx, eff):
    """The effect's condition is one of vocab.EVENTS."""
    return z3.Or([ctx.S.cond(eff) == vocab.CO[n] for n in vocab.EVENTS])


def timed(ctx, eff):
    """Effects whose timing is fixed: triggered effects, and effects that name a timing."""
    return z3.Or(is_trigger(ctx, eff), z3.Or([ctx.S.names[t](eff) for t in vocab.TIMINGS]))


@rule("GEN-6", "An effect that names a timing, or is triggered, is activated only in a window "
      "the rule set opens for it (its `timing_grants`); a trigger on being Special Summoned is "
      "placed by its event instead (GEN-8).",
      ["S0-OCG 166-167", "S0-OCG 177-180", "S0-OCG 213-216", "S0-TCG 57-68", "S2 45"],
      name="timing.window", hint="windows")
def gen6(ctx):
    e = ctx.eff
    # an event trigger's timing is its event: the pending flag, not a window grant, places it
    return z3.Implies(z3.And(ctx.activating, timed(ctx, e), z3.Not(event_trigger(ctx, e))), ctx.grant("timing"))


@rule("GEN-10", "An effect that negates an activation is activated only in response to what its text "
      "names: that kind of card or effect (a Spell/Trap Card's activation, not a face-up one's effect), and "
      "only the opponent's if it says \"your opponent\".",
      ["S3 76-92", "S0-OCG 184-186", "card text"], name="negation.kind")
def gen10(ctx):
    S, top, e = ctx.S, ctx.top_eff, ctx.eff
    spell = ctx.kind_is(top, *vocab.TYPE_KINDS["spell"])
    trap = ctx.kind_is(top, *vocab.TYPE_KINDS["trap"])
    # "When a Spell/Trap Card is activated" answers the card's activation, not an effect of a
    # face-up Spell/Trap (Seven Tools of the Bandit against "Begone, Knave!"'s trigger: its script's
    # IsHasType(EFFECT_TYPE_ACTIVATE))
    card = ctx.ekind_is(top, "activation")
    kinds = {"spell": z3.And(spell, card), "trap": z3.And(trap, card), "monster_effect": z3.Not(z3.Or(spell, trap)),
             "spell_trap": z3.And(z3.Or(spell, trap), card), "any": z3.BoolVal(True)}
    opponents = ctx.link(ctx.pre.link_player, ctx.pre.chain_len - 1) != ctx.act.player
    kinds.update({"opponent_" + k: z3.And(t, opponents) for k, t in kinds.items()})
    ok = z3.And([z3.Implies(S.negates(e) == vocab.NG[k], t) for k, t in kinds.items()])
    # with an empty Chain there is no activation of that kind to answer (an imported Counter Trap
    # whose resolution is not read would otherwise be offered in every window)
    return z3.Implies(z3.And(ctx.activating, S.negates(e) != vocab.NG["none"]), z3.And(ctx.pre.chain_len > 0, ok))


@rule("GEN-11", "A replacement-for-destruction effect is applied only where the rule set opens a "
      "window for it (the OCG's D4-7; the TCG sources open none).", ["S2 57", "S2 81"],
      name="replace.window")
def gen11(ctx):
    # without this a rule set with no replacement window (tcg) would accept any `replace`
    return z3.Implies(ctx.is_("replace"), ctx.grant("replace"))


@rule("GEN-12", "Only a card's controller activates it or its effects.", ["S1 62-63"],
      name="activation.controller")
def gen12(ctx):
    return z3.Implies(ctx.activating, ctx.S.ctrl(ctx.S.inst(ctx.eff)) == ctx.act.player)


def located(ctx, eff, st):
    """In state `st` the effect's card is where that effect is activated from (a Spell or Trap Set
    on the field, a Quick-Play Spell also in its controller's hand on their turn; a monster effect
    from the place its text says, face-up in the Monster Zone by default; a Spell/Trap's effect that
    is not its activation face-up on the field, or in the GY where its text says: "You can banish
    this card from your GY; ...", Damage Diet) (GEN-13)."""
    S = ctx.S
    c = S.inst(eff)
    loc, up = ctx.sel(st.loc, c, z3.IntVal(0)), ctx.sel(st.faceup, c, z3.BoolVal(False))
    spell_trap = z3.Not(ctx.kind_is_card(c, *vocab.TYPE_KINDS["monster"]))
    set_card = z3.And(loc == STZ, z3.Not(up))
    spell_from_hand = z3.And(loc == HAND, ctx.kind_is_card(c, *vocab.TYPE_KINDS["spell"]),
                             S.ctrl(c) == S.tp)
    st_ok = z3.If(S.from_gy(eff), loc == GY, z3.Or(
        set_card, spell_from_hand, z3.And(z3.Not(ctx.ekind_is(eff, "activation")), up, z3.Or(loc == STZ, loc == FZ))))
    # an effect on its card leaving the field is activated from where the card went (a card in the
    # Deck is hidden: Yubel - Terror Incarnate's EDOPro script leaves it out)
    left_field = z3.Or([S.cond(eff) == vocab.CO[n] for n in ("destroyed_by_battle", *vocab.LEAVING)])
    flip_anywhere = z3.And(z3.BoolVal(not ctx.ruleset.flip_effect_needs_field),
                           S.cond(eff) == vocab.CO["flipped_by_attack"])
    monster_ok = z3.If(S.from_hand(eff), loc == HAND,
                       z3.If(S.from_gy(eff), loc == GY,
                             z3.Or(z3.And(loc == MZ, up),
                                   z3.And(left_field, z3.Or(loc == GY, loc == BAN, loc == HAND)),
                                   flip_anywhere)))
    return z3.If(spell_trap, st_ok, monster_ok)


def can_trigger_there(ctx, eff, st):
    """A card that is not where its effect is activated from does not trigger it (GEN-13; without
    GEN-13 in the set, anywhere): "The Six Samurai - Zanji" destroyed by battle has no
    end-of-Damage-Step effect to force. Read by the rule sets' trigger rows (tables.py)."""
    return z3.Or(z3.Not(ctx.lit("GEN-13")), located(ctx, eff, st))


@rule("GEN-13", "A card or effect is activated from where it is: a Spell/Trap Set on the field (a "
      "Quick-Play Spell also from the hand on its controller's turn); a monster effect, or a "
      "Spell/Trap's effect other than its activation, from the place its text says.", ["S0-TCG 80-82", "S3 21", "S2 87"], name="activation.zone")
def gen13(ctx):
    return z3.Implies(ctx.activating, located(ctx, ctx.eff, ctx.pre))

"""Continuous effects (GEN-18), activation locks (GEN-19) and Equip Cards (GEN-20): what a face-up
card's text does while it stays face-up on the field, without being activated, and what keeps an
Equip Card on the field. Which kinds there are, and which cards they apply to, is effects.py; the
rules that read them grant or refuse here."""
import z3

from .. import vocab
from ..state import NONE
from .base import Update, once, part, rule
from .calc import saved_by_counters
from .chain import resolution_target
from .effects import (
    FIELD,
    applying,
    continuous_applies,
    continuous_condition,
    counters_on,
    equippable,
    monster_effects_negated,
    position_locks,
    slot,
    source_live,
)


@rule("GEN-18", "A continuous effect (stat modifiers, attack/position locks, counters, self-destruction) "
      "applies only while its card is face-up on the field, unless \"negate the effects of "
      "face-up monsters\" negates its monster or \"negate all Trap effects\" its Trap.",
      ["S1 65-78", "card text"], shape="permission", name="continuous.applies")
def gen18(ctx):
    # the readers (damage calculation, BP-5, BP-6, the resolution of a drained monster's effect)
    # ask for this gate: without the rule no continuous effect applies
    return {"continuous_effects": z3.BoolVal(True)}


# the Damage Step's parts before, and from, after damage calculation (D2-4, D4-2)
UNTIL_CALC = ("ds_start", "ds_before_calc", "ds_during_calc")
FROM_AFTER_CALC = ("ds_after_calc", "ds_end")


@part("GEN-18", shape="update", priority=0)
def gen18_settled(ctx):
    """The continuous effects that hold over the state each step's other updates leave
    (`ctx.mid`: step.py applies these `settled` updates over theirs, so none reads another's
    result and there is no cycle): position locks and self-destructions."""
    return position_lock_updates(ctx) + self_destruct_updates(ctx)


def position_lock_updates(ctx):
    # A position lock ("Change all face-up Level 4 or higher monsters to Defense Position") holds
    # after every step: it is read in the state the step's other updates produce, so it applies
    # the moment it begins to (its Continuous Trap resolves) and the moment a monster comes to
    # match (flipped face-up by the attack: D2-2, S0-OCG 174-175, S3 22; Special Summoned). A
    # monster in Attack Position is face-up: "changed to face-up Attack Position" (Gaap) turns a
    # face-down one face-up (no Flip Effect: it is not flipped by an attack, D2-1's mark). The
    # sources are silent on two locks imposing opposite positions: Attack Position wins (the
    # first settled update of a variable wins).
    ups = []
    for i in ctx.cards:
        to_attack, to_defense, _ = position_locks(ctx, i, ctx.mid)
        ups += [Update("defpos", i, to_attack, z3.BoolVal(False), settled=True),
                Update("faceup", i, to_attack, z3.BoolVal(True), settled=True),
                Update("defpos", i, to_defense, z3.BoolVal(True), settled=True)]
    return ups


def self_destruct_updates(ctx):
    """A face-up card's "destroy this card" while its condition holds (self_destruct): it goes to
    the Graveyard in the very step whose other updates make the condition true, so that no claim
    or activation after that step finds it on the field. Its condition, and whether it is face-up
    on the field, are read in `ctx.mid`. In the Damage Step it waits until after damage
    calculation (D2-4's gate); there, a monster already determined destroyed by battle is not
    destroyed by its own effect, and the others are now (D4-2's gate: without it the wait lasts
    the whole Damage Step). A position lock's change is another settled update's result, so a
    self-destruction reads it one step later (docs/interpretations.md)."""
    return [Update("loc", j, t, z3.IntVal(vocab.L["graveyard"]), settled=True)
            for j in ctx.cards for t in self_destroyed(ctx, j)]


def self_destroyed(ctx, j):
    """The terms (one per continuous slot) under which card j destroys itself in this step
    (self_destruct_updates); an Equip Card equipped to it is destroyed in the same step (GEN-20)."""
    return once(ctx, ("self_destroyed", j), lambda: _self_destroyed(ctx, j))


def _self_destroyed(ctx, j):
    S, mid = ctx.S, ctx.mid
    d2_4, d4_2 = ctx.grant("self_destruct_waits"), ctx.grant("self_destruct_after_calc")   # D2-4, D4-2
    until_calc, from_calc = ctx.win(*UNTIL_CALC, state=mid), ctx.win(*FROM_AFTER_CALC, state=mid)
    waits = z3.And(d2_4, z3.Or(until_calc, z3.And(from_calc, z3.Not(d4_2))))
    negated = monster_effects_negated(ctx, mid)
    gate = ctx.grant("continuous_effects")
    spared = z3.And(d4_2, from_calc, mid.dbb[j])
    # destroyed by its own card effect: "cannot be destroyed by card effects" keeps it
    unprotected = z3.And(z3.Not(mid.ind_effect[j]), z3.Not(continuous_applies(ctx, "indestructible_by_effect", j, mid)))
    out = []
    for k in range(vocab.MAX_CONTINUOUS):
        s = slot(j, k, vocab.MAX_CONTINUOUS)
        holds = z3.And(gate, S.cont(s) == vocab.CN["self_destruct"], source_live(ctx, j, mid, negated),
                       continuous_condition(ctx, s, mid), unprotected)
        out.append(z3.And(holds, z3.Not(waits), z3.Not(spared)))
    return out


@part("GEN-18", shape="update", priority=40)
def gen18_counters(ctx):
    """Continuous effects that place or remove counters: "remove 1 counter from this card instead"
    of its destruction by battle, in the step damage calculation is performed (calc.py decides it
    is not destroyed; docs/interpretations.md, "Counters"), and "place 1 counter on this card at
    the end of the Damage Step" when the battle meets its condition (Spacegate), in the step that
    enters the Damage Step's last part (D5-2, T7), the condition read as the step begins."""
    pre, post = ctx.pre, ctx.post
    last = ctx.ruleset.damage_step[-1]
    ending = z3.And(post.window == vocab.W[last], pre.window != post.window)
    ups = []
    for j in ctx.cards:
        lost = saved_by_counters(ctx, j)
        ups.append(Update("counters", j, lost != 0, counters_on(ctx, j, pre) - lost))
        for jj, s, t in applying(ctx, "counter_after_battle", pre):
            if jj == j:
                ups.append(Update("counters", j, z3.And(ending, t),
                                  counters_on(ctx, j, pre) + ctx.S.cont_amount(s)))
    return ups


@rule("GEN-19", "While a card's \"Trap Cards cannot be activated\" (or Spell Cards, or both) applies, no "
      "card or effect of that kind is activated by the players it names (both, or its controller's "
      "opponent).", ["card text"], name="activation.lock")
def gen19(ctx):
    S, act = ctx.S, ctx.act
    traps = [k for k in vocab.CARD_KINDS if k.startswith("trap")]
    spells = [k for k in vocab.CARD_KINDS if k.startswith("spell")]
    side = S.select["continuous"]["side"]
    opponent = vocab.SELECT_SIDES.index("opponent")

    def locked(kind):   # a lock of `kind` refuses this activation's player
        return z3.Or([z3.And(t, z3.Or(side(s) != opponent, S.ctrl(j) != act.player))
                      for j, s, t in applying(ctx, kind, ctx.pre)] or [z3.BoolVal(False)])
    both = locked("lock_spells_traps")
    refused = z3.Or(z3.And(ctx.kind_is(act.eff, *traps), z3.Or(locked("lock_traps"), both)),
                    z3.And(ctx.kind_is(act.eff, *spells), z3.Or(locked("lock_spells"), both)))
    return z3.Implies(ctx.activating, z3.Not(refused))


@rule("GEN-20", "An Equip Card is equipped only to a face-up monster on the field: an effect that equips "
      "targets one; the Equip Card is destroyed as soon as that monster leaves the field or is turned "
      "face-down, and is unequipped when it leaves the field itself.",
      ["card text (general game mechanics, not in the sources: Yugipedia \"Equip Card\", \"Equip Spell Card\")"],
      name="equip.held")
def gen20(ctx):
    # an effect with an `equip` operation (an Equip Spell's activation, Tyrant Wing) targets the
    # monster it equips ("Equip only to ..." is its filter, GEN-17): a face-up monster on the field
    S, act = ctx.S, ctx.act
    equips = z3.Or([S.op(act.eff * vocab.MAX_OPERATIONS + k) == vocab.OP["equip"] for k in range(vocab.MAX_OPERATIONS)])
    return z3.Implies(z3.And(ctx.activating, equips), equippable(ctx, resolution_target(ctx), ctx.pre))


@part("GEN-20", shape="update", priority=0)
def gen20_destroyed(ctx):
    """An Equip Card whose monster is no longer a face-up monster in the Monster Zone in the state the
    step's other updates leave (`ctx.mid`), or destroys itself in this step (self_destroyed), goes to
    the Graveyard in that same step: a monster destroyed by battle leaves at the end of the Damage
    Step (D5-1, T7), and its Equip Cards with it. A card that left the field is unequipped."""
    mid = ctx.mid
    leaves = [z3.Or(z3.Not(equippable(ctx, i, mid)), *self_destroyed(ctx, i)) for i in ctx.cards]
    ups = []
    for j in ctx.cards:
        m = mid.equip[j]
        gone = z3.Or([z3.And(m == i, leaves[i]) for i in ctx.cards])
        here = z3.And(mid.faceup[j], z3.Or([mid.loc[j] == z for z in FIELD]))
        ups += [Update("loc", j, z3.And(m != NONE, here, gone), z3.IntVal(vocab.L["graveyard"]), settled=True),
                Update("equip", j, z3.And(m != NONE, z3.Or(z3.Not(here), gone)), z3.IntVal(NONE), settled=True)]
    return ups

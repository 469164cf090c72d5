"""Continuous effects (GEN-18), activation locks (GEN-19) and Equip Cards (GEN-20): what a face-up
card's text does while it stays face-up on the field, without being activated, and what keeps an
Equip Card on the field; and, with the locks, a monster's Summoning condition "Cannot be Special
Summoned" (GEN-19), which is no effect and holds wherever the card is. Which kinds there are, and
which cards they apply to, is effects.py; the rules that read them grant or refuse here."""
import z3

from .. import vocab
from ..state import NONE
from .base import Update, once, part, rule
from .calc import saved_by_counters
from .chain import resolution_target
from .effects import (
    FIELD,
    applying,
    banish_barred,
    card_state,
    continuous_applies,
    continuous_condition,
    counters_on,
    locks_player,
    monster_effects_negated,
    on_named,
    picks,
    position_locks,
    slot,
    source_live,
    summon_barred,
    summons_named,
    unsummonable,
)
from .equips import equippable
from .redirects import redirecting
from .resolution import destroyable_by_effect, destroyed_after_calc
from .stats import attacked_under


@rule("GEN-18", "A continuous effect (modifiers, locks, counters, self-destruction, where cards go instead) "
      "applies only while its card is face-up on the field, unless \"negate the effects "
      "of face-up monsters\" negates its monster or \"negate all Trap effects\" its Trap.",
      ["S1 65-78", "S0-OCG 209-211", "S0-TCG 100", "S0-TCG 118-124", "card text"], shape="permission",
      name="continuous.applies")
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
    unprotected = destroyable_by_effect(ctx, j, mid)
    out = []
    for k in range(vocab.MAX_CONTINUOUS):
        s = slot(j, k, vocab.MAX_CONTINUOUS)
        holds = z3.And(gate, S.cont(s) == vocab.CN["self_destruct"], source_live(ctx, j, mid, negated),
                       continuous_condition(ctx, s, mid), unprotected)
        out.append(z3.And(holds, z3.Not(waits), z3.Not(spared)))
    return out


MZ, GY = vocab.L["monster_zone"], vocab.L["graveyard"]
# where a card can be moved off the field to by the other updates: a redirect replaces that move
OFF_FIELD = tuple(vocab.L[n] for n in ("hand", "deck", "graveyard", "extra_deck"))


@part("GEN-18", shape="update", priority=-1)
def gen18_redirect(ctx):
    """Where a card goes instead of the Graveyard ("any card sent to the GY is banished instead";
    "monsters destroyed by battle are shuffled into the Deck instead"; "if this face-up card would
    leave the field, banish it instead"): a settled update that rewrites the move the step's other
    updates make (`ctx.mid`, and the other settled updates' destructions: destroyed_settled), so it
    applies wherever a card is sent to the Graveyard: by battle (at the end of the Damage Step:
    D5-1, T7), a resolving effect, a cost, a Spell/Trap that resolved (GEN-14), a self-destruction,
    an effect's destruction after damage calculation (GEN-15), an Equip Card losing its monster
    (GEN-20). It is listed before them: it wins.
    The redirect is read as the step begins (its card face-up on the field, its activation
    resolved). One that applies to every card, or to every monster destroyed by battle, applies
    only if its own card stays on the field in this step (the cards that leave together are moved
    together: ygopro-core operations.cpp `send_to` disables their field effects before it reads the
    redirects); one about its own card or its own battle applies as that card leaves (S0-TCG 100:
    "Dark Magician of Chaos", T5). Of several, the card's own leave-the-field redirect first
    (ygopro-core: leave_field_redirect before destination_redirect), then the battle's ("destroyed
    by battle with this card"), then "monsters destroyed by battle", then "any card" (yugioh-wiki.net
    FAQ of "Grave Protector": with "Banisher of the Light" monsters destroyed by battle go to the
    Deck, the other cards are banished); of two of one class, the first card's."""
    return [Update("loc", i, when, value, settled=True) for i, (when, value) in enumerate(redirects(ctx))]


def redirects(ctx):
    """(when, where) for each card: a redirect replaces its move in this step (gen18_redirect)."""
    return once(ctx, ("redirects",), lambda: [_redirect(ctx, i) for i in ctx.cards])


def leaves_now(ctx, j):
    """Card j, on the field as the step begins, is not on the field in the state the step's updates
    leave: moved by an ordinary update, or destroyed by a settled one (destroyed_settled)."""
    def build():
        mid = ctx.mid
        moved = z3.And([mid.loc[j] != z for z in FIELD])
        return z3.Or(moved, *destroyed_settled(ctx, j))
    return once(ctx, ("leaves_now", j), build)


def destroyed_directly(ctx, i) -> list:
    """The terms under which card i is destroyed in this step by a settled update that reads no
    other card's destruction (an Equip Card's reads its monster's): its own self-destruction
    (GEN-18), or a resolved effect's "destroy it after damage calculation" (GEN-15:
    resolution.destroyed_after_calc)."""
    return [*self_destroyed(ctx, i), destroyed_after_calc(ctx, i)]


def destroyed_settled(ctx, i) -> list:
    """The terms under which card i is destroyed in this step by a settled update: by itself
    (destroyed_directly), or as an Equip Card losing its monster (GEN-20). Read from `ctx.mid`."""
    return [*destroyed_directly(ctx, i), z3.And(ctx.lit("GEN-20"), equip_destroyed(ctx, i))]


def _redirect(ctx, i):
    S, pre, mid = ctx.S, ctx.pre, ctx.mid
    destroyed = destroyed_settled(ctx, i)
    # it would be sent to the Graveyard in this step / leave the field (to the hand, Deck, Graveyard)
    to_gy = z3.Or(z3.And(mid.loc[i] == GY, pre.loc[i] != GY), *destroyed)
    off = z3.And(z3.Or([pre.loc[i] == z for z in FIELD]),
                 z3.Or(z3.Or([mid.loc[i] == z for z in OFF_FIELD]), *destroyed))
    # destroyed by battle and sent to the Graveyard now: entering the Damage Step's last part (D5-1,
    # T7); such a monster is the attacker or the attack target, whose redirects are built once
    # (battle_redirects), not once per card
    last = vocab.W[ctx.ruleset.damage_step[-1]]
    by_battle = z3.And(pre.dbb[i], pre.loc[i] == MZ, mid.window == last, pre.window != last, to_gy)
    (opp_a, to_opp_a, all_a, to_all_a), (opp_t, to_opp_t, all_t, to_all_t) = battle_redirects(ctx)
    attacker, target = pre.attacker == i, pre.target == i
    any_gy, to_any = every_card_redirect(ctx)
    pairs = [(z3.And(t, off), S.cont_to(s)) for j, s, t in redirecting(ctx, "leave_field_redirect", pre) if j == i]
    pairs += [(z3.And(by_battle, z3.Or(z3.And(attacker, opp_a), z3.And(target, opp_t))), z3.If(attacker, to_opp_a, to_opp_t)),
              (z3.And(by_battle, z3.Or(z3.And(attacker, all_a), z3.And(target, all_t))), z3.If(attacker, to_all_a, to_all_t)),
              (z3.And(to_gy, any_gy), to_any)]
    return first_of(pairs)


def first_of(pairs):
    """(some term holds, the destination of the first that does) over (term, destination) pairs."""
    if not pairs:
        return z3.BoolVal(False), z3.IntVal(GY)
    value = pairs[-1][1]
    for t, v in reversed(pairs[:-1]):
        value = z3.If(t, v, value)
    return z3.Or([t for t, _ in pairs]), value


def every_card_redirect(ctx):
    """(applies, where): an "any card sent to the GY is banished instead" applies, its card staying
    on the field in this step (the cards that leave together are moved together: gen18_redirect);
    the same for every card, so built once."""
    def build():
        S = ctx.S
        return first_of([(z3.And(t, z3.Not(leaves_now(ctx, j))), S.cont_to(s))
                         for j, s, t in redirecting(ctx, "graveyard_redirect", ctx.pre)])
    return once(ctx, ("every_card_redirect",), build)


def battle_redirects(ctx):
    """For the attacker, then the attack target, when destroyed by battle: (a "destroyed by battle
    with this card" of its battle opponent applies, where to, a "monsters destroyed by battle" that
    picks it applies, where to). Only they can be destroyed by battle, so these are built for the
    two battling monsters (terms), not for every card."""
    def build():
        S, pre = ctx.S, ctx.pre
        on, ON = S.cont_on, vocab.CONTINUOUS_ON.index
        battle = redirecting(ctx, "battle_destroyed_redirect", pre)
        out = []
        for monster, opponent in ((pre.attacker, pre.target), (pre.target, pre.attacker)):
            facts = card_state(ctx, monster, pre)
            mine = first_of([(z3.And(t, opponent == j, on(s) == ON("battle_opponent")), S.cont_to(s))
                             for j, s, t in battle])
            every = first_of([(z3.And(t, on(s) == ON("all"), z3.Not(leaves_now(ctx, j)),
                                      picks(ctx, S.ctrl(j), "continuous", s, monster, facts, j)), S.cont_to(s))
                              for j, s, t in battle])
            out.append(mine + every)
        return out
    return once(ctx, ("battle_redirects",), build)


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


@part("GEN-18", shape="update", priority=40)
def gen18_recorded(ctx):
    """An `attackers` halving ("Mirror Wall") records each opponent's monster attacking while it
    applies (stats.attacked_under), read as the step begins: the halving applies to the attacker
    itself while it attacks, and the record keeps it halved after the attack. A monster that leaves
    the field or is turned face-down is a new card: its record goes (the script's flag resets)."""
    pre = ctx.pre
    ups = []
    for i in ctx.cards:
        ups.append(Update("recorded", i, z3.Or(pre.loc[i] != MZ, z3.Not(pre.faceup[i])), z3.IntVal(NONE)))
        for kind in vocab.HALVING:
            for j, s, t in applying(ctx, kind, pre):
                attacking = z3.And(pre.attacking, pre.attacker == i)
                ups.append(Update("recorded", i, z3.And(t, attacking, attacked_under(ctx, j, s, i, pre)), z3.IntVal(j)))
    return ups


@rule("GEN-19", "While a lock on Trap/Spell Cards, Special Summons or GY banishing applies, the players it "
      "names activate no such card, nor an effect that must Special Summon or banish a GY card it names; "
      "no \"Cannot be Special Summoned\" monster is Special Summoned.", ["card text"], name="activation.lock")
def gen19(ctx):
    S, act = ctx.S, ctx.act
    traps, spells = vocab.TYPE_KINDS["trap"], vocab.TYPE_KINDS["spell"]

    def locked(kind):   # a lock of `kind` refuses this activation's player
        return locks_player(ctx, kind, act.player, ctx.pre)
    both = locked("lock_spells_traps")
    refused = z3.Or(z3.And(ctx.kind_is(act.eff, *traps), z3.Or(locked("lock_traps"), both)),
                    z3.And(ctx.kind_is(act.eff, *spells), z3.Or(locked("lock_spells"), both)),
                    summon_barred(ctx, act.eff, ctx.pre),
                    z3.And(summons_named(ctx, act.eff), summons_unsummonable(ctx)),
                    banishes_barred(ctx))
    return z3.Implies(ctx.activating, z3.Not(refused))


def banishes_barred(ctx):
    """This activation would banish a card in a Graveyard its player cannot banish (a "cannot
    banish cards from either GY" lock names them): a `banish` operation, not a `then` one, on the
    card the activation fixes, or on its second target. The engine's target checks ask
    IsAbleToRemove of each card, so such a card is no target to banish."""
    S, act, pre = ctx.S, ctx.act, ctx.pre
    named = banish_barred(ctx, act.player, resolution_target(ctx), pre)
    second = banish_barred(ctx, act.player, act.target2, pre)
    slots = [(k, slot(act.eff, k, vocab.MAX_OPERATIONS)) for k in range(vocab.MAX_OPERATIONS)]
    return z3.Or([z3.And(S.op(s) == vocab.OP["banish"], z3.Not(S.op_then(s)), on_named(ctx, act.eff, k),
                         S.op_on(s) != vocab.OPERATION_ON.index("all"),   # "banish all ...": the rest still go
                         z3.Or(named, z3.And(S.op_on(s) == vocab.OPERATION_ON.index("chosen"), second)))
                  for k, s in slots])


def summons_unsummonable(ctx):
    """The card this activation would Special Summon cannot be (its Summoning condition): one the
    play names as its target, mandatory effect or not (the scripts' target filters ask
    IsCanBeSpecialSummoned of each card; a mandatory one may name another, or none); or, for an
    optional effect, the card its text fixes (this card, the attacker...). A mandatory trigger whose
    text fixes such a card is still owed (GEN-9): it is activated and Summons nothing, as under a
    Summon lock (summon_barred)."""
    S, act = ctx.S, ctx.act
    return z3.Or(unsummonable(ctx, act.target), unsummonable(ctx, act.target2),
                 z3.And(z3.Not(S.mandatory(act.eff)), unsummonable(ctx, resolution_target(ctx))))


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
    ups = []
    for j in ctx.cards:
        m = mid.equip[j]
        here = z3.And(mid.faceup[j], z3.Or([mid.loc[j] == z for z in FIELD]))
        ups += [Update("loc", j, equip_destroyed(ctx, j), z3.IntVal(vocab.L["graveyard"]), settled=True),
                Update("equip", j, z3.And(m != NONE, z3.Or(z3.Not(here), equip_gone(ctx, j))), z3.IntVal(NONE),
                       settled=True)]
    return ups


def equip_gone(ctx, j):
    """Equip Card j's monster leaves the Monster Zone, is turned face-down, or destroys itself in
    this step (in `ctx.mid`)."""
    def build():
        mid = ctx.mid
        leaves = [z3.Or(z3.Not(equippable(ctx, i, mid)), *destroyed_directly(ctx, i)) for i in ctx.cards]
        return z3.Or([z3.And(mid.equip[j] == i, leaves[i]) for i in ctx.cards])
    return once(ctx, ("equip_gone", j), build)


def equip_destroyed(ctx, j):
    """Equip Card j, still face-up on the field, is destroyed in this step because its monster goes
    (GEN-20's update; a redirect reads it: gen18_redirect)."""
    def build():
        mid = ctx.mid
        here = z3.And(mid.faceup[j], z3.Or([mid.loc[j] == z for z in FIELD]))
        return z3.And(mid.equip[j] != NONE, here, equip_gone(ctx, j))
    return once(ctx, ("equip_destroyed", j), build)

"""The ATK and DEF a monster shows in a state: its value, the continuous modifiers that add to it,
then the halvings that apply (docs/interpretations.md, "Halving continuous effects"). Damage
calculation (calc.py) and the claims (general.py) read it."""
import z3

from .. import vocab
from ..state import CALC_PENDING, NONE
from .base import once
from .effects import applying, card_state, continuous_on, counters_on, picks, times


def stat_bonus(ctx, kind, card, st, counts=None):
    """What the continuous modifiers of `kind` (atk_modifier, def_modifier) add to `card` in `st`:
    each its amount, or (`per`) its amount for each counter on its own card ("This card gains 500
    ATK for each counter on it") or for each card it counts, read in `counts` (default `st`: damage
    calculation, which reads the state after the step, counts them as the step begins, calc.py)."""
    facts = card_state(ctx, card, st)
    counts = st if counts is None else counts
    parts = [z3.If(z3.And(t, continuous_on(ctx, j, s, card, facts, st)), modifier_amount(ctx, j, s, counts), 0)
             for j, s, t in applying(ctx, kind, st)]
    return z3.Sum(parts) if parts else z3.IntVal(0)


def shown_stat(ctx, stat, card, st, counts=None, extra=0):
    """`card`'s ATK (`stat` "atk") or DEF ("def") with the continuous effects that apply in `st`:
    its value plus the modifiers that add (stat_bonus; `extra`: damage calculation's own bonuses),
    then halved by each halving that applies (halved)."""
    value = ctx.sel(st.atk if stat == "atk" else st.def_, card, z3.IntVal(0))
    # "during damage calculation only": while the calculation `counts` is in is ahead
    ahead = (st if counts is None else counts).calc == CALC_PENDING
    gain = ctx.sel(st.calc_atk if stat == "atk" else st.calc_def, card, z3.IntVal(0))
    value = value + z3.If(ahead, gain, 0)
    total = value + stat_bonus(ctx, f"{stat}_modifier", card, st, counts) + extra
    return halved(ctx, f"{stat}_halve", card, st, total)


def battle_difference(ctx, me, st):
    """How much higher the ATK of the monster battling player `me`'s monster is than that monster's
    own, as both show in `st` ("pay LP equal to the difference", "gains ATK equal to the difference
    +300": "Prideful Roar"; its script reads both GetAttack()s); 0 unless an attack on a monster is
    going on between a face-up monster of each player."""
    def build():
        a, t = st.attacker, st.target
        own, other = z3.If(ctx.S.ctrl(a) == me, a, t), z3.If(ctx.S.ctrl(a) == me, t, a)
        up = [z3.And(ctx.monster_in_zone(c, st), ctx.sel(st.faceup, c, z3.BoolVal(False))) for c in (a, t)]
        facing = z3.And(st.attacking, t != NONE, ctx.S.ctrl(a) != ctx.S.ctrl(t), *up)
        return z3.If(facing, shown_stat(ctx, "atk", other, st) - shown_stat(ctx, "atk", own, st), 0)
    return once(ctx, ("battle_difference", me.sexpr(), st.prefix), build)


def halved(ctx, kind, card, st, value):
    """`value` halved (rounded up) once for each continuous halving of `kind` (atk_halve,
    def_halve) that applies to `card` in `st`, at most vocab.MAX_HALVINGS times. A halving applies
    after every modifier that adds, whenever those began to apply: "(3000 + 4000) / 2" for
    "Honest" under "The Wicked Dreadroot"; Mirror Wall's halving is calculated last, after all
    other ATK changes (S2 61; docs/interpretations.md, "Halving continuous effects")."""
    n = halvings(ctx, kind, card, st)
    out = value
    for k in range(vocab.MAX_HALVINGS, 0, -1):
        v = value
        for _ in range(k):
            v = (v + 1) / 2   # rounded up
        out = z3.If(n >= k, v, out) if k == vocab.MAX_HALVINGS else z3.If(n == k, v, out)
    return out


def halvings(ctx, kind, card, st):
    """How many continuous halvings of `kind` apply to `card` in `st`: its own, every monster's it
    selects, or (`on`: attackers) each of the opponent's monsters that attacked while it applied
    (attacked_under)."""
    def build():
        facts = card_state(ctx, card, st)
        hits = [z3.If(z3.And(t, z3.Or(continuous_on(ctx, j, s, card, facts, st),
                                      attacked_under(ctx, j, s, card, st))), 1, 0)
                for j, s, t in applying(ctx, kind, st)]
        return z3.Sum(hits) if hits else z3.IntVal(0)
    key = card if isinstance(card, int) else card.get_id()
    return once(ctx, ("halvings", kind, key, st.prefix), build)


def attacked_under(ctx, j, s, card, st):
    """`card` is one of continuous slot s's `attackers` (card j's): an opponent's monster attacking
    now, or one that slot recorded as having attacked while it applied (State.recorded, kept by
    continuous.gen18_recorded). "Each of your opponent's monsters that conducted an attack while
    this card was face-up on the field has its ATK halved as long as this card remains on the
    field" ("Mirror Wall"; its EDOPro script records each opponent's attacker on
    EVENT_ATTACK_ANNOUNCE, and the one attacking as it is activated)."""
    S = ctx.S
    attacking = z3.And(st.attacking, card == st.attacker, card != NONE)
    recorded = ctx.sel(st.recorded, card, z3.IntVal(NONE)) == j
    return z3.And(S.cont_on(s) == vocab.CONTINUOUS_ON.index("attackers"), S.ctrl(card) != S.ctrl(j),
                  z3.Or(attacking, recorded))


def modifier_amount(ctx, j, s, counts):
    """Continuous slot s (of card j)'s amount: a number, or that for each counter on card j or for
    each card its `cont_count` selector picks (seen from j's controller: "for each Normal Monster in
    your GY", Exodius), both read in `counts`. Built once per slot and state, whichever card it is
    added to."""
    def build():
        S = ctx.S
        a, per = S.cont_amount(s), S.cont_per(s)
        cards = z3.Sum([z3.If(picks(ctx, S.ctrl(j), "cont_count", s, c, card_state(ctx, c, counts), j), 1, 0)
                        for c in ctx.cards] or [z3.IntVal(0)])
        return z3.If(per == vocab.CONTINUOUS_PER.index("counter"), times(a, counters_on(ctx, j, counts)),
                     z3.If(per == vocab.CONTINUOUS_PER.index("count"), times(a, cards), a))
    return once(ctx, ("modifier_amount", s, counts.prefix), build)

"""Damage calculation (section 7), battle damage modifiers (section 9) and monsters
determined destroyed by battle (section 8)."""
import z3

from .. import vocab
from ..state import CALC_DONE, CALC_PENDING, CALC_SKIPPED, NONE
from .base import Update, once, part, provides, rule
from .battle import chain_end
from .chain import closing
from .effects import continuous_applies, counter_instead, player_protected
from .equips import equip_grants
from .resolution import lp_delta
from .stats import shown_stat

PRIORITY = 30   # update priority (lower wins): before the resolutions: AB-1 keeps a destroyed monster's ATK/DEF (resolution.py)

MZ, GY = vocab.L["monster_zone"], vocab.L["graveyard"]
BDM = {name: i for i, name in enumerate(vocab.BATTLE_DAMAGE_MODIFIERS)}
BD_ORDER = (  # BD-1 (S2 63-75): the classes in the order they apply
    ("double",), ("both_take",), ("redirect_to_opponent", "opponent_also_takes", "redirect_to_self"),
    ("gain_instead",), ("double_taken", "halve_taken"), ("opponent_damage_zero",),
)


def calc_now(ctx):
    """Damage calculation is performed in this step: the calculation window closes, or its
    one Chain finishes resolving (D3-3, T4)."""
    pre = ctx.pre
    return z3.And(ctx.win(ctx.ruleset.calc_window), pre.calc == CALC_PENDING,
                  z3.Or(closing(ctx), chain_end(ctx)))


def battler_gone(ctx, st, battle=None, present=None):
    """In state `st` a monster of the current battle has left the Monster Zone: the attacker, or
    the target of an attack on a monster (D2-7, T4: then there is no damage calculation).
    `battle`: the state whose attack it reads (default: the state before the step); `present(card)`:
    whether a monster counts as there (default: in the Monster Zone in `st`)."""
    battle = ctx.pre if battle is None else battle
    a, t = battle.attacker, battle.target
    here = present or (lambda c: ctx.monster_in_zone(c, st))
    return z3.Or(z3.Not(here(a)), z3.And(t != NONE, z3.Not(here(t))))


def present_at_calc(ctx, card):
    """`card` is in the Monster Zone for this step's damage calculation: in the state after the
    step, or destroyed in it by an effect "after damage calculation" (its mark says so:
    resolution.destroyed_after_calc), a destruction that comes after the calculation whose step it
    shares."""
    destroyed = vocab.DOOMED.index("destroyed")
    mark = [ctx.sel(st.doomed, card, z3.IntVal(0)) for st in (ctx.pre, ctx.post)]
    now = z3.And(mark[1] == destroyed, mark[0] != destroyed)
    return z3.Or(ctx.monster_in_zone(card, ctx.post), z3.And(card != NONE, now))


def outcome(ctx):
    """The terms of one damage calculation, read from the state after this step's resolution:
    built once per relation (damage calculation and GEN-18's counters read them)."""
    return once(ctx, ("outcome",), lambda: _outcome(ctx, ctx.post, ctx.pre, lambda c: present_at_calc(ctx, c)))


@provides("pending_damage")
def pending_damage(ctx, st):
    """The battle damage each player (0, 1) would take if damage calculation were performed in
    `st` with the stats there (the `battle_damage_pending` quantity: Nutrient Z's "when you would
    take 2000 or more Battle Damage", the engine's Duel.GetBattleDamage before damage
    calculation): _outcome's own arithmetic, read wholly from `st`, so a condition reads only
    the state it is read in. 0 outside a battle and once its calculation was performed or
    skipped; a negative amount (gained instead) is none taken."""
    def build():
        dmg = _outcome(ctx, st, st, lambda c: ctx.monster_in_zone(c, st))[3]
        ahead = z3.And(st.attacking, st.calc == CALC_PENDING)
        return [z3.If(z3.And(ahead, dmg[p] > 0), dmg[p], 0) for p in (0, 1)]
    return once(ctx, ("pending_damage", st.prefix), build)


def _outcome(ctx, post, pre, present):
    """(skipped, target destroyed, attacker destroyed, battle damage to each player, target saved
    by counters, attacker saved): the stats read in `post`, the battle, its calculation state and
    its marks in `pre` (the state as the step begins); `present(card)`: a battling monster is there
    for the calculation (battler_gone)."""
    S = ctx.S
    a, t = pre.attacker, pre.target
    direct = t == NONE
    sel = ctx.sel
    # continuous modifiers (GEN-18) count with the ATK/DEF effects left, halvings last (effects.halved)
    # (counters as the step begins: the counters after it depend on this calculation, GEN-18)
    a_atk, t_atk = (shown_stat(ctx, "atk", c, post, pre) for c in (a, t))
    defending = z3.And(z3.Not(direct), sel(post.defpos, t, z3.BoolVal(False)))

    def bonus(to_attacker):
        parts = []
        for j in ctx.cards:
            live = z3.And(post.faceup[j], post.loc[j] != GY, post.loc[j] != vocab.L["banished"],
                          post.loc[j] != vocab.L["hand"], post.loc[j] != vocab.L["none"],
                          z3.Not(pre.dbb[j]), S.calc_amount(j) != 0,
                          S.calc_to_attacker(j) == to_attacker)
            when = z3.And(z3.Or(S.calc_when(j) == 0, z3.And(z3.Not(direct), t_atk > a_atk)),
                          z3.Or(S.calc_archetype(j) == 0, S.calc_archetype(j) == S.archetype(a)))
            parts.append(z3.If(z3.And(live, when), S.calc_amount(j), 0))
        return z3.Sum(parts) if parts else z3.IntVal(0)

    at_calc = ctx.grant("bonuses_at_calc")   # D3-4, T4
    # a halving is calculated once more, last, after the bonuses that apply at damage calculation (S2 61)
    A = shown_stat(ctx, "atk", a, post, pre, z3.If(at_calc, bonus(True), 0))
    t_def = shown_stat(ctx, "def", t, post, pre)
    T = z3.If(defending, t_def, shown_stat(ctx, "atk", t, post, pre, z3.If(at_calc, bonus(False), 0)))
    # D2-7 (OCG) and T4 (TCG): a battling monster gone by an effect stops the calculation
    gone = battler_gone(ctx, post, pre, present)
    skipped = z3.Or(pre.calc == CALC_SKIPPED, z3.And(ctx.grant("calc_stops_when_gone"), gone))
    # DC-4: a skipped calculation destroys nobody and deals no damage
    live = z3.Or(z3.Not(ctx.lit("DC-4")), z3.Not(skipped))
    fight = z3.And(live, z3.Not(direct))
    dc1, dc2, dc3 = ctx.lit("DC-1"), ctx.lit("DC-2"), ctx.lit("DC-3")
    # equal ATK destroys both, unless both are 0 (the seeds are silent on 0 ATK; docs/interpretations.md)
    tie = z3.And(A == T, A > 0)
    t_beaten = z3.And(fight, z3.If(defending, z3.And(dc2, A > T), z3.And(dc1, z3.Or(A > T, tie))),
                      z3.Not(indestructible(ctx, t, post)))
    a_beaten = z3.And(fight, z3.Not(defending), dc1, z3.Or(A < T, tie), z3.Not(indestructible(ctx, a, post)))
    # "remove 1 counter from this card instead" (GEN-18: continuous.py removes it)
    t_saved, a_saved = (z3.And(beaten, counter_instead(ctx, c, post)[0])
                        for beaten, c in ((t_beaten, t), (a_beaten, a)))
    t_dies, a_dies = z3.And(t_beaten, z3.Not(t_saved)), z3.And(a_beaten, z3.Not(a_saved))
    # a Continuous Effect of the attacker ("inflict piercing battle damage": GEN-18) makes the
    # Defense Position target's controller take what DC-2 alone would leave undealt
    pierces = z3.And(defending, dc2, continuous_applies(ctx, "piercing", a, post))
    to_t_ctrl = z3.If(z3.And(fight, z3.Or(z3.And(z3.Not(defending), dc1), pierces), A > T), A - T, 0)
    to_a_ctrl = z3.If(z3.And(fight, A < T, z3.If(defending, dc2, dc1)), T - A, 0)
    to_opp_direct = z3.If(z3.And(live, direct, dc3), A, 0)
    pa = S.ctrl(a)
    dmg = [z3.If(pa == p, to_a_ctrl, to_t_ctrl + to_opp_direct) for p in (0, 1)]
    dmg = lasting(ctx, modify(ctx, dmg, a, t, post, pre, present), post)
    return skipped, t_dies, a_dies, dmg, t_saved, a_saved


def saved_by_counters(ctx, card):
    """`card` (an index) is not destroyed by the battle damage calculation performs in this step
    because a "remove N counters instead" of its own applies (effects.counter_instead): how many
    counters it loses, 0 if none."""
    pre = ctx.pre
    *_, t_saved, a_saved = outcome(ctx)
    saved = z3.And(calc_now(ctx), z3.Or(z3.And(pre.target == card, t_saved), z3.And(pre.attacker == card, a_saved)))
    return z3.If(saved, counter_instead(ctx, z3.IntVal(card), ctx.post)[1], 0)


def indestructible(ctx, card, post):
    """`card` cannot be destroyed by battle in `post` (where the calculation reads ATK: after this
    step's resolution): an operation said so this turn, or a continuous effect applies (GEN-18)."""
    return z3.Or(ctx.sel(post.ind_battle, card, z3.BoolVal(False)),
                 continuous_applies(ctx, "indestructible_by_battle", card, post))


def lasting(ctx, dmg, st):
    """The battle damage after the changes operations left for this battle (Kuriboh, Waboku,
    Dimension Wall; a doubling of either player's: Cross Counter doubles the opponent's) and
    continuous "you take no battle damage": applied after BD-1's classes, as the last class (6)
    of "damage becomes 0" would be; then halved, rounded down, if all the damage its player takes
    this turn is (Damage Diet: the script's EFFECT_CHANGE_DAMAGE, dam/2). Read in `st`, where the
    calculation reads ATK."""
    code = {n: vocab.BATTLE_DAMAGE_CHANGES.index(n) for n in vocab.BATTLE_DAMAGE_CHANGES}
    out = []
    for p in (0, 1):
        mine, theirs = dmg[p], dmg[1 - p]
        reflected_in = z3.If(st.bdc[1 - p] == code["reflect_battle_damage"], z3.If(theirs > 0, theirs, 0), 0)
        d = z3.If(st.bdc[p] == code["no_battle_damage"], 0,
                  z3.If(st.bdc[p] == code["halve_battle_damage"], mine / 2,
                        z3.If(st.bdc[p] == code["double_battle_damage"], mine * 2,
                              z3.If(st.bdc[p] == code["reflect_battle_damage"], z3.If(mine > 0, 0, mine), mine))))
        d = d + reflected_in
        d = z3.If(z3.And(d > 0, st.halved[p]), d / 2, d)   # "all damage you take is halved" this turn (Damage Diet)
        out.append(z3.If(z3.And(d > 0, player_protected(ctx, "no_battle_damage", p, st)), 0, d))
    return out


def modify(ctx, dmg, a, t, post, pre, present):
    """Battle damage modifiers of the two battling monsters (BD-1 order, else attacker first): each
    monster's own, else the one an Equip Card equipped to it gives it (equips.equip_grants); read
    in `post`, where the calculation reads ATK, their battle marks in `pre`; a monster's applies
    while it is `present` for the calculation."""
    S = ctx.S
    mods = {k: z3.If(S.bd_mod(card) != 0, S.bd_mod(card), equip_grants(ctx, card, post)[2]) for k, card in (("a", a), ("t", t))}

    def mod(card):
        return mods["a"] if card is a else mods["t"]

    def apply(card, names, d):
        m, c = mod(card), S.ctrl(card)
        # modifiers apply at the calculation itself, alongside the destruction it decides
        live = z3.And(card != NONE, present(card), z3.Not(ctx.sel(pre.dbb, card)))
        own, opp = z3.If(c == 0, d[0], d[1]), z3.If(c == 0, d[1], d[0])
        rules = {
            "double": (own, opp * 2),
            "both_take": (z3.If(own > opp, own, opp), z3.If(own > opp, own, opp)),
            "redirect_to_opponent": (z3.IntVal(0), opp + own),
            "opponent_also_takes": (own, opp + own),
            "redirect_to_self": (own + opp, z3.IntVal(0)),
            "gain_instead": (-own, opp),
            "double_taken": (own * 2, opp * 2),
            "halve_taken": (own / 2, opp / 2),
            "opponent_damage_zero": (own, z3.IntVal(0)),
        }
        new_own, new_opp = own, opp
        for name in names:
            hit = z3.And(live, m == BDM[name])
            new_own = z3.If(hit, rules[name][0], new_own)
            new_opp = z3.If(hit, rules[name][1], new_opp)
        return [z3.If(c == 0, new_own, new_opp), z3.If(c == 0, new_opp, new_own)]

    ordered = list(dmg)
    gained = z3.BoolVal(False)
    for names in BD_ORDER:
        before = ordered
        for card in (a, t):
            ordered = apply(card, names, ordered)
        if names == ("gain_instead",):
            gained = z3.Or([z3.And(card != NONE, mod(card) == BDM["gain_instead"]) for card in (a, t)])
        else:
            ordered = [z3.If(gained, before[p], ordered[p]) for p in (0, 1)]
    timestamp = list(dmg)
    every = tuple(n for names in BD_ORDER for n in names)
    for card in (a, t):
        timestamp = apply(card, every, timestamp)
    bd1 = ctx.lit("BD-1")
    return [z3.If(bd1, ordered[p], timestamp[p]) for p in (0, 1)]


def calc_updates(ctx):
    pre = ctx.pre
    now = calc_now(ctx)
    skipped, t_dies, a_dies, dmg, _, _ = outcome(ctx)
    ups = [Update("calc", None, now, z3.If(skipped, CALC_SKIPPED, CALC_DONE))]
    for p in (0, 1):
        ups += [Update("bd", p, now, z3.If(dmg[p] > 0, dmg[p], 0)),
                Update("lp", p, now, pre.lp[p] + lp_delta(ctx, p) - dmg[p])]
    for i in ctx.cards:
        dies = z3.Or(z3.And(pre.target == i, t_dies), z3.And(pre.attacker == i, a_dies))
        kills = z3.Or(z3.And(pre.attacker == i, t_dies), z3.And(pre.target == i, a_dies))
        fought = z3.And(z3.Not(skipped), z3.Or(pre.attacker == i, pre.target == i))
        # D4-1 (OCG) / T7 (TCG): they stay on the field until the end of the Damage Step
        leaves = z3.And(dies, z3.Not(ctx.grant("destroyed_stay_until_ds_end")))
        ups += [Update("loc", i, z3.And(now, leaves), z3.IntVal(GY)),
                Update("dbb", i, now, dies),
                Update("destroyer", i, now, z3.Or(pre.destroyer[i], kills)),
                Update("lost", i, now, z3.Or(pre.lost[i], dies)),
                Update("battled", i, now, z3.Or(pre.battled[i], fought))]
    return ups


@rule("DC-1", "Target in Attack Position: the higher ATK destroys the lower and its controller "
      "takes the difference; equal ATK destroys both with no damage, unless both are 0: then neither.",
      ["S1 32-43"], shape="update", priority=PRIORITY)
def dc1(ctx):
    return calc_updates(ctx)


@rule("DC-2", "Target in Defense Position: ATK above DEF destroys it with no damage; equal: "
      "nothing happens; lower: nothing is destroyed and the attacker's controller takes DEF - ATK.",
      ["S1 44-54"], shape="update", priority=PRIORITY)
def dc2(ctx):
    return []


@rule("DC-3", "Direct attack: the opponent takes damage equal to the attacker's ATK.",
      ["S1 55-56"], shape="update", priority=PRIORITY)
def dc3(ctx):
    return []


@rule("DC-4", "If damage calculation was skipped or stopped (the attack target or the attacker "
      "left the field, or an effect skipped it) no battle damage is dealt and nobody is destroyed "
      "by battle.", ["S3 40", "S0-TCG 59", "S0-TCG 78"], shape="update", priority=PRIORITY)
def dc4(ctx):
    return []


@rule("BD-1", "Battle damage modifiers apply in this order: double battle damage; both players "
      "take it; redirections; gain LP instead (stop there); doubled/halved; becomes a fixed "
      "value.", ["S2 63-75"], shape="update", priority=PRIORITY, expressible="partial",
      note="The modifiers of the two battling monsters (the catalogue's `battle_damage_modifier`: a monster's "
           "own, or an Equip Card's for the monster it is equipped to) apply in BD-1's order; the lasting changes operations leave (no, halved, doubled, "
           "reflected battle damage: Kuriboh, Dimension Wall) apply after them; other cards' own "
           "modifiers are not modelled. Where a rule set lacks BD-1 the tool applies the "
           "attacker's modifier, then the target's.")
def bd1(ctx):
    return []


@rule("AB-1", "Monsters determined destroyed by battle cannot be targeted, cannot change battle "
      "position or ATK/DEF, and their optional Quick Effects cannot be activated, until they "
      "leave the field.", ["S3 49-60"], expressible="partial",
      note="Continuous Effects that stop applying to such a monster are not modelled (no condition "
           "atom reads \"determined destroyed by battle\": docs/cards-format.md).")
def ab1(ctx):
    S, pre, act = ctx.S, ctx.pre, ctx.act

    def marked(card):   # "until they are sent to the Graveyard" (S3 51)
        return z3.And(ctx.sel(pre.dbb, card, z3.BoolVal(False)), ctx.monster_in_zone(card))
    target_ok = z3.And([z3.Implies(t != NONE, z3.Not(marked(t))) for t in (act.target, act.target2)])
    quick_ok = z3.Implies(z3.And(ctx.ekind_is(act.eff, "quick"), z3.Not(S.mandatory(act.eff))),
                          z3.Not(marked(S.inst(act.eff))))
    return z3.Implies(ctx.activating, z3.And(target_ok, quick_ok))


@part("AB-1", shape="permission")
def ab1_untargetable(ctx):
    # read where a mandatory trigger asks whether some card can be its target (effects.watched_target)
    return {"battle_destroyed_untargetable": z3.BoolVal(True)}


@part("AB-1", shape="update", priority=PRIORITY)
def ab1_frozen(ctx):
    pre = ctx.pre
    # listed before the resolution updates, so it wins: their ATK/DEF and position stay
    frozen = [z3.And(pre.dbb[i], pre.loc[i] == MZ, ctx.is_("resolve_link")) for i in ctx.cards]
    return [u for i in ctx.cards for u in (Update("atk", i, frozen[i], pre.atk[i]),
                                           Update("def_", i, frozen[i], pre.def_[i]),
                                           Update("defpos", i, frozen[i], pre.defpos[i]))]

"""Battle Phase structure: BP, Start Step, Battle Step, End Step (rules.md section 3)."""
import z3

from .. import vocab
from ..state import NONE
from .base import Update, part, rule, table_rule
from .chain import is_trigger
from .effects import continuous_applies
from .equips import equip_grants

PRIORITY = 20   # update priority (lower wins): after the Chain, before damage calculation

MZ = vocab.L["monster_zone"]


def fast_or_trigger(ctx):
    """Spell Speed 2 or higher, or a triggered effect (which starts its own Chain)."""
    return z3.Or(ctx.S.speed(ctx.eff) >= 2, is_trigger(ctx, ctx.eff))


def chain_end(ctx):
    """This step resolves the last link of a Chain."""
    return z3.And(ctx.is_("resolve_link"), ctx.pre.chain_len == 1)


def can_be_attacked(ctx, card, attacker):
    """`card` may be chosen as `attacker`'s attack target (at the declaration, or as a replay's
    new target): a monster the opponent controls that no "cannot be targeted for attacks" of a
    face-up card protects, and face-down if the attacker "can only attack face-down Defense
    Position monsters". Read only where a target is chosen: a protection that begins to apply
    once the attack is declared (the flipped target's own, D2-3) does not undo it."""
    S, pre = ctx.S, ctx.pre
    only_face_down = continuous_applies(ctx, "attacks_face_down_only", attacker, pre)
    return z3.And(ctx.monster_in_zone(card), S.ctrl(card) != S.tp,
                  z3.Not(continuous_applies(ctx, "cannot_be_attacked", card, pre)),
                  z3.Implies(only_face_down, z3.Not(ctx.sel(pre.faceup, card))))


@rule("BP-1", "The player who goes first cannot conduct a Battle Phase on the first turn of the "
      "duel.", ["S0-TCG 3", "S1 3"])
def bp1(ctx):
    return z3.Implies(ctx.is_("enter_bp"), ctx.S.turn != 1)


@rule("BP-2", "Entering the Battle Phase is optional, unless an effect requires it (a face-up "
      "Attack Position \"Berserk Gorilla\").", ["S0-TCG 3"])
def bp2(ctx):
    S, pre = ctx.S, ctx.pre
    forced = z3.Or([z3.And(pre.loc[i] == MZ, S.ctrl(i) == S.tp, pre.faceup[i], z3.Not(pre.defpos[i]),
                           S.must_attack(i)) for i in ctx.cards]) if ctx.ncards else z3.BoolVal(False)
    # on the first turn there is no Battle Phase to be forced into (BP-1)
    return z3.Implies(z3.And(ctx.is_("skip_bp"), S.turn != 1), z3.Not(forced))


@part("BP-2", shape="permission")
def bp2_grant(ctx):
    S, pre = ctx.S, ctx.pre
    attackers = z3.Or([z3.And(pre.loc[i] == MZ, S.ctrl(i) == S.tp, z3.Not(pre.defpos[i]))
                       for i in ctx.cards]) if ctx.ncards else z3.BoolVal(False)
    return {"enter_bp": attackers}


@rule("BP-3", "A player may enter the Battle Phase with no monsters, or with only Defense "
      "Position monsters.", ["S0-TCG 3"], shape="permission")
def bp3(ctx):
    S, pre = ctx.S, ctx.pre
    attackers = z3.Or([z3.And(pre.loc[i] == MZ, S.ctrl(i) == S.tp, z3.Not(pre.defpos[i]))
                       for i in ctx.cards]) if ctx.ncards else z3.BoolVal(False)
    return {"enter_bp": z3.Not(attackers)}


@rule("BP-4", "The Battle Phase has a Start Step, a Battle Step, the Damage Step (a branch of "
      "the Battle Step, once per attack) and an End Step, in that order; it is entered from "
      "Main Phase 1.", ["S2 5", "S1 4-8"])
def bp4(ctx):
    return z3.And(z3.Implies(ctx.is_("enter_bp", "skip_bp"), ctx.win("main1")),
                  z3.Implies(ctx.is_("enter_bp"), ctx.grant("enter_bp")),
                  z3.Implies(ctx.is_("activate", "pass", "next"), z3.Not(ctx.win("main1", "main2"))))


@part("BP-4", shape="update", priority=PRIORITY)
def bp4_enter(ctx):
    return [Update("window", None, ctx.is_("enter_bp"), z3.IntVal(vocab.W["start_step"])),
            Update("window", None, ctx.is_("skip_bp"), z3.IntVal(vocab.W["main2"]))]


@rule("BP-5", "Only a face-up Attack Position monster attacks; each monster can attack once "
      "per turn unless an effect allows more.", ["S1 23", "S1 57"],
      expressible="partial",
      note="Extra attacks come from the catalogue's `extra_attacks` (a monster's own, or an Equip Card's "
           "for the monster it is equipped to: \"Tyrant Wing\") and from an `attack_again` "
           "operation (\"That monster can attack again\"); the position-change "
           "half (a monster that attacked cannot change its battle position) has no action to "
           "check: plays do not change battle positions by hand.")
def bp5(ctx):
    S, pre, act = ctx.S, ctx.pre, ctx.act
    a = act.card
    ok = z3.And(ctx.monster_in_zone(a), S.ctrl(a) == S.tp, ctx.sel(pre.faceup, a),
                z3.Not(ctx.sel(pre.defpos, a)),
                ctx.sel(pre.attacks, a) < 1 + S.extra_attacks(a) + equip_grants(ctx, a, pre)[0],
                z3.Not(ctx.sel(pre.no_attack, a)),
                z3.Not(continuous_applies(ctx, "cannot_attack", a, pre)))
    return z3.Implies(ctx.is_("attack"), ok)


@part("BP-5", shape="update", priority=PRIORITY)
def bp5_count(ctx):
    pre, act = ctx.pre, ctx.act
    ups = []
    for i in ctx.cards:
        mine = z3.And(ctx.is_("attack"), act.card == i)
        ups += [Update("attacks", i, mine, pre.attacks[i] + 1),
                Update("hit_direct", i, z3.And(mine, act.direct), z3.BoolVal(True)),
                Update("hit_monster", i, z3.And(mine, z3.Not(act.direct)), z3.BoolVal(True))]
    return ups


@part("BP-5", shape="update", priority=PRIORITY)
def bp5_stop(ctx):
    # An attack stops when the attacking monster leaves the Monster Zone or is turned face-down
    # before the Damage Step: no Damage Step follows, and the monster has attacked (the count
    # was taken at the declaration). In the Damage Step the battle goes on without it (D2-7).
    pre, post = ctx.pre, ctx.post
    gone = z3.Not(z3.And(ctx.monster_in_zone(pre.attacker, post), ctx.sel(post.faceup, pre.attacker)))
    stop = z3.And(pre.attacking, z3.Not(ctx.ds()), z3.Not(ctx.ds(post)), gone)
    return [Update("attacking", None, stop, z3.BoolVal(False)),
            Update("replay", None, stop, z3.BoolVal(False))]


@rule("BP-6", "A direct attack is possible only while the opponent controls no monster (or a "
      "card's text lets that monster attack directly); an attack on a monster needs a monster the "
      "opponent controls that no card text keeps from being chosen as an attack target.",
      ["S1 55-56", "card text"],
      note="Read where a target is chosen (the declaration, a replay's new target): "
           "`cannot_be_attacked` (\"cannot be targeted for attacks\") and `attacks_face_down_only` "
           "(\"can only attack face-down Defense Position monsters\", so not directly).")
def bp6(ctx):
    S, act, pre = ctx.S, ctx.act, ctx.pre
    # a replay's new target is chosen for the monster already attacking
    attacker = z3.If(ctx.is_("retarget"), pre.attacker, act.card)
    may_go_direct = z3.And(z3.Or(ctx.monsters_of(1 - S.tp) == 0,
                                 continuous_applies(ctx, "direct_attack", attacker, pre)),
                           z3.Not(continuous_applies(ctx, "attacks_face_down_only", attacker, pre)))
    target_ok = z3.If(act.direct, may_go_direct, can_be_attacked(ctx, act.target, attacker))
    return z3.Implies(ctx.is_("attack", "retarget"), target_ok)


@rule("BP-7", "Each attack is declared and resolved completely (through the end of its Damage "
      "Step) before another attack may be declared.", ["S0-TCG 133", "S1 57"])
def bp7(ctx):
    return z3.Implies(ctx.is_("attack"), z3.Not(ctx.pre.attacking))


@part("BP-7", shape="update", priority=PRIORITY)
def bp7_declare(ctx):
    act = ctx.act
    attack = ctx.is_("attack")
    return [Update("attacking", None, attack, z3.BoolVal(True)),
            Update("attacker", None, attack, act.card),
            Update("target", None, attack, z3.If(act.direct, NONE, act.target)),
            Update("window", None, attack, z3.IntVal(vocab.W["attack_declared"])),
            Update("calc", None, attack, z3.IntVal(0)),
            Update("target_was_face_down", None, attack,
                   z3.And(z3.Not(act.direct), z3.Not(ctx.sel(ctx.pre.faceup, act.target))))]


@rule("BP-8", "Effects that allow extra attacks may restrict them (\"Tyrant Wing\": after "
      "attacking directly the monster cannot attack monsters that turn, and after attacking a "
      "monster it cannot attack directly).", ["S2 23"],
      expressible="partial",
      note="Only the \"Tyrant Wing\" restriction is modelled: the catalogue's `attack_restriction`, "
           "an Equip Card's for the monster it is equipped to.")
def bp8(ctx):
    S, pre, act = ctx.S, ctx.pre, ctx.act
    a = act.card
    restricted = z3.Or(S.tyrant_wing(a), equip_grants(ctx, a, pre)[1])
    bound = z3.Implies(restricted, z3.If(act.direct, z3.Not(ctx.sel(pre.hit_monster, a)),
                                               z3.Not(ctx.sel(pre.hit_direct, a))))
    return z3.Implies(ctx.is_("attack"), bound)


@rule("ST-1", "In the Start Step the turn player has priority to activate Spell Speed 2 cards; "
      "only fast effects (and triggered effects, each in its own Chain) are activated; multiple "
      "Chains are allowed.", ["S0-TCG 9-10", "S0-OCG 145-149", "S2 7-11"])
def st1(ctx):
    return z3.Implies(z3.And(ctx.activating, ctx.win("start_step")), fast_or_trigger(ctx))


@rule("ST-2", "Entering the Battle Phase is not an attack declaration; if nothing else is done "
      "the turn player may go straight to the End Step.", ["S0-TCG 11", "S0-OCG 149"])
def st2(ctx):
    S = ctx.S
    return z3.Implies(z3.And(ctx.activating, ctx.win("start_step")),
                      z3.Not(S.names["attack_declared"](ctx.eff)))


@part("ST-2", shape="permission")
def st2_grant(ctx):
    return {"end_bp": ctx.win("start_step")}


@rule("BS-1", "The turn player must declare entering the Battle Step, where attacks are "
      "declared; before an attack is declared the turn player has priority; only fast effects "
      "(or triggered effects) are activated there.", ["S0-TCG 15", "S2 15", "S0-OCG 153"])
def bs1(ctx):
    attack_where = z3.Implies(ctx.is_("attack"), ctx.win("battle_step"))
    fast = z3.Implies(z3.And(ctx.activating, ctx.win("battle_step", "attack_declared")),
                      fast_or_trigger(ctx))
    return z3.And(attack_where, fast)


@rule("BS-2", "Only the first Chain after an attack declaration responds to it (\"Magic "
      "Cylinder\", \"Dimensional Prison\" only there); after that Chain, or after both players "
      "pass on the declaration, the Battle Step's open game state follows.",
      ["S0-TCG 16-17", "S0-OCG 153-155", "S2 19", "S2 21"])
def bs2(ctx):
    S = ctx.S
    # "when an attack is declared": the timing, or the condition that an opponent's monster attacks
    responds = z3.Or(S.names["attack_declared"](ctx.eff), S.cond(ctx.eff) == vocab.CO["opponent_attacks"])
    elsewhere = z3.Not(ctx.win("start_step", "attack_declared"))
    return z3.Not(z3.And(ctx.activating, responds, elsewhere))


@part("BS-2", shape="update", priority=PRIORITY)
def bs2_first_chain(ctx):
    from .resolution import applies
    # the first Chain after the declaration has resolved: the Battle Step's open game state,
    # where later Chains are not responses (two passes on the declaration lead there too: the
    # rule sets' transition row); unless an effect in it ended the Battle Phase (ES-1 then
    # moves to the End Step)
    ended = z3.Or(ctx.pre.ending, applies(ctx, "end_battle_phase"))
    done = z3.And(chain_end(ctx), ctx.win("attack_declared"), z3.Not(ended))
    return [Update("window", None, done, z3.IntVal(vocab.W["battle_step"]))]


def target_side_changed(ctx):
    """The number of monsters the attack target's controller controls changed in this step."""
    S, pre, post = ctx.S, ctx.pre, ctx.post
    side = 1 - S.tp
    moved = [z3.And(S.ctrl(i) == side, (pre.loc[i] == MZ) != (post.loc[i] == MZ)) for i in ctx.cards]
    return z3.Or(moved) if moved else z3.BoolVal(False)


@rule("BS-3", "Replay: if the number of monsters the attack target's controller controls "
      "changes during the Battle Step, the attacking player may choose a new target or not "
      "attack; a Chain after the replay is not in response to the attack.",
      ["S0-TCG 18", "S0-OCG 157-158", "S1 25-27", "S2 25"])
def bs3(ctx):
    pre = ctx.pre
    only_choice = z3.Implies(pre.replay, z3.Or(ctx.is_("retarget", "stop_attack", "claim")))
    needs_replay = z3.Implies(ctx.is_("retarget", "stop_attack"), pre.replay)
    return z3.And(only_choice, needs_replay)


@rule("BS-5", "Once the Damage Step begins the monster is treated as having attacked, and no "
      "replay can occur.", ["S2 37"], shape="update", priority=PRIORITY)
def bs5(ctx):
    in_ds = ctx.ds()
    return [Update("replay", None, in_ds, z3.BoolVal(False)),
            Update("count_changed", None, in_ds, z3.BoolVal(False))]


@rule("BS-4", "A change in the number of monsters during a Chain's resolution triggers the "
      "replay only after the whole Chain has resolved; if the attacker is gone by then there is "
      "no replay.", ["S2 27", "Yugipedia \"Replay\""], shape="update", priority=PRIORITY,
      note="A change while the Chain is built (a cost that Tributes a monster) waits for the end of "
           "the Chain as well: a replay occurs at the next open game state (Yugipedia \"Replay\"; "
           "docs/interpretations.md).")
def bs4(ctx):
    pre = ctx.pre
    changed = z3.And(pre.attacking, target_side_changed(ctx))
    # a link resolving with more below it, or an activation (its cost): the Chain is still open
    mid_chain = z3.Or(z3.And(ctx.is_("resolve_link"), pre.chain_len > 1), ctx.activating)
    pending = z3.Or(pre.count_changed, changed)
    at_end = z3.And(chain_end(ctx), pending, pre.attacking)
    attacker_here = ctx.monster_in_zone(pre.attacker, ctx.post)
    return [Update("count_changed", None, z3.And(mid_chain, changed), z3.BoolVal(True)),
            Update("replay", None, z3.And(mid_chain, changed), z3.BoolVal(False)),
            Update("count_changed", None, chain_end(ctx), z3.BoolVal(False)),
            Update("replay", None, at_end, attacker_here),
            Update("attacking", None, z3.And(at_end, z3.Not(attacker_here)), z3.BoolVal(False))]


@part("BS-3", shape="update", priority=PRIORITY)
def bs3_replay(ctx):
    pre, act = ctx.pre, ctx.act
    changed = z3.And(pre.attacking, target_side_changed(ctx))
    retarget, stop = ctx.is_("retarget"), ctx.is_("stop_attack")
    return [Update("replay", None, changed, z3.BoolVal(True)),
            Update("replay", None, z3.Or(retarget, stop), z3.BoolVal(False)),
            Update("target", None, retarget, z3.If(act.direct, NONE, act.target)),
            Update("window", None, retarget, z3.IntVal(vocab.W["battle_step"])),
            Update("attacking", None, stop, z3.BoolVal(False)),
            Update("window", None, stop, z3.IntVal(vocab.W["battle_step"]))]


@rule("BS-6", "An effect that says a monster \"cannot declare an attack\", applied after the "
      "declaration, does not stop that attack; one that says it \"cannot attack\" stops the "
      "attack when applied.", ["S2 21"], shape="update", priority=PRIORITY)
def bs6(ctx):
    from .resolution import affects
    pre = ctx.pre
    stop = z3.Or([z3.And(affects(ctx, "cannot_attack", i), pre.attacker == i) for i in ctx.cards] or [z3.BoolVal(False)])
    ups = [Update("attacking", None, stop, z3.BoolVal(False))]
    for i in ctx.cards:
        for res in ("cannot_attack", "cannot_declare_attack"):
            ups.append(Update("no_attack", i, affects(ctx, res, i), z3.BoolVal(True)))
    return ups


@rule("BS-7", "After both players pass, the game goes to the Damage Step if the attack still "
      "continues.", ["S0-TCG 19", "S0-OCG 157"])
def bs7(ctx):
    # the move itself is in the rule set's window table; here: no Damage Step without an attack
    return z3.Implies(z3.And(ctx.ds(ctx.post), z3.Not(ctx.ds())), ctx.pre.attacking)


@rule("BS-8", "After the Damage Step the game returns to the Battle Step: another attack may be "
      "declared, or the turn player proceeds to the End Step.",
      ["S0-TCG 133", "S2 91", "S3 75"], shape="update", priority=PRIORITY)
def bs8(ctx):
    back = z3.And(ctx.ds(), ctx.win("battle_step", state=ctx.post))
    return [Update("attacking", None, back, z3.BoolVal(False)),
            Update("attacker", None, back, z3.IntVal(NONE)),
            Update("target", None, back, z3.IntVal(NONE))]


@rule("ES-1", "The End Step begins when the turn player, in an open game state, declares the end "
      "of the Battle Phase, or when an effect ends it.", ["S0-OCG 220", "S0-TCG 137"])
def es1(ctx):
    pre = ctx.pre
    return z3.Implies(ctx.is_("end_bp"), z3.And(ctx.grant("end_bp"), z3.Not(pre.attacking)))


@part("ES-1", shape="permission")
def es1_grant(ctx):
    return {"end_bp": ctx.win("battle_step")}


@part("ES-1", shape="update", priority=PRIORITY)
def es1_enter(ctx):
    from .resolution import applies
    pre = ctx.pre
    by_effect = z3.And(chain_end(ctx), z3.Or(pre.ending, applies(ctx, "end_battle_phase")))
    ups = [Update("window", None, ctx.is_("end_bp"), z3.IntVal(vocab.W["end_step"])),
           Update("window", None, by_effect, z3.IntVal(vocab.W["end_step"])),
           Update("ending", None, applies(ctx, "end_battle_phase"), z3.BoolVal(True)),
           Update("ending", None, by_effect, z3.BoolVal(False)),
           Update("attacking", None, by_effect, z3.BoolVal(False))]
    return ups


@rule("ES-2", "In the End Step the turn player has priority for Spell Speed 2; either player may "
      "activate Traps, Quick-Play Spells and monster effects; Spell Speed 1 effects that would "
      "activate at this time do so in separate Chains.",
      ["S0-TCG 139-141", "S0-OCG 221-222"])
def es2(ctx):
    return z3.Implies(z3.And(ctx.activating, ctx.win("end_step")), fast_or_trigger(ctx))


table_rule("ES-3", "After both players pass in the End Step, Main Phase 2 begins.",
           ["S0-OCG 223", "S2 91"], expressible="partial",
           note="Duel Links (no Main Phase 2, S2 91) is not a format the tool models.")

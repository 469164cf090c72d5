"""The TCG Damage Step in seven sub-steps (rules.md section 6, S0-TCG 21-133)."""
import z3

from .. import vocab
from .base import Update, part, rule, table_rule
from .battle import chain_end
from .calc import battler_gone
from .ocg import send_destroyed

PRIORITY = 50   # update priority (lower wins): after the OCG parts, before the resolutions

@rule("T1", "Start of the Damage Step: Continuous Effects that apply now apply; Trigger Effects "
      "that activate now do (never against a face-down monster); ATK/DEF changers may be "
      "activated.", ["S0-TCG 36-45"], shape="permission")
def t1(ctx):
    # read by the flip row of the rule set's tables (tables.py)
    # and the condition quantity `damage_step` (effects.quantity): "Steamroid" applies from here
    return {"face_down_at_ds_start": z3.BoolVal(True), "destroyed_target_not_flipped": z3.BoolVal(True),
            "damage_step_effects": z3.BoolVal(True)}
table_rule("T2", "Flip: the face-down target is flipped face-up; its Flip Effects wait; its "
           "Continuous Effects apply; ATK/DEF changers may be activated.", ["S0-TCG 47-55"],
           counterparts=["D2-1", "D2-2"])


@part("T2", shape="permission")
def t2_continuous(ctx):
    return {"flipped_continuous_apply": z3.BoolVal(True)}
table_rule("T3", "Before damage calculation: \"before damage calculation\" effects, "
           "when-flipped-by-attack effects and damage effects activate; ATK/DEF changers; multiple "
           "Chains are allowed.", ["S0-TCG 57-68"])


@rule("T4", "At damage calculation only one Chain, of effects activated \"at damage calculation\" and "
      "effects that negate them; Continuous \"at damage calculation\" effects apply after it; a "
      "monster destroyed by an effect stops it (gone before it: none at all).",
      ["S0-TCG 70-78"])
def t4(ctx):
    S, pre = ctx.S, ctx.pre
    here = z3.And(ctx.activating, ctx.win("t4_at_calc"))
    names_calc = S.names["during_calc"]
    negates_one = z3.And(S.negates(ctx.eff) != vocab.NG["none"], pre.chain_len > 0, names_calc(ctx.top_eff))
    one_chain = z3.Implies(pre.chain_len == 0, pre.chains == 0)
    # a battling monster already gone: no damage calculation, nothing is activated at it
    return z3.Implies(here, z3.And(z3.Or(names_calc(ctx.eff), negates_one), one_chain,
                                   z3.Not(battler_gone(ctx, pre))))


@part("T4", shape="update", priority=PRIORITY)
def t4_calc(ctx):
    return [Update("window", None, z3.And(chain_end(ctx), ctx.win("t4_at_calc")),
                   z3.IntVal(vocab.W["t5_battle_damage"]))]


@part("T4", shape="permission")
def t4_calc_reads(ctx):
    # read by damage calculation (calc.py)
    return {"bonuses_at_calc": z3.BoolVal(True), "calc_stops_when_gone": z3.BoolVal(True)}


@rule("T4-H", "\"Honest\" can be activated from the start of the Damage Step up to and including "
      "damage calculation.", ["S0-TCG 80-82"], shape="permission")
def t4_h(ctx):
    # an effect that names the start of the Damage Step and damage calculation is admitted in
    # every sub-step between them
    S = ctx.S
    span = z3.And(S.names["ds_start"](ctx.eff), S.names["during_calc"](ctx.eff))
    return {"timing": z3.And(span, ctx.win("t1_start", "t2_flip", "t3_before_calc", "t4_at_calc"))}


table_rule("T5", "Battle damage: self-destroyers that survived are destroyed; immediately after "
           "battle damage \"Flashbang\" can be activated before any other effect; then "
           "battle-damage triggers.", ["S0-TCG 96-106"])
table_rule("T6", "Effect resolution: Flip Effects of monsters flipped by the attack activate, with "
           "when-flipped Triggers and \"after damage calculation\" effects (\"D.D. Warrior Lady\", "
           "\"Wall of Illusion\").", ["S0-TCG 108-116"])


@rule("T7", "End of the Damage Step: destroyed monsters go to the Graveyard; \"destroyed by "
      "battle\" effects start a Chain.", ["S0-TCG 118-133"], shape="update", priority=PRIORITY, expressible="partial",
      note="Pendulum Monsters going to the Extra Deck are not modelled, and \"Des Mosquito\"'s counter is "
           "removed at damage calculation (T4), where S0-TCG 127 removes it here; \"B.E.S.\"'s and \"Big Core\"'s "
           "counters and \"Spacegate\"'s Gate Counter are their own effects at the end of the Damage Step "
           "(GEN-18), and \"Macro Cosmos\" banishing them is GEN-18's redirect.")
def t7(ctx):
    return send_destroyed(ctx, "t7_end")


@part("T7", shape="permission")
def t7_stay(ctx):
    # read by damage calculation (calc.py)
    return {"destroyed_stay_until_ds_end": z3.BoolVal(True)}

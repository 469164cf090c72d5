"""The OCG Damage Step in five parts (rules.md section 5).

Much of each part is a row of the `ocg` rule set's tables (which effects a part admits,
where the target is flipped, which part follows); what is not tabular is here.
"""
import z3

from .. import vocab
from .activation import event_trigger
from .base import Update, part, rule, table_rule
from .battle import chain_end
from .calc import battler_gone
from .redirects import replaceable_by

PRIORITY = 40   # update priority (lower wins): before the resolutions: D2-5 flips the target back (resolution.py)


@rule("D1-1", "At the start of the Damage Step a face-down attack target stays face-down; its "
      "effects do not activate yet.", ["S0-OCG 164", "S3 18"], shape="permission", counterparts=["T1"])
def d1_1(ctx):
    # read by the flip row of the rule set's tables (tables.py): no flip on entering the Damage Step
    return {"face_down_at_ds_start": z3.BoolVal(True)}
@rule("D1-2", "Effects that apply \"only during the Damage Step\" (\"Steamroid\") apply.",
      ["S3 12"], shape="permission", counterparts=["T1"])
def d1_2(ctx):
    # read by the condition quantity `damage_step` (effects.quantity): without the rule an
    # effect limited to the Damage Step never applies
    return {"damage_step_effects": z3.BoolVal(True)}
table_rule("D1-3", "Effects that activate \"at the start of the Damage Step\" may be activated; "
           "mandatory ones must activate.", ["S0-OCG 166-167", "S3 14", "S2 45"], counterparts=["T1"])
table_rule("D1-4", "Direct ATK/DEF changers may be activated at the start of the Damage Step; "
           "multiple Chains are allowed.", ["S0-OCG 168-169", "S3 17"], counterparts=["T1"])


@rule("D1-5", "A face-down target destroyed at the start of the Damage Step is never flipped, so "
      "its Flip Effect cannot activate; the attacker still counts as having attacked.",
      ["S3 18", "S2 43"], counterparts=["T1"])
def d1_5(ctx):
    S = ctx.S
    never_flipped = z3.Not(ctx.sel(ctx.pre.flipped, S.inst(ctx.eff), z3.BoolVal(False)))
    return z3.Implies(z3.And(ctx.activating, ctx.ekind_is(ctx.eff, "flip"), ctx.ds()), z3.Not(never_flipped))


@part("D1-5", shape="permission")
def d1_5_not_flipped(ctx):
    # read by the flip row of the rule set's tables (tables.py)
    return {"destroyed_target_not_flipped": z3.BoolVal(True)}


table_rule("D2-1", "Before damage calculation the face-down attack target is flipped face-up; its "
           "Flip Effect waits until after damage calculation (S3 21: even if it left the field; "
           "S2 81: not if it left the field -- a source conflict).", ["S0-OCG 173", "S3 20-21", "S2 49"], counterparts=["T2"])
table_rule("D2-2", "The flipped monster's Continuous Effects apply at once, and Continuous Effects "
           "apply to it.", ["S0-OCG 174-175", "S3 22"], counterparts=["T2"])


@part("D2-2", shape="permission")
def d2_2(ctx):
    # the other half (Continuous Effects apply to it) needs no term: GEN-18 applies them to
    # every face-up monster, the flipped one included; its position locks ("Final Attack Orders")
    # are applied to the state each step produces, so the target flipped by the step that enters
    # this part is in the lock's position before damage calculation
    return {"flipped_continuous_apply": z3.BoolVal(True)}


table_rule("D2-3", "Effects that prevent a face-down monster from being attacked do not apply to "
           "this attack.", ["S3 26-28"],
           note="Holds by construction: a \"cannot be targeted for attacks\" (cannot_be_attacked) is "
                "read only where an attack target is chosen (BP-6: the declaration and a replay's new "
                "target), so the flipped target's protection, applying from D2-2 on, never undoes the "
                "attack already declared; it refuses the next attack on that monster.")
@rule("D2-4", "Self-destroying Continuous Effects (\"Giant Kozaky\") wait until after damage "
      "calculation.", ["S3 31", "S0-OCG 195"], shape="permission",
      note="A self_destruct continuous effect (GEN-18's self-destruction update, continuous.py, "
           "asks this rule's gate) waits during the Damage Step until after damage "
           "calculation; the cards the sources name say their conditions as atoms (\"Zombie "
           "Mammoth\": no Zombie among the Graveyard's cards the play holds).")
def d2_4(ctx):
    # read by GEN-18's self-destruction (continuous.py): it waits in the Damage Step until after
    # damage calculation
    return {"self_destruct_waits": z3.BoolVal(True)}


@rule("D2-5", "If the attack target is changed to face-down Defense Position before damage "
      "calculation, it is flipped face-up again at once.", ["S3 33"], shape="update", priority=PRIORITY)
def d2_5(ctx):
    from .resolution import affects
    pre = ctx.pre
    window = ctx.win("ds_before_calc", "ds_during_calc")
    return [Update("faceup", i, z3.And(affects(ctx, "set_face_down", i), pre.target == i, window), z3.BoolVal(True))
            for i in ctx.cards]


table_rule("D2-6", "\"Before damage calculation\" effects may be activated and mandatory ones must "
           "activate; direct ATK/DEF changers may be activated; multiple Chains are allowed.",
           ["S0-OCG 177-180", "S3 35-38", "S2 51"], counterparts=["T2", "T3"])
@rule("D2-7", "If the attack target left the Monster Zone by an effect during the Damage Step, "
      "damage calculation is not performed (nothing is activated at it); the rest of the Damage "
      "Step goes on.", ["S3 40"],
      shape="permission")
def d2_7(ctx):
    # read by damage calculation (calc.py) and by the rule set's trigger rows (tables.py)
    return {"calc_stops_when_gone": z3.BoolVal(True)}


@part("D2-7")
def d2_7_no_window(ctx):
    # without damage calculation nothing is activated "during damage calculation": the window is
    # only passed through (its triggers do not become pending: tables.py)
    return z3.Not(z3.And(ctx.activating, ctx.win("ds_during_calc"), battler_gone(ctx, ctx.pre)))


@rule("D3-1", "During damage calculation only effects that can be activated \"during damage "
      "calculation\", and effects that negate them, may be activated.",
      ["S0-OCG 184-186", "S3 41-48", "S2 53-57"], counterparts=["T4"])
def d3_1(ctx):
    S = ctx.S
    names_calc = S.names["during_calc"]
    negates_one = z3.And(S.negates(ctx.eff) != vocab.NG["none"], ctx.pre.chain_len > 0,
                         names_calc(ctx.top_eff))
    return z3.Implies(z3.And(ctx.activating, ctx.win("ds_during_calc")),
                      z3.Or(names_calc(ctx.eff), negates_one))


@rule("D3-2", "ATK/DEF changers cannot be activated during damage calculation unless they say so; "
      "from then to the end of the Damage Step no (optional) ATK/DEF changer can be activated.",
      ["S0-OCG 187", "S3 42", "S3 82"], counterparts=["T4"])
def d3_2(ctx):
    # "in general" (S3 42): mandatory effects stay admitted (S3 80, S0-OCG 202-203)
    S = ctx.S
    changes = z3.And(S.atkdef(ctx.eff) != vocab.AD["none"], z3.Not(S.mandatory(ctx.eff)))
    during = z3.And(ctx.win("ds_during_calc"), z3.Not(S.names["during_calc"](ctx.eff)))
    later = ctx.win("ds_after_calc", "ds_end")
    return z3.Implies(z3.And(ctx.activating, changes), z3.Not(z3.Or(during, later)))


@rule("D3-3", "During damage calculation only one Chain is allowed; after it resolves, damage "
      "calculation is performed and no new Chain can be started.", ["S0-OCG 188", "S2 57"], counterparts=["T4"])
def d3_3(ctx):
    pre = ctx.pre
    return z3.Implies(z3.And(ctx.activating, ctx.win("ds_during_calc"), pre.chain_len == 0),
                      pre.chains == 0)


@part("D3-3", shape="update", priority=PRIORITY)
def d3_3_calc(ctx):
    return [Update("window", None, z3.And(chain_end(ctx), ctx.win("ds_during_calc")),
                   z3.IntVal(vocab.W["ds_after_calc"]))]


@rule("D3-4", "Effects that apply only during damage calculation (\"Skyscraper\") apply after "
      "that Chain, at damage calculation.", ["S0-OCG 190-192", "S3 43-46"], shape="permission",
      counterparts=["T4"])
def d3_4(ctx):
    # read by damage calculation (calc.py)
    return {"bonuses_at_calc": z3.BoolVal(True)}
table_rule("D3-5", "Damage calculation compares ATK/DEF, decides which monster is destroyed by "
           "battle and inflicts battle damage; a monster destroyed by battle is not yet sent to the "
           "Graveyard.", ["S3 47-48", "S0-OCG 190"], counterparts=["T4"])


table_rule("D3-6", "After damage calculation no recalculation happens even if a monster leaves the "
           "field or its ATK/DEF changes.", ["S0-OCG 193", "S2 61"],
           note="Holds by construction: the calculation is performed once, when its window closes; "
                "no fixture can tell it from its absence.")


@rule("D3-7", "Replacement-for-destruction effects are decided at damage calculation: a monster "
      "determined destroyed by battle with such an effect can be replaced by another face-up monster "
      "its controller controls that its text names (not one destroyed by battle).", ["S2 57", "card text"])
def d3_7(ctx):
    S, pre, act = ctx.S, ctx.pre, ctx.act
    c, o = act.card, act.other
    # the card destroyed instead: what its text names ("another face-up \"Six Samurai\" monster you
    # control": its destroy_replace selector), not one already determined destroyed by battle
    # (EDOPro c95519486.lua, c27782503.lua: not STATUS_BATTLE_DESTROYED)
    ok = z3.And(ctx.sel(pre.dbb, c, z3.BoolVal(False)), c != o, ctx.monster_in_zone(o),
                ctx.sel(pre.faceup, o, z3.BoolVal(False)), S.ctrl(o) == S.ctrl(c),
                z3.Not(ctx.sel(pre.dbb, o, z3.BoolVal(False))), replaceable_by(ctx, c, o, pre))
    return z3.Implies(ctx.is_("replace"), z3.And(ok, ctx.grant("replace")))


@rule("D4-1", "Monsters destroyed by battle stay on the field until the end of the Damage Step.",
      ["S3 49-50", "S0-OCG 205"], shape="permission")
def d4_1(ctx):
    # read by damage calculation (calc.py)
    return {"destroyed_stay_until_ds_end": z3.BoolVal(True)}
@rule("D4-2", "A surviving self-destroying monster is destroyed now if its condition holds.",
      ["S3 61-62", "S0-OCG 195"], shape="permission",
      note="A self_destruct continuous effect (GEN-18's self-destruction update, continuous.py, "
           "asks this rule's gate) is applied from the start of after damage calculation, "
           "except to a monster determined destroyed by battle; without the rule it waits the "
           "whole Damage Step. The three cards the sources name say their conditions as atoms "
           "(\"Zombie Mammoth\": no Zombie among the Graveyard's cards the play holds).")
def d4_2(ctx):
    # read by GEN-18's self-destruction (continuous.py): from after damage calculation a
    # surviving monster is destroyed if its condition holds, one destroyed by battle is not
    return {"self_destruct_after_calc": z3.BoolVal(True)}
table_rule("D4-3", "A monster flipped in the Damage Step is sent to the Graveyard under \"Gozen "
           "Match\" if its Attribute differs, or destroyed if it conflicts with an \"only 1\" "
           "restriction.", ["S3 63-65"], expressible="partial",
           note="\"Gozen Match\" and \"only 1\" restrictions are not modelled.")
table_rule("D4-4", "Flip Effects, and Trigger Effects that activate when flipped face-up, activate "
           "after damage calculation.", ["S0-OCG 199", "S2 79"], counterparts=["T6"])
table_rule("D4-5", "\"After damage calculation\" effects, effects that respond to battle damage, "
           "and mandatory ones activate after damage calculation.", ["S0-OCG 200-203", "S3 66"], counterparts=["T5", "T6"])
table_rule("D4-6", "Effects such as \"Skill Drain\" still affect monsters destroyed by battle, which "
           "are still on the field.", ["S0-OCG 205"], expressible="partial",
           note="GEN-18 reads the Monster Zone, where a monster destroyed by battle stays until the "
                "end of the Damage Step, so a negation (\"Skill Drain\", \"Destiny Hero - Plasma\") "
                "still applies to it there; the rule adds no constraint of its own: documented, not enforced.")


@rule("D4-7", "Replacement-for-destruction effects are applied at the very start of the part after "
      "damage calculation, without a Chain.", ["S2 81"], shape="permission")
def d4_7(ctx):
    pre = ctx.pre
    return {"replace": z3.And(ctx.win("ds_after_calc"), pre.chains == 0, pre.chain_len == 0,
                              pre.passes == 0)}


@part("D4-7", shape="update", priority=PRIORITY)
def d4_7_apply(ctx):
    act = ctx.act
    rep = ctx.is_("replace")
    ups = []
    for i in ctx.cards:
        ups += [Update("dbb", i, z3.And(rep, act.card == i), z3.BoolVal(False)),
                Update("loc", i, z3.And(rep, act.other == i), z3.IntVal(vocab.L["graveyard"]))]
    return ups


@rule("D5-1", "At the end of the Damage Step monsters destroyed by battle are sent to the "
      "Graveyard.", ["S0-OCG 209-211", "S3 70"], shape="update", priority=PRIORITY, expressible="partial",
      note="Pendulum Monsters going to the Extra Deck are not modelled; a card that sends them elsewhere "
           "(\"Macro Cosmos\", \"Grave Protector\", \"Dark Magician of Chaos\") is GEN-18's redirect.", counterparts=["T7"])
def d5_1(ctx):
    return send_destroyed(ctx, "ds_end")


def send_destroyed(ctx, window):
    pre, post = ctx.pre, ctx.post
    entering = z3.And(post.window == vocab.W[window], pre.window != post.window)
    return [Update("loc", i, z3.And(entering, pre.dbb[i], pre.loc[i] == vocab.L["monster_zone"]),
                   z3.IntVal(vocab.L["graveyard"])) for i in ctx.cards]


table_rule("D5-2", "\"At the end of the Damage Step\" effects, and effects responding to a monster "
           "being destroyed or leaving the field, may be activated; mandatory ones must activate.",
           ["S0-OCG 213-216", "S3 71", "S2 87"], counterparts=["T7"])


@rule("D5-3", "At the end of the Damage Step these effects form one Chain; no new Chain can be "
      "started actively.", ["S2 87"])
def d5_3(ctx):
    pre = ctx.pre
    # a trigger whose event (a Special Summon) happened while that Chain resolved is not started
    # "actively" (主動, S2 87): it is owed a Chain of its own (GEN-8)
    passive = event_trigger(ctx, ctx.eff)
    return z3.Implies(z3.And(ctx.activating, ctx.win("ds_end"), pre.chain_len == 0, z3.Not(passive)),
                      pre.chains == 0)


table_rule("D5-6", "When nothing more activates or resolves, the Damage Step ends and play returns "
           "to the Battle Step.", ["S3 75", "S2 91"], counterparts=["BS-8"])

"""What may be activated during the Damage Step (rules.md section 4)."""
import z3

from .. import vocab
from .base import rule
from .chain import is_trigger
from .tables import overridden


def changes_atk(ctx):
    return ctx.S.atkdef(ctx.eff) != vocab.AD["none"]


def atk_clause(ctx, directly):
    """Spell Speed 2+ Spells, Traps and Quick Effects that change ATK/DEF (DS-1(d): directly;
    DS-T1(2): at all), in a window the rule set's ATK/DEF table opens."""
    how = ctx.S.atkdef(ctx.eff) == vocab.AD["direct"] if directly else changes_atk(ctx)
    return z3.And(how, ctx.S.speed(ctx.eff) >= 2, ctx.grant("atk_window"))


def negates_quick(ctx):
    return z3.And(ctx.ekind_is(ctx.eff, "quick"), ctx.S.negates(ctx.eff) != vocab.NG["none"])


def in_ds(ctx):
    return z3.And(ctx.activating, ctx.ds())


DS_TIMINGS = ("ds_start", "before_calc", "during_calc", "after_calc", "ds_end")


@rule("DS-1", "During the Damage Step only these can be activated: (a) Counter Traps; (b) "
      "mandatory effects; (c) Quick Effects that negate an activation; (d) Spells, Traps and "
      "Quick Effects that directly change ATK/DEF, only until damage calculation; (e) optional "
      "Trigger Effects for moving location, being flipped face-up or changing battle position, "
      "except Fusion Summon effects; (f) effects that name a Damage Step timing; (g) cards a "
      "ruling allows.", ["S3 76-92", "S2 31-35"],
      summary="During the Damage Step only what the list (a)-(g) names can be activated: Counter "
              "Traps, mandatory effects, negating Quick Effects, direct ATK/DEF changers until damage "
              "calculation, some optional Triggers, Damage Step timings, cards a ruling allows.", counterparts=["DS-T1"])
def ds1(ctx):
    S, e = ctx.S, ctx.eff
    clauses = [
        ctx.kind_is(e, "trap:counter"),                                   # (a)
        S.mandatory(e),                                                   # (b)
        negates_quick(ctx),                                               # (c)
        atk_clause(ctx, directly=True),                                   # (d)
        z3.And(is_trigger(ctx, e), z3.Not(S.mandatory(e)), z3.Not(S.fusion(e)),   # (e)
               z3.Or(ctx.ekind_is(e, "flip"),
                     z3.Or([S.tclass(e) == vocab.TC[c] for c in ("location", "flipped", "position")]))),
        ctx.names_any(e, DS_TIMINGS),                                     # (f)
        S.ruling(e),                                                      # (g)
    ]
    return z3.Implies(in_ds(ctx), z3.Or(clauses))


def ds2_absent(ctx):
    # Without DS-2 the limit on clause (d) would forbid an ATK/DEF changer outside the ATK/DEF
    # windows even when another clause admits it.
    return z3.Implies(z3.And(in_ds(ctx), changes_atk(ctx)), ctx.grant("atk_window"))


@rule("DS-2", "Meeting any one of the Damage Step permissions is enough, even when the card "
      "fails another one's limit.", ["S3 92"], absent=ds2_absent)
def ds2(ctx):
    return z3.BoolVal(True)


@rule("DS-3", "A card that says it cannot be activated during the Damage Step never can, "
      "whatever else applies.", ["S3 77"])
def ds3(ctx):
    return z3.Implies(in_ds(ctx), z3.Not(ctx.S.no_ds(ctx.eff)))


@rule("DS-4", "Cards that change ATK/DEF indirectly (\"Skill Drain\") cannot be activated during "
      "the Damage Step.", ["S3 83-84"])
def ds4(ctx):
    return z3.Implies(in_ds(ctx), ctx.S.atkdef(ctx.eff) != vocab.AD["indirect"])


@rule("DS-5", "Cards that may or may not change ATK/DEF (\"Half or Nothing\"), or that Special "
      "Summon and then change ATK/DEF (\"Powerful Rebirth\"), cannot be activated during the "
      "Damage Step.", ["S3 85-87"])
def ds5(ctx):
    return z3.Implies(in_ds(ctx), ctx.S.atkdef(ctx.eff) != vocab.AD["maybe"])


@rule("DS-T1", "During the Damage Step these can be activated: (1) Counter Traps; (2) Spell "
      "Speed 2 effects that change ATK/DEF; (3) Trigger Effects, unless they say otherwise; (4) "
      "Quick Effects of monsters that negate an activation; and the named cards \"Attack and "
      "Receive\", \"Chthonian Blast\", \"Desrook Archfiend\", \"Michizure\", \"Null and Void\", "
      "\"Numinous Healer\".", ["S0-TCG 26-33"],
      summary="During the Damage Step only what the list (1)-(4) names can be activated: Counter "
              "Traps, Spell Speed 2 ATK/DEF changers, Trigger Effects unless they say otherwise, "
              "negating Quick Effects of monsters, and six named cards.")
def ds_t1(ctx):
    S, e = ctx.S, ctx.eff
    # (3) S0-TCG 29 "effects with an activation timing": triggered effects, and cards whose
    # activation waits for an event ("Time Machine", S0-TCG 122)
    timed = z3.Or(is_trigger(ctx, e), ctx.names_any(e, DS_TIMINGS), overridden(ctx, e))
    clauses = [
        ctx.kind_is(e, "trap:counter"),
        atk_clause(ctx, directly=False),
        timed,
        negates_quick(ctx),
        S.ruling(e),
    ]
    return z3.Implies(in_ds(ctx), z3.Or(clauses))

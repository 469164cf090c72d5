"""Continuous effects (GEN-18) and activation locks (GEN-19): what a face-up card's text does
while it stays face-up on the field, without being activated. Which kinds there are, and which
cards they apply to, is effects.py; the rules that read them grant or refuse here."""
import z3

from .. import vocab
from .base import rule
from .effects import applying


@rule("GEN-18", "A continuous effect (stat modifiers, indestructibility, no battle damage, cannot "
      "attack, attack directly) applies only while its card is face-up on the field, and not to a "
      "monster whose effects \"negate the effects of face-up monsters\" negates.",
      ["S1 65-78", "card text"], shape="permission", name="continuous.applies")
def gen18(ctx):
    # the readers (damage calculation, BP-5, BP-6, the resolution of a drained monster's effect)
    # ask for this gate: without the rule no continuous effect applies
    return {"continuous_effects": z3.BoolVal(True)}


@rule("GEN-19", "While a card's \"Trap Cards cannot be activated\" (or Spell Cards, or both) applies, no "
      "card or effect of that kind is activated by the players it names (both, or its controller's "
      "opponent).", ["card text"], name="activation.lock",
      expressible="partial",
      note="The lock's other half on some cards (\"negate all Trap effects on the field\", Jinzo) is "
           "not modelled: a face-up Trap's continuous effect still applies under it.")
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

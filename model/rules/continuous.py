"""Continuous effects (GEN-18) and activation locks (GEN-19): what a face-up card's text does
while it stays face-up on the field, without being activated. Which kinds there are, and which
cards they apply to, is effects.py; the rules that read them grant or refuse here."""
import z3

from .. import vocab
from .base import Update, part, rule
from .effects import applying, position_locks


@rule("GEN-18", "A continuous effect (stat modifiers, cannot attack, position locks...) applies "
      "only while its card is face-up on the field, and not to a monster whose effects \"negate the "
      "effects of face-up monsters\" negates; a position lock holds after every step.",
      ["S1 65-78", "card text"], shape="permission", name="continuous.applies")
def gen18(ctx):
    # the readers (damage calculation, BP-5, BP-6, the resolution of a drained monster's effect)
    # ask for this gate: without the rule no continuous effect applies
    return {"continuous_effects": z3.BoolVal(True)}


@part("GEN-18", shape="update", priority=0)
def gen18_positions(ctx):
    # A position lock ("Change all face-up Level 4 or higher monsters to Defense Position") holds
    # after every step: it is read in the state the step's other updates produce, so it applies
    # the moment it begins to (its Continuous Trap resolves) and the moment a monster comes to
    # match (flipped face-up by the attack: D2-2, S0-OCG 174-175, S3 22; Special Summoned). A
    # monster in Attack Position is face-up: "changed to face-up Attack Position" (Gaap) turns a
    # face-down one face-up (no Flip Effect: it is not flipped by an attack, D2-1's mark). The
    # sources are silent on two locks imposing opposite positions: Attack Position wins.
    ups = []
    for i in ctx.cards:
        def to(n, i=i):
            return lambda base: position_locks(ctx, i, base)[n]
        ups += [Update("defpos", i, to(0), z3.BoolVal(False), settles=True),
                Update("faceup", i, to(0), z3.BoolVal(True), settles=True),
                Update("defpos", i, to(1), z3.BoolVal(True), settles=True)]
    return ups


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

"""The record of solver variables that timing depends on.

A `State` is one snapshot (before or after a step); `Action` is what a player
does in that step; `Statics` are the facts that do not change during a play
(card properties, controllers, the turn). The same records serve a concrete
check (every variable fixed by assumptions) and symbolic questions (some left
free).
"""
from __future__ import annotations

from functools import lru_cache

import z3

from . import vocab

ACTIONS = (
    "enter_bp",       # Main Phase 1 -> Start Step
    "skip_bp",        # Main Phase 1 -> Main Phase 2 without a Battle Phase
    "attack",         # declare an attack (card -> target, or direct)
    "activate",       # activate a card or effect (a response when a Chain is open)
    "pass",           # pass priority
    "resolve_link",   # resolve the last Chain Link
    "next",           # both players pass with an empty Chain: the window closes
    "end_bp",         # declare the end of the Battle Phase (-> End Step)
    "retarget",       # after a replay: choose a new target (or direct)
    "stop_attack",    # after a replay: choose not to attack
    "replace",        # apply a replacement-for-destruction effect (no Chain)
    "claim",          # the play states a fact about the state (LP, destroyed...)
)
A = {name: i for i, name in enumerate(ACTIONS)}

# What a `claim` states.
CLAIMS = ("lp", "destroyed_by_battle", "location", "atk", "window", "face_up", "calc", "def", "position",
          "attacking", "counters")
CL = {name: i for i, name in enumerate(CLAIMS)}

NONE = -1  # "no card" in card-valued variables
CALC_PENDING, CALC_DONE, CALC_SKIPPED = 0, 1, 2


class State:
    """Solver variables of one snapshot. `fields()` lists them for iteration."""

    def __init__(self, prefix: str, ncards: int, neffects: int):
        I, B = (lambda n: z3.Int(prefix + n)), (lambda n: z3.Bool(prefix + n))
        self.prefix = prefix
        self.window = I("window")
        self.prio = I("prio")            # player who may act now
        self.passes = I("passes")        # consecutive passes (0 or 1)
        self.chain_len = I("chain_len")
        self.link_eff = [I(f"link{k}_eff") for k in range(vocab.MAX_CHAIN)]
        self.link_player = [I(f"link{k}_player") for k in range(vocab.MAX_CHAIN)]
        self.link_target = [I(f"link{k}_target") for k in range(vocab.MAX_CHAIN)]
        self.link_negated = [B(f"link{k}_negated") for k in range(vocab.MAX_CHAIN)]
        self.link_tloc = [I(f"link{k}_tloc") for k in range(vocab.MAX_CHAIN)]  # where its target was (GEN-17)
        # an effect's second target ("Target 2 cards"), NONE if none, and where it was (GEN-17)
        self.link_target2 = [I(f"link{k}_target2") for k in range(vocab.MAX_CHAIN)]
        self.link_tloc2 = [I(f"link{k}_tloc2") for k in range(vocab.MAX_CHAIN)]
        self.chains = I("chains")        # Chains started in this window
        self.resolving = B("resolving")  # both players passed: the Chain is resolving
        self.attacker = I("attacker")
        self.target = I("target")        # NONE for a direct attack
        self.attacking = B("attacking")  # an attack is under way
        self.count_changed = B("count_changed")  # BS-3/BS-4: target side's monsters changed
        self.replay = B("replay")        # a replay is pending: the attacker must choose again
        self.ending = B("ending")        # an effect ends the Battle Phase when the Chain resolves
        self.calc = I("calc")            # CALC_PENDING / CALC_DONE / CALC_SKIPPED
        self.target_was_face_down = B("target_was_face_down")
        self.bd = [I("bd_A"), I("bd_B")]  # battle damage taken in this battle
        self.lp = [I("lp_A"), I("lp_B")]
        self.loc = [I(f"c{i}_loc") for i in range(ncards)]
        self.faceup = [B(f"c{i}_faceup") for i in range(ncards)]
        self.defpos = [B(f"c{i}_defpos") for i in range(ncards)]
        self.atk = [I(f"c{i}_atk") for i in range(ncards)]
        self.def_ = [I(f"c{i}_def") for i in range(ncards)]
        self.dbb = [B(f"c{i}_dbb") for i in range(ncards)]            # destroyed by battle (AB-1)
        self.destroyer = [B(f"c{i}_destroyer") for i in range(ncards)]  # destroyed a monster by battle this turn
        self.lost = [B(f"c{i}_lost") for i in range(ncards)]            # was destroyed by battle this turn
        self.battled = [B(f"c{i}_battled") for i in range(ncards)]      # battled this turn
        self.attacks = [I(f"c{i}_attacks") for i in range(ncards)]
        self.hit_direct = [B(f"c{i}_hit_direct") for i in range(ncards)]    # attacked directly this turn
        self.hit_monster = [B(f"c{i}_hit_monster") for i in range(ncards)]  # attacked a monster this turn
        self.flipped = [B(f"c{i}_flipped") for i in range(ncards)]    # flipped face-up by the attack
        self.no_attack = [B(f"c{i}_no_attack") for i in range(ncards)]  # "cannot attack" applies
        # Special Summoned (by a resolving effect, or before the play as its set-up says: in any
        # turn); read only while the card is in the Monster Zone, as leaving the field makes it a new card
        self.ssum = [B(f"c{i}_ssum") for i in range(ncards)]
        # how it was Summoned this turn (vocab.SUMMONED_THIS_TURN: not, Normal/Tribute/Special, Flip; the
        # set-up's summoned-this-turn / flip-summoned-this-turn, or a Special Summon resolving in the
        # play); read, like ssum, only while it is in the Monster Zone
        self.sumt = [I(f"c{i}_sumt") for i in range(ncards)]
        self.ind_battle = [B(f"c{i}_ind_battle") for i in range(ncards)]  # cannot be destroyed by battle (an operation's, this turn)
        self.ind_effect = [B(f"c{i}_ind_effect") for i in range(ncards)]  # cannot be destroyed by card effects (this turn)
        # a resolved effect destroys it after damage calculation in this battle (destroy_after_calc, GEN-15)
        self.doomed = [I(f"c{i}_doomed") for i in range(ncards)]   # vocab.DOOMED
        # the card whose `attackers` halving recorded this monster as one that attacked while it applied
        # ("Mirror Wall"), NONE if none; cleared when the monster leaves the field or is turned face-down
        self.recorded = [I(f"c{i}_recorded") for i in range(ncards)]
        # an ATK / DEF gain "during damage calculation only" (atk_add_at_calc, def_add_at_calc): shown
        # while this battle's damage calculation is ahead (stats.shown_stat), gone once it is performed or skipped
        self.calc_atk = [I(f"c{i}_calc_atk") for i in range(ncards)]
        self.calc_def = [I(f"c{i}_calc_def") for i in range(ncards)]
        # banished by a banish_until_bp_end operation, to return to the field as the End Step begins
        self.returns = [B(f"c{i}_returns") for i in range(ncards)]
        # the monster this card is equipped to as an Equip Card (GEN-20), NONE when it is not: set when
        # its `equip` operation resolves, back to NONE when it leaves the field or is destroyed
        self.equip = [I(f"c{i}_equip") for i in range(ncards)]
        # the counters on it (effects.counters_on reads them only while it is face-up on the field)
        self.counters = [I(f"c{i}_counters") for i in range(ncards)]
        self.bdc = [I("bdc_A"), I("bdc_B")]  # an operation's change to the battle damage each player takes in this battle
        # all the damage / the effect damage each player takes is halved for the rest of the turn
        # (an operation's: "Damage Diet")
        self.halved = [B("halved_A"), B("halved_B")]
        self.eff_halved = [B("eff_halved_A"), B("eff_halved_B")]
        self.trig = [B(f"e{e}_trig") for e in range(neffects)]        # trigger pending in this window
        self.used = [B(f"e{e}_used") for e in range(neffects)]        # activated this turn (a once-per-turn limit)

    def fields(self):
        """(name, variable) for every variable, in a stable order."""
        out = []
        for name, value in vars(self).items():
            if name == "prefix":
                continue
            if isinstance(value, list):
                out.extend((f"{name}[{k}]", v) for k, v in enumerate(value))
            else:
                out.append((name, value))
        return out


@lru_cache(maxsize=64)
def layout(ncards: int, neffects: int) -> tuple:
    """(name, is Boolean) of every state variable, in `State.fields()` order."""
    return tuple((name, var.sort() == z3.BoolSort()) for name, var in State("pre_", ncards, neffects).fields())


ACTION_FIELDS = ("kind", "player", "eff", "card", "target", "target2", "direct", "window", "link", "named",
                 "other", "claim", "value", "choice", "choice2")   # `Action.fields()` order


def action(**values) -> dict:
    """A concrete action by field name: `values`, every other field unused (NONE / 0 / False)."""
    d = dict(kind=0, player=NONE, eff=0, card=NONE, target=NONE, target2=NONE, direct=False, window=NONE,
             link=0, named=NONE, other=NONE, claim=0, value=0, choice=NONE, choice2=NONE)
    d.update(values)
    return d


class Action:
    """What one step does. Unused fields are NONE / 0."""

    def __init__(self, prefix: str = "act_"):
        I, B = (lambda n: z3.Int(prefix + n)), (lambda n: z3.Bool(prefix + n))
        self.kind = I("kind")
        self.player = I("player")
        self.eff = I("eff")          # effect activated
        self.card = I("card")        # attacker / replaced card / claimed card
        self.target = I("target")    # chosen target card, NONE if none
        self.target2 = I("target2")  # `activate`: the second target of an effect that targets two, NONE if none
        self.direct = B("direct")    # attack / retarget: a direct attack
        self.window = I("window")    # `next`: the window the play says comes next (NONE: not said)
        self.link = I("link")        # `activate`: the Chain Link number the play says (0: not said)
        self.named = I("named")      # `resolve_link`: the effect the play says resolves (NONE: not said)
        self.other = I("other")      # `replace`: the card destroyed instead
        self.claim = I("claim")      # `claim`: what is claimed
        self.value = I("value")      # `claim`: the value claimed
        # `resolve_link`: the cards the resolving link's effect chooses as it resolves, without
        # targeting (its `choose`, GEN-22), NONE if none. The choice is made in the step that
        # resolves the link, so it is the action's, never kept in the state
        self.choice = I("choice")
        self.choice2 = I("choice2")

    def fields(self):
        return [(n, v) for n, v in vars(self).items()]


class Statics:
    """Uninterpreted functions for facts fixed during a play."""

    def __init__(self):
        Int, Bool = z3.IntSort(), z3.BoolSort()
        made = set()

        def f(name, *sorts):
            # z3 takes two declarations of one name for one function: a select field named like
            # another fact ("continuous" + "attribute") would silently share its values
            if name in made:
                raise ValueError(f"two facts named {name!r}")
            made.add(name)
            return z3.Function(name, *sorts)
        self.turn = z3.Int("turn")
        self.tp = z3.Int("turn_player")
        # per card
        self.ctrl = f("controller", Int, Int)
        self.ckind = f("card_kind", Int, Int)
        self.level = f("level", Int, Int)
        self.orig_atk = f("original_atk", Int, Int)
        self.must_attack = f("must_attack", Int, Bool)
        self.calc_amount = f("calc_modifier_amount", Int, Int)
        self.calc_to_attacker = f("calc_modifier_to_attacker", Int, Bool)
        self.calc_when = f("calc_modifier_when", Int, Int)
        self.calc_archetype = f("calc_modifier_archetype", Int, Int)   # the attacker's, 0: any
        self.bd_mod = f("battle_damage_modifier", Int, Int)
        self.archetype = f("archetype", Int, Int)
        self.name_id = f("name_id", Int, Int)       # the play numbers its cards' names from 1
        self.extra_attacks = f("extra_attacks", Int, Int)
        self.tyrant_wing = f("attack_restriction_tyrant_wing", Int, Bool)
        # its Summoning condition "Cannot be Special Summoned" (vocab.SUMMONING_CONDITIONS)
        self.no_special_summon = f("cannot_be_special_summoned", Int, Bool)
        # per effect
        self.inst = f("effect_card", Int, Int)
        self.ekind = f("effect_kind", Int, Int)
        self.from_hand = f("from_hand", Int, Bool)
        self.from_gy = f("from_graveyard", Int, Bool)
        self.mandatory = f("mandatory", Int, Bool)
        self.atkdef = f("atk_def", Int, Int)
        self.negates = f("negates", Int, Int)
        self.tclass = f("trigger_class", Int, Int)
        self.fusion = f("fusion_summon", Int, Bool)
        self.names = {t: f(f"names_{t}", Int, Bool) for t in vocab.TIMINGS}
        self.cond = f("condition", Int, Int)
        self.ruling = f("ruling_allowed", Int, Bool)
        self.no_ds = f("no_damage_step", Int, Bool)
        self.speed = f("spell_speed", Int, Int)
        self.once_group = f("once_group", Int, Int)   # effects sharing a once-per-turn limit share it; 0: none
        self.once_battle = f("once_per_battle", Int, Bool)   # its limit ends with the battle (GEN-3)
        # the effect model (model/rules/effects.py): per card
        self.attribute = f("attribute", Int, Int)
        self.monster_type = f("monster_type", Int, Int)
        self.orig_def = f("original_def", Int, Int)
        # per effect, and per slot (effect * slots + k)
        self.alternatives = f("condition_alternatives", Int, Int)
        self.watched = f("watched_effect", Int, Int)   # per watched slot: the effect whose atoms it builds
        self.targets = f("targets", Int, Bool)
        self.implied = f("target_implied", Int, Int)   # vocab.OPERATION_ON index, -1: the play chooses
        self.second_target = f("second_target", Int, Int)   # vocab.SECOND_TARGET index
        self.atoms = {prefix: {name: f(f"{prefix}_{name}", Int, Int) for name in ATOM_FIELDS}
                      for prefix in ("cond", "filter", "filter2", "costf", "choicef")}   # filter2: the second target's;
        # costf: the card paid's; choicef: a card chosen as it resolves (`choose`)
        # `choose`: how many cards it chooses as it resolves (0: it chooses none), the fewest while
        # enough fit ("you can": 0), where (a bit per vocab.CHOOSE_FROM place) and whose (CHOOSE_SIDES),
        # and whether the text needs that many to be activated at all (`needed`)
        self.choose_count = f("choose_count", Int, Int)
        self.choose_min = f("choose_min", Int, Int)
        self.choose_from = f("choose_from", Int, Int)
        self.choose_side = f("choose_side", Int, Int)
        self.choose_needed = f("choose_needed", Int, Bool)   # activated only while `min` cards fit
        self.cost = f("cost", Int, Int)
        self.cost_amount = f("cost_amount", Int, Int)
        self.op = f("operation", Int, Int)
        self.op_on = f("operation_on", Int, Int)
        self.op_amount = f("operation_amount", Int, Int)
        self.op_amount_of = f("operation_amount_of", Int, Int)
        self.op_to = f("operation_to", Int, Int)
        self.op_then = f("operation_then", Int, Bool)
        self.op_otherwise = f("operation_otherwise", Int, Bool)   # "or if you cannot": only if the one before did not
        self.op_both = f("operation_both", Int, Bool)   # "banish both": with the one before, both or neither
        # per card continuous slot (card * MAX_CONTINUOUS + k)
        self.cont = f("continuous", Int, Int)
        self.cont_on = f("continuous_on", Int, Int)
        self.cont_amount = f("continuous_amount", Int, Int)
        self.cont_watch = f("continuous_watch", Int, Int)   # 1 + its watched slot; 0: no condition
        self.cont_position = f("continuous_position", Int, Int)   # position_lock: vocab.POSITIONS index
        self.cont_fixed = f("continuous_fixed", Int, Int)         # position_lock: 1 "cannot be changed"
        self.cont_per = f("continuous_per", Int, Int)   # vocab.CONTINUOUS_PER: the amount per counter or per card
        self.cont_to = f("continuous_to", Int, Int)     # a redirect's destination: a vocab.LOCATIONS index
        self.cont_attribute = f("continuous_added_attribute", Int, Int)   # add_attribute: a vocab.ATTRIBUTES index
        # which monsters an operation's or a continuous effect's `select` picks, per slot
        self.select = {prefix: {name: f(f"{prefix}_{name}", Int, Int) for name in SELECT_FIELDS}
                       for prefix in ("operation", "continuous", "cond", "count", "cont_count")}
        # cond: per condition atom slot; count: per operation slot, the cards an amount of `count`
        # counts; cont_count: per continuous slot, the cards a modifier's amount is for each of


ATOM_FIELDS = ("quantity", "of", "cmp", "value", "than_quantity", "than_of")
SELECT_FIELDS = ("side", "filter", "attribute", "monster_type", "level_min", "level_max", "other", "archetype",
                 "cards", "special_summoned", "name", "not_attribute", "summoned_this_turn", "card_kind",
                 "card_type")

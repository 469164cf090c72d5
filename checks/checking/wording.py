"""The words of an explanation, for a judge: the one-sentence reason, the facts about the state
with human names ("destroyed by battle", "Chain length", "location"), and what a card's text does
(the catalogue's fields said as card text, not as field values). Mechanism is elsewhere
(explain.py finds the broken rules and the facts; facts.py encodes them)."""
from __future__ import annotations

import operator
import re

from ygo_timing.cards.effect_format import DECK_OPS, GAME_OPS
from ygo_timing.cards.effect_selectors import Select
from ygo_timing.model import rulebook, vocab
from ygo_timing.model.state import ATOM_FIELDS, NONE, SELECT_FIELDS, A

TIMING_WORDS = {
    "start_step": "at the start of the Battle Phase", "attack_declared": "when an attack is declared",
    "ds_start": "at the start of the Damage Step", "before_calc": "before damage calculation",
    "during_calc": "during damage calculation", "after_calc": "after damage calculation",
    "ds_end": "at the end of the Damage Step", "end_step": "at the end of the Battle Phase",
}

# what a card's text asks for before its effect can be activated (vocab.CONDITIONS)
CONDITION_WORDS = {
    "none": "its effect has no activation condition of its own",
    "battling": "its effect needs this card to be battling",
    "own_monster_battling": "its effect needs one of its controller's monsters to be battling",
    "opponent_attacks": "its effect needs an opponent's monster to attack",
    "attacked": "its effect needs this card to be attacked",
    "attacked_face_down": "its effect needs this card to be attacked while face-down",
    "flipped_by_attack": "its effect needs this card to be flipped face-up by an attack",
    "destroyed_by_battle": "its effect needs this card to be destroyed by battle",
    "destroys_by_battle": "its effect needs this card to destroy a monster by battle (and still be on the field)",
    "monster_destroyed_by_battle": "its effect needs a monster to be destroyed by battle",
    "battle_damage_dealt": "its effect needs this card to inflict battle damage",
    "battle_damage_dealt_direct": "its effect needs a monster of its controller to inflict battle damage by a direct attack",
    "battle_damage_taken": "its effect needs its controller to take battle damage",
    "attacks_face_up_defense": "its effect needs this card to attack a face-up Defense Position monster",
    "attacks_face_up_level_3_or_lower": "its effect needs this card to attack a face-up Level 3 or lower monster",
    "attacks_face_up": "its effect needs this card to attack a face-up monster",
    "attacks_face_down": "its effect needs this card to attack a face-down monster",
    "opponent_monster_count_changed": "its effect needs the number of the opponent's monsters to change",
    "controls_same_archetype": "its effect needs its controller to control another monster of its archetype",
    "battled": "its effect needs this card to have battled this turn",
    "summoned": "its effect needs this card to be Special Summoned",
    "destroyed": "its effect needs this card to be destroyed",
    "destroyed_face_up": "its effect needs this face-up card to be destroyed",
    "left_field": "its effect needs this face-up card to leave the field",
    "opponent_monster_to_graveyard": "its effect needs a monster to be sent to the opponent's Graveyard",
}
EFFECT_KIND_WORDS = {
    "activation": "its effect is activating the card itself", "ignition": "an Ignition Effect", "trigger": "a Trigger Effect",
    "quick": "a Quick Effect", "flip": "a Flip Effect", "continuous": "a Continuous Effect (never activated)",
}
ATK_DEF_WORDS = {"none": "does not change ATK/DEF", "direct": "changes ATK/DEF directly",
                 "indirect": "changes ATK/DEF indirectly", "maybe": "may or may not change ATK/DEF"}
NEGATES_WORDS = {"spell": "a Spell Card (not an effect of a face-up one)", "trap": "a Trap Card (not an effect of a face-up one)",
                 "monster_effect": "a monster effect", "spell_trap": "a Spell or Trap Card (not an effect of a face-up one)",
                 "any": "any card or effect"}
NEGATES_WORDS.update({"opponent_" + k: f"{w}, by its controller's opponent" for k, w in NEGATES_WORDS.items()})
TRIGGER_CLASS_WORDS = {
    "none": "it is not a trigger for moving, being flipped or changing position",
    "location": "it triggers when the card moves to another place (e.g. is Summoned)",
    "flipped": "it triggers when the card is flipped face-up",
    "position": "it triggers when the card changes its battle position",
    "other": "it triggers on another event (not moving, being flipped or changing position)",
}
AMOUNT_WORDS = {"atk": "its ATK", "original_atk": "its original ATK", "half_original_atk": "half its original ATK",
                "self_atk": "this card's ATK", "atk_difference": "the difference between its ATK and original ATK",
                "opponent_battle_damage": "the battle damage its controller's opponent took in this battle",
                "battle_difference": "how much higher the ATK of the monster it battles is"}
OPERATION_WORDS = {
    "atk_add": "changes ATK by {amount}", "atk_set": "makes ATK {amount}", "atk_halve": "halves ATK",
    "atk_double": "doubles ATK", "atk_gain_opponent": "adds the ATK of the monster it battles",
    "atk_halve_original": "makes ATK half the original ATK", "atk_double_original": "makes ATK double the original ATK", "def_add": "changes DEF by {amount}",
    "def_set": "makes DEF {amount}", "def_halve": "halves DEF", "def_double": "doubles DEF",
    "destroy": "destroys", "banish": "banishes", "to_hand": "returns to the hand", "to_deck": "returns to the Deck",
    "to_graveyard": "sends to the Graveyard", "special_summon": "Special Summons",
    "change_position": "changes the battle position of", "set_face_down": "changes to face-down Defense Position",
    "negate": "negates the activation it responds to", "negate_destroy": "negates the activation it responds to and destroys that card",
    "negate_attack": "negates the attack", "end_battle_phase": "ends the Battle Phase",
    "skip_damage_calc": "skips damage calculation", "cannot_attack": "makes unable to attack",
    "cannot_declare_attack": "makes unable to declare an attack", "damage": "inflicts damage",
    "gain_lp": "gives LP", "no_battle_damage": "makes its controller take no battle damage from this battle",
    "halve_battle_damage": "halves the battle damage its controller takes in this battle",
    "double_battle_damage": "doubles the battle damage its controller takes in this battle",
    "reflect_battle_damage": "makes the opponent take the battle damage its controller would take in this battle",
    "indestructible_by_battle": "makes unable to be destroyed by battle this turn",
    "indestructible_by_effect": "makes unable to be destroyed by card effects this turn",
    "attack_again": "lets attack once more this turn", "equip": "equips this card to",
    "draw": "makes its controller draw {amount}", "mill": "sends the top {amount} of its controller's Deck to the Graveyard",
    "draw_until": "makes its controller draw until their hand has {amount} cards",
    "add_counter": "places {amount} counter(s) on", "remove_counter": "removes {amount} counter(s) from",
    "halve_damage": "halves all the damage its controller takes for the rest of this turn",
    "halve_effect_damage": "halves the effect damage its controller takes for the rest of this turn",
    "destroy_after_calc": "destroys (after damage calculation in this battle, unless it cannot be destroyed by card effects)",
    "banish_until_bp_end": "banishes until the end of the Battle Phase (it returns to the field as the End Step begins)",
    "atk_add_at_calc": "gives {amount} ATK during damage calculation only",
    "def_add_at_calc": "gives {amount} DEF during damage calculation only",
    "atk_double_original_at_calc": "makes ATK double the original ATK during damage calculation only",
}
ON_WORDS = {"self": "this card", "chosen": "the card it targets", "attacker": "the attacking monster",
            "attack_target": "the attack target", "own_battling": "its controller's battling monster",
            "opponent_battling": "the opponent's battling monster", "all": "every monster it selects",
            "choice": "the card(s) it chooses as it resolves"}
COST_WORDS = {"pay_lp": "pay {amount} LP", "pay_half_lp": "pay half its controller's LP",
              "discard": "discard a card", "tribute": "Tribute a monster", "send_self": "send this card to the Graveyard",
              "banish_self": "banish this card", "discard_self": "discard this card", "tribute_self": "Tribute this card",
              "to_deck_self": "shuffle this card into the Deck (the Extra Deck, for a Fusion, Synchro, Xyz or Link Monster)",
              "pay_lp_battle_difference": "pay LP equal to how much higher the ATK of the opponent's battling monster is"}
CONTINUOUS_WORDS = {
    "atk_modifier": "gives {amount} ATK", "def_modifier": "gives {amount} DEF",
    "indestructible_by_battle": "keeps from being destroyed by battle",
    "indestructible_by_effect": "keeps from being destroyed by card effects",
    "no_battle_damage": "makes its controller take no battle damage", "lock_traps": "keeps Trap Cards from being activated",
    "lock_spells": "keeps Spell Cards from being activated",
    "lock_spells_traps": "keeps Spell and Trap Cards from being activated",
    "lock_special_summon": "keeps monsters from being Special Summoned (and effects that must Special Summon from being activated)",
    "lock_graveyard_banish": "keeps cards in the Graveyards from being banished",
    "negate_monster_effects": "negates the effects of face-up monsters on the field",
    "negate_trap_effects": "negates all Trap effects on the field",
    "negate_opponent_monster_effects": "negates the effects of face-up monsters its controller's opponent controls",
    "negate_battle_opponent": "negates the effects of the monster battling the equipped monster",
    "cannot_attack": "keeps from attacking", "direct_attack": "lets attack directly",
    "piercing": "gives piercing battle damage",
    "cannot_be_attacked": "keeps from being chosen as an attack target",
    "attacks_face_down_only": "lets attack only face-down Defense Position monsters",
    "position_lock": "changes to {position} Position{fixed}",
    "self_destruct": "is destroyed as soon as its condition holds (in the Damage Step: after damage calculation)",
    "remove_counter_instead": "loses {amount} counter(s) instead of being destroyed by battle, while it has them",
    "counter_after_battle": "gets {amount} counter(s) at the end of each Damage Step whose battle meets its condition",
    "atk_halve": "halves the ATK (after every change that adds)", "def_halve": "halves the DEF (after every change that adds)",
    "graveyard_redirect": "has every card that would be sent to the Graveyard {to} instead",
    "battle_destroyed_redirect": "has monsters destroyed by battle {to} instead of sent to the Graveyard",
    "leave_field_redirect": "is {to} instead if it would leave the field",
    "destroy_replace": "may have another monster destroyed instead if it would be destroyed by battle",
    "add_attribute": "is also {attribute}",
}
# where a redirect sends a card, in CONTINUOUS_WORDS' {to}
REDIRECT_WORDS = {"banished": "banished", "deck": "shuffled into the Deck"}

# a state variable's name in words (model/state.py); per-card ones follow the card's label
STATE_WORDS = {
    "window": "window", "prio": "priority", "passes": "passes in succession", "chain_len": "Chain length",
    "chains": "Chains started in this window", "resolving": "the Chain is resolving",
    "attacker": "attacker", "target": "attack target", "attacking": "an attack is going on",
    "count_changed": "the target's side changed during the Chain", "replay": "a replay is due",
    "ending": "the Battle Phase is ending", "calc": "damage calculation",
    "target_was_face_down": "the target was face-down when attacked", "bd": "battle damage to", "lp": "LP of",
    "loc": "location", "faceup": "face-up", "defpos": "in Defense Position", "atk": "ATK", "def_": "DEF",
    "dbb": "destroyed by battle", "destroyer": "destroyed a monster by battle this turn",
    "lost": "destroyed by battle this turn", "battled": "battled this turn",
    "attacks": "attacks counted against its limit this turn (BP-5)", "hit_direct": "attacked directly this turn",
    "hit_monster": "attacked a monster this turn", "flipped": "flipped face-up by the attack",
    "no_attack": "cannot attack", "trig": "trigger pending", "used": "activated this turn",
    "ssum": "Special Summoned", "sumt": "Summoned this turn", "equip": "equipped to", "counters": "counters on it",
    "doomed": "to be destroyed after damage calculation", "returns": "to return to the field as the End Step begins",
    "recorded": "recorded as an attacker by the halving of", "calc_atk": "ATK gained during damage calculation only",
    "calc_def": "DEF gained during damage calculation only",
    "bdc": "battle damage changed in this battle for",
    "halved": "all damage halved this turn for", "eff_halved": "effect damage halved this turn for",
}
LINK_WORDS = {"eff": "effect", "target": "target", "target2": "second target", "tloc": "where its target was",
              "tloc2": "where its second target was"}
KIND_NAMES = {v: k for k, v in A.items()}


def card_facts(n, spec, card, cm, archetype_ids, name_id):
    """(Statics function, value, words) for one card: what it is and what its text says
    (`archetype_ids`: the play's archetypes, archetype -> id; 0 for none)."""
    yes = "(card text)"
    attacker_archetype = cm.get("attacker_archetype")
    archetype_id = archetype_ids.get(card.archetype, 0)
    return (
        ("controller", vocab.PLAYERS.index(spec.player), f"{n}: controlled by {spec.player} (line {spec.line})"),
        ("card_kind", vocab.K[card.kind], f"{n}: {card.subtype.replace('_', '-')} {card.type} card {yes}"),
        ("level", card.level or 0, f"{n}: Level {card.level} {yes}"),
        ("original_atk", card.atk or 0, f"{n}: original ATK {card.atk} {yes}"),
        ("must_attack", card.must_attack, f"{n}: {'must attack when it can' if card.must_attack else 'is not forced to attack'} {yes}"),
        ("calc_modifier_amount", cm.get("amount", 0), f"{n}: at damage calculation it adds {cm.get('amount', 0)} ATK {yes}"),
        ("calc_modifier_to_attacker", cm.get("applies_to", "attacker") == "attacker", f"{n}: that bonus goes to the {cm.get('applies_to', 'attacker')} {yes}"),
        ("calc_modifier_when", vocab.CALC_MODIFIER_WHEN.index(cm.get("when", "always")),
         f"{n}: that bonus applies " + ("always" if cm.get("when", "always") == "always" else "when the attacker's ATK is lower") + f" {yes}"),
        ("calc_modifier_archetype", archetype_ids.get(attacker_archetype, 0),
         f"{n}: that bonus applies " + (f"only when a \"{attacker_archetype}\" monster attacks" if attacker_archetype
                                        else "whichever monster attacks") + f" {yes}"),
        ("battle_damage_modifier", vocab.BATTLE_DAMAGE_MODIFIERS.index(card.battle_damage_modifier),
         f"{n}: " + ("does not change battle damage" if card.battle_damage_modifier == "none" else
                     f"changes battle damage ({card.battle_damage_modifier.replace('_', ' ')})") + f" {yes}"),
        ("archetype", archetype_id, f"{n}: " + (f"a \"{card.archetype}\" card" if card.archetype else "of no archetype") + f" {yes}"),
        ("name_id", name_id, f"{n}: named \"{card.name}\" {yes}"),
        ("attribute", vocab.ATTRIBUTES.index((card.attribute or "none").lower()), f"{n}: Attribute {card.attribute or 'none'} {yes}"),
        ("monster_type", vocab.MONSTER_TYPES.index(card.monster_type or "none"), f"{n}: Type {card.monster_type or 'none'} {yes}"),
        ("original_def", card.def_ or 0, f"{n}: original DEF {card.def_} {yes}"),
        ("extra_attacks", card.extra_attacks, f"{n}: " + (f"can make {card.extra_attacks} more attack(s) each turn"
                                                          if card.extra_attacks else "gives no extra attack")
         + (" (the monster it is equipped to)" if card.type != "monster" else "") + f" {yes}"),
        ("attack_restriction_tyrant_wing", card.attack_restriction == "tyrant_wing",
         f"{n}: " + ("\"Tyrant Wing\" restriction" if card.attack_restriction == "tyrant_wing" else "no attack restriction")
         + (" (the monster it is equipped to)" if card.type != "monster" else "") + f" {yes}"),
        ("cannot_be_special_summoned", card.summoning_condition == "cannot_be_special_summoned",
         f"{n}: " + ("cannot be Special Summoned (its Summoning condition, wherever it is)"
                     if card.summoning_condition == "cannot_be_special_summoned" else "no Summoning condition against "
                     "a Special Summon") + f" {yes}"),
    )


def once_fact(label, k, once) -> str:
    """The words of a once-per-turn limit (a fact's text)."""
    if once == "none":
        return f"{label} effect {k}: its text sets no once-per-turn limit (card text)"
    if once == "per_battle":
        return f"{label} effect {k}: this card's effect can be activated once per battle (card text)"
    if once == "per_turn_by_card_name":
        return (f"{label}: its controller can activate 1 card of this name per turn, whichever of its "
                f"effects (card text)")
    whose = "this card's" if once == "per_turn" else "its controller's cards of this name's"
    when = "per Duel" if once == "per_duel" else "per turn"
    return f"{label} effect {k}: {whose} effect can be activated once {when} (card text)"


def mandatory_words(eff):
    """A mandatory effect is owed; one that targets only while something fits what it targets
    (model/rules/activation.places_trigger)."""
    if not eff.mandatory:
        return "optional"
    if eff.target_filter is not None:
        return "mandatory (it must be activated while a card fits what it targets)"
    return "mandatory (it must be activated)"


def effect_facts(n, eff):
    """(Statics function, value, words) for one effect: what its card's text does."""
    yes = "(card text)"
    from_ = eff.from_
    negates = "negates no activation" if eff.negates == "none" else f"negates the activation of {NEGATES_WORDS[eff.negates]}"
    return (
        ("effect_kind", vocab.EK[eff.kind], f"{n}: {EFFECT_KIND_WORDS[eff.kind]} {yes}"),
        ("from_hand", from_ == "hand", f"{n}: " + ("activated from the hand" if from_ == "hand" else f"activated from the {from_.replace('_', ' ')}, not the hand") + f" {yes}"),
        ("from_graveyard", from_ == "graveyard", f"{n}: " + ("activated from the Graveyard" if from_ == "graveyard" else f"activated from the {from_.replace('_', ' ')}, not the Graveyard") + f" {yes}"),
        ("mandatory", eff.mandatory, f"{n}: {mandatory_words(eff)} {yes}"),
        ("atk_def", vocab.AD[eff.atk_def], f"{n}: {ATK_DEF_WORDS[eff.atk_def]} {yes}"),
        ("negates", vocab.NG[eff.negates], f"{n}: {negates} {yes}"),
        ("trigger_class", vocab.TC[eff.trigger_class], f"{n}: {TRIGGER_CLASS_WORDS[eff.trigger_class]} {yes}"),
        ("fusion_summon", eff.fusion_summon, f"{n}: {'is' if eff.fusion_summon else 'is not'} a Fusion Summon effect {yes}"),
        ("condition", vocab.CO[eff.condition], f"{n}: {CONDITION_WORDS[eff.condition]} {yes}"),
        ("ruling_allowed", eff.ruling_allowed,
         f"{n}: " + ("a ruling allows it in the Damage Step (DS-1(g))" if eff.ruling_allowed else
                     "no ruling names it among the cards allowed in the Damage Step (DS-1(g), DS-T1's named cards)") + " (catalogue)"),
        ("no_damage_step", eff.no_damage_step, f"{n}: {'says it cannot' if eff.no_damage_step else 'does not say it cannot'} be activated during the Damage Step {yes}"),
    )


WHO = {"self": "this card", "attacker": "the attacker", "attack_target": "the attack target", "target": "the target",
       "battle_opponent": "the monster it battles", "own_battling": "its controller's battling monster",
       "opponent_battling": "the opponent's battling monster", "equipped": "the equipped monster",
       "you": "its controller", "opponent": "the opponent",
       None: "the game"}
TRUTH_WORDS = {"face_up": "face-up", "defense_position": "in Defense Position", "yours": "controlled by its controller",
               "battling": "battling", "attacking": "attacking", "attacked": "attacked",
               "special_summoned": "Special Summoned", "summoned_this_turn": "Summoned this turn",
               "flip_summoned_this_turn": "Flip Summoned this turn",
               "destroyed_by_battle": "destroyed by battle in this battle",
               "turn": "the turn player",
               "direct_attack": "a direct attack", "damage_step": "the Damage Step",
               "damage_calculation": "damage calculation"}
NAMED_VALUES = {"location": vocab.LOCATIONS, "attribute": vocab.ATTRIBUTES, "monster_type": vocab.MONSTER_TYPES,
                "card_type": vocab.CARD_TYPES, "card_kind": vocab.CARD_KINDS}


# quantities whose name does not read as "<who>'s <name>"
PHRASES = {"battle_damage_pending": "the battle damage {who} would take from this battle's damage calculation"}


def quantity_words(q, who) -> str:
    """Quantity `q` of `who`: "the attacker's ATK"."""
    if q in PHRASES:
        return PHRASES[q].format(who=who)
    return f"{who}'s {q.replace('_', ' ').replace('atk', 'ATK').replace('def', 'DEF')}"


def atom_words(a, subject=None) -> str:
    """An atom as a judge reads it: "the attacker's ATK >= 2000", "the target is face-up";
    `subject`: who it is about, said otherwise ("the card paid", for a cost's filter)."""
    who = subject or WHO[a.of]
    if a.quantity == "selected":
        return f"the number of {select_words(a.select)} on the field {a.cmp} {a.value}"
    if a.quantity in TRUTH_WORDS:
        yes = (a.cmp == "==") == bool(a.value)
        if a.quantity == "direct_attack":
            return f"the attack {'is' if yes else 'is not'} a direct attack"
        if a.quantity == "damage_step":
            return f"it {'is' if yes else 'is not'} the Damage Step"
        if a.quantity == "damage_calculation":
            return f"it {'is' if yes else 'is not'} damage calculation"
        return f"{who} {'is' if yes else 'is not'} {TRUTH_WORDS[a.quantity]}"
    if a.quantity == "name" and a.than is None:   # the loader allows == and != for a name
        return f"{who} {'is' if a.cmp == '==' else 'is not'} \"{a.value}\""
    lhs = quantity_words(a.quantity, who)
    if a.quantity == "counters":   # "the number of counters on this card >= 1"
        lhs = f"the number of counters on {who}"
    rhs = NAMED_VALUES[a.quantity][a.value].replace("_", " ") if a.quantity in NAMED_VALUES else a.value
    if a.quantity == "card_kind":   # "monster:synchro" -> "synchro monster", as card_facts says it
        rhs = " ".join(reversed(rhs.split(":")))
    if a.than is not None:
        q2, of2 = a.than
        rhs = quantity_words(q2, WHO[of2]) + \
            (f" {'+' if a.value >= 0 else '-'} {abs(a.value)}" if a.value else "")
    return f"{lhs} {a.cmp} {rhs}"


LOCATION_WORDS = {"hand": "the hand", "monster_zone": "the Monster Zone", "spell_trap_zone": "the Spell & Trap Zone",
                  "field_zone": "the Field Zone", "graveyard": "the Graveyard", "banished": "banished",
                  "deck": "the Deck", "extra_deck": "the Extra Deck"}
ORDERED = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


def atoms_words(atoms, subject=None) -> str:
    """Atoms that must all hold, as a judge reads them; the `location` atoms about one subject that
    compare by order (a range of zones) said as the zones they leave: "the target is in the Spell &
    Trap Zone or the Field Zone" for `>= spell_trap_zone` and `<= field_zone`."""
    ranges: dict = {}
    for a in atoms:
        if a.quantity == "location" and a.than is None and a.cmp in ORDERED:
            ranges.setdefault(a.of, []).append(a)
    out, said = [], set()
    for a in atoms:
        if a.of not in ranges or a not in ranges[a.of]:
            out.append(atom_words(a, subject))
        elif a.of not in said:
            said.add(a.of)
            zones = [LOCATION_WORDS[z] for i, z in enumerate(vocab.LOCATIONS)
                     if z in LOCATION_WORDS and all(ORDERED[r.cmp](i, r.value) for r in ranges[a.of])]
            where = " or ".join(zones) if len(zones) <= 2 else ", ".join(zones[:-1]) + " or " + zones[-1]
            out.append(f"{subject or WHO[a.of]} is in {where}".replace("is in banished", "is banished"))
    return " and ".join(out)


def slot_facts(n, eff, archetype_id, name_id):
    """(Statics function, slot, value, words) for one effect's composition (its condition's atoms,
    target filter, costs and operations): `slot` is the slot within the effect (None: the
    function is per effect); facts.py numbers them across effects (SLOT_WIDTH)."""
    yes = "(card text)"
    # one sentence per condition (and per filter): an explanation shows it once, whichever slots it needs
    condition = f"{n}: its condition: " + (" or ".join(atoms_words(alt) for alt in eff.atoms)
                                                   if eff.atoms else "nothing beyond its event") + f" {yes}"
    filter_words = f"{n}: what it targets must meet: " + (atoms_words(eff.target_filter)
                                                          if eff.target_filter else "anything") + f" {yes}"
    second = "none" if eff.second_filter is None else ("optional" if eff.second_optional else "required")
    second_words = f"{n}: " + {"none": "it targets one card at most",
                               "required": "it targets a second, different card",
                               "optional": "it may target a second, different card"}[second] + \
        (f", which must meet: {atoms_words(eff.second_filter)}" if eff.second_filter else "") + f" {yes}"
    paid_with = next((c for c in eff.costs if c.filter), None)   # one card paid per effect at most
    cost_words = f"{n}: the card paid for its cost must meet: {atoms_words(paid_with.filter, 'the card paid')} {yes}" \
        if paid_with else ""
    choose_words = f"{n}: {choice_words(eff.choose)} {yes}" if eff.choose is not None else ""
    out = [("condition_alternatives", None, len(eff.atoms), condition),
           ("targets", None, eff.target_filter is not None,
            f"{n}: {'it targets' if eff.target_filter is not None else 'it targets nothing'} {yes}"),
           ("second_target", None, vocab.SECOND_TARGET.index(second), second_words),
           ("target_implied", None, vocab.OPERATION_ON.index(eff.implied_target) if eff.implied_target else -1,
            f"{n}: " + (f"it targets {ON_WORDS[eff.implied_target]} (its text leaves no choice)" if eff.implied_target
                        else "the play chooses what it targets") + f" {yes}")]

    def atoms(prefix, k0, items, width):
        for k in range(width):
            a = items[k] if k < len(items) else None
            if a is None:
                out.append((f"{prefix}_quantity", k0 + k, 0, ""))
                continue
            words = {"cond": condition, "filter": filter_words, "filter2": second_words, "costf": cost_words,
                     "choicef": choose_words}[prefix]
            # a name is an id of the play's (facts.Universe), as an archetype is
            value = ((name_id if a.quantity == "name" else archetype_id).get(a.value, -1)
                     if isinstance(a.value, str) else a.value)
            out.extend([(f"{prefix}_quantity", k0 + k, vocab.Q[a.quantity], words),
                        (f"{prefix}_of", k0 + k, vocab.SJ[a.of] if a.of else 0, words),
                        (f"{prefix}_cmp", k0 + k, vocab.CMP[a.cmp], words),
                        (f"{prefix}_value", k0 + k, value, words),
                        (f"{prefix}_than_quantity", k0 + k, vocab.Q[a.than[0]] if a.than else 0, words),
                        (f"{prefix}_than_of", k0 + k, vocab.SJ[a.than[1]] if a.than else 0, words)])
            if prefix == "cond":   # the monsters a `selected` atom counts (a default selector otherwise)
                out.extend((fn, slot, value, words if a.select else "") for fn, slot, value, _ in
                           select_facts("cond", k0 + k, a.select or Select(), words, archetype_id, name_id))
    width = vocab.CONDITION_ATOMS
    for alt_k, alt in enumerate(eff.atoms):
        atoms("cond", alt_k * width, alt, width)
    atoms("filter", 0, eff.target_filter or (), vocab.TARGET_FILTER_ATOMS)
    atoms("filter2", 0, eff.second_filter or (), vocab.TARGET_FILTER_ATOMS)
    for k in range(vocab.MAX_COSTS):
        c = eff.costs[k] if k < len(eff.costs) else None
        what = COST_WORDS[c.do].format(amount=c.amount) if c else ""
        if c and c.filter:
            what += f" (the card paid must meet: {atoms_words(c.filter, 'the card paid')})"
        words = f"{n}: its cost {k + 1} is to {what} {yes}" if c else (f"{n}: it has no cost {yes}" if k == 0 else "")
        out.append(("cost", k, vocab.CT[c.do] if c else 0, words))
        if c and c.do == "pay_lp":
            out.append(("cost_amount", k, c.amount, words))
    atoms("costf", 0, paid_with.filter if paid_with else (), vocab.TARGET_FILTER_ATOMS)
    ch = eff.choose
    out += [("choose_count", None, ch.count if ch else 0, choose_words or f"{n}: it chooses no card as it resolves {yes}"),
            ("choose_min", None, ch.min if ch else 0, choose_words),
            ("choose_from", None, sum(1 << vocab.CHOOSE_FROM.index(p) for p in ch.places) if ch else 0, choose_words),
            ("choose_side", None, vocab.CHOOSE_SIDES.index(ch.side) if ch else 0, choose_words),
            ("choose_needed", None, bool(ch and ch.needed), choose_words)]
    atoms("choicef", 0, ch.filter if ch else (), vocab.TARGET_FILTER_ATOMS)
    for k in range(vocab.MAX_OPERATIONS):
        o = eff.operations[k] if k < len(eff.operations) else None
        if o is None:
            out.append(("operation", k, 0, f"{n}: its effect changes nothing timing depends on {yes}" if k == 0 else ""))
            continue
        amount = f"{o.amount} for each of {select_words(o.count)}" if o.amount_of == "count" else \
            f"{AMOUNT_WORDS[o.amount_of]} + {o.amount}" if o.amount_of == "battle_difference" and o.amount else \
            AMOUNT_WORDS.get(o.amount_of, o.amount)
        what = OPERATION_WORDS[o.do].format(amount=amount)
        if o.do == "double_battle_damage" and o.to == "opponent":
            what = what.replace("its controller takes", "its controller's opponent takes")
        if o.do in DECK_OPS and o.to == "opponent":
            what = what.replace("its controller", "its controller's opponent")
        # an operation about the attack, the Chain or a Deck names no card
        link = "then " if o.then else "or, if it cannot, " if o.otherwise else \
            "together with the one before (both or neither), " if o.both else ""
        words = f"{n}: {link}it {what}" + \
            ("" if o.do in GAME_OPS + DECK_OPS else f" {ON_WORDS[o.on]}") + f" {yes}"
        out.extend([("operation", k, vocab.OP[o.do], words),
                    ("operation_on", k, vocab.OPERATION_ON.index(o.on), words),
                    ("operation_amount", k, o.amount, words),
                    ("operation_amount_of", k, vocab.AMOUNT_OF.index(o.amount_of), words),
                    ("operation_to", k, vocab.LP_PLAYERS.index(o.to), words),
                    ("operation_then", k, o.then, words),
                    ("operation_otherwise", k, o.otherwise, words),
                    ("operation_both", k, o.both, words)]
                   + select_facts("operation", k, o.select, words, archetype_id, name_id)
                   + select_facts("count", k, o.count or Select(), words if o.count else "", archetype_id, name_id))
    return out


SLOT_WIDTH = {**{f"cond_{f}": vocab.CONDITION_ALTERNATIVES * vocab.CONDITION_ATOMS for f in ATOM_FIELDS},
              **{f"{p}_{f}": vocab.TARGET_FILTER_ATOMS for p in ("filter", "filter2", "costf", "choicef")
                 for f in ATOM_FIELDS},
              "cost": vocab.MAX_COSTS, "cost_amount": vocab.MAX_COSTS,
              **{n: vocab.MAX_OPERATIONS for n in ("operation", "operation_on", "operation_amount", "operation_amount_of",
                                                    "operation_to", "operation_then", "operation_otherwise",
                                                    "operation_both")},
              **{f"{p}_{f}": vocab.MAX_OPERATIONS for p in ("operation", "count") for f in SELECT_FIELDS},
              **{f"cond_{f}": vocab.CONDITION_ALTERNATIVES * vocab.CONDITION_ATOMS for f in SELECT_FIELDS}}


def continuous_facts(n, applies, archetype_id, name_id):
    """(Statics function, slot k, value, words) for a card's continuous effects, in slot order."""
    yes = "(card text)"
    out = []
    for k in range(vocab.MAX_CONTINUOUS):
        a = applies[k] if k < len(applies) else None
        if a is None:
            out.append(("continuous", k, 0, ""))
            continue
        if a.do in vocab.LOCKS:   # its select side is the player it refuses
            who = " (by the opponent)" if a.select.side == "opponent" else ""
        elif a.do in vocab.GAME_CONTINUOUS or a.do == "add_attribute":
            who = ""
        else:
            who = {"self": " (itself)", "equipped": " (the monster it is equipped to)",
                   "attackers": " (of each opponent's monster that attacked while it applied)",
                   "battle_opponent": " (destroyed by battle with it)"}.get(a.on, f" ({select_words(a.select)})")
            if a.do == "destroy_replace":   # its selector is the card destroyed instead
                who = f" ({select_words(a.select)})"
        position = {"attack": "face-up Attack", "defense": "Defense"}.get(a.position, "")
        fixed = " and fixes their battle positions" if a.fixed else ""
        said = CONTINUOUS_WORDS[a.do].format(amount=a.amount, position=position, fixed=fixed,
                                             to=REDIRECT_WORDS.get(a.to, ""), attribute=a.attribute.upper())
        if a.per == "counter":   # "gives 500 ATK" -> "gives 500 ATK for each counter on it"
            said += " for each counter on it"
        elif a.per == "count":   # "gives 1000 ATK for each of its controller's Normal Monsters in the Graveyard"
            said += f" for each of {select_words(a.count)}"
        words = f"{n}: while face-up on the field it {said}{who} {yes}"
        out.extend([("continuous", k, vocab.CN[a.do], words), ("continuous_on", k, vocab.CONTINUOUS_ON.index(a.on), words),
                    ("continuous_amount", k, a.amount, words),
                    ("continuous_position", k, vocab.POSITIONS.index(a.position) if a.position else 0, words),
                    ("continuous_fixed", k, int(a.fixed), words),
                    ("continuous_per", k, vocab.CONTINUOUS_PER.index(a.per), words),
                    ("continuous_to", k, vocab.L[a.to] if a.to else 0, words),
                    ("continuous_added_attribute", k, vocab.ATTRIBUTES.index(a.attribute) if a.attribute else 0, words)]
                   + select_facts("continuous", k, a.select, words, archetype_id, name_id)
                   + select_facts("cont_count", k, a.count or Select(), words if a.count else "", archetype_id, name_id))
    return out


PLACE_WORDS = {"hand": "hand", "deck": "Deck", "graveyard": "Graveyard", "field": "field", "extra_deck": "Extra Deck"}


def choice_words(ch) -> str:
    """An effect's `choose` as a judge reads it: "as it resolves it chooses 2 cards (none unless 2
    fit) from its controller's Deck that meet: ..." (GEN-22)."""
    whose = {"yours": "its controller's", "opponent": "the opponent's", "both": "either player's"}[ch.side]
    places = [PLACE_WORDS[p] for p in ch.places]
    where = " or ".join(places) if len(places) <= 2 else ", ".join(places[:-1]) + " or " + places[-1]
    many = f"{ch.count} card" + ("s" if ch.count > 1 else "")
    least = "" if ch.min == ch.count else (" or none" if ch.min == 0 else f" (at least {ch.min})")
    unless = " (none unless that many fit)" if ch.min == ch.count else ""
    meets = f" that meet: {atoms_words(ch.filter, 'the card chosen')}" if ch.filter else ""
    needed = f"; it is activated only while {'that many fit' if ch.min > 1 else 'one fits'}" if ch.needed else ""
    return f"as it resolves it chooses {many}{least}{unless} from {whose} {where}{meets}, without targeting{needed}"


def select_facts(prefix, k, sel, words, archetype_id, name_id):
    return [(f"{prefix}_side", k, vocab.SELECT_SIDES.index(sel.side), words),
            (f"{prefix}_filter", k, vocab.SELECT_FILTERS.index(sel.filter), words),
            (f"{prefix}_attribute", k, vocab.ATTRIBUTES.index(sel.attribute), words),
            (f"{prefix}_monster_type", k, vocab.MONSTER_TYPES.index(sel.monster_type), words),
            (f"{prefix}_level_min", k, sel.level_min, words), (f"{prefix}_level_max", k, sel.level_max, words),
            (f"{prefix}_other", k, vocab.SELECT_OTHER.index(sel.other), words),
            (f"{prefix}_archetype", k, archetype_id.get(sel.archetype, 0), words),   # None: any
            (f"{prefix}_cards", k, vocab.SELECT_CARDS.index(sel.cards), words),
            (f"{prefix}_special_summoned", k, int(sel.special_summoned), words),
            (f"{prefix}_summoned_this_turn", k, int(sel.summoned_this_turn), words),
            (f"{prefix}_name", k, name_id[sel.name] if sel.name is not None else 0, words),
            (f"{prefix}_not_attribute", k, vocab.ATTRIBUTES.index(sel.not_attribute), words),
            (f"{prefix}_card_kind", k, vocab.K[sel.card_kind] + 1 if sel.card_kind else 0, words),
            (f"{prefix}_card_type", k, vocab.CARD_TYPES.index(sel.card_type) + 1 if sel.card_type else 0, words)]


def select_words(sel) -> str:
    side = {"both": "all", "yours": "its controller's", "opponent": "the opponent's"}[sel.side]
    what = " ".join(w for w in (sel.filter.replace("_", " ") if sel.filter != "any" else "",
                                sel.attribute.upper() if sel.attribute != "none" else "",
                                sel.monster_type.replace("_", " ") if sel.monster_type != "none" else "") if w)
    levels = "" if (sel.level_min, sel.level_max) == (0, 99) else f" of Level {sel.level_min}-{sel.level_max}"
    kin = f"\"{sel.archetype}\" " if sel.archetype else ""
    kin += f"\"{sel.name}\" " if sel.name else ""
    what += f"{' ' if what else ''}non-{sel.not_attribute.upper()}" if sel.not_attribute != "none" else ""
    other = "other " if sel.other is True else ""
    but = " except cards of its own name" if sel.other == "name" else ""
    summoned = "Special Summoned " if sel.special_summoned else ""
    summoned += "Summoned-this-turn " if sel.summoned_this_turn else ""
    place = {"graveyard": " in the Graveyard", "deck": " in the Deck"}.get(sel.cards, "")
    cards = {"spells_traps": "Spell and Trap Cards"}.get(sel.cards, "monsters" if not place else "cards" + place)
    if sel.card_kind:   # "monster:normal" -> "Normal Monsters in the Graveyard"
        typ, sub = sel.card_kind.split(":")
        cards = f"{sub.replace('quickplay', 'Quick-Play').title()} {typ.title()}s{place}"
    elif sel.card_type:   # "monster" -> "Monsters in the Graveyard", "trap" -> "Trap Cards"
        cards = f"{sel.card_type.title()}{'s' if sel.card_type == 'monster' else ' Cards'}{place}"
    return f"{side} {other}{what + ' ' if what else ''}{summoned}{kin}{cards}{levels}{but}"


def timing_fact(n, t, named):
    return f"{n}: {'names' if named else 'names no'} \"{TIMING_WORDS[t]}\" timing (card text)"


NAMES_NO = re.compile(r'^(.*): names no "(.*)" timing \(card text\)$')


def merge_timings(facts):
    """One line for the timings an effect does not name, where the core lists several."""
    out, merged = [], {}
    for f in facts:
        m = NAMES_NO.match(f)
        if not m:
            out.append(f)
            continue
        if m.group(1) not in merged:
            merged[m.group(1)] = []
            out.append(m.group(1))   # placeholder, filled below
        merged[m.group(1)].append(m.group(2))

    def line(who):
        said = '", "'.join(merged[who])
        many = len(merged[who]) > 1
        return f'{who}: names {"none of the timings" if many else "no"} "{said}"{"" if many else " timing"} (card text)'
    return [line(f) if f in merged else f for f in out]


def window_title(value):
    return vocab.WINDOW_TITLES.get(vocab.WINDOWS[value], vocab.WINDOWS[value]) if 0 <= value < len(vocab.WINDOWS) \
        else "(not said)"


def window_phrase(value):
    """ "in sub-step 3 (before damage calculation)", "at the end of the Damage Step"."""
    title = window_title(value)
    head, _, rest = title.partition(": ")
    if rest:
        return f"in {head} ({rest})"
    if title.startswith(("before", "during", "after")):
        return title
    return ("at " if title.startswith(("the start", "the end", "the attack")) else "in ") + title


def _effect_label(uni, e):
    c, k, _ = uni.effects[e] if 0 <= e < len(uni.effects) else (NONE, 0, None)
    many = 0 <= c < len(uni.cards) and len(uni.cards[c].effects) > 1
    return uni.label(c) + (f" effect {k}" if many else "")


def state_name(uni, field):
    """A state variable's name in words: "Lily: destroyed by battle", "Chain length"."""
    m = re.fullmatch(r"([ce])(\d+)_(\w+)", field)
    if m:
        who = uni.label(int(m.group(2))) if m.group(1) == "c" else _effect_label(uni, int(m.group(2)))
        return f"{who}: {STATE_WORDS.get(m.group(3), m.group(3).replace('_', ' '))}"
    m = re.fullmatch(r"link(\d+)_(\w+)", field)
    if m:
        return f"Chain Link {int(m.group(1)) + 1}: {LINK_WORDS.get(m.group(2), m.group(2).replace('_', ' '))}"
    m = re.fullmatch(r"(bd|lp|bdc|halved|eff_halved)_([AB])", field)   # a player's
    if m:
        return f"{STATE_WORDS[m.group(1)]} {m.group(2)}"
    return STATE_WORDS.get(field, field.replace("_", " "))


def state_value(uni, field, value):
    """A state variable's value in words."""
    base = re.sub(r"^[ce]\d+_|^link\d+_", "", field)
    if base == "window":
        return window_title(value)
    if base in ("loc", "tloc", "tloc2"):
        return vocab.LOCATIONS[value].replace("_", " ") if 0 <= value < len(vocab.LOCATIONS) else str(value)
    if base in ("prio", "player"):
        return vocab.PLAYERS[value] if value in (0, 1) else "(none)"
    if base in ("attacker", "target", "target2", "card", "other", "choice", "choice2", "recorded"):
        return uni.label(value) if value != NONE else "none"
    if base == "equip":   # an Equip Card's monster (GEN-20)
        return uni.label(value) if value != NONE else "nothing (not equipped)"
    if base == "eff":
        return _effect_label(uni, value) if 0 <= value < len(uni.effects) else str(value)
    if base == "calc":
        return ("pending", "done", "skipped")[value]
    if base == "sumt" and 0 <= value < len(vocab.SUMMONED_THIS_TURN):
        return ("no", "yes (Normal, Tribute or Special Summoned)", "yes (Flip Summoned)")[value]
    if base == "doomed" and 0 <= value < len(vocab.DOOMED):
        return ("no", "yes", "done: it was destroyed")[value]
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def describe(run, field, value):
    """A fact about the state before the step, in words, with the line and rule it comes from."""
    where = run.line_of.get(_variable(run, field), ("set-up", None))
    src = f"line {where[1]}" if where[1] else "initial state"
    if where[0] == "set-up" and where[1]:
        src = f"set-up line {where[1]}"
    if len(where) > 2 and where[2]:
        src += f", by {where[2]}"
    if field.endswith("_trig"):
        who = _effect_label(run.uni, int(field[1:-5]))
        return f"{who}: " + ("its trigger is pending" if value else "its trigger is not pending") + f" ({src})"
    if field.endswith("_used"):
        who = _effect_label(run.uni, int(field[1:-5]))
        # true from the set-up: `used N`, a use before the play (docs/format.md)
        said = ("its limit used before the play" if where[0] == "set-up" else "activated this turn") if value \
            else "not activated this turn"
        return f"{who}: {said} ({src})"
    return f"{state_name(run.uni, field)}: {state_value(run.uni, field, value)} ({src})"


def _variable(run, field):
    for name in run.names:
        if run.pre_vars[name].decl().name() == "pre_" + field:
            return name
    return field


def _rule_words(rid):
    d = rulebook.declaration(rid)
    return f"{rid} ({d.name})" if d and d.name else rid


def reason(run, broken, windows=()):
    """The one sentence a judge reads first: who cannot do what, where, and the rule(s) that say
    so; for a refused timing, the windows the rule set opens for the effect and their rules."""
    act, uni = run.current_act, run.uni
    kind = KIND_NAMES.get(act.get("kind"), "")
    where = window_phrase(run.get("window"))
    if kind == "activate" and act.get("eff") is not None:
        what = f"{_effect_label(uni, act['eff'])} cannot be activated {where}"
    elif kind == "pass":
        what = f"{vocab.PLAYERS[act.get('player', 0)]} cannot pass priority {where}"
    elif kind == "claim":
        what = f"what line {run.current_line} claims is not what the rules produce"
    elif kind == "attack":
        what = f"{uni.label(act.get('card', NONE))} cannot attack {where}"
    elif kind == "resolve_link":
        # the cards the resolving link chooses (GEN-22): named, or none for an effect that chooses
        chosen = [uni.label(c) for c in (act.get("choice", NONE), act.get("choice2", NONE)) if c != NONE]
        top = run.get(f"link_eff[{max(0, run.get('chain_len') - 1)}]") if run.get("chain_len") else None
        chooses = top is not None and 0 <= top < len(uni.effects) and uni.effects[top][2].choose is not None
        what = f"the Chain cannot resolve {where}" + (f" choosing {' and '.join(chosen)}" if chosen else
                                                      " choosing no card" if chooses else "")
    elif kind == "replace":
        what = f"{uni.label(act.get('card', NONE))} cannot be replaced {where}"
    elif kind in ("next", "end_bp", "enter_bp", "skip_bp"):
        what = f"the game cannot move on {where}"
    else:
        what = f"line {run.current_line} is not allowed {where}"
    out = f"{what}: {', '.join(_rule_words(r) for r in broken)} " + ("forbid" if len(broken) > 1 else "forbids") + " it"
    if windows:
        opened = "; or ".join(window_phrase(vocab.W[w]) + (f", by {' and '.join(rules)}" if rules else "")
                              for w, rules in windows)
        out += f"; by its timing {run.ruleset} opens a window for it only {opened}"
    return out + "."

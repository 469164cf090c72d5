"""The words of an explanation, for a judge: the one-sentence reason, the facts about the state
with human names ("destroyed by battle", "Chain length", "location"), and what a card's text does
(the catalogue's fields said as card text, not as field values). Mechanism is elsewhere
(explain.py finds the broken rules and the facts; facts.py encodes them)."""
from __future__ import annotations

import re

from ygo_timing.model import rulebook, vocab
from ygo_timing.model.state import NONE, A

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
}
EFFECT_KIND_WORDS = {
    "activation": "its effect is activating the card itself", "ignition": "an Ignition Effect", "trigger": "a Trigger Effect",
    "quick": "a Quick Effect", "flip": "a Flip Effect", "continuous": "a Continuous Effect (never activated)",
}
ATK_DEF_WORDS = {"none": "does not change ATK/DEF", "direct": "changes ATK/DEF directly",
                 "indirect": "changes ATK/DEF indirectly", "maybe": "may or may not change ATK/DEF"}
NEGATES_WORDS = {"spell": "a Spell Card", "trap": "a Trap Card", "monster_effect": "a monster effect",
                 "spell_trap": "a Spell or Trap Card", "any": "any card or effect"}
TRIGGER_CLASS_WORDS = {
    "none": "it is not a trigger for moving, being flipped or changing position",
    "location": "it triggers when the card moves to another place (e.g. is Summoned)",
    "flipped": "it triggers when the card is flipped face-up",
    "position": "it triggers when the card changes its battle position",
    "other": "it triggers on another event (not moving, being flipped or changing position)",
}
RESOLUTION_WORDS = {
    "none": "its effect changes nothing timing depends on", "atk_add": "it changes a monster's ATK",
    "atk_gain_opponent": "a monster gains the ATK of the monster it battles",
    "atk_halve_original": "a monster's ATK becomes half its original ATK", "atk_double": "a monster's ATK is doubled",
    "negate": "it negates an activation", "negate_destroy": "it negates an activation and destroys that card",
    "destroy": "it destroys a card", "banish": "it banishes a card", "special_summon": "it Special Summons a monster",
    "end_battle_phase": "it ends the Battle Phase", "skip_damage_calc": "damage calculation is not performed",
    "negate_attack": "it negates the attack", "cannot_attack": "a monster cannot attack",
    "cannot_declare_attack": "a monster cannot declare an attack", "set_face_down": "a monster is set face-down",
}
TARGET_WORDS = {"self": "this card", "chosen": "the card it targets", "attacker": "the attacking monster",
                "attack_target": "the attack target", "own_battling": "its controller's battling monster",
                "opponent_battling": "the opponent's battling monster"}

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
    "attacks": "attacks declared this turn", "hit_direct": "attacked directly this turn",
    "hit_monster": "attacked a monster this turn", "flipped": "flipped face-up by the attack",
    "no_attack": "cannot attack", "trig": "trigger pending",
}
KIND_NAMES = {v: k for k, v in A.items()}


def card_facts(n, spec, card, cm, archetype_id):
    """(Statics function, value, words) for one card: what it is and what its text says."""
    yes = "(card text)"
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
        ("battle_damage_modifier", vocab.BATTLE_DAMAGE_MODIFIERS.index(card.battle_damage_modifier),
         f"{n}: " + ("does not change battle damage" if card.battle_damage_modifier == "none" else
                     f"changes battle damage ({card.battle_damage_modifier.replace('_', ' ')})") + f" {yes}"),
        ("archetype", archetype_id, f"{n}: " + (f"a \"{card.archetype}\" card" if card.archetype else "of no archetype") + f" {yes}"),
        ("extra_attacks", card.extra_attacks + sum(1 for e in spec.equip if e == "Tyrant Wing"),
         f"{n}: extra attacks this turn (card text / equip, line {spec.line})"),
        ("attack_restriction_tyrant_wing", "Tyrant Wing" in spec.equip or card.attack_restriction == "tyrant_wing",
         f"{n}: \"Tyrant Wing\" restriction (line {spec.line})"),
    )


def effect_facts(n, eff):
    """(Statics function, value, words) for one effect: what its card's text does."""
    yes = "(card text)"
    from_ = eff.from_
    negates = "negates no activation" if eff.negates == "none" else f"negates the activation of {NEGATES_WORDS[eff.negates]}"
    return (
        ("effect_kind", vocab.EK[eff.kind], f"{n}: {EFFECT_KIND_WORDS[eff.kind]} {yes}"),
        ("from_hand", from_ == "hand", f"{n}: " + ("activated from the hand" if from_ == "hand" else f"activated from the {from_.replace('_', ' ')}, not the hand") + f" {yes}"),
        ("from_graveyard", from_ == "graveyard", f"{n}: " + ("activated from the Graveyard" if from_ == "graveyard" else f"activated from the {from_.replace('_', ' ')}, not the Graveyard") + f" {yes}"),
        ("mandatory", eff.mandatory, f"{n}: {'mandatory (it must be activated)' if eff.mandatory else 'optional'} {yes}"),
        ("atk_def", vocab.AD[eff.atk_def], f"{n}: {ATK_DEF_WORDS[eff.atk_def]} {yes}"),
        ("negates", vocab.NG[eff.negates], f"{n}: {negates} {yes}"),
        ("trigger_class", vocab.TC[eff.trigger_class], f"{n}: {TRIGGER_CLASS_WORDS[eff.trigger_class]} {yes}"),
        ("fusion_summon", eff.fusion_summon, f"{n}: {'is' if eff.fusion_summon else 'is not'} a Fusion Summon effect {yes}"),
        ("condition", vocab.CO[eff.condition], f"{n}: {CONDITION_WORDS[eff.condition]} {yes}"),
        ("ruling_allowed", eff.ruling_allowed,
         f"{n}: " + ("a ruling allows it in the Damage Step (DS-1(g))" if eff.ruling_allowed else
                     "no ruling names it among the cards allowed in the Damage Step (DS-1(g), DS-T1's named cards)") + " (catalogue)"),
        ("no_damage_step", eff.no_damage_step, f"{n}: {'says it cannot' if eff.no_damage_step else 'does not say it cannot'} be activated during the Damage Step {yes}"),
        ("resolution", vocab.RS[eff.resolution], f"{n}: {RESOLUTION_WORDS[eff.resolution]} {yes}"),
        ("amount", eff.amount, f"{n}: its effect's amount is {eff.amount} {yes}"),
        ("resolution_target", vocab.TARGETS.index(eff.target), f"{n}: its effect applies to {TARGET_WORDS[eff.target]} {yes}"),
    )


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
        return f"Chain Link {int(m.group(1)) + 1}: {m.group(2).replace('eff', 'effect').replace('_', ' ')}"
    m = re.fullmatch(r"(bd|lp)_([AB])", field)
    if m:
        return f"{STATE_WORDS[m.group(1)]} {m.group(2)}"
    return STATE_WORDS.get(field, field.replace("_", " "))


def state_value(uni, field, value):
    """A state variable's value in words."""
    base = re.sub(r"^[ce]\d+_|^link\d+_", "", field)
    if base == "window":
        return window_title(value)
    if base == "loc":
        return vocab.LOCATIONS[value].replace("_", " ")
    if base in ("prio", "player"):
        return vocab.PLAYERS[value] if value in (0, 1) else "(none)"
    if base in ("attacker", "target", "card", "other"):
        return uni.label(value) if value != NONE else "none"
    if base == "eff":
        return _effect_label(uni, value) if 0 <= value < len(uni.effects) else str(value)
    if base == "calc":
        return ("pending", "done", "skipped")[value]
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
        what = f"the Chain cannot resolve {where}"
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

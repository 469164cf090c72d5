"""One vocabulary for windows, card kinds and effect properties.

Every enumeration here is a tuple of names; the solver sees a name's index.
Names are the words users write in play files and catalogues, so they are
stable: renaming one breaks user files.
"""

# Timing windows (rules.md section 1). `main1`/`main2` bracket the Battle Phase.
WINDOWS = (
    "main1",
    "start_step",
    "battle_step",
    "attack_declared",
    # OCG Damage Step, five parts (damage calculation itself happens as the
    # during-calculation window closes).
    "ds_start",
    "ds_before_calc",
    "ds_during_calc",
    "ds_after_calc",
    "ds_end",
    # TCG Damage Step, seven sub-steps.
    "t1_start",
    "t2_flip",
    "t3_before_calc",
    "t4_at_calc",
    "t5_battle_damage",
    "t6_effect_resolution",
    "t7_end",
    "end_step",
    "main2",
)
W = {name: i for i, name in enumerate(WINDOWS)}

OCG_DAMAGE_STEP = ("ds_start", "ds_before_calc", "ds_during_calc", "ds_after_calc", "ds_end")
TCG_DAMAGE_STEP = (
    "t1_start", "t2_flip", "t3_before_calc", "t4_at_calc",
    "t5_battle_damage", "t6_effect_resolution", "t7_end",
)
DAMAGE_STEP = OCG_DAMAGE_STEP + TCG_DAMAGE_STEP

WINDOW_TITLES = {
    "main1": "Main Phase 1",
    "start_step": "the Start Step",
    "battle_step": "the Battle Step",
    "attack_declared": "the attack declaration",
    "ds_start": "the start of the Damage Step",
    "ds_before_calc": "before damage calculation",
    "ds_during_calc": "during damage calculation",
    "ds_after_calc": "after damage calculation",
    "ds_end": "the end of the Damage Step",
    "t1_start": "sub-step 1: start of the Damage Step",
    "t2_flip": "sub-step 2: flip",
    "t3_before_calc": "sub-step 3: before damage calculation",
    "t4_at_calc": "sub-step 4: at damage calculation",
    "t5_battle_damage": "sub-step 5: battle damage",
    "t6_effect_resolution": "sub-step 6: effect resolution",
    "t7_end": "sub-step 7: end of the Damage Step",
    "end_step": "the End Step",
    "main2": "Main Phase 2",
}

PLAYERS = ("A", "B")

# Where a card is. `none` marks an unused slot of the fixed-size state.
LOCATIONS = ("none", "hand", "monster_zone", "spell_trap_zone", "field_zone", "graveyard", "banished", "deck", "extra_deck")
L = {name: i for i, name in enumerate(LOCATIONS)}

CARD_TYPES = ("monster", "spell", "trap")
SUBTYPES = {
    "monster": ("normal", "effect", "flip", "fusion", "ritual", "synchro", "xyz", "link", "token"),
    "spell": ("normal", "continuous", "equip", "field", "ritual", "quickplay"),
    "trap": ("normal", "continuous", "counter"),
}
# One flat index for (type, subtype) so the solver needs one function.
CARD_KINDS = tuple(f"{t}:{s}" for t in CARD_TYPES for s in SUBTYPES[t])
K = {name: i for i, name in enumerate(CARD_KINDS)}
TYPE_KINDS = {t: tuple(f"{t}:{s}" for s in SUBTYPES[t]) for t in CARD_TYPES}   # a card type's kinds

# How an effect is used (rules.md section 1, S1 65-78). `activation` is a
# Spell/Trap card's own activation; `continuous` effects are never activated.
EFFECT_KINDS = ("activation", "ignition", "trigger", "quick", "flip", "continuous")
EK = {name: i for i, name in enumerate(EFFECT_KINDS)}

# How an effect touches ATK/DEF (S3 82-87).
ATK_DEF = ("none", "direct", "indirect", "maybe")
AD = {name: i for i, name in enumerate(ATK_DEF)}

# What activation an effect negates (`none` when it negates none); `opponent_...`: only one the
# opponent of its controller activated ("When your opponent activates a monster effect")
NEGATES = ("none", "spell", "trap", "monster_effect", "spell_trap", "any")
NEGATES += tuple("opponent_" + k for k in NEGATES[1:])
NG = {name: i for i, name in enumerate(NEGATES)}

# Why an optional Trigger Effect activates, for DS-1(e) (S3 88).
TRIGGER_CLASSES = ("none", "location", "flipped", "position", "other")
TC = {name: i for i, name in enumerate(TRIGGER_CLASSES)}

# Timings a card's text can name. The rule set maps each to its windows.
TIMINGS = (
    "start_step", "attack_declared", "ds_start", "before_calc", "during_calc",
    "after_calc", "ds_end", "end_step",
)

# What must hold for an effect to be activated, beyond its timing.
CONDITIONS = (
    "none",                      # nothing beyond timing
    "battling",                  # this card is the attacker or the attack target
    "own_monster_battling",      # a monster its controller controls battles
    "opponent_attacks",          # an opponent's monster has declared an attack (first Chain only)
    "attacked",                  # this card is the attack target
    "attacked_face_down",        # this card was face-down when it was attacked
    "flipped_by_attack",         # this card was flipped face-up by the attack
    "destroyed_by_battle",       # this card was destroyed by battle
    "destroys_by_battle",        # this card destroyed an opponent's monster by battle
    "monster_destroyed_by_battle",  # any monster was destroyed by battle
    "battle_damage_dealt",       # this card inflicted battle damage to the opponent
    "battle_damage_dealt_direct",   # a direct attack by its controller's monster inflicted battle damage
    "battle_damage_taken",       # its controller took battle damage
    "attacks_face_up_defense",   # this card attacks a face-up Defense Position monster
    "attacks_face_up_level_3_or_lower",  # this card attacks a face-up Level 3 or lower monster
    "attacks_face_up",           # this card attacks a face-up monster
    "attacks_face_down",         # this card attacks a face-down (Defense Position) monster
    "opponent_monster_count_changed",  # reserved for replay-related effects
    "controls_same_archetype",   # its controller controls another face-up monster of its archetype
    "battled",                   # this card battled this turn (End Step effects)
    "summoned",                  # this card was Special Summoned by a resolving effect; the pending trigger carries the event
    "destroyed",                 # this card was destroyed on the field (by battle, a card effect or itself)
    "destroyed_face_up",         # this face-up card was destroyed on the field
    "left_field",                # this face-up card left the field (any way)
    "opponent_monster_to_graveyard",  # a monster went to its controller's opponent's Graveyard
)
CO = {name: i for i, name in enumerate(CONDITIONS)}
# the events that happen at a moment, not in a window: a Trigger Effect on one is made pending by
# the step where it happens (GEN-8), and is activated from where its card then is
LEAVING = ("destroyed", "destroyed_face_up", "left_field")   # of those, the card leaving the field
EVENTS = ("summoned", *LEAVING, "opponent_monster_to_graveyard")

# The old one-operation `resolution` of earlier catalogues (read as one of OPERATIONS; cards migrate).
RESOLUTIONS = (
    "none",
    "atk_add",            # target gains `amount` ATK (negative: loses)
    "atk_gain_opponent",  # target gains the ATK of the monster it battles ("Honest")
    "atk_halve_original", # target's ATK becomes half its original ATK ("Shrink")
    "atk_double",         # target's ATK is doubled ("Limiter Removal")
    "negate",             # negate the activation it responds to
    "negate_destroy",     # negate that activation and destroy that card
    "destroy",            # destroy the target
    "banish",             # banish the target
    "special_summon",     # a monster comes to its controller's field
    "end_battle_phase",   # the Battle Phase ends (ES-1)
    "skip_damage_calc",   # "without applying damage calculation"
    "negate_attack",      # the attack is negated; the battle ends
    "cannot_attack",      # BS-6: the target "cannot attack" (stops a declared attack)
    "cannot_declare_attack",  # BS-6: the target "cannot declare an attack" (does not)
    "set_face_down",      # the target is changed to face-down Defense Position (D2-5)
)

# Which monster a resolution applies to when the play does not say.
TARGETS = ("self", "chosen", "attacker", "attack_target", "own_battling", "opponent_battling")

# --- The effect model (docs/cards-format.md): an effect is a composition of a condition over
# atoms, costs, a target with a filter, and operations; a card's continuous effects apply while
# it is face-up on the field. Each list below is the vocabulary of one field of the format.

ATTRIBUTES = ("none", "dark", "light", "earth", "water", "fire", "wind", "divine")
MONSTER_TYPES = (
    "none", "spellcaster", "dragon", "zombie", "warrior", "beast_warrior", "beast", "winged_beast",
    "fiend", "fairy", "insect", "dinosaur", "reptile", "fish", "sea_serpent", "aqua", "pyro",
    "thunder", "rock", "plant", "machine", "psychic", "divine_beast", "wyrm", "cyberse", "illusion",
)

# Who an atom, a cost or an operation is about. Card subjects are relative to the effect's card;
# player subjects to its controller.
# `equipped`: the monster this card (an Equip Card) is equipped to (GEN-20), none while it is not
CARD_SUBJECTS = ("self", "attacker", "attack_target", "target", "battle_opponent", "own_battling", "opponent_battling",
                 "equipped")
PLAYER_SUBJECTS = ("you", "opponent")
SUBJECTS = CARD_SUBJECTS + PLAYER_SUBJECTS
SJ = {name: i for i, name in enumerate(SUBJECTS)}

# Quantities an atom compares: `of` a card subject (state or printed), `of` a player subject,
# or of the game. Truth values are 1 / 0; a location is its index in LOCATIONS.
CARD_QUANTITIES = (
    "location", "face_up", "defense_position", "atk", "def", "level", "attribute", "monster_type",
    "archetype", "card_type", "original_atk", "original_def", "yours", "battling", "attacking",
    "attacked", "special_summoned", "card_kind", "destroyed_by_battle",
    "counters",   # the counters on it (a face-up card on the field; none elsewhere)
    "summoned_this_turn",   # Normal, Flip or Special Summoned this turn and still in the Monster Zone
    "flip_summoned_this_turn",   # of those, Flip Summoned ("Normal or Special Summoned this turn" leaves them out)
    "name",       # its card name (a play's name ids: checking/facts.py): "Equip only to \"Elemental HERO Neos\""
)
# `battle_damage_pending`: what the damage calculation of the battle going on would inflict now
PLAYER_QUANTITIES = ("lp", "monsters", "cards", "hand", "battle_damage", "battle_damage_pending", "turn")
# `selected`: how many monsters the atom's own `select` picks (in a condition only)
GAME_QUANTITIES = ("direct_attack", "chain_length", "damage_step", "selected",
                   "damage_calculation")   # the rule set's damage-calculation window (D3-4, T4)
QUANTITIES = ("nothing",) + CARD_QUANTITIES + PLAYER_QUANTITIES + GAME_QUANTITIES
Q = {name: i for i, name in enumerate(QUANTITIES)}
# how a monster was Summoned this turn (State.sumt): the kinds cards tell apart ("Trap Hole of
# Spikes": "Normal or Special Summoned this turn"; "Big-Tusked Mammoth": any Summon)
SUMMONED_THIS_TURN = ("no", "normal_or_special", "flip")
COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")
CMP = {name: i for i, name in enumerate(COMPARISONS)}
NEGATED_COMPARISON = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}
# A condition is normalised to at most this many alternatives ("or") of at most this many atoms
# ("and") each: the relation has a slot per atom (model/rules/effects.py).
CONDITION_ALTERNATIVES = 2
CONDITION_ATOMS = 3
# A target's (and a cost's or a choice's) filter: "target 1 face-up "Performapal" monster whose current
# ATK differs from its original ATK" is 4 atoms (the Monster Zone, face-up, the archetype, the ATK)
TARGET_FILTER_ATOMS = 4
# An effect targets at most two cards ("Target 2 cards on the field"), each with its own filter; the
# second is required or optional ("Target up to 2 Spells/Traps"): the Chain Link holds both
SECOND_TARGET = ("none", "required", "optional")

# Costs, paid when the effect is activated (GEN-16).
# send_self: "send this card to the GY" (it must reach the Graveyard: not payable where a redirect
# would keep it from there, GEN-16); discard_self: "discard this card" (payable there: it is
# banished instead; yugioh-wiki.net on Dimensional Fissure / Macro Cosmos, EDOPro Cost.SelfDiscard)
COSTS = ("none", "pay_lp", "pay_half_lp", "discard", "tribute", "send_self", "banish_self", "discard_self",
         # "pay LP equal to the difference" between the ATK of the opponent's battling monster and
         # its controller's ("Prideful Roar": stats.battle_difference)
         "pay_lp_battle_difference",
         # "Tribute this card" ("Doomcaliber Knight"): payable, as a Tribute, while a redirect would
         # banish it (it is banished instead); only "send this card to the GY" must reach the Graveyard
         "tribute_self",
         # "shuffle this card into the Deck" (the Gladiator Beasts; "return this card to the Extra
         # Deck" for a Fusion, Synchro, Xyz or Link Monster): refused only by its own leave-the-field redirect
         "to_deck_self")
CT = {name: i for i, name in enumerate(COSTS)}
MAX_COSTS = 2

# What an operation does to what it is `on` (GEN-15).
OPERATIONS = (
    "none",
    "atk_add", "atk_set", "atk_halve", "atk_double", "atk_gain_opponent", "atk_halve_original",
    "def_add", "def_set", "def_halve", "def_double",
    "destroy", "banish", "to_hand", "to_deck", "to_graveyard", "special_summon",
    "change_position", "set_face_down",
    "negate", "negate_destroy", "negate_attack", "end_battle_phase", "skip_damage_calc",
    "cannot_attack", "cannot_declare_attack",
    "damage", "gain_lp",
    "no_battle_damage", "halve_battle_damage", "double_battle_damage", "reflect_battle_damage",
    "indestructible_by_battle", "indestructible_by_effect",
    # the top `amount` cards of a player's Deck (the set-up lists a Deck top first) go to the
    # hand / the Graveyard; cards the set-up does not list are not in the model
    "draw", "mill",
    # "That monster can attack again": one more attack declaration this turn (BP-5's count)
    "attack_again",
    "atk_double_original",   # ATK becomes double its original ATK ("Bujingi Crane")
    # "equip this card to that target": the effect's own card becomes an Equip Card equipped to
    # the face-up monster the operation is on (GEN-20); an Equip Spell's activation
    "equip",
    # place / remove `amount` counters on / from a face-up card on the field; a card with fewer
    # than `amount` cannot have them removed (an `otherwise` operation after it applies instead)
    "add_counter", "remove_counter",
    # "For the rest of this turn, all damage you take is halved" / "... all effect damage you take is
    # halved" ("Damage Diet"): the resolving effect's controller's, rounded down, once whatever halves
    # it; battle damage after every other change (calc.lasting), effect damage as `damage` inflicts it
    "halve_damage", "halve_effect_damage",
    # "destroy that monster after damage calculation" ("Cross Counter"): a mark the monster keeps for
    # the rest of the battle; the effect destroys it as the part after damage calculation begins
    # (D4, T5), if damage calculation was performed (resolution.destroyed_after_calc)
    "destroy_after_calc",
    # "your opponent draws cards until their hand has 7 cards" ("Sasuke Samurai #3"): the named
    # player draws from the top of their Deck as many cards as their hand lacks of `amount` (the hand
    # the set-up lists, as the Chain Link resolves; none if it holds that many)
    "draw_until",
    # "banish both ..., then return them to the field at the end of the Battle Phase" ("Galaxy-Eyes
    # Photon Dragon"): banished as `banish` banishes, and marked (State.returns); as the End Step
    # begins (ES-1) a marked card still banished returns to the field (battle.es1_enter)
    "banish_until_bp_end",
    # "gains ATK / DEF ... during damage calculation only" ("Prideful Roar", "Injection Fairy Lily",
    # "Kinetic Soldier"): a gain the monster shows while this battle's damage calculation is ahead,
    # and that damage calculation counts (State.calc_atk, State.calc_def)
    "atk_add_at_calc", "def_add_at_calc",
    # "the ATK ... becomes double its original ATK, during that damage calculation only" ("Bujingi
    # Crane"): for that damage calculation its ATK is double the original (State.calc_atk makes up the rest)
    "atk_double_original_at_calc",
)
OP = {name: i for i, name in enumerate(OPERATIONS)}
# a monster's destroy_after_calc mark (State.doomed): none; marked; destroyed by it (a monster destroyed
# in the step that performs damage calculation was still there for the calculation: calc.present_at_calc)
DOOMED = ("no", "marked", "destroyed")
MAX_DRAW = 5   # cards one draw / mill operation moves
MAX_HAND = 10   # the hand size a draw_until operation draws up to
# counters on one card: the set-up's most, and the most a per-counter amount counts (it is read as
# COUNTER_BITS binary digits, so that amount x counters (or cards counted) stays linear: effects.times)
COUNTER_BITS = 6
MAX_COUNTERS = 2 ** COUNTER_BITS - 1
# an effect's once-per-turn limit: "Once per turn" (each copy); "You can only use this effect of
# "X" once per turn" (this effect of every card of that name its controller controls); "You can
# only activate 1 "X" per turn" where X's text is several effects (every effect of every such card);
# "once per battle" (each copy's, until the battle ends: GEN-3); "You can only use this effect of
# "X" once per Duel" (as per_turn_by_name in the play's turn; a set-up's `used` says an earlier turn used it)
ONCE = ("none", "per_turn", "per_turn_by_name", "per_turn_by_card_name", "per_battle", "per_duel")
MAX_OPERATIONS = 3
# What an operation is on: a card subject, the Chain Link's chosen target, or every card a
# selector picks (`all`).
# `choice`: the cards the effect chooses as it resolves, without targeting (its `choose`, GEN-22)
OPERATION_ON = ("self", "chosen", "attacker", "attack_target", "own_battling", "opponent_battling", "all", "choice")
# A card chosen as the Chain Link resolves, without targeting ("Special Summon 1 monster from your
# Deck"): where the text looks (`field`: the Monster, Spell & Trap and Field Zones), whose, and how
# many (the play names them on its `resolve` line: the resolve_link action's choice / choice2)
CHOOSE_FROM = ("hand", "deck", "graveyard", "field", "extra_deck")
CHOOSE_SIDES = ("yours", "opponent", "both")   # both: "on the field" with no side ("Chthonian Blast")
MAX_CHOICES = 2
# A selector: which cards (`cards`: monsters in the Monster Zone, Spell and Trap Cards in the
# Spell & Trap Zone and the Field Zone, any card in the Graveyard, or any card in the Deck: only
# those a set-up lists are in the model, so operations alone take "deck"), whose, and which of them.
SELECT_CARDS = ("monsters", "spells_traps", "graveyard", "deck")
SELECT_SIDES = ("both", "yours", "opponent")
SELECT_FILTERS = ("any", "attack_position", "defense_position", "face_up", "face_down")
# a selector's `other`: not left out, the effect's own card left out ("another monster"), or
# every card of its name ("except \"Machina Sniper\""); `archetype` (a name) picks only its cards
SELECT_OTHER = (False, True, "name")
# filters that read a monster's battle position: a Spell/Trap selector has none
POSITION_FILTERS = ("attack_position", "defense_position")
# `damage` / `gain_lp`: whose LP, and how much (a number, the ATK of the card it is on, this
# card's current ATK: `self_atk`, also for atk_add / atk_set, "becomes equal to this card's ATK";
# the battle damage its controller's opponent took in this battle: "Sebek's Blessing").
LP_PLAYERS = ("opponent", "you", "controller_of")
# `count`: `amount` for each card the operation's own `count` selector picks ("lose 800 ATK for each
# monster they control"; "300 damage for each "Attack and Receive" in your GY")
AMOUNT_OF = ("number", "atk", "original_atk", "self_atk", "opponent_battle_damage", "count",
             "half_original_atk",   # "half the original ATK of that monster" (rounded down)
             "atk_difference",      # "the difference between its original and current ATK" (not negative)
             # "the difference +300" ("Prideful Roar"): the ATK of the opponent's battling monster minus its
             # controller's, plus `amount`; nothing when it is not higher (stats.battle_difference)
             "battle_difference")

# Lasting battle-damage changes an operation leaves for the rest of the battle (BD-1 applies them
# with the cards' own modifiers): to the damage its controller would take.
BATTLE_DAMAGE_CHANGES = ("none", "no_battle_damage", "halve_battle_damage", "double_battle_damage",
                         "reflect_battle_damage")

# Continuous effects of a face-up card (GEN-18, GEN-19).
CONTINUOUS = (
    "none",
    "atk_modifier",          # the selected monsters gain `amount` ATK
    "def_modifier",          # ... DEF
    "indestructible_by_battle",  # the selected monsters cannot be destroyed by battle
    "indestructible_by_effect",
    "no_battle_damage",      # its controller takes no battle damage from battles involving this card
    "lock_traps",            # Trap Cards cannot be activated
    "lock_spells",           # Spell Cards cannot be activated
    "lock_spells_traps",     # Spell and Trap Cards cannot be activated ("If this card attacks, your opponent cannot ...")
    "negate_monster_effects",  # the effects of face-up monsters on the field are negated
    "cannot_attack",         # the selected monsters cannot attack (cannot declare an attack)
    "direct_attack",         # the selected monsters can attack directly
    "piercing",              # attacking a Defense Position monster with more ATK than its DEF, it
                             # inflicts the difference as battle damage ("piercing battle damage")
    "cannot_be_attacked",    # the selected monsters cannot be chosen as an attack target (at the
                             # declaration or a replay's new target: BP-6; not an attack already on them)
    "attacks_face_down_only",  # the selected monsters can attack only face-down (Defense Position)
                               # monsters: no face-up monster, and not directly (BP-6)
    "position_lock",         # the selected monsters are changed to `position` after every step (an
                             # Attack Position one face-up), and with `fixed` their battle positions
                             # cannot be changed by an effect (GEN-18's settled part)
    "self_destruct",         # "destroy this card" while its condition holds: the card goes to the
                             # Graveyard in the step that makes the condition true (GEN-18; in the
                             # Damage Step it waits until after damage calculation: D2-4, D4-2)
    "negate_trap_effects",   # a monster's "Negate all Trap effects on the field" (Jinzo): face-up
                             # Traps' continuous effects do not apply, and a Trap's resolving effect does nothing
    "remove_counter_instead",  # "If this card would be destroyed by battle, remove `amount` counter(s)
                               # from it instead" (Des Mosquito): at damage calculation, while it has them
    "counter_after_battle",  # at the end of each Damage Step whose battle meets its condition, place
                             # `amount` counters on this card (Spacegate)
    # the selected monsters' ATK / DEF are halved (rounded up), after every modifier that adds
    # (The Wicked Dreadroot, Mirror Wall, Dark Artist: effects.halved)
    "atk_halve", "def_halve",
    # where a card goes instead of the Graveyard (GEN-18's settled part, continuous.py), to `to`:
    "graveyard_redirect",     # "any card sent to the GY is banished instead" (Macro Cosmos): every card
    "battle_destroyed_redirect",  # "monsters destroyed by battle are shuffled into the Deck instead" (Grave
                                  # Protector: `on` all) / "... destroyed by battle with this card" (on battle_opponent)
    "leave_field_redirect",   # "if this face-up card would leave the field, banish it instead" (on self)
    # "if this card would be destroyed (by battle), you can destroy another ... instead": the play's
    # `replace` (D3-7, D4-7) names the card its `instead` selector picks
    "destroy_replace",
    # "Neither player can Special Summon" (Fossil Dyna Pachycephalo): the players it names (`player`,
    # as a lock's) Special Summon nothing, and their effects that must Special Summon are not
    # activated (GEN-19)
    "lock_special_summon",
    # "While this card is face-up on the field its Attribute is also treated as DARK" (Light and
    # Darkness Dragon): its own card has `attribute` besides its printed one (EFFECT_ADD_ATTRIBUTE)
    "add_attribute",
    # "Your opponent cannot banish cards from either GY" (Kycoo the Ghost Destroyer): the players it
    # names (`player`, as a lock's) banish no card from a Graveyard, by an effect or as a cost, and
    # do not target one to banish it (EFFECT_CANNOT_REMOVE on cards in LOCATION_GRAVE)
    "lock_graveyard_banish",
    # "Negate the effects of face-up monsters while your opponent controls them" (Destiny HERO -
    # Plasma): a monster's; the monsters its controller's opponent controls (EFFECT_DISABLE on the
    # opponent's Monster Zone), read after the Spell/Trap negations (effects.monster_effects_negated)
    "negate_opponent_monster_effects",
    # "If the equipped monster battles an opponent's monster, ... its effect(s) is negated" (Rainbow
    # Veil, an Equip Spell: `on` equipped): the monster battling the equipped monster, while they battle
    "negate_battle_opponent",
)
HALVING = ("atk_halve", "def_halve")
MAX_HALVINGS = 3   # halvings one monster's ATK or DEF takes; more apply as 3
SELF_ONLY_CONTINUOUS = ("self_destruct", "remove_counter_instead", "counter_after_battle", "leave_field_redirect",
                        "destroy_replace", "add_attribute")   # `on` is "self"
REDIRECTS = ("graveyard_redirect", "battle_destroyed_redirect", "leave_field_redirect")   # take `to`
REDIRECT_TO = ("banished", "deck")   # where a redirect sends the card (a vocab.LOCATIONS name)
# what a continuous modifier's amount is multiplied by: nothing, the counters on its own card
# ("This card gains 500 ATK for each counter on it"), or the cards its `count` selector picks
# ("This card gains 1000 ATK for each Normal Monster in your GY")
CONTINUOUS_PER = ("none", "counter", "count")
CN = {name: i for i, name in enumerate(CONTINUOUS)}
MAX_CONTINUOUS = 2       # continuous effects per card the relation has slots for
# equipped: the monster this Equip Card is equipped to (GEN-20); attackers: each of the opponent's
# monsters that attacked while it applied, as long as it applies (a halving only: "Mirror Wall";
# State.recorded); battle_opponent: the monster this card battles (a battle_destroyed_redirect only:
# "monsters destroyed by battle with this card", Dark Magician of Chaos)
CONTINUOUS_ON = ("self", "all", "equipped", "attackers", "battle_opponent")
POSITIONS = ("attack", "defense")   # the battle position a position_lock imposes
LOCK_FILTERS = ("any", "face_up")   # a position_lock's selector: its own position is not a criterion
LOCKS = ("lock_traps", "lock_spells", "lock_spells_traps", "lock_special_summon", "lock_graveyard_banish")
LOCK_PLAYERS = ("both", "opponent")   # whose activations a lock refuses (stored as its select side)
GAME_CONTINUOUS = LOCKS + ("negate_monster_effects", "no_battle_damage", "graveyard_redirect",
                           "negate_opponent_monster_effects")   # about the game, a player or every card: no `on`
# applied while their card is face-up on the field, with no condition: whether they apply is read by
# every condition's atoms (a card's Attribute, whether its effects are negated), so a condition of
# their own could read itself
UNCONDITIONAL = ("add_attribute", "negate_monster_effects", "negate_trap_effects", "negate_opponent_monster_effects",
                 "negate_battle_opponent")

# A monster's Summoning conditions (a card's `summoning_condition`): not an effect, so they apply
# wherever the card is, face-up or not, and nothing negates them. "cannot_be_special_summoned":
# "Cannot be Special Summoned" (Ancient Gear Golem): no effect Special Summons it (GEN-19)
SUMMONING_CONDITIONS = ("cannot_be_special_summoned",)

# Battle damage modifiers (BD-1, S2 63-75), in the order BD-1 applies them.
BATTLE_DAMAGE_MODIFIERS = (
    "none",
    "double",             # (1) inflict double battle damage
    "both_take",          # (2) both players take the battle damage
    "redirect_to_opponent",  # (3) battle damage you would take is taken by your opponent instead
    "opponent_also_takes",   # (3) your opponent also takes it
    "redirect_to_self",      # (3) battle damage to your opponent is taken by you instead
    "gain_instead",       # (4) gain LP instead of taking damage
    "double_taken",       # (5) battle damage is doubled
    "halve_taken",        # (5) battle damage is halved
    "opponent_damage_zero",  # (6) battle damage to the opponent from this card becomes 0
)

# A continuous effect that applies only at damage calculation (D3-4, T4).
CALC_MODIFIER_WHEN = ("always", "attacker_lower")  # "attacker_lower": attack target's ATK is higher

MAX_CHAIN = 8          # Chain Links the state can hold
MAX_CARDS = 24         # card instances in one play
MAX_PLAY_EFFECTS = 32  # activatable effects of one play's cards: the relation grows with each (docs/robustness.md)
MAX_ACTIONS = 10_000   # actions in one play
MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_CATALOGUE_BYTES = 48 * 1024 * 1024   # a card catalogue (an imported pool is much larger than a play)

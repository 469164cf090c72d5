"""Set-ups the symbolic commands search from: real catalogue cards, few of them.

A search is exhaustive only over the cards it is given, so these set-ups are chosen to hold
between them the cards the rule sets treat differently (a Flip monster, an optional Trigger
Effect, "Flashbang" after a direct attack, a Counter Trap, an ATK/DEF changer, a battle-damage
modifier pair, a replacement-for-destruction effect, a Fusion Summon trigger on being Special
Summoned, Traps for the end of the Damage Step). Each has an opening (action lines, written in the finer
`tcg` sub-steps; `diff` drops the `next` lines the coarser set does not have) so that a short
search starts where its cards matter. Small set-ups keep the search small (at most 8 cards and 4 effects:
two size buckets of `step.relation`); a card with a discard cost has a card in the hand to pay it.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Scenario:
    name: str
    about: str
    setup: str          # set-up lines of a play file
    opening: tuple      # action lines played before the search starts


SCENARIOS = (
    Scenario(
        "battle-step",
        "from the Battle Step: a face-down Flip monster to attack, a Set ATK/DEF changer, a Counter Trap",
        'A monster "Dark Magician"\n'
        'B monster "Ryko, Lightsworn Hunter" face-down defense\n'
        'A set "Rising Energy"\n'
        'B set "Magic Jammer"\n'
        'A hand "Blue-Eyes White Dragon"\n'   # each one's discard cost (card text)
        'B hand "Blue-Eyes White Dragon"\n',
        ("enter battle phase", "next"),
    ),
    Scenario(
        "damage-calculation",
        "from damage calculation: an optional Trigger Effect (\"D.D. Warrior Lady\") and a Counter Trap",
        'A monster "Dark Magician"\n'
        'B monster "D.D. Warrior Lady"\n'
        'A set "Magic Jammer"\n'
        'A hand "Blue-Eyes White Dragon"\n',   # Magic Jammer's discard cost (card text)
        ("enter battle phase", "next", 'attack "Dark Magician" -> "D.D. Warrior Lady"',
         "next", "next", "next", "next"),
    ),
    Scenario(
        # Flashbang answers battle damage from a direct attack by an opponent's monster (its OCG
        # text and script), so it has a battle of its own
        "direct-damage",
        "from damage calculation of a direct attack: \"Flashbang\" for the battle damage its controller takes",
        'A monster "Dark Magician"\n'
        'B set "Flashbang"\n',
        ("enter battle phase", "next", 'attack "Dark Magician" direct', "next", "next", "next", "next"),
    ),
    Scenario(
        "battle-damage-modifiers",
        "from damage calculation: the BD-2 pair, whose battle damage depends on the modifier order",
        'A monster "Elemental HERO Neos Knight" as Knight\n'
        'B monster "Amazoness Swords Woman" as Amazoness\n',
        ("enter battle phase", "next", "attack Knight -> Amazoness", "next", "next", "next", "next"),
    ),
    Scenario(
        "replacement",
        "from damage calculation: a monster destroyed by battle and a replacement-for-destruction "
        "effect (\"The Six Samurai - Zanji\"'s)",
        'A monster "The Six Samurai - Zanji" as Zanji\n'
        'A monster "The Six Samurai - Irou" as Irou\n'
        'B monster "Blue-Eyes White Dragon" as BEWD\n',
        ("enter battle phase", "next", "attack Zanji -> BEWD", "next", "next", "next", "next"),
    ),
    Scenario(
        "summoned-in-damage-step",
        "from the end of the Damage Step: a monster destroyed by battle, \"Time Machine\" to revive it, "
        "and its Fusion Summon trigger on being Special Summoned (the OCG printing of \"Fallen of Albaz\")",
        'A monster "Dark Magician"\n'
        'B monster "Fallen of Albaz (OCG text)" as Albaz\n'
        'B set "Time Machine"\n',
        ("enter battle phase", "next", 'attack "Dark Magician" -> Albaz',
         "next", "next", "next", "next", "next", "next", "next"),
    ),
    Scenario(
        "end-of-damage-step",
        "from the end of the Damage Step: a monster destroyed by battle and two Traps that respond to it",
        'A monster "Dark Magician"\n'
        'A monster "Blue-Eyes White Dragon"\n'   # a face-up monster left for Chthonian Blast to destroy
        'B monster "Kuriboh"\n'
        'B set "Michizure"\n'
        'B set "Chthonian Blast"\n',
        ("enter battle phase", "next", 'attack "Dark Magician" -> "Kuriboh"',
         "next", "next", "next", "next", "next", "next", "next"),
    ),
)

"""What a verdict does not weigh: the parts of a card's text the effect model does not hold.

A catalogue entry says in an effect's `not_modelled` what its text does that the model has no
state for (a counter, a random choice). The verdict is exact about everything
else, but a judge must know when such a part could have changed the answer, so the verdict names
the parts a play touches: every effect it activates, and every continuous effect of a card it
sets up (a continuous effect is never activated; it applies while its card is face-up, and a
face-down card can be flipped during the play).
"""
from __future__ import annotations


def not_modelled(play, cards: dict, upto: int | None = None) -> list[str]:
    """"CARD (effect N): WHAT" for each part the play touches, in set-up order, each once; `upto`:
    only the actions to that one (1-based; an illegal play's verdict rests on no later action)."""
    names = {spec.label: spec.name for spec in play.cards}
    touched = {(names[a.card], a.effect) for a in play.actions[:upto] if a.kind == "activate" and a.card in names}
    out = []
    for name in dict.fromkeys(spec.name for spec in play.cards):
        card = cards.get(name)
        for k, e in enumerate(card.effects if card else (), 1):
            if e.not_modelled and (e.kind == "continuous" or (name, k) in touched):
                out.append(f"{name} (effect {k}): {e.not_modelled}")
    return out

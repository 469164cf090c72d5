"""A verdict never rests on a property an import left unknown.

Imported catalogue entries (checks/cards/importer.py) list in `unknown` what the card database and
scripts did not settle; those properties sit at the catalogue defaults, which may be wrong
either way. A play that sets up such a card therefore gets "unknown" (exit 3) instead of
"legal" or "illegal", with the card and the properties named, so that a person can fill them in
and delete them from the list.
"""
from __future__ import annotations

from ygo_timing.cards import catalogue


def demote(verdict, play, cards_files=()):
    if verdict.verdict not in ("legal", "illegal") or not any(cards_files):
        return verdict
    try:
        cards = catalogue.catalogue(cards_files)
    except catalogue.CatalogueError:
        return verdict   # already reported by the check itself
    inline = {c.get("name") for c in play.custom_cards if isinstance(c, dict)}
    open_ = []
    for spec in play.cards:
        card = cards.get(spec.name)
        if card is None or spec.name in inline or not card.unknowns():
            continue
        open_.append(f"{spec.name!r} ({', '.join(card.unknowns()[:8])}"
                     + (", ..." if len(card.unknowns()) > 8 else "") + ")")
    if not open_:
        return verdict
    was = verdict.verdict
    verdict.verdict = "unknown"
    verdict.message = (f"{play.path}: no verdict: the catalogue leaves properties of "
                       f"{'; '.join(open_)} unknown (imported entries; set them and remove them from "
                       f"'unknown'). With the defaults the play would be {was}.")
    return verdict

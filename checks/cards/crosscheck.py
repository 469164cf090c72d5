"""Imported entries against the hand-written ones: the passcode joins a built-in card (its
`passcode`) to the card pool's id, and each property the import derived is compared with the
entry (docs/cards.md, "Imported and hand-written entries compared").

Effects are paired by kind and where they are activated from (script order and the catalogue's
order differ); an effect with no single partner is counted as unpaired, never compared.
Properties the import left unknown are counted apart: they are neither agreement nor
disagreement.
"""
from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field

CARD_PROPS = ("type", "subtype", "atk", "def", "level", "attribute")
EFFECT_PROPS = ("mandatory", "atk_def", "negates_activation", "timings", "condition", "cost", "target", "operations")
DEFAULTS = {"condition": "none", "cost": [], "target": None, "operations": [], "timings": [],
            "negates_activation": "none", "atk_def": "none", "mandatory": False}


@dataclass
class Comparison:
    cards: int = 0                 # built-in cards whose passcode the pool has
    unpaired: int = 0              # built-in effects without a single imported partner
    counts: dict = field(default_factory=dict)   # property -> Counter(agree=, differ=, unknown=)
    differences: list = field(default_factory=list)   # (card, effect number or None, property, built-in, imported)

    def as_dict(self) -> dict:
        return {"cards": self.cards, "unpaired_effects": self.unpaired,
                "by_property": {p: dict(c) for p, c in self.counts.items()},
                "differences": [{"card": c, "effect": k, "property": p, "built_in": b, "imported": i}
                                for c, k, p, b, i in self.differences]}


def _same(a, b) -> bool:
    return json.dumps(_normal(a), sort_keys=True) == json.dumps(_normal(b), sort_keys=True)


# an operation's fields at their defaults (docs/cards-format.md), which one side may leave out
OPERATION_DEFAULTS = {"on": "self", "then": False}


def _normal(v):
    """The meaning of a property, not its spelling: the atoms of an "all" / "any" in any order,
    an operation's default fields left out."""
    if isinstance(v, dict):
        out = {k: _normal(x) for k, x in v.items()
               if not ("do" in v and OPERATION_DEFAULTS.get(k, object()) == x)}
        for k in ("all", "any"):
            if isinstance(out.get(k), list):
                out[k] = sorted(out[k], key=lambda x: json.dumps(x, sort_keys=True))
        return out
    if isinstance(v, list):
        return [_normal(x) for x in v]
    return v


def compare(records, builtin: dict) -> Comparison:
    """`records`: importer.Record list; `builtin`: a catalogue document ({"cards": [...]})."""
    by_id = {r.id: r.entry for r in records}
    out = Comparison(counts={p: Counter() for p in CARD_PROPS + tuple(f"effect.{p}" for p in EFFECT_PROPS)})
    for card in builtin["cards"]:
        imp = by_id.get(card.get("passcode"))
        if imp is None:
            continue
        out.cards += 1
        unknown = set(imp.get("unknown", ()))
        for p in CARD_PROPS:
            if p in unknown or (p in ("atk", "def", "level", "attribute") and card["type"] != "monster"):
                continue
            _count(out, card["name"], None, p, card.get(p), imp.get(p))
        theirs = [e for e in imp["effects"] if e["kind"] != "continuous"]
        for k, e in enumerate((e for e in card["effects"] if e["kind"] != "continuous"), 1):
            partners = [i for i in theirs if (i["kind"], i.get("from", "field")) == (e["kind"], e.get("from", "field"))]
            if len(partners) != 1:
                out.unpaired += 1
                continue
            i, eunk = partners[0], set(partners[0].get("unknown", ()))
            for p in EFFECT_PROPS:
                if p in eunk:
                    out.counts[f"effect.{p}"]["unknown"] += 1
                    continue
                _count(out, card["name"], k, f"effect.{p}", e.get(p, DEFAULTS[p]), i.get(p, DEFAULTS[p]))
    return out


def _count(out, name, k, prop, built_in, imported):
    if _same(built_in, imported):
        out.counts[prop]["agree"] += 1
    else:
        out.counts[prop]["differ"] += 1
        out.differences.append((name, k, prop, built_in, imported))


def text_report(c: Comparison) -> str:
    lines = [f"{c.cards} built-in cards found in the pool by passcode; {c.unpaired} effect(s) without a single partner",
             "property                     agree  differ  unknown (import)"]
    for p, n in c.counts.items():
        lines.append(f"  {p:<26} {n['agree']:>5}  {n['differ']:>6}  {n['unknown']:>7}")
    for name, k, p, b, i in c.differences:
        where = f"effect {k} " if k else ""
        lines.append(f"{name}: {where}{p}: built-in {json.dumps(b)}; imported {json.dumps(i)}")
    return "\n".join(lines)

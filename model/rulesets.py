"""Rule sets are data: model/rulesets/<name>.json names the rules and the tables."""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

NAMES = ("ocg", "tcg")


@dataclass(frozen=True)
class RuleSet:
    name: str
    description: str
    rules: tuple[str, ...]
    damage_step: tuple[str, ...]
    calc_window: str
    flip: dict
    flip_effect_needs_field: bool
    transitions: tuple[dict, ...]
    timing_grants: tuple[dict, ...]
    atk_windows: tuple[dict, ...]

    def __hash__(self):
        return hash(self.name)


@lru_cache(maxsize=None)
def load(name: str) -> RuleSet:
    if name not in NAMES:
        raise ValueError(f"unknown rule set {name!r}: expected one of {', '.join(NAMES)}")
    text = resources.files(__package__).joinpath("rulesets", f"{name}.json").read_text("utf-8")
    d = json.loads(text)
    return RuleSet(d["name"], d["description"], tuple(d["rules"]), tuple(d["damage_step"]),
                   d["calc_window"], d["flip"], d["flip_effect_needs_field"],
                   tuple(d["transitions"]), tuple(d["timing_grants"]), tuple(d["atk_windows"]))


def membership() -> dict[str, list[str]]:
    """rule ID -> the rule sets that contain it."""
    out: dict[str, list[str]] = {}
    for name in NAMES:
        for rid in load(name).rules:
            out.setdefault(rid, []).append(name)
    return out

"""The effect model of one imported effect, read statically off its script's functions."""
from __future__ import annotations

from ygo_timing.cards.scriptmodel.conditions import condition, condition_atoms
from ygo_timing.cards.scriptmodel.continuous_effects import CONTINUOUS, continuous, summoning_condition
from ygo_timing.cards.scriptmodel.costs import cost
from ygo_timing.cards.scriptmodel.luatext import UNKNOWN
from ygo_timing.cards.scriptmodel.operation_calls import operations
from ygo_timing.cards.scriptmodel.targets import target, target_check_is_condition_free

__all__ = ["UNKNOWN", "cost", "target", "target_check_is_condition_free", "operations", "condition_atoms",
           "condition", "continuous", "CONTINUOUS", "summoning_condition"]

"""The rules, one module per family. Update priority is declared on each update (`priority=`,
lower wins; model/step.py sorts by it), so the order of this import line does not matter."""
from . import (  # noqa: F401
    activation,
    battle,
    calc,
    chain,
    continuous,
    costs,
    damage_step,
    general,
    ocg,
    resolution,
    tcg,
    triggers,
)
from .base import RULES, Ctx, Rule, Update  # noqa: F401

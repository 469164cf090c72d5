"""The rules, one module per family. Update priority is declared on each update (`priority=`,
lower wins; model/step.py sorts by it), so the order of this import line does not matter."""
from . import activation, battle, calc, chain, damage_step, general, ocg, resolution, tcg, triggers  # noqa: F401
from .base import RULES, Ctx, Rule, Update  # noqa: F401

"""The rules, one module per family. Import order is update priority: when two updates
of one variable both apply, the one registered first wins (AB-1 before resolutions)."""
from . import chain, battle, calc, resolution, damage_step, ocg, tcg, general  # noqa: F401
from .base import RULES, Ctx, Rule, Update  # noqa: F401

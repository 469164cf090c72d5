"""The rules, one module per family. Import order is update priority: when two updates
of one variable both apply, the one registered first wins: AB-1 (calc) and D2-5 (ocg) come
before the resolutions they override."""
from . import chain, battle, calc, ocg, tcg, resolution, damage_step, general  # noqa: F401, I001 -- order is update priority
from .base import RULES, Ctx, Rule, Update  # noqa: F401

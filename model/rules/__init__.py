"""The rules, one module per family. Import order is update priority: when two updates
of one variable both apply, the one registered first wins: AB-1 (calc) and D2-5 (ocg) come
before the resolutions they override."""
from . import battle, calc, chain, damage_step, general, ocg, resolution, tcg  # noqa: F401
from .base import RULES, Ctx, Rule, Update  # noqa: F401

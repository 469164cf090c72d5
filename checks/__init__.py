"""ygo-timing: Yu-Gi-Oh! Battle Phase timing rules as z3 constraints (docs/api.md).

`import ygo_timing` is cheap: the version and the API (ygo_timing.api) are loaded on first use,
so that a program that only imports the package, or pytest loading the plugin, starts no solver.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:   # what a type checker sees; at run time __getattr__ loads them
    from ygo_timing.api import (
        DEFAULT_TIMEOUT,
        Action,
        CardSource,
        CheckResult,
        Choice,
        Difference,
        DiffResult,
        InputError,
        OptionsResult,
        Rule,
        check_file,
        check_text,
        diff,
        options_file,
        options_text,
    )

    __version__: str

__all__ = [   # a literal list: type checkers read it as the explicit exports
    "__version__", "DEFAULT_TIMEOUT", "Action", "CardSource", "CheckResult", "Choice", "DiffResult", "Difference",
    "InputError", "OptionsResult", "Rule", "check_file", "check_text", "diff", "options_file", "options_text",
]
_API = frozenset(__all__) - {"__version__"}


def __getattr__(name: str) -> Any:
    if name == "__version__":   # one source of truth: the version in pyproject.toml, as installed
        from importlib.metadata import version
        return version("ygo-timing")
    if name in _API:
        from ygo_timing import api
        return getattr(api, name)
    raise AttributeError(f"module 'ygo_timing' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))

"""The disk cache of what the model builds slowly (the compiled relation's bytecode, the solver
relation's SMT-LIB): where it lives and how an entry is keyed and written.

A key hashes the entry's format, z3's version, the rule set, the sizes, the removed rules and
every source file of the model, so a change to any rule makes a new entry. The directory is
$YGO_TIMING_CACHE, else ~/.cache/ygo-timing: as trusted as the user's home (compiled code
found there is run); `YGO_TIMING_CACHE=` (empty) turns the cache off.
"""
from __future__ import annotations

import hashlib
import os
import tempfile
from functools import lru_cache
from pathlib import Path

import z3

ROOT = Path(__file__).parent


def key(fmt: str, name: str, ncards: int, neffects: int, without: frozenset, nwatched: int = 0) -> str:
    h = hashlib.sha256(f"{fmt}|{z3.get_version_string()}|{name}|{ncards}|{neffects}|"
                       f"{sorted(without)}|{nwatched}|{sources()}".encode())
    return h.hexdigest()[:32]


@lru_cache(maxsize=1)
def sources() -> str:
    """A hash of the model's source files, read once per process."""
    h = hashlib.sha256()
    for p in sorted(ROOT.rglob("*.py")) + sorted(ROOT.glob("rulesets/*.json")):
        h.update(p.relative_to(ROOT).as_posix().encode())
        h.update(p.read_bytes())
    return h.hexdigest()


def folder() -> Path | None:
    """$YGO_TIMING_CACHE, else the user cache directory; None disables the disk cache."""
    env = os.environ.get("YGO_TIMING_CACHE")
    if env is not None:
        return Path(env) if env else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "ygo-timing"


def entry(fmt: str, relation: tuple, filename: str) -> Path | None:
    """Where the cache keeps `relation` (rule set, sizes, removed rules, watched slots) in format
    `fmt`: `filename` with its {digest}; None without a cache, or for removed rules (one-off: not
    worth the disk)."""
    where = folder()
    if where is None or relation[3]:
        return None
    return where / filename.format(digest=key(fmt, *relation))


def write_atomically(path: Path, data: bytes):
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError:   # a read-only home is no reason to fail a check
        pass

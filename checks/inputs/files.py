"""Which files a command reads: play files found under the paths given, and the built-in examples."""
from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import click
from ygo_timing.inputs.play import PlayError
from ygo_timing.model import vocab


class NoPlayFiles(click.UsageError):
    """A path that names no play file: a usage error (exit 2) of whichever command was given it."""
    exit_code = 2


PLAY_SUFFIXES = (".play", ".json")


def play_files(paths):
    """Every play file named, directories searched recursively, in a stable order."""
    out = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            found = sorted(f for f in path.rglob("*")
                           if f.is_file() and f.suffix in PLAY_SUFFIXES and not is_catalogue(f))
            if not found:
                raise NoPlayFiles(f"no play files (*.play, *.json) under {p}")
            out += found
        elif path.exists():
            out.append(path)
        else:
            raise NoPlayFiles(f"no such file or directory: {p}")
    return out


def is_catalogue(path: Path) -> bool:
    """A card catalogue ({"cards": [...]} and nothing else) met while walking a directory."""
    if path.suffix != ".json":
        return False
    if path.stat().st_size > vocab.MAX_FILE_BYTES:   # no play is this large; an imported card pool is
        with open(path, "rb") as f:
            return f.read(64).lstrip().startswith(b'{"cards"')
    try:
        doc = json.loads(path.read_bytes())
    except (ValueError, RecursionError):   # deep nesting: the play parser reports it
        return False
    return isinstance(doc, dict) and set(doc) == {"cards"}


def builtin_examples():
    root = resources.files("ygo_timing.data").joinpath("plays", "examples")
    return sorted(str(p) for p in Path(str(root)).glob("*.play"))


def jsonl_items(stream, name: str):
    """(name, line number, bytes) for each non-blank line of a binary stream; a line longer
    than a play file may be is passed on as its PlayError, and skipped without being held."""
    limit = vocab.MAX_FILE_BYTES
    lineno = 0
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        lineno += 1
        if len(line) > limit and not line.endswith(b"\n"):
            while line and not line.endswith(b"\n"):   # drop the rest of the overlong line
                line = stream.readline(limit)
            yield name, lineno, PlayError(name, lineno, f"line is longer than the limit of {limit} bytes")
            continue
        if line.strip():
            yield name, lineno, line

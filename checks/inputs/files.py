"""Which files a command reads: play files found under the paths given, and the built-in examples."""
from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import click
from ygo_timing.errors import InputError
from ygo_timing.inputs import fileio
from ygo_timing.inputs.play import PlayError
from ygo_timing.model import vocab


class NoPlayFiles(click.UsageError):
    """A path that names no play file: a usage error (exit 2) of whichever command was given it."""
    exit_code = 2


PLAY_SUFFIXES = (".play", ".json")


def play_files(paths, follow_symlinks: bool = False, warn=None):
    """Every play file named, directories searched recursively, in a stable order. A walk does
    not follow symbolic links unless asked (a link to a secret must not be read, and its text
    echoed in an error); each link skipped is named, never read, through `warn`."""
    warn = warn or (lambda m: click.echo(f"warning: {m}", err=True))
    out = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            found, links = fileio.walk(path, follow_symlinks)
            for link in links:
                if link.suffix in PLAY_SUFFIXES or link.is_dir():
                    warn(f"{link}: a symbolic link, not followed (--follow-symlinks to check it)")
            found = [f for f in found if f.suffix in PLAY_SUFFIXES and not is_catalogue(f)]
            if not found:
                raise NoPlayFiles(f"no play files (*.play, *.json) under {p}")
            out += found
        elif path.exists() or path.is_symlink():
            out.append(path)   # named by the user: read (or refused) as a play
        else:
            raise NoPlayFiles(f"no such file or directory: {p}")
    return out


def is_catalogue(path: Path) -> bool:
    """A card catalogue met while walking a directory: strict JSON (no duplicate key, no NaN)
    holding {"cards": [...]} and nothing else. Anything else is a play, and the play parser
    reports what is wrong with it: a broken file is never skipped in silence."""
    if path.suffix != ".json":
        return False
    try:
        if not CATALOGUE_START.match(fileio.read_regular(path, 4096)):
            return False
        data = fileio.read_regular(path, vocab.MAX_CATALOGUE_BYTES)
        if len(data) > vocab.MAX_CATALOGUE_BYTES:
            return False
        doc = json.loads(data, object_pairs_hook=_unique_keys, parse_constant=_no_constant)
    except (InputError, ValueError, RecursionError):   # the play parser reports it
        return False
    return isinstance(doc, dict) and set(doc) == {"cards"} and isinstance(doc["cards"], list)


CATALOGUE_START = re.compile(rb'\s*\{\s*"cards"\s*:')


def _unique_keys(pairs):
    keys = [k for k, _ in pairs]
    if len(set(keys)) != len(keys):
        raise ValueError("duplicate key")
    return dict(pairs)


def _no_constant(name):
    raise ValueError(f"{name} is not JSON")


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
        if line.strip():   # without its line end: an error at the end of the record is on its line
            yield name, lineno, line.removesuffix(b"\n").removesuffix(b"\r")

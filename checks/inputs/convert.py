"""`ygo-timing convert`: plays between the text form, the JSON form and JSON Lines.

JSON Lines holds one play per line in the JSON form (docs/format.md), which is what
`check --jsonl` reads. Conversion is all or nothing: every input play is parsed before
anything is written, so a bad play never leaves half an output behind.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from ygo_timing.inputs import fileio
from ygo_timing.inputs.files import jsonl_items
from ygo_timing.inputs.play import Play, PlayError, load, parse_json, to_json, to_text

FORMATS = ("json", "jsonl", "play")
SUFFIX = {"json": ".json", "play": ".play"}


class ConvertError(Exception):
    """A usage problem (not a bad play): where the output would go."""


def read_jsonl(stream, path: str):
    """The plays of a JSON Lines stream (binary), one per non-blank line; errors name the line."""
    for _, lineno, data in jsonl_items(stream, path):
        if isinstance(data, PlayError):
            raise data
        yield lineno, parse_json(data, path, first_line=lineno)


def read(path: str, follow_symlinks: bool = False) -> list[tuple[str, Play]]:
    """(name for a written file, play) for every play PATH holds: `-` or *.jsonl is JSON Lines,
    a directory every play file under it, anything else one play file."""
    from ygo_timing.inputs.files import play_files
    if path == "-":
        return _numbered("stdin", list(read_jsonl(sys.stdin.buffer, "<stdin>")))
    p = Path(path)
    if p.is_file() and p.suffix.lower() == ".jsonl":
        with open(p, "rb") as f:
            return _numbered(p.stem, list(read_jsonl(f, path)))
    if p.is_dir():
        return [(str(f.relative_to(p).with_suffix("")), load(str(f)))
                for f in play_files([path], follow_symlinks)]
    if not p.exists():
        raise ConvertError(f"no such file or directory: {path}")
    return [(p.stem, load(path))]


def _numbered(stem, records):
    """Names by line number, zero-padded so that a directory listing keeps the stream's order."""
    width = len(str(records[-1][0])) if records else 1
    return [(f"{stem}-{n:0{width}d}", play) for n, play in records]


def _pretty(doc: dict) -> str:
    """The JSON form laid out like docs/format.md: one set-up entry or action per line."""
    items = []
    for key, val in doc.items():
        if isinstance(val, list) and val and all(isinstance(x, dict) for x in val):
            inner = ",\n".join("    " + json.dumps(x, ensure_ascii=False) for x in val)
            items.append(f"  {json.dumps(key)}: [\n{inner}\n  ]")
        else:
            items.append(f"  {json.dumps(key)}: {json.dumps(val, ensure_ascii=False)}")
    return "{\n" + ",\n".join(items) + "\n}\n"


def render(play: Play, to: str) -> str:
    if to == "play":
        return to_text(play)
    if to == "json":
        return _pretty(to_json(play))
    # ASCII only: no line separator a JSON Lines reader might split on can occur in a record
    return json.dumps(to_json(play), ensure_ascii=True, separators=(",", ":")) + "\n"


def convert(path: str, to: str, out: str | None, echo, follow_symlinks: bool = False) -> list[str]:
    """Convert; returns the files written (none when the result went to `echo`). Each file is
    written whole or not at all (fileio.write_atomic), and never through a symbolic link."""
    plays = read(path, follow_symlinks)
    if to == "jsonl" or (len(plays) == 1 and not Path(path).is_dir() and path != "-"
                         and Path(path).suffix.lower() != ".jsonl"):
        text = "".join(render(p, to) for _, p in plays)
        if out is None or out == "-":
            echo(text.rstrip("\n") if text else "")
            return []
        _refuse_to_overwrite_input(Path(out), path)
        _write(Path(out), text)
        return [out]
    if out is None or out == "-":
        raise ConvertError(f"{path} holds {len(plays)} plays: name a directory to write them into "
                           f"with --out DIR (or convert --to jsonl for one stream)")
    root = Path(out)
    if root.exists() and not root.is_dir():
        raise ConvertError(f"--out {out}: not a directory; {path} holds several plays")
    targets = [root / (name + SUFFIX[to]) for name, _ in plays]
    clash = next((t for k, t in enumerate(targets) if t in targets[:k]), None)
    if clash is not None:   # a.play and a.json side by side
        raise ConvertError(f"two plays under {path} would both be written to {clash}")
    for t in targets:
        _refuse_to_overwrite_input(t, path)
    for t, (_, play) in zip(targets, plays):
        try:
            t.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise ConvertError(f"--out {out}: cannot create {t.parent}: {e.strerror or e}") from None
        _write(t, render(play, to), inside=root)
    return [str(t) for t in targets]


def _write(target: Path, text: str, inside=None):
    try:
        fileio.write_atomic(target, text, inside)
    except fileio.WriteError as e:
        raise ConvertError(f"--out: {e}") from None


def _refuse_to_overwrite_input(target: Path, src: str):
    if src == "-" or not target.exists():
        return
    s = Path(src).resolve()
    t = target.resolve()
    if t == s or (s.is_dir() and s in t.parents):
        raise ConvertError(f"--out would overwrite the input {t}; write somewhere else")

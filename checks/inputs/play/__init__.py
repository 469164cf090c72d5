"""Play files: the data model and its two forms.

A play is a Battle Phase written step by step: header facts (rule set, turn,
LP, the verdict it expects), the cards on the field and elsewhere (set-up),
and the actions in order. Two forms carry the same play:

* the text form (`.play`), line-oriented and hand-written -- `parse_text`;
* the JSON form (`.json`) -- `parse_json`.

`load(path)` picks the form by extension. `to_text`/`to_json` write a `Play`
back; each round-trips through its parser. docs/format.md is the reference.

Every problem is a `PlayError` naming the file, the line and what was expected.
This module only reads and writes plays; whether a play is legal is the
solver's business (model/, checks/checking/check.py).
"""
from __future__ import annotations

from ygo_timing.inputs import fileio
from ygo_timing.inputs.play.json_form import decode_bytes, parse_json, to_json
from ygo_timing.inputs.play.model import (
    ACTION_KINDS,
    CALC_VALUES,
    CLAIM_KINDS,
    MAX_NUMBER,
    SETUP_ZONES,
    ZONE_WORDS,
    ActionSpec,
    CardSpec,
    Play,
    PlayError,
    render_ref,
)
from ygo_timing.inputs.play.text import parse_text
from ygo_timing.inputs.play.text_writer import render_action, to_text
from ygo_timing.model import vocab

__all__ = [
    "PlayError", "CardSpec", "ActionSpec", "Play",
    "parse_text", "parse_json", "parse_bytes", "load", "to_json", "to_text", "render_action", "render_ref",
    "ACTION_KINDS", "CLAIM_KINDS", "CALC_VALUES", "ZONE_WORDS", "SETUP_ZONES", "MAX_NUMBER",
]


def load(path: str) -> Play:
    """Read a play file: `.json` is the JSON form, anything else the text form."""
    data = fileio.read_regular(path, vocab.MAX_FILE_BYTES, PlayError)   # a FIFO or device: refused
    return parse_bytes(data, str(path))


def parse_bytes(data: bytes, path: str) -> Play:
    """A play file's bytes (`path` names it): `.json` is the JSON form, anything else the text form."""
    if path.lower().endswith(".json"):
        return parse_json(data, path)
    return parse_text(decode_bytes(data, path), path)

"""`ygo-timing cards import` and `ygo-timing cards audit` (registered on the `cards` group in cli.py).

Exit codes: 0 ok; 1 problems (import: rows or scripts skipped or partly read; audit:
disagreements); 2 input or usage error; 3 (audit) the solver answered unknown somewhere.
"""
from __future__ import annotations

import json
import sys
import time

import click
from ygo_timing.inputs import fileio
from ygo_timing.model import rulesets
from ygo_timing.progress import Progress


def _fail(e):
    click.echo(f"error: {e}", err=True)
    sys.exit(2)


def _load(cdb, scripts, follow_symlinks):
    from ygo_timing.cards import importer as cardimport  # only when a pool is read
    try:
        with Progress("importing cards") as bar:
            return cardimport.import_pool(cdb, scripts, bar, follow_symlinks)
    except cardimport.PoolError as e:
        _fail(e)


def catalogue_text(imported) -> str:
    """The catalogue, one card per line: small diffs between imports, and error lines that point
    at the card."""
    lines = [json.dumps(r.entry, ensure_ascii=False, separators=(",", ":")) for r in imported.records]
    return '{"cards": [\n' + ",\n".join(lines) + "\n]}\n"


def coverage_text(imported, seconds) -> str:
    out = [f"imported {len(imported.records)} cards "
           f"({sum(len(r.entry['effects']) for r in imported.records)} activated effects) in {seconds:.1f} s"]
    for why, n in imported.skipped.most_common():
        out.append(f"  skipped {n}: {why}")
    out.append(f"  {len(imported.warnings)} warning(s)")
    out.append("property coverage (derived / unknown):")
    for prop, c in imported.coverage.items():
        out.append(f"  {prop:32} {c['derived']:7} / {c['unknown']}")
    return "\n".join(out)


@click.command("import", epilog="""\b
Examples:
  ygo-timing cards import --cdb cards.cdb --scripts script/ --out pool.json
  ygo-timing check --cards pool.json duel.play

\b
Exit codes: 0 imported, 1 rows or scripts skipped or partly read (reported), 2 input or usage error.""")
@click.option("--cdb", required=True, type=click.Path(dir_okay=False), help="A cards.cdb (SQLite).")
@click.option("--scripts", type=click.Path(file_okay=False), help="Directory of c<id>.lua scripts (searched recursively).")
@click.option("--out", "out", type=click.Path(dir_okay=False), help="Write the catalogue here (default: standard output).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="Form of the report (coverage, warnings).")
@click.option("--follow-symlinks", is_flag=True, help="Follow symbolic links under --scripts (not by default).")
def import_cmd(cdb, scripts, out, fmt, follow_symlinks):
    """Import a YGOPro/EDOPro card pool as a catalogue usable with --cards."""
    start = time.perf_counter()
    imported = _load(cdb, scripts, follow_symlinks)
    seconds = time.perf_counter() - start
    text = catalogue_text(imported)
    report_to_stderr = out is None
    if out is None:
        click.echo(text, nl=False)
    else:
        try:   # whole or not at all: a kill mid-write leaves the old catalogue
            fileio.write_atomic(out, text)
        except fileio.WriteError as e:
            _fail(e)
    if fmt == "json":
        report = json.dumps({"cards": len(imported.records), "seconds": round(seconds, 2),
                             "skipped": dict(imported.skipped), "warnings": imported.warnings,
                             "coverage": imported.coverage}, indent=1, ensure_ascii=False)
    else:
        report = "\n".join(["warning: " + w for w in imported.warnings] + [coverage_text(imported, seconds)])
    click.echo(report, err=report_to_stderr)
    sys.exit(1 if imported.warnings or imported.skipped.get("malformed row") else 0)


@click.command("audit", epilog="""\b
Examples:
  ygo-timing cards audit --cdb cards.cdb --scripts script/ --ruleset tcg
  ygo-timing cards audit --cdb cards.cdb --scripts script/ --format json

\b
Exit codes: 0 agree, 1 disagreements found, 2 input or usage error, 3 the solver answered unknown.""")
@click.option("--cdb", required=True, type=click.Path(dir_okay=False), help="A cards.cdb (SQLite).")
@click.option("--scripts", required=True, type=click.Path(file_okay=False), help="Directory of c<id>.lua scripts.")
@click.option("--ruleset", type=click.Choice(rulesets.NAMES), help="One rule set (default: each).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--examples", type=click.IntRange(0, 10_000), default=5, show_default=True,
              help="Disagreements shown per rule ID (text form; JSON lists all).")
@click.option("--follow-symlinks", is_flag=True, help="Follow symbolic links under --scripts (not by default).")
def audit_cmd(cdb, scripts, ruleset, fmt, examples, follow_symlinks):
    """Compare, per card and Battle Phase window, our rules with the engine's script flags."""
    from ygo_timing.symbolic import audit as audit_mod
    imported = _load(cdb, scripts, follow_symlinks)
    for w in imported.warnings:
        click.echo(f"warning: {w}", err=True)
    results = []
    for rs in [ruleset] if ruleset else rulesets.NAMES:
        with Progress(f"auditing under {rs}") as bar:
            results.append(audit_mod.audit(imported, rs, bar))
    click.echo(audit_mod.json_report(results) if fmt == "json" else audit_mod.text_report(results, examples))
    if any(r.disagreements for r in results):
        sys.exit(1)
    sys.exit(3 if any(r.solver_unknown for r in results) else 0)


@click.command("compare", epilog="""\b
Examples:
  ygo-timing cards compare --cdb cards.cdb --scripts script/
  ygo-timing cards compare --cdb cards.cdb --scripts script/ --cards house-cards.json --format json

\b
Exit codes: 0 every compared property agrees, 1 some differ, 2 input or usage error.""")
@click.option("--cdb", required=True, type=click.Path(dir_okay=False), help="A cards.cdb (SQLite).")
@click.option("--scripts", required=True, type=click.Path(file_okay=False), help="Directory of c<id>.lua scripts.")
@click.option("--cards", "cards_file", type=click.Path(dir_okay=False),
              help="Compare this catalogue's entries (default: the built-in catalogue).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--follow-symlinks", is_flag=True, help="Follow symbolic links under --scripts (not by default).")
def compare_cmd(cdb, scripts, cards_file, fmt, follow_symlinks):
    """Compare the imported entries with hand-written ones of the same passcode, property by property."""
    from ygo_timing.cards import catalogue, crosscheck
    try:
        cards = catalogue.load_file(cards_file) if cards_file else list(catalogue.builtin().values())
    except catalogue.CatalogueError as e:
        _fail(e)
    imported = _load(cdb, scripts, follow_symlinks)
    result = crosscheck.compare(imported.records, {"cards": [c.to_dict() for c in cards]})
    click.echo(json.dumps(result.as_dict(), indent=1, ensure_ascii=False) if fmt == "json"
               else crosscheck.text_report(result))
    sys.exit(1 if result.differences else 0)


@click.command("migrate", epilog="""\b
Examples:
  ygo-timing cards migrate house-cards.json                 # rewrites the file in place
  ygo-timing cards migrate house-cards.json --out new.json

\b
Exit codes: 0 written, 2 the file is not a catalogue (file:line and what was expected).""")
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--out", "out", type=click.Path(dir_okay=False), help="Write here instead of over PATH.")
def migrate_cmd(path, out):
    """Rewrite a catalogue in the current format (docs/cards-format.md): an effect's old one-operation
    `resolution` becomes `operations`; everything else is kept as read."""
    from ygo_timing.cards import catalogue
    try:
        cards = catalogue.load_file(path)
    except catalogue.CatalogueError as e:
        _fail(e)
    old = sum(1 for c in cards for e in c.effects if e.legacy)
    text = json.dumps({"cards": [c.to_dict() for c in cards]}, indent=2, ensure_ascii=False) + "\n"
    try:   # whole or not at all
        fileio.write_atomic(out or path, text)
    except fileio.WriteError as e:
        _fail(e)
    click.echo(f"{out or path}: {len(cards)} cards written; {old} effect(s) had the old 'resolution' form", err=True)

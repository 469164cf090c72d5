"""The `ygo-timing` command.

Exit codes: 0 all legal, 1 any illegal, 2 input or usage error, 3 solver unknown.
"""
from __future__ import annotations

import json
import sys
from importlib import resources
from pathlib import Path

import click

from . import batch, cardcli, catalogue, ci_formats, convert, report
from .check import DEFAULT_RLIMIT, DEFAULT_TIMEOUT_MS, rule_info
from .model import rulesets, vocab
from .model.rules import RULES
from .play import PlayError

PLAY_SUFFIXES = (".play", ".json")


class UsageError(click.UsageError):
    exit_code = 2


def play_files(paths):
    """Every play file named, directories searched recursively, in a stable order."""
    out = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            found = sorted(f for f in path.rglob("*")
                           if f.is_file() and f.suffix in PLAY_SUFFIXES and not is_catalogue(f))
            if not found:
                raise UsageError(f"no play files (*.play, *.json) under {p}")
            out += found
        elif path.exists():
            out.append(path)
        else:
            raise UsageError(f"no such file or directory: {p}")
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


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main():
    """Yu-Gi-Oh! Battle Phase timing rules as z3 constraints."""


@main.command()
@click.argument("paths", nargs=-1)
@click.option("--ruleset", type=click.Choice(rulesets.NAMES), help="Rule set (default: the file's own, else ocg).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", *ci_formats.FORMATS]), default="text",
              show_default=True, help="junit, github and sarif are for CI (docs/ci.md).")
@click.option("--cards", "cards_files", multiple=True, type=click.Path(dir_okay=False),
              help="A catalogue file adding or overriding cards (repeatable).")
@click.option("--examples", is_flag=True, help="Check the built-in worked examples (EX-1..EX-4, BD-2, D5-4, D5-5).")
@click.option("--jsonl", "jsonl", metavar="FILE|-",
              help="Read plays as JSON Lines (one JSON-form play per line; - is standard input) and "
                   "write one JSON result per line, in input order, as they are checked.")
@click.option("--jobs", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Check in this many processes.")
@click.option("--verify", is_flag=True,
              help="Replay legal plays through the solver as well (illegal ones always are).")
@click.option("--timeout", "timeout_ms", type=click.IntRange(1, 600_000), default=DEFAULT_TIMEOUT_MS,
              show_default=True, help="Solver time limit per query, in milliseconds.")
@click.option("--rlimit", type=click.IntRange(1, 10**12), default=DEFAULT_RLIMIT, show_default=True,
              help="Solver resource limit per query (z3 rlimit: unlike the time limit, the same on every machine).")
def check(paths, ruleset, fmt, cards_files, examples, jsonl, jobs, verify, timeout_ms, rlimit):
    """Check play files (a directory means every .play/.json file under it)."""
    names = list(paths) + (builtin_examples() if examples else [])
    if not names and not jsonl:
        raise UsageError("name at least one play file or directory (or --examples, or --jsonl FILE)")
    if names and jsonl:
        raise UsageError("--jsonl reads plays from its file alone; name no other play files")
    for f in cards_files:   # a bad --cards file is a usage error before anything is checked
        try:
            catalogue.load_file(f)
        except catalogue.CatalogueError as e:
            click.echo(f"error: {e}", err=True)
            sys.exit(2)
    opts = batch.Options(ruleset, tuple(cards_files), timeout_ms, rlimit, verify=verify)
    if jsonl:
        if fmt not in ("text", "json"):
            raise UsageError(f"--jsonl writes JSON Lines; --format {fmt} needs play files")
        kinds = set()
        for v in batch.ordered_map(batch.checker("jsonl", opts), _jsonl_items(jsonl), jobs):
            kinds.add(v.verdict)
            click.echo(json.dumps(v.to_dict(), ensure_ascii=False))
    else:
        verdicts = list(batch.ordered_map(batch.checker("path", opts), play_files(names), jobs))
        kinds = {v.verdict for v in verdicts}
        out = ci_formats.FORMATS[fmt](verdicts) if fmt in ci_formats.FORMATS else (
            report.as_json(verdicts) if fmt == "json" else report.text(verdicts))
        if out:   # a clean run in the github format prints nothing
            click.echo(out)
    sys.exit(2 if "error" in kinds else 3 if "unknown" in kinds else 1 if "illegal" in kinds else 0)


def _jsonl_items(name):
    if name == "-":
        yield from batch.jsonl_items(sys.stdin.buffer, "<stdin>")
        return
    try:
        stream = open(name, "rb")
    except OSError as e:
        raise UsageError(f"cannot read {name}: {e.strerror or e}") from None
    with stream:
        yield from batch.jsonl_items(stream, name)


def rule_order():
    """Rule IDs in the order of rules.md: the rule sets' lists, then the tool's own GEN-*."""
    order = []
    for name in rulesets.NAMES:
        order += [r for r in rulesets.load(name).rules if r not in order]
    family = {"CH": 0, "PR": 1, "BP": 2, "ST": 3, "BS": 4, "ES": 5, "DS": 6, "D1": 7, "D2": 8, "D3": 9,
              "D4": 10, "D5": 11, "T1": 12, "T2": 12, "T3": 12, "T4": 12, "T5": 12, "T6": 12, "T7": 12,
              "DC": 13, "AB": 14, "BD": 15, "GEN": 16}

    def key(rid):
        head, _, tail = rid.partition("-")
        digits = "".join(ch for ch in tail if ch.isdigit())
        return (family.get(head, 99), head, tail.startswith(("T", "H")), int(digits or 0), tail)
    return sorted(order, key=key)


def rule_catalogue(ruleset=None):
    """One entry per rule ID, in rules.md order."""
    info, member = rule_info(), rulesets.membership()
    out, by_id = [], {}
    for r in RULES:
        by_id.setdefault(r.id, r)
    for rid in rule_order():
        r = by_id[rid]
        parts = [p for p in RULES if p.id == r.id]
        entry = dict(info[r.id])
        entry["id"] = entry.pop("rule")
        entry["rulesets"] = member.get(r.id, [])
        entry["shapes"] = sorted({p.shape for p in parts})
        entry["expressible"] = "partial" if any(p.expressible == "partial" for p in parts) else "full"
        entry["note"] = " ".join(p.note for p in parts if p.note)
        entry["family"] = r.family
        if ruleset is None or ruleset in entry["rulesets"]:
            out.append(entry)
    return out


def rules_markdown(entries):
    """docs/rules.md: the catalogue for people (generated; tests keep it in sync)."""
    out = ["# Rules catalogue", "",
           "Generated by `ygo-timing rules --format markdown` from the rule metadata in `model/rules/`",
           "and the rule sets in `model/rulesets/`. Do not edit by hand.", "",
           "Shapes: *restriction* (a constraint every step must meet), *permission* (grants a gate",
           "asks for), *update* (how the state after follows), *table* (rows of a rule set's tables).",
           ""]
    for e in entries:
        out.append(f"## {e['id']}")
        out.append("")
        out.append(e["statement"])
        out.append("")
        out.append(f"- sources: {'; '.join(e['sources'])}")
        out.append(f"- rule sets: {', '.join(e['rulesets']) or 'none'}")
        out.append(f"- encoded as: {', '.join(e['shapes'])} (`model/rules/{e['family']}.py`)")
        if e["expressible"] == "partial":
            out.append(f"- **partly expressible**: {e['note']}")
        out.append("")
    return "\n".join(out)


@main.command()
@click.option("--ruleset", type=click.Choice(rulesets.NAMES))
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True)
def rules(ruleset, fmt):
    """List the rules: ID, statement, source lines, rule sets."""
    entries = rule_catalogue(ruleset)
    if fmt == "json":
        click.echo(json.dumps(entries, indent=2, ensure_ascii=False))
        return
    if fmt == "markdown":
        click.echo(rules_markdown(entries))
        return
    for e in entries:
        flag = " [partly expressible]" if e["expressible"] == "partial" else ""
        click.echo(f"{e['id']:6} {'/'.join(e['rulesets']):8} {e['statement']} ({'; '.join(e['sources'])}){flag}")


@main.group(invoke_without_command=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--cards", "cards_files", multiple=True, type=click.Path(dir_okay=False))
@click.pass_context
def cards(ctx, fmt, cards_files):
    """List the card catalogue; `import` and `audit` read YGOPro/EDOPro card pools."""
    if ctx.invoked_subcommand is not None:
        return
    try:
        cat = catalogue.catalogue(cards_files)
    except catalogue.CatalogueError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)
    if fmt == "json":
        click.echo(json.dumps([c.to_dict() for c in cat.values()], indent=2, ensure_ascii=False))
        return
    for c in cat.values():
        stats = f" {c.atk}/{c.def_} L{c.level}" if c.type == "monster" else ""
        kinds = ", ".join(e.kind for e in c.effects) or "no effects"
        click.echo(f"{c.name} -- {c.subtype} {c.type}{stats}; {kinds}")


@main.command("convert")
@click.argument("path")
@click.option("--to", "to", type=click.Choice(convert.FORMATS), required=True,
              help="json or play (text form): one file per play; jsonl: one play per line.")
@click.option("--out", help="Output file (default: standard output); a directory when PATH holds several plays.")
def convert_command(path, to, out):
    """Convert plays between the text form, the JSON form and JSON Lines (PATH: a file, a
    directory of plays, a .jsonl file or - for JSON Lines on standard input)."""
    try:
        convert.convert(path, to, out, click.echo)
    except (PlayError, convert.ConvertError) as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)


cards.add_command(cardcli.import_cmd)
cards.add_command(cardcli.audit_cmd)


# options, diff, consistency: the symbolic questions (checks/symbolic_cli.py)
from .symbolic_cli import COMMANDS  # noqa: E402

for _command in COMMANDS:
    main.add_command(_command)

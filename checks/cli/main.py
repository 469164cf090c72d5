"""The `ygo-timing` command.

Exit codes: 0 all legal, 1 any illegal, 2 input or usage error, 3 solver unknown.
"""
from __future__ import annotations

import json
import sys

import click
from ygo_timing.cards import catalogue
from ygo_timing.checking.verdict import DEFAULT_RLIMIT, DEFAULT_TIMEOUT_MS
from ygo_timing.cli import cards as cardcli
from ygo_timing.inputs import convert, files
from ygo_timing.inputs.files import builtin_examples, play_files
from ygo_timing.inputs.play import PlayError
from ygo_timing.model import rulesets
from ygo_timing.output import ci_formats, report

# Each subcommand imports what it runs (the checker, the rule model, the card importer) when it
# runs: `--help` or `convert` never load z3 and the rules.


class UsageError(click.UsageError):
    exit_code = 2


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
    from ygo_timing.checking import batch
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
        yield from files.jsonl_items(sys.stdin.buffer, "<stdin>")
        return
    try:
        stream = open(name, "rb")
    except OSError as e:
        raise UsageError(f"cannot read {name}: {e.strerror or e}") from None
    with stream:
        yield from files.jsonl_items(stream, name)


@main.command()
@click.option("--ruleset", type=click.Choice(rulesets.NAMES))
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True)
def rules(ruleset, fmt):
    """List the rules: ID, statement, source lines, rule sets."""
    from ygo_timing.model.rulebook import rule_catalogue, rules_markdown
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


# options, diff, consistency: the symbolic questions (checks/cli/symbolic.py)
from ygo_timing.cli.symbolic import COMMANDS  # noqa: E402

for _command in COMMANDS:
    main.add_command(_command)

"""The `ygo-timing` command.

Exit codes of `check`: 0 every play passes (meets its `expect:`, or is legal without one), 1 a
play fails, 2 input or usage error, 3 solver unknown (ci_formats.exit_status).
"""
from __future__ import annotations

import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

import click
from ygo_timing.cards import catalogue
from ygo_timing.checking.deadline import DEFAULT_DEADLINE_S
from ygo_timing.checking.verdict import DEFAULT_RLIMIT, DEFAULT_TIMEOUT_MS
from ygo_timing.cli import cards as cardcli
from ygo_timing.cli import settings
from ygo_timing.inputs import convert, files
from ygo_timing.inputs.files import builtin_examples, play_files
from ygo_timing.inputs.play import PlayError
from ygo_timing.model import memory, rulesets
from ygo_timing.output import ci_formats, report
from ygo_timing.progress import Progress

# Each subcommand imports what it runs (the checker, the rule model, the card importer) when it
# runs: `--help` or `convert` never load z3 and the rules.


class UsageError(click.UsageError):
    exit_code = 2


@click.group(context_settings={"help_option_names": ["-h", "--help"]}, epilog="""\b
Examples:
  ygo-timing check --examples
  ygo-timing check --format github plays/
  ygo-timing options duel.play --at 5

Each command's --help gives its exit codes. Defaults for check and options may be set in
[tool.ygo-timing] of pyproject.toml; shell completion: docs/guide.md.""")
@click.version_option(package_name="ygo-timing", prog_name="ygo-timing", message="%(prog)s %(version)s")
@click.pass_context
def main(ctx):
    """Yu-Gi-Oh! Battle Phase timing rules as z3 constraints."""
    ctx.default_map = settings.default_map(Path.cwd())
    try:   # the environment's settings are input too: a bad one is said once, before any work
        memory.budget_mb()
    except ValueError as e:
        raise UsageError(str(e)) from None


CHECK_EPILOG = """\b
Examples:
  ygo-timing check duel.play
  ygo-timing check --format sarif --exit-zero plays/ > ygo-timing.sarif
  ygo-timing convert logs/ --to jsonl | ygo-timing check --jsonl - --jobs 4
  cat duel.play | ygo-timing check - --stdin-filename logs/duel.play

\b
Exit codes:
  0  every play passes: it meets its expect: line, or is legal without one
  1  a play fails (a verdict other than its expect:, or illegal without one);
     --exit-zero makes this 0
  2  bad input or usage (reported at its file and line)
  3  the solver gave up on a play: no verdict (never reported as legal)"""


@main.command(epilog=CHECK_EPILOG)
@click.argument("paths", nargs=-1)
@click.option("--ruleset", type=click.Choice(rulesets.NAMES), help="Rule set (default: the file's own, else ocg).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "html", *ci_formats.FORMATS]), default="text",
              show_default=True, help="junit, github and sarif are for CI (docs/ci.md); html is one page "
                                      "with each play's timeline (docs/guide.md).")
@click.option("--trace", is_flag=True, help="Print each play's timeline: windows, Chain, changes, the refusal.")
@click.option("--cards", "cards_files", multiple=True, type=click.Path(dir_okay=False),
              help="A catalogue file adding or overriding cards (repeatable).")
@click.option("--examples", is_flag=True, help="Check the built-in worked examples (EX-1..EX-4, BD-2, D5-4, D5-5).")
@click.option("--jsonl", "jsonl", metavar="FILE|-",
              help="Read plays as JSON Lines (one JSON-form play per line; - is standard input) and "
                   "write one JSON result per line, in input order, as they are checked.")
@click.option("--jobs", type=click.IntRange(1, 256), default=None, show_default="the CPUs this process may use",
              help="Check in this many processes.")
@click.option("--verify", is_flag=True,
              help="Replay legal plays through the solver as well (illegal ones always are).")
@click.option("--timeout", "timeout", type=settings.Seconds(settings.PER_QUERY_MAX_S, old_ms=True),
              default=DEFAULT_TIMEOUT_MS / 1000, show_default=True,
              help="Solver time limit per query, in seconds (e.g. 20, 2.5 or 500ms).")
@click.option("--rlimit", type=click.IntRange(1, 10**12), default=DEFAULT_RLIMIT, show_default=True,
              help="Solver resource limit per query (z3 rlimit: unlike the time limit, the same on every machine).")
@click.option("--exit-zero", "exit_zero", is_flag=True,
              help="Exit 0 even when plays fail (bad input still exits 2, a solver unknown 3).")
@click.option("--root", "root", type=click.Path(file_okay=False, exists=True, path_type=Path),
              help="Paths in the junit, github and sarif formats are relative to this directory "
                   "(default: the git repository's root when inside one, else the working directory).")
@click.option("--stdin-filename", "stdin_filename", metavar="NAME",
              help="With `check -`: the name the play from standard input has in messages "
                   "(its .json or .play suffix gives its form).")
@click.option("--dask", "dask", metavar="ADDRESS",
              help="With --jsonl: check on the dask.distributed cluster whose scheduler is at ADDRESS "
                   "(e.g. tcp://10.0.0.5:8786; pip install 'ygo-timing[dask]'), in input order.")
@click.option("-q", "--quiet", is_flag=True, help="Text: print only the plays that fail; no progress bar.")
@click.option("-v", "--verbose", is_flag=True, help="Also a summary line on standard error at the end.")
@click.option("--deadline", "deadline_s", type=click.FloatRange(0), default=DEFAULT_DEADLINE_S, show_default=True,
              help="Seconds for one whole play (building, stepping, explaining); past it the verdict is "
                   "unknown. 0: none.")
@click.option("--follow-symlinks", is_flag=True, help="Follow symbolic links met in a directory (not by default).")
def check(paths, ruleset, fmt, cards_files, examples, jsonl, jobs, verify, timeout, rlimit, exit_zero,
          root, stdin_filename, dask, quiet, verbose, trace, deadline_s, follow_symlinks):
    """Check play files (a directory means every .play/.json file under it; - reads one play
    from standard input)."""
    from ygo_timing.checking import (
        batch,  # the checker loads z3 and the rules: only when checking
    )
    names = list(paths) + (builtin_examples() if examples else [])
    if not names and not jsonl:
        raise UsageError("name at least one play file or directory (or --examples, or --jsonl FILE)")
    if names and jsonl:
        raise UsageError("--jsonl reads plays from its file alone; name no other play files")
    if trace and (jsonl or fmt != "text"):
        raise UsageError("--trace prints text for play files; it goes with neither --jsonl nor --format " + fmt)
    if "-" in names and len(names) > 1:
        raise UsageError("- reads one play from standard input; name no other play files with it")
    if stdin_filename and names != ["-"]:
        raise UsageError("--stdin-filename names the play read from standard input: give - as the play")
    timeout_ms = settings.timeout_ms(timeout)
    for f in cards_files:   # a bad --cards file is a usage error before anything is checked
        try:
            catalogue.load_file(f)
        except catalogue.CatalogueError as e:
            click.echo(f"error: {e}", err=True)
            sys.exit(2)
    if dask and not jsonl:
        raise UsageError("--dask checks JSON Lines (--jsonl FILE): the plays travel to the workers, "
                         "which need not see this machine's files")
    if dask and click.get_current_context().get_parameter_source("jobs") == click.core.ParameterSource.COMMANDLINE:
        raise UsageError("--dask runs on the cluster's workers; --jobs is for this machine's processes")
    if dask and cards_files:
        raise UsageError("--dask with --cards: the workers would read the files at their own paths; "
                         "put the cards inline in the plays (card: lines) instead")
    opts = batch.Options(ruleset, tuple(cards_files), timeout_ms, rlimit, verify=verify,
                         deadline_s=deadline_s or None)
    jobs = jobs or usable_cpus()
    start = time.monotonic()
    if jsonl:
        if fmt not in ("text", "json"):
            raise UsageError(f"--jsonl writes JSON Lines; --format {fmt} needs play files")
        statuses = _check_jsonl(jsonl, opts, jobs, dask)
    else:
        statuses = _check_files(names, opts, jobs, fmt, root or settings.default_root(Path.cwd()), quiet,
                                stdin_filename, trace, follow_symlinks)
    if verbose:
        click.echo(summary(statuses, time.monotonic() - start), err=True)
    code = ci_formats.run_status(statuses)
    sys.exit(0 if code == 1 and exit_zero else code)


def _check_jsonl(name, opts, jobs, dask_address) -> list[int]:
    """One JSON result per record, printed as it comes, in input order; the exit statuses."""
    statuses = []
    from ygo_timing.checking import batch
    for v in _jsonl_verdicts(batch.checker("jsonl", opts), _jsonl_items(name), jobs, dask_address):
        statuses.append(ci_formats.exit_status(v))
        click.echo(json.dumps(v.to_dict(), ensure_ascii=False))
    return statuses


def _check_files(names, opts, jobs, fmt, root, quiet, stdin_filename, trace=False,
                 follow_symlinks=False) -> list[int]:
    """The play files (or `-`), text and github printed play by play, the other formats (and the
    timelines: html, --trace) as one document at the end; the exit statuses."""
    from ygo_timing.checking import batch
    if names == ["-"]:
        verdicts, total = iter([_stdin_verdict(stdin_filename or "<stdin>", opts)]), 1
    else:
        found = play_files(names, follow_symlinks)
        total = len(found)
        # one play per task: a play takes seconds, so the results stream and the load evens out
        verdicts = batch.ordered_map(batch.checker("path", opts), found, min(jobs, total), chunk=1)
    statuses, collected = [], []
    with Progress("checking", enabled=not quiet and total > 1) as bar:
        for n, v in enumerate(verdicts, start=1):
            statuses.append(ci_formats.exit_status(v))
            if fmt in STREAMED and not trace:   # as each play is done, in input order
                out = STREAMED[fmt](v, root, quiet)
                if out:   # a clean play in the github format prints nothing
                    bar.echo(out)
            else:
                collected.append(v)
            bar(n, total)
    if fmt == "html" or trace:   # each play's timeline, drawn (checks/output/timeline.py)
        from ygo_timing.output import html_report, timeline
        from ygo_timing.output import trace as trace_text
        timelines = timeline.of_verdicts(collected, opts.cards_files, with_options=fmt == "html")
        click.echo(html_report.report(timelines) if fmt == "html" else trace_text.text(timelines))
    elif fmt not in STREAMED:   # whole documents
        click.echo(ci_formats.FORMATS[fmt](collected, root) if fmt in ci_formats.FORMATS
                   else report.as_json(collected))
    return statuses


# the formats printed play by play: text (-q: only the plays that fail) and github
STREAMED = {
    "text": lambda v, root, quiet: "" if quiet and ci_formats.exit_status(v) == 0 else report.text([v]),
    "github": lambda v, root, quiet: ci_formats.github([v], root),
}


def summary(statuses, seconds: float) -> str:
    n = Counter(statuses)
    return (f"{len(statuses)} play(s): {n[0]} passed, {n[1]} failed, {n[2]} could not be checked (bad input), "
            f"{n[3]} without a verdict (solver unknown), in {seconds:.1f} s")


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity: a container's or taskset's share), not the machine's."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):   # not on Linux
        return os.cpu_count() or 1


def _jsonl_verdicts(fn, items, jobs, dask_address):
    """The batch seam: this machine's processes, or a Dask cluster (checking/dask_map.py)."""
    from ygo_timing.checking import batch
    if not dask_address:
        yield from batch.ordered_map(fn, items, jobs)
        return
    from ygo_timing.checking import dask_map
    try:
        with dask_map.connect(dask_address) as client:
            yield from dask_map.ordered_map(fn, items, client)
    except dask_map.DaskError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)


def _stdin_verdict(name, opts):
    from ygo_timing import api
    from ygo_timing.model import vocab
    data = sys.stdin.buffer.read(vocab.MAX_FILE_BYTES + 1)   # one byte past the limit: the parser says so
    return api.check_text(data, name=name, ruleset=opts.ruleset, cards=opts.cards_files,
                          timeout=opts.timeout_ms / 1000, rlimit=opts.rlimit, verify=opts.verify,
                          deadline=opts.deadline_s).raw


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


@main.command(epilog="""\b
Examples:
  ygo-timing rules --ruleset tcg
  ygo-timing rules T4
  ygo-timing rules timing.window --format json
  ygo-timing rules --format markdown > docs/rules.md

\b
Exit codes: 0 listed, 2 usage error or unknown rule.""")
@click.argument("rule_id", required=False, metavar="[ID]")
@click.option("--ruleset", type=click.Choice(rulesets.NAMES))
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True)
@click.option("--seeds", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where the source documents are, for `rules ID`'s quotes (default: ../shared/seeds "
                   "beside the checkout).")
def rules(rule_id, ruleset, fmt, seeds):
    """List the rules: ID, statement, source lines, rule sets. With an ID or machine name
    (`rules T4`, `rules timing.window`): that rule in full, with the seed lines it cites."""
    from ygo_timing.model.rulebook import rule_catalogue, rules_markdown
    from ygo_timing.output import rule_detail
    if rule_id:
        try:
            d = rule_detail.detail(rule_detail.lookup(rule_id), seeds or rule_detail.SEEDS)
        except rule_detail.UnknownRule as e:
            click.echo(f"error: {e}", err=True)
            sys.exit(2)
        click.echo(json.dumps(d, indent=2, ensure_ascii=False) if fmt == "json" else rule_detail.text(d))
        return
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


@main.group(invoke_without_command=True, epilog="""\b
Examples:
  ygo-timing cards --cards house-cards.json
  ygo-timing cards import --cdb cards.cdb --scripts script/ --out pool.json
  ygo-timing cards audit --cdb cards.cdb --scripts script/

\b
Exit codes (listing): 0 listed, 2 a bad --cards file or usage error.""")
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


@main.command("convert", epilog="""\b
Examples:
  ygo-timing convert duel.play --to json --out duel.json
  ygo-timing convert logs/ --to jsonl --out logs.jsonl

\b
Exit codes: 0 converted, 2 bad input (nothing written) or usage error.""")
@click.argument("path")
@click.option("--to", "to", type=click.Choice(convert.FORMATS), required=True,
              help="json or play (text form): one file per play; jsonl: one play per line.")
@click.option("--out", help="Output file (default: standard output); a directory when PATH holds several plays.")
@click.option("--follow-symlinks", is_flag=True, help="Follow symbolic links met in a directory (not by default).")
def convert_command(path, to, out, follow_symlinks):
    """Convert plays between the text form, the JSON form and JSON Lines (PATH: a file, a
    directory of plays, a .jsonl file or - for JSON Lines on standard input)."""
    try:
        convert.convert(path, to, out, click.echo, follow_symlinks)
    except (PlayError, convert.ConvertError) as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)


cards.add_command(cardcli.import_cmd)
cards.add_command(cardcli.audit_cmd)
cards.add_command(cardcli.migrate_cmd)
cards.add_command(cardcli.compare_cmd)


# options, diff, consistency: the symbolic questions (checks/cli/symbolic.py)
from ygo_timing.cli.symbolic import COMMANDS  # noqa: E402

for _command in COMMANDS:
    main.add_command(_command)

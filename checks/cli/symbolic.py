"""The symbolic commands `options`, `diff` and `consistency` (registered in cli.py).

Exit codes: `options` 0 (answered), 2 input error, 3 unknown; `diff` 0 no difference up to K,
1 differences found, 2 error, 3 unknown/timeout with none found; `consistency` 0 consistent,
1 problems found, 2 error, 3 unknown.
"""
from __future__ import annotations

import json
import sys

import click
from ygo_timing.cards import catalogue
from ygo_timing.checking.verdict import DEFAULT_TIMEOUT_MS
from ygo_timing.cli import settings
from ygo_timing.inputs.play import PlayError, load
from ygo_timing.model import rulesets
from ygo_timing.progress import Progress


def _fail(msg):
    click.echo(f"error: {msg}", err=True)
    sys.exit(2)


def _guarded(fn):
    """A bug must not print a traceback, nor pass for an answer: exit 2 with a message."""
    try:
        return fn()
    except (PlayError, catalogue.CatalogueError, RuntimeError) as e:
        _fail(str(e))
    except Exception as e:   # noqa: BLE001
        _fail(f"internal error, please report: {type(e).__name__}: {e}")


@click.command("options", epilog="""\b
Examples:
  ygo-timing options duel.play --at 5
  ygo-timing options duel.play --format json

\b
Exit codes: 0 answered, 2 bad input or usage error, 3 the solver answered unknown somewhere.""")
@click.argument("path")
@click.option("--at", "at", type=click.IntRange(0, None), default=None,
              help="After action N (default: after the last action).")
@click.option("--ruleset", type=click.Choice(rulesets.NAMES), help="Rule set (default: the file's own, else ocg).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--cards", "cards_files", multiple=True, type=click.Path(dir_okay=False))
@click.option("--timeout", "timeout", type=settings.Seconds(settings.PER_QUERY_MAX_S, old_ms=True),
              default=DEFAULT_TIMEOUT_MS / 1000, show_default=True,
              help="Solver time limit per query, in seconds (e.g. 20, 2.5 or 500ms).")
@click.option("--why", is_flag=True, help="Explain each refusal: the facts behind it (asks the solver).")
def options_cmd(path, at, ruleset, fmt, cards_files, timeout, why):
    """What each player may activate, and whether the game may move on, after action N."""
    from ygo_timing.symbolic import options as opt
    o = _guarded(lambda: opt.options(load(path), ruleset, cards_files, at, settings.timeout_ms(timeout), why))
    click.echo(json.dumps(o.to_dict(), indent=2, ensure_ascii=False) if fmt == "json" else opt.text(o))
    unknown = any(x.allowed is None for x in o.cards + o.game)
    sys.exit(3 if unknown else 0)


@click.command("diff", epilog="""\b
Examples:
  ygo-timing diff tcg ocg --max-length 3
  ygo-timing diff tcg ocg --out witnesses/ --format markdown

\b
Exit codes: 0 no difference up to --max-length, 1 differences found, 2 error,
3 unknown or time limit reached with none found.""")
@click.argument("ruleset_a", type=click.Choice(rulesets.NAMES))
@click.argument("ruleset_b", type=click.Choice(rulesets.NAMES))
@click.option("--max-length", "max_length", type=click.IntRange(1, 20), default=8, show_default=True,
              help="Longest witness searched, in actions after a scenario's opening.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Write each witness play (one per rule set) under this directory.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown", "html"]), default="text",
              show_default=True, help="html: one page, each class's two witness plays side by side.")
@click.option("--timeout", "timeout_s", type=settings.Seconds(settings.SEARCH_MAX_S), default=600, show_default=True,
              help="Time limit for the whole search, in seconds (e.g. 600 or 90.5).")
def diff_cmd(ruleset_a, ruleset_b, max_length, out_dir, fmt, timeout_s):
    """Where two rule sets disagree: classes of differences, each with a shortest witness play."""
    from ygo_timing.output import diff_report
    from ygo_timing.symbolic import diff as d
    with Progress(f"searching {ruleset_a} vs {ruleset_b}") as bar:
        r = _guarded(lambda: d.diff(ruleset_a, ruleset_b, max_length, timeout_s, out_dir, progress=bar).to_dict())
    if fmt == "json":
        click.echo(diff_report.as_json(r))
    elif fmt == "html":
        from ygo_timing.output import diff_html
        click.echo(_guarded(lambda: diff_html.report(r)), nl=False)
    elif fmt == "markdown":
        cmd = f"ygo-timing diff {ruleset_a} {ruleset_b} --max-length {max_length}" + \
              (f" --out {out_dir}" if out_dir else "") + " --format markdown"
        click.echo(diff_report.markdown(r, cmd))
    else:
        click.echo(diff_report.text(r))
    if any("NOT" in v for x in r["differences"] for v in x["confirmed"].values()):
        _fail("a witness did not replay through check as claimed (a bug: please report)")
    sys.exit(1 if r["differences"] else 0 if r["status"] == "complete" else 3)


@click.command("consistency", epilog="""\b
Examples:
  ygo-timing consistency tcg --max-length 4
  ygo-timing consistency ocg --dead-rules --format json

\b
Exit codes: 0 consistent, 1 problems found, 2 error, 3 unknown.""")
@click.argument("ruleset", type=click.Choice(rulesets.NAMES))
@click.option("--max-length", "max_length", type=click.IntRange(1, 20), default=8, show_default=True,
              help="Longest sequence searched for contradictions, in actions after a scenario's opening.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--timeout", "timeout_s", type=settings.Seconds(settings.SEARCH_MAX_S), default=600, show_default=True,
              help="Time limit for the whole search, in seconds (e.g. 600 or 90.5).")
@click.option("--dead-rules", "dead_rules", is_flag=True,
              help="Also test every rule that has terms against its own fixtures (slow: minutes).")
def consistency_cmd(ruleset, max_length, fmt, timeout_s, dead_rules):
    """Is a rule set satisfiable, free of contradictions and dead rules; the source conflicts as plays."""
    from ygo_timing.symbolic import consistency as c
    with Progress(f"searching {ruleset}") as bar:
        r = _guarded(lambda: c.consistency(ruleset, max_length, timeout_s, dead_rules, progress=bar))
    click.echo(json.dumps(r.to_dict(), indent=2, ensure_ascii=False) if fmt == "json" else c.text(r))
    sys.exit(r.exit_code())


COMMANDS = (options_cmd, diff_cmd, consistency_cmd)

"""Is every rule load-bearing? Remove one rule at a time and re-check the fixtures.

    python -m ygo_timing.checking.ablate [--rule ID ...] [--jobs N] PATH...

A rule is load-bearing when removing it flips the verdict of at least one fixture. The
search walks the fixtures on the relation compiled without the rule; the first flip it
finds is confirmed by a full check (the solver replays and explains it), so a rule is
never called load-bearing on the compiled code's word alone. Exit 1 when some rule
flips nothing.
"""
from __future__ import annotations

import re
import sys

import click
from ygo_timing.checking import batch
from ygo_timing.checking.check import check_play
from ygo_timing.checking.facts import play_cards
from ygo_timing.checking.run import Run, walk
from ygo_timing.inputs.files import play_files
from ygo_timing.inputs.play import PlayError, load
from ygo_timing.model import compiled, rulesets
from ygo_timing.model.rulebook import rule_catalogue
from ygo_timing.progress import Progress


def fast_verdict(play, cards, rid=None):
    """The compiled relation's verdict without rule `rid` (None: with every rule)."""
    run = Run(play, play.ruleset or "ocg", cards, 1, 1, frozenset([rid]) if rid else frozenset())
    if run.evaluator is None:
        return check_play(play, without=run.without).verdict
    try:
        return walk(run, run.eval_step).kind
    except compiled.Undetermined:
        return "undetermined"


class Search:
    """The search for one rule's flip, as a picklable function of the rule ID (so that
    `batch.ordered_map` can spread the rules over processes): the fixtures' catalogues and
    their verdicts with every rule are worked out once, before any worker starts."""

    def __init__(self, plays):
        self.plays = plays
        self.member = rulesets.membership()
        self.cards = {p.path: play_cards(p) for p in plays}
        self.base = {p.path: fast_verdict(p, self.cards[p.path]) for p in plays}

    def __call__(self, rid):
        """(fixture path, verdict with the rule, verdict without it) of the first fixture whose
        verdict removing `rid` flips, confirmed by the solver; None if none does."""
        # the fixtures written for it first, then the rest by size (each size is one compilation)
        mine = [p for p in self.plays if rid in p.rules]
        rest = sorted((p for p in self.plays if p not in mine), key=lambda p: len(p.cards))
        for p in mine + rest:
            if (p.ruleset or "ocg") not in self.member.get(rid, []):
                continue
            base = self.base[p.path]
            if fast_verdict(p, self.cards[p.path], rid) == base:
                continue
            solver = check_play(p, without=frozenset([rid])).verdict
            if solver != base and solver in ("legal", "illegal"):
                return (p.path, base, solver)
        return None


def load_bearing(plays, ids, progress=None, jobs=1, first=()):
    """{rule ID: (fixture path, verdict with the rule, verdict without it) or None};
    `progress(done, total)`, if given, hears of each rule as its answer comes; `jobs` > 1
    searches that many rules at once, in as many processes (each compiles its own relations:
    a relation without a rule is never cached). The rules in `first` are searched first: a
    rule expected to flip nothing walks every fixture on every size bucket (minutes where a
    load-bearing rule takes seconds), and started last it would keep one process busy alone."""
    order = [rid for rid in ids if rid in first] + [rid for rid in ids if rid not in first]
    out = {}
    answers = batch.ordered_map(Search(plays), order, jobs, chunk=1)
    for n, (rid, flip) in enumerate(zip(order, answers)):
        if progress:
            progress(n, len(order))
        out[rid] = flip
    return out


def documented(path):
    """Rule IDs that docs/interpretations.md explains cannot be isolated (its table under
    "Rules no fixture can tell from their absence")."""
    text = open(path, encoding="utf-8").read()
    section = text.split("## Rules no fixture can tell from their absence", 1)[-1].split("\n## ", 1)[0]
    ids = set()
    for line in section.splitlines():
        if line.startswith("| ") and not line.startswith(("| rule", "|---")):
            ids |= set(re.findall(r"[A-Z]{1,3}\d?-[A-Z]?\d+", line.split("|")[1]))
    return ids


@click.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--rule", "only", multiple=True, help="Only these rule IDs (default: all).")
@click.option("--jobs", default=1, type=click.IntRange(1, 64), show_default=True,
              help="Rules searched at once, each in its own process.")
@click.option("--documented", "doc", type=click.Path(exists=True, dir_okay=False),
              help="Pass (exit 0) when the rules that flip nothing are exactly those this file "
                   "explains (docs/interpretations.md).")
def main(paths, only, jobs, doc):
    try:
        plays = [load(str(f)) for f in play_files(paths)]
    except PlayError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)
    ids = list(only) or [e["id"] for e in rule_catalogue()]
    with Progress("ablating rules") as bar:
        found = load_bearing(plays, ids, bar, jobs, first=documented(doc) if doc else ())
    for rid in ids:
        flip = found[rid]
        click.echo(f"{rid}: " + (f"{flip[0]} ({flip[1]} -> {flip[2]} without it)" if flip else "NO FLIP"))
    idle = [rid for rid in ids if not found[rid]]
    click.echo(f"load-bearing: {len(ids) - len(idle)} of {len(ids)}; "
               f"flipping nothing: {' '.join(idle) or 'none'}")
    if not doc:
        sys.exit(1 if idle else 0)
    explained = documented(doc) & set(ids)
    unexplained, stale = sorted(set(idle) - explained), sorted(explained - set(idle))
    if unexplained:
        click.echo(f"not explained in {doc}: {' '.join(unexplained)}")
    if stale:
        click.echo(f"{doc} says these cannot be isolated, but they flip a verdict: {' '.join(stale)}")
    sys.exit(1 if unexplained or stale else 0)


if __name__ == "__main__":
    main()

"""Which fixtures does each rule decide? Remove one rule at a time and re-check.

    python -m ygo_timing.ablate [--rule ID ...] PATH...

Prints, per rule, the fixtures whose verdict flips without it; a rule that flips none is
not load-bearing for the fixtures given.
"""
from __future__ import annotations

import sys

import click

from .check import check_play
from .cli import play_files, rule_catalogue
from .model import rulesets
from .play import load


@click.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--rule", "only", multiple=True, help="Only these rule IDs (default: all).")
@click.option("--own", is_flag=True, help="First try only the fixtures whose `rules:` names the rule; "
              "fall back to all fixtures for a rule none of them flips.")
def main(paths, only, own):
    plays = [load(str(f)) for f in play_files(paths)]
    member = rulesets.membership()
    ids = [e["id"] for e in rule_catalogue()] if not only else list(only)
    base = {p.path: check_play(p).verdict for p in plays}
    idle = []
    def flips_of(rid, candidates):
        out = []
        for p in candidates:
            if (p.ruleset or "ocg") not in member.get(rid, []):
                continue
            v = check_play(p, without=frozenset([rid])).verdict
            if v != base[p.path]:
                out.append(f"{p.path} ({base[p.path]} -> {v})")
        return out

    for rid in ids:
        mine = [p for p in plays if rid in p.rules]
        flips = flips_of(rid, mine) if own else []
        if not flips:
            flips = flips_of(rid, [p for p in plays if not own or p not in mine])
        click.echo(f"{rid}: " + (f"{len(flips)} flip(s)" if flips else "NO FLIP"))
        for f in flips:
            click.echo(f"    {f}")
        if not flips:
            idle.append(rid)
    click.echo(f"not load-bearing on these fixtures: {' '.join(idle) or 'none'}")
    sys.exit(0)


if __name__ == "__main__":
    main()

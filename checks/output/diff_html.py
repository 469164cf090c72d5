"""`diff --format html`: each class of differences with its two witness plays side by side, as
timelines, the action where their verdicts diverge highlighted (the illegal play's first illegal
action, and the same action in the legal play). Drawn with check's HTML (html_report.py)."""
from __future__ import annotations

from ygo_timing.checking.check import check_play
from ygo_timing.checking.verdict import Verdict
from ygo_timing.inputs.play import PlayError, parse_text
from ygo_timing.output.diff_report import EXPLAIN_KIND, KINDS, closing
from ygo_timing.output.html_report import Renderer, anchor, esc, page
from ygo_timing.output.timeline import Timeline, build


def witness(d: dict, name: str) -> Timeline:
    """The timeline of one witness play of a difference (its text is in the result)."""
    path = d.get("files", {}).get(name, f"<witness under {name}>")
    text = d["plays"][name]
    try:
        play = parse_text(text, path)
    except PlayError as e:
        return build(None, Verdict(path, name, "error", message=str(e)), source=text)
    return build(play, check_play(play, name), with_options=False, source=text)


def report(r: dict) -> str:
    """The page for a `diff` result (its `to_dict()`, or the stored docs/tcg-vs-ocg.json)."""
    rd = Renderer()
    parts = [f"<header><h1>Where {esc(r['a'].upper())} and {esc(r['b'].upper())} disagree</h1>",
             (f"<p>Searched up to {int(r['max_length'])} actions after the opening of each of "
              f"{len(r['scenarios'])} scenarios. {esc(closing(r))}.</p></header>")]
    for kind in KINDS:   # each class's id is its place in the result: d1, d2, ...
        ds = [(k, d) for k, d in enumerate(r["differences"], start=1) if d["kind"] == kind]
        parts.append(f"<h2>{esc(kind.capitalize())}s ({len(ds)})</h2><p class=\"muted\">"
                     f"{esc(EXPLAIN_KIND[kind].capitalize())}.</p>")
        for k, d in ds:
            parts.append(difference(rd, d, f"d{k}"))
    parts.append(rd.glossary())
    return page(f"ygo-timing diff {r['a']} {r['b']}", "\n".join(parts), wide=True)


def diverging(legal: Timeline, illegal: Timeline) -> int | None:
    """The legal play's action that corresponds to the illegal play's first illegal one. The two
    witnesses are one sequence of steps written for each rule set, where the set with coarser
    Damage Step windows leaves out the `next`s between the finer set's inner windows (replay.py):
    they differ only in those, so the action is matched counting from the end of the play."""
    bad = illegal.illegal
    if bad is None or legal.play is None or illegal.play is None:
        return None
    at = len(legal.play.actions) - (len(illegal.play.actions) - bad.index)
    return at if at >= 1 else None


def difference(rd: Renderer, d: dict, did: str) -> str:
    legal_in, illegal_in = d["legal_in"], d["illegal_in"]
    sides = {n: witness(d, n) for n in (legal_in, illegal_in)}
    at, bad = diverging(sides[legal_in], sides[illegal_in]), sides[illegal_in].illegal
    out = [(f'<section class="difference" id="{did}"><h3>{", ".join(rd.rule(x) for x in d["rules"])}: '
            f"legal under {esc(legal_in)}, illegal under {esc(illegal_in)}</h3>"),
           (f"<p>Shortest witness: {int(d['length'])} action(s) after the opening of scenario "
            f"<code>{esc(d['scenario'])}</code>"
            + (f"; the verdicts diverge at action <a href=\"#{did}-{anchor(legal_in)}-diverge\">#{int(at)}</a> "
               f"under {esc(legal_in)}, <a href=\"#{did}-{anchor(illegal_in)}-illegal\">#{int(bad.index)}</a> "
               f"under {esc(illegal_in)}" if at else "") + ".</p>")]
    if d.get("claim"):
        out.append(f"<p>The states differ (a <code>claim {esc(d['claim'])}</code> tells them apart): "
                   + ", ".join(f"under {esc(n)} set by {rd.rule(v) if v else 'no rule (the default)'}"
                               for n, v in d["causes"].items()) + "</p>")
    out.append('<div class="sides">')
    for n, t in sides.items():
        pid = f"{did}-{anchor(n)}"
        out.append(f"<div><p><strong>{esc(n.upper())}</strong>: <code>{esc(t.verdict.path)}</code> "
                   f"(stored result: {esc(d['confirmed'].get(n, '?'))})</p>"
                   + rd.play(t, pid, compact=True, highlight=at if n == legal_in else None) + "</div>")
    out.append("</div></section>")
    return "\n".join(out)


if __name__ == "__main__":   # python -m ygo_timing.output.diff_html docs/tcg-vs-ocg.json > diff.html
    import json
    import sys
    with open(sys.argv[1], encoding="utf-8") as f:
        print(report(json.load(f)), end="")

"""`check --format html`: one self-contained page (inline CSS and SVG; no script, no external
resource) for one or many plays. Per play: the verdict and the rule set, the set-up, and a
timeline whose columns are the rule set's windows and whose rows are the actions, with the Chain
as a stack, what changed, the illegal action marked by an icon and a label (not by colour
alone) with its rules, reason and facts linked to their lines, and at each window's opening
what each player could have done (folded). Every string from a play or a catalogue is escaped:
input files are untrusted."""
from __future__ import annotations

import html
import re

from ygo_timing.model import rulesets, vocab
from ygo_timing.model.rulebook import rule_info, rule_order
from ygo_timing.output.report import headline
from ygo_timing.output.timeline import Timeline


def esc(value) -> str:
    return html.escape(str(value), quote=True)


ICONS = {  # inline SVG, each with a visible text label beside it wherever it is used
    "legal": '<circle cx="8" cy="8" r="7"/><path d="M4.5 8.5l2.5 2.5 4.5-5" class="stroke"/>',
    "illegal": '<path d="M5 1h6l4 4v6l-4 4H5l-4-4V5z"/><path d="M5.5 5.5l5 5m0-5l-5 5" class="stroke"/>',
    "unknown": '<circle cx="8" cy="8" r="7"/><path d="M6 6a2 2 0 1 1 2.5 2v1.5M8 12v.5" class="stroke"/>',
    "error": '<path d="M8 1l7 13H1z"/><path d="M8 6v4M8 12v.5" class="stroke"/>',
    "allowed": '<circle cx="8" cy="8" r="7"/><path d="M4.5 8.5l2.5 2.5 4.5-5" class="stroke"/>',
    "refused": '<circle cx="8" cy="8" r="7"/><path d="M4 12L12 4" class="stroke"/>',
    "step": '<circle cx="8" cy="8" r="5"/>',
    "opens": '<path d="M3 3l9 5-9 5z"/>',
    "diverge": '<path d="M8 1l7 7-7 7-7-7z"/><path d="M8 4.5v4.5M8 11v.5" class="stroke"/>',
}
LABELS = {"legal": "LEGAL", "illegal": "ILLEGAL", "unknown": "UNKNOWN", "error": "ERROR",
          "allowed": "allowed", "refused": "refused"}


def icon(kind: str, title: str = "") -> str:
    return (f'<svg class="icon {kind}" viewBox="0 0 16 16" width="16" height="16" role="img" '
            f'aria-label="{esc(title or LABELS.get(kind, kind))}">{ICONS[kind]}</svg>')


CSS = """
:root { --ink:#1d232a; --muted:#5b6673; --line:#d5dbe1; --legal:#1a7f37; --illegal:#b42318;
  --unknown:#8a5a00; --error:#8a2be2; --win:#eef3f8; --hl:#fff4d6; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink);
  margin: 0 auto; padding: 1.2em 1.6em 3em; max-width: 1500px; }
h1 { font-size: 1.5em; margin: 0 0 .2em; } h2 { font-size: 1.25em; margin: 1.6em 0 .3em; }
h3 { font-size: 1.05em; margin: 1.2em 0 .3em; }
code, .mono, td.action, .src { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace;
  font-size: 12.5px; }
a { color: #0b5cad; } .muted { color: var(--muted); }
table { border-collapse: collapse; } th, td { border: 1px solid var(--line); padding: 3px 6px;
  vertical-align: top; text-align: left; }
th { background: #f6f8fa; font-weight: 600; }
section.play { border-top: 3px solid var(--line); margin-top: 2em; }
.icon { vertical-align: -3px; fill: currentColor; }
.icon .stroke { fill: none; stroke: #fff; stroke-width: 2; stroke-linecap: round; }
.legal { color: var(--legal); } .illegal { color: var(--illegal); } .unknown { color: var(--unknown); }
.error { color: var(--error); } .allowed { color: var(--legal); } .refused { color: var(--muted); }
.badge { display: inline-block; font-weight: 700; border: 2px solid currentColor; border-radius: 4px;
  padding: 0 .35em; letter-spacing: .03em; }
.verdict { font-size: 1.1em; margin: .3em 0; }
.timeline-wrap { overflow-x: auto; margin: .6em 0; }
table.timeline td.w, table.timeline th.w { width: 26px; min-width: 26px; padding: 2px 0;
  text-align: center; }
table.timeline th.w span { writing-mode: vertical-rl; transform: rotate(180deg); white-space: nowrap;
  font-weight: 500; font-size: 12px; padding: 4px 0; }
table.timeline td.w.in { background: var(--win); }
table.timeline td.action { min-width: 18em; max-width: 34em; overflow-wrap: break-word; }
table.timeline td.num, table.timeline td.lp { text-align: right; white-space: nowrap; }
table.timeline td.prio { text-align: center; } details.options td { white-space: nowrap; }
details.options td:last-child { white-space: normal; }
td.lp.changed { font-weight: 700; }
tr.illegal > td { background: repeating-linear-gradient(135deg, #fdecea 0 8px, #fff 8px 16px); }
tr.illegal > td.action { border-left: 4px solid var(--illegal); }
tr.diverge > td { background: var(--hl); } tr.diverge > td.action { border-left: 4px solid #b7791f; }
tr.why > td, tr.opening > td { background: #fbfcfd; }
tr.opening summary { font-size: 12.5px; color: var(--muted); }
tr.why > td { border-left: 4px solid var(--illegal); }
ol.chain { list-style: none; margin: 0; padding: 0; min-width: 14em; }
ol.chain li { border: 1px solid #9aa7b4; border-radius: 3px; background: #fff; margin: 0 0 2px;
  padding: 1px 5px; box-shadow: 2px 2px 0 #c9d2db; }
ol.chain li.gone { border-style: dashed; box-shadow: none; color: var(--muted); }
.cl { font-weight: 700; } .tag { font-size: 11px; text-transform: uppercase; border: 1px solid;
  border-radius: 3px; padding: 0 3px; margin-left: 3px; }
ul.changes { margin: 0; padding-left: 1.1em; }
details { margin: .2em 0; } summary { cursor: pointer; }
details.options table { margin: .3em 0 .4em 1.4em; }
dl.rules dt { font-weight: 700; margin-top: .6em; } dl.rules dd { margin-left: 1.5em; }
:target { outline: 3px solid #f0b429; }
pre.src { background: #f6f8fa; padding: .5em; overflow-x: auto; margin: 0; }
pre.src span { display: block; } pre.src span:target { background: var(--hl); outline: none; }
pre.src .ln { display: inline-block; width: 3.5em; color: var(--muted); user-select: none; }
body.wide { max-width: none; }
.sides { display: grid; grid-template-columns: 1fr 1fr; gap: 1em; }
.sides > div { min-width: 0; } .sides table { font-size: 12px; } .sides section.play { margin-top: 0; }
.sides table.timeline td.action { min-width: 11em; } .sides ol.chain { min-width: 9em; }
"""


def th(text: str, rowspan: int = 1, title: str = "") -> str:
    span = f' rowspan="{rowspan}"' if rowspan > 1 else ""
    return f"<th{span}" + (f' title="{esc(title)}"' if title else "") + f">{esc(text)}</th>"


def page(title: str, body: str, wide: bool = False) -> str:
    cls = ' class="wide"' if wide else ""
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{esc(title)}</title>\n<style>{CSS}</style>\n</head>\n"
            f"<body{cls}>\n{body}\n</body>\n</html>\n")


def arrows(text: str) -> str:
    """A change's words (timeline.changes writes "before -> after") with an arrow that never wraps."""
    return esc(text).replace(" -&gt; ", "&nbsp;→ ")


def anchor(text: str) -> str:
    """A fragment id from a rule ID (rule IDs are [A-Z0-9-]; anything else is replaced)."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", text)


LINE_REF = re.compile(r"\bline (\d+)")
BY_RULE = re.compile(r"\bby ([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*)\)")


class Renderer:
    """Draws timelines; remembers the rules it cited, for the glossary at the end of the page."""

    def __init__(self):
        self.info = rule_info()
        self.cited: set = set()

    # --- links ------------------------------------------------------------------------------------
    def rule(self, rid: str) -> str:
        self.cited.add(rid)   # its statement and sources are in the glossary, once
        return f'<a class="rule" href="#rule-{anchor(rid)}">{esc(rid)}</a>'

    def rule_with_sources(self, r: dict) -> str:
        return f"{self.rule(r['rule'])} <span class=\"muted\">({esc('; '.join(r['sources']))})</span>"

    def fact(self, text: str, pid: str, t: Timeline) -> str:
        """A fact with its play line linked to the source listing, its rule to the glossary and a
        catalogue fact to its card in the set-up."""
        out = LINE_REF.sub(lambda m: self.line_link(t, pid, m.group(1)), esc(text))
        out = BY_RULE.sub(lambda m: f"by {self.rule(m.group(1))})", out)
        if text.endswith("(catalogue)"):
            for i, c in sorted(enumerate(t.cards), key=lambda ic: -len(ic[1]["label"])):
                if text.startswith((c["label"] + ":", c["label"] + " effect")):
                    out = out[:-len("(catalogue)")] + f'(<a href="#{pid}-card{i}">catalogue</a>)'
                    break
        return out

    def line_link(self, t: Timeline, pid: str, n, cls: str = "") -> str:
        """The words `line N`, linked to the play's listing if it has that line (a fact quoting a
        card's label that reads "line 99" must not link nowhere; a file not read again has none)."""
        text = f"line {int(n)}"
        if not 1 <= int(n) <= len(t.source.splitlines()):
            return text
        return f'<a href="#{pid}-L{int(n)}"' + (f' class="{cls}"' if cls else "") + f">{text}</a>"

    # --- one play ---------------------------------------------------------------------------------
    def play(self, t: Timeline, pid: str, compact: bool = False, highlight: int | None = None) -> str:
        v = t.verdict
        title = (t.play.title if t.play is not None and t.play.title else "") or v.path
        out = [f'<section class="play" id="{pid}">'] + ([] if compact else [f"<h2>{esc(title)}</h2>"])
        out.append(f'<p class="verdict {esc(v.verdict)}">{icon(v.verdict)} <span class="badge">'
                   f"{esc(v.verdict.upper())}</span> under <strong>{esc(v.ruleset.upper())}</strong> "
                   f'<span class="muted">— {esc(headline(v))}</span></p>')
        if not compact:
            out.append(f'<p class="muted">Rule set {esc(v.ruleset)}: {esc(rulesets.load(v.ruleset).description)}</p>')
        reason = getattr(v, "reason", None)
        if reason:
            out.append(f'<p class="reason"><strong>Why:</strong> {esc(reason)}</p>')
        bad = t.illegal
        if bad is not None and bad.status == "illegal":
            out.append(f'<p class="first">{icon("illegal")} First illegal action: '
                       f'<a href="#{pid}-illegal">#{bad.index} (line {bad.line})</a>: <code>{esc(bad.text)}</code>'
                       + (" — breaks " + ", ".join(self.rule(r["rule"]) for r in v.violations)
                          if v.violations else "") + "</p>")
        if getattr(v, "not_modelled", None) and v.verdict in ("legal", "illegal"):
            out.append('<p class="message">Not weighed (card text the model does not hold):</p><ul>'
                       + "".join(f"<li>{esc(n)}</li>" for n in v.not_modelled) + "</ul>")
        if v.message and (not t.rows or v.verdict in ("error", "unknown")):
            out.append(f'<p class="message">{icon(v.verdict if v.verdict in ICONS else "error")} {esc(v.message)}</p>')
        for note in t.notes:
            out.append(f'<p class="message">{icon("error")} {esc(note)}</p>')
        if t.cards:
            out.append(self.setup(t, pid))
        if t.rows:
            out.append(self.table(t, pid, compact, highlight))
        if t.source:
            out.append(self.source(t, pid))
        out.append("</section>")
        return "\n".join(out)

    def setup(self, t: Timeline, pid: str) -> str:
        rows = [f'<tr id="{pid}-card{i}"><td>{esc(c["player"])}</td><td><strong>{esc(c["label"])}</strong>'
                + (f' <span class="muted">({esc(c["name"])})</span>' if c["name"] != c["label"] else "")
                + f'</td><td>{esc(c["kind"])}</td><td>{esc(c["text"])}</td>'
                f'<td>{self.line_link(t, pid, c["line"])}</td>'
                f'<td class="muted">{esc(c["origin"])}</td></tr>' for i, c in enumerate(t.cards)]
        lp = ", ".join(f"{esc(p)} {int(v)}" for p, v in t.lp.items())
        return (f"<h3>Set-up</h3><p>LP at the start: {lp}</p><table class=\"setup\"><tr><th>player</th>"
                "<th>card</th><th>kind</th><th>at the start</th><th>play</th><th>catalogue entry</th></tr>"
                + "".join(rows) + "</table>")

    def table(self, t: Timeline, pid: str, compact: bool, highlight: int | None) -> str:
        """The timeline: a row per action, and (not compact) a folded row per window opening."""
        ncols = (6 if compact else 5 + len(t.windows)) + len(t.lp)
        openings = {o.after: o for o in t.openings} if not compact else {}
        body = [self.opening(openings[0], ncols)] if 0 in openings else []
        lp = dict(t.lp)
        for r in t.rows:
            body.append(self.row(t, r, pid, compact, highlight, lp))
            lp = dict(r.lp)
            if r.status != "legal":
                body.append(f'<tr class="why"><td colspan="{ncols}">{self.refusal(t, r, pid)}</td></tr>')
            elif r.index in openings:
                body.append(self.opening(openings[r.index], ncols))
        return (f'<div class="timeline-wrap"><table class="timeline">{self.head(t, compact)}{"".join(body)}'
                "</table></div>")

    def head(self, t: Timeline, compact: bool) -> str:
        tail = [("action", ""), ("priority", "the player who may act after the action"),
                ("Chain (top first)", ""), ("changes", "")] + [(f"LP {p}", "") for p in t.lp]
        if compact:
            return "<tr>" + "".join(th(x, title=tt) for x, tt in [("#", ""), ("window", "")] + tail) + "</tr>"
        ds = rulesets.load(t.verdict.ruleset).damage_step
        group = [w for w in t.windows if w in ds]
        top, sub = [th("#", rowspan=2)], []
        for w in t.windows:
            if w not in ds:
                top.append(self.window_head(w, rowspan=2))
                continue
            if w == group[0]:
                top.append(f'<th colspan="{len(group)}" class="group">the Damage Step</th>')
            sub.append(self.window_head(w))
        top += [th(x, rowspan=2, title=tt) for x, tt in tail]
        return "<tr>" + "".join(top) + "</tr><tr>" + "".join(sub) + "</tr>"

    def row(self, t: Timeline, r, pid: str, compact: bool, highlight: int | None, lp_before: dict) -> str:
        diverges = r.status == "legal" and r.index == highlight
        cls = r.status if r.status != "legal" else "diverge" if diverges else ""
        rid = f"{pid}-illegal" if r.status != "legal" else f"{pid}-diverge" if diverges else f"{pid}-a{int(r.index)}"
        cells = [f'<td class="num">{int(r.index)}</td>']
        if compact:
            cells.append(f'<td title="{esc(vocab.WINDOW_TITLES[r.window])}">{esc(r.window)}'
                         + (f" → {esc(r.window_after)}" if r.window_after != r.window else "") + "</td>")
        else:
            for w in t.windows:
                mark = ""
                if w == r.window:
                    mark = icon(r.status if r.status != "legal" else "step", f"action {r.index} in {w}")
                elif w == r.window_after:
                    mark = icon("opens", f"{w} opens")
                cells.append(f'<td class="w{" in" if w == r.window else ""}">{mark}</td>')
        label = ""
        if r.status != "legal":
            label = f'{icon(r.status)} <span class="badge">{esc(LABELS[r.status])}</span> '
        elif diverges:
            label = f'{icon("diverge")} <span class="badge">DIVERGES HERE</span> '
        cells.append(f'<td class="action">{label}{self.line_link(t, pid, r.line, "muted")} {esc(r.text)}</td>')
        cells.append(f'<td class="prio">{esc(r.priority or "") if r.status == "legal" else ""}</td>')
        cells.append(f"<td>{self.chain(r)}</td>")
        changes = "".join(f"<li>{arrows(c.text)}</li>" for c in r.changes)
        cells.append(f'<td><ul class="changes">{changes}</ul></td>' if changes else "<td></td>")
        for p, value in r.lp.items():
            cells.append(f'<td class="lp{" changed" if value != lp_before[p] else ""}">{int(value)}</td>')
        return f'<tr class="{cls}" id="{rid}">' + "".join(cells) + "</tr>"

    def window_head(self, w: str, rowspan: int = 1) -> str:
        span = f' rowspan="{rowspan}"' if rowspan > 1 else ""
        return f'<th class="w"{span} title="{esc(vocab.WINDOW_TITLES[w])}"><span>{esc(w)}</span></th>'

    def chain(self, r) -> str:
        items = [self.link(k, "gone", "negated" if k.negated else "resolved") for k in r.resolved]
        items = [self.link(k) for k in reversed(r.chain)] + items
        return f'<ol class="chain">{"".join(items)}</ol>' if items else ""

    def link(self, k, cls: str = "", tag: str = "") -> str:
        target = f" → {esc(k.target)}" if k.target and k.target != k.card else ""
        negated = '<span class="tag">negated</span>' if k.negated and not tag else ""
        return (f'<li class="{cls}"><span class="cl">CL{int(k.number)}</span> {esc(k.what)}{target} '
                f'<span class="muted">· {esc(k.player)} · Spell Speed {int(k.speed)}</span>{negated}'
                + (f'<span class="tag">{esc(tag)}</span>' if tag else "") + "</li>")

    def refusal(self, t: Timeline, r, pid: str) -> str:
        v = t.verdict
        if r.status == "error":
            return f"<p>{esc(r.message)}</p>"
        if r.status != "illegal" or v.verdict != "illegal":
            return f"<p>{esc(v.message or 'no verdict for this action')}</p>"
        out = [f"<h3>Why action #{int(r.index)} is illegal</h3>"]
        reason = getattr(v, "reason", None)
        if reason:
            out.append(f"<p>{esc(reason)}</p>")
        out.append("<p>It breaks:</p><ul class=\"broken\">" + "".join(
            f"<li>{self.rule_with_sources(x)}: {esc(x['statement'])}</li>" for x in v.violations) + "</ul>")
        out.append("<p>Because:</p><ul class=\"facts\">" + "".join(
            f"<li>{self.fact(f, pid, t)}</li>" for f in v.facts) + "</ul>")
        if r.options is not None:
            out.append(self.options(r.options, f"What could have been done instead of action #{int(r.index)}"))
        return "".join(out)

    def opening(self, o, ncols: int) -> str:
        when = "before the first action" if o.after == 0 else f"after action #{int(o.after)}"
        title = f"{esc(o.window)} opens ({esc(vocab.WINDOW_TITLES[o.window])}), {when}"
        return f'<tr class="opening"><td colspan="{ncols}">{self.options(o.options, title, raw=True)}</td></tr>'

    def options(self, o, title: str, raw: bool = False) -> str:
        """The options, folded: who could activate what; the refused ones with their rules."""
        head = title if raw else esc(title)
        counts = []
        for p in vocab.PLAYERS:
            mine = [x for x in o.cards if x.player == p]
            ok = [x.what for x in mine if x.allowed]
            counts.append(f"{esc(p)}: " + (", ".join(f"<code>{esc(w)}</code>" for w in ok) if ok else "nothing")
                          + f" ({len(ok)} of {len(mine)} allowed)")
        rows = "".join(self.option_row(x) for x in o.cards + o.game)
        return (f'<details class="options"><summary>{head} — could be activated: {"; ".join(counts)}</summary>'
                f"<table><tr><th>player</th><th>action</th><th>answer</th><th>refused by</th></tr>{rows}</table>"
                "</details>")

    def option_row(self, x) -> str:
        kind = {True: "allowed", False: "refused", None: "unknown"}[x.allowed]
        rules = ", ".join(self.rule_with_sources(r) for r in x.rules)
        return (f'<tr class="{kind}"><td>{esc(x.player or "")}</td><td><code>{esc(x.what)}</code></td>'
                f"<td>{icon(kind)} {esc(LABELS[kind])}</td>"
                f"<td>{rules}</td></tr>")

    def source(self, t: Timeline, pid: str) -> str:
        text = t.source or ""
        lines = "".join(f'<span id="{pid}-L{n}"><span class="ln">{n}</span>{esc(line)}</span>'
                        for n, line in enumerate(text.splitlines(), start=1))
        return (f"<details class=\"source\" open><summary>The play ({esc(t.verdict.path)})</summary>"
                f'<pre class="src">{lines}</pre></details>')

    def summary(self, timelines, ids) -> str:
        rows = []
        for t, pid in zip(timelines, ids):
            v, bad = t.verdict, t.illegal
            first = (f'<a href="#{pid}-illegal">#{int(bad.index)} (line {int(bad.line)})</a> <code>{esc(bad.text)}</code>'
                     if bad is not None else "")
            expect = "" if not v.expect else ("as expected" if v.matches_expect() else f"expected {esc(v.expect)}")
            rows.append(f'<tr><td><a href="#{pid}">{esc(v.path)}</a></td><td>{esc(v.ruleset)}</td>'
                        f'<td class="{esc(v.verdict)}">{icon(v.verdict)} {esc(v.verdict.upper())}</td>'
                        f"<td>{expect}</td><td>{first}</td>"
                        f"<td>{', '.join(self.rule(x['rule']) for x in v.violations)}</td></tr>")
        return ("<table class=\"summary\"><tr><th>play</th><th>rule set</th><th>verdict</th><th>expectation</th>"
                "<th>first illegal action</th><th>rules broken</th></tr>" + "".join(rows) + "</table>")

    # --- the page's parts ---------------------------------------------------------------------------
    def glossary(self) -> str:
        member = rulesets.membership()
        items = []
        for rid in [r for r in rule_order() if r in self.cited] + sorted(self.cited - set(rule_order())):
            i = self.info.get(rid, {"statement": "(not in the rulebook)", "sources": []})
            items.append(f'<dt id="rule-{anchor(rid)}">{esc(rid)}</dt><dd>{esc(i["statement"])}<br>'
                         f'<span class="muted">sources: {esc("; ".join(i["sources"]))}; rule sets: '
                         f'{esc(", ".join(member.get(rid, [])) or "none")}</span></dd>')
        return ('<section id="rules"><h2>Rules cited</h2><dl class="rules">' + "".join(items) + "</dl></section>"
                if items else "")


def report(timelines) -> str:
    """The page for these plays' timelines (a summary table first when there are several)."""
    r = Renderer()
    ids = [f"p{k}" for k in range(1, len(timelines) + 1)]
    counts = {}
    for t in timelines:
        counts[t.verdict.verdict] = counts.get(t.verdict.verdict, 0) + 1
    parts = ["<header><h1>ygo-timing: Battle Phase timelines</h1>",
             f"<p>{len(timelines)} play(s): " + ", ".join(f"{n} {esc(k)}" for k, n in sorted(counts.items()))
             + "</p></header>"]
    if len(timelines) > 1:
        parts.append(r.summary(timelines, ids))
    parts += [r.play(t, pid) for t, pid in zip(timelines, ids)]
    parts.append(r.glossary())
    return page("ygo-timing: " + (timelines[0].verdict.path if len(timelines) == 1 else
                                  f"{len(timelines)} plays"), "\n".join(parts))

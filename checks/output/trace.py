"""`check --trace`: a play's timeline as text for a terminal, no line wider than WIDTH columns --
each window as a heading, under it the actions taken in it with the Chain and what changed, and
the illegal action with the rules it breaks, why, and the facts behind it."""
from __future__ import annotations

import textwrap

from ygo_timing.model import rulesets, vocab
from ygo_timing.output.report import headline
from ygo_timing.output.timeline import Link, Timeline

WIDTH = 100
ACTION = 9    # where an action's text starts: "  nnnn  " then the text
STATUS = {"illegal": "ILLEGAL: the first illegal action", "unknown": "UNDECIDED: the solver gave up here",
          "error": "ERROR in this action"}


def _wrap(text: str, indent: int, hang: int = 2) -> list:
    return textwrap.wrap(text, WIDTH, initial_indent=" " * indent, subsequent_indent=" " * (indent + hang),
                         break_on_hyphens=False) or [" " * indent]


def link_text(link: Link, say_negated: bool = True) -> str:
    target = f" -> {link.target}" if link.target and link.target != link.card else ""
    negated = ", negated" if link.negated and say_negated else ""
    return f"[{link.number}] {link.what} ({link.player}, Spell Speed {link.speed}{negated}){target}"


def chain_text(chain: list) -> str:
    return "Chain, top first: " + " | ".join(link_text(k) for k in reversed(chain)) if chain else "Chain: empty"


def trace(t: Timeline) -> str:
    v = t.verdict
    out = _wrap(headline(v), 0, 4)
    if t.play is not None and t.play.title:
        out += _wrap(t.play.title, 2)
    out += _wrap(f"rule set {v.ruleset}: {rulesets.load(v.ruleset).description}", 2, 4)
    reason = getattr(v, "reason", None)
    if reason:
        out += _wrap(f"reason: {reason}", 2, 4)
    if v.message and not t.rows:
        out += _wrap(v.message, 2, 4)
    for note in t.notes:
        out += _wrap(f"note: {note}", 2, 4)
    if not t.rows and t.play is None:
        return "\n".join(out)
    out += _wrap("windows: " + ", ".join(t.windows), 2, 4)
    out += _wrap("set-up: " + ", ".join(f"LP {p} {lp}" for p, lp in t.lp.items()), 2, 4)
    for c in t.cards:
        out += _wrap(f"{c['player']} {c['label']}: {c['kind']}; {c['text']} (line {c['line']})", 4, 4)
    window, chain = None, []
    for r in t.rows:
        if r.window != window:
            window = r.window
            out += _wrap(f"{window} -- {vocab.WINDOW_TITLES[window]}", 2, 4)
        head = f"{r.index:>4}  line {r.line}: {r.text}"
        if r.status == "legal" and r.priority:
            head += f"   [priority {r.priority}]"
        out += _wrap(head, 2, ACTION)
        if r.status != "legal":
            out += _wrap(f"** {STATUS[r.status]} **", ACTION)
            out += _refusal(t, r)
            continue
        for k in r.resolved:
            out += _wrap(("resolved negated: " if k.negated else "resolved: ") + link_text(k, False), ACTION)
        if r.chain != chain or r.resolved:
            out += _wrap(chain_text(r.chain), ACTION)
        chain = r.chain
        for c in r.changes:
            out += _wrap(c.text, ACTION)
    if t.rows:
        last = t.rows[-1]
        out += _wrap("LP at the end: " + ", ".join(f"{p} {lp}" for p, lp in last.lp.items()), 2, 4)
    return "\n".join(out)


def _refusal(t: Timeline, r) -> list:
    v, out = t.verdict, []
    if r.status == "error":
        return _wrap(r.message, ACTION + 2)
    if r.status == "unknown" or v.verdict != "illegal":
        return _wrap(v.message or "", ACTION + 2) if v.message else []
    out += _wrap("breaks:", ACTION)
    for rule in v.violations:
        out += _wrap(f"{rule['rule']} ({'; '.join(rule['sources'])}): {rule['statement']}", ACTION + 2, 4)
    out += _wrap("because:", ACTION)
    for f in v.facts:
        out += _wrap(f"- {f}", ACTION + 2)
    return out


def text(timelines) -> str:
    return "\n\n".join(trace(t) for t in timelines)

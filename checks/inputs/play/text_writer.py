"""The text form's writer: a `Play` back to `.play` text (`to_text`), and one action as its
line (`render_action`).

Separate from the parser (text.py) because nothing here reads text: the writer only needs the
data model, and the JSON form (an action's `text`) and the symbolic questions (the lines of a
witness) render actions without parsing anything. parse_text(to_text(p)) gives p back.
"""
from __future__ import annotations

import json

from ygo_timing.inputs.play.model import (
    ZONE_WORDS,
    ActionSpec,
    CardSpec,
    Play,
    _q,
    render_ref,
)
from ygo_timing.model import vocab


def render_action(a: ActionSpec) -> str:
    r = render_ref
    k = a.kind
    if k == "enter_bp":
        return "enter battle phase"
    if k == "skip_bp":
        return "skip battle phase"
    if k == "end_bp":
        return "end battle phase"
    if k == "stop_attack":
        return "stop attack"
    if k == "attack":
        return f"attack {r(a.card)} direct" if a.direct else f"attack {r(a.card)} -> {r(a.target)}"
    if k == "activate":
        s = f"{'chain' if a.link == -1 else 'activate'} {a.player} {r(a.card)}"
        if a.effect != 1:
            s += f" effect {a.effect}"
        for t in (a.target, a.target2):
            if t is not None:
                s += f" target {r(t)}"
        if a.other is not None:
            s += f" cost {r(a.other)}"
        if a.link > 0:
            s += f" link {a.link}"
        return s
    if k == "pass":
        return f"pass {a.player}"
    if k == "resolve":
        return ("resolve" if a.card is None else f"resolve {r(a.card)}") + \
            "".join(f" choose {r(c)}" for c in (a.choice, a.choice2) if c is not None)
    if k == "next":
        return "next" if a.window is None else f"next {a.window}"
    if k == "retarget":
        return "retarget direct" if a.direct else f"retarget {r(a.target)}"
    if k == "replace":
        return f"replace {r(a.card)} with {r(a.other)}"
    if k == "claim":
        c = a.claim
        if c == "lp":
            return f"claim lp {a.player} {a.value}"
        if c in ("atk", "def", "location", "position", "counters"):   # claim <what> <card> <value>
            return f"claim {c} {r(a.card)} {a.value}"
        if c in ("window", "calc"):
            return f"claim {c} {a.window if c == 'window' else a.value}"
        words = {"destroyed_by_battle": ("destroyed", "not-destroyed"), "face_up": ("face-up", "face-down"),
                 "attacking": ("attacking", "not-attacking")}[c]   # claim <word> [card]
        return f"claim {words[0] if a.value else words[1]}" + (f" {r(a.card)}" if c != "attacking" else "")
    raise ValueError(f"cannot render action {a!r}")


def _free_text(s: str) -> str:
    needs_quotes = (
        "#" in s or s != s.strip() or any(ord(ch) < 0x20 or ch == "\x7f" for ch in s)
        or (s.startswith('"') and s.endswith('"'))
    )
    return _q(s) if needs_quotes else s


def to_text(play: Play) -> str:
    """The text form of a play (parse_text(to_text(p)) gives p back, up to line
    numbers and action text)."""
    out: list[str] = []
    if play.title:
        out.append(f"title: {_free_text(play.title)}")
    if play.source:
        out.append(f"source: {_free_text(play.source)}")
    if play.ruleset is not None:
        out.append(f"ruleset: {play.ruleset}")
    out.append(f"turn: {play.turn}")
    out.append(f"turn-player: {play.turn_player}")
    out.append("lp: " + ", ".join(f"{k} {play.lp[k]}" for k in vocab.PLAYERS if k in play.lp))
    if play.expect is not None:
        out.append(" ".join(["expect:", play.expect] + list(play.expect_rules)))
    if play.rules:
        out.append("rules: " + " ".join(play.rules))
    for entry in play.custom_cards:
        out.append("card: " + json.dumps(entry, ensure_ascii=False, separators=(", ", ": ")))
    if play.cards:
        out.append("")
    names = [c.name for c in play.cards]
    for c in play.cards:
        # No `as` when the card's name gives it its label back; auto labels
        # ("Name#2") are written out, so they come back as explicit labels.
        out.append(_setup_line(c, implicit=c.label == c.name and names.count(c.name) == 1))
    out.append("")
    for a in play.actions:
        out.append(render_action(a))
    return "\n".join(out) + "\n"


def _setup_line(c: CardSpec, implicit: bool) -> str:
    if c.zone == "spell_trap_zone":
        word = "spell" if c.face_up else "set"
        face_default = c.face_up
    else:
        word = next(w for w, (z, _) in ZONE_WORDS.items() if z == c.zone)
        face_default = ZONE_WORDS[word][1]
    parts = [c.player, word, _q(c.name)]
    if not implicit:
        parts.append("as " + render_ref(c.label))
    if c.face_up != face_default:
        parts.append("face-up" if c.face_up else "face-down")
    if c.defense:
        parts.append("defense")
    if c.atk is not None:
        parts.append(f"atk {c.atk}")
    if c.def_ is not None:
        parts.append(f"def {c.def_}")
    if c.equipped_to is not None:
        parts.append("equipped-to " + render_ref(c.equipped_to))
    if c.special_summoned:
        parts.append("special-summoned")
    if c.counters:
        parts.append(f"counters {c.counters}")
    if c.summoned_this_turn:
        parts.append("summoned-this-turn")
    if c.flip_summoned_this_turn:
        parts.append("flip-summoned-this-turn")
    parts += [f"used {n}" for n in c.used]
    return " ".join(parts)

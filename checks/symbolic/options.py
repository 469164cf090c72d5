"""What may each player do now? The judge's "can I respond here?" question.

The play is replayed with check's machinery (`checking.run.Run`) up to action N; then every candidate
action -- each activatable effect of each card of each player (with each target its text may
choose), passing, closing the window, resolving, declaring an attack, ending the Battle Phase --
is evaluated by the compiled step relation under the state reached (as `check` takes a legal
step); a refusal names the rules the compiled step finds broken. Asked why (`--why`), the
solver confirms each refusal as `check` confirms an illegal action and gives the facts behind it.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import z3
from ygo_timing.checking.explain import Explainer, Unknown
from ygo_timing.checking.facts import play_cards
from ygo_timing.checking.run import Run
from ygo_timing.checking.verdict import DEFAULT_RLIMIT, DEFAULT_TIMEOUT_MS
from ygo_timing.inputs.play import Play, PlayError
from ygo_timing.inputs.play import (
    render_ref as _ref,  # the play module's quoting, so lines parse back
)
from ygo_timing.model import compiled, rulesets, vocab
from ygo_timing.model.rulebook import rule_info
from ygo_timing.model.state import NONE, A, action


@dataclass
class Option:
    player: str | None
    what: str               # a play line (text form) for the action
    allowed: bool | None    # None: the solver answered unknown
    rules: list = field(default_factory=list)   # the rules that refuse it
    facts: list = field(default_factory=list)

    def to_dict(self):
        d = {"player": self.player, "action": self.what,
             "verdict": {True: "allowed", False: "refused", None: "unknown"}[self.allowed]}
        if self.allowed is False:
            d["rules"] = self.rules
            if self.facts:
                d["because"] = self.facts
        return d


@dataclass
class Options:
    path: str
    ruleset: str
    at: int                  # actions replayed
    at_text: str
    state: dict              # window, priority, Chain
    cards: list              # per player: activations
    game: list               # pass / next / resolve / attack / end
    mandatory: list          # pending mandatory triggers
    error: str | None = None

    def to_dict(self):
        return {"path": self.path, "ruleset": self.ruleset, "after_action": self.at, "action": self.at_text,
                "state": self.state, "activations": [o.to_dict() for o in self.cards],
                "game": [o.to_dict() for o in self.game], "mandatory": self.mandatory,
                **({"error": self.error} if self.error else {})}


def ask(run: Run, act: dict, text: str, why: bool = False):
    """(allowed, broken rule IDs, facts) for one candidate, leaving the run's state as it is.

    The compiled relation decides; the solver is asked only to explain a refusal (`why`), and
    then confirms it (checking.explain), or where the compiled relation cannot decide."""
    broken = run.evaluate(act) if run.evaluator is not None else None
    if broken == []:
        return True, [], []
    if broken is not None and not why and not any(r.startswith("(absent") for r in broken):
        order = rulesets.load(run.ruleset).rules   # the order the solver lists them in
        return False, sorted(broken, key=order.index), []
    run.current_line, run.current_text, run.current_act = 0, text, act
    pre, acts = run.assumptions(act)
    lits = list(run.rel.lits.values()) + list(run.rel.rlits.values())
    r = run.solve(lits + pre + acts)
    if r == z3.unknown:
        return None, [], []
    if r == z3.sat:
        if broken is not None:
            raise RuntimeError(f"`{text}`: the compiled relation refuses it ({', '.join(broken)}) and the "
                               "solver allows it")
        return True, [], []
    try:
        found, facts = Explainer(run).explain(pre, acts, expected=broken)
    except Unknown:
        return None, [], []
    return False, found, facts


def replay_to(play: Play, ruleset: str, cards: dict, at: int | None, timeout_ms: int):
    """Run the play's first `at` actions (all when None), with the compiled relation where it
    decides. Raises PlayError if one is illegal."""
    run = Run(play, ruleset, cards, timeout_ms, DEFAULT_RLIMIT)
    n = len(play.actions) if at is None else at
    if n < 0 or n > len(play.actions):
        raise PlayError(play.path, None, f"--at {n}: the play has {len(play.actions)} actions; "
                                         f"expected 0 to {len(play.actions)}")
    for a in play.actions[:n]:
        acts = run.steps_for(a)
        for act in (acts if acts is not None else run.resolve_steps(a)):
            result = None
            if run.evaluator is not None:
                try:
                    result, detail = run.eval_step(act, a.line, a.text)   # unsat: the rule IDs
                except compiled.Undetermined:
                    result = None
            if result is None:
                result, detail = run.step(act, a.line, a.text)
                detail = detail[0] if result == "unsat" else detail
            if result != "sat":
                why = "the solver answered unknown" if result == "unknown" else \
                    "it is illegal (" + ", ".join(detail) + ")"
                raise PlayError(play.path, a.line, f"cannot ask what may be done after action {n}: "
                                                   f"action `{a.text.strip()}` before it is not legal: {why}; "
                                                   "expected a legal play up to --at")
    return run, n


def options(play: Play, ruleset: str | None, cards_files=(), at: int | None = None,
            timeout_ms: int = DEFAULT_TIMEOUT_MS, why: bool = False) -> Options:
    """The options after action `at`; `why`: explain each refusal (the facts, by the solver)."""
    name = ruleset or play.ruleset or "ocg"
    cards = play_cards(play, cards_files)
    run, n = replay_to(play, name, cards, at, timeout_ms)
    return options_at(run, n, why)


def options_at(run: Run, n: int, why: bool = False) -> Options:
    """The options in the state `run` has reached after the play's first `n` actions (each
    candidate decided by `ask`; `why`: the solver explains each refusal)."""
    play, name = run.play, run.ruleset
    u, st = run.uni, run.state
    info = rule_info()
    at_text = play.actions[n - 1].text.strip() if n else "(the set-up: before the first action)"
    chain = [f"{u.label(u.effects[st[f'link_eff[{k}]']][0])} ({vocab.PLAYERS[st[f'link_player[{k}]']]})"
             for k in range(st["chain_len"])]
    state = {"window": vocab.WINDOWS[st["window"]], "priority": vocab.PLAYERS[st["prio"]] if st["prio"] in (0, 1) else None,
             "chain": chain, "resolving": st["resolving"]}

    def option(player, act, text):
        ok, broken, facts = ask(run, act, text, why)
        return Option(player, text, ok, [{"rule": r, "statement": info[r]["statement"], "sources": info[r]["sources"]}
                                         for r in broken], facts)

    acts = []
    for e, (c, k, eff) in enumerate(u.effects):
        if eff.kind == "continuous":
            continue   # applied, never activated (CH-4)
        p = u.specs[c].player
        pl = vocab.PLAYERS.index(p)
        ref = _ref(u.label(c)) + (f" effect {k}" if len(u.cards[c].effects) > 1 else "")
        verb = "chain" if st["chain_len"] else "activate"
        paid = _payable_card(u, st, c, eff, p)
        base = option(p, action(kind=A["activate"], player=pl, eff=e, other=NONE if paid is None else paid),
                      f"{verb} {p} {ref}" + ("" if paid is None else f" cost {_ref(u.specs[paid].label)}"))
        if base.allowed is False and (eff.chooses_target or eff.pays_with_card):
            # the text chooses a target, or its cost a card of the player's to discard or Tribute:
            # allowed if some choice is. The refusal shown names the first card the player could
            # pay with (never refused for want of a cost it can pay) and, if the text targets,
            # the first target its filter accepts (never refused for want of a target, GEN-17,
            # when one fits); it alone is explained, so the choices are asked without `why`.
            fitting = None
            for act, line in _choices(u, e, eff, pl, p, f"{verb} {p} {ref}"):
                ok, broken, _ = ask(run, act, line)
                if ok:
                    base = option(p, act, line)
                    break
                if fitting is None and eff.chooses_target and act["target"] != NONE and "GEN-17" not in broken \
                        and (paid is None or act["other"] == paid):
                    fitting = (act, line)
            else:
                if fitting is not None:
                    base = option(p, *fitting)
        acts.append(base)

    game = []
    for p in vocab.PLAYERS:
        game.append(option(p, action(kind=A["pass"], player=vocab.PLAYERS.index(p)), f"pass {p}"))
    game.append(option(None, action(kind=A["next"]), "next"))
    if st["chain_len"]:
        game += _resolutions(u, st, option)
    tp = vocab.PLAYERS.index(play.turn_player)
    if st["window"] == vocab.W["main1"]:
        game.append(option(None, action(kind=A["enter_bp"]), "enter battle phase"))
    if st["window"] in (vocab.W["battle_step"],):
        for i, spec in enumerate(u.specs):
            if spec.player != play.turn_player or u.cards[i].type != "monster":
                continue
            for t, tgt in enumerate(u.specs):
                if tgt.player != play.turn_player and u.cards[t].type == "monster":
                    game.append(option(None, action(kind=A["attack"], player=tp, card=i, target=t),
                                       f"attack {_ref(spec.label)} -> {_ref(tgt.label)}"))
            game.append(option(None, action(kind=A["attack"], player=tp, card=i, direct=True),
                               f"attack {_ref(spec.label)} direct"))
        game.append(option(None, action(kind=A["end_bp"]), "end battle phase"))
    mandatory = []
    for e, (c, k, eff) in enumerate(u.effects):
        if st.get(f"trig[{e}]") and eff.mandatory:
            mandatory.append({"player": u.specs[c].player, "card": u.label(c), "effect": k,
                              "note": "a mandatory trigger is pending: it must be activated before the window closes"})
    return Options(play.path, name, n, at_text, state, acts, game, mandatory)


def _resolutions(u, st, option) -> list:
    """Resolving the last Chain Link: plainly, or, for an effect that chooses cards as it resolves
    (GEN-22), with each choice its text may make that the relation allows (the cards that fit,
    one or two); when none is allowed, the plain `resolve` and why it is refused."""
    top = u.effects[st[f"link_eff[{st['chain_len'] - 1}]"]][2]
    plain = option(None, action(kind=A["resolve_link"]), "resolve")
    if top.choose is None:
        return [plain]
    cards = range(len(u.specs))
    picks = [(j, NONE) for j in cards]
    if top.choose.count > 1:
        picks += [(j, k) for j in cards for k in cards if k > j]   # the same two cards in either order are one choice
    allowed = [plain] if plain.allowed else []
    for j, k in picks:
        o = option(None, action(kind=A["resolve_link"], choice=j, choice2=k),
                   "resolve" + "".join(f" choose {_ref(u.specs[c].label)}" for c in (j, k) if c != NONE))
        if o.allowed:
            allowed.append(o)
    return allowed or [plain]


def _payable_card(u, st, card, eff, p):
    """The first card of player `p`'s that could pay the effect's discard (a card in the hand) or
    Tribute (a monster in the Monster Zone); None if its cost names no card or there is none."""
    if not eff.pays_with_card:
        return None
    where = {vocab.L[{"discard": "hand", "tribute": "monster_zone"}[x.do]] for x in eff.costs
             if x.do in ("discard", "tribute")}
    return next((i for i, spec in enumerate(u.specs)
                 if i != card and spec.player == p and st[f"loc[{i}]"] in where), None)


def _choices(u, e, eff, pl, p, line):
    """The activations of effect `e` naming targets and/or a cost card: every target its text
    may choose (and, for an effect that targets two, every second target besides the first),
    every card of the player's as the card paid (the relation decides which fit)."""
    cards = list(range(len(u.specs)))
    targets = [None] + (cards if eff.chooses_target else [])
    seconds = [None] + (cards if eff.second_filter is not None else [])
    costs = [None] + ([c for c, spec in enumerate(u.specs) if spec.player == p] if eff.pays_with_card else [])
    for t in targets:
        for t2 in (seconds if t is not None else [None]):
            for c in costs:
                if (t is None and c is None) or (t2 is not None and t2 == t):
                    continue
                yield (action(kind=A["activate"], player=pl, eff=e, target=NONE if t is None else t,
                              target2=NONE if t2 is None else t2, other=NONE if c is None else c),
                       line + "".join(f" target {_ref(u.specs[x].label)}" for x in (t, t2) if x is not None)
                       + ("" if c is None else f" cost {_ref(u.specs[c].label)}"))


def text(o: Options) -> str:
    s = o.state
    out = [f"{o.path}: under {o.ruleset}, after action {o.at} ({o.at_text})",
           f"  window: {s['window']} ({vocab.WINDOW_TITLES[s['window']]}); priority: {s['priority']}; "
           f"Chain: {', '.join(s['chain']) or 'empty'}{' (resolving)' if s['resolving'] else ''}"]
    for p in vocab.PLAYERS:
        mine = [x for x in o.cards if x.player == p]
        out.append(f"  {p}:")
        if not mine:
            out.append("    (no card with an activatable effect)")
        for x in mine:
            out.append("    " + _line(x))
    out.append("  the game:")
    for x in o.game:
        out.append("    " + _line(x))
    out.append("  mandatory effects pending: " + (", ".join(f"{m['card']} effect {m['effect']} ({m['player']})"
                                                            for m in o.mandatory) or "none"))
    return "\n".join(out)


def _line(x: Option) -> str:
    if x.allowed:
        return f"ALLOWED  {x.what}"
    if x.allowed is None:
        return f"UNKNOWN  {x.what} (the solver gave up)"
    return f"refused  {x.what} -- " + "; ".join(f"{r['rule']} ({'; '.join(r['sources'])})" for r in x.rules) + \
        "".join(f"\n        because: {f}" for f in x.facts)

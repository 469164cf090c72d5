"""A play as a timeline: one row per action -- the window it was taken in and the window after
it, the Chain after it (and the links it resolved), what it changed (LP, ATK/DEF, locations,
positions, the attack) -- and, where a window opens and before an illegal action, what each
player could have done (`options`). The rows come from stepping the play with check's own
`Run` and `walk`; the renderers (trace.py, html.py) only draw them."""
from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace

import z3
from ygo_timing.cards import catalogue
from ygo_timing.checking.facts import fact_terms, play_cards
from ygo_timing.checking.run import Run, walk
from ygo_timing.checking.verdict import DEFAULT_RLIMIT, DEFAULT_TIMEOUT_MS, Verdict
from ygo_timing.errors import InputError, internal
from ygo_timing.inputs import fileio
from ygo_timing.inputs.play import Play, PlayError, load
from ygo_timing.model import compiled, rulesets, vocab
from ygo_timing.model.rules.chain import speed_term
from ygo_timing.model.state import (
    CALC_DONE,
    CALC_PENDING,
    CALC_SKIPPED,
    NONE,
    A,
    Statics,
)
from ygo_timing.symbolic.options import Options, options_at


@dataclass
class Link:
    number: int              # Chain Link number, from 1
    card: str                # the card's label in the play
    effect: int              # the card's effect number, from 1
    player: str
    speed: int               # Spell Speed (CH-4)
    target: str | None       # what it targets: a label, or two joined by " and "
    negated: bool
    effects: int = 1         # how many effects the card has

    @property
    def what(self) -> str:
        """The card, and which of its effects when it has several (as options names them)."""
        return self.card + (f" effect {self.effect}" if self.effects > 1 else "")


@dataclass
class Change:
    what: str                # lp, atk, def, location, face_up, position, counters, destroyed, attack, calc, ...
    subject: str             # a player, a card's label, or "" for the battle
    text: str                # in words


@dataclass
class Row:
    index: int               # the action's number in the play, from 1
    line: int
    text: str
    window: str              # the window the action was taken in
    window_after: str
    priority: str | None     # who may act after it
    chain: list = field(default_factory=list)      # Links on the Chain after it, Chain Link 1 first
    resolved: list = field(default_factory=list)   # Links it resolved (or that resolved negated)
    changes: list = field(default_factory=list)
    lp: dict = field(default_factory=dict)         # LP after it
    status: str = "legal"    # legal | illegal (the first illegal action) | unknown | error
    message: str = ""        # error: what is wrong with the action
    options: Options | None = None   # illegal: what could have been done instead


@dataclass
class Opening:
    """What could be done when a window opened (after `after` actions; 0: the set-up)."""
    after: int
    window: str
    options: Options


@dataclass
class Timeline:
    play: Play | None
    verdict: Verdict
    windows: list            # the rule set's windows (and those the play visits), in order
    cards: list = field(default_factory=list)      # the set-up, one dict per card
    lp: dict = field(default_factory=dict)         # LP before the first action
    rows: list = field(default_factory=list)
    openings: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    source: str = ""         # the play's text, for its lines to be shown and linked

    @property
    def illegal(self) -> Row | None:
        return next((r for r in self.rows if r.status != "legal"), None)


def ruleset_windows(name: str, visited=()) -> list:
    """The windows a rule set's data names (its Damage Step, transitions, timing tables), with
    those a play visits (Main Phase 1, where every play starts), in vocab.WINDOWS order."""
    rs = rulesets.load(name)
    used = set(rs.damage_step) | {rs.calc_window, rs.flip["window"]} | set(visited)
    used |= {t[k] for t in rs.transitions for k in ("from", "to")}
    used |= {g["window"] for g in rs.timing_grants} | {w["window"] for w in rs.atk_windows}
    return [w for w in vocab.WINDOWS if w in used]


def of_verdicts(verdicts, cards_files=(), with_options: bool = True) -> list:
    """The timeline of each checked play file (read again from its path)."""
    out = []
    for v in verdicts:
        try:
            play = load(v.path)
        except PlayError:
            play = None   # the verdict already says what is wrong with it
        try:
            out.append(build(play, v, cards_files, with_options))
        except Exception as e:   # a bug draws a note on this play's page, never a traceback for all
            t = Timeline(None, v, ruleset_windows(v.ruleset, ["main1"]))
            t.notes.append(internal(v.path, e) + " (the timeline could not be drawn; the verdict stands)")
            out.append(t)
    return out


def build(play: Play | None, verdict: Verdict, cards_files=(), with_options: bool = True,
          source: str | None = None) -> Timeline:
    """The timeline of a play whose verdict is known (its header; its illegal action's rules and
    facts). Options come from the compiled relation, so a page of many plays stays quick.
    `source` is the play's text (default: its file's)."""
    t = Timeline(play, verdict, ruleset_windows(verdict.ruleset, ["main1"]))
    t.source = source if source is not None else _read(verdict.path)
    if play is None:
        return t
    try:
        cards = play_cards(play, cards_files)
        run = Run(play, verdict.ruleset, cards, DEFAULT_TIMEOUT_MS, DEFAULT_RLIMIT)
    except (PlayError, catalogue.CatalogueError) as e:
        t.notes.append(str(e))
        return t
    _setup(t, run)
    rec = _Recorder(run, t, with_options)
    stepper = run.eval_step if run.evaluator is not None else run.step
    try:
        outcome = walk(run, rec.stepper(stepper), rec.done)
    except compiled.Undetermined:   # the solver steps this play alone (as check does)
        run = Run(play, verdict.ruleset, cards, DEFAULT_TIMEOUT_MS, DEFAULT_RLIMIT)
        t.rows, t.openings = [], []
        rec = _Recorder(run, t, with_options)
        outcome = walk(run, rec.stepper(run.step), rec.done)
    if outcome.kind != "legal":
        rec.stopped(outcome)
    t.windows = ruleset_windows(verdict.ruleset, [r.window for r in t.rows] + [r.window_after for r in t.rows])
    _agree(t)
    return t


def _read(path: str) -> str:
    """The play's text for the page: a regular file only (a FIFO or device is not waited on)."""
    try:
        return fileio.read_regular(path, vocab.MAX_FILE_BYTES, InputError)[:vocab.MAX_FILE_BYTES].decode(
            "utf-8", errors="replace")
    except InputError:
        return ""


def _setup(t: Timeline, run: Run):
    st = run.state
    t.lp = {p: st[f"lp[{k}]"] for k, p in enumerate(vocab.PLAYERS)}
    for i, (spec, card) in enumerate(zip(run.uni.specs, run.uni.cards)):
        t.cards.append({"label": spec.label, "name": spec.name, "player": spec.player, "line": spec.line,
                        "kind": f"{card.subtype} {card.type}", "origin": card.origin,
                        "text": _card_state(run, st, i)})


def _card_state(run, st, i) -> str:
    where = vocab.LOCATIONS[st[f"loc[{i}]"]].replace("_", " ")
    counters = f", {st[f'counters[{i}]']} counter(s)" if st[f"counters[{i}]"] else ""
    if run.uni.cards[i].type != "monster" or where != "monster zone":
        equipped = st[f"equip[{i}]"]   # an Equip Card's monster (GEN-20)
        return where + ("" if st[f"faceup[{i}]"] or where == "graveyard" else ", face-down") + counters + \
            (f", equipped to {run.uni.label(equipped)}" if equipped != NONE else "")
    pos = ("face-up " if st[f"faceup[{i}]"] else "face-down ") + ("Defense" if st[f"defpos[{i}]"] else "Attack")
    return f"{where}, {pos} Position, ATK {st[f'atk[{i}]']} / DEF {st[f'def_[{i}]']}{counters}"


def spell_speeds(run: Run) -> list:
    """Each effect's Spell Speed: CH-4's own term (model/rules/chain.py), under the play's facts."""
    S = Statics()
    s = z3.Solver()
    s.add(*[term for term, _ in fact_terms(S, run.facts)])
    if s.check() != z3.sat:
        return [0] * len(run.uni.effects)
    m = s.model()
    ctx = SimpleNamespace(S=S)   # the only part of a rule's context speed_term reads
    return [m.eval(speed_term(ctx, z3.IntVal(e)), model_completion=True).as_long()
            for e in range(len(run.uni.effects))]


class _Recorder:
    """Wraps the stepper `walk` calls, and is told when each action is done: a row per action."""

    def __init__(self, run: Run, t: Timeline, with_options: bool):
        self.run, self.t, self.with_options = run, t, with_options
        self.speeds = spell_speeds(run)
        self.before = list(run.vals)
        self.resolved = []
        if with_options:
            self.opening(0)

    def stepper(self, inner):
        def step(act, line, text=""):
            top = None
            if act["kind"] == A["resolve_link"] and self.run.get("chain_len") > 0:
                top = self.chain(self.run.vals)[-1]
            result, detail = inner(act, line, text)
            if result == "sat" and top is not None:
                self.resolved.append(top)
            return result, detail
        return step

    def value(self, vals, name):
        return vals[self.run.index[name]]

    def chain(self, vals) -> list:
        u, v = self.run.uni, (lambda n: self.value(vals, n))
        out = []
        for k in range(v("chain_len")):
            e = v(f"link_eff[{k}]")
            c, number, _ = u.effects[e]
            tgts = [u.label(t) for t in (v(f"link_target[{k}]"), v(f"link_target2[{k}]")) if t != NONE]
            out.append(Link(k + 1, u.label(c), number, _player(v(f"link_player[{k}]")), self.speeds[e],
                            " and ".join(tgts) or None, bool(v(f"link_negated[{k}]")),
                            len(u.cards[c].effects)))
        return out

    def row(self, index, a, after, status="legal") -> Row:
        v = (lambda n: self.value(after, n))
        return Row(index, a.line, a.text.strip(), vocab.WINDOWS[self.value(self.before, "window")],
                   vocab.WINDOWS[v("window")], _player(v("prio")), self.chain(after), self.resolved,
                   changes(self.run, self.before, after) if status == "legal" else [],
                   {p: v(f"lp[{k}]") for k, p in enumerate(vocab.PLAYERS)}, status)

    def done(self, index, a):
        after = list(self.run.vals)
        r = self.row(index, a, after)
        self.t.rows.append(r)
        self.before, self.resolved = after, []
        if self.with_options and r.window_after != r.window:
            self.opening(index)

    def opening(self, after: int):
        o = options_at(self.run, after)
        self.t.openings.append(Opening(after, o.state["window"], o))

    def stopped(self, outcome):
        """The action the walk stopped at: illegal, undecided or wrong; drawn in the state before."""
        r = self.row(outcome.index, outcome.action, self.before,
                     {"illegal": "illegal", "unknown": "unknown"}.get(outcome.kind, "error"))
        r.window_after, r.resolved = r.window, []
        if outcome.kind == "error":
            r.message = str(outcome.detail)
        self.run.vals = list(self.before)
        if self.with_options and outcome.kind == "illegal":
            r.options = options_at(self.run, outcome.index - 1)
        self.t.rows.append(r)


def _player(p) -> str | None:
    return vocab.PLAYERS[p] if p in (0, 1) else None


def _agree(t: Timeline):
    """The stepping here and the verdict must name the same action; say so if they do not. The
    verdict has the last word: an action the solver could not decide is never drawn illegal."""
    v, bad = t.verdict, t.illegal
    if bad is not None and bad.status == "illegal" and v.verdict in ("unknown", "error"):
        bad.status, bad.message = v.verdict, v.message or ""
    if v.verdict == "illegal" and (bad is None or bad.index != v.first_illegal["index"]):
        t.notes.append(f"internal error, please report: the verdict names action "
                       f"#{v.first_illegal['index']}, the timeline {'#' + str(bad.index) if bad else 'none'}")
    elif v.verdict == "legal" and bad is not None:
        t.notes.append(f"internal error, please report: the verdict is legal, the timeline stops at "
                       f"action #{bad.index}")


# --- what an action changed ---------------------------------------------------------------------
def _where(loc) -> str:
    return vocab.LOCATIONS[loc].replace("_", " ")


def changes(run: Run, before: list, after: list) -> list:
    """What changed from `before` to `after`, in words: LP, ATK/DEF, locations, face-up/down,
    positions, Equip Cards' monsters, destruction by battle, the attack, damage calculation, battle
    damage, triggers."""
    u, idx = run.uni, run.index
    b, a = (lambda n: before[idx[n]]), (lambda n: after[idx[n]])
    out = []
    if (b("attacker"), b("target"), b("attacking")) != (a("attacker"), a("target"), a("attacking")):
        if a("attacking"):
            to = u.label(a("target")) if a("target") != NONE else "directly"
            out.append(Change("attack", "", f"attack: {u.label(a('attacker'))} -> {to}"))
        elif b("attacking"):
            out.append(Change("attack", "", "the battle ends"))
    if a("replay") and not b("replay"):
        out.append(Change("replay", "", "a replay: the attacker chooses again"))
    for i in range(len(u.specs)):   # cards first: what a resolving link did comes before the damage
        n, c = u.label(i), (lambda f, i=i: (b(f"{f}[{i}]"), a(f"{f}[{i}]")))
        for what, (x, y) in (("atk", c("atk")), ("def", c("def_"))):
            if x != y:
                out.append(Change(what, n, f"{n} {what.upper()}: {x} -> {y}"))
            # a gain "during damage calculation only" (atk_add_at_calc ...): said when it is made, not when it ends
            gx, gy = c(f"calc_{what}")
            if gy and gx != gy:
                out.append(Change(what, n, f"{n} {what.upper()} for damage calculation: {x + gx} -> {y + gy}"))
        x, y = c("loc")
        if x != y:
            out.append(Change("location", n, f"{n}: {_where(x)} -> {_where(y)}"))
        x, y = c("faceup")
        if x != y:
            out.append(Change("face_up", n, f"{n}: " + ("face-down -> face-up" if y else "face-up -> face-down")))
        x, y = c("defpos")
        if x != y:
            out.append(Change("position", n, f"{n}: " + ("Attack -> Defense Position" if y else
                                                          "Defense -> Attack Position")))
        x, y = c("counters")
        if x != y:
            out.append(Change("counters", n, f"{n} counters: {x} -> {y}"))
        if c("no_attack") == (False, True):
            out.append(Change("no_attack", n, f"{n}: cannot attack"))
        x, y = c("equip")   # an Equip Card (GEN-20)
        if x != y:
            out.append(Change("equip", n, f"{n}: " + (f"equipped to {u.label(y)}" if y != NONE else
                                                      f"no longer equipped (to {u.label(x)})")))
    if b("calc") != a("calc"):
        out.append(Change("calc", "", f"damage calculation: {CALC[b('calc')]} -> {CALC[a('calc')]}"))
    for i in range(len(u.specs)):
        if (b(f"dbb[{i}]"), a(f"dbb[{i}]")) == (False, True):
            out.append(Change("destroyed", u.label(i), f"{u.label(i)}: destroyed by battle"))
    for k, p in enumerate(vocab.PLAYERS):
        if a(f"bd[{k}]") != b(f"bd[{k}]") and a(f"bd[{k}]"):
            out.append(Change("damage", p, f"battle damage to {p}: {a(f'bd[{k}]')}"))
        if b(f"lp[{k}]") != a(f"lp[{k}]"):
            out.append(Change("lp", p, f"LP {p}: {b(f'lp[{k}]')} -> {a(f'lp[{k}]')}"))
    for e, (i, k, _) in enumerate(u.effects):
        if (b(f"trig[{e}]"), a(f"trig[{e}]")) == (False, True):
            out.append(Change("trigger", u.label(i), f"{u.label(i)} effect {k}: its trigger is pending"))
    return out


CALC = {CALC_PENDING: "pending", CALC_DONE: "done", CALC_SKIPPED: "skipped"}

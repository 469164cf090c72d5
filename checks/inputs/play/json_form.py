"""The JSON form (`.json`, and each line of JSON Lines): the parser and the writer, which round-trip.
Values keep their lines (jsonloc), so errors name the line as the text form's do."""
from __future__ import annotations

import json

from ygo_timing.inputs import jsonloc
from ygo_timing.inputs.play.model import (
    ACTION_KINDS,
    CALC_VALUES,
    CLAIM_KINDS,
    DEFAULT_FACE_UP,
    EQUIP_MOVED,
    MAX_INLINE_CARDS,
    MAX_NAME,
    MAX_NUMBER,
    MAX_RULE_IDS,
    POSITIONS,
    RULESETS,
    SETUP_ZONES,
    ActionSpec,
    CardSpec,
    Play,
    PlayError,
    _assign_labels,
    _check_rule_id,
    _check_setup_card,
    _one_of,
    _q,
    _resolve,
    _resolve_equips,
    _short,
    _short_q,
)
from ygo_timing.inputs.play.text_writer import render_action
from ygo_timing.model import vocab

_TOP_KEYS = ("$schema", "title", "ruleset", "turn", "turn_player", "lp", "expect", "rules",
             "source", "cards", "setup", "actions")
# "equip": an empty list only, as earlier versions wrote it (an Equip Card is a card of its own: "equipped_to")
_SETUP_KEYS = ("player", "zone", "card", "label", "face_up", "defense", "atk", "def", "equip", "equipped_to",
               "special_summoned", "counters", "summoned_this_turn", "flip_summoned_this_turn", "used")
_ACTION_KEYS = {
    "enter_bp": (), "skip_bp": (), "end_bp": (), "stop_attack": (),
    "attack": ("card", "target", "direct"),
    "activate": ("player", "card", "effect", "target", "cost", "link"),
    "pass": ("player",),
    "resolve": ("card", "choose"),
    "next": ("window",),
    "retarget": ("target", "direct"),
    "replace": ("card", "other"),
    "claim": ("claim", "player", "card", "window", "value"),
}
_CLAIM_KEYS = {
    "lp": ("player", "value"), "atk": ("card", "value"),
    "destroyed_by_battle": ("card", "value"), "location": ("card", "value"),
    "face_up": ("card", "value"), "window": ("window",), "calc": ("value",),
    "def": ("card", "value"), "position": ("card", "value"), "attacking": ("value",),
    "counters": ("card", "value"),
}


class _JsonParser:
    def __init__(self, doc: jsonloc.Located, path: str):
        self.doc = doc
        self.path = path

    def err(self, line, message):
        raise PlayError(self.path, line, message)

    def at(self, p: tuple) -> int:
        return self.doc.line(p) or 1

    def fail(self, p: tuple, message: str):
        self.err(self.at(p), message)

    @staticmethod
    def name(p: tuple) -> str:
        out = ""
        for k in p:
            out += f"[{k}]" if isinstance(k, int) else (f".{k}" if out else k)
        return out or "the document"

    def obj(self, v, p, keys, what):
        if not isinstance(v, dict):
            self.fail(p, f"{self.name(p)}: expected a JSON object ({what}), got {_jtype(v)}")
        for k in v:
            if k not in keys:
                self.fail(p + (k,), f"unknown key {_short_q(k)} in {what}; " + _one_of(keys))
        return v

    def string(self, v, p, nonempty=True):
        if not isinstance(v, str):
            self.fail(p, f"{self.name(p)}: expected a string, got {_jtype(v)}")
        if nonempty and not v:
            self.fail(p, f"{self.name(p)}: expected a non-empty string")
        return v

    def boolean(self, v, p):
        if not isinstance(v, bool):
            self.fail(p, f"{self.name(p)}: expected true or false, got {_jtype(v)}")
        return v

    def integer(self, v, p, low=0, high=MAX_NUMBER):
        if isinstance(v, bool) or not isinstance(v, int):
            self.fail(p, f"{self.name(p)}: bad number {json.dumps(v)[:40]}; expected a whole number "
                         f"{low} or more")
        if v < low or v > high:
            self.fail(p, f"{self.name(p)}: number {_short(str(v), quote=str)} out of range; "
                         f"expected {low} to {high}")
        return v

    def enum(self, v, p, options, what):
        if not isinstance(v, str) or v not in options:
            shown = _short_q(v) if isinstance(v, str) else _jtype(v)
            self.fail(p, f"{self.name(p)}: unknown {what} {shown}; " + _one_of(options))
        return v

    def array(self, v, p):
        if not isinstance(v, list):
            self.fail(p, f"{self.name(p)}: expected an array, got {_jtype(v)}")
        return v

    def parse(self) -> Play:
        top = self.obj(self.doc.value, (), _TOP_KEYS, "a play")
        play = Play(path=self.path)
        for k in top:
            if k in ("title", "ruleset", "turn", "turn_player", "lp", "expect", "rules", "source"):
                play.line_of[k] = self.at((k,))
        if "$schema" in top:
            self.string(top["$schema"], ("$schema",))
        if "title" in top:
            play.title = self.string(top["title"], ("title",), nonempty=False)
        if "source" in top:
            play.source = self.string(top["source"], ("source",), nonempty=False)
        if top.get("ruleset") is not None:
            play.ruleset = self.enum(top["ruleset"], ("ruleset",), RULESETS, "ruleset")
        if "turn" in top:
            play.turn = self.integer(top["turn"], ("turn",), low=1)
        if "turn_player" in top:
            play.turn_player = self.enum(top["turn_player"], ("turn_player",), vocab.PLAYERS, "player")
        if "lp" in top:
            lp = self.obj(top["lp"], ("lp",), vocab.PLAYERS, "lp (LP per player)")
            for pl, n in lp.items():
                play.lp[pl] = self.integer(n, ("lp", pl))
        if top.get("expect") is not None:
            e = self.obj(top["expect"], ("expect",), ("verdict", "rules"), "expect")
            if "verdict" not in e:
                self.fail(("expect",), "expect: missing key \"verdict\"; expected \"legal\" or \"illegal\"")
            play.expect = self.enum(e["verdict"], ("expect", "verdict"), ("legal", "illegal"), "verdict")
            rules = self.rule_ids(e.get("rules", []), ("expect", "rules"))
            if play.expect == "legal" and rules:
                self.fail(("expect", "rules"), "expect.rules must be empty when the verdict is \"legal\"")
            play.expect_rules = rules
        if "rules" in top:
            play.rules = self.rule_ids(top["rules"], ("rules",))
        if "cards" in top:
            for i, entry in enumerate(self.array(top["cards"], ("cards",))):
                if i >= MAX_INLINE_CARDS:
                    self.fail(("cards", i), f"too many cards in \"cards\": a play defines at most "
                                            f"{MAX_INLINE_CARDS}")
                if not isinstance(entry, dict):
                    self.fail(("cards", i), f"cards[{i}]: expected a JSON object (a catalogue entry), "
                                            f"got {_jtype(entry)}")
                play.custom_cards.append(entry)
            for sub, ln in self.doc.lines.items():
                if len(sub) >= 2 and sub[0] == "cards":
                    play.line_of[("custom_cards",) + sub[1:]] = ln
        pending, equips = [], []
        for i, c in enumerate(self.array(top.get("setup", []), ("setup",))):
            if i >= vocab.MAX_CARDS:
                self.fail(("setup", i), f"too many cards: a play has at most {vocab.MAX_CARDS}")
            pending.append(self.setup_card(c, ("setup", i)))
            ref = c.get("equipped_to")
            if ref is not None:
                equips.append((pending[-1][0], self.string(ref, ("setup", i, "equipped_to")),
                               self.at(("setup", i, "equipped_to"))))
        play.cards = [c for c, _ in pending]
        _assign_labels(pending, self.err)
        _resolve_equips(play.cards, equips, self.err)
        if "actions" not in top:
            self.fail((), "missing key \"actions\"; expected a list of at least one action")
        acts = self.array(top["actions"], ("actions",))
        if not acts:
            self.fail(("actions",), "actions: expected at least one action")
        for i, a in enumerate(acts):
            if i >= vocab.MAX_ACTIONS:
                self.fail(("actions", i), f"too many actions: a play has at most {vocab.MAX_ACTIONS}")
            play.actions.append(self.action(a, ("actions", i), play.cards))
        return play

    def rule_ids(self, v, p) -> list[str]:
        out = []
        if len(self.array(v, p)) > MAX_RULE_IDS:
            self.fail(p, f"{self.name(p)}: {len(v)} rule IDs; expected at most {MAX_RULE_IDS}")
        for i, rid in enumerate(self.array(v, p)):
            self.string(rid, p + (i,))
            _check_rule_id(rid, self.err, self.at(p + (i,)))
            out.append(rid)
        return out

    def setup_card(self, c, p):
        c = self.obj(c, p, _SETUP_KEYS, "a set-up card")
        for k in ("player", "zone", "card"):
            if k not in c:
                self.fail(p, f"{self.name(p)}: missing key {_short_q(k)}; expected "
                             "\"player\", \"zone\" and \"card\"")
        player = self.enum(c["player"], p + ("player",), vocab.PLAYERS, "player")
        zone = c["zone"]
        if not isinstance(zone, str) or zone not in SETUP_ZONES:
            shown = _short_q(zone) if isinstance(zone, str) else _jtype(zone)
            self.fail(p + ("zone",), f"{self.name(p + ('zone',))}: unknown zone {shown}; "
                      + _one_of(SETUP_ZONES))
        name = self.string(c["card"], p + ("card",))
        if not name.strip() or len(name) > MAX_NAME:
            self.fail(p + ("card",), f"{self.name(p + ('card',))}: card name of {len(name)} characters; "
                                     f"expected 1 to {MAX_NAME} (as in the catalogue)")
        label = c.get("label")
        if label is not None:
            label = self.string(label, p + ("label",))
        face_up = c.get("face_up")
        face_up = DEFAULT_FACE_UP[zone] if face_up is None else self.boolean(face_up, p + ("face_up",))
        defense = c.get("defense")
        defense = False if defense is None else self.boolean(defense, p + ("defense",))
        atk = c.get("atk")
        atk = None if atk is None else self.integer(atk, p + ("atk",))
        def_ = c.get("def")
        def_ = None if def_ is None else self.integer(def_, p + ("def",))
        if c.get("equip") is not None and self.array(c["equip"], p + ("equip",)):
            self.fail(p + ("equip",), f"{self.name(p + ('equip',))}: \"equip\" is no set-up key any more (an empty "
                                      f"list is read as nothing): {EQUIP_MOVED}")
        special = c.get("special_summoned")
        special = False if special is None else self.boolean(special, p + ("special_summoned",))
        this_turn, flip = (False if c.get(k) is None else self.boolean(c[k], p + (k,))
                           for k in ("summoned_this_turn", "flip_summoned_this_turn"))
        counters = c.get("counters")
        counters = 0 if counters is None else self.integer(counters, p + ("counters",))
        used = [] if c.get("used") is None else self.array(c["used"], p + ("used",))
        used = [self.integer(n, p + ("used", k), low=1) for k, n in enumerate(used)]
        if len(set(used)) < len(used):
            self.fail(p + ("used",), f"{self.name(p + ('used',))}: an effect number given twice; expected each of "
                                     "the card's effects at most once")
        card = CardSpec(label="", name=name, player=player, zone=zone, face_up=face_up,
                        defense=defense, atk=atk, def_=def_, line=self.at(p),
                        special_summoned=special, counters=counters, summoned_this_turn=this_turn,
                        flip_summoned_this_turn=flip, used=tuple(used))
        _check_setup_card(card, self.err)
        return card, label

    def action(self, a, p, cards) -> ActionSpec:
        if not isinstance(a, dict):
            self.fail(p, f"{self.name(p)}: expected a JSON object (an action), got {_jtype(a)}")
        if "do" not in a:
            self.fail(p, f"{self.name(p)}: missing key \"do\"; " + _one_of(ACTION_KINDS))
        kind = a["do"]
        if not isinstance(kind, str) or kind not in ACTION_KINDS:
            shown = _short_q(kind) if isinstance(kind, str) else _jtype(kind)
            self.fail(p + ("do",), f"unknown action {shown}; " + _one_of(ACTION_KINDS))
        allowed = ("do",) + _ACTION_KEYS[kind]
        if kind == "claim":
            if a.get("claim") is None:
                self.fail(p, f"{self.name(p)}: missing key \"claim\"; " + _one_of(CLAIM_KINDS))
            self.enum(a["claim"], p + ("claim",), CLAIM_KINDS, "claim")
            allowed = ("do", "claim") + _CLAIM_KEYS[a["claim"]]
        self.obj(a, p, allowed, f"a {_q(kind)} action")
        line = self.at(p)
        spec = ActionSpec(kind=kind, line=line, text="")
        get = a.get

        def card(key, required=True):
            v = get(key)
            if v is None:
                if required:
                    self.fail(p, f"{self.name(p)}: missing key {_q(key)}; expected a card label or name")
                return None
            self.string(v, p + (key,))
            return _resolve(cards, v, self.err, self.at(p + (key,)))

        def player():
            if get("player") is None:
                self.fail(p, f"{self.name(p)}: missing key \"player\"; expected \"A\" or \"B\"")
            return self.enum(a["player"], p + ("player",), vocab.PLAYERS, "player")

        def window(required):
            v = get("window")
            if v is None:
                if required:
                    self.fail(p, f"{self.name(p)}: missing key \"window\"; " + _one_of(vocab.WINDOWS))
                return None
            return self.enum(v, p + ("window",), vocab.WINDOWS, "window")

        def value_required():
            if "value" not in a or a["value"] is None:
                self.fail(p, f"{self.name(p)}: missing key \"value\"")
            return a["value"]

        if kind == "attack":
            spec.card = card("card")
            direct = get("direct")
            spec.direct = False if direct is None else self.boolean(direct, p + ("direct",))
            spec.target = card("target", required=False)
            if spec.direct == (spec.target is not None):
                self.fail(p, f"{self.name(p)}: an attack needs exactly one of \"target\" (a card) "
                             "or \"direct\": true")
        elif kind == "activate":
            spec.player = player()
            spec.card = card("card")
            if get("effect") is not None:
                spec.effect = self.integer(a["effect"], p + ("effect",), low=1)
            if isinstance(get("target"), list):   # an effect that targets two cards
                items = self.array(a["target"], p + ("target",))
                if not 1 <= len(items) <= 2:
                    self.fail(p + ("target",), f"{self.name(p)}: \"target\" lists 1 or 2 cards, got {len(items)}")
                labels = [_resolve(cards, self.string(v, p + ("target", j)), self.err, self.at(p + ("target", j)))
                          for j, v in enumerate(items)]
                spec.target, spec.target2 = labels[0], (labels[1] if len(labels) > 1 else None)
            else:
                spec.target = card("target", required=False)
            spec.other = card("cost", required=False)
            if get("link") is not None:
                spec.link = self.integer(a["link"], p + ("link",), low=-1)
        elif kind == "pass":
            spec.player = player()
        elif kind == "resolve":
            spec.card = card("card", required=False)
            if isinstance(get("choose"), list):   # the cards the link chooses as it resolves (GEN-22)
                items = self.array(a["choose"], p + ("choose",))
                if not 1 <= len(items) <= vocab.MAX_CHOICES:
                    self.fail(p + ("choose",), f"{self.name(p)}: \"choose\" lists 1 or {vocab.MAX_CHOICES} cards, "
                                               f"got {len(items)}")
                labels = [_resolve(cards, self.string(v, p + ("choose", j)), self.err, self.at(p + ("choose", j)))
                          for j, v in enumerate(items)]
                spec.choice, spec.choice2 = labels[0], (labels[1] if len(labels) > 1 else None)
            else:
                spec.choice = card("choose", required=False)
        elif kind == "next":
            spec.window = window(False)
        elif kind == "retarget":
            direct = get("direct")
            spec.direct = False if direct is None else self.boolean(direct, p + ("direct",))
            spec.target = card("target", required=False)
            if spec.direct == (spec.target is not None):
                self.fail(p, f"{self.name(p)}: retarget needs exactly one of \"target\" (a card) "
                             "or \"direct\": true")
        elif kind == "replace":
            spec.card = card("card")
            spec.other = card("other")
        elif kind == "claim":
            c = spec.claim = a["claim"]
            vp = p + ("value",)
            if c == "lp":
                spec.player = player()
                spec.value = self.integer(value_required(), vp)
            elif c in ("atk", "def", "counters"):
                spec.card = card("card")
                spec.value = self.integer(value_required(), vp)
            elif c == "position":
                spec.card = card("card")
                spec.value = self.enum(value_required(), vp, POSITIONS, "battle position")
            elif c == "attacking":
                spec.value = self.boolean(value_required(), vp)
            elif c in ("destroyed_by_battle", "face_up"):
                spec.card = card("card")
                spec.value = self.boolean(value_required(), vp)
            elif c == "location":
                spec.card = card("card")
                spec.value = self.enum(value_required(), vp, SETUP_ZONES, "zone")
            elif c == "window":
                spec.window = window(True)
            elif c == "calc":
                spec.value = self.enum(value_required(), vp, CALC_VALUES, "calc state")
        spec.text = render_action(spec)
        return spec


def _jtype(v) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return f"the number {v}"
    if isinstance(v, str):
        return f"the string {_q(v[:40])}"
    if isinstance(v, list):
        return "an array"
    return "an object"


def decode_bytes(data: bytes, path: str, first_line: int = 1) -> str:
    if len(data) > vocab.MAX_FILE_BYTES:   # load() reads one byte past the limit, no more
        raise PlayError(path, None, f"file is larger than the limit of {vocab.MAX_FILE_BYTES} bytes "
                                    f"({vocab.MAX_FILE_BYTES // 2**20} MB); expected a smaller play")
    try:
        return jsonloc.decode_utf8(data, path)
    except jsonloc.JsonError as e:   # the line in the file, not in this record (JSON Lines)
        raise PlayError(path, e.line + first_line - 1, e.message) from None


def parse_json(data: bytes | str, path: str, first_line: int = 1) -> Play:
    """Parse the JSON form (`first_line`: where it starts in its file, e.g. a JSON Lines line)."""
    text = decode_bytes(data, path, first_line) if isinstance(data, (bytes, bytearray)) else data
    if len(text) > vocab.MAX_FILE_BYTES:
        raise PlayError(path, None, f"file is larger than the limit of {vocab.MAX_FILE_BYTES} bytes")
    try:
        doc = jsonloc.loads(text, path, first_line=first_line)
    except jsonloc.JsonError as e:
        raise PlayError(path, e.line, e.message) from None
    return _JsonParser(doc, path).parse()


def to_json(play: Play) -> dict:
    """The JSON form of a play (parse_json(json.dumps(to_json(p))) gives p back,
    up to line numbers and action text)."""
    out: dict = {}
    if play.title:
        out["title"] = play.title
    out["ruleset"] = play.ruleset
    out["turn"] = play.turn
    out["turn_player"] = play.turn_player
    out["lp"] = {k: play.lp[k] for k in vocab.PLAYERS if k in play.lp}
    out["expect"] = (None if play.expect is None
                     else {"verdict": play.expect, "rules": list(play.expect_rules)})
    out["rules"] = list(play.rules)
    if play.source:
        out["source"] = play.source
    out["cards"] = [dict(c) for c in play.custom_cards]
    out["setup"] = [
        {"player": c.player, "zone": c.zone, "card": c.name, "label": c.label,
         "face_up": c.face_up, "defense": c.defense, "atk": c.atk, "def": c.def_,
         **({"equipped_to": c.equipped_to} if c.equipped_to is not None else {}),
         **({"special_summoned": True} if c.special_summoned else {}),
         **({"summoned_this_turn": True} if c.summoned_this_turn else {}),
         **({"flip_summoned_this_turn": True} if c.flip_summoned_this_turn else {}),
         **({"counters": c.counters} if c.counters else {}),
         **({"used": list(c.used)} if c.used else {})}
        for c in play.cards
    ]
    out["actions"] = [_action_json(a) for a in play.actions]
    return out


def _action_json(a: ActionSpec) -> dict:
    d: dict = {"do": a.kind}
    k = a.kind
    if k == "attack":
        d["card"] = a.card
        if a.direct:
            d["direct"] = True
        else:
            d["target"] = a.target
    elif k == "activate":
        d.update(player=a.player, card=a.card, effect=a.effect,
                 target=a.target if a.target2 is None else [a.target, a.target2], link=a.link)
        if a.other is not None:
            d["cost"] = a.other
    elif k == "pass":
        d["player"] = a.player
    elif k == "resolve":
        if a.card is not None:
            d["card"] = a.card
        if a.choice is not None:
            d["choose"] = a.choice if a.choice2 is None else [a.choice, a.choice2]
    elif k == "next":
        if a.window is not None:
            d["window"] = a.window
    elif k == "retarget":
        if a.direct:
            d["direct"] = True
        else:
            d["target"] = a.target
    elif k == "replace":
        d.update(card=a.card, other=a.other)
    elif k == "claim":
        d["claim"] = a.claim
        if a.claim == "lp":
            d.update(player=a.player, value=a.value)
        elif a.claim == "window":
            d["window"] = a.window
        elif a.claim in ("calc", "attacking"):
            d["value"] = a.value
        else:
            d.update(card=a.card, value=a.value)
    return d

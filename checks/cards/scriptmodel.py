"""The effect model of one imported effect, read statically off its script's functions.

luascan gives each declared effect the text of its cost, target and operation functions (and
the script's named functions); this module maps the engine's fixed vocabulary onto the
catalogue's (docs/cards-format.md): cost calls (`Duel.PayLPCost`, `Duel.DiscardHand`, the
`Cost.*` helpers), the target flag with `Duel.SelectTarget` or `Duel.SetTargetCard`, the
operations (`Duel.Destroy`, `Duel.NegateAttack`, `Duel.SkipPhase`, `Duel.Damage`, `Duel.Draw`, the lasting
effects an operation registers: `EFFECT_UPDATE_ATTACK`, `EFFECT_INDESTRUCTABLE_BATTLE`, ...), the
common clauses of a condition, and a card's continuous effects. Nothing is executed.

Every reader returns `Derived(value, line)` (the script line it rests on) or `UNKNOWN`: a
function that does anything this vocabulary does not name (a Duel call outside the known
queries, a value that is not a constant, a second target) leaves the whole property unknown,
never a guess. docs/cards.md lists what is mapped.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ygo_timing.cards import luaconst as K
from ygo_timing.model import vocab


@dataclass(frozen=True)
class Derived:
    value: object
    line: int


UNKNOWN = None

# Duel and card calls that only ask, choose or show: they change nothing the model tracks.
QUERY = re.compile(r"(?:Get|Is|Check|Select|Hint|SetOperationInfo|SetPossibleOperationInfo|SetTarget(?:Card|Player|Param)"
                   r"|HintSelection|ConfirmCards|Shuffle|BreakEffect|AdjustInstantly|Readjust|SetChainLimit"
                   r"|ChangeTargetCard|Can\w+|Filter|Match|Count|AnnounceCard|TossCoin|TossDice)")
_CALL = re.compile(r"\bDuel\.(\w+)\s*\(")
_METHOD = re.compile(r":\s*(\w+)\s*\(")
# method calls on cards/groups/effects that change nothing the model tracks
HARMLESS_METHODS = re.compile(r"(?:Get|Is|Check|Select|Set(?:Type|Code|Property|Value|Reset|TargetRange|Description"
                              r"|Label|LabelObject|Range|Condition|Target|CountLimit|HintTiming|Category|Owner"
                              r"|AbsoluteRange)|Filter|Match|Count|Iter|Clone|Merge|Sub|Clear|AddCard|RemoveCard"
                              r"|KeepAlive|DeleteGroup|CreateEffectRelation|RegisterFlagEffect|ResetFlagEffect"
                              r"|Can\w+|Has\w+|Reset|ForEach|Search|RandomSelect|Equal|Includes|Compare"
                              r"|Flag\w*|Any|All|First|Next|Len|TakeatPos)")


def _args(text: str, start: int) -> list[str]:
    """The top-level arguments of the call whose '(' is just before `start`."""
    out, depth, cur = [], 0, []
    for ch in text[start:start + 600]:
        if ch in "({[":
            depth += 1
        elif ch in ")}]":
            if depth == 0:
                out.append("".join(cur).strip())
                return out
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    return out + ["".join(cur).strip()]


def _unknown_calls(body: str, allowed: set) -> bool:
    """Whether the function calls a Duel function that is neither a query nor in `allowed`."""
    return any(not QUERY.match(n) and n not in allowed for n in _CALL.findall(body))


def _const(text: str):
    from ygo_timing.cards.luascan import const_value   # luascan imports luaconst only; no cycle
    return const_value(text)


# --- costs ------------------------------------------------------------------------------------
# "send this card to the GY" (send_self) must reach the Graveyard; "discard this card" (discard_self)
# need not (Cost.SelfDiscard checks IsDiscardable only; Cost.SelfDiscardToGrave also IsAbleToGraveAsCost)
COST_HELPERS = {"Cost.SelfBanish": "banish_self", "aux.bfgcost": "banish_self", "Cost.SelfToGrave": "send_self",
                "Cost.SelfDiscard": "discard_self", "Cost.SelfDiscardToGrave": "send_self",
                "Cost.SelfTribute": None, "Cost.Discard": "discard"}


def cost(decl, functions) -> Derived | None:
    """GEN-16's costs: at most 2 of pay_lp, pay_half_lp, discard, tribute, send_self, discard_self, banish_self."""
    setting = decl.settings.get("Cost")
    if setting is None:
        return Derived([], decl.line)
    text, line = decl.bodies.get("Cost", ("", setting.line))
    head = text.strip()
    if head in COST_HELPERS or re.fullmatch(r"Cost\.Discard\(\s*\)", head):
        do = COST_HELPERS.get(head, "discard")
        return Derived([{"do": do}], setting.line) if do else UNKNOWN
    m = re.fullmatch(r"Cost\.PayLP\(\s*(\d+)\s*\)", head)
    if m:
        return Derived([{"do": "pay_lp", "amount": int(m.group(1))}], setting.line)
    if head == text and not head.startswith("function"):
        return UNKNOWN   # a helper or a variable not named here
    paid = []
    for m in _CALL.finditer(text):
        name, args = m.group(1), _args(text, m.end())
        if QUERY.match(name):
            continue
        if name == "PayLPCost" and len(args) == 2:
            if args[1].isdigit():
                paid.append({"do": "pay_lp", "amount": int(args[1])})
            elif re.fullmatch(r"math\.floor\(\s*Duel\.GetLP\(\s*tp\s*\)\s*/\s*2\s*\)", args[1]):
                paid.append({"do": "pay_half_lp"})
            else:
                return UNKNOWN
        elif name == "DiscardHand":
            paid.append({"do": "discard"})
        elif name in ("SendtoGrave", "Remove") and args and _is_self(args[0], text) and "REASON_COST" in "".join(args):
            # a discard checked only with IsDiscardable (Kuriboh) need not reach the GY: discard_self
            discard = "REASON_DISCARD" in "".join(args) and "IsAbleToGraveAsCost" not in text
            paid.append({"do": ("discard_self" if discard else "send_self") if name == "SendtoGrave" else "banish_self"})
        elif name == "Release" and args and not _is_self(args[0], text):
            paid.append({"do": "tribute"})
        else:
            return UNKNOWN
    named = sum(1 for c in paid if c["do"] in ("discard", "tribute"))   # the play names one card at most
    if not paid or len(paid) > 2 or named > 1 or _changes_state(text):
        return UNKNOWN
    return Derived(paid, line)


def _changes_state(text: str) -> bool:
    """Whether a cost function calls a card method that changes something, or registers an effect."""
    return any(not HARMLESS_METHODS.match(n) and n != "RegisterEffect" for n in _METHOD.findall(text)) \
        or ":RegisterEffect" in text.replace(" ", "")


def _is_self(arg: str, text: str) -> bool:
    arg = arg.strip()
    if arg in ("e:GetHandler()", "c"):
        return arg != "c" or bool(re.search(r"\blocal\s+c\s*=\s*e:GetHandler\(\)", text))
    return False


# --- targets ----------------------------------------------------------------------------------
LOCATIONS = {"LOCATION_MZONE": "monster_zone", "LOCATION_SZONE": "spell_trap_zone", "LOCATION_GRAVE": "graveyard",
             "LOCATION_HAND": "hand", "LOCATION_REMOVED": "banished", "LOCATION_FZONE": "field_zone"}
CARD_TESTS = {  # a filter's card method -> the atom it states (None: a test that changes no fact)
    "IsFaceup": ("face_up", True), "IsFacedown": ("face_up", False),
    "IsAttackPos": ("defense_position", False), "IsDefensePos": ("defense_position", True),
    "IsDestructable": None, "IsAbleToHand": None, "IsAbleToRemove": None, "IsAbleToDeck": None,
    "IsAbleToGrave": None, "IsCanChangePosition": None, "IsCanBeEffectTarget": None, "IsCanTurnSet": None,
}


def filter_atoms(fn: str, functions) -> list | None:
    """The atoms (of `target`) a filter function states, or None when it tests anything else."""
    fn = fn.strip()
    if fn in ("nil", "aux.TRUE"):
        return []
    m = re.fullmatch(r"Card\.(\w+)", fn)
    if m:
        return _card_test(m.group(1), "")
    m = re.fullmatch(r"aux\.FaceupFilter\(\s*Card\.(\w+)\s*(?:,(.*))?\)", fn)
    if m:
        rest = _card_test(m.group(1), m.group(2) or "")
        return None if rest is None else [("face_up", "==", True)] + rest
    if fn not in functions:
        return None
    body = functions[fn][0]
    m = re.fullmatch(r"\s*\(\s*(\w+)[^)]*\)\s*return\s+(.*?)\s*", body, re.S)
    if not m:
        return None
    var, expr = m.group(1), m.group(2)
    atoms = []
    for clause in re.split(r"\s+and\s+", expr):
        cm = re.fullmatch(rf"{var}\s*:\s*(\w+)\s*\((.*)\)", clause.strip(), re.S)
        if not cm:
            return None
        got = _card_test(cm.group(1), cm.group(2))
        if got is None:
            return None
        atoms += got
    return atoms


def _card_test(method: str, args: str) -> list | None:
    if method in CARD_TESTS:
        t = CARD_TESTS[method]
        return [] if t is None else [(t[0], "==", t[1])]
    m = re.fullmatch(r"Is(Attack|Defense|Level)(Above|Below)", method)
    if m and args.strip().isdigit():
        q = {"Attack": "atk", "Defense": "def", "Level": "level"}[m.group(1)]
        return [(q, ">=" if m.group(2) == "Above" else "<=", int(args))]
    if method == "IsAttribute" and args.strip() in {f"ATTRIBUTE_{a}" for a in K.ATTRIBUTES.values()}:
        return [("attribute", "==", args.strip()[len("ATTRIBUTE_"):].lower())]
    if method == "IsMonster" and not args.strip():
        return [("card_type", "==", "monster")]
    return None


def _side(loc1: str, loc2: str) -> tuple[str, str] | None:
    """(location, side) of a (your locations, opponent's locations) pair naming one location."""
    locs = {a.strip() for a in (loc1, loc2)} - {"0"}
    if len(locs) != 1 or locs.pop() not in LOCATIONS:
        return None
    where = LOCATIONS[(loc1.strip() if loc1.strip() != "0" else loc2.strip())]
    side = "both" if "0" not in (loc1.strip(), loc2.strip()) else "yours" if loc2.strip() == "0" else "opponent"
    return where, side


def _atom(q, cmp, v):
    a = {"quantity": q, "of": "target"}
    if cmp != "==":
        a["cmp"] = cmp
    a["value"] = v
    return a


def target(decl, functions, has_flag: bool):
    """GEN-17's target: None (the effect targets nothing), a target dict, or UNKNOWN."""
    if not has_flag:
        return Derived(None, decl.line)
    text, line = decl.bodies.get("Target", ("", decl.line))
    if "SelectTarget" not in text and "SetTargetCard" not in text:
        return UNKNOWN
    if re.search(r"\blocal\s+(\w+)\s*=\s*Duel\.GetAttacker\(\)", text) and re.search(r"SetTargetCard\(\s*\w+\s*\)", text) \
            and "SelectTarget" not in text:
        return Derived({"filter": {"all": [_atom("attacking", "==", True)]}, "implied": "attacker"}, line)
    if re.search(r"\blocal\s+(\w+)\s*=\s*Duel\.GetAttackTarget\(\)", text) and "SelectTarget" not in text:
        return Derived({"filter": {"all": [_atom("attacked", "==", True)]}, "implied": "attack_target"}, line)
    calls = [m for m in _CALL.finditer(text) if m.group(1) == "SelectTarget"]
    if len(calls) != 1 or "SetTargetCard" in text:
        return UNKNOWN
    args = _args(text, calls[0].end())
    counts = (args[5].strip(), args[6].strip()) if len(args) >= 7 else None
    if counts not in (("1", "1"), ("1", "2"), ("2", "2")):
        return UNKNOWN   # more than two targets, or counts the script computes: not modelled
    where = _side(args[3], args[4])
    atoms = filter_atoms(args[1], functions)
    if where is None or atoms is None:
        return UNKNOWN
    loc, side = where
    out = [_atom("location", "==", loc)]
    if side != "both":
        out.append(_atom("yours", "==", side == "yours"))
    out += [_atom(*a) for a in atoms]
    if len(out) > vocab.TARGET_FILTER_ATOMS:   # more than the format holds; dropping one would admit other cards
        return UNKNOWN
    one = {"filter": {"all": out}}
    if counts == ("1", "1"):
        return Derived(one, line)
    # "Target 2 ..." / "Target up to 2 ...": two targets of one filter, the second optional for up to 2
    return Derived([one, {**one, **({"optional": True} if counts[0] == "1" else {})}], line)


# --- operations -------------------------------------------------------------------------------
MOVES = {"Destroy": "destroy", "Remove": "banish", "SendtoHand": "to_hand", "SendtoDeck": "to_deck",
         "SendtoGrave": "to_graveyard", "SpecialSummon": "special_summon"}
# a lasting effect an operation registers on a card: its code -> (operation, how its value reads)
CARD_EFFECTS = {"EFFECT_UPDATE_ATTACK": ("atk_add", "amount"), "EFFECT_UPDATE_DEFENSE": ("def_add", "amount"),
                "EFFECT_SET_ATTACK_FINAL": ("atk_set", "amount"), "EFFECT_SET_ATTACK": ("atk_set", "amount"),
                "EFFECT_SET_DEFENSE_FINAL": ("def_set", "amount"), "EFFECT_SET_DEFENSE": ("def_set", "amount"),
                "EFFECT_INDESTRUCTABLE_BATTLE": ("indestructible_by_battle", None),
                "EFFECT_INDESTRUCTABLE_EFFECT": ("indestructible_by_effect", None),
                "EFFECT_CANNOT_ATTACK": ("cannot_attack", None),
                "EFFECT_CANNOT_ATTACK_ANNOUNCE": ("cannot_declare_attack", None)}
# ... and on a player (Duel.RegisterEffect(e, tp)) for this battle
PLAYER_EFFECTS = {"EFFECT_AVOID_BATTLE_DAMAGE": "no_battle_damage", "EFFECT_REFLECT_BATTLE_DAMAGE": "reflect_battle_damage"}
SUBJECTS = {"Duel.GetFirstTarget()": "chosen", "Duel.GetTargetCards(e)": "chosen", "Duel.GetAttacker()": "attacker",
            "Duel.GetAttackTarget()": "attack_target", "e:GetHandler()": "self"}
SELECTS = {"nil": "any", "aux.TRUE": "any", "Card.IsAttackPos": "attack_position", "Card.IsDefensePos": "defense_position",
           "Card.IsFaceup": "face_up", "Card.IsFacedown": "face_down"}
_STATEMENT = re.compile(
    r"(?:local\s+)?(?P<var>\w+)\s*=\s*(?P<rhs>Duel\.\w+\s*\([^()]*(?:\([^()]*\)[^()]*)*\)|e:GetHandler\(\)(?::GetBattleTarget\(\))?|\w+:GetBattleTarget\(\)"
    r"|Effect\.CreateEffect\([^()]*(?:\(\))?\)|\w+:Clone\(\)|\w+:GetFirst\(\))(?P<rest>[^\n;]*)"
    r"|for\s+(?P<fvar>\w+)\s+in\s+(?:aux\.Next\(\s*(?P<fg1>\w+)\s*\)|(?P<fg2>\w+):Iter\(\))"
    r"|(?P<evar>\w+)\s*:\s*Set(?P<eset>Code|Value|TargetRange|Type)\s*\("
    r"|(?P<reg>(?:(?P<owner>\w+)\s*:\s*|Duel\.)RegisterEffect\s*\(\s*(?P<rv>\w+))"
    r"|(?P<uvar>\w+)\s*:\s*Update(?P<ustat>Attack|Defense)\s*\("
    r"|(?P<cvar>e:GetHandler\(\)|\w+)\s*:\s*(?P<cop>Add|Remove)Counter\s*\("
    r"|\bDuel\.(?P<call>\w+)\s*\(")


def _select(fn: str, functions) -> str | None:
    fn = fn.strip()
    if fn in SELECTS:
        return SELECTS[fn]
    atoms = filter_atoms(fn, functions)
    if atoms is not None and len(atoms) <= 1:
        return {(): "any", (("face_up", "==", True),): "face_up", (("face_up", "==", False),): "face_down",
                (("defense_position", "==", False),): "attack_position",
                (("defense_position", "==", True),): "defense_position"}.get(tuple(atoms))
    return None


def _subject(rhs: str, functions, implied: str | None, self_vars=()):
    """What a variable's value is: an `on` subject, ("all", select), or None (not a card we follow)."""
    rhs = " ".join(rhs.split())
    m = re.fullmatch(r"(\w+|e:GetHandler\(\)):GetBattleTarget\(\)", rhs)
    if m and (m.group(1) == "e:GetHandler()" or m.group(1) in self_vars):
        return "opponent_battling"   # the monster this card battles: the opponent's (it battles)
    if rhs in SUBJECTS:
        who = SUBJECTS[rhs]
        return "chosen" if implied and who == implied else who
    m = re.fullmatch(r"Duel\.(GetMatchingGroup|GetFieldGroup)\s*\((.*)\)", rhs)
    if m:
        a = _args(m.group(2) + ")", 0)
        fn, locs = (a[0], a[2:4]) if m.group(1) == "GetMatchingGroup" else ("nil", a[1:3])
        if len(locs) < 2:
            return None
        where, filt = _side(*locs), _select(fn, functions)
        if where is None or where[0] != "monster_zone" or filt is None:
            return None
        return ("all", {"side": where[1], "filter": filt})
    return None


def operations(decl, functions, target_value) -> Derived | None:
    """GEN-15's operations, in order, at most 3; `then` where one sits in an `if` testing another."""
    setting = decl.settings.get("Operation")
    if setting is None:
        return Derived([], decl.line)
    text, line = decl.bodies.get("Operation", ("", setting.line))
    if not text.lstrip().startswith("("):
        return UNKNOWN   # a helper's or variable's operation: not read
    if re.search(r"\b(?:else|elseif)\b|Select(?:Option|Effect|YesNo)\b", text):
        return UNKNOWN   # operations in branches, or a choice the play would have to make: not modelled
    implied = target_value.get("implied") if isinstance(target_value, dict) else None
    subjects = {}      # variable -> subject
    created = {}       # effect variable -> {"code":, "value":, "range":}
    ops = []
    for m in _STATEMENT.finditer(text):
        if m.group("var"):
            var, rhs = m.group("var"), m.group("rhs")
            if m.group("rest").strip():   # more follows on the line (`e:GetHandler():GetX()`, `Duel.X(...)>0`)
                if rhs.startswith("Duel.") and not QUERY.match(rhs[5:]):
                    return UNKNOWN   # an operation whose result is used: not followed
                subjects.pop(var, None)
                created.pop(var, None)
                continue
            if rhs.startswith("Effect.CreateEffect"):
                created[var] = {}
            elif rhs.endswith(":Clone()"):
                created[var] = dict(created.get(rhs.split(":")[0], {}))
            elif rhs.endswith(":GetFirst()"):
                src = subjects.get(rhs.split(":")[0])
                if src is not None:
                    subjects[var] = src
            else:
                who = _subject(rhs, functions, implied, [v for v, w in subjects.items() if w == "self"])
                if who is not None:
                    subjects[var] = who
                elif rhs.startswith("Duel.") and not QUERY.match(rhs[5:]):
                    return UNKNOWN   # a call that does something, its value kept
        elif m.group("fvar"):
            src = subjects.get(m.group("fg1") or m.group("fg2"))
            if src is not None:
                subjects[m.group("fvar")] = src
        elif m.group("evar"):
            eff = created.get(m.group("evar"))
            if eff is None:
                continue
            eff[m.group("eset")] = ",".join(_args(text, m.end()))
        elif m.group("reg"):
            eff = created.get(m.group("rv"))
            if eff is None:
                return UNKNOWN
            op = _registered(eff, m.group("owner"), subjects, text)
            if op is None:
                return UNKNOWN
            ops.append((m.start(), op))
        elif m.group("uvar"):   # Card.UpdateAttack(c, amount, ...): the helper for EFFECT_UPDATE_ATTACK
            on, amount = _on(m.group("uvar"), subjects), _const(_args(text, m.end())[0])
            if on is None or amount is None:
                return UNKNOWN
            ops.append((m.start(), {"do": "atk_add" if m.group("ustat") == "Attack" else "def_add", **on, "amount": amount}))
        elif m.group("cvar"):   # c:AddCounter(type, n) / c:RemoveCounter(player, type, n, REASON_EFFECT)
            op = _counter_op(m.group("cop"), _on(m.group("cvar"), subjects), _args(text, m.end()))
            if op is None:
                return UNKNOWN
            ops.append((m.start(), op))
        elif m.group("call"):
            name = m.group("call")
            if QUERY.match(name):
                continue
            op = _duel_op(name, _args(text, m.end()), subjects)
            if op is None:
                return UNKNOWN
            if op:
                ops.append((m.start(), op))
    if any(not HARMLESS_METHODS.match(n) and n not in ("RegisterEffect", "UpdateAttack", "UpdateDefense", "AddCounter",
                                                        "RemoveCounter")
           for n in _METHOD.findall(text)):
        return UNKNOWN   # a card or group method that changes something (AddCounter on a group, ...)
    out = _merge_negate(ops)
    if not out or len(out) > 3 or len({repr(o) for _, o in out}) < len(out):
        return UNKNOWN
    for k, (pos, op) in enumerate(out):
        if k and _inside_if_on_earlier(text, pos, [p for p, _ in out[:k]]):
            op["then"] = True
    return Derived([op for _, op in out], line)


def _counter_op(kind: str, on: dict | None, args: list) -> dict | None:
    """add_counter / remove_counter on one card, a constant number; None: not modelled (a group,
    a counted amount, a removal paid as a cost)."""
    if on is None or on["on"] == "all":
        return None
    if kind == "Add":
        n = _const(args[1]) if len(args) >= 2 else None
    else:
        n = _const(args[2]) if len(args) >= 4 and "REASON_EFFECT" in args[3] and "REASON_COST" not in args[3] else None
    if n is None or not 1 <= n <= vocab.MAX_COUNTERS:
        return None
    return {"do": "add_counter" if kind == "Add" else "remove_counter", **on, "amount": n}


def _on(arg: str, subjects) -> dict | None:
    who = subjects.get(arg.strip()) or SUBJECTS.get(arg.strip())
    if who is None:
        return None
    if isinstance(who, tuple):
        return {"on": "all", "select": who[1]}
    return {"on": who}


def _duel_op(name: str, args: list, subjects):
    """The operation a Duel call does; {} for one that changes nothing; None: not modelled."""
    if name in MOVES:
        if name == "SendtoGrave" and "REASON_COST" in "".join(args):
            return None
        on = _on(args[0], subjects) if args else None
        if name == "Destroy" and args and args[0].strip() == "eg":
            return {"do": "destroy_eg"}
        return None if on is None else {"do": MOVES[name], **on}
    if name == "ChangePosition" and args:
        on = _on(args[0], subjects)
        if on is None:
            return None
        return {"do": "set_face_down" if "".join(args[1:]).strip() == "POS_FACEDOWN_DEFENSE" else "change_position", **on}
    if name == "NegateAttack":
        return {"do": "negate_attack"}
    if name == "NegateActivation":
        return {"do": "negate"}
    if name == "SkipPhase" and len(args) >= 2 and args[1].strip() == "PHASE_BATTLE":
        return {"do": "end_battle_phase"}
    if name in ("Damage", "Recover") and len(args) >= 2:
        to = {"1-tp": "opponent", "tp": "you"}.get(args[0].replace(" ", ""))
        amount = args[1].strip()
        op = {"do": "damage" if name == "Damage" else "gain_lp"}
        if amount.isdigit():
            op["amount"] = int(amount)
        else:
            m = re.fullmatch(r"(\w+):Get(Attack|BaseAttack)\(\)", amount)
            on = _on(m.group(1), subjects) if m else None
            if on is None or on["on"] == "all":
                return None
            op.update(on, amount="atk" if m.group(2) == "Attack" else "original_atk")
        if to is None:
            return None
        op["to"] = to
        return op
    if name in ("Draw", "DiscardDeck") and len(args) >= 3 and "REASON_EFFECT" in args[2]:
        # a constant number of cards from the top of a named player's Deck (GetChainInfo: unknown)
        to = {"1-tp": "opponent", "tp": "you"}.get(args[0].replace(" ", ""))
        n = args[1].strip()
        if to is None or not n.isdigit() or not 1 <= int(n) <= vocab.MAX_DRAW:
            return None
        return {"do": "draw" if name == "Draw" else "mill", "amount": int(n), "to": to}
    return None


def _registered(eff: dict, owner: str | None, subjects, text):
    """The operation a lasting effect registered by an operation does, or None."""
    code = eff.get("Code", "").strip()
    if owner is None:   # Duel.RegisterEffect(e, tp): on a player, or a field-wide effect
        if code in PLAYER_EFFECTS:
            return {"do": PLAYER_EFFECTS[code]}
        rng = eff.get("TargetRange", "")
        if code in CARD_EFFECTS and CARD_EFFECTS[code][1] is None and rng:
            where = _side(*(rng.split(",") + ["0"])[:2])
            if where and where[0] == "monster_zone" and "Target" not in eff:
                return {"do": CARD_EFFECTS[code][0], "on": "all", "select": {"side": where[1], "filter": "any"}}
        return None
    on = _on(owner, subjects)
    if on is None or code not in CARD_EFFECTS:
        return None
    do, reads = CARD_EFFECTS[code]
    op = {"do": do, **on}
    value = eff.get("Value", "").strip()
    if reads == "amount":
        n = _const(value) if value else None
        if n is None:
            m = re.fullmatch(r"(\w+):Get(Attack|Defense)\(\)\s*([*/])\s*2", value)
            if not m or do not in ("atk_set", "def_set") or (m.group(2) == "Attack") != (do == "atk_set"):
                return None
            op["do"] = ("atk" if do == "atk_set" else "def") + ("_double" if m.group(3) == "*" else "_halve")
        else:
            op["amount"] = n
    return op


def _merge_negate(ops):
    """NegateActivation then Destroy(eg): one negate_destroy, as the catalogue writes it."""
    out = []
    for pos, op in ops:
        if op["do"] == "destroy_eg":
            if not out or out[-1][1]["do"] != "negate":
                return []
            out[-1][1]["do"] = "negate_destroy"
            continue
        out.append((pos, op))
    return out


_BLOCK = re.compile(r"(?<![\w.:])(function|if|do|repeat|end|until|then)(?!\w)")


def _inside_if_on_earlier(text: str, pos: int, earlier: list) -> bool:
    """Whether the call at `pos` sits in an `if` block whose condition holds an earlier operation."""
    stack = []   # (keyword, offset of its start, offset where its condition ends)
    for m in _BLOCK.finditer(text, 0, pos):
        w = m.group(1)
        if w in ("function", "if", "do", "repeat"):
            stack.append([w, m.start(), None])
        elif w == "then" and stack and stack[-1][0] == "if" and stack[-1][2] is None:
            stack[-1][2] = m.start()
        elif w in ("end", "until") and stack:
            stack.pop()
    return any(w == "if" and cond_end is not None and any(start < p < cond_end for p in earlier)
               for w, start, cond_end in stack)


# --- conditions -------------------------------------------------------------------------------
_OPP_TURN = r"(?:Duel\.IsTurnPlayer\(\s*1\s*-\s*tp\s*\)|tp\s*~=\s*Duel\.GetTurnPlayer\(\)|Duel\.GetTurnPlayer\(\)\s*~=\s*tp" \
            r"|tp\s*==\s*1\s*-\s*Duel\.GetTurnPlayer\(\)|Duel\.GetTurnPlayer\(\)\s*==\s*1\s*-\s*tp)"
_OWN_TURN = r"(?:Duel\.IsTurnPlayer\(\s*tp\s*\)|tp\s*==\s*Duel\.GetTurnPlayer\(\)|Duel\.GetTurnPlayer\(\)\s*==\s*tp)"
CLAUSES = [   # (pattern, what it states: an event name, an atom, or None for a clause true in every window)
    (_OPP_TURN, {"quantity": "turn", "of": "you", "value": False}),
    (_OWN_TURN, {"quantity": "turn", "of": "you", "value": True}),
    (r"Duel\.GetAttacker\(\)\s*:\s*IsControler\(\s*1\s*-\s*tp\s*\)", {"quantity": "yours", "of": "attacker", "value": False}),
    (r"Duel\.GetAttacker\(\)\s*:\s*IsControler\(\s*tp\s*\)", {"quantity": "yours", "of": "attacker", "value": True}),
    (r"Duel\.GetAttackTarget\(\)\s*==\s*nil|not\s+Duel\.GetAttackTarget\(\)", {"quantity": "direct_attack", "value": True}),
    (r"Duel\.GetAttackTarget\(\)\s*~=\s*nil", {"quantity": "direct_attack", "value": False}),
    (r"(?:e:GetHandler\(\)|c)\s*:\s*IsRelateToBattle\(\)", {"quantity": "battling", "of": "self", "value": True}),
    (r"Duel\.GetAttacker\(\)\s*==\s*(?:e:GetHandler\(\)|c)|(?:e:GetHandler\(\)|c)\s*==\s*Duel\.GetAttacker\(\)",
     {"quantity": "attacking", "of": "self", "value": True}),
    (r"Duel\.GetAttackTarget\(\)\s*==\s*(?:e:GetHandler\(\)|c)|(?:e:GetHandler\(\)|c)\s*==\s*Duel\.GetAttackTarget\(\)",
     {"quantity": "attacked", "of": "self", "value": True}),
    (r"Duel\.GetLP\(\s*(tp|1\s*-\s*tp)\s*\)\s*(<=|>=|<|>|==|~=)\s*(\d+)", "lp"),
    (r"Duel\.GetFieldGroupCount\(\s*tp\s*,\s*(LOCATION_MZONE|LOCATION_HAND|0)\s*,\s*(LOCATION_MZONE|LOCATION_HAND|0)\s*\)"
     r"\s*(<=|>=|<|>|==|~=)\s*(\d+)", "count"),
    # the Chain Link it answers can be negated: there is one (GEN-10 reads what it negates)
    (r"Duel\.IsChainNegatable\(\s*ev\s*\)", {"quantity": "chain_length", "cmp": ">=", "value": 1}),
    # Battle Phase only: the model's windows are all in the Battle Phase (docs/cards.md)
    (r"Duel\.IsBattlePhase\(\)|Duel\.IsAbleToEnterBP\(\)\s*or\s*Duel\.IsBattlePhase\(\)", None),
    (r"aux\.dscon|aux\.StatChangeDamageStepCondition|Auxiliary\.StatChangeDamageStepCondition", None),  # until_calc
]


def condition_atoms(body: str) -> list | None:
    """The conditions a condition function's `return A and B ...` states, or None if any clause
    is not one of CLAUSES (or the function does anything but return)."""
    text = " ".join(body.split())
    if text in ("aux.dscon", "aux.StatChangeDamageStepCondition"):
        return []
    m = re.fullmatch(r"(?:function\s*)?(?:[\w.:]+\s*)?\([^)]*\)\s*return\s+(.*?)\s*(?:end)?", text)
    if not m:
        return None
    out = []
    for clause in re.split(r"\s+and\s+", m.group(1)):
        clause = clause.strip()
        while clause.startswith("(") and clause.endswith(")"):
            clause = clause[1:-1].strip()
        for pat, what in CLAUSES:
            cm = re.fullmatch(pat, clause)
            if cm:
                if what == "lp":
                    what = _compare("lp", "you" if cm.group(1) == "tp" else "opponent", cm.group(2), cm.group(3))
                elif what == "count":
                    mine, theirs = cm.group(1), cm.group(2)
                    if (mine == "0") == (theirs == "0"):
                        return None   # both sides, or neither: not one player's count
                    loc = mine if mine != "0" else theirs
                    what = _compare("monsters" if loc == "LOCATION_MZONE" else "hand",
                                    "you" if mine != "0" else "opponent", cm.group(3), cm.group(4))
                if what is not None:
                    out.append(dict(what))
                break
        else:
            return None
    return out


def _compare(quantity: str, of: str, cmp: str, value: str) -> dict:
    return {"quantity": quantity, "of": of, "cmp": "!=" if cmp == "~=" else cmp, "value": int(value)}


def condition(base: str, atoms: list, event_attack: bool):
    """The catalogue condition of an event `base` and the atoms of its condition function.
    On an attack declaration, "the attacker is not yours" is the `opponent_attacks` event."""
    atoms = list(atoms)
    if event_attack:
        opp = [a for a in atoms if a in ({"quantity": "yours", "of": "attacker", "value": False},
                                         {"quantity": "turn", "of": "you", "value": False})]
        if opp and base in ("none",):
            base = "opponent_attacks"
            atoms = [a for a in atoms if a not in opp]
    if not atoms:
        return base
    if len(atoms) > 3 - (base != "none"):
        return UNKNOWN
    return {"all": ([base] if base != "none" else []) + atoms} if len(atoms) + (base != "none") > 1 else atoms[0]


# --- continuous effects -----------------------------------------------------------------------
CONTINUOUS = {"EFFECT_UPDATE_ATTACK": "atk_modifier", "EFFECT_UPDATE_DEFENSE": "def_modifier",
              "EFFECT_INDESTRUCTABLE_BATTLE": "indestructible_by_battle",
              "EFFECT_INDESTRUCTABLE_EFFECT": "indestructible_by_effect",
              "EFFECT_AVOID_BATTLE_DAMAGE": "no_battle_damage", "EFFECT_CANNOT_ATTACK": "cannot_attack",
              "EFFECT_DIRECT_ATTACK": "direct_attack", "EFFECT_PIERCE": "piercing",
              # only with a value function that halves the card's own stat (_halving); else unknown
              "EFFECT_SET_ATTACK_FINAL": "atk_halve", "EFFECT_SET_DEFENSE_FINAL": "def_halve"}


# where a card goes instead of the Graveyard (GEN-18; docs/cards.md): read by _redirect, never by the rest
REDIRECT_CODES = {"EFFECT_TO_GRAVE_REDIRECT": "graveyard_redirect",
                  "EFFECT_BATTLE_DESTROY_REDIRECT": "battle_destroyed_redirect",
                  "EFFECT_LEAVE_FIELD_REDIRECT": "leave_field_redirect"}
CONTINUOUS.update(REDIRECT_CODES)
REDIRECT_TO = {K.LOCATION["LOCATION_REMOVED"]: "banished", K.LOCATION["LOCATION_DECKSHF"]: "deck"}


def continuous(decl, functions, equip_spell=False):
    """A `continuous` catalogue effect for a never-activated effect, or UNKNOWN; Derived(None)
    for one that changes nothing the Battle Phase rules read. An Equip Spell's EFFECT_TYPE_EQUIP
    effect applies to the monster it is equipped to (`on`: "equipped", GEN-20)."""
    code = decl.settings.get("Code")
    text = code.text.strip() if code else ""
    if text not in CONTINUOUS:
        return UNKNOWN
    if text in REDIRECT_CODES:
        return _redirect(decl, functions, REDIRECT_CODES[text])
    typ = decl.get("Type") or 0
    if typ == K.ET["EQUIP"] and equip_spell and decl.settings.get("Condition") is None \
            and decl.settings.get("Range") is None and CONTINUOUS[text] not in vocab.GAME_CONTINUOUS:
        e = {"kind": "continuous", "apply": {"do": CONTINUOUS[text], "on": "equipped"}}
        value = decl.settings.get("Value")
        if CONTINUOUS[text] in ("atk_modifier", "def_modifier"):
            if value is None or value.value is None:
                return UNKNOWN
            e["apply"]["amount"] = value.value
        elif value is not None and value.text.strip() not in ("1", "aux.indoval"):
            return UNKNOWN
        return Derived(e, decl.line)
    if decl.settings.get("Condition") is not None or not typ & (K.ET["SINGLE"] | K.ET["FIELD"]):
        return UNKNOWN   # the model's continuous effects have no condition (docs/cards-format.md)
    rng = decl.settings.get("Range")
    on_field = K.LOCATION["LOCATION_MZONE"] | K.LOCATION["LOCATION_SZONE"] | K.LOCATION["LOCATION_FZONE"]
    if rng is not None and (rng.value is None or not rng.value & on_field or rng.value & ~on_field):
        return UNKNOWN   # it applies from the hand or the GY: the model's apply only on the field
    e = {"kind": "continuous", "apply": {"do": CONTINUOUS[text]}}
    value = decl.settings.get("Value")
    other = False
    if CONTINUOUS[text] in vocab.HALVING:   # "halve the ATK of ...": its value halves what it is on
        if value is None or not _halving(value, functions, "Attack" if text.endswith("ATTACK_FINAL") else "Defense"):
            return UNKNOWN
        other = _not_self_target(decl, functions)
        if other is None:
            return UNKNOWN
    if CONTINUOUS[text] in ("atk_modifier", "def_modifier"):
        per = _per_counter(value, functions) if value is not None and typ & K.ET["SINGLE"] else None
        if per is not None:   # "This card gains 500 ATK for each counter on it"
            e["apply"].update(amount=per, per="counter")
        elif value is None or value.value is None:
            return UNKNOWN
        else:
            e["apply"]["amount"] = value.value
    elif value is not None and value.text.strip() not in ("1", "aux.indoval") and CONTINUOUS[text].startswith("indestructible"):
        return UNKNOWN   # "cannot be destroyed by ... of a kind": a value function
    if typ & K.ET["FIELD"]:
        tr = decl.settings.get("TargetRange")
        if tr is None or (decl.settings.get("Target") is not None and not other):
            return UNKNOWN
        where = _side(*(tr.text.split(",") + ["0"])[:2])
        if where is None or where[0] != "monster_zone":
            return UNKNOWN
        # a halving: the face-up monsters the engine shows the halved stat of
        halving = CONTINUOUS[text] in vocab.HALVING
        e["apply"].update(on="all", select={"side": where[1], "filter": "face_up" if halving else "any",
                                            **({"other": True} if other else {})})
    elif other:
        return UNKNOWN
    return Derived(e, decl.line)


def _redirect(decl, functions, kind):
    """A redirect the model holds, or UNKNOWN: its Value a constant the model has (LOCATION_REMOVED:
    banished; LOCATION_DECKSHF: the Deck), a condition only "while this card is face-up" (GEN-18
    reads that anyway), and not EFFECT_FLAG_CANNOT_DISABLE (it would apply while its effects are
    negated, where GEN-18 stops it). EFFECT_TO_GRAVE_REDIRECT: a field effect of a card on the field
    on every card of both players ("any card sent to the GY": Macro Cosmos), or on both Monster
    Zones for REASON_BATTLE only ("monsters destroyed by battle": Grave Protector);
    EFFECT_LEAVE_FIELD_REDIRECT: this card's own (a single effect); EFFECT_BATTLE_DESTROY_REDIRECT:
    the monster this card destroys by battle (a single effect)."""
    typ, props = decl.get("Type") or 0, decl.get("Property") or 0
    value = decl.get("Value")
    to = REDIRECT_TO.get(value) if value is not None else None
    if to is None or props & K.EFFECT_FLAG["EFFECT_FLAG_CANNOT_DISABLE"]:
        return UNKNOWN
    cond = decl.settings.get("Condition")
    if cond is not None and not _faceup_test(cond, functions, decl.cond_body):
        return UNKNOWN
    target = decl.settings.get("Target")
    if kind == "graveyard_redirect":
        rng, tr = decl.get("Range"), decl.settings.get("TargetRange")
        on_field = K.LOCATION["LOCATION_MZONE"] | K.LOCATION["LOCATION_SZONE"] | K.LOCATION["LOCATION_FZONE"]
        if typ != K.ET["FIELD"] or rng is None or not rng & on_field or rng & ~on_field or tr is None:
            return UNKNOWN
        ranges = [_const(x) for x in (tr.text.split(",") + ["0"])[:2]]
        if target is None and ranges == [0xff, 0xff]:
            return Derived({"kind": "continuous", "apply": {"do": "graveyard_redirect", "to": to}}, decl.line)
        mz = K.LOCATION["LOCATION_MZONE"]
        if target is not None and ranges == [mz, mz] and _battle_test(target, functions):
            return Derived({"kind": "continuous", "apply": {"do": "battle_destroyed_redirect", "on": "all",
                                                            "select": {"side": "both"}, "to": to}}, decl.line)
        return UNKNOWN
    if typ != K.ET["SINGLE"] or target is not None or decl.settings.get("Range") is not None:
        return UNKNOWN
    apply = {"do": kind, "to": to} if kind == "leave_field_redirect" else \
        {"do": kind, "on": "battle_opponent", "to": to}
    return Derived({"kind": "continuous", "apply": apply}, decl.line)


def _faceup_test(cond, functions, body="") -> bool:
    """A condition function that asks only whether this card is face-up: `return e:GetHandler():IsFaceup()`."""
    text = body or functions.get(cond.text.strip(), ("", 0))[0] or cond.text
    return bool(re.fullmatch(r"\s*(?:function)?\s*\(\s*(\w+)\s*\)\s*return\s+\1\s*:\s*GetHandler\s*\(\s*\)\s*:\s*IsFaceup"
                             r"\s*\(\s*\)\s*(?:end\s*)?", text, re.S))


def _battle_test(target, functions) -> bool:
    """A target function `return c:IsReason(REASON_BATTLE)` (what is destroyed by battle)."""
    body = functions.get(target.text.strip(), ("", 0))[0]
    m = re.fullmatch(r"\s*\(\s*\w+\s*,\s*(\w+)\s*\)\s*return\s+(\w+)\s*:\s*IsReason\s*\(\s*REASON_BATTLE\s*\)\s*(?:end\s*)?",
                     body, re.S)
    return bool(m and m.group(1) == m.group(2))


def _halving(value, functions, stat: str) -> bool:
    """A value function `return math.ceil(c:GetAttack()/2)` (or without math.ceil) of the card it is on."""
    body = functions.get(value.text.strip(), ("", 0))[0]
    return bool(re.fullmatch(rf"\s*\(\s*\w+\s*,\s*(\w+)\s*\)\s*return\s+(?:math\.ceil\s*\()?\s*\1\s*:\s*Get{stat}"
                             rf"\s*\(\s*\)\s*/\s*2\s*\)?\s*(?:end\s*)?", body, re.S))


def _not_self_target(decl, functions):
    """A halving's target function: none (False), `return c~=e:GetHandler()` ("other than this card":
    True), or another test (None: not read)."""
    target = decl.settings.get("Target")
    if target is None:
        return False
    body = functions.get(target.text.strip(), ("", 0))[0]
    m = re.fullmatch(r"\s*\(\s*\w+\s*,\s*(\w+)\s*\)\s*return\s+(\w+)\s*~=\s*e\s*:\s*GetHandler\s*\(\s*\)\s*(?:end\s*)?",
                     body, re.S)
    return True if m and m.group(1) == m.group(2) else None


def _per_counter(value, functions) -> int | None:
    """The amount of a value function `return c:GetCounter(TYPE)*N` (its own card's counters, on a
    SINGLE effect), or None."""
    body = functions.get(value.text.strip(), ("", 0))[0]
    m = re.fullmatch(r"\s*\(\s*\w+\s*,\s*(\w+)\s*\)\s*return\s+(\w+)\s*:\s*GetCounter\s*\([^()]*\)\s*\*\s*(\d+)\s*(?:end\s*)?",
                     body, re.S)
    return int(m.group(3)) if m and m.group(1) == m.group(2) else None


def target_check_is_condition_free(decl, target_value, ops) -> bool:
    """Whether the target function's `chk==0` test (what the engine checks before letting the
    effect be activated) says nothing beyond the model: `true`, the target's own existence
    (GEN-17 checks it), or that the cards an "all" operation acts on exist. Anything else is a
    condition the import has not read."""
    text = decl.bodies.get("Target", ("", 0))[0]
    if decl.settings.get("Target") is None:
        return True
    m = re.search(r"if\s+chk\s*==\s*0\s+then\s+return\s+(.*?)\s+end\b", " ".join(text.split()))
    if not m:
        return "chk" not in text   # no activation check at all
    test = m.group(1).strip()
    if test == "true":
        return True
    if target_value and re.fullmatch(r"Duel\.IsExistingTarget\([^()]*\)", test):
        return True
    if isinstance(target_value, dict) and target_value.get("implied") and re.fullmatch(
            r"(?:\w+\s+and\s+)?\w+:IsOnField\(\)(?:\s+and\s+\w+:IsCanBeEffectTarget\(e\))?", test):
        return True   # the attacker is there and can be targeted: GEN-17 checks it
    if ops and all(o.get("on") == "all" for o in ops if "on" in o) and re.fullmatch(
            r"Duel\.IsExistingMatchingCard\([^()]*\)", test):
        return True   # something for the "all" operation to act on
    return False

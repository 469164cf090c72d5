"""An effect's operations (GEN-15), read statement by statement off its operation function: the
Duel calls, the lasting effects it registers, counters, and which sit in an `if` on an earlier one.
Apart: the largest reader (its statements, the cards they name, the effects they register); named
operation_calls so that the module does not shadow `operations()` on the package.
"""
from __future__ import annotations

import re

from ygo_timing.cards.scriptmodel.luatext import (
    _METHOD,
    HARMLESS_METHODS,
    QUERY,
    UNKNOWN,
    Derived,
    _args,
    _const,
)
from ygo_timing.cards.scriptmodel.targets import _side, filter_atoms
from ygo_timing.model import vocab


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
    r"|(?P<evar>\w+)\s*:\s*Set(?P<eset>Code|Value|TargetRange|Type|Reset)\s*\("
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
            args = _args(text, m.end())
            on, amount = _on(m.group("uvar"), subjects), _const(args[0])
            if on is None or amount is None:
                return UNKNOWN
            do = "atk_add" if m.group("ustat") == "Attack" else "def_add"
            ops.append((m.start(), {"do": _until(do, args[1] if len(args) > 1 else ""), **on, "amount": amount}))
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
    op = {"do": _until(do, eff.get("Reset", "")), **on}
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


def _until(do: str, reset: str) -> str:
    """An ATK / DEF gain reset at the end of damage calculation (RESET_PHASE+PHASE_DAMAGE_CAL, or
    RESET_DAMAGE_CAL): "during damage calculation only", atk_add_at_calc / def_add_at_calc."""
    return f"{do}_at_calc" if do in ("atk_add", "def_add") and "DAMAGE_CAL" in reset else do


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

"""An effect's target (GEN-17): the filter a `Duel.SelectTarget` call states, and whether the
target function's activation check asks anything more. Also the location and filter readers
that operations and continuous effects reuse (`_side`, `filter_atoms`), so they live below both.
"""
from __future__ import annotations

import re

from ygo_timing.cards import luaconst as K
from ygo_timing.cards.scriptmodel.luatext import _CALL, UNKNOWN, Derived, _args
from ygo_timing.model import vocab


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

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


# IsPosition's argument -> the atoms it states: a union of positions is read only where the
# atoms say exactly it (face-up = either face-up position); POS_FACEUP_ATTACK|POS_FACEDOWN_DEFENSE is not
POSITIONS = {"POS_FACEUP_ATTACK": [("face_up", True), ("defense_position", False)],
             "POS_FACEDOWN_ATTACK": [("face_up", False), ("defense_position", False)],
             "POS_FACEUP_DEFENSE": [("face_up", True), ("defense_position", True)],
             "POS_FACEDOWN_DEFENSE": [("face_up", False), ("defense_position", True)],
             "POS_FACEUP": [("face_up", True)], "POS_FACEDOWN": [("face_up", False)],
             "POS_ATTACK": [("defense_position", False)], "POS_DEFENSE": [("defense_position", True)]}
CARD_TYPE = {"TYPE_MONSTER": "monster", "TYPE_SPELL": "spell", "TYPE_TRAP": "trap"}
# the monster types that decide a card's kind whatever else it is (importer.card_kind: an Xyz
# Pendulum is monster:xyz); TYPE_EFFECT, TYPE_TUNER, TYPE_RITUAL (a Ritual Spell too) decide none
CARD_KIND = {"TYPE_FUSION": "monster:fusion", "TYPE_SYNCHRO": "monster:synchro", "TYPE_XYZ": "monster:xyz",
             "TYPE_LINK": "monster:link"}
# atoms the model holds for a monster in the Monster Zone only, where the engine answers elsewhere
# too: it keeps a card's Summon type after it leaves the field (a card that leaves is a new card
# to the model), and a face-up Spell/Trap's position POS_FACEUP is both Attack and Defense to it
MZONE_ATOMS = ("special_summoned", "summoned_this_turn", "flip_summoned_this_turn", "defense_position")


def filter_atoms(fn: str, functions, extra: list[str] | None = None) -> list | None:
    """The atoms (of `target`) a filter function states, or None when it tests anything else.
    `extra`: the arguments the selecting call passes on to the filter after the card, so that a
    player parameter (`c:IsControler(tp)`) is read only when the call passes `tp` or `1-tp`."""
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
    m = re.fullmatch(r"\s*\(\s*(\w+)([^)]*)\)\s*return\s+(.*?)\s*", body, re.S)
    if not m:
        return None
    var, expr = m.group(1), m.group(3)
    params = [p.strip() for p in m.group(2).split(",")[1:]]
    # a parameter the call passes nothing for is nil; one it passes a player for is that player
    players = {p: (extra[i].strip() if extra and i < len(extra) else None) for i, p in enumerate(params)}
    atoms = []
    for clause in re.split(r"\s+and\s+", expr):
        cm = re.fullmatch(rf"{var}\s*:\s*(\w+)\s*\((.*)\)", clause.strip(), re.S)
        if not cm or re.search(r"[()]", cm.group(2)):
            return None   # `c:IsDefensePos() or c:IsFacedown()` is one match of this pattern, not one test
        got = _card_test(cm.group(1), cm.group(2), players)
        if got is None:
            return None
        atoms += got
    return atoms


def _player(arg: str, players: dict | None) -> bool | None:
    """Whether a player argument is the effect's controller (True), its opponent (False), or
    unknown (None). `players`: a filter's parameters -> what the call passes for them; None in a
    condition function, whose `tp` is the effect's controller."""
    arg = re.sub(r"\s+", "", arg)
    m = re.fullmatch(r"(1-)?(\w+)", arg)
    if not m:
        return None
    if players is None:
        who = "tp" if m.group(2) == "tp" else None
    else:
        who = players.get(m.group(2))
        who = None if who is None else re.sub(r"\s+", "", who)
    mine = {"tp": True, "1-tp": False}.get(who)
    return None if mine is None else mine != bool(m.group(1))


def _card_test(method: str, args: str, players: dict | None = None) -> list | None:
    """The atoms a card method with these arguments states, or None if it is not read exactly."""
    args = args.strip()
    if method in CARD_TESTS:
        t = CARD_TESTS[method]
        return None if args and t is not None else [] if t is None else [(t[0], "==", t[1])]
    m = re.fullmatch(r"Is(Attack|Defense|Level)(Above|Below)", method)
    if m and args.isdigit():
        q = {"Attack": "atk", "Defense": "def", "Level": "level"}[m.group(1)]
        return [(q, ">=" if m.group(2) == "Above" else "<=", int(args))]
    if method == "IsAttribute" and args in {f"ATTRIBUTE_{a}" for a in K.ATTRIBUTES.values()}:
        return [("attribute", "==", args[len("ATTRIBUTE_"):].lower())]
    # one Type; RACE_A|RACE_B (either) is no one atom
    if method == "IsRace" and args in K.MONSTER_TYPES:
        return [("monster_type", "==", K.MONSTER_TYPES[args])]
    # the card's type: TYPE_MONSTER|TYPE_SPELL (either) or TYPE_MONSTER+TYPE_EFFECT (a subtype) is not one atom
    if method == "IsType" and args in CARD_TYPE:
        return [("card_type", "==", CARD_TYPE[args])]
    if method == "IsType" and args in CARD_KIND:
        return [("card_kind", "==", CARD_KIND[args])]
    if method in ("IsMonster", "IsSpell", "IsTrap") and not args:   # IsType(TYPE_MONSTER) etc. (EDOPro)
        return [("card_type", "==", method[2:].lower())]
    if method == "IsSpellTrap" and not args:   # IsType(TYPE_SPELL|TYPE_TRAP): not a monster card
        return [("card_type", "!=", "monster")]
    if method == "IsPosition" and args in POSITIONS:
        return [(q, "==", v) for q, v in POSITIONS[args]]
    if method == "IsControler":
        mine = _player(args, players)
        return None if mine is None else [("yours", "==", mine)]
    # IsSummonType(SUMMON_TYPE_SPECIAL): how it was last Summoned, Special in any turn
    if method == "IsSpecialSummoned" and not args:
        return [("special_summoned", "==", True)]
    # Special Summoned this turn (ygopro-core sets the status on a Special Summon, clears it at
    # the turn's end and when the card moves): the model's Summoned-this-turn, Special Summoned,
    # and not Flip Summoned (a monster Special Summoned face-down earlier and Flip Summoned now
    # is "Special Summoned" and "Summoned this turn" but has not the status). STATUS_SUMMON_TURN
    # is also set on a monster Set this turn: no atom says "Normal Summoned or Set", so it stays unknown.
    if method == "IsStatus" and args == "STATUS_SPSUMMON_TURN":
        return [("special_summoned", "==", True), ("summoned_this_turn", "==", True),
                ("flip_summoned_this_turn", "==", False)]
    return None


def _side(loc1: str, loc2: str) -> tuple[str, str] | None:
    """(location, side) of a (your locations, opponent's locations) pair naming one location."""
    locs = {a.strip() for a in (loc1, loc2)} - {"0"}
    if len(locs) != 1 or locs.pop() not in LOCATIONS:
        return None
    where = LOCATIONS[(loc1.strip() if loc1.strip() != "0" else loc2.strip())]
    side = "both" if "0" not in (loc1.strip(), loc2.strip()) else "yours" if loc2.strip() == "0" else "opponent"
    return where, side


def _atom(q, cmp, v, of="target"):
    """A catalogue atom about `of` (the target, or in a condition this card, the attacker...)."""
    a = {"quantity": q, "of": of}
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
    atoms = filter_atoms(args[1], functions, args[8:])
    if where is None or atoms is None:
        return UNKNOWN
    loc, side = where
    if loc != "monster_zone" and any(a[0] in MZONE_ATOMS for a in atoms):
        return UNKNOWN
    out = [_atom("location", "==", loc)]
    if side != "both":
        out.append(_atom("yours", "==", side == "yours"))
    for a in map(lambda a: _atom(*a), atoms):
        if a not in out:   # "your opponent's" said by the locations and by IsControler(1-tp): one atom
            out.append(a)
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

"""A card's continuous effects (never activated): the lasting effect codes the model holds, the
Graveyard redirects (GEN-18) and the value, target and condition functions they may carry.
Apart from the activated effect's readers: it reads a declaration's settings and the small value,
target and condition functions they name, not a cost, target or operation function's calls.
"""
from __future__ import annotations

import re

from ygo_timing.cards import luaconst as K
from ygo_timing.cards.scriptmodel.luatext import UNKNOWN, Derived, _const
from ygo_timing.cards.scriptmodel.targets import _side
from ygo_timing.model import vocab


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
# "cannot Special Summon" / "cannot banish cards from either GY" on players: read by _player_lock;
# listed so that one it cannot read is unknown
CONTINUOUS["EFFECT_CANNOT_SPECIAL_SUMMON"] = "lock_special_summon"
CONTINUOUS["EFFECT_CANNOT_REMOVE"] = "lock_graveyard_banish"
CONTINUOUS["EFFECT_ADD_ATTRIBUTE"] = "add_attribute"   # read by _added_attribute
REDIRECT_TO = {K.LOCATION["LOCATION_REMOVED"]: "banished", K.LOCATION["LOCATION_DECKSHF"]: "deck"}


def continuous(decl, functions, equip_spell=False):
    """A `continuous` catalogue effect for a never-activated effect, or UNKNOWN; Derived(None)
    for one that changes nothing the Battle Phase rules read. An Equip Spell's EFFECT_TYPE_EQUIP
    effect applies to the monster it is equipped to (`on`: "equipped", GEN-20)."""
    code = decl.settings.get("Code")
    text = code.text.strip() if code else ""
    if text in ("EFFECT_CANNOT_SPECIAL_SUMMON", "EFFECT_CANNOT_REMOVE"):
        return _player_lock(decl, functions, CONTINUOUS[text])
    if text == "EFFECT_ADD_ATTRIBUTE":
        return _added_attribute(decl)
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
        counted = _per_card(value, functions) if value is not None and typ & K.ET["SINGLE"] else None
        if per is not None:   # "This card gains 500 ATK for each counter on it"
            e["apply"].update(amount=per, per="counter")
        elif counted is not None:   # "This card gains 1000 ATK for each Normal Monster in your GY"
            e["apply"]["amount"] = counted
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


# what a Summoning condition's value may be and still refuse every Special Summon (the engine
# reads a missing value as 0: false)
REFUSES_ALL = {"aux.FALSE", "Auxiliary.FALSE", "0", "false"}


def summoning_condition(decl):
    """`cannot_be_special_summoned` for the card's own EFFECT_SPSUMMON_CONDITION (a single effect)
    whose value refuses every Special Summon ("Cannot be Special Summoned."), else None: a value
    function lets some through ("Must be Special Summoned by ..."), which the model does not hold."""
    code = decl.settings.get("Code")
    if code is None or code.text.strip() != "EFFECT_SPSUMMON_CONDITION" or decl.get("Type") != K.ET["SINGLE"]:
        return None
    value = decl.settings.get("Value")
    return "cannot_be_special_summoned" if value is None or value.text.strip() in REFUSES_ALL else None


def _player_lock(decl, functions, kind):
    """A lock on players (GEN-19), or UNKNOWN: a field effect of a card on the field on players
    (EFFECT_FLAG_PLAYER_TARGET) with target range 1,1 (both) or 0,1 (the opponent) and no
    condition or value. "Neither player can Special Summon" (`lock_special_summon`) has no target
    function (one would lock only some monsters: "cannot Special Summon monsters except ...");
    "Your opponent cannot banish cards from either GY" (`lock_graveyard_banish`, Kycoo the Ghost
    Destroyer) has one that picks the cards in the Graveyard: `return c:IsLocation(LOCATION_GRAVE)`
    (without one, every banish would be locked, which the model does not hold)."""
    typ, props, rng = decl.get("Type") or 0, decl.get("Property") or 0, decl.get("Range")
    on_field = K.LOCATION["LOCATION_MZONE"] | K.LOCATION["LOCATION_SZONE"] | K.LOCATION["LOCATION_FZONE"]
    target = decl.settings.get("Target")
    if typ != K.ET["FIELD"] or not props & K.EFFECT_FLAG["EFFECT_FLAG_PLAYER_TARGET"] or rng is None \
            or not rng & on_field or rng & ~on_field or any(decl.settings.get(k) is not None
                                                           for k in ("Condition", "Value")):
        return UNKNOWN
    if (target is not None) != (kind == "lock_graveyard_banish") or \
            (target is not None and not _graveyard_test(target, functions)):
        return UNKNOWN
    tr = decl.settings.get("TargetRange")
    player = {(1, 1): "both", (0, 1): "opponent"}.get(
        tuple(_const(x) for x in tr.text.split(",")) if tr is not None else None)
    if player is None:
        return UNKNOWN   # its controller only ("you cannot Special Summon"): the model's locks name both or the opponent
    apply = {"do": kind, **({"player": player} if player != "both" else {})}
    return Derived({"kind": "continuous", "apply": apply}, decl.line)


def _graveyard_test(target, functions) -> bool:
    """A target function `return c:IsLocation(LOCATION_GRAVE)` (of the card, whatever else it is passed)."""
    body = functions.get(target.text.strip(), ("", 0))[0]
    m = re.fullmatch(r"\s*\(\s*\w+\s*,\s*(\w+)\s*(?:,\s*\w+\s*)*\)\s*return\s+(\w+)\s*:\s*IsLocation\s*\(\s*LOCATION_GRAVE\s*\)"
                     r"\s*(?:end\s*)?", body, re.S)
    return bool(m and m.group(1) == m.group(2))


def _added_attribute(decl):
    """"While this card is face-up on the field its Attribute is also treated as DARK"
    (`add_attribute`), or UNKNOWN: a SINGLE effect in the Monster Zone (EFFECT_FLAG_SINGLE_RANGE,
    LOCATION_MZONE) with one Attribute constant as its value and no condition (the model's
    add_attribute takes none), not EFFECT_FLAG_CANNOT_DISABLE (it would apply while its effects
    are negated, where GEN-18 stops it)."""
    typ, props, rng = decl.get("Type") or 0, decl.get("Property") or 0, decl.get("Range")
    value = decl.settings.get("Value")
    m = re.fullmatch(r"\s*ATTRIBUTE_(EARTH|WATER|FIRE|WIND|LIGHT|DARK|DIVINE)\s*", value.text) if value else None
    if typ != K.ET["SINGLE"] or not props & K.EFFECT_FLAG["EFFECT_FLAG_SINGLE_RANGE"] \
            or props & K.EFFECT_FLAG["EFFECT_FLAG_CANNOT_DISABLE"] or rng != K.LOCATION["LOCATION_MZONE"] \
            or decl.settings.get("Condition") is not None or m is None:
        return UNKNOWN
    return Derived({"kind": "continuous", "apply": {"do": "add_attribute", "attribute": m.group(1)}}, decl.line)


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


# what a count's filter function states, as selector keys: one Type of the engine's (TYPE_NORMAL:
# a Normal Monster; TYPE_MONSTER: any monster), Type (race) or Attribute; "face-up" on the field;
# nothing (every card there)
TYPE_KEYS = {"TYPE_NORMAL": {"card_kind": "monster:normal"}, "TYPE_MONSTER": {"card_type": "monster"},
             "TYPE_SPELL": {"card_type": "spell"}, "TYPE_TRAP": {"card_type": "trap"}}
COUNT_FILTERS = {"Card.IsType": TYPE_KEYS.get,
                 "Card.IsRace": lambda a: {"monster_type": K.MONSTER_TYPES[a]} if a in K.MONSTER_TYPES else None,
                 "Card.IsAttribute": lambda a: {"attribute": a[len("ATTRIBUTE_"):]}
                 if a and a.startswith("ATTRIBUTE_") and a[len("ATTRIBUTE_"):] in K.ATTRIBUTES.values() else None,
                 "Card.IsFaceup": lambda a: {"filter": "face_up"} if a is None else None,
                 "aux.TRUE": lambda a: {} if a is None else None, "nil": lambda a: {} if a is None else None}


def _per_card(value, functions) -> dict | None:
    """The amount of a value function `return Duel.GetMatchingGroupCount(F,P,L1,L2,nil[,A])*N`, P
    its own card's controller (`c:GetControler()`, `e:GetHandlerPlayer()`), as `{"per": N, "count":
    SELECT}` ("This card gains 1000 ATK for each Normal Monster in your GY": Exodius's s.atkval), or
    None: a filter COUNT_FILTERS does not read, or a place other than one Monster Zone or Graveyard."""
    body = functions.get(value.text.strip(), ("", 0))[0]
    m = re.fullmatch(r"\s*\(\s*(\w+)\s*,\s*(\w+)\s*\)\s*return\s+Duel\s*\.\s*GetMatchingGroupCount\s*\(\s*([\w.]+)\s*,"
                     r"\s*(\w+)\s*:\s*(GetControler|GetHandlerPlayer)\s*\(\s*\)\s*,\s*(\w+)\s*,\s*(\w+)\s*,\s*nil\s*"
                     r"(?:,\s*(\w+)\s*)?\)\s*\*\s*(\d+)\s*(?:end\s*)?", body, re.S)
    if m is None or m.group(4) != {"GetControler": m.group(2), "GetHandlerPlayer": m.group(1)}[m.group(5)]:
        return None
    where = _side(m.group(6), m.group(7))
    keys = COUNT_FILTERS.get(m.group(3), lambda a: None)(m.group(8))
    if where is None or where[0] not in ("graveyard", "monster_zone") or keys is None or int(m.group(9)) == 0:
        return None
    if where[0] == "monster_zone" and "card_type" in keys:   # every card there is a monster
        if keys.pop("card_type") != "monster":
            return None
    if where[0] == "graveyard":
        if "filter" in keys:
            return None   # a card in the Graveyard is face-up anyway; the format refuses the filter there
        keys = {"cards": "graveyard", **keys}
    return {"per": int(m.group(9)), "count": {"side": where[1], **keys}}

"""An effect's condition: the clauses of a condition function's `return A and B ...` as catalogue
atoms, and the condition they make with the event. Apart: it reads no calls, only a fixed list of clauses
and the card tests a target filter reads (targets._card_test) of this card, the attacker or the attack target.
"""
from __future__ import annotations

import re

from ygo_timing.cards.scriptmodel.luatext import UNKNOWN
from ygo_timing.cards.scriptmodel.targets import _atom, _card_test


# --- conditions -------------------------------------------------------------------------------
_OPP_TURN = r"(?:Duel\.IsTurnPlayer\(\s*1\s*-\s*tp\s*\)|tp\s*~=\s*Duel\.GetTurnPlayer\(\)|Duel\.GetTurnPlayer\(\)\s*~=\s*tp" \
            r"|tp\s*==\s*1\s*-\s*Duel\.GetTurnPlayer\(\)|Duel\.GetTurnPlayer\(\)\s*==\s*1\s*-\s*tp)"
_OWN_TURN = r"(?:Duel\.IsTurnPlayer\(\s*tp\s*\)|tp\s*==\s*Duel\.GetTurnPlayer\(\)|Duel\.GetTurnPlayer\(\)\s*==\s*tp)"
CLAUSES = [   # (pattern, what it states: an event name, an atom, or None for a clause true in every window)
    (_OPP_TURN, {"quantity": "turn", "of": "you", "value": False}),
    (_OWN_TURN, {"quantity": "turn", "of": "you", "value": True}),
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


# a card test (the target filters' vocabulary, targets._card_test) of one of these cards: the
# attacker and the attack target are in the Monster Zone while they are there (without an attack
# target the engine's call fails and the condition is false, as the model's atom about no card)
CARD_SUBJECTS = {"e:GetHandler()": "self", "Duel.GetAttacker()": "attacker", "Duel.GetAttackTarget()": "attack_target"}
_CARD_CLAUSE = re.compile(r"(e:GetHandler\(\)|Duel\.GetAttacker\(\)|Duel\.GetAttackTarget\(\))\s*:\s*(\w+)\s*\((.*)\)")
# what this card is wherever it is; the rest (position, ATK, how it was Summoned) the engine keeps
# for a card in the hand or GY too (a card in the hand is in face-down Defense Position, ygopro-core
# field.cpp) where the model's atoms are about a monster on the field: read only for an effect
# activated in the Monster Zone
ANYWHERE = ("monster_type", "attribute", "card_type", "yours")


def _card_clause(clause: str, self_in_mzone: bool) -> list | None:
    m = _CARD_CLAUSE.fullmatch(clause)
    if not m or re.search(r"[()]", m.group(3)):
        return None
    of = CARD_SUBJECTS[m.group(1)]
    got = _card_test(m.group(2), m.group(3))   # players None: the condition's tp is the effect's controller
    if not got:
        return None   # unread, or a test that states nothing (IsAbleToHand): a condition the model has not
    if of == "self" and not self_in_mzone and any(q not in ANYWHERE for q, _, _ in got):
        return None
    return [_atom(q, c, v, of) for q, c, v in got]


def condition_atoms(body: str, self_in_mzone: bool = False) -> list | None:
    """The conditions a condition function's `return A and B ...` states, or None if any clause
    is not one of CLAUSES or a card test (or the function does anything but return).
    `self_in_mzone`: the effect is activated in the Monster Zone only (its range)."""
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
            got = _card_clause(clause, self_in_mzone)
            if got is None:
                return None
            out += [a for a in got if a not in out]
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

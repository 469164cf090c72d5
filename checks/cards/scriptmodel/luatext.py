"""What every reader of the effect model shares: the result (`Derived`, `UNKNOWN`), the patterns of
calls that change nothing, a call's arguments and a constant's value. Apart so that costs, targets,
operations and continuous effects each build on it without importing one another's readers.

luascan gives each declared effect the text of its cost, target and operation functions (and
the script's named functions); the modules of this package map the engine's fixed vocabulary onto the
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


def _const(text: str):
    from ygo_timing.cards.luascan import const_value   # luascan imports luaconst only; no cycle
    return const_value(text)

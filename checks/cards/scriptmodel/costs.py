"""An effect's costs (GEN-16), read off its cost function or the `Cost.*` helper it names.
Apart from targets and operations: a cost function is read on its own, against its own list of calls.
"""
from __future__ import annotations

import re

from ygo_timing.cards.scriptmodel.luatext import (
    _CALL,
    _METHOD,
    HARMLESS_METHODS,
    QUERY,
    UNKNOWN,
    Derived,
    _args,
)


# --- costs ------------------------------------------------------------------------------------
# "send this card to the GY" (send_self) must reach the Graveyard; "discard this card" (discard_self)
# need not (Cost.SelfDiscard checks IsDiscardable only; Cost.SelfDiscardToGrave also IsAbleToGraveAsCost)
COST_HELPERS = {"Cost.SelfBanish": "banish_self", "aux.bfgcost": "banish_self", "Cost.SelfToGrave": "send_self",
                "Cost.SelfDiscard": "discard_self", "Cost.SelfDiscardToGrave": "send_self",
                "Cost.SelfTribute": "tribute_self", "Cost.Discard": "discard",
                # "shuffle this card into the Deck" / "return this card to the Extra Deck": one cost, the
                # model sends a Fusion, Synchro, Xyz or Link Monster to the Extra Deck
                "Cost.SelfToDeck": "to_deck_self", "Cost.SelfToExtra": "to_deck_self"}


def cost(decl, functions) -> Derived | None:
    """GEN-16's costs: at most 2 of pay_lp, pay_half_lp, discard, tribute, send_self, discard_self, banish_self,
    tribute_self, to_deck_self."""
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
        elif name == "SendtoDeck" and args and _is_self(args[0], text) and "REASON_COST" in "".join(args):
            paid.append({"do": "to_deck_self"})
        elif name == "Release" and args:
            paid.append({"do": "tribute_self" if _is_self(args[0], text) else "tribute"})
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

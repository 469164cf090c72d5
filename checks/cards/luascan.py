"""Static reading of YGOPro/EDOPro card scripts (c<id>.lua): the effects `initial_effect` declares.

Scripts are untrusted: nothing is executed. The reader blanks comments and strings, finds the
`initial_effect` function by matching Lua block keywords, then follows the effect objects it
creates (`Effect.CreateEffect`, `:Clone()`), the setters called on them (SetType, SetCode,
SetProperty, SetCategory, SetRange, SetCondition) and their registration (`:RegisterEffect`).
Setter arguments are evaluated only as constant expressions over luaconst's names (+, |, &,
parentheses, numbers); anything else leaves that property unknown. Each value keeps the
file:line it came from, so an audit can show the line that decided the engine's answer.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field

from ygo_timing.cards import luaconst
from ygo_timing.errors import InputError

MAX_SCRIPT_BYTES = 256 * 1024
MAX_CONDITION = 16 * 1024   # characters of one condition function (real ones are a few hundred)
SETTERS = ("Type", "Code", "Property", "Category", "Range", "Condition", "Cost", "Target", "Operation")
FUNCTION_SETTERS = ("Condition", "Cost", "Target", "Operation")   # their argument is a function

# Procedures that register only summoning rules, limits or hints: no effect that can be activated
# in the Battle Phase, so the card's effect list stays complete without reading them.
HARMLESS_HELPERS = {
    "Xyz.AddProcedure", "Synchro.AddProcedure", "Link.AddProcedure", "Pendulum.AddProcedure",
    "Fusion.AddProcMix", "Fusion.AddProcMixN", "Fusion.AddProcMixRep", "Fusion.AddProcFunRep",
    "Fusion.AddProcFun2", "Fusion.AddProcCode2", "Fusion.AddContactProc", "Gemini.AddProcedure",
    "Spirit.AddProcedure", "aux.AddUnionProcedure", "aux.AddEREquipLimit", "aux.AddZWEquipLimit",
    "aux.RegisterClientHint", "Duel.RegisterFlagEffect", "Duel.AddCustomActivityCounter",
    "Duel.EnableGlobalFlag", "aux.AddValuesReset", "aux.EnableCheckReincarnation",
    "aux.GlobalCheck", "aux.AddNormalSummonProcedure", "aux.AddNormalSetProcedure",
    "Synchro.AddMajesticProcedure", "Ritual.AddWholeLevelTribute", "aux.EnableNeosReturn",
    "aux.AddMaleficSummonProcedure", "aux.AddLavaProcedure", "aux.EnableExtraDeckSummonCountLimit",
}
# Procedures that register a Spell/Trap card's own activation (its properties are not read).
ACTIVATION_HELPERS = {
    "aux.AddEquipProcedure", "aux.AddPersistentProcedure", "Ritual.AddProcGreater",
    "Ritual.AddProcGreaterCode", "Ritual.AddProcEqual", "Ritual.AddProcEqualCode",
    "aux.AddFieldSpell",
}


class ScriptError(InputError):
    """A script that cannot be read. str() -> "path:line: message"."""


@dataclass
class Setting:
    text: str                # the argument as written (comments/strings blanked)
    value: int | None        # its constant value; None when not a constant expression
    line: int

    def render(self, path):
        return f"{path}:{self.line}"


@dataclass
class EffectDecl:
    var: str
    line: int                              # where the effect object was created
    settings: dict = field(default_factory=dict)   # setter name -> Setting (last call wins)
    helper: str | None = None              # registered through a procedure that was not read
    cond_body: str = ""                    # the condition function's text, if found
    cond_line: int = 0
    bodies: dict = field(default_factory=dict)   # "Cost"/"Target"/"Operation" -> (text, line) of its function

    def copy(self, var, line):
        return EffectDecl(var, line, dict(self.settings), self.helper, self.cond_body, self.cond_line,
                          dict(self.bodies))

    def get(self, name):
        s = self.settings.get(name)
        return s.value if s is not None else None


@dataclass
class Script:
    path: str
    effects: list = field(default_factory=list)      # registered EffectDecl, in order
    warnings: list = field(default_factory=list)     # "path:line: message"
    opaque: list = field(default_factory=list)       # helpers that may register unread effects
    continuous: list = field(default_factory=list)   # (SetCode text, condition text) of effects never activated
    never_activated: list = field(default_factory=list)   # EffectDecl of those effects (scriptmodel reads them)
    functions: dict = field(default_factory=dict)    # name -> (body, line) of each named function


# --- lexing ----------------------------------------------------------------------------------
# Linear in the script's size: each comment or string is found from where the last one ended,
# and a long bracket's end with one str.find (a regex alternation retried at every unclosed
# `[[` costs the rest of the file each time: quadratic).
_OPENING = re.compile(r"--\[(?P<c>=*)\[|--|\[(?P<s>=*)\[|[\"']")
_SHORT = {q: re.compile(q + r"(?:\\.|[^" + q + r"\\\n])*" + q + "?") for q in "\"'"}   # unclosed: ends at the line
_NOT_NEWLINE = re.compile(r"[^\n]")


def blank(text: str) -> str:
    """The script with comments and string contents replaced by spaces (newlines kept), so that
    offsets and line numbers stay those of the file. Raises ValueError(offset, message) on a
    long comment or string that is never closed (Lua refuses such a script too)."""
    out, pos = [], 0
    while (m := _OPENING.search(text, pos)) is not None:
        out.append(text[pos:m.start()])
        tok, eq = m.group(0), m.group("c") if m.group("c") is not None else m.group("s")
        if eq is not None:
            close = text.find("]" + eq + "]", m.end())
            if close < 0:
                what = "comment" if tok.startswith("--") else "string"
                raise ValueError(m.start(), f"long {what} '{tok}' is never closed")
            end = close + len(eq) + 2
        elif tok == "--":
            end = text.find("\n", m.end())
            end = len(text) if end < 0 else end
        else:
            end = _SHORT[tok].match(text, m.start()).end()
        lexeme = text[m.start():end]
        out.append(_NOT_NEWLINE.sub(" ", lexeme) if tok.startswith("--")
                   else '""' + _NOT_NEWLINE.sub(" ", lexeme[2:]))
        pos = end
    out.append(text[pos:])
    return "".join(out)


def brackets(code: str) -> dict:
    """Offset of each '(', '{' or '[' -> offset just past the bracket that closes it (any kind
    closes any, as the old depth count did), in one pass."""
    match, stack = {}, []
    for m in _BRACKET.finditer(code):
        if m.group() in "({[":
            stack.append(m.start())
        elif stack:
            match[stack.pop()] = m.end()
    return match


_BRACKET = re.compile(r"[(){}\[\]]")
_ARG_STOP = re.compile(r"[,({\[]")


def first_arg_end(code: str, start: int, end: int, match: dict) -> int:
    """Where the first argument of a call whose arguments span code[start:end] ends: at its
    first top-level comma, jumping over bracketed groups (so nested calls cost no rescans)."""
    k = start
    while (m := _ARG_STOP.search(code, k, end)) is not None:
        if m.group() == ",":
            return m.start()
        k = match.get(m.start(), end)
    return end


_KEYWORD = re.compile(r"(?<![\w.:])(function|if|do|repeat|end|until)(?!\w)")
_OPENERS = {"function", "if", "do", "repeat"}
_CLOSERS = {"end", "until"}


def functions(code: str) -> dict:
    """name -> (start, end) offsets of each named function's body; raises ValueError on
    unbalanced blocks."""
    out, stack = {}, []
    for m in _KEYWORD.finditer(code):   # a field such as `e.end` is not a keyword
        w = m.group(1)
        if w in _OPENERS:
            name = None
            if w == "function":
                nm = re.match(r"\s*([A-Za-z_][\w.:]*)\s*\(", code[m.end():m.end() + 200])
                name = nm.group(1) if nm else None
            stack.append((w, name, m.end()))
        elif w in _CLOSERS:
            if not stack:
                raise ValueError(m.start(), f"'{w}' without a block to close")
            opener, name, start = stack.pop()
            if (w == "until") != (opener == "repeat"):
                raise ValueError(m.start(), f"'{w}' closes a '{opener}' block")
            if opener == "function" and name and name not in out:
                out[name] = (start, m.start())
    if stack:
        raise ValueError(stack[-1][2], f"'{stack[-1][0]}' block is never closed")
    return out


# --- constant expressions ----------------------------------------------------------------------
_TOKEN = re.compile(r"\s*(0[xX][0-9a-fA-F]+|\d+|[A-Za-z_][A-Za-z0-9_.]*|[-+|&()~])")


def const_value(expr: str, names: dict = luaconst.ALL) -> int | None:
    """The value of a constant expression (names, numbers, + - | & ~ and parentheses)."""
    toks, pos = [], 0
    expr = expr.strip()
    if not expr or len(expr) > 500:
        return None
    while pos < len(expr):
        m = _TOKEN.match(expr, pos)
        if not m:
            return None
        toks.append(m.group(1))
        pos = m.end()
        if expr[pos:].strip() == "":
            break
    k = 0

    def atom():
        nonlocal k
        if k >= len(toks):
            raise ValueError
        t = toks[k]
        k += 1
        if t == "(":
            v = orexp()
            if k >= len(toks) or toks[k] != ")":
                raise ValueError
            k += 1
            return v
        if t == "-":
            return -atom()
        if t[0].isdigit():
            return int(t, 0)
        if t in names:
            return names[t]
        raise ValueError

    def sumexp():
        nonlocal k
        v = atom()
        while k < len(toks) and toks[k] in "+-":
            op = toks[k]
            k += 1
            v = v + atom() if op == "+" else v - atom()
        return v

    def andexp():
        nonlocal k
        v = sumexp()
        while k < len(toks) and toks[k] == "&":
            k += 1
            v &= sumexp()
        return v

    def orexp():
        nonlocal k
        v = andexp()
        while k < len(toks) and toks[k] in "|~":
            op = toks[k]
            k += 1
            v = v | andexp() if op == "|" else v ^ andexp()
        return v
    try:
        v = orexp()
    except (ValueError, RecursionError):
        return None
    return v if k == len(toks) else None


# --- the scan ----------------------------------------------------------------------------------
_STMT = re.compile(
    r"(?<![\w.:])(?:"   # statements start at a name, never inside one
    r"(?P<create>(?:local\s+)?(?P<cv>\w+)\s*=\s*Effect\.CreateEffect\s*\()"
    r"|(?P<clone>(?:local\s+)?(?P<nv>\w+)\s*=\s*(?P<src>\w+)\s*:\s*Clone\s*\(\s*\))"
    r"|(?P<assign>(?:local\s+)?(?P<av>\w+)\s*=\s*(?P<afn>[A-Za-z_]\w*\.[A-Za-z_]\w*)\s*\()"
    r"|(?P<set>(?P<sv>\w+)\s*:\s*Set(?P<sn>Type|Code|Property|Category|Range|Condition|Cost|Target|Operation"
    r"|Value|TargetRange|CountLimit)\s*\()"
    r"|(?P<reg>(?:\w+\s*:\s*|Duel\.)RegisterEffect\s*\(\s*(?P<rv>[^,()]+?)\s*[,)])"
    r"|(?P<call>(?P<fn>[A-Za-z_]\w*\.[A-Za-z_]\w*)\s*\()"
    r"|(?P<lcall>(?P<lfn>s\.\w+|c\d+\.\w+)\s*\(\s*c\s*[,)]))"
)


def scan(data: bytes, path: str) -> Script:
    """Read one script. Raises ScriptError when it cannot be read at all."""
    if len(data) > MAX_SCRIPT_BYTES:
        raise ScriptError(path, None, f"script is larger than {MAX_SCRIPT_BYTES} bytes")
    text = data.decode("utf-8", errors="replace")
    newlines = [m.start() for m in re.finditer("\n", text)]   # blank() keeps every newline

    def line(pos):
        return bisect_right(newlines, pos - 1) + 1

    try:
        code = blank(text)
    except ValueError as e:
        pos, msg = e.args
        raise ScriptError(path, line(pos), msg) from None
    try:
        funcs = functions(code)
    except ValueError as e:
        pos, msg = e.args
        raise ScriptError(path, line(pos), f"unbalanced Lua blocks: {msg}") from None
    match = brackets(code)
    init = next((span for name, span in funcs.items() if name.endswith(".initial_effect")), None)
    if init is None:
        raise ScriptError(path, None, "no initial_effect function")
    out = Script(path)
    # each body from its parameter list on (the span starts at the function's name)
    out.functions = {name: (code[code.index("(", s):e], line(s)) for name, (s, e) in funcs.items()
                     if e - s <= MAX_CONDITION}
    live: dict[str, EffectDecl] = {}
    pos, end = init
    for m in _STMT.finditer(code, pos, end):
        ln = line(m.start())
        if m.group("create"):
            live[m.group("cv")] = EffectDecl(m.group("cv"), ln)
        elif m.group("clone"):
            src = live.get(m.group("src"))
            if src is not None:
                live[m.group("nv")] = src.copy(m.group("nv"), ln)
        elif m.group("assign"):
            fn = m.group("afn")
            if fn.startswith(("Duel.", "aux.Stringid")):
                continue   # values, not effects (Effect.CreateEffect is matched above)
            live[m.group("av")] = EffectDecl(m.group("av"), ln, helper=fn)
        elif m.group("set"):
            d = live.get(m.group("sv"))
            close = match.get(m.end() - 1)
            if d is None or close is None:
                if close is None:
                    out.warnings.append(f"{path}:{ln}: unclosed '(' in Set{m.group('sn')}")
                continue
            # slices of the argument are bounded: nested setters must not copy the rest each time
            name = m.group("sn")
            start = m.end()
            # TargetRange and CountLimit are read whole (both arguments: a range, a count and its code)
            stop = close - 1 if name in ("TargetRange", "CountLimit") else first_arg_end(code, start, close - 1, match)
            head = code[start:min(stop, start + 600)].strip()
            d.settings[name] = Setting(" ".join(head.split())[:300], None if name in FUNCTION_SETTERS or
                                       stop - start > 500 else const_value(code[start:stop]), ln)
            if name in ("Cost", "Target", "Operation"):
                arg = code[start:stop].strip() if stop - start <= MAX_CONDITION else ""
                d.bodies[name] = out.functions.get(arg, (arg, ln))
            if name == "Condition":
                body = _condition_body(code[start:stop] if stop - start <= MAX_CONDITION else "", funcs, code)
                if stop - start > MAX_CONDITION or len(body) > MAX_CONDITION:
                    raise ScriptError(path, ln, f"a condition longer than {MAX_CONDITION} characters; "
                                                "beyond what the reader reads")
                d.cond_body, d.cond_line = body, ln
        elif m.group("reg"):
            var = m.group("rv").strip()
            d = live.get(var)
            if d is not None:
                out.effects.append(d.copy(d.var, d.line))
            else:
                out.opaque.append((var[:60], ln))
        elif m.group("call"):
            fn = m.group("fn")
            if fn in ACTIVATION_HELPERS:
                out.effects.append(EffectDecl("", ln, helper=fn))
            elif fn not in HARMLESS_HELPERS and not fn.startswith(("Effect.", "Duel.", "aux.Stringid")) \
                    and re.match(r"[A-Z]\w*\.Add|aux\.Add|aux\.Enable|[A-Z]\w*\.Register", fn):
                out.opaque.append((fn, ln))
        elif m.group("lcall"):
            out.opaque.append((m.group("lfn"), ln))
    for d in out.effects:
        typ = d.get("Type")
        if typ is not None and not typ & ACTIONS and d.settings.get("Code"):
            out.continuous.append((d.settings["Code"].text, d.cond_body))
            out.never_activated.append(d)
    # a procedure's effect is kept unless its own SetType shows it is never activated
    out.effects = [d for d in out.effects if d.get("Type") is None or d.get("Type") & ACTIONS]
    return out


ACTIONS = (luaconst.ET["ACTIVATE"] | luaconst.ET["FLIP"] | luaconst.ET["IGNITION"] | luaconst.ET["TRIGGER_O"]
           | luaconst.ET["TRIGGER_F"] | luaconst.ET["QUICK_O"] | luaconst.ET["QUICK_F"])


def _condition_body(arg: str, funcs: dict, code: str) -> str:
    """The text a condition runs: an inline function, or the named function's body."""
    arg = arg.strip()
    if arg.startswith("function"):
        return arg
    if arg in funcs:
        s, e = funcs[arg]
        return code[s:e]
    return arg

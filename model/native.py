"""The compiled relation printed as C, built with the system's C compiler and loaded with ctypes.

The same operations as model/compiled.py's Python (`compiled.program`: one list of operations,
two printers), so no rule is written twice. What differs is where a play's state lives: a
`NativePlay` keeps it in C buffers across the play's steps, and a step reads and writes them
there (the Python step builds a list of several hundred values each time); Python reads back
only the values it asks for.

Semantics, as the Python printer's: integers are 64-bit, and every addition, subtraction,
multiplication and division is checked (`__builtin_*_overflow`): a step that would overflow
returns OVERFLOW and the caller takes the Python path, whose integers are exact (the values are
LP, ATK, counts and indexes, far from 2^63, but a play's claim or a catalogue's ATK is the
user's number). `_div` / `_mod` / `_rem` are SMT-LIB's Euclidean operations with division by
zero read as 0; a table read out of its facts' range, or at a point without a fact, is 0 (False);
`_define` that meets another value for the same point returns UNDETERMINED (the Python printer
raises Undetermined). Values in and out are checked to fit 64 bits.

The shared object is cached beside the bytecode (model/diskcache.py), keyed like it plus the
flags and the platform; a SHA-256 trailer of its bytes is checked before it is loaded, so a
damaged file is rebuilt, never run. `mode` says when it is built (YGO_TIMING_NATIVE); without a
C compiler the Python path serves.
"""
from __future__ import annotations

import ctypes
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from array import array
from collections import OrderedDict
from pathlib import Path

from . import compiled, diskcache
from .compiled import CALLS, COMPARE, K, CompileError, Op, Program, Undetermined
from .state import ACTION_FIELDS, ACTIONS

FORMAT = 1   # bump when the generated C's shape changes
FLAGS = ("-O0", "-shared", "-fPIC")
# the action kinds with a step function of their own; None: one function for the others, with the
# kind a variable (see docs/performance.md, "A native relation": its size, and so the compile
# time, is about one kind's, where twelve specialised functions repeat what every kind computes)
KINDS = (None,)
UNDETERMINED, OVERFLOW, BAD_KIND = -1, -2, -3   # ygo_step's answers besides the number of broken rules
INT32 = 2 ** 31
LIMIT = 2 ** 62   # an action's values must be within: ctypes would wrap a value past 2^63 silently

HELPERS = r'''
#include <stdint.h>
#include <string.h>
typedef int64_t I;
typedef struct { I lo, hi; const I *v; } Tab;   /* v[x - lo] for lo <= x <= hi; else no fact: 0 */
typedef struct { I *P, *Q, *A, *S, *C; Tab *T; int32_t *broken; } Ctx;

static inline I _get(const Tab *t, I x) { return (x >= t->lo && x <= t->hi) ? t->v[x - t->lo] : 0; }
static inline I _add(I a, I b, int *o) { I r; if (__builtin_add_overflow(a, b, &r)) *o = 1; return r; }
static inline I _sub(I a, I b, int *o) { I r; if (__builtin_sub_overflow(a, b, &r)) *o = 1; return r; }
static inline I _mul(I a, I b, int *o) { I r; if (__builtin_mul_overflow(a, b, &r)) *o = 1; return r; }
static inline I _floor(I a, I b) { I q = a / b; return (a % b < 0) ? q - 1 : q; }   /* b > 0 */
/* SMT-LIB integer division (Euclidean); division by zero is uninterpreted: 0 is one reading */
static inline I _div(I a, I b, int *o) {
    if (b == 0) return 0;
    if (b > 0) return _floor(a, b);
    if (b == INT64_MIN) { *o = 1; return 0; }
    I q = _floor(a, -b);
    if (q == INT64_MIN) { *o = 1; return 0; }
    return -q;
}
static inline I _mod(I a, I b, int *o) { return b != 0 ? _sub(a, _mul(b, _div(a, b, o), o), o) : 0; }
static inline I _rem(I a, I b, int *o) { I m = _mod(a, b, o); return b >= 0 ? m : _sub(0, m, o); }
/* a defined function's points in this step (Python: D[name], a dict) */
static inline int _define(int *n, I *k, I *v, I key, I value) {
    for (int i = 0; i < *n; i++) if (k[i] == key) return v[i] != value;
    k[*n] = key; v[*n] = value; (*n)++; return 0;
}
static inline I _dget(int n, const I *k, const I *v, I key) {
    for (int i = 0; i < n; i++) if (k[i] == key) return v[i];
    return 0;
}
#define ADD(a, b) _add((a), (b), &ov)
#define SUB(a, b) _sub((a), (b), &ov)
#define MUL(a, b) _mul((a), (b), &ov)
'''

TABLES = r'''
/* the play's facts as dense tables: fn[i] >= 0 a table, -2 - k the constant C[k], -1 unread */
I ygo_tables(Ctx *x, I n, const I *fn, const I *arg, const I *val, I *buf, I cap) {
    I lo[NTABLES + 1], hi[NTABLES + 1], at[NTABLES + 1], total = 0;
    for (int t = 0; t < NTABLES; t++) { lo[t] = INT64_MAX; hi[t] = INT64_MIN; }
    for (I i = 0; i < n; i++) {
        I t = fn[i];
        if (t >= 0) { if (arg[i] < lo[t]) lo[t] = arg[i]; if (arg[i] > hi[t]) hi[t] = arg[i]; }
        else if (t <= -2 && -2 - t < NCONSTS) x->C[-2 - t] = val[i];
    }
    for (int t = 0; t < NTABLES; t++) {
        at[t] = total;
        if (lo[t] > hi[t]) continue;
        if (hi[t] - lo[t] >= (I)1 << 24) return -1;   /* a sparse table: not for dense arrays */
        total += hi[t] - lo[t] + 1;
    }
    if (total > cap) return total;
    memset(buf, 0, sizeof(I) * (size_t)total);
    for (I i = 0; i < n; i++) if (fn[i] >= 0) buf[at[fn[i]] + arg[i] - lo[fn[i]]] = val[i];
    for (int t = 0; t < NTABLES; t++) {
        x->T[t].lo = lo[t] <= hi[t] ? lo[t] : 1;
        x->T[t].hi = lo[t] <= hi[t] ? hi[t] : 0;
        x->T[t].v = buf + at[t];
    }
    return 0;
}
'''


class CPrinter(compiled.Printer):
    """The Emitter's operations as C expressions over int64_t (see the module's docstring)."""
    MACROS = {K.Z3_OP_ADD: "ADD", K.Z3_OP_MUL: "MUL", K.Z3_OP_SUB: "SUB"}   # checked: see HELPERS
    JOIN = {K.Z3_OP_AND: " && ", K.Z3_OP_OR: " || ", **dict.fromkeys(MACROS)}
    FORMS = {**{k: (2, "{0} %s {1}" % sign) for k, sign in COMPARE.items()},
             K.Z3_OP_NOT: (1, "!{0}"), K.Z3_OP_IMPLIES: (2, "!{0} || {1}"), K.Z3_OP_ITE: (3, "{0} ? {1} : {2}"),
             K.Z3_OP_UMINUS: (1, "SUB(0, {0})"), **{k: (2, f"{f}({{0}}, {{1}}, &ov)") for k, f in CALLS.items()}}

    def __init__(self, prog: Program):
        self.tables = {t: k for k, t in enumerate(prog.statics.tables.values())}   # T<N> -> index
        self.table_of = prog.statics.tables
        self.defined = {name: k for k, name in enumerate(prog.defined)}
        self.consts = {f"C.get({name!r}, 0)": f"C[{k}]" for k, name in enumerate(prog.consts)}

    def ref(self, name: str) -> str:
        if name in ("True", "False"):
            return "1" if name == "True" else "0"
        head = name[0]
        if head == "s":
            return f"S[{name[1:]}]"
        if head in "PAv":
            return name   # P[i], A[i], vN: the same in C
        if head == "C":
            return self.consts[name]
        value = int(name)   # a numeral
        if not -2 ** 63 < value < 2 ** 63:
            raise CompileError(f"numeral {value} beyond 64 bits")
        text = str(value) if -INT32 < value < INT32 else f"INT64_C({value})"
        return f"({text})" if value < 0 else text

    def assign(self, var, code) -> str:
        return f"    I {var} = {code};"

    def statement(self, what, name, arg, value) -> str:
        assert what == "define"
        k = self.defined[name]
        return f"    if (_define(&Dn{k}, Dk{k}, Dv{k}, {self.ref(arg)}, {self.ref(value)})) return {UNDETERMINED};"

    def read(self, op: Op, arg) -> str:
        if op.name in self.defined:
            d = self.defined[op.name]
            return f"_dget(Dn{d}, Dk{d}, Dv{d}, {arg})"
        return f"_get(&T[{self.tables[self.table_of[op.name]]}], {arg})"

    def join(self, k, args) -> str:
        macro = self.MACROS.get(k)
        if macro is None:
            return super().join(k, args)
        code = args[0]
        for a in args[1:]:
            code = f"{macro}({code}, {a})"
        return code

    def distinct(self, args) -> str:
        return " && ".join(f"{a} != {b}" for i, a in enumerate(args) for b in args[i + 1:])


def c_source(prog: Program, nstate: int) -> str:
    """C source of the relation: `ygo_tables` (the facts), `ygo_prepare` (the statics),
    `ygo_step` (one step of the action kind A[0]) and `ygo_meta` (what Python needs to call them)."""
    printer = CPrinter(prog)
    statics = prog.statics
    # each defined function's points in one step: as many as its definition's pairs
    pairs = {name: sum(1 for f in prog.steps[:1] for item in f.em.order
                       if isinstance(item, tuple) and item[1] == name) for name in prog.defined}
    meta = dict(tables=list(statics.tables), consts=prog.consts, rule_ids=prog.rule_ids, nstate=nstate,
                nstatics=len(statics.ops), kinds=len(prog.steps))
    out = ["/* generated by ygo_timing.model.native; do not edit */", HELPERS,
           f"#define NTABLES {max(1, len(statics.tables))}", f"#define NCONSTS {len(prog.consts)}",
           f"#define NSTATE {nstate}", TABLES,
           f"const char ygo_meta[] = {json.dumps(json.dumps(meta))};", ""]
    out.append("int ygo_prepare(Ctx *x) {")
    out.append("    const I *C = x->C; const Tab *T = x->T; I *S = x->S; int ov = 0;")
    out += [f"    S[{op.var[1:]}] = {printer.code(op, [printer.ref(a) for a in op.kids])};" for op in statics.ops]
    out += [f"    return ov ? {OVERFLOW} : 0;", "}", ""]
    for f in prog.steps:
        out.append(f"static int step_{'any' if f.kind is None else f.kind}(Ctx *x) {{")
        out.append("    const I *P = x->P, *A = x->A, *S = x->S; const Tab *T = x->T; I *Q = x->Q; int ov = 0;")
        out.append("    (void)P; (void)A; (void)S; (void)T;")
        for name, k in printer.defined.items():
            out.append(f"    int Dn{k} = 0; I Dk{k}[{max(1, pairs[name])}], Dv{k}[{max(1, pairs[name])}];")
        out += f.em.finish(printer)
        out += [f"    Q[{i}] = {printer.ref(v)};" for i, v in enumerate(f.post)]
        out.append(f"    if (ov) return {OVERFLOW};")
        out.append("    int n = 0;")
        out += [f"    if (!{printer.ref(ok)}) x->broken[n++] = {i};" for i, ok in enumerate(f.oks) if ok != "True"]
        out += ["    return n;", "}", ""]
    specialised = "".join(f"        case {f.kind}: n = step_{f.kind}(x); break;\n" for f in prog.steps if f.kind is not None)
    general = "step_any(x)" if any(f.kind is None for f in prog.steps) else str(BAD_KIND)
    out.append(f'''
int ygo_step(Ctx *x) {{
    I k = x->A[0];
    int n;
    if (k < 0 || k >= {len(ACTIONS)}) return {BAD_KIND};
    switch (k) {{
{specialised}        default: n = {general};
    }}
    if (n == 0) memcpy(x->P, x->Q, sizeof(I) * NSTATE);
    return n;
}}
''')
    return "\n".join(out)


class Ctx(ctypes.Structure):
    _fields_ = [("P", ctypes.c_void_p), ("Q", ctypes.c_void_p), ("A", ctypes.c_void_p), ("S", ctypes.c_void_p),
                ("C", ctypes.c_void_p), ("T", ctypes.c_void_p), ("broken", ctypes.c_void_p)]


class Tab(ctypes.Structure):
    _fields_ = [("lo", ctypes.c_int64), ("hi", ctypes.c_int64), ("v", ctypes.c_void_p)]


class NativeRelation:
    """A loaded shared object: `play(facts, state)` starts a play on it."""

    def __init__(self, lib: ctypes.CDLL, layout):
        self.lib = lib
        meta = json.loads(ctypes.string_at(ctypes.addressof(ctypes.c_char.in_dll(lib, "ygo_meta"))))
        self.rule_ids = tuple(meta["rule_ids"])
        self.table_index = {name: k for k, name in enumerate(meta["tables"])}
        self.table_index.update({name: -2 - k for k, name in enumerate(meta["consts"])})
        self.nstate, self.nstatics, self.ntables = meta["nstate"], meta["nstatics"], max(1, len(meta["tables"]))
        self.nconsts = len(meta["consts"])
        self.is_bool = [is_bool for _, is_bool in layout]
        if len(layout) != self.nstate:
            raise CompileError(f"the shared object's state has {self.nstate} values, the layout {len(layout)}")
        for name, argtypes in (("ygo_step", [ctypes.c_void_p]), ("ygo_prepare", [ctypes.c_void_p]),
                               ("ygo_tables", [ctypes.c_void_p, ctypes.c_int64] + [ctypes.c_void_p] * 4
                                + [ctypes.c_int64])):
            fn = getattr(lib, name)
            fn.argtypes, fn.restype = argtypes, (ctypes.c_int if name != "ygo_tables" else ctypes.c_int64)
        self.step_fn, self.prepare_fn, self.tables_fn = lib.ygo_step, lib.ygo_prepare, lib.ygo_tables

    def play(self, facts, state: list) -> NativePlay:
        """A play from its facts (checking.facts.Fact: fn, arg, value) and its state before the
        first action; OverflowError if a value does not fit 64 bits, CompileError if the facts do
        not fit dense tables."""
        return NativePlay(self, facts, state)


class NativePlay:
    """One play's buffers: the state (`vals`, read in place), the action, the statics and tables.
    `step(action)` takes one step: the broken rule IDs, () when legal (the state then advances)."""

    def __init__(self, rel: NativeRelation, facts, state: list):
        self.rel = rel
        index = rel.table_index.get
        fn = array("q", [index(f.fn, -1) for f in facts])
        arg = array("q", [f.arg or 0 for f in facts])
        val = array("q", [f.value for f in facts])
        self.vals = (ctypes.c_int64 * rel.nstate)()
        start = array("q", state)   # OverflowError past 64 bits, where ctypes would wrap
        ctypes.memmove(self.vals, start.buffer_info()[0], 8 * rel.nstate)
        self.after = (ctypes.c_int64 * rel.nstate)()
        self.act = (ctypes.c_int64 * len(ACTION_FIELDS))()
        self.statics = (ctypes.c_int64 * max(1, rel.nstatics))()
        self.consts = (ctypes.c_int64 * max(1, rel.nconsts))()
        self.tabs = (Tab * rel.ntables)()
        self.broken = (ctypes.c_int32 * max(1, len(rel.rule_ids)))()
        self.ctx = Ctx(*(ctypes.addressof(b) for b in (self.vals, self.after, self.act, self.statics, self.consts,
                                                        self.tabs, self.broken)))
        self.ptr = ctypes.addressof(self.ctx)
        cap = 4 * len(fn) + 64
        while True:
            self.buf = (ctypes.c_int64 * cap)()
            need = rel.tables_fn(self.ptr, len(fn), fn.buffer_info()[0], arg.buffer_info()[0],
                                 val.buffer_info()[0], ctypes.addressof(self.buf), cap)
            if need == 0:
                break
            if need < 0:
                raise CompileError("a fact's argument is too far from the others for a dense table")
            cap = need
        if rel.prepare_fn(self.ptr) == OVERFLOW:
            raise OverflowError("a static value beyond 64 bits")

    def step(self, act: list) -> tuple:
        """`act` in state.ACTION_FIELDS order. Raises Undetermined as the Python step does, and
        OverflowError where 64 bits do not suffice (then the Python step decides)."""
        if not (-LIMIT < min(act) and max(act) < LIMIT):
            raise OverflowError("an action's value beyond 62 bits")
        self.act[:] = act
        n = self.rel.step_fn(self.ptr)
        if n == 0:
            return ()
        if n > 0:
            ids = self.rel.rule_ids
            return tuple(ids[self.broken[k]] for k in range(n))
        if n == OVERFLOW:
            raise OverflowError("a value beyond 64 bits")
        raise Undetermined("a defined function defined twice, differently" if n == UNDETERMINED
                           else f"action kind {act[0]}")

    def values(self, buffer=None) -> list:
        """The state as the Python step keeps it: a list, Booleans as bool. `buffer=play.after`
        reads the state after the last step instead (computed also when it broke rules)."""
        return [bool(v) if b else v for v, b in zip(self.vals if buffer is None else buffer, self.rel.is_bool)]


# --- building, caching and loading ----------------------------------------------------------------
TRAILER = b"ygo-timing native sha256 "   # + 64 hex digits: appended to the shared object (ELF ignores it)


def mode() -> str:
    """YGO_TIMING_NATIVE: "0" never; "1" build at first need; otherwise (the default, "auto")
    use a cached shared object, and build one once this process has walked a relation in
    Python for `AUTO_AFTER_S` seconds of CPU (see `spent`)."""
    value = os.environ.get("YGO_TIMING_NATIVE", "auto").strip().lower()
    return {"0": "off", "off": "off", "no": "off", "1": "on", "on": "on", "yes": "on"}.get(value, "auto")


def compiler() -> str | None:
    """The C compiler: $CC (one program), else cc or gcc on the PATH; None if there is none."""
    cc = os.environ.get("CC")
    return shutil.which(cc) if cc else shutil.which("cc") or shutil.which("gcc")


def cached_path(key: tuple) -> Path | None:
    """Where the shared object of relation `key` is cached: keyed like the bytecode
    (model/diskcache.py), with this format, the flags and the platform."""
    return diskcache.entry(f"native-{FORMAT}-{' '.join(FLAGS)}-{sys.platform}-{os.uname().machine}", key,
                           "native-{digest}.so")


def seal(data: bytes) -> bytes:
    return data + TRAILER + hashlib.sha256(data).hexdigest().encode()


def intact(path: Path) -> bool:
    """The file ends with the SHA-256 of what precedes its trailer: it is the object as built."""
    try:
        data = path.read_bytes()
    except OSError:
        return False
    body, sep, digest = data.rpartition(TRAILER)
    return bool(sep) and hashlib.sha256(body).hexdigest().encode() == digest


def build(key: tuple, path: Path) -> bool:
    """Print relation `key` as C, compile it and cache the shared object at `path` (in the cache
    folder: a shared object must be where it may be mapped executable); False if there is no
    compiler or it fails (the Python path then serves)."""
    cc = compiler()
    if cc is None:
        return False
    from .state import layout
    from .step import relation
    source = c_source(compiled.program(relation(*key), KINDS), len(layout(key[1], key[2])))
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=path.parent, prefix="native-build-") as tmp:
        c, so = Path(tmp) / "relation.c", Path(tmp) / "relation.so"
        c.write_text(source)
        try:
            done = subprocess.run([cc, *FLAGS, "-o", str(so), str(c)], capture_output=True)
        except OSError:
            return False
        if done.returncode != 0 or not so.is_file():
            return False
        diskcache.write_atomically(path, seal(so.read_bytes()))
    return True


# the largest buckets built: the step function is one C function, and at 24 cards / 32 effects
# it is 8 MB of C that gcc -O0 takes minutes and 9 GB to compile, for a step only 1.25 times the
# Python one (docs/performance.md, "A native relation"); the fixtures go up to 12 / 12
MAX_CARDS, MAX_EFFECTS = 12, 16
_loaded: OrderedDict = OrderedDict()   # key -> NativeRelation | None (None: a build failed here)
MEMORY = compiled.MEMORY


def relation(name: str, ncards: int, neffects: int, without: frozenset = frozenset(),
             nwatched: int = 0) -> NativeRelation | None:
    """The native relation for these (bucketed) sizes, from memory or the disk cache, or built
    now if the mode says so (`mode`, `spent`); None when it is off, not built, or cannot be."""
    how = mode()
    if how == "off" or ncards > MAX_CARDS or neffects > MAX_EFFECTS:
        return None
    key = (name, ncards, neffects, without, nwatched)
    if key in _loaded:
        _loaded.move_to_end(key)
        return _loaded[key]
    path = cached_path(key)
    if path is None:
        return None
    found = _load(path, ncards, neffects) if path.is_file() else None
    if found is None and (how == "on" or key in _due):
        _due.discard(key)
        found = _load(path, ncards, neffects) if build(key, path) else None
        _loaded[key] = found   # None: this process does not try again
    elif found is not None:
        _loaded[key] = found
    # (neither: nothing is remembered, so that an object another process builds is seen)
    while len(_loaded) > MEMORY:
        _loaded.popitem(last=False)
    return found


def _load(path: Path, ncards: int, neffects: int) -> NativeRelation | None:
    """A cached object that is intact, loaded; a damaged one is removed (and so rebuilt)."""
    from .state import layout
    if not intact(path):
        path.unlink(missing_ok=True)
        return None
    try:
        return NativeRelation(ctypes.CDLL(str(path)), layout(ncards, neffects))
    except (OSError, ValueError, KeyError, CompileError):
        return None


AUTO_AFTER_S = 10.0   # CPU seconds of Python walking on one relation before "auto" builds it
_spent: dict = {}     # key -> CPU seconds this process walked it in Python
_due: set = set()     # keys "auto" builds at the next `relation` call


def spent(key: tuple, seconds: float):
    """Note `seconds` of CPU spent walking relation `key` in Python. In "auto" mode, once that
    reaches AUTO_AFTER_S in this process, the next `relation(key)` builds the shared object: a
    long batch pays the build once (at most about as much again as it had spent), a single check
    never does (docs/performance.md, "A native relation")."""
    before = _spent.get(key, 0.0)
    _spent[key] = before + seconds
    if before < AUTO_AFTER_S <= before + seconds and mode() == "auto":
        _due.add(key)

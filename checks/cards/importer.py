"""Import a YGOPro/EDOPro card pool (cards.cdb + c<id>.lua scripts) as a catalogue.

The database gives each card's kind and stats; the scripts, read statically (luascan), give each
activated effect's properties. A property the sources do not settle is listed in the entry's
`unknown` list and left at the catalogue default; `check` never calls a play legal or illegal
on such a card (see docs/cards.md). Problems with single rows or scripts are warnings (file:line)
and the rest still imports; only an unreadable database is an error.
"""
from __future__ import annotations

import re
import sqlite3
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ygo_timing.cards import catalogue, luascan, scriptmodel
from ygo_timing.cards import luaconst as K
from ygo_timing.errors import InputError
from ygo_timing.inputs import fileio, jsonloc
from ygo_timing.model import vocab

MAX_CDB_BYTES = 512 * 1024 * 1024
MAX_CARDS = 100_000
MAX_EFFECTS = 8   # the catalogue's limits per card
MAX_CONTINUOUS = 2

ET = K.ET
T = K.TYPE
E = K.EVENT


class PoolError(InputError):
    """The database cannot be read at all. str() -> "path: message"."""


# --- event codes -> what the catalogue says --------------------------------------------------
PHASE_EVENT = {E["EVENT_PHASE"] + K.PHASE["PHASE_BATTLE_START"]: "start_step",
               E["EVENT_PHASE_START"] + K.PHASE["PHASE_BATTLE_START"]: "start_step",
               E["EVENT_PHASE"] + K.PHASE["PHASE_BATTLE"]: "end_step"}
EVENT_TIMING = {
    E["EVENT_ATTACK_ANNOUNCE"]: "attack_declared", E["EVENT_BE_BATTLE_TARGET"]: "attack_declared",
    E["EVENT_BATTLE_START"]: "ds_start", E["EVENT_BATTLE_CONFIRM"]: "before_calc",
    E["EVENT_PRE_DAMAGE_CALCULATE"]: "during_calc", E["EVENT_DAMAGE_CALCULATING"]: "during_calc",
    E["EVENT_PRE_BATTLE_DAMAGE"]: "during_calc", E["EVENT_BATTLE_END"]: "after_calc",
    E["EVENT_BATTLED"]: "after_calc", E["EVENT_BATTLE_DAMAGE"]: "after_calc",
    E["EVENT_BATTLE_DESTROYING"]: "ds_end", E["EVENT_BATTLE_DESTROYED"]: "ds_end",
    E["EVENT_DAMAGE_STEP_END"]: "ds_end", **PHASE_EVENT,
}
# (event, single?) -> the condition the event itself states
EVENT_CONDITION = {
    (E["EVENT_ATTACK_ANNOUNCE"], True): "battling", (E["EVENT_BE_BATTLE_TARGET"], True): "attacked",
    (E["EVENT_BATTLE_START"], True): "battling", (E["EVENT_BATTLE_CONFIRM"], True): "battling",
    (E["EVENT_PRE_DAMAGE_CALCULATE"], True): "battling", (E["EVENT_BATTLED"], True): "battling",
    (E["EVENT_DAMAGE_STEP_END"], True): "battling",
    (E["EVENT_BATTLE_DESTROYED"], True): "destroyed_by_battle",
    (E["EVENT_BATTLE_DESTROYED"], False): "monster_destroyed_by_battle",
    (E["EVENT_BATTLE_DESTROYING"], True): "destroys_by_battle",
    (E["EVENT_BATTLE_DAMAGE"], True): "battle_damage_dealt",
    # in a battle, a monster is flipped face-up by the attack (other flips are not simulated)
    (E["EVENT_FLIP"], True): "flipped_by_attack",
    # a Trigger Effect of this card on its Special Summon: the model's event is a resolving
    # effect's Special Summon (GEN-8); on other kinds the condition would hold always: see below
    (E["EVENT_SPSUMMON_SUCCESS"], True): "summoned",
    # this card destroyed, by any means (EVENT_LEAVE_FIELD scripts test how it left in a condition)
    (E["EVENT_DESTROYED"], True): "destroyed",
}
# Field-scope battle events whose condition depends on whose monster or which player: unknown.
FIELD_UNSETTLED = {E["EVENT_BATTLE_DAMAGE"], E["EVENT_BATTLE_DESTROYING"], E["EVENT_BE_BATTLE_TARGET"]}
LOCATION_EVENTS = {E[n] for n in (
    "EVENT_REMOVE", "EVENT_TO_HAND", "EVENT_TO_DECK", "EVENT_TO_GRAVE", "EVENT_LEAVE_FIELD",
    "EVENT_LEAVE_FIELD_P", "EVENT_DESTROY", "EVENT_DESTROYED", "EVENT_RELEASE", "EVENT_DISCARD",
    "EVENT_MOVE", "EVENT_LEAVE_GRAVE", "EVENT_SUMMON_SUCCESS", "EVENT_FLIP_SUMMON_SUCCESS",
    "EVENT_SPSUMMON_SUCCESS", "EVENT_BATTLE_DESTROYED", "EVENT_BE_MATERIAL", "EVENT_EQUIP")}
# the code of a SetCountLimit shared by every card of the name: `id` or the passcode, with
# EFFECT_COUNT_CODE_OATH (`id+...` or `id,...`), or `{id,n}`
COUNT_BY_NAME = re.compile(r"(?:id|\d+)(?:[+,]EFFECT_COUNT_CODE_OATH)?|\{(?:id|\d+),\d+\}")
# "You can only use this effect of "X" once per Duel": the code with EFFECT_COUNT_CODE_DUEL
COUNT_PER_DUEL = re.compile(r"(?:id|\d+)[+,]EFFECT_COUNT_CODE_DUEL")
# Conditions that limit an effect to "until damage calculation" (the helpers, and the same test
# written out), and to "the Damage Step, before damage calculation" only.
UNTIL_CALC = re.compile(r"aux\.dscon|StatChangeDamageStepCondition"
                        r"|not\s*\(?\s*Duel\.IsPhase\s*\(\s*PHASE_DAMAGE\s*\)\s*and\s*Duel\.IsDamageCalculated"
                        r"|PHASE_DAMAGE\s+or\s+not\s+Duel\.IsDamageCalculated"
                        r"|Duel\.IsPhase\s*\(\s*PHASE_DAMAGE\s*\)\s*and\s*Duel\.IsDamageCalculated\s*\(\s*\)\s*then\s+return\s+false"
                        r"|~=\s*PHASE_DAMAGE\s+or\s+Duel\.IsDamageCalculated\s*\(\s*\)\s*then\s+return\s+false"
                        r"|Duel\.IsPhase\s*\(\s*PHASE_DAMAGE\s*\)\s*and\s+not\s+Duel\.IsDamageCalculated")
DS_ONLY = re.compile(r"~=\s*PHASE_DAMAGE\s+or\s+Duel\.IsDamageCalculated\s*\(\s*\)\s*then\s+return\s+false"
                     r"|return\s+Duel\.IsPhase\s*\(\s*PHASE_DAMAGE\s*\)\s*and\s+not\s+Duel\.IsDamageCalculated")
ONLY_UNTIL_CALC = re.compile(
    r"^(aux\.dscon|aux\.StatChangeDamageStepCondition|Auxiliary\.StatChangeDamageStepCondition"
    r"|function\s*\([^)]*\)\s*return\s+not\s*\(\s*Duel\.IsPhase\s*\(\s*PHASE_DAMAGE\s*\)\s*and\s*"
    r"Duel\.IsDamageCalculated\s*\(\s*\)\s*\)\s*end)$")
NO_DS_TEXT = re.compile(r"cannot be activated during the Damage Step", re.I)
# the card text's blanket Summoning condition, a sentence of its own ("Cannot be Special Summoned."):
# a script may refuse every Special Summon while its own effect ignores that ("Must be Special
# Summoned by its own effect"), so the script is read only where the text agrees
CANNOT_BE_SPECIAL_SUMMONED = re.compile(r"(?:^|[.\n]\s*)(?:This card )?cannot be Special Summoned\.", re.I)

EFFECT_PROPS = ("kind", "spell_speed", "from", "mandatory", "atk_def", "negates_activation", "trigger_class",
                "timings", "condition", "until_calc", "fusion_summon", "no_damage_step", "cost", "target", "operations")
CARD_PROPS = ("kind", "atk", "def", "level", "attribute", "availability", "effects", "continuous",
              "must_attack", "extra_attacks", "battle_damage_modifier", "calc_modifier")


@dataclass
class Record:
    """One imported card: its catalogue entry and what the engine's script declares."""
    id: int
    entry: dict
    ot: int
    decls: list = field(default_factory=list)   # luascan.EffectDecl, one per entry effect
    script: str | None = None


@dataclass
class Imported:
    records: list = field(default_factory=list)
    warnings: list = field(default_factory=list)
    coverage: dict = field(default_factory=dict)   # property -> Counter(derived=, unknown=)
    skipped: Counter = field(default_factory=Counter)

    def catalogue(self) -> dict:
        return {"cards": [r.entry for r in self.records]}


# --- the database -------------------------------------------------------------------------------
MAX_CELL_BYTES = 64 * 1024     # one value of a row (a card's text is a few hundred bytes)
MAX_ROW_BYTES = 256 * 1024     # one row, all its values
CDB_STEPS = 20_000             # SQLite progress calls (each 10,000 VM steps) for the whole read

COLUMNS = "d.id, d.ot, d.alias, d.type, d.atk, d.def, d.level, d.attribute, t.name, t.desc"


def read_cdb(path: str):
    """Rows (id, ot, alias, type, atk, def, level, attribute, name, desc) of a cards.cdb, one at a
    time (never all in memory). The database is untrusted: a value larger than MAX_CELL_BYTES, a
    row larger than MAX_ROW_BYTES, a generated column or a read that takes too long is an error."""
    fileio.regular_file(path, PoolError)   # a FIFO would block SQLite's open
    size = Path(path).stat().st_size
    if size > MAX_CDB_BYTES:
        raise PoolError(path, None, f"database is larger than {MAX_CDB_BYTES} bytes")
    try:
        db = sqlite3.connect(Path(path).resolve().as_uri() + "?mode=ro", uri=True)
    except sqlite3.Error as e:
        raise PoolError(path, None, f"not a readable SQLite card database: {e}") from None
    calls = [0]

    def budget():
        calls[0] += 1
        return calls[0] > CDB_STEPS   # non-zero interrupts the query

    def fail(e):
        why = (f"a value larger than {MAX_CELL_BYTES} bytes" if "too big" in str(e) else
               "reading it takes more than its budget of SQLite steps" if calls[0] > CDB_STEPS else e)
        return PoolError(path, None, f"not a readable SQLite card database: {why}")
    try:
        if hasattr(db, "setlimit"):   # Python 3.11+: SQLite itself refuses a larger value
            db.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, MAX_CELL_BYTES)
        db.set_progress_handler(budget, 10_000)
        tables = {r[0] for r in db.execute("select name from sqlite_master where type='table'")}
        missing = {"datas", "texts"} - tables
        if missing:
            raise PoolError(path, None, f"not a card database: no table {sorted(missing)[0]!r} "
                                           "(expected tables 'datas' and 'texts')")
        for table in ("datas", "texts"):   # a generated column computes its values on reading
            if any(r[-1] for r in db.execute(f"pragma table_xinfo({table})")):
                raise PoolError(path, None, f"table {table!r} has a generated column; a card database has none")
    except sqlite3.Error as e:
        db.close()
        raise fail(e) from None
    except PoolError:
        db.close()
        raise

    def rows():
        query = f"select {COLUMNS} from datas d left join texts t on t.id = d.id order by d.id limit ?"
        try:
            for n, row in enumerate(db.execute(query, (MAX_CARDS + 1,)), start=1):
                if n > MAX_CARDS:
                    raise PoolError(path, None, f"more than {MAX_CARDS} cards")
                sizes = [len(v) for v in row if isinstance(v, (str, bytes))]
                if max(sizes, default=0) > MAX_CELL_BYTES or sum(sizes) > MAX_ROW_BYTES:
                    raise PoolError(path, None, f"datas id {str(row[0])[:20]}: a value larger than "
                                                f"{MAX_CELL_BYTES} bytes or a row larger than {MAX_ROW_BYTES}")
                yield row
        except sqlite3.Error as e:
            raise fail(e) from None
        finally:
            db.close()
    try:
        total = min(db.execute("select count(*) from datas").fetchone()[0], MAX_CARDS + 1)
    except sqlite3.Error as e:
        db.close()
        raise fail(e) from None
    return CdbRows(total, rows())


class CdbRows:
    """The rows of a card database, read one at a time, and how many there are (for progress)."""

    def __init__(self, total: int, rows):
        self.total, self.rows = total, rows

    def __len__(self) -> int:
        return self.total

    def __iter__(self):
        return self.rows


def card_kind(tbits: int):
    """(type, subtype) of the cdb `type` bits, or None for kinds the tool does not cover."""
    if tbits & T["TYPE_MONSTER"]:
        for bit, sub in (("TYPE_LINK", "link"), ("TYPE_XYZ", "xyz"), ("TYPE_SYNCHRO", "synchro"),
                         ("TYPE_FUSION", "fusion"), ("TYPE_RITUAL", "ritual"), ("TYPE_TOKEN", "token"),
                         ("TYPE_FLIP", "flip"), ("TYPE_EFFECT", "effect")):
            if tbits & T[bit]:
                return "monster", sub
        return "monster", "normal"
    if tbits & (T["TYPE_SKILL"] | T["TYPE_ACTION"]):
        return None
    if tbits & T["TYPE_SPELL"]:
        for bit, sub in (("TYPE_QUICKPLAY", "quickplay"), ("TYPE_CONTINUOUS", "continuous"),
                         ("TYPE_EQUIP", "equip"), ("TYPE_FIELD", "field"), ("TYPE_RITUAL", "ritual")):
            if tbits & T[bit]:
                return "spell", sub
        return "spell", "normal"
    if tbits & T["TYPE_TRAP"]:
        for bit, sub in (("TYPE_COUNTER", "counter"), ("TYPE_CONTINUOUS", "continuous")):
            if tbits & T[bit]:
                return "trap", sub
        return "trap", "normal"
    return None


CARD_SPEED = {"spell:quickplay": 2, "trap:normal": 2, "trap:continuous": 2, "trap:counter": 3}
EFFECT_SPEED = {"ignition": 1, "trigger": 1, "flip": 1, "quick": 2}


def spell_speed(kind: str, ekind: str) -> int:
    """CH-4's Spell Speed, for the report (the solver derives its own)."""
    if kind.startswith("monster"):
        return EFFECT_SPEED.get(ekind, 0)
    return CARD_SPEED.get(kind, 1)


# --- one effect ---------------------------------------------------------------------------------
def effect_kind(typ: int):
    if typ & ET["ACTIVATE"]:
        return "activation"
    if typ & ET["FLIP"]:
        return "flip"
    if typ & (ET["QUICK_O"] | ET["QUICK_F"]):
        return "quick"
    if typ & (ET["TRIGGER_O"] | ET["TRIGGER_F"]):
        return "trigger"
    if typ & ET["IGNITION"]:
        return "ignition"
    return None


def negated_kind(body: str):
    """What activations a negating effect answers, read off its condition; None: not settled."""
    mentions = {t for t in ("MONSTER", "SPELL", "TRAP") if re.search(rf"IsActiveType\s*\(\s*TYPE_{t}\b", body)
                or re.search(rf"Is{t.capitalize()}Effect\s*\(", body)}
    if re.search(r"IsSpellTrapEffect\s*\(", body):
        mentions |= {"SPELL", "TRAP"}
    activate = bool(re.search(r"IsHasType\s*\(\s*EFFECT_TYPE_ACTIVATE", body))
    # "When your opponent activates": the activating player is not this effect's (rp / ep ~= tp)
    opponents = "opponent_" if re.search(r"\b[re]p\s*(~=|==\s*1\s*-)\s*tp\b|\b(tp\s*~=|1\s*-\s*tp\s*==)\s*[re]p\b",
                                         body) else ""
    if not mentions and not activate:
        return opponents + "any" if not re.search(r"\bre\s*:|GetActiveType|TYPE_", body) else None
    if mentions == {"MONSTER"} and not activate:
        return opponents + "monster_effect"
    if activate and mentions <= {"SPELL", "TRAP"}:
        what = {frozenset({"SPELL"}): "spell", frozenset({"TRAP"}): "trap"}.get(frozenset(mentions), "spell_trap")
        return opponents + what
    return None


def map_effect(d: luascan.EffectDecl, kind: str, desc: str | None, path: str, functions=None):
    """(catalogue effect dict, unknown properties, import notes) for one declared effect, or
    (None, reason) when not even its kind can be read."""
    typ = d.get("Type")
    unknown = []
    if typ is None:
        if d.helper and not kind.startswith("monster") and (d.helper in luascan.ACTIVATION_HELPERS
                                                               or d.helper.startswith(("Ritual.", "Fusion.CreateSummonEff"))):
            ekind = "activation"
        else:
            what = f"registered through {d.helper}" if d.helper else "no SetType with a constant type"
            return None, f"{path}:{d.line}: effect {d.var or '?'}: {what}; its kind is unknown"
    else:
        ekind = effect_kind(typ)
        if ekind is None:
            return None, f"{path}:{d.line}: effect {d.var}: type {typ:#x} is not an activated effect"
    e = {"kind": ekind}
    single = typ is not None and bool(typ & ET["SINGLE"])
    # mandatory
    if typ is None:
        unknown.append("mandatory")
    else:
        e["mandatory"] = bool(typ & (ET["TRIGGER_F"] | ET["QUICK_F"])) or (
            ekind == "flip" and not typ & ET["TRIGGER_O"])
    # its once-per-turn limit: SetCountLimit(1) each copy's; SetCountLimit(1, id) (also with
    # EFFECT_COUNT_CODE_OATH, or {id, n} for "each effect of") every card of its name's (one code
    # over several effects: map_card's shared_limits)
    limit = d.settings.get("CountLimit")
    if limit is not None:
        args = limit.text.replace(" ", "").split(",", 1)
        if args == ["1"]:
            e["once"] = "per_turn"
        elif args[0] == "1" and len(args) == 2 and COUNT_BY_NAME.fullmatch(args[1]):
            e["once"] = "per_turn_by_name"
        elif args[0] == "1" and len(args) == 2 and COUNT_PER_DUEL.fullmatch(args[1]):
            e["once"] = "per_duel"
        else:   # more than once, a shared code: not one of the catalogue's limits
            unknown.append("once")
    # where it is activated from
    rng = d.settings.get("Range")
    if rng is None:
        e["from"] = "field"
    elif rng.value is None:
        unknown.append("from")
    else:
        where = {"hand": rng.value & K.LOCATION["LOCATION_HAND"],
                 "graveyard": rng.value & K.LOCATION["LOCATION_GRAVE"],
                 "field": rng.value & (K.LOCATION["LOCATION_ONFIELD"] | K.LOCATION["LOCATION_FZONE"]
                                       | K.LOCATION["LOCATION_PZONE"])}
        found = [k for k, v in where.items() if v]
        if len(found) == 1 and not rng.value & ~(K.LOCATION["LOCATION_HAND"] | K.LOCATION["LOCATION_GRAVE"]
                                                 | K.LOCATION["LOCATION_ONFIELD"] | K.LOCATION["LOCATION_FZONE"]
                                                 | K.LOCATION["LOCATION_PZONE"]):
            e["from"] = found[0]
        else:
            unknown.append("from")
    # categories
    cat = d.settings.get("Category")
    catv = 0 if cat is None else cat.value
    if d.helper and cat is None:
        catv = None
    if catv is None:
        unknown += ["atk_def", "negates_activation", "fusion_summon"]
    else:
        changes = catv & (K.CATEGORY["CATEGORY_ATKCHANGE"] | K.CATEGORY["CATEGORY_DEFCHANGE"])
        e["atk_def"] = "direct" if changes else "none"
        e["fusion_summon"] = bool(catv & K.CATEGORY["CATEGORY_FUSION_SUMMON"]) or bool(
            d.helper and d.helper.startswith("Fusion."))
        if catv & K.CATEGORY["CATEGORY_NEGATE"]:
            what = negated_kind(d.cond_body)
            if what is None:
                e["negates_activation"] = "any"
                unknown.append("negates_activation")
            else:
                e["negates_activation"] = what
    # the event, and what follows from it
    code = d.settings.get("Code")
    codev = None if code is None else code.value
    cond = d.settings.get("Condition")
    body = d.cond_body if cond is not None else ""
    until = bool(UNTIL_CALC.search(body)) if cond is not None else False
    only_until = cond is not None and bool(ONLY_UNTIL_CALC.match(" ".join(cond.text.split())))
    atoms = None
    if code is not None and codev is None:
        unknown += ["timings", "condition"] + (["trigger_class"] if ekind in ("trigger", "flip") else [])
    else:
        timing = EVENT_TIMING.get(codev)
        e["timings"] = [timing] if timing else []
        if not timing and cond is not None and DS_ONLY.search(body):
            e["timings"] = ["ds_start", "before_calc"]   # its condition: the Damage Step, before calculation
        if ekind in ("trigger", "flip"):
            e["trigger_class"] = ("flipped" if ekind == "flip" or codev == E["EVENT_FLIP"] else
                                  "position" if codev == E["EVENT_CHANGE_POS"] else
                                  "location" if codev in LOCATION_EVENTS else "other")
        base = EVENT_CONDITION.get((codev, single), "none")
        if base in vocab.EVENTS and ekind != "trigger":
            base = "none"   # the catalogue admits these events on Trigger Effects only
        if base in (*catalogue.BATTLE_EVENTS_OF_THIS_CARD, *vocab.LEAVING) and not kind.startswith("monster"):
            base = "none"   # a Spell or Trap never battles: the loader refuses such an event
            unknown.append("condition")
        in_mzone = rng is not None and rng.value == K.LOCATION["LOCATION_MZONE"]
        atoms = [] if cond is None or only_until else scriptmodel.condition_atoms(body, self_in_mzone=in_mzone)
        stated = None if atoms is None else scriptmodel.condition(
            base, atoms, codev == E["EVENT_ATTACK_ANNOUNCE"] and not single)
        if not single and codev in FIELD_UNSETTLED:
            unknown.append("condition")
        elif stated is None:
            e["condition"] = base
            unknown.append("condition")
        else:
            e["condition"] = stated
    if d.helper:
        unknown += [p for p in ("timings", "condition") if p not in unknown]
    prop = d.settings.get("Property")
    if desc is None:
        unknown.append("no_damage_step")
    else:
        e["no_damage_step"] = bool(NO_DS_TEXT.search(desc))
    lines = _effect_model(e, d, functions or {}, prop, unknown, path)
    if atoms:   # the condition function stated atoms that were read
        lines["condition"] = f"{path}:{(functions or {}).get(cond.text, ('', d.cond_line))[1]}"
    if cond is not None and "IsDamageCalculated" in body and not until:
        unknown.append("until_calc")
    notes = {
        "script": f"{path}:{d.line}",
        "type": _names(typ, K.EFFECT_TYPE, "EFFECT_TYPE_") if typ is not None else None,
        "code": (K.event_name(codev) if codev is not None else code.text) if code else None,
        "flags": [f for f in ("DAMAGE_STEP", "DAMAGE_CAL") if prop is not None and prop.value is not None
                  and prop.value & K.EFFECT_FLAG["EFFECT_FLAG_" + f]],
        "until_calc": until,
        "ds_only": (cond is not None and bool(DS_ONLY.search(body))) or None,
        "speed": spell_speed(kind, ekind),
        **lines,
    }
    if d.helper:
        notes["helper"] = d.helper
    if prop is not None and prop.value is None:
        notes["flags"] = None
        unknown.append("flags")
    notes = {k: v for k, v in notes.items() if v is not None}
    return e, sorted(set(unknown)), notes


def _effect_model(e: dict, d: luascan.EffectDecl, functions: dict, prop, unknown: list, path: str) -> dict:
    """Cost, target and operations of `e` from the script (scriptmodel), each derived or listed
    in `unknown`; returns the script line behind each derived one (for the `import` notes)."""
    if d.helper:
        unknown += ["cost", "target", "operations"]
        return {}
    lines = {}
    flag = None if prop is not None and prop.value is None else bool(
        prop is not None and prop.value & K.EFFECT_FLAG["EFFECT_FLAG_CARD_TARGET"])
    got = {"cost": scriptmodel.cost(d, functions),
           "target": None if flag is None else scriptmodel.target(d, functions, flag)}
    tgt = got["target"].value if got["target"] else None
    got["operations"] = scriptmodel.operations(d, functions, tgt)
    ops = got["operations"].value if got["operations"] else None
    if ops is not None and e.get("atk_def") == "direct" and not any(o["do"].startswith(("atk_", "def_")) for o in ops):
        got["operations"] = None   # its category says it changes ATK/DEF: something was not read
    if ops is not None and any(o["do"].endswith("_at_calc") for o in ops) and "during_calc" not in e.get("timings", ()):
        got["operations"] = None   # a gain until the end of damage calculation from an effect activated before it
    if "condition" not in unknown and not scriptmodel.target_check_is_condition_free(d, tgt, ops):
        unknown.append("condition")   # the target function's activation check adds one
    for prop_name, derived in got.items():
        if derived is None:
            unknown.append(prop_name)
            continue
        lines[prop_name] = f"{path}:{derived.line}"
        if derived.value not in (None, []):
            e[prop_name] = derived.value
    return lines


def _names(value, table, prefix):
    return "+".join(k[len(prefix):] for k, v in table.items() if v and value & v == v
                    and k not in ("EFFECT_TYPE_ACTIONS",))


# --- one card -----------------------------------------------------------------------------------
def map_card(row, script: luascan.Script | None, script_path: str | None, warn):
    cid, ot, alias, tbits, atk, def_, level, attr, name, desc = row
    kind = card_kind(tbits)
    ctype, sub = kind
    entry = {"name": name, "type": ctype, "subtype": sub}
    unknown = []
    if ctype == "monster":
        entry["attribute"] = K.ATTRIBUTES.get(attr)
        if entry["attribute"] is None:
            unknown.append("attribute")
        if sub == "link":
            entry["level"] = None
        else:
            entry["level"] = level & 0xff
        entry["atk"] = atk if atk is not None and atk >= 0 else None
        if entry["atk"] is None:
            unknown.append("atk")
        if sub == "link":
            entry["def"] = None
        else:
            entry["def"] = def_ if def_ is not None and def_ >= 0 else None
            if entry["def"] is None:
                unknown.append("def")
    effects, decls = [], []
    condition = None   # a Summoning condition the model holds (catalogue `summoning_condition`)
    needs_script = not (ctype == "monster" and sub in ("normal", "token"))
    if script is None:
        if needs_script:
            unknown.append("effects")
    else:
        for d in script.effects:
            mapped = map_effect(d, f"{ctype}:{sub}", desc, script.path, script.functions)
            if mapped[0] is None:
                warn(mapped[1])
                unknown.append("effects")
                continue
            e, eunk, notes = mapped
            if eunk:
                e["unknown"] = eunk
            e["import"] = notes
            effects.append(e)
            decls.append(d)
        if script.opaque:
            unknown.append("effects")
            for fn, ln in script.opaque[:3]:
                warn(f"{script.path}:{ln}: {fn}: effects registered this way are not read")
        lasting = []
        for d in script.never_activated:
            if CANNOT_BE_SPECIAL_SUMMONED.search(desc or ""):
                condition = condition or scriptmodel.summoning_condition(d)
            got = scriptmodel.continuous(d, script.functions, equip_spell=(ctype, sub) == ("spell", "equip"))
            if got is not None:
                lasting.append({**got.value, "import": {"script": f"{script.path}:{got.line}"}})
            elif d.settings["Code"].text.strip() in scriptmodel.CONTINUOUS:
                unknown.append("continuous")   # one the Battle Phase rules read, not settled
        if len(lasting) > MAX_CONTINUOUS:
            lasting = lasting[:MAX_CONTINUOUS]
            unknown.append("continuous")
        effects += lasting
        decls += [None] * len(lasting)
        if len(effects) > MAX_EFFECTS:
            warn(f"{script.path}: {len(effects)} activated effects; the catalogue keeps the first {MAX_EFFECTS}")
            effects, decls = effects[:MAX_EFFECTS], decls[:MAX_EFFECTS]
            unknown.append("effects")
        shared_limits(effects, decls)
        for code, cond in script.continuous:
            if "MUST_ATTACK" in code:
                unknown.append("must_attack")
            if "EXTRA_ATTACK" in code or "ATTACK_ALL" in code:
                unknown.append("extra_attacks")
            if "BATTLE_DAMAGE" in code:
                unknown.append("battle_damage_modifier")
            if re.search(r"(UPDATE|SET)_(BASE_)?(ATTACK|DEFENSE)", code) and "PHASE_DAMAGE_CAL" in cond:
                unknown.append("calc_modifier")   # an ATK/DEF change that applies at damage calculation
    entry["effects"] = effects
    if condition:
        entry["summoning_condition"] = condition
    if unknown:
        entry["unknown"] = sorted(set(unknown))
    entry["import"] = {"id": cid, "availability": [r for r, bit in (("ocg", K.OT_OCG), ("tcg", K.OT_TCG))
                                                   if (ot or 0) & bit]}
    if script_path:
        entry["import"]["script"] = script_path
    entry["source"] = f"cards.cdb id {cid}" + (f", {script_path}" if script_path else "")
    return Record(cid, entry, ot or 0, decls, script_path)


def shared_limits(effects: list, decls: list):
    """Effects whose SetCountLimit(1, code) names one code (`id` with or without
    EFFECT_COUNT_CODE_OATH; `{id, n}` is its own) share one limit in the engine: "You can only
    activate 1 "X" per turn" over a card whose text is several effects. They are written
    `per_turn_by_card_name`; an effect whose code is its own keeps `per_turn_by_name`."""
    codes = {}
    for k, (e, d) in enumerate(zip(effects, decls)):
        if e.get("once") == "per_turn_by_name":
            code = d.settings["CountLimit"].text.replace(" ", "").split(",", 1)[1]
            codes.setdefault(re.sub(r"[+,]EFFECT_COUNT_CODE_OATH$", "", code), []).append(k)
    for ks in codes.values():
        if len(ks) > 1:
            for k in ks:
                effects[k]["once"] = "per_turn_by_card_name"


# --- the pool -----------------------------------------------------------------------------------
def import_pool(cdb: str, scripts: str | None = None, progress=None, follow_symlinks: bool = False) -> Imported:
    """`progress(done, total)`, if given, hears of the rows read (every 100); links under
    `scripts` are followed only with `follow_symlinks`."""
    rows = read_cdb(cdb)
    out = Imported()
    warn = out.warnings.append
    files = {}
    if scripts is not None:
        sdir = Path(scripts)
        if not sdir.is_dir():
            raise PoolError(scripts, None, "not a directory of card scripts")
        found, _ = fileio.walk(sdir, follow_symlinks)
        for f in found:
            m = re.fullmatch(r"c(\d+)\.lua", f.name)
            if m:
                files.setdefault(int(m.group(1)), f)
    names = {}
    for n, row in enumerate(rows):
        if progress and n % 100 == 0:
            progress(n, len(rows))
        cid, ot, alias, tbits, atk, def_, level, attr, name, desc = row
        where = f"{cdb}: datas id {cid}"
        if not isinstance(cid, int) or not isinstance(tbits, int) or not all(
                v is None or isinstance(v, int) for v in (ot, alias, atk, def_, level, attr)):
            warn(f"{where}: a numeric column holds text; row skipped")
            out.skipped["malformed row"] += 1
            continue
        if not isinstance(name, str) or not name.strip() or len(name) > 200:
            warn(f"{where}: no name in table texts (or longer than 200 characters); row skipped")
            out.skipped["malformed row"] += 1
            continue
        if desc is not None and not isinstance(desc, str):
            desc = None
        if alias and names.get(name) == alias:
            out.skipped["alternate artwork"] += 1
            continue
        if card_kind(tbits) is None:
            out.skipped["not a monster, Spell or Trap (Skill, Action...)"] += 1
            continue
        if name in names:
            warn(f"{where}: name {name!r} already imported from id {names[name]}; row skipped")
            out.skipped["duplicate name"] += 1
            continue
        script, spath = None, None
        f = files.get(cid)
        if f is not None:
            spath = str(f)
            try:
                # a FIFO or a device is refused; no more than one byte past the limit is read
                script = luascan.scan(fileio.read_regular(f, luascan.MAX_SCRIPT_BYTES, luascan.ScriptError), spath)
            except luascan.ScriptError as e:
                warn(str(e))
            for w in (script.warnings if script else []):
                warn(w)
        rec = map_card(row, script, spath, warn)
        try:   # what is written must load: an entry the catalogue refuses is not written
            catalogue.parse_card(rec.entry, jsonloc.Located(rec.entry, {}), cdb, ())
        except catalogue.CatalogueError as e:
            warn(f"{where}: not a valid catalogue entry ({e.message}); row skipped")
            out.skipped["refused by the catalogue"] += 1
            continue
        if script is None and f is not None:
            rec.entry.setdefault("unknown", [])
            if "effects" not in rec.entry["unknown"]:
                rec.entry["unknown"] = sorted(rec.entry["unknown"] + ["effects"])
        names[name] = cid
        out.records.append(rec)
    out.coverage = coverage(out.records)
    return out


def coverage(records) -> dict:
    """property -> {"derived": n, "unknown": n} over cards (card properties) or activated
    effects; `effect.every` counts the effects with every property derived, and
    `continuous.apply` the continuous effects read (the others are the card's `continuous`)."""
    cov = {f"card.{p}": Counter() for p in CARD_PROPS}
    cov.update({f"effect.{p}": Counter() for p in EFFECT_PROPS + ("every",)})
    cov["continuous.apply"] = Counter()
    for r in records:
        e = r.entry
        unk = set(e.get("unknown", ()))
        for p in CARD_PROPS:
            if p in ("atk", "def", "level", "attribute") and e["type"] != "monster":
                continue
            cov[f"card.{p}"]["unknown" if p in unk else "derived"] += 1
        for eff in e["effects"]:
            if eff["kind"] == "continuous":
                cov["continuous.apply"]["derived"] += 1
                continue
            eunk = set(eff.get("unknown", ()))
            for p in EFFECT_PROPS:
                cov[f"effect.{p}"]["unknown" if p in eunk else "derived"] += 1
            cov["effect.every"]["unknown" if eunk & set(EFFECT_PROPS) else "derived"] += 1
        cov["continuous.apply"]["unknown"] += "continuous" in unk
    return {k: {"derived": v["derived"], "unknown": v["unknown"]} for k, v in cov.items()}

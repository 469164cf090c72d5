"""The rulebook: what is known about each rule ID, and the queries on it (info, order, which
rule sets hold it, counterparts, hints, the catalogue and its markdown, one rule in detail).
Commands and reports read rules here; the rules declare it (model/rules/, `@rule`)."""
from __future__ import annotations

import difflib
from pathlib import Path

from . import rulesets
from .rules import RULES

# rules.md's section order, by ID prefix; the tool's own GEN-* last
FAMILY_ORDER = ("CH", "PR", "BP", "ST", "BS", "ES", "DS", "D1", "D2", "D3", "D4", "D5",
                ("T1", "T2", "T3", "T4", "T5", "T6", "T7"), "DC", "AB", "BD", "GEN")

# rule IDs that were split (docs/interpretations.md): old ID -> the IDs it became
RETIRED = {"GEN-1": ("GEN-5", "GEN-6", "GEN-7", "GEN-8", "GEN-9", "GEN-10", "GEN-11"),
           "GEN-2": ("GEN-12", "GEN-13", "GEN-14")}

# the source documents (../shared/seeds, named in rules.md): short name -> file
SEED_FILES = {"S0-TCG": "000_eab9188e51b676e0.txt", "S0-OCG": "000_eab9188e51b676e0.txt",
              "S1": "001_5b3bc487b9b58d99.txt", "S2": "002_0c8a76e38b65e89d.txt",
              "S3": "003_cf5dd956e3695da9.txt"}


def declaration(rid):
    """The part of rule `rid` that carries its metadata (the first one declared)."""
    parts = [r for r in RULES if r.id == rid]
    return next((r for r in parts if r.statement), parts[0]) if parts else None


def rule_info():
    """rule ID -> {rule, name, statement, sources}."""
    info = {}
    for r in RULES:
        if r.id not in info:
            d = declaration(r.id)
            info[r.id] = {"rule": r.id, "name": d.name, "statement": d.statement, "sources": list(d.sources)}
    return info


def short_statement(rid):
    """The statement a verdict shows: the rule's `summary` where its statement transcribes a whole
    paragraph (DS-1, DS-T1); `rules ID` shows the whole statement."""
    d = declaration(rid)
    return d.summary or d.statement


def _family_rank(head):
    for k, f in enumerate(FAMILY_ORDER):
        if head == f or (isinstance(f, tuple) and head in f):
            return k
    return len(FAMILY_ORDER)


def rule_order():
    """Rule IDs in the order of rules.md: the rule sets' lists, then the tool's own GEN-*."""
    order = []
    for name in rulesets.NAMES:
        order += [r for r in rulesets.load(name).rules if r not in order]

    def key(rid):
        head, _, tail = rid.partition("-")
        digits = "".join(ch for ch in tail if ch.isdigit())
        return (_family_rank(head), head, tail.startswith(("T", "H")), int(digits or 0), tail)
    return sorted(order, key=key)


def counterparts(rid: str) -> set:
    """The rules of the other rule set that speak to the same matter (declared either way)."""
    d = declaration(rid)
    out = set(d.counterparts) if d else set()
    return out | {r.id for r in RULES if rid in r.counterparts}


def hints(rids) -> set:
    """The explanation hints the rules `rids` declare (`hint=`)."""
    return {declaration(r).hint for r in rids if declaration(r) and declaration(r).hint}


def resolve(word: str) -> str | None:
    """A rule ID from an ID or a machine name (any case); None when there is no such rule."""
    ids = {r.id for r in RULES}
    if word.upper() in ids:
        return word.upper()
    by_name = {r.name: r.id for r in RULES if r.name}
    return by_name.get(word.lower())


def suggestions(word: str) -> list[str]:
    """What an unknown rule ID or name may have meant."""
    if word.upper() in RETIRED:
        return list(RETIRED[word.upper()])
    words = sorted({r.id for r in RULES} | {r.name for r in RULES if r.name})
    return difflib.get_close_matches(word, words, n=4, cutoff=0.5) or \
        difflib.get_close_matches(word.upper(), words, n=4, cutoff=0.5)


def rule_catalogue(ruleset=None):
    """One entry per rule ID, in rules.md order."""
    info, member = rule_info(), rulesets.membership()
    out = []
    for rid in rule_order():
        parts = [p for p in RULES if p.id == rid]
        entry = dict(info[rid])
        entry["id"] = entry.pop("rule")
        entry["rulesets"] = member.get(rid, [])
        entry["shapes"] = sorted({p.shape for p in parts})
        entry["expressible"] = "partial" if any(p.expressible == "partial" for p in parts) else "full"
        entry["note"] = " ".join(p.note for p in parts if p.note)
        entry["family"] = parts[0].family
        if ruleset is None or ruleset in entry["rulesets"]:
            out.append(entry)
    return out


def table_rows(rid):
    """The rows of the rule sets' tables that carry `rid`: [(rule set, table, row)]."""
    out = []
    for name in rulesets.NAMES:
        rs = rulesets.load(name)
        for table in ("transitions", "timing_grants", "atk_windows"):
            out += [(name, table, row) for row in getattr(rs, table) if row["rule"] == rid]
        if rs.flip["rule"] == rid:
            out.append((name, "flip", rs.flip))
    return out


def parse_source(src):
    """("S0-OCG", 166, 167) from "S0-OCG 166-167"; None for "card text" and the like."""
    short, _, lines = src.partition(" ")
    if short not in SEED_FILES or not lines:
        return None
    first, _, last = lines.partition("-")
    if not first.isdigit() or (last and not last.isdigit()):
        return None
    return short, int(first), int(last or first)


def quote_source(src, seeds: Path):
    """The seed lines a source cites, [(line, text)]; None when it cites no seed line or the
    seed file is not at `seeds`."""
    parsed = parse_source(src)
    if parsed is None:
        return None
    short, first, last = parsed
    path = seeds / SEED_FILES[short]
    if not path.is_file():
        return None
    lines = path.read_text("utf-8", errors="replace").splitlines()
    return [(n, lines[n - 1]) for n in range(first, min(last, len(lines)) + 1)]


def rules_markdown(entries):
    """docs/rules.md: the catalogue for people (generated; tests keep it in sync)."""
    out = ["# Rules catalogue", "",
           "Generated by `ygo-timing rules --format markdown` from the rule metadata in `model/rules/`",
           "and the rule sets in `model/rulesets/`. Do not edit by hand.", "",
           "Shapes: *restriction* (a constraint every step must meet), *permission* (grants a gate",
           "asks for), *update* (how the state after follows), *table* (rows of a rule set's tables).",
           ""]
    for e in entries:
        out.append(f"## {e['id']}" + (f" `{e['name']}`" if e["name"] else ""))
        out.append("")
        out.append(e["statement"])
        out.append("")
        out.append(f"- sources: {'; '.join(e['sources'])}")
        out.append(f"- rule sets: {', '.join(e['rulesets']) or 'none'}")
        out.append(f"- encoded as: {', '.join(e['shapes'])} (`model/rules/{e['family']}.py`)")
        if e["expressible"] == "partial":
            out.append(f"- **partly expressible**: {e['note']}")
        out.append("")
    return "\n".join(out)

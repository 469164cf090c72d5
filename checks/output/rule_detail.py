"""`ygo-timing rules ID`: one rule in full, for a judge or a contributor (like `ruff rule CODE`):
its statement, each source with the seed lines it cites, the rule sets that hold it, where it is
defined, its table rows, the fixtures that cite it, and whether it is load-bearing."""
from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path

import ygo_timing
from ygo_timing.checking.ablate import documented
from ygo_timing.inputs.files import play_files
from ygo_timing.inputs.play import PlayError, load
from ygo_timing.model import rulebook
from ygo_timing.model.rules import RULES

# the checkout the package runs from: ../shared holds the sources, docs/ the interpretations
ROOT = Path(ygo_timing.__file__).resolve().parent.parent
SEEDS = ROOT.parent / "shared" / "seeds"
INTERPRETATIONS = ROOT / "docs" / "interpretations.md"


class UnknownRule(Exception):
    """An ID or machine name no rule has; the message says what may have been meant."""


def lookup(word: str) -> str:
    rid = rulebook.resolve(word)
    if rid:
        return rid
    maybe = rulebook.suggestions(word)
    if word.upper() in rulebook.RETIRED:
        raise UnknownRule(f"{word.upper()} was split into {', '.join(maybe)} (docs/interpretations.md)")
    hint = f"; did you mean {', '.join(maybe)}?" if maybe else "; `ygo-timing rules` lists them all"
    raise UnknownRule(f"unknown rule {word!r}{hint}")


@lru_cache(maxsize=1)
def _fixture_index():
    """rule ID -> [(fixture path, verdict it expects)], from the fixtures' `rules:` and `expect:`."""
    data = resources.files("ygo_timing.data").joinpath("plays")
    out = {}
    for path in play_files([str(data)]):
        try:
            play = load(str(path))
        except PlayError:
            continue   # a fixture that does not parse cites nothing (its own test fails)
        shown = "fixtures/plays/" + Path(path).relative_to(Path(str(data))).as_posix()
        for rid in dict.fromkeys(list(play.rules) + list(play.expect_rules)):
            out.setdefault(rid, []).append((shown, play.expect))
    return out


def detail(rid: str, seeds: Path = SEEDS, interpretations: Path = INTERPRETATIONS) -> dict:
    decl = rulebook.declaration(rid)
    entry = next(e for e in rulebook.rule_catalogue() if e["id"] == rid)
    sources = []
    for src in decl.sources:
        quote = rulebook.quote_source(src, seeds)
        item = {"source": src, "lines": [{"line": n, "text": t} for n, t in quote] if quote else None}
        if quote is None:
            item["note"] = ("not a line of the sources" if rulebook.parse_source(src) is None else
                            f"not quoted: the source documents are not at {seeds}")
        sources.append(item)
    parts = [r for r in RULES if r.id == rid]
    fixtures = _fixture_index().get(rid, [])
    if interpretations.is_file():
        idle = rid in documented(str(interpretations))
        bearing = {"load_bearing": not idle, "why": (
            f"{interpretations.name} lists it among the rules no fixture can tell from their absence" if idle else
            "removing it flips a fixture's verdict (`ablate` checks this in CI)")}
    else:
        bearing = {"load_bearing": None, "why": f"{interpretations} is not here to say"}
    bearing["check"] = f"python -m ygo_timing.checking.ablate --rule {rid} fixtures/plays"
    return {
        "id": rid, "name": decl.name, "statement": decl.statement, "sources": sources,
        "rulesets": entry["rulesets"], "shapes": entry["shapes"], "expressible": entry["expressible"],
        "note": entry["note"], "counterparts": sorted(rulebook.counterparts(rid)),
        "defined": [{"file": f"model/rules/{r.family}.py", "line": r.line, "shape": r.shape} for r in parts],
        "table_rows": [{"ruleset": n, "table": t, "row": row} for n, t, row in rulebook.table_rows(rid)],
        "fixtures": [{"path": p, "expect": e} for p, e in fixtures],
        **bearing,
    }


def text(d: dict) -> str:
    out = [f"{d['id']}" + (f" ({d['name']})" if d["name"] else ""), "", d["statement"], ""]
    out.append("Sources:")
    for s in d["sources"]:
        out.append(f"  {s['source']}" + (f" -- {s['note']}" if s.get("note") else ""))
        for q in s["lines"] or []:
            out.append(f"    {q['line']:>4} | {q['text'].strip()}")
    out.append(f"Rule sets: {', '.join(d['rulesets']) or 'none'}")
    if d["counterparts"]:
        out.append(f"Counterparts in the other rule set: {', '.join(d['counterparts'])}")
    if d["expressible"] == "partial":
        out.append(f"Partly expressible: {d['note']}")
    out.append("Defined:")
    out += [f"  {p['file']}:{p['line']} ({p['shape']})" for p in d["defined"]]
    if d["table_rows"]:
        out.append("Table rows:")
        for t in d["table_rows"]:
            row = ", ".join(f"{k}={v}" for k, v in t["row"].items() if k != "rule")
            out.append(f"  {t['ruleset']} {t['table']}: {row}")
    out.append(f"Fixtures ({len(d['fixtures'])}):")
    out += [f"  {f['path']} (expects {f['expect']})" for f in d["fixtures"]] or ["  none"]
    verdict = {True: "yes", False: "no", None: "unknown"}[d["load_bearing"]]
    out.append(f"Load-bearing: {verdict} -- {d['why']}; to measure: {d['check']}")
    return "\n".join(out)

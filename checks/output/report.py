"""Render verdicts for people (text) and programs (JSON)."""
from __future__ import annotations

import json


def headline(v) -> str:
    """path: VERDICT under ruleset, and whether the play expected it."""
    head = f"{v.path}: {v.verdict.upper()} under {v.ruleset}"
    if v.expect:
        head += " (as expected)" if v.matches_expect() else f" (EXPECTED {v.expect.upper()}" + (
            f" citing {' '.join(v.expect_rules)})" if v.expect_rules else ")")
    return head


def text(verdicts) -> str:
    out = []
    for v in verdicts:
        out.append(headline(v))
        if v.verdict == "illegal":
            fi = v.first_illegal
            out.append(f"  first illegal action: #{fi['index']} (line {fi['line']}): {fi['action'].strip()}")
            if v.reason:
                out.append(f"  why: {v.reason}")
            out.append("  breaks:")
            for r in v.violations:
                name = f" {r['name']}" if r.get("name") else ""
                out.append(f"    {r['rule']}{name} ({'; '.join(r['sources'])}): {r['statement']}")
            out.append("  because:")
            for f in v.facts:
                out.append(f"    - {f}")
        elif v.message:
            out.append(f"  {v.message}")
        if v.not_modelled and v.verdict in ("legal", "illegal"):
            out.append("  not weighed (card text the model does not hold):")
            out += [f"    - {n}" for n in v.not_modelled]
    return "\n".join(out)


def as_json(verdicts) -> str:
    return json.dumps([v.to_dict() for v in verdicts], indent=2, ensure_ascii=False)

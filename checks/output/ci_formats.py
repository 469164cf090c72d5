"""Verdicts as CI systems read them: JUnit XML, GitHub workflow commands, SARIF 2.1.0.

All three agree on what fails: a play that states `expect` fails when its verdict does not
match it (verdict and cited rule IDs); a play without `expect` fails unless it is legal. An
error (bad input) or unknown (no verdict) always fails. A failure is a JUnit <failure> or
<error>, a GitHub `::error`, a SARIF result of level "error", and exit 1 of `check`
(`exit_status`). The rules an expected-illegal play breaks are shown as a GitHub `::notice`;
SARIF has no result for them (a passing fixture is no code-scanning alert), JUnit counts such a
play as a passing test, and `check` exits 0 for it.
"""
from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path, PurePath
from urllib.parse import quote

from ygo_timing.output import report

# Not rule IDs (those are capitals and digits): these name what is wrong besides a broken rule.
INPUT_ERROR, SOLVER_UNKNOWN, EXPECT = "input-error", "solver-unknown", "expect"
PSEUDO_RULES = {
    INPUT_ERROR: "The play could not be checked: bad input (the message says where and what was expected).",
    SOLVER_UNKNOWN: "The solver gave up within its limits; the play has no verdict (never reported as legal).",
    EXPECT: "The play's verdict differs from the one its `expect` line states.",
}
SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"


def failed(v) -> bool:
    if v.verdict in ("error", "unknown"):
        return True
    if v.expect:
        return not v.matches_expect()
    return v.verdict != "legal"


def _relative(path: str, root: Path | None) -> str | None:
    """`path` (as given: relative to the working directory, or absolute) relative to `root`, with
    forward slashes; None when there is no root, or the path is not under it, or is a name such
    as <stdin>."""
    if root is None or path.startswith("<"):
        return None
    try:
        return Path(path).resolve().relative_to(root.resolve()).as_posix()
    except (ValueError, OSError):
        return None


def shown_path(path: str, root: Path | None) -> str:
    """The path CI reports: relative to `root` when under it, else as given."""
    rel = _relative(path, root)
    return path if rel is None else rel


def exit_status(v) -> int:
    """The exit code one verdict asks of `check`: 2 bad input, 3 no verdict (solver unknown),
    1 the play fails (see `failed`), 0 it passes."""
    return 2 if v.verdict == "error" else 3 if v.verdict == "unknown" else 1 if failed(v) else 0


def run_status(statuses) -> int:
    """A run's exit code from its plays' `exit_status`: the most serious, 2 before 3 before 1."""
    found = set(statuses)
    return next((code for code in (2, 3, 1) if code in found), 0)


def message_location(v):
    """(line or None, message without its `path:line:` prefix) of an error or unknown verdict.

    Input errors are reported as `path:line: what was expected` (errors.InputError); the
    path is known, so the prefix is cut exactly and never guessed from the message's own colons.
    """
    msg = v.message or ""
    prefix = f"{v.path}:"
    if not msg.startswith(prefix):
        return None, msg
    rest = msg[len(prefix):]
    m = re.match(r"(\d+): ", rest)
    if m:
        return int(m.group(1)), rest[m.end():]
    return None, rest.lstrip()


def expect_text(v) -> str:
    want = v.expect.upper() + (f" citing {' '.join(v.expect_rules)}" if v.expect_rules else "")
    cited = sorted({r["rule"] for r in v.violations})
    got = v.verdict.upper() + (f" citing {' '.join(cited)}" if cited else "")
    return f"expected {want}; the checker says {got}"


def findings(v):
    """What a verdict reports: [(level, rule ID or pseudo rule, line or None, message)];
    level is "error" when the play fails, "notice" for the rules an expected-illegal play breaks."""
    if v.verdict in ("error", "unknown"):
        line, msg = message_location(v)
        return [("error", INPUT_ERROR if v.verdict == "error" else SOLVER_UNKNOWN, line, msg)]
    level = "error" if failed(v) else "notice"
    out = []
    if v.verdict == "illegal":
        fi = v.first_illegal
        action = f"action #{fi['index']} ({fi['action'].strip()})"
        for r in v.violations:
            out.append((level, r["rule"], fi["line"], f"{action} breaks {r['rule']} "
                        f"({'; '.join(r['sources'])}): {r['statement']}"))
    if v.expect and not v.matches_expect():
        out.append(("error", EXPECT, v.first_illegal["line"] if v.verdict == "illegal" else None, expect_text(v)))
    return out


# --- GitHub workflow commands ----------------------------------------------------------------
def _gh_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_prop(s: str) -> str:
    return _gh_data(s).replace(":", "%3A").replace(",", "%2C")


def github(verdicts, root: Path | None = None) -> str:
    """One workflow command per finding (GitHub shows them on the file and line); paths relative
    to `root`, the repository's root, which is what GitHub matches them against."""
    out = []
    for v in verdicts:
        for level, rule, line, msg in findings(v):
            props = [f"file={_gh_prop(shown_path(v.path, root))}"] + ([f"line={line}"] if line else []) + [f"title={_gh_prop(rule)}"]
            out.append(f"::{level} {','.join(props)}::{_gh_data(msg)}")
    return "\n".join(out)


# --- JUnit XML -------------------------------------------------------------------------------
_XML_BAD = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml(s: str) -> str:
    """Characters XML 1.0 cannot hold (control characters a play may quote) as \\uXXXX."""
    return _XML_BAD.sub(lambda m: f"\\u{ord(m.group()):04x}", s)


def junit(verdicts, root: Path | None = None) -> str:
    """One <testcase> per play: <failure> when it fails on its verdict, <error> for bad input or
    unknown; `name` and `file` relative to `root`."""
    verdicts = list(verdicts)
    cases, failures, errors = [], 0, 0
    for v in verdicts:
        line = v.first_illegal["line"] if v.verdict == "illegal" else message_location(v)[0]
        shown = _xml(shown_path(v.path, root))
        tc = ET.Element("testcase", {"classname": f"ygo-timing.{v.ruleset}", "name": shown, "file": shown})
        if line:
            tc.set("line", str(line))
        if failed(v):
            kind = "error" if v.verdict in ("error", "unknown") else "failure"
            errors_ = [f for f in findings(v) if f[0] == "error"]
            first = next((f for f in errors_ if f[1] == EXPECT), errors_[0])   # the mismatch says most
            el = ET.SubElement(tc, kind, {"type": first[1], "message": _xml(first[3])})
            el.text = _xml(report.text([v]))
            failures += kind == "failure"
            errors += kind == "error"
        cases.append(tc)
    counts = {"tests": str(len(verdicts)), "failures": str(failures), "errors": str(errors)}
    root = ET.Element("testsuites", dict(counts, name="ygo-timing"))
    suite = ET.SubElement(root, "testsuite", dict(counts, name="ygo-timing check", skipped="0"))
    suite.extend(cases)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode")


# --- SARIF 2.1.0 -----------------------------------------------------------------------------
def _uri(path: str) -> str:
    p = Path(path)
    if p.is_absolute():
        return p.as_uri()
    return quote(PurePath(path).as_posix())


def _version() -> str:
    from importlib import metadata  # slow to import; SARIF output alone needs it
    try:
        return metadata.version("ygo-timing")
    except metadata.PackageNotFoundError:
        return "0"


def _sarif_rule(rid: str, info: dict) -> dict:
    if rid in PSEUDO_RULES:
        return {"id": rid, "shortDescription": {"text": PSEUDO_RULES[rid]}}
    r = info.get(rid, {"statement": rid, "sources": []})
    sources = "; ".join(r["sources"])
    return {"id": rid, "shortDescription": {"text": r["statement"] or rid},
            "fullDescription": {"text": f"{r['statement']} (sources: {sources})" if sources else r["statement"] or rid},
            "properties": {"sources": list(r["sources"])}}


ROOT_BASE_ID = "SRCROOT"   # the uriBaseId of paths under --root (SARIF 2.1.0, 3.14.14)


def _artifact(path: str, root: Path | None) -> dict:
    """Under the root: a relative URI on the root's uriBaseId. Outside it: an absolute file URI
    (a relative one would be relative to nothing the reader knows)."""
    rel = _relative(path, root)
    if rel is not None:
        return {"uri": _uri(rel), "uriBaseId": ROOT_BASE_ID}
    if root is not None and not path.startswith("<"):
        return {"uri": Path(path).resolve().as_uri()}
    return {"uri": _uri(path)}


def sarif(verdicts, root: Path | None = None) -> str:
    """One run of the tool; one result per failing finding, with the rule's statement and sources
    as metadata. The rules an expected-illegal play breaks are no result: GitHub code scanning
    documents no `kind` (a `kind: pass` result could still become an alert), and the play passes."""
    info = {}
    rules, index, results = [], {}, []
    for v in verdicts:
        info.update({r["rule"]: r for r in v.violations})
        for level, rid, line, msg in findings(v):
            if level != "error":
                continue
            if rid not in index:
                index[rid] = len(rules)
                rules.append(_sarif_rule(rid, info))
            region = {"region": {"startLine": line}} if line else {}
            results.append({
                "ruleId": rid, "ruleIndex": index[rid], "level": "error",
                "message": {"text": msg},
                "locations": [{"physicalLocation": dict({"artifactLocation": _artifact(v.path, root)}, **region)}],
                "properties": dict({"verdict": v.verdict, "ruleset": v.ruleset},
                                   **({"expect": v.expect} if v.expect else {})),
            })
    run = {"tool": {"driver": {"name": "ygo-timing", "version": _version(), "rules": rules}}}
    if root is not None:   # where relative URIs start: the root's absolute file URI, ending in /
        run["originalUriBaseIds"] = {ROOT_BASE_ID: {"uri": root.resolve().as_uri().rstrip("/") + "/"}}
    run["results"] = results
    doc = {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}
    return json.dumps(doc, indent=2, ensure_ascii=False)


FORMATS = {"junit": junit, "github": github, "sarif": sarif}

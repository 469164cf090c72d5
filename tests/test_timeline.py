"""Timelines (checks/output/timeline.py) and how they are drawn: `check --trace` (text, at most
100 columns), `check --format html` and `diff --format html` (one self-contained page, every
string from an input escaped). The page's structure is checked here with the standard library's
HTML parser; tests/test_browser.py renders it in Chromium."""
import json
import os
from html.parser import HTMLParser

import pytest
from click.testing import CliRunner
from conftest import FIXTURES, ROOT
from ygo_timing.checking.check import check_play
from ygo_timing.cli.main import main
from ygo_timing.inputs.files import builtin_examples
from ygo_timing.inputs.play import load
from ygo_timing.model import rulesets, vocab
from ygo_timing.model.rulebook import rule_info
from ygo_timing.output import diff_html, html_report, timeline, trace
from ygo_timing.symbolic.options import options

EXAMPLES = FIXTURES / "examples"
STORED = ROOT / "docs" / "tcg-vs-ocg.json"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def build(path, **kw):
    play = load(str(path))
    return timeline.build(play, check_play(play), **kw)


def row(t, index):
    return next(r for r in t.rows if r.index == index)


# --- the timeline's data -----------------------------------------------------------------------

def test_columns_are_the_rule_sets_windows():
    # the TCG's seven sub-steps (S0-TCG 1-141) and the OCG's five parts (S0-OCG 143-223), as each
    # rule set's data names them, never the other's
    for name, path in (("tcg", "ex1-illegal.play"), ("ocg", "d5-4-illegal.play")):
        t = build(EXAMPLES / path, with_options=False)
        other = rulesets.load("ocg" if name == "tcg" else "tcg").damage_step
        ds = [w for w in t.windows if w in rulesets.load(name).damage_step]
        assert ds == list(rulesets.load(name).damage_step)
        assert not set(other) & set(t.windows)
        assert {"main1", "start_step", "battle_step", "attack_declared", "end_step"} <= set(t.windows)


def test_ex1_rows_chain_and_the_illegal_action():
    # EX-1 (S0-TCG 84-85): Lily is activated at damage calculation; A cannot chain Rising Energy
    t = build(EXAMPLES / "ex1-illegal.play")
    play = load(str(EXAMPLES / "ex1-illegal.play"))
    assert [r.index for r in t.rows] == list(range(1, len(play.actions) + 1))
    assert [r.line for r in t.rows] == [a.line for a in play.actions]
    assert row(t, 7).window == "t3_before_calc" and row(t, 7).window_after == "t4_at_calc"
    lily = row(t, 9).chain
    # Lily's is a Quick Effect of a monster: Spell Speed 2 (CH-4, S1 67-77); B activated it
    assert [(k.number, k.card, k.player, k.speed, k.negated) for k in lily] == [(1, "Lily", "B", 2, False)]
    bad = t.illegal
    assert bad is row(t, 10) and bad.status == "illegal" and bad.window == "t4_at_calc"
    assert bad.chain == lily    # drawn in the state before it
    # what A could have done instead: Rising Energy is refused by T4 (the rule EX-1 is about)
    # (named with the card in A's hand it would discard: refused for its timing, not its cost)
    by = {x.what: x for x in bad.options.cards}
    assert by['chain A "Rising Energy" target "Dark Magician" cost K'].allowed is False
    assert {r["rule"] for r in by['chain A "Rising Energy" target "Dark Magician" cost K'].rules} == {"DS-T1", "T4"}
    assert not t.notes


def test_options_at_each_window_opening():
    t = build(EXAMPLES / "ex1-illegal.play")
    opened = [o.window for o in t.openings]
    assert opened == ["main1", "start_step", "battle_step", "attack_declared", "t1_start", "t2_flip",
                      "t3_before_calc", "t4_at_calc"]
    at = {o.window: {x.what: x for x in o.options.cards} for o in t.openings}
    # T1 (S0-TCG 36-45): ATK/DEF changers such as "Rising Energy" may be activated at the start of
    # the Damage Step; at damage calculation it does not say "at damage calculation" (T4, EX-1)
    assert at["t1_start"]['activate A "Rising Energy" target "Dark Magician" cost K'].allowed is True
    refused = at["t4_at_calc"]['activate A "Rising Energy" target "Dark Magician" cost K']
    assert refused.allowed is False and "T4" in {r["rule"] for r in refused.rules}


@pytest.mark.parametrize("path", ["ex1-illegal.play", "d5-4-illegal.play", "ex2-legal.play"])
def test_timeline_options_agree_with_the_options_command(path):
    # the timeline asks the compiled relation; `options` asks the solver: the same answers at every
    # window's opening and before the illegal action
    play = load(str(EXAMPLES / path))
    t = timeline.build(play, check_play(play))
    points = {o.after: o.options for o in t.openings}
    if t.illegal is not None:
        points[t.illegal.index - 1] = t.illegal.options
    answer = (lambda o: {(x.what, x.allowed, frozenset(r["rule"] for r in x.rules)) for x in o.cards + o.game})
    for at in sorted(points)[-3:]:   # the last three: the solver's options take seconds each
        assert answer(points[at]) == answer(options(play, None, at=at)), at


def test_changes_lp_atk_location_face_up():
    # BD-2 (S2 63-75): the play's own claims say A takes 1000 and Amazoness is destroyed by battle
    t = build(EXAMPLES / "bd2-legal.play", with_options=False)
    calc = row(t, 7)
    texts = [c.text for c in calc.changes]
    assert "LP A: 8000 -> 7000" in texts and "Amazoness: destroyed by battle" in texts
    assert calc.lp == {"A": 7000, "B": 8000}
    # EX-3 (S0-TCG 90-91): Lily gains 3000 ATK when its effect resolves, for that damage
    # calculation only (its text), which is performed as the Chain ends, in the same step
    t = build(EXAMPLES / "ex3-illegal.play", with_options=False)
    res = row(t, 10)
    assert [(k.card, k.negated) for k in res.resolved] == [("Lily", False)] and res.chain == []
    assert "Lily ATK for damage calculation: 400 -> 3400" in [c.text for c in res.changes]
    # D5-4 (S2 89): the attack flips Ryko face-up (D2-1) and Ryko's effect destroys Nova Master
    t = build(EXAMPLES / "d5-4-illegal.play", with_options=False)
    assert "Ryko: face-down -> face-up" in [c.text for c in row(t, 5).changes]
    assert "Nova: monster zone -> graveyard" in [c.text for c in row(t, 10).changes]


def test_a_legal_play_has_no_illegal_row_and_a_broken_one_no_rows(tmp_path):
    t = build(EXAMPLES / "ex2-legal.play", with_options=False)
    assert t.illegal is None and len(t.rows) == len(load(str(EXAMPLES / "ex2-legal.play")).actions)
    bad = tmp_path / "bad.play"
    bad.write_text("ruleset: ocg\nA monster \"No Such Card\"\nenter battle phase\n", "utf-8")
    r = run("check", bad, "--format", "html")
    assert r.exit_code == 2 and "unknown card" in r.output and "Traceback" not in r.output
    r = run("check", bad, "--trace")
    assert r.exit_code == 2 and "unknown card" in r.output
    broken = tmp_path / "broken.play"
    broken.write_text('ruleset: ocg\nA monster "Dark Magician"\nattack <b>\n', "utf-8")
    r = run("check", broken, tmp_path / "bad.play", "--format", "html")
    assert r.exit_code == 2 and "Traceback" not in r.output
    page = assert_self_contained(r.output)
    assert "ERROR" in page.text_in("p1") and "broken.play:3" in page.text_in("p1")
    assert not page.tags("b")     # the bad line is shown as text


# --- the trace ---------------------------------------------------------------------------------

def test_trace_of_every_example_fits_100_columns():
    r = run("check", "--examples", "--trace")
    assert r.exit_code == 0, r.output   # every example meets its expect:
    lines = r.output.splitlines()
    assert max(len(line) for line in lines) <= trace.WIDTH == 100
    assert r.output.count("** ILLEGAL: the first illegal action **") == 7
    assert "  t4_at_calc -- sub-step 4: at damage calculation" in lines
    assert any("Chain, top first: [1] Lily (B, Spell Speed 2)" in line for line in lines)


def test_trace_wraps_long_untrusted_text(tmp_path):
    label = "L" + "x" * 300
    p = tmp_path / "long.play"
    p.write_text(f'title: {"T" * 250}\nruleset: tcg\nA monster "Dark Magician" as {label}\n'
                 f'B monster "Injection Fairy Lily"\nenter battle phase\nnext battle_step\n'
                 f'attack {label} -> "Injection Fairy Lily"\n', "utf-8")
    r = run("check", p, "--trace")
    assert r.exit_code == 0, r.output
    assert max(len(line) for line in r.output.splitlines()) <= 100
    assert label in "".join(r.output.split())    # all of it, wrapped


def test_trace_is_text_only():
    r = run("check", EXAMPLES / "ex1-illegal.play", "--trace", "--format", "json")
    assert r.exit_code == 2 and "--trace" in r.output


# --- the page's structure (no browser) ---------------------------------------------------------

class Page(HTMLParser):
    """Every element with its attributes and the element stack; text per element id."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.elements, self.stack, self.ids, self.text = [], [], {}, []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.elements.append((tag, a, tuple(self.stack)))
        if "id" in a:
            assert a["id"] not in self.ids, f"duplicate id {a['id']}"
            self.ids[a["id"]] = (tag, a)
        if tag not in ("meta", "br", "path", "circle"):
            self.stack.append((tag, a))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if self.stack and self.stack[-1][0] == tag:
            self.stack.pop()

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        self.text.append((data, tuple(self.stack)))

    def tags(self, tag, **attrs):
        return [(a, s) for t, a, s in self.elements if t == tag
                and all(k in a and v in (a[k] or "").split() for k, v in attrs.items())]

    def text_in(self, element_id):
        return "".join(d for d, s in self.text if any(a.get("id") == element_id for _, a in s))


def assert_self_contained(text):
    page = Page(text)
    assert not page.tags("script") and not page.tags("link") and not page.tags("iframe")
    assert not page.tags("img") and not page.tags("object") and not page.tags("embed")
    for tag, a, _ in page.elements:
        for k, v in a.items():
            assert not k.startswith("on"), f"event handler attribute {k} on <{tag}>"
            if k in ("href", "src", "action", "xlink:href"):
                assert v.startswith("#"), f"<{tag} {k}={v!r}>: not a link inside the page"
                assert v[1:] in page.ids, f"<{tag} {k}={v!r}>: no element has that id"
    style = "".join(d for d, s in page.text if any(t == "style" for t, _ in s))
    assert "url(" not in style and "@import" not in style
    return page


@pytest.fixture(scope="module")
def examples_page():
    r = run("check", "--examples", "--format", "html")
    assert r.exit_code == 0, r.output    # some examples are illegal, as each expects
    return r.output


def test_examples_page_is_self_contained_with_a_summary(examples_page):
    page = assert_self_contained(examples_page)
    n = len(builtin_examples())
    assert len(page.tags("section", **{"class": "play"})) == n
    summary = page.tags("table", **{"class": "summary"})
    assert len(summary) == 1
    rows = [a for a, s in page.tags("tr") if any(t == "table" and "summary" in b.get("class", "") for t, b in s)]
    assert len(rows) == n + 1     # a header and one row per play


def test_examples_page_marks_each_illegal_action_with_icon_label_and_links(examples_page):
    page = Page(examples_page)
    for k, path in enumerate(builtin_examples(), start=1):
        v = check_play(load(path))
        pid = f"p{k}"
        if v.verdict != "illegal":
            assert f"{pid}-illegal" not in page.ids
            continue
        tag, a = page.ids[f"{pid}-illegal"]
        assert tag == "tr" and "illegal" in a["class"].split()
        inside = page.text_in(f"{pid}-illegal")
        assert "ILLEGAL" in inside                                      # a text label, not colour alone
        assert v.first_illegal["action"].strip() in inside
        icons = [x for x, s in page.tags("svg") if any(b.get("id") == f"{pid}-illegal" for _, b in s)]
        assert any(x.get("aria-label") == "ILLEGAL" for x in icons)     # and an icon with a name
        for rule in v.violations:                                      # each rule links to its entry
            assert page.ids[f"rule-{rule['rule']}"][0] == "dt"
        links = [a["href"] for a, s in page.tags("a") if any(b.get("class") == "why" for _, b in s)]
        assert f"#{pid}-L{v.first_illegal['line']}" in links             # the action's line
        assert f"{pid}-L{v.first_illegal['line']}" in page.ids


def test_rule_glossary_lists_statement_and_sources(examples_page):
    page = Page(examples_page)
    info = rule_info()
    dts = [a["id"][len("rule-"):] for a, _ in page.tags("dt") if a.get("id", "").startswith("rule-")]
    assert dts
    for rid in dts:
        dd = "".join(d for d, s in page.text if any(t == "dd" for t, _ in s))
        assert info[rid]["statement"] in dd and "; ".join(info[rid]["sources"]) in dd


def test_timeline_columns_and_folded_options_in_the_page(examples_page):
    page = Page(examples_page)
    ex1 = builtin_examples().index(str(EXAMPLES / "ex1-illegal.play")) + 1
    section = f"p{ex1}"
    heads = [a["title"] for a, s in page.tags("th", **{"class": "w"}) if any(b.get("id") == section for _, b in s)]
    t = build(EXAMPLES / "ex1-illegal.play", with_options=False)
    titles = [vocab.WINDOW_TITLES[w] for w in t.windows]
    ds = [vocab.WINDOW_TITLES[w] for w in rulesets.load("tcg").damage_step]
    assert sorted(heads) == sorted(titles) and [h for h in heads if h in ds] == ds   # sub-steps in order
    details = [a for a, s in page.tags("details", **{"class": "options"})
               if any(b.get("id") == section for _, b in s)]
    assert len(details) == 8 + 1            # each window's opening, and instead of the illegal action
    assert all("open" not in a for a in details)   # folded by default


def test_every_string_from_a_play_is_escaped(tmp_path):
    evil = '<script>alert("x")</script>'
    card = {"name": evil, "type": "monster", "subtype": "normal", "level": 4, "atk": 1000, "def": 1000,
            "effects": []}
    p = tmp_path / "evil.play"
    p.write_text(f"title: <b onclick=\"alert(1)\">t</b> {evil}\nruleset: ocg\ncard: {json.dumps(card)}\n"
                 f'A monster {json.dumps(evil)} as "<img src=x onerror=alert(2)>"\n'
                 'B monster "Dark Magician"\nenter battle phase\nnext battle_step\n'
                 'attack "<img src=x onerror=alert(2)>" -> "Dark Magician"\nclaim lp B 1\n', "utf-8")
    r = run("check", p, "--format", "html")
    assert r.exit_code == 1, r.output       # the claim is wrong: illegal (GEN-4)
    page = assert_self_contained(r.output)
    assert not page.tags("b") or all("onclick" not in a for a, _ in page.tags("b"))
    text = "".join(d for d, _ in page.text)
    assert evil in text and "<img src=x onerror=alert(2)>" in text   # shown as text
    assert "&lt;script&gt;" in r.output and "<script" not in r.output


# --- the diff page -----------------------------------------------------------------------------

def test_diff_page_sets_witnesses_side_by_side_with_the_diverging_action():
    stored = json.loads(STORED.read_text("utf-8"))
    page = assert_self_contained(diff_html.report(stored))
    assert len(page.tags("section", **{"class": "difference"})) == len(stored["differences"])
    assert len(page.tags("div", **{"class": "sides"})) == len(stored["differences"])
    for k, d in enumerate(stored["differences"], start=1):
        legal, illegal = f"d{k}-{d['legal_in']}", f"d{k}-{d['illegal_in']}"
        assert page.ids[f"{illegal}-illegal"][0] == "tr" and "ILLEGAL" in page.text_in(f"{illegal}-illegal")
        tag, a = page.ids[f"{legal}-diverge"]
        assert tag == "tr" and "diverge" in a["class"].split()
        assert "DIVERGES HERE" in page.text_in(f"{legal}-diverge")
        # the action highlighted in the legal play is the one the illegal play stops at
        lt, it = diff_html.witness(d, d["legal_in"]), diff_html.witness(d, d["illegal_in"])
        assert it.verdict.verdict == "illegal" and lt.verdict.verdict == "legal"
        at = diff_html.diverging(lt, it)
        assert row(lt, at).text == it.illegal.text, k
        assert it.illegal.text in page.text_in(f"{legal}-diverge")


def test_diff_cli_html():
    r = run("diff", "tcg", "ocg", "--max-length", "1", "--format", "html", "--timeout", "120")
    assert r.exit_code in (0, 1), r.output
    assert_self_contained(r.output)
    assert r.output.startswith("<!DOCTYPE html>")


def test_the_guide_shows_the_picture():
    guide = (ROOT / "docs" / "guide.md").read_text("utf-8")
    assert "](timeline.png)" in guide
    png = ROOT / "docs" / "timeline.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size <= 200_000


def test_an_undecided_verdict_is_never_drawn_illegal():
    # the solver's verdict has the last word: if it could not decide, the row says so
    from ygo_timing.checking.verdict import Verdict
    play = load(str(EXAMPLES / "ex1-illegal.play"))
    v = Verdict(play.path, "tcg", "unknown", message=f"{play.path}:25: the solver answered unknown")
    t = timeline.build(play, v, with_options=False)
    assert t.illegal.index == 10 and t.illegal.status == "unknown"
    page = html_report.report([t])
    assert "ILLEGAL" not in page and "UNKNOWN" in page and "the solver answered unknown" in page
    assert "ILLEGAL" not in trace.trace(t) and "UNDECIDED" in trace.trace(t)


def test_a_fifo_as_a_play_is_refused_not_waited_on_in_either_timeline(tmp_path):
    """The play parser refuses a FIFO (issue 18); the timeline reads the play's text again for the
    page, and must refuse it too instead of blocking on it."""
    import subprocess
    import sys
    fifo = tmp_path / "x.play"
    os.mkfifo(fifo)
    for extra in (["--format", "html"], ["--trace"]):
        r = subprocess.run([sys.executable, "-m", "ygo_timing", "check", *extra, str(fifo)],
                           capture_output=True, text=True, timeout=120)
        said = " ".join((r.stdout + r.stderr).split())   # the message wraps where the path's length puts it
        assert r.returncode == 2 and "a FIFO, not a regular file" in said, r
        assert "Traceback" not in said


def test_a_bug_while_drawing_is_a_note_on_that_play_not_a_traceback(monkeypatch):
    def broken(*_args, **_kw):
        raise ZeroDivisionError("drawing")
    monkeypatch.setattr(timeline, "build", broken)
    r = run("check", "--trace", FIXTURES / "examples" / "ex1-legal.play")
    assert r.exit_code == 0, r.output   # the play is legal, as it expects; only its drawing failed
    said = " ".join(r.output.split())   # the trace wraps at 100 columns
    assert "internal error, please report: ZeroDivisionError: drawing" in said
    assert "the verdict stands" in said and "Traceback" not in said

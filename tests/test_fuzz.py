"""Fuzzing: the parsers on random text, bytes and JSON, the checker on random well-formed
plays. Whatever comes in, the answer is a play or an input error with a location -- for the
checker a verdict -- and never another exception. Profiles: tests/conftest.py."""
import json
import re
import tempfile
from pathlib import Path

from click.testing import CliRunner
from conftest import CHECKER_EXAMPLES
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st
from ygo_timing.cards import catalogue
from ygo_timing.checking.check import check_play
from ygo_timing.cli.main import main
from ygo_timing.inputs import jsonloc
from ygo_timing.inputs import play as P
from ygo_timing.inputs.play import model as PM  # the vocabulary of the play forms
from ygo_timing.model import vocab

PATH = "fuzz.play"


def parsed_or_located(parse, text, error=P.PlayError):
    """parse(text): its result, or None after checking that the error it raised is located."""
    try:
        result = parse(text)
    except error as e:
        event("input error")
        assert_located(e, n_lines(text))
        return None
    event("parsed")
    return result


def assert_located(e, text_lines=None):
    """An input error names the file and, when it has one, a line inside the input."""
    assert str(e).startswith(e.path)
    if e.line is not None:
        assert e.line >= 1
        if text_lines is not None:
            assert e.line <= text_lines + 1
        assert str(e).startswith(f"{e.path}:{e.line}: ")
    assert e.message and "\n" not in e.message
    assert len(e.message) < 1000


def n_lines(text):
    return len(re.split(r"\r\n|\r|\n", text))


# -- the text form ---------------------------------------------------------------------------

@given(st.text())
def test_text_parser_on_random_text(text):
    try:
        P.parse_text(text, PATH)
    except P.PlayError as e:
        assert_located(e, n_lines(text))


WORDS = (list(PM.VERBS) + list(PM.ZONE_WORDS) + list(PM.SETUP_OPTIONS) + list(vocab.WINDOWS)
         + list(PM.CLAIM_WORDS) + list(PM.CALC_VALUES) + list(PM.SETUP_ZONES)
         + ["A", "B", "->", "battle", "phase", "bp", "direct", "effect", "target", "link", "with",
            "#", '"', '"Dark Magician"', '"Kuriboh"', '"X\\"Y"', "DM", "K", "0", "1", "-1", "8000",
            "99999999999", "ruleset:", "turn:", "lp:", "expect:", "rules:", "card:", "title:",
            "ocg", "tcg", "legal", "illegal", "T4", "CH-5", "{", "}", "\t", "\r"])


@st.composite
def word_lines(draw):
    """Text built from the format's own words: deep into the grammar, not stopped at the first token."""
    lines = draw(st.lists(st.lists(st.sampled_from(WORDS), max_size=8), max_size=12))
    return "\n".join(" ".join(ws) for ws in lines)


@given(word_lines())
def test_text_parser_on_its_own_vocabulary(text):
    play = parsed_or_located(lambda t: P.parse_text(t, PATH), text)
    if play is None:
        return
    # what parses comes back from its own rendering
    again = P.parse_text(P.to_text(play), PATH)
    assert [a.kind for a in again.actions] == [a.kind for a in play.actions]


@st.composite
def mutated_plays(draw):
    """A well-formed play (below) with a few random edits: a character dropped, a word of the
    format inserted, a line repeated or two lines swapped."""
    text, _ = draw(plays())
    for _ in range(draw(st.integers(1, 3))):
        lines = text.split("\n")
        i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
        how = draw(st.sampled_from(["drop", "insert", "repeat", "swap"]))
        if how == "drop" and lines[i]:
            k = draw(st.integers(0, len(lines[i]) - 1))
            lines[i] = lines[i][:k] + lines[i][k + 1:]
        elif how == "insert":
            k = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:k] + " " + draw(st.sampled_from(WORDS)) + " " + lines[i][k:]
        elif how == "repeat":
            lines.insert(j, lines[i])
        else:
            lines[i], lines[j] = lines[j], lines[i]
        text = "\n".join(lines)
    return text


@given(mutated_plays())
def test_text_parser_on_mutated_plays(text):
    parsed_or_located(lambda t: P.parse_text(t, PATH), text)


@settings(max_examples=CHECKER_EXAMPLES * 5)   # the plays that parse are checked by the solver
@given(st.binary() | word_lines().map(str.encode) | mutated_plays().map(str.encode),
       st.sampled_from([".play", ".json"]))
def test_cli_on_random_files(data, suffix):
    """The whole command on a file of anything: an exit code of the four, never a traceback."""
    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / f"fuzz{suffix}"
        f.write_bytes(data)
        r = CliRunner().invoke(main, ["check", "--format", "json", str(f)])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert r.exit_code in (0, 1, 2, 3) and "Traceback" not in r.output
    [out] = json.loads(r.output)
    event(out["verdict"])
    if out["verdict"] == "error":
        assert out["message"].startswith(str(f)) and "internal error" not in out["message"]


# -- the JSON form and strict JSON -----------------------------------------------------------

@given(st.binary())
def test_json_parser_on_random_bytes(data):
    try:
        P.parse_json(data, "fuzz.json")
    except P.PlayError as e:
        assert_located(e, data.count(b"\n") + 1)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda kids: st.lists(kids, max_size=5) | st.dictionaries(st.text(max_size=10), kids, max_size=5),
    max_leaves=30)


@given(JSON)
def test_json_parser_on_random_json(value):
    text = json.dumps(value, indent=1)
    try:
        P.parse_json(text, "fuzz.json")
    except P.PlayError as e:
        assert_located(e, n_lines(text))


KEYS = st.sampled_from(["$schema", "title", "ruleset", "turn", "turn_player", "lp", "expect", "rules",
                        "source", "cards", "setup", "actions", "do", "player", "card", "zone", "window",
                        "value", "claim", "target", "direct", "label", "face_up", "verdict"])
NEAR = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 10**10) | st.sampled_from(
        ["A", "B", "ocg", "tcg", "legal", "illegal", "enter_bp", "pass", "next", "attack", "activate",
         "claim", "lp", "monster_zone", "hand", "Dark Magician", "Kuriboh", "battle_step", "T4"]),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(KEYS, kids, max_size=6),
    max_leaves=40)


SCALAR = st.none() | st.booleans() | st.integers(-2, 10**10) | st.sampled_from(
    ["A", "B", "C", "DM", "K", "Dark Magician", "Kuriboh", "", "battle_step", "t4_at_calc", "damage_step",
     "monster_zone", "pocket", "lp", "atk", "window", "calc", "done", "location", "face_up"])
ACTION = st.fixed_dictionaries(
    {"do": st.sampled_from(P.ACTION_KINDS + ("fly",))},
    optional={k: SCALAR for k in ("player", "card", "window", "value", "claim", "target", "direct",
                                  "effect", "link", "other", "zone")})
SETUP_CARD = st.fixed_dictionaries(
    {"player": st.sampled_from(["A", "B", "C"]), "zone": st.sampled_from(PM.SETUP_ZONES + ("pocket",)),
     "card": st.sampled_from(["Dark Magician", "Kuriboh", "Honest", "", "No Such Card"])},
    optional={"label": st.sampled_from(["DM", "K", "", "as"]), "face_up": SCALAR, "defense": SCALAR,
              "atk": SCALAR, "def": SCALAR, "equip": st.lists(SCALAR, max_size=2),
              "equipped_to": SCALAR})
NEAR_PLAY = st.fixed_dictionaries(
    {"actions": st.lists(ACTION | NEAR, max_size=6)},
    optional={"ruleset": SCALAR, "turn": SCALAR, "turn_player": SCALAR, "lp": st.dictionaries(
        st.sampled_from("ABC"), SCALAR, max_size=3), "setup": st.lists(SETUP_CARD | NEAR, max_size=4),
        "expect": NEAR, "rules": NEAR, "colour": NEAR})


@given(st.dictionaries(KEYS, NEAR, max_size=8) | NEAR_PLAY)
def test_json_parser_on_near_plays(value):
    """Objects with the play's own keys and values: the checks past the syntax."""
    text = json.dumps(value, indent=1)
    parsed_or_located(lambda t: P.parse_json(t, "fuzz.json"), text)


@given(st.text())
def test_strict_json_agrees_with_the_json_module(text):
    # jsonloc may refuse more (duplicate keys, NaN, lone surrogates, depth) but never reads differently
    try:
        doc = jsonloc.loads(text, "fuzz.json")
    except jsonloc.JsonError as e:
        assert_located(e, n_lines(text))
        return
    assert doc.value == json.loads(text)


@given(JSON)
def test_strict_json_reads_what_json_writes(value):
    text = json.dumps(value, indent=2)
    assume(text.count("[") + text.count("{") < jsonloc.MAX_DEPTH)
    assert jsonloc.loads(text, "fuzz.json").value == json.loads(text)


CAT_SCALAR = SCALAR | st.sampled_from(
    ["monster", "spell", "trap", "effect", "normal", "quick", "trigger", "activation", "during_calc",
     "before_calc", "hand", "graveyard", "atk_add", "self", "attacker"]) | st.integers(-10**7, 10**7)
EFFECT = st.dictionaries(st.sampled_from(sorted(catalogue.EFFECT_KEYS)), CAT_SCALAR | st.lists(
    CAT_SCALAR, max_size=3) | st.dictionaries(st.sampled_from(["do", "amount", "target", "x"]), CAT_SCALAR),
    max_size=6)
CARD = st.fixed_dictionaries(
    {"name": st.sampled_from(["X", "Y", "", 5])},
    optional={"type": CAT_SCALAR, "subtype": CAT_SCALAR, "atk": CAT_SCALAR, "level": CAT_SCALAR,
              "effects": st.lists(EFFECT | CAT_SCALAR, max_size=3), "calc_modifier": st.dictionaries(
                  st.sampled_from(["amount", "applies_to", "when", "x"]), CAT_SCALAR, max_size=3),
              "must_attack": CAT_SCALAR, "battle_damage_modifier": CAT_SCALAR, "colour": CAT_SCALAR})


@given(st.dictionaries(st.sampled_from(["cards", "card"]), st.lists(CARD | NEAR, max_size=3)))
def test_catalogue_parser_on_near_catalogues(value):
    text = json.dumps(value, indent=1)
    parsed_or_located(lambda t: catalogue.parse_document(t, "fuzz.cards.json"), text, catalogue.CatalogueError)


# -- the checker on well-formed plays --------------------------------------------------------

CARDS = sorted(catalogue.builtin().values(), key=lambda c: c.name)


@st.composite
def plays(draw):
    """A well-formed play in the text form: cards from the catalogue, actions from the vocabulary,
    every reference to a card a label of the set-up."""
    ruleset = draw(st.sampled_from(PM.RULESETS))
    picked = draw(st.lists(st.sampled_from(CARDS), min_size=1, max_size=4))
    lines = [f"ruleset: {ruleset}", f"turn-player: {draw(st.sampled_from('AB'))}"]
    labels = []
    for k, card in enumerate(picked):
        label = f"C{k}"
        if card.type == "monster":
            zone = draw(st.sampled_from(["monster", "monster", "hand"]))
        else:
            zone = draw(st.sampled_from(["set", "hand"]))
        lines.append(f"{draw(st.sampled_from('AB'))} {zone} {json.dumps(card.name)} as {label}")
        labels.append((label, card))
    windows = vocab.OCG_DAMAGE_STEP if ruleset == "ocg" else vocab.TCG_DAMAGE_STEP
    windows = ("start_step", "battle_step", "attack_declared") + windows + ("end_step", "main2")
    lab = st.sampled_from([lbl for lbl, _ in labels])
    player = st.sampled_from("AB")

    def activate():
        label, card = draw(st.sampled_from(labels))
        verb = draw(st.sampled_from(["activate", "chain"]))
        s = f"{verb} {draw(player)} {label}"
        if len(card.effects) > 1:
            s += f" effect {draw(st.integers(1, len(card.effects)))}"
        if draw(st.booleans()):
            s += f" target {draw(lab)}"
        return s

    action = st.one_of(
        st.sampled_from(["enter battle phase", "skip battle phase", "end battle phase", "stop attack",
                         "next", "resolve", "retarget direct", "claim calc done"]),
        st.builds(lambda w: f"next {w}", st.sampled_from(windows)),
        st.builds(lambda a, b: f"attack {a} -> {b}", lab, lab),
        st.builds(lambda a: f"attack {a} direct", lab),
        st.builds(lambda p: f"pass {p}", player),
        st.builds(lambda a: f"resolve {a}", lab),
        st.builds(lambda a: f"retarget {a}", lab),
        st.builds(lambda a, b: f"replace {a} with {b}", lab, lab),
        st.builds(lambda p, n: f"claim lp {p} {n}", player, st.integers(0, 16000)),
        st.builds(lambda a, n: f"claim atk {a} {n}", lab, st.integers(0, 5000)),
        st.builds(lambda a: f"claim destroyed {a}", lab),
        st.builds(lambda a, z: f"claim location {a} {z}", lab, st.sampled_from(PM.SETUP_ZONES)),
        st.builds(lambda w: f"claim window {w}", st.sampled_from(windows)),
        st.builds(lambda _: activate(), st.none()),
    )
    opener = ["enter battle phase", "next battle_step"] if draw(st.booleans()) else []
    acts = opener + draw(st.lists(action, min_size=1, max_size=8))
    return "\n".join(lines + [""] + acts) + "\n", len(lines) + 1


@settings(max_examples=CHECKER_EXAMPLES)
@given(plays())
def test_checker_on_random_plays(generated):
    text, first_action_line = generated
    play = P.parse_text(text, PATH)   # well-formed by construction
    v = check_play(play)
    event(v.verdict)   # --hypothesis-show-statistics: how the examples spread over the verdicts
    assert v.verdict in ("legal", "illegal", "error", "unknown")
    if v.verdict == "error":
        # a play the model cannot take (a missing effect, a Chain too long): an input error with its line
        assert re.match(rf"{re.escape(PATH)}:\d+: ", v.message), v.message
        assert "internal error" not in v.message, text
    if v.verdict == "illegal":
        assert v.violations, "an illegal verdict names the rules it breaks"
        assert v.first_illegal["line"] >= first_action_line
    if v.verdict == "unknown":
        assert "unknown" in v.message

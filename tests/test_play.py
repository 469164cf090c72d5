"""Play files: both parsers, the writers, and their errors."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from ygo_timing.inputs import jsonloc
from ygo_timing.inputs import play as P
from ygo_timing.inputs.play import model as PM
from ygo_timing.model import vocab

DOCS = Path(__file__).resolve().parent.parent / "docs"

EX1_TEXT = '''\
# EX-1: "Injection Fairy Lily" and "Rising Energy"
title: EX-1 Rising Energy cannot answer Lily at damage calculation
source: S0-TCG 84-85 (example 1), T4 (S0-TCG 70-78)
ruleset: tcg
turn: 2
turn-player: A
expect: illegal T4
rules: EX-1 T4

A monster "Dark Magician"
A set "Rising Energy"
A hand "Blue-Eyes White Dragon" as K               # discarded for Rising Energy's cost
B monster "Injection Fairy Lily" as Lily

enter battle phase
next battle_step
attack "Dark Magician" -> Lily
next t1_start
next t2_flip
next t3_before_calc
next t4_at_calc
pass A                                           # the turn player has priority first (PR-1)
activate B Lily
chain A "Rising Energy" target "Dark Magician" cost K   # illegal: Rising Energy does not say "at damage calculation"
'''

EX1_JSON = '''\
{
  "title": "EX-1 Rising Energy cannot answer Lily at damage calculation",
  "source": "S0-TCG 84-85 (example 1), T4 (S0-TCG 70-78)",
  "ruleset": "tcg",
  "turn": 2,
  "turn_player": "A",
  "expect": {"verdict": "illegal", "rules": ["T4"]},
  "rules": ["EX-1", "T4"],
  "setup": [
    {"player": "A", "zone": "monster_zone", "card": "Dark Magician"},
    {"player": "A", "zone": "spell_trap_zone", "card": "Rising Energy", "face_up": false},
    {"player": "A", "zone": "hand", "card": "Blue-Eyes White Dragon", "label": "K"},
    {"player": "B", "zone": "monster_zone", "card": "Injection Fairy Lily", "label": "Lily"}
  ],
  "actions": [
    {"do": "enter_bp"},
    {"do": "next", "window": "battle_step"},
    {"do": "attack", "card": "Dark Magician", "target": "Lily"},
    {"do": "next", "window": "t1_start"},
    {"do": "next", "window": "t2_flip"},
    {"do": "next", "window": "t3_before_calc"},
    {"do": "next", "window": "t4_at_calc"},
    {"do": "pass", "player": "A"},
    {"do": "activate", "player": "B", "card": "Lily"},
    {"do": "activate", "player": "A", "card": "Rising Energy", "target": "Dark Magician", "cost": "K", "link": -1}
  ]
}
'''

# Every action, option and header at least once.
FULL_TEXT = '''\
title: "Everything # at once"
source: made up
ruleset: ocg
turn: 3
turn-player: b
lp: B 4000, A 7000
expect: legal
rules: CH-5, DS-T1 T4-H
card: {"name": "Test Wall", "type": "monster", "atk": 0, "def": 3000}

B monster "Big Shield Gardna" as Gardna defense def 2600
B monster "Test Wall" face-down defense
A monster "Kuriboh" as K1 atk 300
A monster "Kuriboh" as "Second Kuriboh" special-summoned
A monster "Harpie Lady" attack
A spell "Cyber Shield" equipped-to "Harpie Lady"
A field "Yami"
A hand "Kuriboh" as K3
A graveyard "Sangan"
A banished "Sangan" as S2 face-down
A deck "Mirror Force"
A extra "Thousand-Eyes Restrict"
B set "Mirror Force" as MF
A hand "Honest"

ENTER BP
next
next battle_step
attack K1 -> Gardna
activate B MF effect 2 target K1 link 1
chain A Honest
pass B
pass A
resolve Honest
resolve
claim window battle_step
retarget direct
retarget "Test Wall"
stop attack
replace "Second Kuriboh" with K3
claim lp B 3700
claim atk K1 300
claim destroyed Gardna
claim not-destroyed "Harpie Lady"
claim location S2 banished
claim face-up "Test Wall"
claim face-down MF
claim calc skipped
attack "Harpie Lady" direct
end battle phase
skip bp
'''


# ---------------------------------------------------------------------------
# Good plays
# ---------------------------------------------------------------------------


def test_text_ex1():
    p = P.parse_text(EX1_TEXT, "ex1.play")
    assert (p.title, p.ruleset, p.turn, p.turn_player) == (
        "EX-1 Rising Energy cannot answer Lily at damage calculation", "tcg", 2, "A")
    assert p.source == "S0-TCG 84-85 (example 1), T4 (S0-TCG 70-78)"
    assert p.lp == {"A": 8000, "B": 8000}
    assert (p.expect, p.expect_rules, p.rules) == ("illegal", ["T4"], ["EX-1", "T4"])
    assert p.line_of == {"title": 2, "source": 3, "ruleset": 4, "turn": 5, "turn_player": 6,
                         "expect": 7, "rules": 8}
    assert p.cards == [
        P.CardSpec("Dark Magician", "Dark Magician", "A", "monster_zone", True, False, None, None, 10),
        P.CardSpec("Rising Energy", "Rising Energy", "A", "spell_trap_zone", False, False, None, None, 11),
        P.CardSpec("K", "Blue-Eyes White Dragon", "A", "hand", False, False, None, None, 12),
        P.CardSpec("Lily", "Injection Fairy Lily", "B", "monster_zone", True, False, None, None, 13),
    ]
    assert [(a.kind, a.line) for a in p.actions] == [
        ("enter_bp", 15), ("next", 16), ("attack", 17), ("next", 18), ("next", 19),
        ("next", 20), ("next", 21), ("pass", 22), ("activate", 23), ("activate", 24)]
    assert p.actions[1].window == "battle_step"
    atk = p.actions[2]
    assert (atk.card, atk.target, atk.direct) == ("Dark Magician", "Lily", False)
    assert atk.text == 'attack "Dark Magician" -> Lily'
    lily = p.actions[8]
    assert (lily.player, lily.card, lily.effect, lily.target, lily.link) == ("B", "Lily", 1, None, 0)
    re_ = p.actions[9]
    assert (re_.player, re_.card, re_.target, re_.other, re_.link) == ("A", "Rising Energy", "Dark Magician", "K", -1)
    assert re_.text == 'chain A "Rising Energy" target "Dark Magician" cost K'


def test_json_ex1():
    p = P.parse_json(EX1_JSON.encode(), "ex1.json")
    assert p.expect == "illegal" and p.expect_rules == ["T4"]
    assert [c.line for c in p.cards] == [10, 11, 12, 13]
    assert [a.line for a in p.actions] == list(range(16, 26))
    assert p.actions[9].text == 'chain A "Rising Energy" target "Dark Magician" cost K'
    assert p.line_of["expect"] == 7
    assert p.cards[1].face_up is False


def test_text_json_equivalence():
    t = P.parse_text(EX1_TEXT, "ex1.play")
    j = P.parse_json(EX1_JSON, "ex1.json")
    assert P.to_json(t) == P.to_json(j)
    # same actions, field by field, apart from where they came from
    for a, b in zip(t.actions, j.actions):
        a.line = b.line = 0
        a.text = b.text = ""
        assert a == b
    for a, b in zip(t.cards, j.cards):
        a.line = b.line = 0
        assert a == b


@pytest.mark.parametrize("source", [EX1_TEXT, FULL_TEXT])
def test_round_trips(source):
    p = P.parse_text(source, "a.play")
    j = P.to_json(p)
    text2 = P.to_text(p)
    p2 = P.parse_text(text2, "b.play")
    assert P.to_json(p2) == j
    p3 = P.parse_json(json.dumps(j, indent=2), "c.json")
    assert P.to_json(p3) == j
    assert P.to_text(p3) == text2
    # JSON action text is the text-form rendering
    assert [a.text for a in p3.actions] == [a.text for a in p2.actions]


def test_full_text_details():
    p = P.parse_text(FULL_TEXT, "full.play")
    assert p.title == "Everything # at once"
    assert (p.ruleset, p.turn, p.turn_player, p.lp) == ("ocg", 3, "B", {"A": 7000, "B": 4000})
    assert p.expect == "legal" and p.rules == ["CH-5", "DS-T1", "T4-H"]
    assert p.custom_cards == [{"name": "Test Wall", "type": "monster", "atk": 0, "def": 3000}]
    assert p.line_of[("custom_cards", 0)] == 9
    assert p.line_of[("custom_cards", 0, "def")] == 9
    by = {c.label: c for c in p.cards}
    assert by["Gardna"].defense and by["Gardna"].def_ == 2600 and by["Gardna"].face_up
    tw = by["Test Wall"]
    assert (tw.zone, tw.face_up, tw.defense) == ("monster_zone", False, True)
    assert by["K1"].atk == 300 and by["Second Kuriboh"].name == "Kuriboh"
    assert by["Cyber Shield"].equipped_to == "Harpie Lady" and by["Harpie Lady"].equipped_to is None
    assert by["Cyber Shield"].zone == "spell_trap_zone" and by["Cyber Shield"].face_up
    assert by["Yami"].zone == "field_zone"
    assert (by["K3"].zone, by["K3"].face_up) == ("hand", False)
    assert (by["Sangan"].zone, by["Sangan"].face_up) == ("graveyard", True)
    assert (by["S2"].zone, by["S2"].face_up) == ("banished", False)
    assert by["Mirror Force"].zone == "deck" and by["Thousand-Eyes Restrict"].zone == "extra_deck"
    assert (by["MF"].zone, by["MF"].face_up) == ("spell_trap_zone", False)

    kinds = [a.kind for a in p.actions]
    assert kinds == ["enter_bp", "next", "next", "attack", "activate", "activate", "pass", "pass",
                     "resolve", "resolve", "claim", "retarget", "retarget", "stop_attack", "replace",
                     "claim", "claim", "claim", "claim", "claim", "claim", "claim", "claim", "attack",
                     "end_bp", "skip_bp"]
    a = p.actions
    assert a[1].window is None
    assert (a[4].player, a[4].card, a[4].effect, a[4].target, a[4].link) == ("B", "MF", 2, "K1", 1)
    assert (a[5].card, a[5].link) == ("Honest", -1)
    assert a[6].player == "B"
    assert a[8].card == "Honest" and a[9].card is None
    assert (a[10].claim, a[10].window) == ("window", "battle_step")
    assert a[11].direct and a[11].target is None
    assert a[12].target == "Test Wall" and not a[12].direct
    assert (a[14].card, a[14].other) == ("Second Kuriboh", "K3")
    claims = [(x.claim, x.player, x.card, x.value) for x in a[15:23]]
    assert claims == [
        ("lp", "B", None, 3700), ("atk", None, "K1", 300),
        ("destroyed_by_battle", None, "Gardna", True),
        ("destroyed_by_battle", None, "Harpie Lady", False),
        ("location", None, "S2", "banished"), ("face_up", None, "Test Wall", True),
        ("face_up", None, "MF", False), ("calc", None, None, "skipped")]
    assert a[23].direct and a[23].card == "Harpie Lady"


def test_keywords_case_insensitive_and_bp_forms():
    p = P.parse_text('A MONSTER "X" DEFENSE\nEnter Battle Phase\nNEXT Battle_Step\nEnd BP\n', "c.play")
    assert p.cards[0].defense
    assert [a.kind for a in p.actions] == ["enter_bp", "next", "end_bp"]
    assert p.actions[1].window == "battle_step"


def test_duplicate_names_get_numbered_labels():
    p = P.parse_text('A hand "Kuriboh"\nA hand "Kuriboh"\nenter bp\nclaim location "Kuriboh#2" hand\n',
                     "d.play")
    assert [c.label for c in p.cards] == ["Kuriboh#1", "Kuriboh#2"]
    assert p.actions[1].card == "Kuriboh#2"
    assert P.to_json(P.parse_text(P.to_text(p), "e.play")) == P.to_json(p)


def test_reference_by_name_when_labeled():
    p = P.parse_text('A monster "Dark Magician" as DM\nenter bp\nclaim atk "Dark Magician" 2500\n', "f.play")
    assert p.actions[1].card == "DM"


def test_json_defaults_and_text_of_actions():
    p = P.parse_json('{"setup": [{"player": "B", "zone": "graveyard", "card": "X"}],'
                     ' "actions": [{"do": "claim", "claim": "window", "window": "main2"},'
                     ' {"do": "claim", "claim": "destroyed_by_battle", "card": "X", "value": true}]}',
                     "g.json")
    assert p.cards[0].face_up and not p.cards[0].defense
    assert (p.turn, p.turn_player, p.lp, p.expect) == (2, "A", {"A": 8000, "B": 8000}, None)
    assert [a.text for a in p.actions] == ["claim window main2", "claim destroyed X"]


def test_load_dispatches_on_extension(tmp_path):
    t = tmp_path / "ex1.play"
    t.write_text(EX1_TEXT, encoding="utf-8")
    j = tmp_path / "ex1.json"
    j.write_text(EX1_JSON, encoding="utf-8")
    assert P.to_json(P.load(str(t))) == P.to_json(P.load(str(j)))
    assert P.load(str(t)).path == str(t)


# ---------------------------------------------------------------------------
# Errors: text form
# ---------------------------------------------------------------------------

SETUP = 'A monster "Dark Magician" as DM\nB monster "Injection Fairy Lily" as Lily\n'


def err_text(source: str) -> P.PlayError:
    with pytest.raises(P.PlayError) as e:
        P.parse_text(source, "bad.play")
    return e.value


@pytest.mark.parametrize("source, line, message", [
    # unknown keyword
    ("title: x\nexpext: legal\n", 2,
     "unknown keyword 'expext'; expected one of: title, ruleset, turn, turn-player, lp, expect, "
     "rules, source, card"),
    # unknown action
    (SETUP + "enter bp\ndeclare DM -> Lily\n", 4,
     "unknown action 'declare'; expected one of: enter, skip, attack, activate, chain, pass, "
     "resolve, next, end, retarget, stop, replace, claim, A or B (a set-up line), "
     "key: value (a header)"),
    # unknown window name
    ("enter bp\nnext damage_step\n", 2,
     "unknown window 'damage_step'; expected one of: " + ", ".join(vocab.WINDOWS)),
    ("enter bp\nclaim window t8\n", 2,
     "unknown window 't8'; expected one of: " + ", ".join(vocab.WINDOWS)),
    # unknown zone
    ('A grave "Sangan"\nenter bp\n', 1,
     "unknown zone 'grave'; expected one of: monster, set, spell, field, hand, graveyard, "
     "banished, deck, extra"),
    (SETUP + "enter bp\nclaim location DM gy\n", 4,
     "unknown zone 'gy'; expected one of: hand, monster_zone, spell_trap_zone, field_zone, "
     "graveyard, banished, deck, extra_deck"),
    # bad number
    ('A monster "X" atk 2.5k\nenter bp\n', 1,
     "bad number '2.5k' for 'atk'; expected a whole number 0 or more"),
    ("turn: 0\nenter bp\n", 1, "bad number '0' for turn; expected a whole number 1 or more"),
    ("lp: A lots\nenter bp\n", 1, "bad number 'lots' for A's LP; expected a whole number 0 or more"),
    (SETUP + "enter bp\nclaim lp B -100\n", 4, "bad number '-100' for LP; expected a whole number 0 or more"),
    (SETUP + "enter bp\nactivate B Lily effect 0\n", 4,
     "bad number '0' for effect; expected a whole number 1 or more"),
    ('A monster "X" atk 1000000001\nenter bp\n', 1,
     "number 1000000001 for 'atk' is too large; expected at most 1000000000"),
    # unlabeled duplicate card reference
    ('A monster "Kuriboh"\nA hand "Kuriboh"\nenter bp\nattack "Kuriboh" direct\n', 4,
     'card name "Kuriboh" is ambiguous: 2 cards have that name (lines 1, 2); expected a label '
     "-- give each an `as <label>` and use it"),
    # unknown card label in an action
    (SETUP + "enter bp\nattack DM -> Lilly\n", 4,
     'unknown card "Lilly"; expected a label or card name from the set-up: DM, Lily'),
    (SETUP + 'enter bp\nreplace DM with "Kuriboh"\n', 4,
     'unknown card "Kuriboh"; expected a label or card name from the set-up: DM, Lily'),
    ("enter bp\nresolve X\n", 2, 'unknown card "X": the set-up has no cards'),
    # other shapes
    ("rules: T4\nrules: CH-5\nenter bp\n", 2,
     "duplicate header 'rules' (first on line 1); expected each header at most once"),
    ("enter bp\nturn: 3\n", 2,
     "header 'turn' after the first action (line 1); expected header lines before the actions"),
    ('enter bp\nA hand "X"\n', 2,
     "set-up line after the first action (line 1); expected set-up lines before the actions"),
    ("ruleset: rush\nenter bp\n", 1, "unknown ruleset 'rush'; expected one of: ocg, tcg"),
    ("expect: illegal t4\nenter bp\n", 1,
     "bad rule ID 't4'; expected an ID like T4, CH-5 or DS-T1 (capital letters and digits, parts "
     "joined by '-', at least one digit)"),
    ("expect: legal T4\nenter bp\n", 1,
     "unexpected 'T4' after `expect: legal`; rule IDs go only with `illegal`"),
    ("expect: maybe\nenter bp\n", 1,
     "expected `legal` or `illegal [RULE-ID ...]` after 'expect:', got 'maybe'"),
    ("turn-player: C\nenter bp\n", 1, "expected a player (A or B), got 'C'"),
    ('A monster "X" as DM\nA monster "Y" as DM\nenter bp\n', 2,
     'label "DM" is already used on line 1; expected a label unique in the play'),
    ('A monster "X" as direct\nenter bp\n', 1,
     "label 'direct' is a keyword; expected a quoted label: as \"direct\""),
    ('A monster "X" face-down\nenter bp\n', 1,
     "a face-down monster must be in Defense Position; expected `defense` (JSON: \"defense\": true)"),
    ('A set "X" defense\nenter bp\n', 1,
     "battle position (attack/defense) applies only to a card in the monster zone, not spell_trap_zone"),
    ('A monster "X" attack defense\nenter bp\n', 1,
     "'defense' conflicts with an earlier option on this line; expected each option at most once"),
    ('A monster "X" shiny\nenter bp\n', 1,
     "unexpected 'shiny' in set-up line; expected one of: as, attack, defense, face-up, face-down, "
     "atk, def, equipped-to, special-summoned, counters, summoned-this-turn, flip-summoned-this-turn, used"),
    ('A monster "X" special-sumoned\nenter bp\n', 1,
     "unexpected 'special-sumoned' in set-up line (did you mean 'special-summoned'?); expected one of: as, attack, "
     "defense, face-up, face-down, atk, def, equipped-to, special-summoned, counters, summoned-this-turn, flip-summoned-this-turn, used"),
    ('A hand "X" special-summoned\nenter bp\n', 1,
     "special-summoned says how a monster on the field came there; this card is in hand, not the monster zone "
     "(a card that leaves the field is a new card)"),
    ('A monster "X" special-summoned special-summoned\nenter bp\n', 1,
     "'special-summoned' conflicts with an earlier option on this line; expected each option at most once"),
    ('A graveyard "X" summoned-this-turn\nenter bp\n', 1,
     "summoned-this-turn says how a monster on the field came there; this card is in graveyard, not the monster "
     "zone (a card that leaves the field is a new card)"),
    ('A monster "X" summoned-this-turn flip-summoned-this-turn\nenter bp\n', 1,
     "summoned-this-turn (a Normal, Tribute or Special Summon) and flip-summoned-this-turn (a Flip Summon) "
     "together: a monster is Summoned one way in a turn; expected one of them"),
    # an Equip Card is a set-up card of its own (`equipped-to`): the old `equip "Name"` says so
    ('A monster "X" equip "Y"\nenter bp\n', 1,
     "'equip' is no set-up option any more: " + PM.EQUIP_MOVED),
    ('A spell "S" equipped-to\nenter bp\n', 1, 'expected a card (a label or a "quoted name"), got end of line'),
    ('A spell "S" equipped-to M\nenter bp\n', 1, 'unknown card "M"; expected a label or card name from the set-up: S'),
    ('A monster "M"\nA set "S" equipped-to M\nenter bp\n', 2,
     "equipped-to is for a face-up Equip Card in the Spell & Trap Zone (`spell`); this card is face-down in "
     "spell_trap_zone"),
    ('A monster "M" face-down defense\nA spell "S" equipped-to M\nenter bp\n', 2,
     'an Equip Card is equipped to a face-up monster in the monster zone; "M" (line 1) is face-down in monster_zone'),
    ('A spell "S" equipped-to S\nenter bp\n', 1, '"S" is equipped to itself; expected the label of the monster it is '
                                                   'equipped to'),
    ("A monster Kuriboh\nenter bp\n", 1, "expected a card name in double quotes, got 'Kuriboh'"),
    ('A monster "Kuriboh\nenter bp\n', 1,
     "unterminated quoted string starting at column 11; expected a closing '\"'"),
    (SETUP + "enter bp\nattack DM Lily\n", 4, "expected '->' or 'direct' after the attacker, got 'Lily'"),
    (SETUP + "enter battle step\n", 3, "unexpected 'step' after 'enter battle'; expected 'phase'"),
    (SETUP + "enter bp\nactivate Lily\n", 4, "expected a player (A or B), got 'Lily'"),
    (SETUP + "enter bp\nchain A DM link 2\n", 4, "unexpected 'link'; expected one of: effect, target, cost"),
    (SETUP + "enter bp\npass A B\n", 4, "unexpected 'B'; expected end of line"),
    (SETUP + "enter bp\nclaim calc maybe\n", 4,
     "unexpected 'maybe' after 'claim calc'; expected one of: done, skipped, pending"),
    (SETUP + "enter bp\nclaim hp A 10\n", 4,
     "unexpected 'hp'; expected one of: lp, atk, destroyed, not-destroyed, location, face-up, "
     "face-down, window, calc, def, position, attacking, not-attacking, counters"),
    (SETUP + "enter bp\nclaim atk DM\n", 4, "expected a number (ATK), got end of line"),
    ("attack: DM\n", 1,
     "unknown keyword 'attack' (actions and set-up lines have no ':'); expected one of: title, "
     "ruleset, turn, turn-player, lp, expect, rules, source, card"),
    ('card: {"name": "X",}\nenter bp\n', 1,
     "bad 'card:' entry: expected a string key in double quotes, got '}' (column 20)"),
    ('card: ["X"]\nenter bp\n', 1, "expected a JSON object (a catalogue entry) after 'card:'"),
    ('A monster "X"\n', 1, "the play has no actions; expected at least one action (e.g. `enter battle phase`)"),
    # empty file
    ("", 1, "empty play file; expected header lines, set-up lines and at least one action"),
    ("# only a comment\n\n   \n", 1,
     "empty play file; expected header lines, set-up lines and at least one action"),
])
def test_text_errors(source, line, message):
    e = err_text(source)
    assert (e.line, e.message) == (line, message)
    assert str(e) == f"bad.play:{line}: {message}"
    assert e.path == "bad.play"


def test_too_many_cards():
    src = "".join(f'A hand "C{i}"\n' for i in range(vocab.MAX_CARDS + 1)) + "enter bp\n"
    e = err_text(src)
    assert (e.line, e.message) == (vocab.MAX_CARDS + 1, f"too many cards: a play has at most {vocab.MAX_CARDS}")


def test_too_many_actions():
    src = "enter bp\n" * (vocab.MAX_ACTIONS + 1)
    e = err_text(src)
    assert (e.line, e.message) == (vocab.MAX_ACTIONS + 1,
                                   f"too many actions: a play has at most {vocab.MAX_ACTIONS}")
    assert len(P.parse_text("enter bp\n" * vocab.MAX_ACTIONS, "ok.play").actions) == vocab.MAX_ACTIONS


def test_comment_hash_inside_quotes_is_text():
    p = P.parse_text('A monster "Card #1" # the first\nenter bp\n', "h.play")
    assert p.cards[0].name == "Card #1"


# ---------------------------------------------------------------------------
# Errors: JSON form
# ---------------------------------------------------------------------------


def err_json(source) -> P.PlayError:
    with pytest.raises(P.PlayError) as e:
        P.parse_json(source, "bad.json")
    return e.value


JSON_SETUP = ('{"setup": [\n'
              ' {"player": "A", "zone": "monster_zone", "card": "Dark Magician", "label": "DM"},\n'
              ' {"player": "B", "zone": "monster_zone", "card": "Injection Fairy Lily", "label": "Lily"}\n'
              '],\n"actions": [\n')


@pytest.mark.parametrize("source, line, message", [
    # duplicate JSON key
    ('{"turn": 2,\n "title": "x",\n "turn": 3, "actions": [{"do": "enter_bp"}]}', 3,
     'duplicate key "turn" (first at line 1)'),
    # unknown keyword / action / window / zone
    ('{"actions": [{"do": "enter_bp"}],\n "expext": "legal"}', 2,
     'unknown key "expext" in a play; expected one of: $schema, title, ruleset, turn, turn_player, '
     "lp, expect, rules, source, cards, setup, actions"),
    ('{"actions": [\n {"do": "declare"}]}', 2,
     'unknown action "declare"; expected one of: ' + ", ".join(P.ACTION_KINDS)),
    ('{"actions": [\n {"do": "next",\n  "window": "damage_step"}]}', 3,
     'actions[0].window: unknown window "damage_step"; expected one of: ' + ", ".join(vocab.WINDOWS)),
    ('{"setup": [{"player": "A",\n "zone": "grave", "card": "X"}], "actions": [{"do": "enter_bp"}]}', 2,
     'setup[0].zone: unknown zone "grave"; expected one of: ' + ", ".join(P.SETUP_ZONES)),
    # bad number
    ('{"turn": "2", "actions": [{"do": "enter_bp"}]}', 1,
     'turn: bad number "2"; expected a whole number 1 or more'),
    ('{"setup": [{"player": "A", "zone": "monster_zone", "card": "X",\n "atk": 2.5}],\n'
     ' "actions": [{"do": "enter_bp"}]}', 2,
     "setup[0].atk: bad number 2.5; expected a whole number 0 or more"),
    (JSON_SETUP + '{"do": "claim", "claim": "lp", "player": "B", "value": -5}]}', 6,
     "actions[0].value: number -5 out of range; expected 0 to 1000000000"),
    # references
    (JSON_SETUP + '{"do": "enter_bp"},\n{"do": "attack", "card": "DM", "target": "Lilly"}]}', 7,
     'unknown card "Lilly"; expected a label or card name from the set-up: DM, Lily'),
    ('{"setup": [{"player": "A", "zone": "hand", "card": "K"},\n{"player": "A", "zone": "hand", "card": "K"}],\n'
     '"actions": [{"do": "claim", "claim": "location", "card": "K", "value": "hand"}]}', 3,
     'card name "K" is ambiguous: 2 cards have that name (lines 1, 2); expected a label -- give each '
     "an `as <label>` and use it"),
    # an Equip Card's monster (an empty "equip", as earlier versions wrote, is read as nothing)
    ('{"setup": [{"player": "A", "zone": "monster_zone", "card": "X",\n "equip": ["Y"]}],\n'
     ' "actions": [{"do": "enter_bp"}]}', 2, 'setup[0].equip: "equip" is no set-up key any more (an empty list is '
                                             'read as nothing): ' + PM.EQUIP_MOVED),
    ('{"setup": [{"player": "A", "zone": "spell_trap_zone", "card": "S", "face_up": true,\n "equipped_to": "Z"}],\n'
     ' "actions": [{"do": "enter_bp"}]}', 2, 'unknown card "Z"; expected a label or card name from the set-up: S'),
    # shapes
    (JSON_SETUP + '{"do": "pass", "player": "A", "card": "DM"}]}', 6,
     'unknown key "card" in a "pass" action; expected one of: do, player'),
    (JSON_SETUP + '{"do": "attack", "card": "DM"}]}', 6,
     'actions[0]: an attack needs exactly one of "target" (a card) or "direct": true'),
    (JSON_SETUP + '{"do": "claim", "claim": "hp"}]}', 6,
     'actions[0].claim: unknown claim "hp"; expected one of: ' + ", ".join(P.CLAIM_KINDS)),
    ('{"actions": []}', 1, "actions: expected at least one action"),
    ('{"title": "no actions"}', 1, 'missing key "actions"; expected a list of at least one action'),
    ("[1, 2]", 1, "the document: expected a JSON object (a play), got an array"),
    ('{"expect": {"verdict": "legal", "rules": ["T4"]}, "actions": [{"do": "enter_bp"}]}', 1,
     'expect.rules must be empty when the verdict is "legal"'),
    ('{"rules": ["t-4"], "actions": [{"do": "enter_bp"}]}', 1,
     "bad rule ID 't-4'; expected an ID like T4, CH-5 or DS-T1 (capital letters and digits, parts "
     "joined by '-', at least one digit)"),
    # JSON syntax (line and what was expected)
    ('{"turn": 2,\n "actions": [{"do": "enter_bp"}\n}', 3, "expected ',' or ']', got '}' (column 1)"),
    ('{"turn": NaN, "actions": []}', 1, "NaN is not allowed in JSON; expected a finite number (column 10)"),
    ('{"turn": 2, "actions": [{"do": "enter_bp"},]}', 1,
     "expected a JSON value after ',' (trailing commas are not allowed) (column 44)"),
    # empty file
    ("", 1, "empty document: expected a JSON value (object, array, string, number, true, false or null) "
            "(column 1)"),
])
def test_json_errors(source, line, message):
    e = err_json(source)
    assert (e.line, e.message) == (line, message)
    assert str(e) == f"bad.json:{line}: {message}"


def test_json_too_many_cards_and_actions():
    setup = [{"player": "A", "zone": "hand", "card": f"C{i}"} for i in range(vocab.MAX_CARDS + 1)]
    src = json.dumps({"setup": setup, "actions": [{"do": "enter_bp"}]}, indent=0)
    e = err_json(src)
    assert e.message == f"too many cards: a play has at most {vocab.MAX_CARDS}"
    assert e.line == src.splitlines().index('"card": "C24"') - 2  # the object's opening line
    src = json.dumps({"actions": [{"do": "enter_bp"}] * (vocab.MAX_ACTIONS + 1)})
    assert err_json(src).message == f"too many actions: a play has at most {vocab.MAX_ACTIONS}"


# ---------------------------------------------------------------------------
# Errors: files
# ---------------------------------------------------------------------------


def test_non_utf8(tmp_path):
    f = tmp_path / "latin1.play"
    f.write_bytes('title: ok\nA monster "Caf\u00e9"\n'.encode("latin-1") + b"enter bp\n")
    with pytest.raises(P.PlayError) as e:
        P.load(str(f))
    assert e.value.line == 2
    assert e.value.message == ("not valid UTF-8: byte 0xe9 at column 15 (invalid continuation byte); "
                               "expected UTF-8 text")
    with pytest.raises(P.PlayError) as e:
        P.parse_json(b'{\n\n"title": "\xff"}', "x.json")
    assert e.value.line == 3 and e.value.message.startswith("not valid UTF-8: byte 0xff at column 11")


def test_empty_files(tmp_path):
    for name, message in [("e.play", "empty play file; expected header lines, set-up lines and at least one action"),
                          ("e.json", "empty document: expected a JSON value (object, array, string, number, "
                                     "true, false or null) (column 1)")]:
        f = tmp_path / name
        f.write_bytes(b"")
        with pytest.raises(P.PlayError) as e:
            P.load(str(f))
        assert (e.value.line, e.value.message) == (1, message)


def test_file_too_large(tmp_path):
    f = tmp_path / "big.play"
    f.write_bytes(b"enter bp\n" + b"#" * vocab.MAX_FILE_BYTES)
    with pytest.raises(P.PlayError) as e:
        P.load(str(f))
    assert e.value.line is None
    # load() reads one byte past the limit, so the message cannot (and does not) claim the file's size
    assert e.value.message == (f"file is larger than the limit of {vocab.MAX_FILE_BYTES} bytes (4 MB); "
                               "expected a smaller play")
    assert str(e.value) == f"{f}: {e.value.message}"
    with pytest.raises(P.PlayError):
        P.parse_json(b" " * (vocab.MAX_FILE_BYTES + 1), "big.json")


def test_missing_file(tmp_path):
    with pytest.raises(P.PlayError) as e:
        P.load(str(tmp_path / "nope.play"))
    assert e.value.line is None and e.value.message.startswith("cannot read file")


# ---------------------------------------------------------------------------
# jsonloc
# ---------------------------------------------------------------------------


def test_jsonloc_lines():
    doc = jsonloc.loads('{"a": [1,\n  {"b": null}],\n "c":\n  "x"}', "t.json")
    assert doc.value == {"a": [1, {"b": None}], "c": "x"}
    assert doc.lines == {(): 1, ("a",): 1, ("a", 0): 1, ("a", 1): 2, ("a", 1, "b"): 2, ("c",): 4}
    assert doc.line(("a", 1, "zz")) == 2


@pytest.mark.parametrize("text, line, start", [
    ('{"a": 1,\n "a": 2}', 2, 'duplicate key "a" (first at line 1)'),
    ("[Infinity]", 1, "Infinity is not allowed"),
    ("[-Infinity]", 1, "-Infinity is not allowed"),
    ("[1e400]", 1, "number 1e400 is out of range"),
    ("[01]", 1, "invalid number '01'"),
    ('["\\ud800"]', 1, "lone surrogate"),
    ('["a\nb"]', 1, "unterminated string"),
    ("[" * 65 + "]" * 65, 1, "nesting deeper than 64 levels"),
    ("[1]\n\n x", 3, "expected end of file after the JSON value, got 'x'"),
])
def test_jsonloc_errors(text, line, start):
    with pytest.raises(jsonloc.JsonError) as e:
        jsonloc.loads(text, "t.json")
    assert e.value.line == line and e.value.message.startswith(start)
    assert str(e.value).startswith(f"t.json:{line}: ")


def test_jsonloc_depth_limit_inclusive_and_bom():
    assert jsonloc.loads("[" * 64 + "]" * 64).value is not None
    assert jsonloc.loads("\ufeff{}").value == {}
    assert jsonloc.loads('"\\ud83d\\ude00 \\n"').value == "\U0001F600 \n"


# ---------------------------------------------------------------------------
# Schema and docs
# ---------------------------------------------------------------------------


def _schema():
    return json.loads((DOCS / "play.schema.json").read_text(encoding="utf-8"))


def test_schema_accepts_plays():
    jsonschema = pytest.importorskip("jsonschema")
    v = jsonschema.Draft202012Validator(_schema())
    jsonschema.Draft202012Validator.check_schema(_schema())
    for doc in (json.loads(EX1_JSON), P.to_json(P.parse_text(EX1_TEXT, "a")),
                P.to_json(P.parse_text(FULL_TEXT, "b"))):
        errors = list(v.iter_errors(doc))
        assert not errors, errors[0].message


@pytest.mark.parametrize("doc", [
    {"actions": []},
    {"actions": [{"do": "declare"}]},
    {"actions": [{"do": "pass"}]},
    {"actions": [{"do": "pass", "player": "A", "card": "X"}]},
    {"actions": [{"do": "next", "window": "damage_step"}]},
    {"actions": [{"do": "attack", "card": "X"}]},
    {"actions": [{"do": "claim", "claim": "lp", "player": "A", "value": True}]},
    {"expext": "legal", "actions": [{"do": "enter_bp"}]},
    {"setup": [{"player": "A", "zone": "grave", "card": "X"}], "actions": [{"do": "enter_bp"}]},
    {"setup": [{"player": "A", "zone": "monster_zone", "card": "X", "face_up": False}],
     "actions": [{"do": "enter_bp"}]},
    {"expect": {"verdict": "legal", "rules": ["T4"]}, "actions": [{"do": "enter_bp"}]},
    {"rules": ["t4"], "actions": [{"do": "enter_bp"}]},
    {"setup": [{"player": "A", "zone": "monster_zone", "card": "X", "equip": ["Y"]}], "actions": [{"do": "enter_bp"}]},
    {"setup": [{"player": "A", "zone": "monster_zone", "card": "X", "label": "M"},
               {"player": "A", "zone": "monster_zone", "card": "S", "face_up": True, "equipped_to": "M"}],
     "actions": [{"do": "enter_bp"}]},
    {"setup": [{"player": "A", "zone": "monster_zone", "card": "X", "label": "M"},
               {"player": "A", "zone": "spell_trap_zone", "card": "S", "equipped_to": "M"}],
     "actions": [{"do": "enter_bp"}]},
])
def test_schema_and_parser_reject_the_same(doc):
    jsonschema = pytest.importorskip("jsonschema")
    v = jsonschema.Draft202012Validator(_schema())
    assert list(v.iter_errors(doc))
    with pytest.raises(P.PlayError):
        P.parse_json(json.dumps(doc), "x.json")


def test_docs_examples_parse():
    """docs/format.md carries EX-1 in both forms; they are the same play."""
    md = (DOCS / "format.md").read_text(encoding="utf-8")
    blocks = {}
    for lang in ("play", "json"):
        marker = f"```{lang} EX-1\n"
        start = md.index(marker) + len(marker)
        blocks[lang] = md[start:md.index("```", start)]
    assert blocks["play"] == EX1_TEXT
    t = P.parse_text(blocks["play"], "format.md")
    j = P.parse_json(blocks["json"], "format.md")
    assert P.to_json(t) == P.to_json(j)


def test_equipped_to_in_both_forms():
    """`equipped-to` (text) and "equipped_to" (JSON) name the monster an Equip Card is equipped to,
    by label or by a unique name, before or after its line; both forms round-trip it."""
    text = ('A spell "Legendary Sword" as LS equipped-to "Getsu Fuhma"\nA monster "Getsu Fuhma"\n'
            'B monster "Kuriboh" as K\nenter bp\n')
    p = P.parse_text(text, "e.play")
    assert [(c.label, c.equipped_to) for c in p.cards] == [("LS", "Getsu Fuhma"), ("Getsu Fuhma", None), ("K", None)]
    j = P.to_json(p)
    assert j["setup"][0]["equipped_to"] == "Getsu Fuhma" and "equipped_to" not in j["setup"][1]
    assert all("equip" not in c for c in j["setup"])
    assert P.to_text(P.parse_json(json.dumps(j), "e.json")) == P.to_text(p)
    assert 'A spell "Legendary Sword" as LS equipped-to "Getsu Fuhma"' in P.to_text(p)
    old = json.loads(json.dumps(j))
    old["setup"][1]["equip"] = []   # what earlier versions wrote: read as nothing
    assert P.to_json(P.parse_json(json.dumps(old), "o.json")) == j


def test_resolve_choose_in_both_forms():
    """`resolve [<card>] choose X [choose Y]` (text) and "choose": X or [X, Y] (JSON) name the cards
    the first link the line resolves chooses as it resolves (GEN-22); both forms round-trip them, and
    the schema takes what the parser takes."""
    text = ('A monster "Dark Magician" as DM\nB monster "Skreech" as SK\nB deck "Fenrir" as F\n'
            'B deck "Star Boy" as SB\nenter bp\nresolve SK choose F choose SB\nresolve CHOOSE "Star Boy"\nresolve\n')
    p = P.parse_text(text, "c.play")
    assert [(a.card, a.choice, a.choice2) for a in p.actions[1:]] == [("SK", "F", "SB"), (None, "SB", None),
                                                                      (None, None, None)]
    j = P.to_json(p)
    assert j["actions"][1] == {"do": "resolve", "card": "SK", "choose": ["F", "SB"]}
    assert j["actions"][2] == {"do": "resolve", "choose": "SB"} and j["actions"][3] == {"do": "resolve"}
    assert P.to_text(P.parse_json(json.dumps(j), "c.json")) == P.to_text(p)
    assert "resolve SK choose F choose SB\nresolve choose SB\nresolve\n" in P.to_text(p)
    jsonschema = pytest.importorskip("jsonschema")
    assert not list(jsonschema.Draft202012Validator(_schema()).iter_errors(j))
    with pytest.raises(P.PlayError, match="'choose' given three times"):
        P.parse_text(text.replace("choose F choose SB", "choose F choose SB choose DM"), "c.play")
    with pytest.raises(P.PlayError, match='"choose" lists 1 or 2 cards'):
        P.parse_json(json.dumps({**j, "actions": [{"do": "resolve", "choose": []}]}), "c.json")

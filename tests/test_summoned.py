"""The `summoned` event trigger (GEN-8): pending because a resolving Chain Link Special Summoned
its card, never because a window opened. Fixtures show it with real cards (fixtures/plays/rules/
gen/GEN-8-*, gen/GEN-9-*, ds/DS-1-*, ds/DS-T1-legal-4); these tests pin what no real card can show."""
import json

import pytest
from ygo_timing.cards import catalogue
from ygo_timing.checking.check import check_play
from ygo_timing.inputs.play import parse_text

# A synthetic card whose Special Summon trigger also names "at the end of the Damage Step": the
# named timing must not make it pending when that window opens (only the event does).
NAMED = {"name": "Test Herald", "type": "monster", "subtype": "effect", "level": 4, "atk": 1000, "def": 1000,
         "effects": [{"kind": "trigger", "mandatory": False, "trigger_class": "location",
                      "timings": ["ds_end"], "condition": "summoned"}],
         "source": "synthetic"}

DS = {"ocg": ["ds_start", "ds_before_calc", "ds_during_calc", "ds_after_calc", "ds_end"],
      "tcg": ["t1_start", "t2_flip", "t3_before_calc", "t4_at_calc", "t5_battle_damage",
              "t6_effect_resolution", "t7_end"]}


def play(ruleset, body):
    head = (f"source: synthetic\nruleset: {ruleset}\nturn: 2\nturn-player: A\n"
            f"card: {json.dumps(NAMED)}\n")
    return parse_text(head + body, f"<{ruleset}>")


@pytest.mark.parametrize("ruleset", ["ocg", "tcg"])
def test_an_opening_window_never_makes_an_event_trigger_pending(ruleset):
    steps = "\n".join(f"next {w}" for w in DS[ruleset])
    v = check_play(play(ruleset, f'A monster "Dark Magician" as DM\nB monster "Test Herald" as H\n'
                                 f'B monster "Blue-Eyes White Dragon" as BEWD\n'
                                 f"enter battle phase\nnext battle_step\nattack DM -> BEWD\n{steps}\n"
                                 f"pass A\nactivate B H\n"))
    assert v.verdict == "illegal"
    assert {r["rule"] for r in v.violations} == {"GEN-7"}   # never pending


@pytest.mark.parametrize("ruleset", ["ocg", "tcg"])
def test_the_event_trigger_is_gone_once_the_window_changes(ruleset):
    # summoned in the Battle Step, the trigger was not used there: after an attack (a new window)
    # it can no longer be activated
    v = check_play(play(ruleset, 'A monster "Dark Magician" as DM\nB graveyard "Test Herald" as H\n'
                                 'B set "Call of the Haunted" as Call\n'
                                 "enter battle phase\nnext battle_step\npass A\n"
                                 "activate B Call target H\nresolve\nattack DM -> H\npass A\nactivate B H\n"))
    assert v.verdict == "illegal" and v.violations[0]["rule"] == "GEN-7"


def test_the_event_trigger_is_gone_once_a_chain_starts_resolving():
    # a second Chain in the same window: its resolution is the moment the trigger belonged to
    v = check_play(play("ocg", 'A monster "Dark Magician" as DM\nB graveyard "Test Herald" as H\n'
                               'B set "Call of the Haunted" as Call\nA set "Rush Recklessly" as Rush\n'
                               "enter battle phase\nnext battle_step\npass A\n"
                               "activate B Call target H\nresolve\nactivate A Rush target DM\nresolve\n"
                               "pass A\nactivate B H\n"))
    assert v.verdict == "illegal" and v.violations[0]["rule"] == "GEN-7"


def test_summoned_is_a_trigger_condition_only():
    card = dict(NAMED, effects=[dict(NAMED["effects"][0], kind="ignition")])
    text = json.dumps({"cards": [card]}, indent=1)
    with pytest.raises(catalogue.CatalogueError) as e:
        catalogue.parse_document(text, "x.cards.json")
    assert e.value.line is not None and "'summoned'" in str(e.value) and "trigger" in str(e.value)

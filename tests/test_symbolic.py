"""options, diff, consistency: answers from the same step relation as check, witnesses replayed
through check with the verdicts they claim."""
import json
from pathlib import Path

import pytest
import z3
from click.testing import CliRunner
from conftest import FIXTURES, ROOT
from ygo_timing.checking import run as run_module
from ygo_timing.checking.check import check_play
from ygo_timing.checking.facts import Universe
from ygo_timing.cli.main import main
from ygo_timing.inputs.play import load
from ygo_timing.output import diff_report
from ygo_timing.symbolic import diff, unroll
from ygo_timing.symbolic.consistency import source_conflicts
from ygo_timing.symbolic.options import options
from ygo_timing.symbolic.replay import catalogue_cards, fact_list, start_state

WITNESSES = ROOT / "fixtures" / "witnesses"
STORED = ROOT / "docs" / "tcg-vs-ocg.json"   # not under fixtures/: `check fixtures` would read it as a play
EX1_COUNTER = FIXTURES / "options" / "ex1-counter-trap.play"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


# --- options ------------------------------------------------------------------------------------

def test_options_after_lily_in_ex1():
    # EX-1 (S0-TCG 84-85, T4 S0-TCG 70-78) with a Counter Trap added to A's field: after "Injection
    # Fairy Lily" is activated at damage calculation, "Rising Energy" is refused (T4: it does not say
    # "at damage calculation"); "Divine Wrath" negates a monster effect's activation (a Counter Trap,
    # DS-T1(1), and T4 admits "effects that negate them")
    o = options(load(str(EX1_COUNTER)), None)
    assert o.state["window"] == "t4_at_calc" and o.state["chain"] == ["Lily (B)"]
    by = {x.what: x for x in o.cards}
    # both discard a card as their cost: named with the card in A's hand, "Rising Energy" is
    # refused for its timing alone, "Divine Wrath" allowed
    rising = by['chain A "Rising Energy" target "Dark Magician" cost K']
    assert rising.allowed is False and {r["rule"] for r in rising.rules} == {"DS-T1", "T4"}
    assert by['chain A "Divine Wrath" cost K'].allowed is True
    game = {x.what: x for x in o.game}
    assert game["pass A"].allowed and not game["pass B"].allowed      # CH-3: A responds first
    assert "PR-3" in {r["rule"] for r in game["next"].rules}            # a Chain is open


def test_options_come_from_the_compiled_relation_and_the_solver_explains_why(monkeypatch):
    """Without --why no solver is built; with it, each refusal is confirmed by the solver (the
    same rules) and comes with the facts behind it."""
    built, real = [], run_module.solver_relation
    monkeypatch.setattr(run_module, "solver_relation", lambda *a: built.append(a) or real(*a))
    quick = options(load(str(EX1_COUNTER)), None)
    assert built == []
    why = options(load(str(EX1_COUNTER)), None, why=True)
    assert built
    for a, b in zip(quick.cards + quick.game, why.cards + why.game):
        assert (a.what, a.allowed, a.rules) == (b.what, b.allowed, b.rules)
        assert a.facts == [] and (b.facts != []) == (b.allowed is False)
    r = run("options", EX1_COUNTER, "--why", "--format", "json")
    rising = next(x for x in json.loads(r.output)["activations"] if x["action"] == 'chain A "Rising Energy" target "Dark Magician" cost K')
    assert any("names none of the timings" in f for f in rising["because"])


def test_options_offer_the_choices_a_resolution_may_make():
    # GEN-22: Skreech's trigger on the Chain; resolving it is offered with each choice its text may
    # make that the relation allows (2 WATER monsters of B's Deck, once whatever their order), and
    # not plainly: a plain `resolve` would send none while two fit
    from ygo_timing.inputs.play import parse_text
    text = (ROOT / "fixtures" / "plays" / "effects" / "skreech-two-water-legal.play").read_text("utf-8")
    play = parse_text(text[:text.index("resolve choose")] + "pass A\npass B\n", "skreech.play")
    o = options(play, None)
    assert o.state["chain"] == ["SK (B)"] and o.state["resolving"]
    assert [x.what for x in o.game if x.what.startswith("resolve")] == ["resolve choose F choose SB"]
    assert all(x.allowed for x in o.game if x.what.startswith("resolve"))


def test_options_cli_json_and_bad_at():
    r = run("options", EX1_COUNTER, "--at", "7", "--format", "json")   # before A passes
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["state"]["window"] == "t4_at_calc" and out["state"]["chain"] == []
    lily = next(x for x in out["activations"] if x["action"] == "activate B Lily")
    assert lily["verdict"] == "refused" and {"PR-1"} <= {v["rule"] for v in lily["rules"]}
    r = run("options", EX1_COUNTER, "--at", "99")
    assert r.exit_code == 2 and "expected 0 to" in r.output and "Traceback" not in r.output
    r = run("options", ROOT / "no-such.play")
    assert r.exit_code == 2 and "cannot read file" in r.output


def test_options_refuses_an_illegal_prefix():
    r = run("options", FIXTURES / "examples" / "ex1-illegal.play")
    assert r.exit_code == 2 and "is not legal" in r.output


# --- the unrolled relation agrees with check ------------------------------------------------------

def _unrolled_verdicts(path):
    play = load(str(path))
    cards = catalogue_cards()
    uni = Universe(play, cards)
    from ygo_timing.checking.run import Run
    from ygo_timing.model.step import relation
    rel = relation(play.ruleset, len(uni.specs), len(uni.effects))
    facts = fact_list(rel, uni, play)
    traj = unroll.Trajectory(rel, "t_", start_state(rel, uni, play), facts)
    run = Run(play, play.ruleset, cards, 20_000, 50_000_000)
    s = z3.Solver()
    s.add(facts + traj.init)
    k = 0
    for a in play.actions:
        steps = run.steps_for(a)
        for act in (steps if steps is not None else run.resolve_steps(a)):   # lazily: it reads the state
            concrete = {n: (z3.BoolVal(v) if isinstance(v, bool) else z3.IntVal(v)) for n, v in act.items()}
            legal = s.check(traj.legal(k, concrete)) == z3.sat
            if not legal:
                return "illegal"
            s.add(traj.legal(k, concrete))
            assert run.step(act, a.line, a.text)[0] == "sat"
            k += 1
    return "legal"


@pytest.mark.parametrize("name", ["ex1-legal.play", "ex1-illegal.play", "bd2-legal.play", "bd2-illegal.play"])
def test_unrolled_relation_gives_checks_verdict(name):
    path = FIXTURES / "examples" / name
    assert _unrolled_verdicts(path) == check_play(load(str(path))).verdict


# --- diff ---------------------------------------------------------------------------------------

# what a rerun must reproduce of the stored result (the explanation's wording may change with
# the z3 version, the seconds with the machine)
SAME = ("kind", "legal_in", "illegal_in", "rules", "broken", "needed", "claim", "causes", "placed",
        "length", "scenario", "plays", "confirmed")


def test_diff_reproduces_the_stored_result(tmp_path):
    # the search is exhaustive and deterministic: a rerun at the stored bound finds the same
    # classes with the same witnesses, each confirmed by check with the verdicts it claims
    stored = _stored()
    r = diff.diff("tcg", "ocg", max_length=stored["max_length"], out_dir=tmp_path).to_dict()
    assert r["status"] == "complete"
    assert [{k: d[k] for k in SAME} for d in r["differences"]] == \
        [{k: d[k] for k in SAME} for d in stored["differences"]]
    assert sorted(p.name for p in tmp_path.iterdir()) == [p.name for p in _witness_files()]
    for p in tmp_path.iterdir():
        assert p.read_text("utf-8") == (WITNESSES / "tcg-vs-ocg" / p.name).read_text("utf-8")


def test_diff_same_ruleset_has_no_difference():
    r = run("diff", "ocg", "ocg", "--max-length", "1")
    assert r.exit_code == 0, r.output
    assert "no further difference up to 1 actions" in r.output


def _stored():
    return json.loads(STORED.read_text("utf-8"))


def _witness_files():
    return sorted(p for p in (WITNESSES / "tcg-vs-ocg").glob("*.play"))


def test_stored_diff_has_the_documented_differences():
    r = _stored()
    assert r["status"] == "complete" and r["max_length"] >= 8
    got = {(d["kind"], d["legal_in"], tuple(d["rules"])) for d in r["differences"]}
    # rules.md: Flip Effect timing D4-4 vs T6, "Flashbang" D4-5 vs T5; "after damage calculation"
    # effects D4-5 vs T6 (interpretations.md); BD-1 is ocg-only; D5-3 has no TCG counterpart
    assert ("contradiction", "ocg", ("D4-4", "GEN-6", "GEN-7", "T6")) in got
    assert ("contradiction", "ocg", ("D4-5", "GEN-6", "T5")) in got
    assert ("contradiction", "ocg", ("D4-5", "GEN-6", "GEN-7", "T6")) in got
    assert any(k == "coverage gap" and "BD-1" in rules and "GEN-4" in rules for k, _, rules in got)
    assert ("coverage gap", "tcg", ("D5-3", "T7")) in got
    # D4-7: only the OCG sources open a window for replacement-for-destruction effects (S2 81)
    assert ("coverage gap", "ocg", ("D4-7", "GEN-11")) in got
    # rules.md: DS-1(e) excepts Fusion Summon effects, DS-T1(3) admits every Trigger Effect
    assert ("contradiction", "tcg", ("DS-1", "DS-T1")) in got


@pytest.mark.parametrize("path", _witness_files(), ids=lambda p: p.name)
def test_every_stored_witness_replays_with_its_claimed_verdict(path):
    v = check_play(load(str(path)))
    assert v.expect in ("legal", "illegal")
    assert v.matches_expect(), (v.verdict, v.violations)


def test_every_printed_witness_is_stored_and_claims_both_verdicts():
    r = _stored()
    files = {Path(f).name for d in r["differences"] for f in d["files"].values()}
    assert files == {p.name for p in _witness_files()}
    for d in r["differences"]:
        assert d["confirmed"] == {d["legal_in"]: "legal", d["illegal_in"]: "illegal"}
        for n, f in d["files"].items():
            assert load(str(ROOT / f)).expect == ("legal" if n == d["legal_in"] else "illegal")


def test_tcg_vs_ocg_doc_is_the_rendering_of_the_stored_result():
    # with test_diff_reproduces_the_stored_result: the page is what the command prints now
    doc = (ROOT / "docs" / "tcg-vs-ocg.md").read_text("utf-8")
    assert doc.rstrip() == diff_report.markdown(_stored(), diff_report.DOC_COMMAND).rstrip()


def test_diff_usage_error():
    r = run("diff", "tcg", "xyz")
    assert r.exit_code == 2 and "Traceback" not in r.output


# --- consistency --------------------------------------------------------------------------------

def test_source_conflicts_are_shown_as_plays_on_which_the_readings_disagree():
    out = {c["note"]: c for c in source_conflicts(catalogue_cards())}
    assert set(out) == {"CH-5", "D2-1", "D3-3"}
    assert out["CH-5"]["verdicts"][0].startswith("illegal (CH-4") and out["CH-5"]["verdicts"][1] == "legal"
    assert out["D2-1"]["verdicts"][0] == "legal" and "GEN-13" in out["D2-1"]["verdicts"][1]
    assert out["D3-3"]["verdicts"][0] == "legal" and "D3-3" in out["D3-3"]["verdicts"][1]
    assert all(c["disagree"] for c in out.values())


class _Scene:
    """A stand-in for explore.Scene: each candidate move's broken rules are given."""
    names = ("ocg",)
    index = {"window": 0, "trig[0]": 1}

    def __init__(self, refusals, mandatory=True):
        self.refusals = refusals
        eff = type("Eff", (), {"mandatory": mandatory})
        self.uni = type("Uni", (), {"effects": [(0, 1, eff)]})

    def at(self, name, state, act):
        return self.refusals[tuple(act[:3])], state


def test_stuck_states_are_told_apart():
    from ygo_timing.model import vocab
    from ygo_timing.model.state import A
    from ygo_timing.symbolic.consistency import stuck
    pass_a, nxt, act = [A["pass"], 0, 0], [A["next"], -1, 0], [A["activate"], 1, 0]
    live, pending = vocab.W["ds_end"], True
    everything = {tuple(pass_a): ["PR-1"], tuple(nxt): ["D5-2"], tuple(act): ["GEN-13"]}
    assert stuck(_Scene(everything), (live, pending), [pass_a, nxt, act]) == "deadlock"
    # Main Phase 2 ends the Battle Phase: nothing left to do there is no deadlock
    assert stuck(_Scene(everything), (vocab.W["main2"], pending), [pass_a, nxt, act]) == "mandatory refused"
    only_priority = {**everything, tuple(pass_a): [], tuple(act): ["PR-1"]}
    # the controller has to wait for the other player to pass: not refused
    assert stuck(_Scene(only_priority), (live, pending), [pass_a, nxt, act]) is None
    # a refusal beyond priority counts only for a pending mandatory trigger
    refused = {**everything, tuple(pass_a): []}
    assert stuck(_Scene(refused), (live, pending), [pass_a, nxt, act]) == "mandatory refused"
    assert stuck(_Scene(refused), (live, False), [pass_a, nxt, act]) is None
    assert stuck(_Scene(refused, mandatory=False), (live, pending), [pass_a, nxt, act]) is None


def test_consistency_command_json():
    r = run("consistency", "tcg", "--max-length", "2", "--format", "json")
    out = json.loads(r.output)
    assert out["satisfiable"]["found"] and out["satisfiable"]["verdict"] == "legal"
    assert out["contradictions"]["status"] == "complete" and out["contradictions"]["found"] == []
    assert out["dead_rules"] == []
    assert r.exit_code == 0, r.output


def test_consistency_names_the_rules_with_no_term_as_dead():
    from ygo_timing.model import rulesets
    from ygo_timing.model.step import relation
    from ygo_timing.symbolic.consistency import encoded
    dead = [r for r in rulesets.load("ocg").rules if r not in encoded(relation("ocg", 4, 4))]
    # docs/interpretations.md: the rules no fixture can isolate, because nothing they describe is modelled
    assert dead == ["D2-3", "D3-6", "D4-3", "D4-6"]


def test_diff_stops_honestly_at_its_time_limit():
    r = run("diff", "tcg", "ocg", "--timeout", "1")
    assert r.exit_code in (1, 3), r.output     # 1 if a class was found before the limit, else 3
    assert "stopped at timeout after" in r.output
    assert "no further difference" not in r.output


@pytest.mark.parametrize("ruleset", ["ocg", "tcg"])
def test_a_claim_is_legal_only_with_the_value_of_the_variable_the_search_reads(ruleset):
    # explore.claim_values tries only the values the states hold, read at explore.claimed_var:
    # GEN-4's constraint (the one source) must make every other value illegal
    from ygo_timing.model import vocab
    from ygo_timing.model.state import CL, A
    from ygo_timing.inputs.play import parse_text
    from ygo_timing.model.step import relation
    from ygo_timing.symbolic.explore import claimed_var
    rel = relation(ruleset, 4, 4)
    pre, act = dict(rel.ctx.pre.fields()), dict(rel.ctx.act.fields())
    lits = list(rel.lits.values()) + list(rel.rlits.values())
    domain = unroll.action_domain(act, 4, 4, 0)   # the actions the search tries
    for claim in unroll.SEARCH_CLAIMS:
        a = dict(kind=A["claim"], claim=CL[claim], **({"player": 1} if claim == "lp" else {"card": 2}))
        var = pre[claimed_var(dict(a, player=1, card=2))]
        value = z3.If(var, 1, 0) if z3.is_bool(var) else var
        # with no continuous effect and no gain for damage calculation: an ATK modifier, or a gain
        # "during damage calculation only" while the calculation is ahead, makes a claimed ATK the
        # variable plus the bonus, so the search, which reads the variable, could only miss a class there
        plain = [rel.ctx.S.cont(s) == 0 for s in range(4 * vocab.MAX_CONTINUOUS)]
        plain += [gain == 0 for name, gain in pre.items() if name.startswith(("calc_atk[", "calc_def["))]
        said = [domain] + plain + [act[k] == v for k, v in a.items()] + [act["value"] != value]
        assert rel.solver.check(lits + said) == z3.unsat, claim


def test_diff_reports_an_undecided_witness_as_unknown(monkeypatch):
    # the solver's replay of a witness can run out of its limits: the search stops there and
    # says so, never "no further difference"
    def undecided(scene, acts, length):
        raise diff.Unknown(f"the solver answered unknown replaying a witness in scenario {scene.sc.name}")
    monkeypatch.setattr(diff, "explain", undecided)
    from ygo_timing.symbolic.scenarios import SCENARIOS
    r = diff.diff("tcg", "ocg", max_length=2, scenarios=[s for s in SCENARIOS if s.name == "battle-damage-modifiers"])
    assert r.status == "unknown" and r.differences == []
    assert r.closing_line().startswith("stopped at unknown after 0 class(es)")


def test_diff_bad_bound_is_a_usage_error():
    r = run("diff", "tcg", "ocg", "--max-length", "0")
    assert r.exit_code == 2 and "Traceback" not in r.output


def test_the_search_pays_a_discard_cost_with_a_hand_card():
    # Rising Energy and Magic Jammer discard a card as their cost (card texts): the searches'
    # actions name one (`cost CARD`), so their scenario can activate them, and only them
    from ygo_timing.inputs.play import parse_text
    from ygo_timing.model.step import relation
    from ygo_timing.symbolic.explore import action_list, paying, untargeted
    from ygo_timing.symbolic.replay import scenario_play
    from ygo_timing.symbolic.scenarios import SCENARIOS
    play = scenario_play(next(s for s in SCENARIOS if s.name == "battle-step"))
    uni = Universe(play, catalogue_cards())
    rel = relation("ocg", len(uni.specs), len(uni.effects))
    acts = action_list(rel.ctx, len(uni.specs), len(uni.effects), 0, untargeted(uni), paying(uni))
    named = {(uni.label(uni.effects[a["eff"]][0]), uni.label(a["other"]))
             for a in acts if a["kind"] == unroll.A["activate"] and a["other"] != -1}
    hand = {uni.label(i) for i, s in enumerate(uni.specs) if s.zone == "hand"}
    assert {c for c, _ in named} == {"Rising Energy", "Magic Jammer"} and hand <= {o for _, o in named}
    # and the play the search would write for one of them is legal: A discards its hand card
    scenario = next(s for s in SCENARIOS if s.name == "battle-step")
    a_hand = next(s.label for s in uni.specs if s.zone == "hand" and s.player == "A")
    v = check_play(parse_text(f"turn: 2\nturn-player: A\n{scenario.setup}\nenter battle phase\nnext\n"
                              f'activate A "Rising Energy" target "Dark Magician" cost "{a_hand}"\n', "<scenario>"))
    assert v.verdict == "legal", v.violations

"""Unit tests of the encoding: the rule sets, the step relation, the tables."""
import dataclasses

import pytest
import z3
from conftest import FIXTURES
from ygo_timing.cards import catalogue
from ygo_timing.checking.run import Run
from ygo_timing.inputs.play import load
from ygo_timing.model import compiled, rulesets, vocab
from ygo_timing.model.rules import RULES
from ygo_timing.model.rules.chain import speed_term
from ygo_timing.model.step import StepRelation, relation


@pytest.mark.parametrize("name", rulesets.NAMES)
def test_rule_sets_name_registered_rules_and_valid_windows(name):
    rs = rulesets.load(name)
    registered = {r.id for r in RULES}
    assert set(rs.rules) <= registered
    for row in rs.transitions + rs.timing_grants + rs.atk_windows:
        assert row["rule"] in rs.rules, row
        for key in ("from", "to", "window"):
            if key in row:
                assert row[key] in vocab.WINDOWS, row
    assert set(rs.damage_step) <= set(vocab.DAMAGE_STEP)


def test_every_registered_rule_is_in_a_rule_set():
    member = rulesets.membership()
    assert sorted({r.id for r in RULES} - set(member)) == []


def test_tcg_and_ocg_damage_steps_are_disjoint_and_complete():
    assert rulesets.load("ocg").damage_step == vocab.OCG_DAMAGE_STEP
    assert rulesets.load("tcg").damage_step == vocab.TCG_DAMAGE_STEP


@pytest.mark.parametrize("kind,effect,speed", [
    ("spell:normal", "activation", 1), ("spell:quickplay", "activation", 2),
    ("trap:normal", "activation", 2), ("trap:continuous", "activation", 2),
    ("trap:counter", "activation", 3), ("monster:effect", "ignition", 1),
    ("monster:effect", "trigger", 1), ("monster:flip", "flip", 1), ("monster:effect", "quick", 2),
    ("monster:effect", "continuous", 0),
])
def test_spell_speed_table_ch4(kind, effect, speed):
    rel = relation("ocg", 1, 1)
    S = rel.ctx.S
    s = z3.Solver()
    s.add(S.inst(0) == 0, S.ckind(0) == vocab.K[kind], S.ekind(0) == vocab.EK[effect])
    s.add(speed_term(rel.ctx, z3.IntVal(0)) != speed)
    assert s.check() == z3.unsat


# GEN-13 is read by another rule's term (ctx.lit), DC-4 gates an update of damage calculation,
# DS-2 says what holds in its absence (its `absent` default)
@pytest.mark.parametrize("rid", ["GEN-13", "DC-4", "DS-2"])
def test_a_relation_without_a_rule_switches_its_literal_off(rid):
    """A relation without a rule shares the other rules' terms (model.step.RuleTerms) and holds
    the removed rule's literal false: every restriction, update, definition and absent default
    is, for every state, action and statics, the term built by a rule set that lacks the rule."""
    rs = rulesets.load("ocg")
    shared = StepRelation(rs, 1, 1, frozenset([rid]))
    built = StepRelation(dataclasses.replace(rs, rules=tuple(r for r in rs.rules if r != rid)), 1, 1, frozenset([rid]))
    assert list(shared.off) == [rid] and not built.off and list(shared.restrictions) == list(built.restrictions)
    off = [(lit, z3.BoolVal(False)) for lit in shared.off.values()]
    pairs = [(z3.And(shared.restrictions[k]), z3.And(built.restrictions[k])) for k in shared.restrictions]
    pairs += [(a.arg(1), b.arg(1)) for a, b in zip(shared.transition, built.transition, strict=True)]
    pairs += [(a, b) for (_, a), (_, b) in zip(shared.definitions, built.definitions, strict=True)]
    pairs += list(zip(shared.absent, built.absent, strict=True))
    s = z3.Solver()
    s.add(z3.Or([z3.substitute(a, *off) != b for a, b in pairs]))
    assert s.check() == z3.unsat
    assert any(a.eq(z3.Not(shared.off[rid])) for a in shared.solver.assertions())
    # and the compiled relation takes it false too: a literal left in its terms is no leaf it can
    # read, and the relation would fall back to the solver for every step (slow, and unnoticed)
    assert compiled.evaluator("ocg", 1, 1, frozenset([rid])) is not None


def play_run(path):
    play = load(str(FIXTURES / "examples" / path))
    return play, Run(play, play.ruleset, catalogue.catalogue(), 20_000, 50_000_000)


@pytest.mark.parametrize("path", ["ex4-legal.play", "d5-4-legal.play"])
def test_state_after_each_step_is_unique(path):
    """The step relation is a function: the concrete check relies on it."""
    play, run = play_run(path)
    rel = run.rel
    lits = list(rel.lits.values()) + list(rel.rlits.values())
    for a in play.actions:
        steps = run.steps_for(a)
        for act in (steps if steps is not None else run.resolve_steps(a)):
            pre, acts = run.assumptions(act)
            assert run.solve(lits + pre + acts) == z3.sat
            m = rel.solver.model()
            other = z3.Or([var != m.eval(var, model_completion=True) for var in run.post_vars.values()])
            assert run.solve(lits + pre + acts + [other]) == z3.unsat, a.text
            run.step(act, a.line, a.text)


def test_transition_is_total_without_restrictions():
    """With every restriction switched off, any action has a successor: illegality comes only
    from restrictions, never from an update that cannot be satisfied."""
    play, run = play_run("ex1-illegal.play")
    rel = run.rel
    for a in play.actions:
        steps = run.steps_for(a)
        for act in (steps if steps is not None else run.resolve_steps(a)):
            pre, acts = run.assumptions(act)
            assert run.solve(list(rel.lits.values()) + pre + acts) == z3.sat, a.text
            run.step(act, a.line, a.text)


@pytest.mark.parametrize("name", rulesets.NAMES)
def test_the_relation_reads_no_intermediate_state(name):
    """`ctx.mid` (the state a step's ordinary updates leave) is read only by settled updates,
    whose terms replace it (model/step.py); an ordinary update or a rule that read it would leave
    its variables free, and the solver and the compiled walk could each pick them differently."""
    rel = relation(name, 4, 4)
    assert "mid_" not in rel.text


def test_each_restriction_can_be_tested_alone():
    """Restrictions have literals of their own; the explanation relies on it."""
    rel = relation("tcg", 4, 4)
    assert set(rel.restrictions) <= set(rel.rlits)
    assert all(str(l).startswith("restrict:") for l in rel.rlits.values())


def test_removing_a_rule_changes_a_verdict():
    """Rules are switched by their literals: without T4, EX-1's legal play no longer reaches
    damage calculation the way the source says."""
    from ygo_timing.checking.check import check_play
    play = load(str(FIXTURES / "examples" / "ex1-legal.play"))
    assert check_play(play).verdict == "legal"
    assert check_play(play, without=frozenset({"T4"})).verdict == "illegal"

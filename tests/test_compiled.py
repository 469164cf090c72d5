"""The compiled relation (model/compiled.py) against the solver, step by step.

`check` takes legal steps from the compiled code alone, so these tests are what makes
its "legal" trustworthy: on every fixture and on random action sequences, both paths
must give the same verdict, the same broken rules and the same state after.
"""
import ctypes
import dataclasses
import json
import os
import random
import subprocess
from collections import OrderedDict

import pytest
import z3
from conftest import FIXTURES, by_relation
from ygo_timing.checking.check import check_play
from ygo_timing.checking import explain
from ygo_timing.checking.explain import Explainer
from ygo_timing.checking.facts import play_cards
from ygo_timing.checking.run import Run, walk
from ygo_timing.checking.witness import Witness
from ygo_timing.inputs.play import load
from ygo_timing.model import compiled, native, step, vocab
from ygo_timing.model.state import ACTION_FIELDS, ACTIONS, NONE, Action

PLAYS = sorted(p for p in FIXTURES.rglob("*.play"))
# The two tests that read a fixture's shared solver trace run in one process (pytest -n: the README's
# test command runs the suite in two), so each fixture's trace is still computed once; the
# fixtures come relation by relation, so that each process reads each relation back about once
ONE_TRACE = [pytest.param(p, id=str(p.relative_to(FIXTURES)), marks=pytest.mark.xdist_group(f"trace:{p.relative_to(FIXTURES)}"))
             for p in by_relation(PLAYS)]
# random sequences: a few in CI, many with YGO_TIMING_RANDOM=N
RANDOM_SEQUENCES = int(os.environ.get("YGO_TIMING_RANDOM", "12"))


def runs(path):
    """Two runs of the same play: one for the compiled relation, one for the solver."""
    play = load(str(path))
    cards = play_cards(play)
    name = play.ruleset or "ocg"
    return play, Run(play, name, cards, 60_000, 500_000_000), Run(play, name, cards, 60_000, 500_000_000)


def same_step(fast, slow, act, where):
    """Both paths take `act` from the solver run's state; they must agree on everything."""
    fast.state = slow.state
    got_fast = fast.eval_step(act, 0)
    got_slow = slow.step(act, 0)
    assert got_slow[0] in ("sat", "unsat"), f"{where}: solver {got_slow}"
    assert got_fast[0] == got_slow[0], f"{where}: compiled {got_fast} vs solver {got_slow[0]}"
    if got_slow[0] == "unsat":
        assert set(got_fast[1]) == set(got_slow[1][0]), where
        return False
    assert fast.vals == slow.vals, where + ": " + str(
        {n: (a, b) for n, a, b in zip(fast.names, fast.vals, slow.vals) if a != b})
    return True


@pytest.mark.parametrize("path", ONE_TRACE)
def test_fixture_steps_agree(path, traces):
    """Every solver step of the fixture (the shared trace), taken again by the compiled relation
    from the same state: the same verdict, the same broken rules, the same state after."""
    t = traces(path)
    fast = Run(t.play, t.ruleset, t.cards, 60_000, 500_000_000)
    for act, line, before, result, detail, after in t.steps:
        where = f"{path.name}:{line} {act}"
        assert result in ("sat", "unsat"), f"{where}: solver {result} {detail}"
        fast.vals = before
        got = fast.eval_step(act, 0)
        assert got[0] == result, f"{where}: compiled {got} vs solver {result}"
        if result == "unsat":
            assert set(got[1]) == set(detail[0]), where
            return
        assert fast.vals == after, where + ": " + str(
            {n: (a, b) for n, a, b in zip(fast.names, fast.vals, after) if a != b})


@pytest.mark.parametrize("path", ONE_TRACE)
def test_fixture_explained_from_the_walk(path, traces, monkeypatch):
    """`check` asks the solver once, at the step the compiled walk finds illegal: it finds the
    step the full replay finds, the same broken rules, the same facts in the same words, and
    each fact is needed (without it, the rule's query is sat)."""
    t = traces(path)
    run = Run(t.play, t.ruleset, t.cards, 60_000, 500_000_000)
    found = walk(run, run.eval_step)
    assert (found.kind, found.index) == (t.outcome.kind, t.outcome.index)
    if found.kind != "illegal":
        return
    cores, minimise, other_value = [], Explainer.minimise, Witness.other_value
    models = {}   # (rule, fact) -> the other value of the fact in the compiled step's model

    def recording(self, fixed, facts, rid=None):
        core = minimise(self, fixed, facts, rid)
        cores.append((fixed, core, self.witness))
        return core

    def modelled(self, rid, dropped):
        value = other_value(self, rid, dropped)
        if value is not None:
            models[rid, dropped.get_id()] = value
        return value
    monkeypatch.setattr(Explainer, "minimise", recording)
    monkeypatch.setattr(Witness, "other_value", modelled)
    got = run.confirm(found)
    assert got.kind == "illegal" and got.detail[0] == t.outcome.detail[0]
    assert got.detail[1] == t.outcome.detail[1]   # the cores do not depend on the solver's past
    assert cores and all(core for _, core, _ in cores)
    pre, acts = run.assumptions(run.current_act)
    # asked of the relation's part (model.step.explained_part), which answers every query as the
    # whole relation does (tests/test_explain.py) and finds a model several times faster
    part = explain.tester(run.rel)
    for fixed, core, witness in cores:
        assert run.solve(fixed + core, part) == z3.unsat
        rule = witness.rule(fixed) if witness else None
        for k, fact in enumerate(core):
            rest = fixed + core[:k] + core[k + 1:]
            value = models.get((rule, fact.get_id()))
            # the compiled model pinned (every other fact of the step as the play has it, this
            # one changed): a superset of `rest`, so sat proves `rest` sat, in a fraction of the
            # time the solver takes to find a model of `rest` alone
            if value is not None and run.solve(rest + pinned(pre + acts, fact, value), part) == z3.sat:
                continue
            assert run.solve(rest, part) == z3.sat, f"{fact} is not needed"


def pinned(facts, fact, value):
    """`facts` with `fact` (a term `x == v`) replaced by `x == value`."""
    return [t for t in facts if t.get_id() != fact.get_id()] + [fact.arg(0) == value]


def test_a_provenance_names_the_line_and_rule_that_set_it():
    """After compiled steps, a fact about the state says which line, and which rule's update,
    gave the variable its value: as the solver's replay says."""
    path = FIXTURES / "examples" / "ex1-illegal.play"
    play = load(str(path))
    cards = play_cards(play)
    fast, slow = (Run(play, play.ruleset, cards, 60_000, 500_000_000) for _ in range(2))
    found = walk(fast, fast.eval_step)
    assert walk(slow, slow.step).index == found.index
    for name in ("window", "prio", "attacker", "target", "loc[0]"):
        assert fast.line_of.get(name) == slow.line_of.get(name), name
    assert fast.line_of.get("window")[:2] == ("line", 25)   # `next t4_at_calc`


def random_action(rng, run):
    n, e = len(run.uni.specs), len(run.uni.effects)
    kind = rng.choice(["pass", "pass", "next", "next", "activate", "activate", "attack", "resolve_link",
                       "enter_bp", "end_bp", "claim", "retarget", "stop_attack", "replace", "skip_bp"])
    card = lambda: rng.randrange(-1, n)   # noqa: E731 - NONE included
    act = dict(kind=ACTIONS.index(kind), player=rng.choice([0, 1, NONE]), eff=rng.randrange(max(1, e)),
               card=card(), target=card(), target2=rng.choice([NONE, NONE, card()]), direct=rng.random() < 0.3,
               window=rng.choice([NONE, rng.randrange(len(vocab.WINDOWS))]), link=rng.choice([0, 0, 1, 2]),
               named=NONE, other=card(), claim=rng.randrange(7), value=rng.choice([0, 1, 2, 500, 8000]),
               choice=rng.choice([NONE, NONE, card()]), choice2=rng.choice([NONE, NONE, NONE, card()]))
    if kind in ("pass", "activate"):
        act["player"] = rng.choice([run.get("prio"), 1 - run.get("prio")]) if run.get("prio") in (0, 1) else 0
    return act


@pytest.mark.slow
def test_random_sequences_agree():
    """Random actions from the fixtures' set-ups: at each step several candidates are compared
    on both paths, then a legal one (if any) is taken."""
    rng = random.Random(20261130)
    compared = 0
    for seq in range(RANDOM_SEQUENCES):
        path = rng.choice(PLAYS)
        _, fast, slow = runs(path)
        for depth in range(25):
            legal = []
            for _ in range(4):
                act = random_action(rng, slow)
                saved = slow.state
                if same_step(fast, slow, act, f"sequence {seq} ({path.name}) step {depth}: {act}"):
                    legal.append(act)
                slow.state = saved
                compared += 1
            if not legal:
                break
            slow.step(rng.choice(legal), 0)
    assert compared >= RANDOM_SEQUENCES * 4


def test_action_fields_are_the_records_order():
    assert tuple(name for name, _ in Action().fields()) == ACTION_FIELDS


def test_a_damaged_cache_file_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv("YGO_TIMING_CACHE", str(tmp_path))
    monkeypatch.setattr(compiled, "_loaded", OrderedDict())
    assert compiled.evaluator("ocg", 4, 4) is not None
    (cached,) = tmp_path.glob("relation-*.bin")
    good = cached.read_bytes()
    cached.write_bytes(good[:60] + b"this is not bytecode")
    monkeypatch.setattr(compiled, "_loaded", OrderedDict())
    assert compiled.evaluator("ocg", 4, 4) is not None
    assert b"this is not bytecode" not in cached.read_bytes()
    monkeypatch.setattr(compiled, "_loaded", OrderedDict())
    monkeypatch.setattr(compiled, "generate", None)   # now it must come from the disk
    assert compiled.evaluator("ocg", 4, 4) is not None


def test_without_the_compiler_the_solver_decides(monkeypatch):
    """A term the compiler cannot print leaves every step to the solver, with the same verdicts."""
    def refuse(rel):
        raise compiled.CompileError("test")
    monkeypatch.setenv("YGO_TIMING_CACHE", "")
    monkeypatch.setattr(compiled, "_loaded", OrderedDict())
    monkeypatch.setattr(compiled, "generate", refuse)
    for name in ("ex1-legal.play", "ex1-illegal.play"):
        play = load(str(FIXTURES / "examples" / name))
        assert check_play(play).verdict == play.expect


def test_a_disagreement_is_an_error_never_a_verdict(monkeypatch):
    """If the compiled code calls a legal step illegal, the solver's replay catches it."""
    play = load(str(FIXTURES / "examples" / "ex1-legal.play"))
    real = Run.eval_step

    def wrong(self, act, line, text=""):
        if act["kind"] == ACTIONS.index("attack"):
            return "unsat", ["BP-1"]
        return real(self, act, line, text)
    monkeypatch.setattr(Run, "eval_step", wrong)
    v = check_play(play)
    assert v.verdict == "error" and "disagree" in v.message


def test_verify_replays_legal_plays(monkeypatch):
    """--verify: a legal play is replayed through the solver too, so a wrong "legal" from the
    compiled code is caught."""
    play = load(str(FIXTURES / "examples" / "ex1-illegal.play"))
    real = Run.eval_step

    def lenient(self, act, line, text=""):
        result = real(self, act, line, text)
        if result[0] == "unsat":
            return "sat", None
        return result
    monkeypatch.setattr(Run, "eval_step", lenient)
    assert check_play(play).verdict == "legal"          # what a broken compiler would say
    v = check_play(play, verify=True)
    assert v.verdict == "error" and "disagree" in v.message


def test_the_solver_relation_is_read_back_from_the_disk(tmp_path, monkeypatch):
    """The solver relation, cached as SMT-LIB, gives the same explanations as the one built
    (rule literals, update causes and the gates' grants included); a damaged file is rebuilt."""
    monkeypatch.setenv("YGO_TIMING_CACHE", str(tmp_path))
    step.solver_relation.cache_clear()
    paths = [FIXTURES / "examples" / "ex1-illegal.play", FIXTURES / "rules" / "gen" / "GEN-6-illegal.play"]
    built = [check_play(load(str(p))).to_dict() for p in paths]
    (cached, *_) = tmp_path.glob("solver-*.json")
    step.solver_relation.cache_clear()

    def no_build(*args):
        raise AssertionError("the relation was built again")
    monkeypatch.setattr(step, "relation", no_build)
    assert [check_play(load(str(p))).to_dict() for p in paths] == built
    assert isinstance(step.solver_relation("ocg", 4, 4), step.LoadedRelation)
    for f in tmp_path.glob("solver-*.json"):
        f.write_text(f.read_text()[:1000])
    step.solver_relation.cache_clear()
    monkeypatch.undo()
    monkeypatch.setenv("YGO_TIMING_CACHE", str(tmp_path))
    assert [check_play(load(str(p))).to_dict() for p in paths] == built
    assert len(cached.read_text()) > 1000
    step.solver_relation.cache_clear()


def test_the_whole_relation_is_read_only_when_a_step_asks_it(tmp_path, monkeypatch):
    """An illegal play is explained from the relation's part: the whole relation in the cache
    file is parsed only when the solver steps (--verify); damaged there, it is built again,
    with the same verdict, and the file rewritten."""
    monkeypatch.setenv("YGO_TIMING_CACHE", str(tmp_path))
    step.solver_relation.cache_clear()
    play = FIXTURES / "rules" / "gen" / "GEN-6-illegal.play"   # no watched slots: the relation ("ocg", 4, 4)
    built = check_play(load(str(play)), verify=True).to_dict()
    step.solver_relation.cache_clear()
    (cached,) = tmp_path.glob("solver-*.json")
    data = json.loads(cached.read_text())
    rel = step.solver_relation("ocg", 4, 4)
    assert isinstance(rel, step.LoadedRelation) and "solver" not in vars(rel)
    assert check_play(load(str(play))).to_dict() == built
    assert "solver" not in vars(rel)   # confirmed and explained without the whole relation
    data["solver"] = data["solver"][: len(data["solver"]) // 2] + ")"   # valid JSON, a damaged relation
    cached.write_text(json.dumps(data))
    step.solver_relation.cache_clear()
    assert check_play(load(str(play)), verify=True).to_dict() == built
    assert json.loads(cached.read_text())["solver"] != data["solver"]
    step.solver_relation.cache_clear()


# --- the emitter's laziness (model/compiled.py, Emitter) ---------------------------------------
def emitted(*terms):
    """A function `f(P)` of the Emitter's body for `terms` over the leaves p0, p1 (P[0], P[1]),
    returning their values; the source beside it."""
    em = compiled.Emitter({"p0": "P[0]", "p1": "P[1]"}, compiled.Statics(), set(), z3.main_ctx(), {})
    roots = [em.value(t) for t in terms]
    em.finish()
    source = "def f(P):\n" + "\n".join(em.lines) + f"\n    return [{', '.join(roots)}]\n"
    ns = {}
    exec(compiled.HELPERS + source, ns)
    return ns, source, em


P0, P1 = z3.Ints("p0 p1")
POINTS = [(a, b) for a in (-3, -1, 0, 1, 2, 7) for b in (-2, 0, 1, 3)]


def solver_value(term, a, b):
    return z3.simplify(z3.substitute(term, (P0, z3.IntVal(a)), (P1, z3.IntVal(b))))


def test_single_parent_nodes_are_inlined_and_skipped_when_dead():
    """A node read once sits inside its parent's expression: behind a false conjunct or in an
    untaken branch it is not evaluated (here `_div` / `_mod` by zero), and the value is the
    solver's at every point; so the body has fewer lines than the term has nodes."""
    guarded = z3.And(P1 != 0, P0 / P1 + P0 % P1 > 1)
    branch = z3.If(P1 == 0, P0 + 1, (P0 + 5) / P1 - 2)
    ns, _, em = emitted(guarded, branch)
    calls = []
    real_div = ns["_div"]
    ns["_div"] = lambda a, b: calls.append((a, b)) or real_div(a, b)
    for a, b in POINTS:
        calls.clear()
        got = ns["f"]([a, b])
        assert got == [z3.is_true(solver_value(guarded, a, b)), solver_value(branch, a, b).as_long()], (a, b)
        assert (b == 0) == (not calls), (a, b, calls)   # skipped exactly when the divisor is 0
    assert len(em.lines) < len(em.ops)


def test_a_shared_node_is_computed_once():
    """A node under two roots (as a post value's term and a restriction can share one) is a
    variable, assigned once, and both read it."""
    shared = P0 * P1 + 3
    ns, source, _ = emitted(shared > 5, z3.Or(P0 == 2, shared < 9))
    assert source.count("P[0] * P[1]") == 1
    for a, b in POINTS:
        assert ns["f"]([a, b]) == [a * b + 3 > 5, a == 2 or a * b + 3 < 9]


def test_conjuncts_are_ordered_cheapest_first():
    """In an `and`, the leaf comparison comes before the inlined arithmetic it can skip."""
    costly = (P0 * P0 + P1 * 7) % 5 == 2
    _, source, _ = emitted(z3.And(costly, P1 == 1))
    (line,) = [x for x in source.splitlines() if " and " in x]
    assert line.index("P[1] == 1") < line.index("_mod")


def test_a_deep_term_is_split_into_variables():
    """An If-chain of 300 arms (a selector over many slots) nests deeper than Python's parser
    allows in one expression: the emitter assigns variables every MAX_DEPTH levels."""
    chain = P1
    for k in range(300):
        chain = z3.If(P0 == k, P1 + k, chain)
    ns, _, em = emitted(chain)
    assert 300 // compiled.MAX_DEPTH <= len(em.lines) < 300
    for a in (-1, 0, 150, 299, 300):
        assert ns["f"]([a, 5]) == [solver_value(chain, a, 5).as_long()]


@pytest.mark.slow
def test_lazy_and_eager_code_agree_on_the_relation(monkeypatch):
    """The relation's own step functions, printed lazily and with every node a variable (as
    before the inliner: MAX_DEPTH 0), give the same result on every step of the effect and
    example fixtures and on random actions from each of their states; the lazy one is shorter."""
    from ygo_timing.checking.facts import fact_tables
    from ygo_timing.model.state import ACTION_FIELDS as FIELDS
    rng, evaluators = random.Random(20261201), {}

    def both(key):
        if key not in evaluators:
            pair = []
            for depth in (compiled.MAX_DEPTH, 0):
                monkeypatch.setattr(compiled, "MAX_DEPTH", depth)
                source = compiled.generate(step.relation(*key))
                pair.append((compiled.Evaluator(compile(source, "<test>", "exec")), source.count("\n")))
            monkeypatch.undo()
            assert pair[0][1] < pair[1][1]
            evaluators[key] = [ev for ev, _ in pair]
        return evaluators[key]

    def result(ev, vals, vec, prepared):
        try:
            broken, post = ev.step(list(vals), vec, prepared)
            return tuple(broken), post
        except compiled.Undetermined as e:
            return "undetermined", str(e)

    compared = 0
    for path in [p for p in PLAYS if p.relative_to(FIXTURES).parts[0] in ("effects", "examples")]:
        play = load(str(path))
        run = Run(play, play.ruleset or "ocg", play_cards(play), 60_000, 500_000_000)
        evs = both((run.ruleset, run.ncards, run.neffects))
        prepared = [ev.prepare(*fact_tables(run.facts)) for ev in evs]
        for a in play.actions:
            acts = run.steps_for(a)
            steps = acts if acts is not None else list(run.resolve_steps(a))
            for act in steps:
                for cand in [act] + [random_action(rng, run) for _ in range(3)]:
                    vec = [cand[f] for f in FIELDS]
                    lazy, eager = (result(ev, run.vals, vec, p) for ev, p in zip(evs, prepared))
                    assert lazy == eager, f"{path.name}:{a.line} {cand}"
                    compared += 1
                if run.eval_step(act, a.line)[0] != "sat":
                    break
            else:
                continue
            break
    assert compared > 500


# --- the native relation (model/native.py): the same operations printed as C -------------------
needs_cc = pytest.mark.skipif(native.compiler() is None, reason="no C compiler")


@pytest.fixture
def native_on(monkeypatch):
    """Native relations built at first need (in the test session's cache, so each size bucket is
    compiled once)."""
    monkeypatch.setenv("YGO_TIMING_NATIVE", "1")


def both_steps(run, play, vals, act):
    """One step from `vals` by the Python relation and by the native one: (broken rules, state
    after) each, or "undetermined"."""
    vec = [act[f] for f in ACTION_FIELDS]
    try:
        broken, post = run.evaluator.step(list(vals), vec, run.prepared)
        python = tuple(broken), post
    except compiled.Undetermined:
        python = "undetermined"
    play.vals[:] = vals
    try:
        broken = play.step(vec)
        c = broken, play.values(play.after)
    except compiled.Undetermined:
        c = "undetermined"
    return python, c


@needs_cc
@pytest.mark.parametrize("path", PLAYS, ids=lambda p: str(p.relative_to(FIXTURES)))
def test_native_steps_agree(path, native_on):
    """Every step of the fixture's compiled walk, and random actions from each state reached,
    taken by the Python and the native relation from the same state: the same broken rules (in
    the same order) and the same state after (also of an illegal step); and the native walk
    keeps a legal play's outcome and state, and leaves any other play as it found it."""
    play = load(str(path))
    cards = play_cards(play)
    fresh = lambda: Run(play, play.ruleset or "ocg", cards, 60_000, 500_000_000)   # noqa: E731
    python = fresh()
    expected = walk(python, python.eval_step)
    run = fresh()
    rel = native.relation(*run.key)
    assert rel is not None, "the native relation was not built"
    cplay = rel.play(run.facts, run.vals)
    rng = random.Random(path.name)
    for index, a in enumerate(play.actions, start=1):
        if index == expected.index and expected.kind == "error":
            break
        acts = run.steps_for(a)
        for act in (acts if acts is not None else list(run.resolve_steps(a))):
            for cand in [act] + [random_action(rng, run) for _ in range(3)]:
                python_step, native_step = both_steps(run, cplay, run.vals, cand)
                assert python_step == native_step, f"{path.name}:{a.line} {cand}"
            if run.eval_step(act, a.line)[0] != "sat":
                break
        else:
            continue
        break
    natively, start = fresh(), fresh().vals
    found = natively.walk_natively()
    if expected.kind == "legal":
        assert (found.kind, found.steps, natively.vals) == ("legal", expected.steps, python.vals)
    else:
        assert found is None and (natively.vals, natively.steps, natively.on_native) == (start, 0, None)


@needs_cc
@pytest.mark.slow
def test_native_random_sequences_agree(native_on):
    """Random actions from the fixtures' set-ups, deeper than the fixtures go: at each step
    several candidates are taken by both relations from the same state, then a legal one."""
    rng = random.Random(20261204)
    compared = 0
    for seq in range(RANDOM_SEQUENCES * 4):
        path = rng.choice(PLAYS)
        play = load(str(path))
        run = Run(play, play.ruleset or "ocg", play_cards(play), 60_000, 500_000_000)
        cplay = native.relation(*run.key).play(run.facts, run.vals)
        for depth in range(40):
            legal = []
            for _ in range(6):
                act = random_action(rng, run)
                python_step, native_step = both_steps(run, cplay, run.vals, act)
                assert python_step == native_step, f"sequence {seq} ({path.name}) step {depth}: {act}"
                if python_step != "undetermined" and not python_step[0]:
                    legal.append(act)
                compared += 1
            if not legal:
                break
            assert run.eval_step(rng.choice(legal), 0)[0] == "sat"
    assert compared >= RANDOM_SEQUENCES * 4 * 6


@needs_cc
def test_check_walks_natively_and_explains_in_python(native_on, monkeypatch):
    """`check` walks a play natively (no step of the Python relation for a legal play) and gives
    the verdict the Python path gives, word for word; an illegal play is walked again in Python
    and explained as without the native path (facts, provenance, reason)."""
    paths = [FIXTURES / "examples" / n for n in ("ex1-legal.play", "ex1-illegal.play", "ex4-illegal.play")]
    monkeypatch.setenv("YGO_TIMING_NATIVE", "0")
    python = [check_play(load(str(p))).to_dict() for p in paths]
    monkeypatch.setenv("YGO_TIMING_NATIVE", "1")
    calls = {"native": 0, "python": 0}
    real_native, real_python = native.NativePlay.step, compiled.Evaluator.step

    def counted(name, real):
        def step(self, *args):
            calls[name] += 1
            return real(self, *args)
        return step
    monkeypatch.setattr(native.NativePlay, "step", counted("native", real_native))
    monkeypatch.setattr(compiled.Evaluator, "step", counted("python", real_python))
    assert check_play(load(str(paths[0]))).to_dict() == python[0]
    assert calls["native"] > 0 and calls["python"] == 0
    assert [check_play(load(str(p))).to_dict() for p in paths] == python


@needs_cc
def test_native_values_beyond_64_bits_take_the_python_path(native_on):
    """A value beyond 64 bits (the parser bounds a play's numbers well below, but the API takes
    any) cannot go into the C buffers: the play is walked in Python, where no value wraps
    around, with the verdict the Python path gives."""
    play = load(str(FIXTURES / "examples" / "ex1-legal.play"))
    k = next(i for i, a in enumerate(play.actions) if a.claim == "lp")
    play.actions[k] = dataclasses.replace(play.actions[k], value=str(2 ** 70))
    run = Run(play, play.ruleset, play_cards(play), 60_000, 500_000_000)
    with pytest.raises(OverflowError):
        native.relation(*run.key).play(run.facts, run.vals).step(
            [dict(kind=ACTIONS.index("claim"), value=2 ** 70).get(f, 0) for f in ACTION_FIELDS])
    assert run.walk_natively() is None and run.steps == 0
    v = check_play(play)
    assert v.verdict == "illegal" and v.first_illegal["index"] == k + 1


@pytest.mark.parametrize("setting", [{"YGO_TIMING_NATIVE": "0"}, {"YGO_TIMING_NATIVE": "1", "CC": "no-such-cc"}],
                         ids=["off", "no-compiler"])
def test_native_off_or_without_a_compiler_the_python_path_checks(setting, tmp_path, monkeypatch):
    """YGO_TIMING_NATIVE=0 never builds nor loads a shared object; without a C compiler none is
    built; either way every step is the Python relation's, with the same verdicts."""
    monkeypatch.setenv("YGO_TIMING_CACHE", str(tmp_path))
    monkeypatch.setattr(native, "_loaded", OrderedDict())
    for name, value in setting.items():
        monkeypatch.setenv(name, value)
    if setting["YGO_TIMING_NATIVE"] == "0":
        monkeypatch.setattr(native, "build", None)   # never called
    else:
        assert native.compiler() is None
    for name in ("ex1-legal.play", "ex1-illegal.play"):
        play = load(str(FIXTURES / "examples" / name))
        assert check_play(play).verdict == play.expect
        assert native.relation("tcg", 4, 4) is None
    assert not list(tmp_path.glob("native-*"))


@needs_cc
def test_a_damaged_shared_object_is_rebuilt(tmp_path, monkeypatch):
    """The cached object carries the SHA-256 of its bytes: a damaged or truncated one is never
    loaded, but removed and built again."""
    monkeypatch.setenv("YGO_TIMING_CACHE", str(tmp_path))
    monkeypatch.setenv("YGO_TIMING_NATIVE", "1")
    monkeypatch.setattr(native, "_loaded", OrderedDict())
    assert native.relation("ocg", 4, 4) is not None
    (cached,) = tmp_path.glob("native-*.so")
    good = cached.read_bytes()
    assert native.intact(cached)
    builds, real_build = [], native.build
    monkeypatch.setattr(native, "build", lambda *a: builds.append(a) or real_build(*a))
    for damaged in (good[:1000] + bytes([good[1000] ^ 0xFF]) + good[1001:], good[: len(good) // 2]):
        spare = tmp_path / "damaged"
        spare.write_bytes(damaged)
        os.replace(spare, cached)   # a new file: the loaded object's pages stay as they were
        assert not native.intact(cached)
        monkeypatch.setattr(native, "_loaded", OrderedDict())
        rel = native.relation("ocg", 4, 4)
        assert rel is not None and native.intact(cached) and cached.read_bytes() != damaged
    assert len(builds) == 2
    monkeypatch.setattr(native, "_loaded", OrderedDict())
    monkeypatch.setattr(native, "build", None)   # now it must come from the disk
    assert native.relation("ocg", 4, 4) is not None


@needs_cc
def test_auto_builds_once_python_walking_has_cost_as_much(tmp_path, monkeypatch):
    """The default ("auto") never builds for a single check; once this process has walked a
    relation in Python for AUTO_AFTER_S seconds of CPU, the next check of it builds and walks
    natively."""
    monkeypatch.setenv("YGO_TIMING_CACHE", str(tmp_path))
    monkeypatch.delenv("YGO_TIMING_NATIVE", raising=False)
    monkeypatch.setattr(native, "_loaded", OrderedDict())
    monkeypatch.setattr(native, "_spent", {})
    monkeypatch.setattr(native, "AUTO_AFTER_S", 1e-9)
    play = load(str(FIXTURES / "examples" / "ex1-legal.play"))
    assert native.mode() == "auto" and native.relation("tcg", 4, 4) is None
    assert check_play(play).verdict == "legal"   # walked in Python: the time is noted
    assert not list(tmp_path.glob("native-*"))
    assert check_play(play).verdict == "legal"   # built now, and walked natively
    assert native.relation("tcg", 4, 4) is not None and list(tmp_path.glob("native-*.so"))


@needs_cc
def test_c_operations_are_smt_libs(tmp_path):
    """The C printer's arithmetic on small terms, at points around zero and the signs: Euclidean
    division, modulo and remainder (division by zero read as 0, as the Python printer reads it:
    the solver leaves it open), and an overflow past 64 bits reported, never wrapped."""
    rem = z3.ArithRef(z3.Z3_mk_rem(z3.main_ctx().ref(), P0.as_ast(), P1.as_ast()), z3.main_ctx())
    terms = [P0 / P1, P0 % P1, rem, P0 - P1 * 3, -P0, z3.If(P0 > P1, P0 * P1, P1 - P0)]
    em = compiled.Emitter({"p0": "P[0]", "p1": "P[1]"}, compiled.Statics(), set(), z3.main_ctx(), {})
    roots = [em.value(t) for t in terms]
    printer = native.CPrinter(compiled.Program(em.statics, [], [], [], []))
    body = em.finish(printer)
    source = native.HELPERS + "int f(const I *P, I *out) {\n    int ov = 0;\n" + "\n".join(body) + "\n" + \
        "".join(f"    out[{k}] = {printer.ref(r)};\n" for k, r in enumerate(roots)) + "    return ov;\n}\n"
    (tmp_path / "t.c").write_text(source)
    so = tmp_path / "t.so"
    subprocess.run([native.compiler(), *native.FLAGS, "-o", str(so), str(tmp_path / "t.c")], check=True)
    f = ctypes.CDLL(str(so)).f
    out = (ctypes.c_int64 * len(terms))()
    for a, b in POINTS:
        assert f((ctypes.c_int64 * 2)(a, b), out) == 0
        want = [solver_value(t, a, b) for t in terms]
        assert all(z3.is_int_value(v) or b == 0 for v in want)
        assert list(out) == [v.as_long() if z3.is_int_value(v) else 0 for v in want], (a, b)
    assert f((ctypes.c_int64 * 2)(2 ** 62, 4), out) == 1   # P0 * P1 past 2^63: reported


def test_large_buckets_stay_on_the_python_path(monkeypatch):
    """Past native.MAX_CARDS / MAX_EFFECTS no shared object is built or looked for."""
    monkeypatch.setenv("YGO_TIMING_NATIVE", "1")
    monkeypatch.setattr(native, "build", None)   # never called
    assert native.relation("ocg", native.MAX_CARDS + 4, 4) is None
    assert native.relation("ocg", 4, native.MAX_EFFECTS + 4) is None

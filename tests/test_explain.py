"""The explanation's own solver (checking.explain.Own, model.step.explaining): its cores are
cores of the relation, they do not depend on what the process checked before, and when its
part of the relation cannot refute a step the whole relation is asked; the tester and the
compiled relation's witnesses answer as the relation."""

import z3
from conftest import FIXTURES
from ygo_timing.checking import explain
from ygo_timing.checking.check import check_play
from ygo_timing.checking.facts import play_cards
from ygo_timing.checking.run import Run, walk
from ygo_timing.checking.witness import Witness
from ygo_timing.inputs.play import load
from ygo_timing.model.dag import names_in
from ygo_timing.model.state import A
from ygo_timing.model.step import UNRESTRICTED, explained_part, relation

EXAMPLES = sorted((FIXTURES / "examples").glob("*-illegal.play"))


def test_the_explanation_text_is_the_relation_without_updates_nothing_reads():
    rel = relation("ocg", 4, 4)
    whole = list(rel.solver.assertions())
    part = explained_part(rel.solver, [v for _, v in rel.ctx.post.fields()])
    kept = {a.get_id() for a in part}
    assert kept <= {a.get_id() for a in whole}   # a part of the relation
    dropped = [a for a in whole if a.get_id() not in kept]
    assert dropped and len(kept) < len(whole) / 2
    names = {str(a.arg(0)) for a in dropped if z3.is_eq(a)}
    assert len(names) == len(dropped) and all(n.startswith("post_") for n in names)   # updates only
    read, seen = set(), set()
    todo = list(part)
    while todo:   # every constant the kept part reads (the terms are DAGs: each node once)
        t = todo.pop()
        if t.get_id() in seen:
            continue
        seen.add(t.get_id())
        read.add(str(t)) if z3.is_const(t) else todo.extend(t.children())
    assert not names & read   # none of them read by what is kept
    assert "post_window" in read
    # and the text the explanations read holds exactly that part (one conjunction: sexpr_of)
    (text,) = z3.parse_smt2_string(rel.explaining)
    assert len(text.children()) == len(part)


def test_a_rules_slice_holds_its_own_restriction_and_what_it_reads():
    """Each restriction's slice (model.step.rule_slices): a part of the explanation's part, with
    that rule's literal and no other restriction's (the UNRESTRICTED slice: none), and the names
    it reads are what its text holds (a fact about anything else is left out of that rule's
    cores)."""
    rel = relation("ocg", 4, 4)
    (part,) = z3.parse_smt2_string(rel.explaining)
    restricting = {str(a.arg(0)): a for a in part.children() if z3.is_implies(a)}
    others = len(part.children()) - sum(1 for a in part.children() if str(a.arg(0)).startswith("restrict:"))
    assert set(rel.slices) == set(rel.restrictions) | {UNRESTRICTED}
    for rid, text in rel.slices.items():
        (one,) = z3.parse_smt2_string(text)
        kept = one.children()
        own = [a for a in kept if str(a.arg(0)) == f"restrict:{rid}"]
        assert (own and f"restrict:{rid}" in restricting) or rid == UNRESTRICTED
        assert kept and len(kept) - len(own) <= others
        names = names_in(kept)
        assert {n for n in names if n.startswith("restrict:")} == ({f"restrict:{rid}"} if own else set())
        assert names == rel.slice_reads[rid]
        assert len(text) < len(rel.explaining) / 2


def _facts(path):
    v = check_play(load(str(path)))
    assert v.verdict == "illegal", v.message
    return v.violations, v.facts


def test_the_facts_do_not_depend_on_what_the_process_checked_before():
    first = [_facts(p) for p in EXAMPLES]
    again = [_facts(p) for p in reversed(EXAMPLES)][::-1]   # after every other play, in reverse
    assert first == again


def test_a_step_the_part_cannot_refute_is_explained_by_the_whole_relation(monkeypatch):
    """The own solver's part of the relation is made empty, so it refutes nothing: each core
    comes from a solver of the whole relation, the broken rules are the same and the facts
    minimal."""
    path = FIXTURES / "examples" / "ex1-illegal.play"
    usual = _facts(path)
    monkeypatch.setattr(explain.Explainer, "own_for", lambda self, rid: explain.Own(""))
    cores, minimise = [], explain.Explainer.minimise

    def recording(self, fixed, facts, rid=None):
        core = minimise(self, fixed, facts, rid)
        cores.append((self.run, fixed, core))
        return core
    monkeypatch.setattr(explain.Explainer, "minimise", recording)
    play = load(str(path))
    run = Run(play, play.ruleset, play_cards(play), 60_000, 500_000_000)
    got = run.confirm(walk(run, run.eval_step))
    assert got.kind == "illegal" and got.detail[0] == [v["rule"] for v in usual[0]]
    assert cores and all(core for _, _, core in cores)
    for r, fixed, core in cores:
        assert r.solve(fixed + core) == z3.unsat
        for k in range(len(core)):
            assert r.solve(fixed + core[:k] + core[k + 1:]) == z3.sat, f"{core[k]} is not needed"


def test_the_tester_answers_as_the_relation(monkeypatch):
    """Every sat/unsat question the explanations ask a tester (the part, or one restriction's
    slice: solvers apart from the ones giving cores) has the relation's solver's answer, on
    every worked example."""
    asked, testers, solve, tester = [], [], Run.solve, explain.tester

    def kept(rel, rid=None):
        testers.append((rid, tester(rel, rid)))
        return testers[-1][1]

    def both(self, extra, own=None):
        result = solve(self, extra, own)
        if any(own is t for _, t in testers):
            asked.append((result, solve(self, extra)))
        return result
    monkeypatch.setattr(explain, "tester", kept)
    monkeypatch.setattr(Run, "solve", both)
    for path in EXAMPLES:
        _facts(path)
    assert asked and {str(a) for a, _ in asked} == {"sat", "unsat"}
    assert {rid is None for rid, _ in testers} == {True, False}   # the part's and slices'
    assert all(a == b for a, b in asked)


def test_every_witness_is_a_model_of_the_relation(monkeypatch):
    """Each "sat" an explanation takes from a concrete step of the compiled relation
    (checking.witness) instead of a query is the relation's solver's answer: a deletion's trial
    without the fact dropped (here with every other fact of the step kept, a stronger query), and a
    window where the timing gate is closed to the effect activated; on every worked example."""
    shown, sat, closed = [], Witness.sat, Witness.closed

    def checked_sat(self, rid, dropped):
        got = sat(self, rid, dropped)
        if got:
            run = self.run
            pre, acts = run.assumptions(run.current_act)
            rest = [t for t in pre + acts if t.get_id() != dropped.get_id()]
            shown.append(("trial", run.solve(list(run.rel.lits.values()) + [run.rel.rlits[rid]] + rest)))
        return got

    def checked_closed(self, window):
        got = closed(self, window)
        if got:
            run, ctx = self.run, self.run.ctx
            fixed = list(run.rel.lits.values()) + [t for t, _ in run.statics] + [
                ctx.act.eff == run.current_act["eff"], ctx.act.kind == A["activate"], ctx.pre.window == window,
                z3.Not(ctx.grant("timing"))]
            shown.append(("window", run.solve(fixed)))
        return got
    monkeypatch.setattr(Witness, "sat", checked_sat)
    monkeypatch.setattr(Witness, "closed", checked_closed)
    for path in EXAMPLES:
        _facts(path)
    assert {kind for kind, _ in shown} == {"trial", "window"}
    assert all(result == z3.sat for _, result in shown), shown


def test_a_timing_row_settled_by_the_statics_is_the_relations_answer(monkeypatch):
    """The timing hint's rows (`Explainer.implied`: do the play's statics imply that the row is
    about the effect?), answered by simplification where the statics settle them, agree with
    the relation's solver, on every worked example."""
    asked, implied = [], explain.Explainer.implied

    def checked(self, statics, term):
        got = implied(self, statics, term)
        asked.append((got, self.run.solve(statics + [z3.Not(term)]) == z3.unsat))
        return got
    monkeypatch.setattr(explain.Explainer, "implied", checked)
    for path in EXAMPLES:
        _facts(path)
    assert {got for got, _ in asked} == {True, False}
    assert all(got == want for got, want in asked), asked


def test_only_a_cards_own_variables_come_from_its_set_up_line():
    # a player's variables (LP, battle damage, Damage Diet's halvings) and an effect's are indexed
    # too: "halved[1]" is player B's, not the second set-up card's
    play = load(str(FIXTURES / "effects" / "tasuke-knight-used-earlier-in-the-duel-illegal.play"))
    run = Run(play, play.ruleset, play_cards(play), 60_000, 500_000_000)
    setup = run.line_of.setup
    bewd, tk = (c.line for c in play.cards)
    assert setup["loc[0]"] == ("set-up", bewd) and setup["faceup[1]"] == ("set-up", tk)
    assert setup["used[0]"] == ("set-up", tk)   # `used 1` on Tasuke Knight's line (its one effect)
    for name in ("halved[1]", "eff_halved[1]", "bdc[1]", "bd[1]", "lp[1]", "trig[0]", "link_eff[0]"):
        assert setup[name] == ("set-up", None), name

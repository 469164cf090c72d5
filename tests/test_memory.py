"""The process's memory budget (model/memory.py): past it, the kept relations are let go."""
from ygo_timing.model import compiled, memory, step


def test_relations_kept_under_the_budget_and_let_go_past_it(monkeypatch):
    monkeypatch.setattr(memory, "_limit", 4096)
    step.solver_relation("ocg", 4, 4)
    compiled.evaluator("ocg", 4, 4)
    monkeypatch.setattr(memory, "resident_mb", lambda: 1000)
    assert not memory.relieve()
    assert step.solver_relation.cache_info().currsize and compiled._loaded
    sizes = iter([9000, 2000])   # past the budget; what is left after letting go
    monkeypatch.setattr(memory, "resident_mb", lambda: next(sizes))
    assert memory.relieve()
    assert not step.solver_relation.cache_info().currsize and not step.relation.cache_info().currsize
    assert not compiled._loaded
    # the next relief waits for half a budget more than what was left, not for the budget again
    assert memory._limit == max(memory.BUDGET_MB, 2000 + memory.BUDGET_MB // 2)
    # a relation let go is read back when asked again
    assert isinstance(step.solver_relation("ocg", 4, 4), step.LoadedRelation)


def test_no_budget_without_a_reading(monkeypatch):
    monkeypatch.setattr(memory, "resident_mb", lambda: 0)   # not Linux: nothing to compare
    monkeypatch.setattr(memory, "_limit", 4096)
    assert not memory.relieve()

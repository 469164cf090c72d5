"""The process's memory budget (model/memory.py): past it, the kept relations are let go."""
import pytest
from click.testing import CliRunner
from ygo_timing.cli.main import main
from ygo_timing.model import compiled, memory, step


@pytest.fixture
def budget(monkeypatch):
    """The default budget, as if this process had not been relieved yet."""
    monkeypatch.delenv("YGO_TIMING_MEMORY_MB", raising=False)
    monkeypatch.setattr(memory, "_limit", None)


def test_relations_kept_under_the_budget_and_let_go_past_it(budget, monkeypatch):
    step.solver_relation("ocg", 4, 4)
    compiled.evaluator("ocg", 4, 4)
    monkeypatch.setattr(memory, "resident_mb", lambda: 1000)
    assert not memory.relieve()
    assert step.solver_relation.cache_info().currsize and compiled._loaded
    sizes = iter([9000, 3000])   # past the budget; what is left after letting go
    monkeypatch.setattr(memory, "resident_mb", lambda: next(sizes))
    assert memory.relieve()
    assert not step.solver_relation.cache_info().currsize and not step.relation.cache_info().currsize
    assert not compiled._loaded
    # the next relief waits for half a budget more than what was left, not for the budget again
    assert memory._limit == 3000 + memory.DEFAULT_MB // 2
    monkeypatch.setattr(memory, "resident_mb", lambda: 3000 + memory.DEFAULT_MB // 2)
    assert not memory.relieve()
    # a relation let go is read back when asked again
    assert isinstance(step.solver_relation("ocg", 4, 4), step.LoadedRelation)


def test_a_budget_of_0_is_none(budget, monkeypatch):
    monkeypatch.setenv("YGO_TIMING_MEMORY_MB", "0")
    monkeypatch.setattr(memory, "resident_mb", lambda: 100_000)
    step.solver_relation("ocg", 4, 4)
    assert not memory.relieve() and step.solver_relation.cache_info().currsize


@pytest.mark.parametrize("value", ["abc", "-1", "4.5", "4 GB"])
def test_a_bad_budget_is_said_not_defaulted(budget, monkeypatch, value):
    monkeypatch.setenv("YGO_TIMING_MEMORY_MB", value)
    with pytest.raises(ValueError, match="YGO_TIMING_MEMORY_MB: expected a whole number of MB"):
        memory.relieve()
    result = CliRunner().invoke(main, ["check", "--examples"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "YGO_TIMING_MEMORY_MB: expected a whole number of MB (0: no budget)" in result.output

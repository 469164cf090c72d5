"""The rules as declared: one ID in one module, one short statement each, declared update priority
and counterparts, and the rulebook's queries on them."""
import random
import re
from pathlib import Path

from ygo_timing.model import rulebook, rulesets
from ygo_timing.model.rules import RULES
from ygo_timing.model.step import StepRelation

LONG = {"DS-1", "DS-T1"}   # they transcribe one source paragraph whole


def test_each_rule_id_is_in_one_module():
    modules = {}
    for r in RULES:
        modules.setdefault(r.id, set()).add(r.family)
    assert {rid: m for rid, m in modules.items() if len(m) > 1} == {}


def test_no_rule_module_reads_another_modules_rule_literal():
    # a rule's behaviour elsewhere is read through a gate it grants (ctx.grant), not its literal
    here = Path(rulebook.__file__).parent / "rules"
    own = {r.family: set() for r in RULES}
    for r in RULES:
        own[r.family].add(r.id)
    for path in here.glob("*.py"):
        read = set(re.findall(r'ctx\.lit\("([^"]+)"\)', path.read_text("utf-8")))
        assert read <= own.get(path.stem, set()), (path.name, read - own.get(path.stem, set()))


def test_statements_are_short_and_each_rule_has_one_declaration():
    for rid, info in rulebook.rule_info().items():
        assert info["statement"], rid
        assert rid in LONG or len(info["statement"]) <= 250, (rid, len(info["statement"]))
        assert sum(1 for r in RULES if r.id == rid and r.statement) == 1, rid


def test_the_tools_own_rules_have_machine_names_and_sources():
    names = [r.name for r in RULES if r.statement and r.name]
    assert len(names) == len(set(names))
    for r in RULES:
        if r.id.startswith("GEN-") and r.statement:
            assert re.fullmatch(r"[a-z]+\.[a-z]+", r.name), r.id
            assert r.sources, r.id
    assert rulebook.resolve("timing.window") == "GEN-6" and rulebook.resolve("gen-6") == "GEN-6"


def test_split_rules_are_retired_and_point_at_their_parts():
    ids = {r.id for r in RULES}
    for old, new in rulebook.RETIRED.items():
        assert old not in ids and set(new) <= ids
        assert rulebook.suggestions(old) == list(new)
    for name in rulesets.NAMES:
        assert not set(rulebook.RETIRED) & set(rulesets.load(name).rules)


def test_every_update_declares_its_priority():
    assert [r.id for r in RULES if r.shape == "update" and r.priority is None] == []


def _update_order(rel):
    return {name: [rid for rid, _ in causes] for name, causes in rel.causes.items()}


def test_registration_order_does_not_change_update_priority():
    # the rules register in import order; shuffling them stands for any import order
    rs = rulesets.load("ocg")
    before = _update_order(StepRelation(rs, 4, 4))
    saved = list(RULES)
    try:
        random.Random(11).shuffle(RULES)
        after = _update_order(StepRelation(rs, 4, 4))
    finally:
        RULES[:] = saved
    assert after == before
    # and the overrides the priorities are there for
    # (the one GEN-15 cause before AB-1's is the settled return at the End Step, which a step
    # applies over the others: step.py; then AB-1's freeze, then GEN-15's resolutions)
    atk = before["atk[0]"]
    assert atk[:atk.index("AB-1")] == ["GEN-15"] and atk.count("GEN-15") > 1
    assert before["faceup[0]"].index("D2-5") < before["faceup[0]"].index("GEN-15")
    assert before["trig[0]"].index("GEN-8") < before["trig[0]"].index("GEN-7")
    assert before["prio"].index("PR-2") < before["prio"].index("CH-3")


def test_counterparts_are_declared_on_rules_of_the_other_set():
    ocg, tcg = (set(rulesets.load(n).rules) for n in ("ocg", "tcg"))
    assert rulebook.counterparts("DS-1") == {"DS-T1"} and rulebook.counterparts("DS-T1") == {"DS-1"}
    assert rulebook.counterparts("T4") >= {"D3-1", "D3-2", "D3-3", "D3-4", "D3-5"}
    for r in RULES:
        for c in r.counterparts:
            assert (r.id in ocg - tcg and c in tcg) or (r.id in tcg - ocg and c in ocg), (r.id, c)


def test_hints_are_declared_on_rules():
    assert rulebook.hints(["GEN-6"]) == {"windows"} and rulebook.hints(["GEN-5", "CH-1"]) == set()

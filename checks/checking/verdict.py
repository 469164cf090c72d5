"""What a check answers: the verdict on one play, and the solver's default limits per query."""
from __future__ import annotations

from dataclasses import dataclass, field

DEFAULT_TIMEOUT_MS = 20_000
DEFAULT_RLIMIT = 50_000_000


@dataclass
class Verdict:
    path: str
    ruleset: str
    verdict: str                      # legal | illegal | error | unknown
    first_illegal: dict | None = None  # {index, line, action}
    reason: str = ""                  # for an illegal play: why, in one sentence (checking/wording.py)
    violations: list = field(default_factory=list)  # [{rule, statement, sources}]
    facts: list = field(default_factory=list)
    message: str | None = None
    expect: str | None = None
    expect_rules: list = field(default_factory=list)
    steps: int = 0
    record: int | None = None         # the line of a JSON Lines record (check --jsonl)
    not_modelled: list = field(default_factory=list)  # card text the verdict does not weigh (checking/caveats.py)

    def to_dict(self):
        d = {"path": self.path, "ruleset": self.ruleset, "verdict": self.verdict}
        if self.record is not None:
            d["record"] = self.record
        if self.verdict == "illegal":
            d.update(first_illegal=self.first_illegal, reason=self.reason, violations=self.violations,
                     facts=self.facts)
        if self.not_modelled and self.verdict in ("legal", "illegal"):
            d["not_modelled"] = self.not_modelled
        if self.message:
            d["message"] = self.message
        if self.expect:
            d["expect"] = self.expect
            d["matches_expect"] = self.matches_expect()
        return d

    def matches_expect(self) -> bool:
        if self.expect is None:
            return True
        if self.verdict != self.expect:
            return False
        found = {v["rule"] for v in self.violations}
        return set(self.expect_rules) <= found

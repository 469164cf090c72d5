"""A deadline for a whole play: catalogue, relation building, stepping and explaining.

`--timeout` and `--rlimit` bound each solver query; a play makes many queries (one per step,
several per explanation) and builds its relation first, so only a deadline over all of it
bounds the time one play can take. Past it the verdict is `unknown` (exit 3), never a guess.
"""
from __future__ import annotations

import time

DEFAULT_DEADLINE_S = 120.0


class DeadlineExceeded(Exception):
    """The play's deadline passed; `where` says what was being done."""

    def __init__(self, seconds: float, where: str):
        super().__init__(seconds, where)
        self.seconds, self.where = seconds, where

    def __str__(self) -> str:
        return f"the play's deadline of {self.seconds:g} s passed while {self.where}"


class Deadline:
    def __init__(self, seconds: float | None):
        self.seconds = seconds
        self.end = None if seconds is None else time.monotonic() + seconds

    def check(self, where: str):
        if self.end is not None and time.monotonic() > self.end:
            raise DeadlineExceeded(self.seconds, where)

    def clamp_ms(self, timeout_ms: int) -> int:
        """A query's time limit, no later than the deadline (at least 1 ms: z3 reads 0 as none)."""
        if self.end is None:
            return timeout_ms
        return max(1, min(timeout_ms, int((self.end - time.monotonic()) * 1000)))

"""A progress bar on standard error, shown only when standard error is a terminal.

click's own progress bar draws it (click is a dependency already, and its bar redraws in
place, estimates the time left and hides itself on a non-terminal); this wrapper adds what the
commands need around it: nothing at all unless stderr is a terminal (so CI logs and pipes get
no bar, not even a label), a total learnt from the first report, and lines printed to stdout
while the bar is up (`echo`) that do not get mixed with it.

Long computations report through a plain callback `progress(done, total)`, so that the modules
that compute know nothing of terminals.
"""
from __future__ import annotations

import sys
from typing import Any

import click


class Progress:
    def __init__(self, label: str, enabled: bool = True):
        self.label = label
        self.enabled = enabled and _isatty(sys.stderr)
        self.bar: Any = None

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        if self.bar is None:
            self.bar = click.progressbar(length=max(total, 1), label=self.label, file=sys.stderr,
                                         show_pos=True)
            self.bar.__enter__()
        self.bar.length = max(total, 1)
        self.bar.update(max(0, done - self.bar.pos))

    def echo(self, text: str) -> None:
        """Print a line to stdout; the bar, when up, is cleared first and drawn again after it."""
        if self.bar is not None and _isatty(sys.stdout):
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
        click.echo(text)
        if self.bar is not None:
            self.bar.render_progress()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False

"""pytest plugin (entry point `ygo_timing`): play files as tests, when asked.

Installed with the package, and off until a project asks, like pytest-ruff: `pytest
--ygo-timing` (or `addopts = --ygo-timing`) collects play files wherever pytest looks;
the ini option `ygo_timing_paths` collects those under the paths it names, and has pytest
look there even when `testpaths` does not. Otherwise the plugin adds nothing: no option
is read, nothing is collected, nothing is imported.

A file whose name matches one of the `ygo_timing_patterns` (default `*.play`) becomes one
test item. The item passes when the play's verdict matches its `expect:` line (verdict and
cited rule IDs); a play without `expect:` passes only when legal. A failure prints the verdict
as `ygo-timing check` does. A file that cannot be checked (bad input, or the solver gave up) is
an error, not a failure, reported at its file and line. `-p no:ygo_timing` unloads the plugin.

z3 and the checker are imported only when a play is checked, so that merely having the
package installed costs other test suites nothing.
"""
from __future__ import annotations

from fnmatch import fnmatch
from pathlib import Path

import pytest

DEFAULT_PATTERNS = ["*.play"]


def pytest_addoption(parser):
    group = parser.getgroup("ygo-timing", "ygo-timing play files")
    group.addoption("--ygo-timing", dest="ygo_timing", action="store_true", default=False,
                    help="collect play files (ygo_timing_patterns) as tests, checked by ygo-timing")
    group.addoption("--ygo-timing-ruleset", dest="ygo_timing_ruleset", default=None,
                    help="check every play under this rule set (ocg|tcg; default: the play's own, else ocg)")
    parser.addini("ygo_timing_paths", type="paths", default=[],
                  help="play files under these paths (relative to the ini file) are tests, without "
                       "--ygo-timing; pytest collects there even when testpaths does not say so")
    parser.addini("ygo_timing_patterns", type="args", default=DEFAULT_PATTERNS,
                  help="glob patterns of play files to collect (default: *.play); a pattern without / "
                       "matches the file name, one with / the end of the path (e.g. plays/*.json)")
    parser.addini("ygo_timing_ruleset", default="",
                  help="rule set for every play (ocg|tcg; default: the play's own, else ocg)")
    parser.addini("ygo_timing_cards", type="paths", default=[],
                  help="card catalogue files adding or overriding cards (paths relative to the ini file)")
    parser.addini("ygo_timing_timeout", default="",
                  help="solver time limit per query, in seconds (e.g. 20, 2.5 or 500ms), as check --timeout")


class Settings:
    def __init__(self, config, roots):
        from ygo_timing.model import rulesets
        self.roots = roots   # None: wherever pytest collects (--ygo-timing); else under these paths only
        self.patterns = config.getini("ygo_timing_patterns")
        self.ruleset = config.getoption("ygo_timing_ruleset") or config.getini("ygo_timing_ruleset") or None
        if self.ruleset is not None and self.ruleset not in rulesets.NAMES:
            raise pytest.UsageError(f"ygo-timing: rule set {self.ruleset!r}; expected one of: "
                                    f"{', '.join(rulesets.NAMES)}")
        self.cards = [str(p) for p in config.getini("ygo_timing_cards")]
        raw = config.getini("ygo_timing_timeout").strip()
        self.timeout_ms = None
        if raw:
            from ygo_timing.cli import settings
            try:
                self.timeout_ms = settings.timeout_ms(settings.parse_seconds(raw, settings.PER_QUERY_MAX_S,
                                                                             old_ms=True))
            except ValueError as e:
                raise pytest.UsageError(f"ygo-timing: ygo_timing_timeout = {raw!r}: {e}") from None

    def matches(self, path: Path) -> bool:
        if self.roots is not None and not any(path == r or r in path.parents for r in self.roots):
            return False
        return any(path.match(p) if "/" in p else fnmatch(path.name, p) for p in self.patterns)


_SETTINGS = pytest.StashKey[Settings]()


def pytest_configure(config):
    paths = [Path(p).resolve() for p in config.getini("ygo_timing_paths")]
    if not config.getoption("ygo_timing") and not paths:
        return   # not asked for: no effect at all on the project
    config.stash[_SETTINGS] = Settings(config, None if config.getoption("ygo_timing") else paths)
    if paths and config.args_source != pytest.Config.ArgsSource.ARGS:
        # testpaths (or the working directory) may not reach the play files: have pytest look
        # there too. Paths named on the command line are the user's choice and stay as they are.
        base = config.rootpath if config.args_source == pytest.Config.ArgsSource.TESTPATHS \
            else config.invocation_params.dir
        searched = [(base / a).resolve() for a in config.args]
        config.args += [str(p) for p in paths
                        if p.exists() and not any(p == s or s in p.parents for s in searched)]


def pytest_collect_file(file_path: Path, parent):
    settings = parent.config.stash.get(_SETTINGS, None)
    if settings is None or not settings.matches(file_path):
        return None
    from ygo_timing.inputs.files import is_catalogue
    if is_catalogue(file_path):   # a pattern such as *.json also meets card catalogues
        return None
    return PlayFile.from_parent(parent, path=file_path)


class PlayFile(pytest.File):
    def collect(self):
        yield PlayItem.from_parent(self, name="check")


class PlayItem(pytest.Item):
    verdict = None

    def setup(self):
        """Checking is the set-up; a play that cannot be checked errors here, as exit 2/3 of `check`."""
        from ygo_timing.checking.check import check_play
        from ygo_timing.checking.verdict import DEFAULT_TIMEOUT_MS, Verdict
        from ygo_timing.inputs.play import PlayError, load
        s = self.config.stash[_SETTINGS]
        shown = self.shown_path()
        try:
            play = load(str(self.path))
        except PlayError as e:
            self.verdict = Verdict(shown, s.ruleset or "ocg", "error", message=str(PlayError(shown, e.line, e.message)))
        else:
            play.path = shown
            self.verdict = check_play(play, s.ruleset, s.cards, s.timeout_ms or DEFAULT_TIMEOUT_MS)
        self.user_properties.append(("verdict", self.verdict.verdict))
        if self.verdict.verdict in ("error", "unknown"):
            from ygo_timing.output.ci_formats import message_location
            line, msg = message_location(self.verdict)
            pytest.fail(f"{self.verdict.path}{f':{line}' if line else ''}: could not be checked: {msg}",
                        pytrace=False)

    def runtest(self):
        from ygo_timing.output.ci_formats import failed
        v = self.verdict
        if failed(v):
            pytest.fail(self.explain(
                f"{v.verdict.upper()}, expected {v.expect.upper()}" if v.expect and v.expect != v.verdict
                else f"ILLEGAL, expected ILLEGAL citing {' '.join(v.expect_rules)}" if v.expect
                else "ILLEGAL; a play without an `expect:` line must be legal"), pytrace=False)

    def explain(self, why: str) -> str:
        """`path:line: why`, then the verdict as `ygo-timing check` prints it."""
        from ygo_timing.output import report
        from ygo_timing.output.ci_formats import findings
        v = self.verdict
        first = next((f for f in findings(v) if f[0] == "error"), None)
        line = f":{first[2]}" if first and first[2] else ""
        return f"{v.path}{line}: {why}\n{report.text([v])}"

    def shown_path(self) -> str:
        """The file as the user named the run: relative to where pytest was started, when inside it."""
        try:
            return str(self.path.relative_to(self.config.invocation_params.dir))
        except ValueError:
            return str(self.path)

    def reportinfo(self):
        return self.path, None, f"play {self.path.name}"

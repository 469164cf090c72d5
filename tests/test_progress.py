"""Streaming, progress and verbosity: a long run shows its results as they come, a bar on a
terminal only, and -q / -v say less or more."""
import os
import pty
import subprocess
import sys
import threading

import cardpool
from click.testing import CliRunner
from conftest import FIXTURES
from ygo_timing.cli.main import main, usable_cpus

EX = FIXTURES / "examples"
LEGAL = (EX / "ex1-legal.play").read_text("utf-8")       # expects legal: passes
ILLEGAL = (EX / "ex1-illegal.play").read_text("utf-8")   # expects illegal T4: passes
COMMAND = [sys.executable, "-m", "ygo_timing"]


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def test_each_play_is_printed_before_the_next_one_is_checked(tmp_path, monkeypatch):
    """The batch yields the first verdict and is only then asked for the second: by that time
    the first verdict must be on standard output. (Play paths must be regular files, so a FIFO
    cannot hold the second play back; the batch seam is held back instead.)"""
    import sys as _sys

    from ygo_timing.checking import batch
    (tmp_path / "a.play").write_text(LEGAL)
    (tmp_path / "b.play").write_text(ILLEGAL)
    real = batch.ordered_map
    seen_before_second = []

    def held_back(fn, items, jobs=1, chunk=batch.CHUNK):
        results = real(fn, items, jobs, chunk)
        yield next(results)
        _sys.stdout.flush()
        seen_before_second.append(_sys.stdout.buffer.getvalue().decode())
        yield from results

    monkeypatch.setattr(batch, "ordered_map", held_back)
    for jobs in ("1", "2"):
        seen_before_second.clear()
        r = run("check", "--jobs", jobs, tmp_path / "a.play", tmp_path / "b.play")
        assert r.exit_code == 0, r.output
        assert seen_before_second[0].startswith(f"{tmp_path / 'a.play'}: LEGAL under tcg")
        assert "b.play" not in seen_before_second[0]
        assert f"{tmp_path / 'b.play'}: ILLEGAL under tcg (as expected)" in r.output


def test_a_progress_bar_on_a_terminal_only(tmp_path):
    files = [tmp_path / "a.play", tmp_path / "b.play"]
    files[0].write_text(LEGAL)
    files[1].write_text(ILLEGAL)
    piped = subprocess.run([*COMMAND, "check", "--jobs", "1", *files], capture_output=True, text=True)
    assert piped.returncode == 0 and piped.stderr == ""   # no bar, no label, in a pipe or a log
    master, slave = pty.openpty()
    try:
        p = subprocess.Popen([*COMMAND, "check", "--jobs", "1", *files], stdout=subprocess.PIPE, stderr=slave)
        os.close(slave)
        seen = []
        reader = threading.Thread(target=lambda: seen.extend(_read_all(master)))
        reader.start()
        out, _ = p.communicate(timeout=240)
        reader.join(30)
    finally:
        os.close(master)
    bar = b"".join(seen).decode()
    assert "checking" in bar and "2/2" in bar and p.returncode == 0
    assert out.decode().count("(as expected)") == 2   # stdout holds the verdicts only
    quiet = _tty_stderr([*COMMAND, "check", "-q", "--jobs", "1", *files])
    assert "checking" not in quiet


def _read_all(fd):
    while True:
        try:
            data = os.read(fd, 4096)
        except OSError:   # the other end closed
            return
        if not data:
            return
        yield data


def _tty_stderr(cmd):
    master, slave = pty.openpty()
    try:
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=slave)
        os.close(slave)
        seen = []
        reader = threading.Thread(target=lambda: seen.extend(_read_all(master)))
        reader.start()
        p.wait(timeout=240)
        reader.join(30)
    finally:
        os.close(master)
    return b"".join(seen).decode()


def test_quiet_prints_only_failing_plays_and_verbose_adds_a_summary(tmp_path):
    (tmp_path / "pass.play").write_text(LEGAL)
    (tmp_path / "fail.play").write_text(ILLEGAL.replace("expect: illegal T4\n", ""))
    quiet = run("check", "-q", "--jobs", "1", tmp_path)
    assert quiet.exit_code == 1
    heads = [line for line in quiet.output.splitlines() if not line.startswith(" ")]
    assert heads == [f"{tmp_path / 'fail.play'}: ILLEGAL under tcg"]
    verbose = subprocess.run([*COMMAND, "check", "-v", "--jobs", "1", tmp_path], capture_output=True, text=True)
    assert "pass.play: LEGAL" in verbose.stdout and "fail.play: ILLEGAL" in verbose.stdout
    assert verbose.stderr.startswith("2 play(s): 1 passed, 1 failed, 0 could not be checked (bad input), "
                                     "0 without a verdict (solver unknown), in ")


def test_jobs_default_to_the_usable_cpus():
    assert usable_cpus() == len(os.sched_getaffinity(0))
    assert "[default: (the CPUs this process may use); 1<=x<=256]" in " ".join(run("check", "--help").output.split())


def test_long_computations_report_progress_in_order(tmp_path):
    from ygo_timing.cards import importer
    from ygo_timing.symbolic import audit, consistency, diff
    from ygo_timing.symbolic.scenarios import SCENARIOS

    def recorder():
        seen = []
        return seen, lambda done, total: seen.append((done, total))

    seen, report = recorder()
    diff.diff("tcg", "ocg", 2, 120, scenarios=SCENARIOS[:1], progress=report)
    assert seen == [(1, 2), (2, 2)]
    seen, report = recorder()
    consistency.consistency("tcg", 1, 120, scenarios=SCENARIOS[:2], progress=report)
    assert seen == [(1, 2), (2, 2)]
    cdb, scripts = cardpool.build(tmp_path)
    seen, report = recorder()
    imported = importer.import_pool(str(cdb), str(scripts), report)
    assert seen and seen[0][0] == 0 and all(t == seen[0][1] for _, t in seen)
    seen, report = recorder()
    audit.audit(imported, "tcg", report)
    assert seen and seen[0] == (0, len(imported.records))


def test_ablate_reports_each_rule():
    from ygo_timing.checking.ablate import load_bearing
    from ygo_timing.inputs.play import load
    seen = []
    plays = [load(str(EX / "ex1-illegal.play"))]
    # two processes (as CI runs it): the answers still come back in the rules' order
    found = load_bearing(plays, ["T4", "DS-T1"], lambda done, total: seen.append((done, total)), jobs=2)
    assert seen == [(0, 2), (1, 2)]
    assert found == load_bearing(plays, ["T4", "DS-T1"])   # each rule's answer, as one process finds it


def test_ablate_answers_each_rule_whatever_is_searched_first():
    """The rules searched first (CI: those docs/interpretations.md expects to flip nothing) get
    the answers they get in any order: one rule that flips this fixture, one that does not."""
    from ygo_timing.checking.ablate import load_bearing
    from ygo_timing.inputs.play import load
    plays = [load(str(EX.parent / "effects" / "equip-tyrant-wing-face-down-illegal.play"))]
    found = load_bearing(plays, ["GEN-20", "DS-T1"], first={"DS-T1"})
    assert found["GEN-20"] is not None and found["DS-T1"] is None
    assert found["GEN-20"][1:] == ("illegal", "legal")

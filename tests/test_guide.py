"""docs/guide.md's examples are the tool's real output: every fenced block that starts with
`$ ygo-timing ...` is run (in a directory holding the blocks marked `<!-- file: NAME ... -->`)
and its output must be the rest of the block."""
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner
from ygo_timing.cli.main import main

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "guide.md"
FILE = re.compile(r"<!-- file: (\S+).*?-->\n```\n(.*?)```", re.DOTALL)
COMMAND = re.compile(r"```\n\$ ygo-timing (.*?)\n(.*?)```", re.DOTALL)


def examples():
    text = GUIDE.read_text("utf-8")
    return dict(FILE.findall(text)), COMMAND.findall(text)


def test_the_guide_has_examples():
    files, commands = examples()
    assert files and commands


@pytest.mark.parametrize("command,expected", examples()[1], ids=lambda x: x.split("\n")[0][:40])
def test_guide_example_is_the_real_output(command, expected, tmp_path, monkeypatch):
    files, _ = examples()
    for name, body in files.items():
        (tmp_path / name).write_text(body, "utf-8")
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, shlex.split(command))
    assert r.output == expected, f"docs/guide.md is out of date for `ygo-timing {command}`:\n{r.output}"

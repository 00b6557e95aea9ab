"""``deathzap`` with no arguments opens the start screen without building the
subcommands' parsers: none of the other command modules is imported (issue 21, the
start screen's first frame)."""

from __future__ import annotations

import subprocess
import sys

from subprocess_env import child_env

CHILD = """
import sys
from deathzap_tui import cli
from deathzap_tui.app.app import DeathzapApp
DeathzapApp.run = lambda self, **kw: None  # no terminal: the app is made, not run
assert cli.main([]) == 0
print(sorted(m for m in sys.modules if m.startswith("deathzap_tui.commands.")))
"""


def test_no_arguments_imports_only_the_start_command() -> None:
    out = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True,
                         env=child_env(), timeout=60, check=True).stdout
    assert out.strip() == "['deathzap_tui.commands.start']"

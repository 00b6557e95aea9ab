"""``deathzap`` with no arguments opens the start screen without importing any other
command's module (issue 21, the start screen's first frame; the dispatcher loads a
subcommand's module only when it is chosen, ``commands/subparsers.py``)."""

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
print(sorted(m for m in sys.modules if m.startswith("deathzap_tui.commands.")
             and m != "deathzap_tui.commands.subparsers"))
"""


def test_no_arguments_imports_only_the_start_command() -> None:
    out = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True,
                         env=child_env(), timeout=60, check=True).stdout
    assert out.strip() == "['deathzap_tui.commands.start']"

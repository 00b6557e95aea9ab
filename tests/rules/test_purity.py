"""The rules package is pure: no textual, no rich (architecture: rules/)."""

from __future__ import annotations

import subprocess
import sys

CODE = """
import importlib, pkgutil, sys
import deathzap_tui.rules as rules
for m in pkgutil.walk_packages(rules.__path__, 'deathzap_tui.rules.'):
    try:
        importlib.import_module(m.name)
    except ModuleNotFoundError as exc:  # a sibling module not written yet
        if not exc.name.startswith('deathzap_tui'):
            raise
import deathzap_tui.rules.deathzap3.engine, deathzap_tui.rules.deathzap3.view
import deathzap_tui.rules.deathzap3.help, deathzap_tui.rules.deathzap3.state
bad = sorted(n for n in sys.modules if n.split('.')[0] in ('textual', 'rich'))
print(bad)
sys.exit(1 if bad else 0)
"""


def test_rules_import_neither_textual_nor_rich() -> None:
    out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True,
                         check=False)
    assert out.returncode == 0, out.stdout + out.stderr

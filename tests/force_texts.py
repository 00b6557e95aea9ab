"""The "Test Force" TOML text shared by the force-file tests (forcefile, odds CLI).

``force_text(unit_text(...), ...)`` lays a force out line by line, so a test that
checks a line number can count them: the name and weapons take lines 1-11
(small-arms ``shots`` is line 4), then a blank line before each unit, and each unit
takes 8 lines before its figures (``name`` is its 2nd line, ``move`` its 4th,
``shields`` its 7th), one line per figure, then ``]``.
"""

from __future__ import annotations

WEAPONS = '''\
name = "Test Force"

[weapons.small-arms]
shots = 1
power = "light"

[weapons.destroyer]
profiles = [
  { name = "Strike", shots = 1, power = "heavy", rules = ["strike"] },
  { name = "Spread", shots = 2, power = "light" },
]
'''


def unit_text(name: str, *figures: str, skill: str = "basic", move: int = 6,
              shield_strength: str = "light", shields: int = 6,
              vehicle: bool = False) -> str:
    """One ``[[units]]`` table; each figure is a TOML inline table without braces."""
    lines = ["[[units]]", f'name = "{name}"', f'skill = "{skill}"', f"move = {move}",
             "melee_attacks = 1", f'shield_strength = "{shield_strength}"',
             f"shields = {shields}"]
    if vehicle:
        lines.append("vehicle = true")
    lines += ["figures = [", *(f"  {{ {figure} }}," for figure in figures), "]"]
    return "\n".join(lines) + "\n"


def force_text(*units: str) -> str:
    """The Test Force's name and weapons, then the units, a blank line before each."""
    return WEAPONS + "".join("\n" + unit for unit in units)

"""Starting texts for a unit typed in by hand (quick resolve).

Each template is a whole force file in its ruleset's TOML shape (README "Force
files"): one weapon and one unit, small enough to edit in a text area at 80x24.
They live in the app, not in ``rules/``, because they are only a convenience for
typing; every one must parse without problems (``tests/app/test_templates.py``).
A ruleset without a template here gets :func:`fallback`.
"""

from __future__ import annotations

TEMPLATES: dict[str, str] = {
    "deathzap3": """\
name = "Typed force"
ruleset = "deathzap3"

[weapons.gun]
shots = 1
power = "light"        # light | medium | heavy

[[units]]
name = "Typed unit"
skill = "regular"      # basic | regular | elite
move = 6
melee_attacks = 1
shield_strength = "light"
shields = 6
figures = [ { name = "Trooper", count = 5, weapons = ["gun"] } ]
""",
    "command-hand": """\
name = "Typed force"
ruleset = "command-hand"
command_rating = 3

[weapons.gun]
shots_near = 1
shots_far = 1          # 0 = cannot reach beyond 12"
to_damage = { open = 4, soft = 5, hard = 6 }

[[units]]
name = "Typed unit"
run = 8
walk = 4
melee_attacks = 1
melee_damage = 4
shields = 3
recharge = 1
figures = [ { name = "Trooper", count = 4, weapons = ["gun"] } ]
""",
    "classic": """\
name = "Typed force"
ruleset = "classic"

[[units]]
name = "Typed unit"
type = "infantry"      # infantry | heavy-infantry | beasts | big-beasts
                       # | light-vehicles | vehicles | monsters
figures = [            # guns: basic | advanced | auto-heavy | heavy | radius
  { name = "Sergeant", weapons = ["basic"], general = true },
  { name = "Trooper", count = 4, weapons = ["basic"] },
]
""",
}
"""Ruleset id -> a valid force text with one weapon and one unit."""


def fallback(ruleset_id: str) -> str:
    """A minimal start for a ruleset without a template: its problems say the rest."""
    return f'name = "Typed force"\nruleset = "{ruleset_id}"\n'


def template(ruleset_id: str) -> str:
    """The starting text for typing a unit of ``ruleset_id``."""
    return TEMPLATES.get(ruleset_id) or fallback(ruleset_id)

"""Deathzap Plasmashok's own ``deathzap odds`` flags and the odds from bare numbers
(``Ruleset.odds_arguments`` / ``Ruleset.odds_numbers``). Pure stdlib, no I/O.

:mod:`.odds` does the sums; this module reads the flags and says what they mean.
"""

from __future__ import annotations

import argparse

from deathzap_tui.rules.odds import Odds, at_most, flag, need
from deathzap_tui.rules.plasmashok import odds as O
from deathzap_tui.rules.plasmashok import tables
from deathzap_tui.rules.plasmashok.oddsmath import Group
from deathzap_tui.rules.validation import MAX_MODELS_PER_UNIT, MAX_NUMBER

USAGE = """\
deathzap odds --ruleset plasmashok --shots 12 --strength 2 --damage 1 --defence 4 \\
              --size 6 --save 5 [--models 6] [--wounds-per-model 1]
deathzap odds --ruleset plasmashok --special 2 --special-defence 1

Shooting or melee (PS §5, §6), one weapon group: --shots attack dice in all; the
target rolls --defence dice (its type's defence + cover + range, or + size in melee)
and every attack die showing one of their faces is blocked; each unblocked die rolls
--strength dice, the target rolls --size dice and every strength die matching one of
them deals --damage points; one shield save per point at --save+ (7: no save).
Special combat (PS §4): --special dice against --special-defence + 2 dice, each
attack die whose face the defender does not show is a wound."""

SHOOTING = ("shots", "strength", "damage", "defence", "size", "save")
MAX_DEFENCE = max(t.defence for t in tables.TYPES.values()) + max(
    max(tables.COVER_DICE.values()) + tables.range_dice(tables.MAX_DISTANCE),
    tables.MELEE_DOUBLE_DICE)
"""The most defence dice a target rolls: its type's, + cover and range (PS §5 step
2) or + the melee size bonus (PS §6)."""
MAX_SIZE = max(t.size * min(t.models[1], MAX_MODELS_PER_UNIT) for t in tables.TYPES.values())
"""The largest unit's size (PS §2): its models' sizes summed."""
_SPECIAL_WHY = f"a unit buys special combat {tables.MAX_SPECIAL} times at most (PS §9)"
LIMITS = (
    ("shots", MAX_MODELS_PER_UNIT * MAX_NUMBER, f"a force file's unit has at most "
     f"{MAX_MODELS_PER_UNIT} models of at most {MAX_NUMBER} shots or attacks"),
    ("strength", MAX_NUMBER, "the most strength a force file gives a weapon or attack"),
    ("damage", MAX_NUMBER, "the most damage a force file gives a weapon or attack"),
    ("defence", MAX_DEFENCE, "the most a type's defence, cover and range "
     f"(up to {tables.MAX_DISTANCE}\") give, PS §5 step 2, §6"),
    ("size", MAX_SIZE, "the largest unit's size, PS §2"),
    ("special", tables.MAX_SPECIAL, _SPECIAL_WHY),
    ("special_defence", tables.MAX_SPECIAL, _SPECIAL_WHY),
    ("models", MAX_MODELS_PER_UNIT, "the most models a force file gives a unit"),
    ("wounds_per_model", max(t.wounds for t in tables.TYPES.values()),
     "the most wounds of a model type, PS §2"),
)
"""The bare numbers cannot describe a unit no force file holds (the force files'
limits, ``rules/validation.py``, and the PS tables): the odds of one would take the
machine's memory or recurse without end (issue 19)."""
SPECIAL = ("special", "special_defence")


def odds_arguments(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """Plasmashok's flags; returns those that only make sense with bare numbers."""
    nums = parser.add_argument_group("from bare numbers", USAGE)
    bare = [
        nums.add_argument("--shots", type=int, metavar="N",
                          help="attack dice of the weapon group, in all (PS §5 step 1)"),
        nums.add_argument("--strength", type=int, metavar="S",
                          help="strength dice per unblocked attack die (PS §5 step 3)"),
        nums.add_argument("--damage", type=int, metavar="D",
                          help="points of damage per matching strength die (PS §5 step 4)"),
        nums.add_argument("--defence", type=int, metavar="K",
                          help="the target's defence dice (PS §5 step 2)"),
        nums.add_argument("--size", type=int, metavar="Z",
                          help="the target's size dice (PS §5 step 4)"),
        nums.add_argument("--save", type=int, metavar="T",
                          help="the target's shield save T+, 2 to 7 (7: no save; PS §5 "
                          "step 5)"),
        nums.add_argument("--special", type=int, metavar="A",
                          help="special combat: the attacker's dice (PS §4)"),
        nums.add_argument("--special-defence", type=int, metavar="B",
                          help="special combat: the defender's special-combat value; it "
                          "rolls B + 2 dice (PS §4)"),
    ]
    both = parser.add_argument_group("either form")
    both.add_argument("--models", type=int, metavar="M",
                      help="the target's living models (default: --size, or --special "
                      "dice in special combat; with files: all)")
    both.add_argument("--wounds-per-model", type=int, metavar="W",
                      help="wounds per model of the target (default 1; with files: its "
                      "type's, PS §2)")
    both.add_argument("--wounded", type=int, metavar="N",
                      help="wounds already on the target's partly wounded model (app "
                      "reading 1; default 0)")
    both.add_argument("--pending", type=int, metavar="N",
                      help="wounds already caused on the target this bracket, still to "
                      "come off (PS §3; default 0)")
    files = parser.add_argument_group("with force files")
    files.add_argument("--cover", choices=tables.COVERS,
                       help="shooting: the target's cover, +1 defence die soft, +2 hard "
                       "(PS §5 step 2)")
    files.add_argument("--distance", type=int, metavar="INCHES",
                       help="shooting: inches to the target, +1 defence die per full 6\" "
                       "(PS §5 step 2); weapons with a shorter range do not fire")
    files.add_argument("--in-blast", type=int, metavar="N",
                       help="Radius Weapon: the target's models within 3\" of the aimed-at "
                       "model, one die each (PS §5)")
    files.add_argument("--special-combat", action="store_true",
                       help="the attacker uses special combat (PS §4) instead of shooting")
    return bare


def _target(args: argparse.Namespace, default_models: int) -> tuple[int, int, int, int]:
    models = default_models if args.models is None else args.models
    return (models, 1 if args.wounds_per_model is None else args.wounds_per_model,
            args.wounded or 0, args.pending or 0)


def odds_numbers(args: argparse.Namespace) -> tuple[Odds, list[str]]:
    """The odds of one weapon group (PS §5, §6) or a special-combat attack (PS §4)
    described in bare numbers."""
    for key, most, why in LIMITS:
        at_most(getattr(args, key), key, most, why)
    shooting = [flag(k) for k in SHOOTING if getattr(args, k) is not None]
    special = [flag(k) for k in SPECIAL if getattr(args, k) is not None]
    if shooting and special:
        raise ValueError(f"{', '.join(special)} describe special combat (PS §4) and "
                         f"{', '.join(shooting)} shooting (PS §5): give one or the other")
    if args.melee:
        raise ValueError("--melee is for force files; in bare numbers a melee attack is "
                         "--shots (models x attacks) --strength --damage with the "
                         "defence dice including the size bonus (PS §6)")
    if special:
        need(args, *SPECIAL)
        return O.special_case(args.special, args.special_defence,
                              _target(args, max(1, args.special)))
    if not shooting:
        raise ValueError("say what attacks: --shots N --strength S --damage D --defence K "
                         "--size Z --save T (PS §5), --special A --special-defence B "
                         "(PS §4), or --attacker FILE:UNIT --target FILE:UNIT")
    need(args, *SHOOTING)
    target = _target(args, args.size)
    group = Group(args.shots, args.strength, args.damage)
    return O.shooting_case([group], args.defence, args.size, args.save, target,
                           ["Shooting (PS §5)"])

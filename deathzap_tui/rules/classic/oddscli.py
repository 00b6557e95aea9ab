"""Deathzap Classic's own ``deathzap odds`` flags and the odds from bare numbers
(``Ruleset.odds_arguments`` / ``Ruleset.odds_numbers``). Pure stdlib, no I/O.

The numbers come from :mod:`.tables` by weapon class, cover and figure type (CL §2,
§5); :mod:`.odds` does the sums.
"""

from __future__ import annotations

import argparse

from deathzap_tui.rules.classic import odds as O
from deathzap_tui.rules.classic import tables
from deathzap_tui.rules.odds import Odds, at_most, need, refuse
from deathzap_tui.rules.validation import MAX_MODELS_PER_UNIT

USAGE = """\
deathzap odds --ruleset classic --guns 6 --weapon basic --cover open \\
              --target-type infantry --figures 6 [--pending 1] [--panicked]
deathzap odds --ruleset classic --guns 1 --weapon radius --in-blast 4 --cover open \\
              --target-type infantry --figures 6
deathzap odds --ruleset classic --melee --attacker-type beasts --attacker-figures 6 \\
              --target-type infantry --figures 5 [--panicked] [--target-panicked]

Shooting (CL §5): the to-hit number from the weapon class and the cover, the save
from the class and the target's type (CL-R3); suppression after the casualties
(with --pending ones) come off. Melee (CL §6): both sides roll at once; the odds
are the target's casualties and its chance of losing the melee. Both also give the
chance the target ends panicked from any cause: that, or left a lone Infantry,
Heavy Infantry or Beasts figure, always panicked (CL §4)."""


TYPES = ", ".join(tables.FIGURE_TYPES)


def odds_arguments(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """Classic's flags; returns those that only make sense with bare numbers."""
    nums = parser.add_argument_group("from bare numbers", USAGE)
    bare = [
        nums.add_argument("--guns", type=int, metavar="N",
                          help="guns of one weapon class firing (CL §5)"),
        nums.add_argument("--weapon", choices=tuple(tables.WEAPONS),
                          help="their weapon class (CL §5)"),
        nums.add_argument("--target-type", choices=tables.FIGURE_TYPES, metavar="TYPE",
                          help="the target's figure type, its saves (CL §2, §5): "
                          f"{TYPES}"),
        nums.add_argument("--attacker-type", choices=tables.FIGURE_TYPES, metavar="TYPE",
                          help=f"melee: the attacker's figure type (CL §2): {TYPES}"),
    ]
    both = parser.add_argument_group("either form")
    both.add_argument("--cover", choices=tables.COVERS,
                      help="the target's cover: the to-hit column (CL §5)")
    both.add_argument("--figures", type=int, metavar="N",
                      help="the target's living figures (default with files: all)")
    both.add_argument("--pending", type=int, metavar="N", default=None,
                      help="shooting: casualties already pending on the target this phase "
                      "(CL-R2; default 0)")
    both.add_argument("--in-blast", type=int, metavar="N",
                      help="Radius: the figures within 3\" of the aiming point (CL §5)")
    both.add_argument("--panicked", action="store_true",
                      help="the attacker is panicked: shooting hits only on a 6 (CL §5), "
                      "melee 1 attack at power 6 (CL §2)")
    both.add_argument("--attacker-figures", type=int, metavar="N",
                      help="melee: the attacker's living figures (default with files: all)")
    both.add_argument("--target-panicked", action="store_true",
                      help="melee: the target is panicked (it strikes back with 1 attack "
                      "at power 6, CL §2)")
    both.add_argument("--hits", type=int, metavar="K",
                      help="the hits already rolled (the first weapon group; melee: the "
                      "attacker's)")
    both.add_argument("--failed-saves", type=int, metavar="K",
                      help="shooting: the failed saves already rolled (needs --hits)")
    return bare


_FIGURES = "the most figures a force file gives a unit"
LIMITS = (
    ("guns", O.CLI_DICE, "the most dice to hit worked out here"),
    ("figures", MAX_MODELS_PER_UNIT, _FIGURES),
    ("attacker_figures", MAX_MODELS_PER_UNIT, _FIGURES),
    ("pending", MAX_MODELS_PER_UNIT, _FIGURES),
    ("in_blast", MAX_MODELS_PER_UNIT, _FIGURES),
)
"""The bare numbers cannot describe a unit no force file holds (the force files'
limits, ``rules/validation.py``): its odds would take minutes (issue 19)."""


def odds_numbers(args: argparse.Namespace) -> tuple[Odds, list[str]]:
    """The odds of a shooting or melee attack described in bare numbers."""
    for key, most, why in LIMITS:
        at_most(getattr(args, key), key, most, why)
    settings = vars(args)
    if not args.melee and args.guns is None and args.weapon is None:
        raise ValueError("say what attacks: --attacker FILE:UNIT and --target FILE:UNIT, "
                         "or --guns N --weapon CLASS (shooting) or --melee (melee)")
    need(args, "target_type", "figures")
    if args.melee:
        refuse(settings, (*O.SHOOTING_ONLY, "guns", "weapon"), "shooting (CL §5), not melee")
        need(args, "attacker_type", "attacker_figures")
        return O.melee_case((args.attacker_type, args.attacker_figures, args.panicked),
                            (args.target_type, args.figures, args.target_panicked),
                            hits=args.hits)
    refuse(settings, (*O.MELEE_ONLY, "attacker_type"), "melee (CL §6), not shooting")
    need(args, "guns", "weapon")
    odds, lines = O.shooting_case(
        [(tables.WEAPONS[args.weapon].name, args.weapon, args.guns)], args.target_type,
        args.figures, cover=args.cover, pending=args.pending, in_blast=args.in_blast,
        panicked=args.panicked, hits=args.hits, failed_saves=args.failed_saves)
    return odds, ["Shooting (CL §5)" + (": a panicked unit" if args.panicked else ""), *lines]

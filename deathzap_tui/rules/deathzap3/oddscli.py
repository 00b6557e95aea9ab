"""Deathzap 3's own ``deathzap odds`` flags and the odds from bare numbers
(``Ruleset.odds_arguments`` / ``Ruleset.odds_numbers``). Pure stdlib, no I/O: the
command hands over its parser and its parsed arguments.

The numbers come from :mod:`.tables` by skill, power and cover (DZ3 §6, §7, §10);
:mod:`.odds` does the sums.
"""

from __future__ import annotations

import argparse
from typing import Any

from deathzap_tui.rules.deathzap3 import odds as O
from deathzap_tui.rules.deathzap3 import tables
from deathzap_tui.rules.odds import Odds, at_most, need
from deathzap_tui.rules.validation import MAX_MODELS_PER_UNIT, MAX_NUMBER

USAGE = """\
deathzap odds --shots 24 --skill basic --power light [--strike] --cover open \\
              --shields 6 --strength light --target-skill basic --figures 10
deathzap odds --melee-dice 7 --skill regular --target-skill basic --shields 2 \\
              --figures 5
deathzap odds --morale-test --figures 4 --target-skill basic [--leader-near]

The target's skill sets its saves and its morale (DZ3 §6, §10)."""

MAX_DICE = MAX_MODELS_PER_UNIT * MAX_NUMBER
LIMITS = (
    ("shots", MAX_DICE, f"a force file's unit has at most {MAX_MODELS_PER_UNIT} "
     f"figures and a profile at most {MAX_NUMBER} shots"),
    ("melee_dice", MAX_DICE, f"a force file's unit has at most {MAX_MODELS_PER_UNIT} "
     f"figures of at most {MAX_NUMBER} melee attacks"),
    ("shields", MAX_NUMBER, "the most shields a force file gives a unit"),
    ("figures", MAX_MODELS_PER_UNIT, "the most figures a force file gives a unit"),
)
"""The bare numbers cannot describe a unit no force file holds (the force files'
limits, ``rules/validation.py``): the odds of one would take the machine's memory."""


def odds_arguments(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """Deathzap 3's flags; returns those that only make sense with bare numbers."""
    nums = parser.add_argument_group("from bare numbers", USAGE)
    bare = [
        nums.add_argument("--shots", type=int, metavar="N", help="shooting dice (shots)"),
        nums.add_argument("--melee-dice", type=int, metavar="N",
                          help="melee dice (figures x melee attacks, DZ3 §7)"),
        nums.add_argument("--skill", choices=tables.SKILLS, help="the attacker's skill"),
        nums.add_argument("--power", choices=tables.POWERS, help="the weapon's power"),
        nums.add_argument("--strike", action="store_true", help="a Strike weapon (DZ3 §6)"),
        nums.add_argument("--strength", choices=tables.POWERS,
                          help="the target's shield strength"),
        nums.add_argument("--target-skill", choices=tables.SKILLS,
                          help="the target's skill: its saves and morale"),
        nums.add_argument("--vehicle", action="store_true",
                          help="the target is a vehicle (one model, damage table, DZ3 §9)"),
        nums.add_argument("--morale-test", action="store_true",
                          help="only a morale test by --figures figures of --target-skill"),
    ]
    both = parser.add_argument_group("either form")
    both.add_argument("--cover", choices=tables.COVERS, help="the target's cover (shooting)")
    both.add_argument("--shields", type=int, metavar="N",
                      help="the target's shields left (default with files: full)")
    both.add_argument("--figures", type=int, metavar="N",
                      help="the target's figures left (default with files: all)")
    both.add_argument("--crippled", action="store_true",
                      help="the attacker's gun (or melee weapon) is crippled: 6+ (DZ3 §9)")
    both.add_argument("--leader-near", action="store_true",
                      help="a friendly leader is within 6\" of the target (+1 morale)")
    both.add_argument("--morale-option", choices=("per-attack", "per-casualty"),
                      default="per-attack",
                      help="DZ3-R11: one morale test per attack (default) or per casualty")
    both.add_argument("--hits", type=int, metavar="K",
                      help="the hits already rolled (first weapon group)")
    both.add_argument("--damage", type=int, metavar="K",
                      help="the damage already rolled (first weapon group)")
    both.add_argument("--failed-saves", type=int, metavar="K",
                      help="the failed saves already rolled (needs --damage)")
    return bare


def odds_numbers(args: argparse.Namespace) -> tuple[Odds, list[str]]:
    """The odds of an attack or morale test described in bare numbers."""
    for key, most, why in LIMITS:
        at_most(getattr(args, key), key, most, why)
    known: dict[str, Any] = {"hits": args.hits, "damage": args.damage,
                             "failed_saves": args.failed_saves}
    common = {"leader_near": args.leader_near, "morale_option": args.morale_option}
    leader = "a friendly leader within 6\"" if args.leader_near else "no leader near"
    if args.morale_test:
        need(args, "figures", "target_skill")
        skill = args.target_skill
        odds = O.morale_test_odds(args.figures, tables.MORALE[skill], args.leader_near)
        return odds, [f"Morale test: {args.figures} {skill} figures, "
                      f"{tables.MORALE[skill]}+ per die, {leader} (DZ3 §10)"]
    if args.shots is None and args.melee_dice is None:
        raise ValueError("say what attacks: --attacker FILE:UNIT and --target FILE:UNIT, "
                         "or --shots N (shooting), --melee-dice N (melee) or --morale-test")
    if args.shots is not None and args.melee_dice is not None:
        raise ValueError("give --shots or --melee-dice, not both")
    need(args, "skill", "target_skill", "shields")
    if not args.vehicle:
        need(args, "figures")
    figures = 1 if args.vehicle else args.figures
    if args.vehicle and args.figures not in (None, 1):
        raise ValueError("a vehicle is one model (DZ3 §9): leave out --figures")
    tskill = args.target_skill
    target = O.Target(args.shields, figures, tables.SAVE[tskill], tables.MORALE[tskill],
                      vehicle=args.vehicle)
    if args.shots is not None:
        need(args, "power", "cover", "strength")
        to_hit = tables.CRIPPLED_TO_HIT if args.crippled else tables.TO_HIT[(args.skill,
                                                                            args.cover)]
        attack = O.Attack(args.shots, to_hit, tables.VS_SHIELDS[(args.power, args.strength)],
                          args.strike)
        what = (f"{args.shots} {args.skill} shots at {to_hit}+ ({args.cover}), "
                f"{args.power}{' Strike' if args.strike else ''} vs {args.strength} shields "
                f"at {attack.vs_shields}+")
    else:
        if args.strike:
            raise ValueError("--strike is a shooting rule; melee has none (DZ3 §7)")
        to_hit = (tables.CRIPPLED_TO_HIT if args.crippled
                  else tables.MELEE_TO_HIT[(args.skill, tskill)])
        attack = O.Attack(args.melee_dice, to_hit, None)
        what = f"{args.melee_dice} {args.skill} melee dice at {to_hit}+ vs {tskill}"
    title = [f"Attack: {what}", O.target_line(target, tskill, leader_near=args.leader_near,
                                                 option=args.morale_option)]
    return O.attack_odds(attack, target, **common, **known), title

"""``deathzap odds``: exact odds of an attack or morale test (issue 4).

From force files::

    deathzap odds --attacker FILE:UNIT [--weapons ID[:PROFILE] ...] [--melee]
                  --target FILE:UNIT --cover open|soft|hard [--leader-near] [--json]

From bare numbers::

    deathzap odds --shots 24 --skill basic --power light [--strike] --cover open \\
                  --shields 6 --strength light --target-skill basic --figures 10
    deathzap odds --melee-dice 7 --skill regular --target-skill basic --shields 2 \\
                  --figures 5
    deathzap odds --morale-test --figures 4 --target-skill basic [--leader-near]

UNIT is the unit's name or its 1-based position in the file. The target's skill sets
its saves and its morale (DZ3 §6, §10). With force files the forces' ruleset answers
(``Ruleset.odds_cli``); the bare-number form uses Deathzap 3's tables.
"""

from __future__ import annotations

import argparse
import json
import sys
import unicodedata
from pathlib import Path
from typing import Any

SKILLS = ("basic", "regular", "elite")
POWERS = ("light", "medium", "heavy")
COVERS = ("open", "soft", "hard")
BAR_WIDTH = 40


class UsageError(ValueError):
    """Bad arguments: the message says what to do."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.description = (parser.description or "") + "\n\n" + (__doc__ or "").split(
        "\n\n", 1)[1]
    files = parser.add_argument_group("from force files")
    files.add_argument("--attacker", metavar="FILE:UNIT", help="the attacking unit")
    files.add_argument("--target", metavar="FILE:UNIT", help="the target unit")
    files.add_argument("--weapons", nargs="+", metavar="ID[:PROFILE]",
                       help="weapon ids that fire, in order (default: all the unit "
                       "carries); ID:PROFILE picks a profile by name (default: the first)")
    files.add_argument("--melee", action="store_true",
                       help="the attacker attacks in melee instead of shooting (DZ3 §7)")
    files.add_argument("--range", choices=("near", "far"),
                       help="Command Hand: the range band, near = 0-12\" (default) or far "
                       "= beyond 12\" (CH §4)")
    files.add_argument("--aimed", action="store_true",
                       help="Command Hand: aimed shots, re-rolling 1s once (CH §3)")
    nums = parser.add_argument_group("from bare numbers")
    nums.add_argument("--shots", type=int, metavar="N", help="shooting dice (shots)")
    nums.add_argument("--melee-dice", type=int, metavar="N",
                      help="melee dice (figures x melee attacks, DZ3 §7)")
    nums.add_argument("--skill", choices=SKILLS, help="the attacker's skill")
    nums.add_argument("--power", choices=POWERS, help="the weapon's power")
    nums.add_argument("--strike", action="store_true", help="a Strike weapon (DZ3 §6)")
    nums.add_argument("--strength", choices=POWERS, help="the target's shield strength")
    nums.add_argument("--target-skill", choices=SKILLS,
                      help="the target's skill: its saves and morale")
    nums.add_argument("--vehicle", action="store_true",
                      help="the target is a vehicle (one model, damage table, DZ3 §9)")
    nums.add_argument("--morale-test", action="store_true",
                      help="only a morale test by --figures figures of --target-skill")
    both = parser.add_argument_group("either form")
    both.add_argument("--cover", choices=COVERS, help="the target's cover (shooting)")
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
    parser.add_argument("--json", action="store_true", help="print JSON")


def run(args: argparse.Namespace) -> int:
    from deathzap_tui.rules.problems import InvalidInput

    try:
        odds, title = _compute(args)
    except InvalidInput as e:
        for problem in e.problems:
            print(f"deathzap odds: {problem.located(e.source)}", file=sys.stderr)
        return 1
    except (UsageError, ValueError) as e:
        print(f"deathzap odds: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(odds.to_json(), indent=2))
    else:
        print(as_text(odds, title))
    return 0


# --------------------------------------------------------------------------- compute
def _compute(args: argparse.Namespace) -> tuple[Any, list[str]]:
    from deathzap_tui.rules.deathzap3 import odds as O
    from deathzap_tui.rules.deathzap3 import tables

    known = {"hits": args.hits, "damage": args.damage, "failed_saves": args.failed_saves}
    common = {"leader_near": args.leader_near, "morale_option": args.morale_option}
    leader = "a friendly leader within 6\"" if args.leader_near else "no leader near"
    for name in ("shots", "melee_dice", "shields", "figures", *known):
        value = getattr(args, name)
        if value is not None and value < 0:
            raise UsageError(f"--{name.replace('_', '-')} must be 0 or more")
    if args.attacker or args.target:
        return _from_files(args, known, common)
    if args.morale_test:
        need(args, "figures", "target_skill")
        skill = args.target_skill
        odds = O.morale_test_odds(args.figures, tables.MORALE[skill], args.leader_near)
        return odds, [f"Morale test: {args.figures} {skill} figures, "
                      f"{tables.MORALE[skill]}+ per die, {leader} (DZ3 §10)"]
    if args.shots is None and args.melee_dice is None:
        raise UsageError("say what attacks: --attacker FILE:UNIT and --target FILE:UNIT, "
                         "or --shots N (shooting), --melee-dice N (melee) or --morale-test")
    if args.shots is not None and args.melee_dice is not None:
        raise UsageError("give --shots or --melee-dice, not both")
    need(args, "skill", "target_skill", "shields")
    if not args.vehicle:
        need(args, "figures")
    figures = 1 if args.vehicle else args.figures
    if args.vehicle and args.figures not in (None, 1):
        raise UsageError("a vehicle is one model (DZ3 §9): leave out --figures")
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
            raise UsageError("--strike is a shooting rule; melee has none (DZ3 §7)")
        to_hit = (tables.CRIPPLED_TO_HIT if args.crippled
                  else tables.MELEE_TO_HIT[(args.skill, tskill)])
        attack = O.Attack(args.melee_dice, to_hit, None)
        what = f"{args.melee_dice} {args.skill} melee dice at {to_hit}+ vs {tskill}"
    title = [f"Attack: {what}", O.target_line(target, tskill, leader_near=args.leader_near,
                                                 option=args.morale_option)]
    return O.attack_odds(attack, target, **common, **known), title


def need(args: argparse.Namespace, *names: str) -> None:
    missing = [f"--{n.replace('_', '-')}" for n in names if getattr(args, n) is None]
    if missing:
        raise UsageError(f"missing {', '.join(missing)}")


def _from_files(args: argparse.Namespace, known: dict[str, Any],
                common: dict[str, Any]) -> tuple[Any, list[str]]:
    if not (args.attacker and args.target):
        raise UsageError("give both --attacker FILE:UNIT and --target FILE:UNIT")
    stray = [f"--{n}" for n in ("shots", "melee_dice", "skill", "power", "strength",
                                "target_skill") if getattr(args, n) is not None]
    if stray or args.strike or args.vehicle or args.morale_test:
        raise UsageError("with --attacker/--target the numbers come from the force files; "
                         f"leave out {', '.join(stray) or '--strike/--vehicle/--morale-test'}")
    aforce, attacker, ruleset = _unit(args.attacker, "--attacker")
    tforce, tunit, truleset = _unit(args.target, "--target")
    if truleset.id != ruleset.id:
        raise UsageError(f"the attacker is a {ruleset.id} force and the target a "
                         f"{truleset.id} one")
    weapons = [w for item in args.weapons or () for w in item.split(",") if w]
    answer = ruleset.odds_cli((aforce, attacker), (tforce, tunit),
                              {**vars(args), **known, **common, "weapons": weapons or None})
    if answer is None:
        raise UsageError(f"no odds for {ruleset.title} forces")
    odds, lines = answer
    return odds, [_clean(line) for line in lines]


def _unit(spec: str, flag: str) -> tuple[Any, Any, Any]:
    """``FILE:UNIT`` -> (force, unit, ruleset); UNIT is a name or a 1-based index."""
    from deathzap_tui.forcefile import load_force

    path, sep, name = spec.rpartition(":")
    if not sep or not path:
        raise UsageError(f"{flag} takes FILE:UNIT (a unit name or its number), not {spec!r}")
    if not Path(path).exists() and ":" in path:  # a unit name holding ':'
        first, _, rest = spec.partition(":")
        if Path(first).exists():
            path, name = first, rest
    loaded = load_force(path)
    units = loaded.force.units
    listing = "; ".join(f"{i}. {_clean(u.name)}" for i, u in enumerate(units, 1))
    wanted = name.strip()
    if wanted.isdigit():
        i = int(wanted)
        if 1 <= i <= len(units):
            return loaded.force, units[i - 1], loaded.ruleset
        raise UsageError(f"{path} has {len(units)} units, no unit {i}; units: {listing}")
    matches = [u for u in units if u.name == wanted] or [
        u for u in units if u.name.casefold() == wanted.casefold()]
    if len(matches) == 1:
        return loaded.force, matches[0], loaded.ruleset
    if matches:
        raise UsageError(f"{path} has {len(matches)} units named {wanted!r}: use the number; "
                         f"units: {listing}")
    raise UsageError(f"{path} has no unit {wanted!r}; units: {listing}")


def _clean(text: str) -> str:
    """Text from a file, safe for a terminal: control and format characters dropped."""
    return "".join(ch for ch in str(text) if unicodedata.category(ch)[0] != "C")


# --------------------------------------------------------------------------- text
def as_text(odds: Any, title: list[str]) -> str:
    from deathzap_tui import oddstext as ot  # shared with the app's odds panel

    _pct = ot.pct
    lines = list(title)
    lines.append("")
    if odds.kind == "morale":
        lines.append(f"P(test fails: the unit breaks)  {_pct(odds.p_break):>7}")
        lines.append(f"P(test passes)                  {_pct(1 - (odds.p_break or 0)):>7}")
        return "\n".join(lines)
    lines.append(f"Expected hits {odds.hits_mean:.2f}, damage {odds.damage_mean:.2f}, "
                 f"shields left {odds.mean_shields_left:.2f}")
    rows: list[tuple[str, float | None]]
    if odds.vehicle is not None:
        rows = list(ot.vehicle_rows(odds.vehicle))
        lines.append("Vehicle damage table (DZ3 §9; explosion damage to others not "
                     "included):")
        lines += [f"  {label:34s} {_pct(p):>7}" for label, p in rows]
        return "\n".join(lines)
    lines.append(f"Expected casualties {odds.mean_casualties:.2f} of {odds.figures}")
    rows = ot.unit_rows(odds)
    lines += [f"{label:34s} {_pct(p):>7}" for label, p in rows]
    lines.append("")
    lines.append("Casualties")
    rows = [(str(k), p) for k, p in enumerate(odds.casualties)]
    for k, pc, bar in ot.bar_rows(rows, BAR_WIDTH):
        lines.append(f"  {k:>3}  {pc:>7}  {bar}")
    return "\n".join(lines)

"""Double Tap's own ``deathzap odds`` flags and the odds from bare numbers
(``Ruleset.odds_arguments`` / ``Ruleset.odds_numbers``). Pure stdlib, no I/O.

:mod:`.odds` does the sums; this module reads the flags and says what they mean.
Modifiers (``--hit``, ``--block``, ...) are signed: they shift the 4+ of a quality
test (DT §1), so the command lets them below 0 (``odds_signed``).
"""

from __future__ import annotations

import argparse

from deathzap_tui.rules.doubletap import odds as O
from deathzap_tui.rules.doubletap import tables
from deathzap_tui.rules.odds import Odds, need

USAGE = """\
deathzap odds --ruleset double-tap --attacks 3 --hit +1 --block 0 \\
              [--cancel-dice 2 --cancel-modifier 0] [--tough 1] [--regeneration] \\
              [--morale 0] [--melee]
deathzap odds --ruleset double-tap --grenade --hit 0 --block 0 [...]

MOD is a modifier to the 4+ of a quality test (DT §1): +1 needs 3+, -3 needs 7+ (a 6
then a 4+), -4 or less needs 8+ or higher: still a 6 then a 4+, 1 in 12 (DT-R1). The
attacker takes --attacks tests at --hit; the target's --cancel-dice tests at
--cancel-modifier (2 dodging, 1 reacting by shooting or melee: DT §6) each cancel
one success; it blocks each hit at --block and is killed if any block fails (DT §4);
--tough W: a Tough target with W wound markers, killed at the 3rd; --regeneration: a
kill undone on 5+ (DT §7). A target hit and not killed tests morale at --morale:
stunned after melee, else it falls back (DT §5). Wounds are failed blocks.
--grenade: a frag grenade thrown at the target, --attacks tests (default 2) at
--hit: with no success it lands short, else the target (under the blast) takes one
automatic hit, never cancelled (app reading 12)."""

SIGNED = ("hit", "block", "cancel_modifier", "morale")
"""The flags that are modifiers, not counts: the command accepts them below 0."""


def odds_arguments(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """Double Tap's flags; returns those that only make sense with bare numbers."""
    parser.set_defaults(odds_signed=SIGNED)
    nums = parser.add_argument_group("from bare numbers", USAGE)
    bare = [
        nums.add_argument("--attacks", type=int, metavar="N",
                          help="the attacker's quality tests, one per attack (DT §4)"),
        nums.add_argument("--hit", type=int, metavar="MOD",
                          help="the to-hit modifier: range band, cover, shooting down ... "
                          "(DT §4, DT-R2)"),
        nums.add_argument("--block", type=int, metavar="MOD",
                          help="the target's block modifier: Armored +1, Fire Ammo -2 ... "
                          "(DT §4, §7)"),
        nums.add_argument("--cancel-dice", type=int, metavar="K",
                          help="the target's cancelling tests: 2 dodging, 1 reacting by "
                          "shooting or melee (DT §6; default 0, no reaction)"),
        nums.add_argument("--cancel-modifier", type=int, metavar="MOD",
                          help="their modifier (-2 against a camouflaged attacker, DT §7; "
                          "default 0)"),
        nums.add_argument("--regeneration", action="store_true",
                          help="the target has Regeneration: a kill undone on 5+ (DT §7)"),
        nums.add_argument("--morale", type=int, metavar="MOD",
                          help="the target's morale test modifier (DT §5; default 0, -2 "
                          "flashed)"),
    ]
    both = parser.add_argument_group("either form")
    both.add_argument("--tough", type=int, metavar="W",
                      help="the target is Tough with W wound markers already, 0 to 2 "
                      "(DT §7); with files only for a Tough target (default 0)")
    both.add_argument("--grenade", action="store_true",
                      help="a frag grenade thrown at the target: 2 tests; with any "
                      "success one automatic hit, never cancelled (DT §6, §7, app "
                      "reading 12)")
    files = parser.add_argument_group(
        "with force files",
        "The numbers come from the units' weapons and special rules (DT §4, §7): Armored, "
        "Fire and Piercing Ammo, Tough, Regeneration; shooting uses one weapon "
        "(--weapons ID when it carries several), melee all its melee weapons.")
    files.add_argument("--distance", type=int, metavar="INCHES",
                       help="shooting: inches to the target, for the range bands (DT-R2)")
    files.add_argument("--cover", action="store_true",
                       help="shooting: the target is in or behind cover, -1 to hit (DT §4)")
    files.add_argument("--down", action="store_true",
                       help="shooting down at a lower target, +1 to hit (DT §4)")
    files.add_argument("--engineer", action="store_true",
                       help="a friendly Engineer within 4\" of the shooter, +1 (DT §7)")
    files.add_argument("--spotted", action="store_true",
                       help="the target was spotted by the shooter's side, +1 (DT §7)")
    files.add_argument("--doctor", action="store_true",
                       help="a Doctor friendly to the target within 4\", +1 to block "
                       "(DT §7)")
    files.add_argument("--hacked", choices=O.WHO,
                       help="hacked unit(s), -1 to the next attack or block (DT §7): the "
                       "attacker's to-hit; the target's reaction attack, else its blocks")
    files.add_argument("--flashed", choices=O.WHO,
                       help="flashed unit(s), -2 to every roll (DT §7): the attacker's "
                       "to-hit; the target's reaction, blocks and morale")
    files.add_argument("--react", choices=O.CANCEL_KINDS,
                       help="the target's reaction: dodge (2 tests), shoot at a shooter "
                       "or melee against melee (1 test), each success cancels one "
                       "(DT §6, app reading 7)")
    files.add_argument("--dodge", action="store_true", help="the same as --react dodge")
    files.add_argument("--camo", action="store_true",
                       help="the attacker attacks from its camo marker: reactions -2 "
                       "(DT §7)")
    files.add_argument("--react-cover", action="store_true",
                       help="--react shoot: the attacker is in or behind cover from the "
                       "target, -1 (DT §4)")
    return bare


def odds_numbers(args: argparse.Namespace) -> tuple[Odds, list[str]]:
    """The odds of one attack (DT §4-§7) described in bare numbers."""
    files_only = [f"--{k.replace('_', '-')}" for k in (
        "distance", "cover", "down", "engineer", "spotted", "doctor", "hacked", "flashed",
        "react", "dodge", "camo", "react_cover") if getattr(args, k) not in (None, False)]
    if args.weapons:
        files_only.insert(0, "--weapons")
    if files_only:
        raise ValueError(f"{', '.join(files_only)} {'is' if len(files_only) == 1 else 'are'}"
                         " for force files; in bare numbers give the modifiers: --hit, "
                         "--block, --cancel-dice, --cancel-modifier")
    kind = O.kind_of(vars(args))
    if args.grenade and args.cancel_dice:
        raise ValueError("--cancel-dice: grenade successes are never cancelled (DT §6)")
    if args.attacks is None and not args.grenade:
        raise ValueError("say what attacks: --attacks N --hit MOD --block MOD (DT §4), or "
                         "--attacker FILE:UNIT --target FILE:UNIT")
    need(args, "hit", "block")
    attacks = tables.GRENADE_ATTACKS if args.attacks is None else args.attacks
    if args.cancel_modifier is not None and not args.cancel_dice:
        raise ValueError("--cancel-modifier needs --cancel-dice K (the target's reaction)")
    attack = O.Attack(kind=kind, attacks=attacks, hit=args.hit, block=args.block,
                      cancel_dice=args.cancel_dice or 0,
                      cancel_modifier=args.cancel_modifier or 0,
                      tough=tables.NOT_TOUGH if args.tough is None else args.tough,
                      regeneration=args.regeneration, morale=args.morale or 0,
                      names=O.FLAGS)
    return O.attack_case(attack, O.HEADS[kind])

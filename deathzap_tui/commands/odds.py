"""``deathzap odds``: exact odds of an attack or morale test (issue 4).

From force files (their ruleset answers)::

    deathzap odds --attacker FILE:UNIT [--weapons ID[:PROFILE] ...] [--melee]
                  --target FILE:UNIT [the ruleset's flags] [--json]

From bare numbers::

    deathzap odds [--ruleset ID] [the ruleset's flags] [--json]

UNIT is the unit's name or its 1-based position in the file. After the first groups
come the ruleset's own flags: those of --ruleset ID if given, otherwise of the force
files' ruleset, otherwise of the default ruleset; `deathzap odds --ruleset ID --help`
lists them.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from deathzap_tui import oddstext as ot  # shared with the app's odds panel
from deathzap_tui.forcefile import load_force
from deathzap_tui.rules import registry
from deathzap_tui.rules.narration import plural
from deathzap_tui.rules.problems import InvalidInput

if TYPE_CHECKING:
    from deathzap_tui.rules.odds import Odds

BAR_WIDTH = 40
HIT_ROWS = 16
"""At most this many rows in the hits, damage and wounds charts (long tails are grouped
into ranges)."""


class UsageError(ValueError):
    """Bad arguments: the message says what to do."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags depend on the ruleset (``Ruleset.odds_arguments``), known only from
    the command line itself, so this parser builds the real one when it is asked to
    parse (:func:`_parse`)."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.description = (parser.description or "") + "\n\n" + (__doc__ or "").split(
        "\n\n", 1)[1]
    parser.parse_known_args = functools.partial(_parse, parser)  # type: ignore[method-assign]


def _parse(parent: argparse.ArgumentParser, args: Sequence[str] | None = None,
           namespace: argparse.Namespace | None = None,
           ) -> tuple[argparse.Namespace, list[str]]:
    """Parse with the flags of the ruleset the command line names (see the module
    docstring); ``--help`` then lists that ruleset's flags."""
    argv = list(sys.argv[1:] if args is None else args)
    parser = argparse.ArgumentParser(prog=parent.prog, description=parent.description,
                                     formatter_class=parent.formatter_class,
                                     allow_abbrev=False)  # _ruleset_for reads whole flags
    build(parser, _ruleset_for(argv))
    return parser.parse_known_args(argv, namespace)


def build(parser: argparse.ArgumentParser, ruleset_id: str) -> None:
    """The command's own flags, then those of ruleset ``ruleset_id``."""
    ruleset = registry.get(ruleset_id)
    parser.add_argument("--ruleset", choices=registry.ids(),
                        help=f"the ruleset of bare numbers (default {registry.DEFAULT}); "
                        "with force files, theirs. These flags are "
                        f"{ruleset.title}'s: --ruleset ID --help lists another's")
    files = parser.add_argument_group("from force files")
    files.add_argument("--attacker", metavar="FILE:UNIT", help="the attacking unit")
    files.add_argument("--target", metavar="FILE:UNIT", help="the target unit")
    files.add_argument("--weapons", nargs="+", metavar="ID[:PROFILE]",
                       help="weapon ids that fire, in order (default: all the unit "
                       "carries); ID:PROFILE picks a profile by name (default: the first)")
    files.add_argument("--melee", action="store_true",
                       help="the attacker attacks in melee instead of shooting")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(odds_signed=())  # the ruleset's modifiers, which may be < 0
    bare = ruleset.odds_arguments(parser)
    parser.set_defaults(odds_flags=ruleset.id,
                        odds_bare=tuple((a.option_strings[0], a.dest, a.default)
                                        for a in bare))


def _ruleset_for(argv: Sequence[str]) -> str:
    """Whose flags to parse with: ``--ruleset``, else the ruleset of the first force
    file that loads, else the default. An unknown ``--ruleset`` gets the default's
    parser, which refuses it."""
    named = _flag_value(argv, "--ruleset")
    if named is not None:
        return named if named in registry.ids() else registry.DEFAULT
    for flag in ("--attacker", "--target"):
        spec = _flag_value(argv, flag)
        found = _file_ruleset(spec) if spec else None
        if found:
            return found
    return registry.DEFAULT


def _flag_value(argv: Sequence[str], flag: str) -> str | None:
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == flag and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith(flag + "="):
            return arg.split("=", 1)[1]
    return None


def _file_ruleset(spec: str) -> str | None:
    path, _name = _split(spec)
    try:
        return load_force(path).ruleset.id if path else None
    except InvalidInput:  # run() loads it again and reports the problems
        return None


def run(args: argparse.Namespace) -> int:
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
def _compute(args: argparse.Namespace) -> tuple[Odds, list[str]]:
    signed = set(getattr(args, "odds_signed", ()))
    for name, value in vars(args).items():  # every other number is a count
        if (isinstance(value, int) and not isinstance(value, bool) and value < 0
                and name not in signed):
            raise UsageError(f"--{name.replace('_', '-')} must be 0 or more")
    if args.attacker or args.target:
        return _from_files(args)
    ruleset = registry.get(args.odds_flags)
    answer = ruleset.odds_numbers(args)
    if answer is None:
        raise UsageError(f"no odds from bare numbers for {ruleset.title}: give "
                         "--attacker FILE:UNIT and --target FILE:UNIT")
    return answer


def _from_files(args: argparse.Namespace) -> tuple[Odds, list[str]]:
    if not (args.attacker and args.target):
        raise UsageError("give both --attacker FILE:UNIT and --target FILE:UNIT")
    stray = [flag for flag, dest, default in args.odds_bare if getattr(args, dest) != default]
    if stray:
        raise UsageError("with --attacker/--target the numbers come from the force files; "
                         f"leave out {', '.join(stray)}")
    aforce, attacker, ruleset = _unit(args.attacker, "--attacker")
    tforce, tunit, truleset = _unit(args.target, "--target")
    if truleset.id != ruleset.id:
        raise UsageError(f"the attacker is a {ruleset.id} force and the target a "
                         f"{truleset.id} one")
    if args.ruleset and args.ruleset != ruleset.id:
        raise UsageError(f"--ruleset {args.ruleset}: the force files are {ruleset.id} "
                         "forces (leave --ruleset out)")
    if args.odds_flags != ruleset.id:  # the files could not be read while parsing
        raise UsageError(f"the force files are {ruleset.id} forces: add --ruleset "
                         f"{ruleset.id} for their flags")
    weapons = [w for item in args.weapons or () for w in item.split(",") if w]
    answer = ruleset.odds_cli((aforce, attacker), (tforce, tunit),
                              {**vars(args), "weapons": weapons or None})
    if answer is None:
        raise UsageError(f"no odds for {ruleset.title} forces")
    odds, lines = answer
    return odds, [_clean(line) for line in lines]


def _split(spec: str) -> tuple[str, str]:
    """``FILE:UNIT`` -> (file, unit); a unit name may hold ':'. ("", "") if no ':'."""
    path, sep, name = spec.rpartition(":")
    if not sep or not path:
        return "", ""
    # os.path.exists: False, not OSError, for a name too long to be a file
    if not os.path.exists(path) and ":" in path:  # a unit name holding ':'
        first, _, rest = spec.partition(":")
        if os.path.exists(first):
            return first, rest
    return path, name


def _unit(spec: str, flag: str) -> tuple[Any, Any, Any]:
    """``FILE:UNIT`` -> (force, unit, ruleset); UNIT is a name or a 1-based index."""
    path, name = _split(spec)
    if not path:
        raise UsageError(f"{flag} takes FILE:UNIT (a unit name or its number), not {spec!r}")
    loaded = load_force(path)
    units = loaded.force.units
    listing = "; ".join(f"{i}. {_clean(u.name)}" for i, u in enumerate(units, 1))
    wanted = name.strip()
    if wanted.isdigit():
        i = int(wanted)
        if 1 <= i <= len(units):
            return loaded.force, units[i - 1], loaded.ruleset
        raise UsageError(f"{path} has {plural(len(units), 'unit')}, no unit {i}; "
                         f"units: {listing}")
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
def as_text(odds: Odds, title: list[str]) -> str:
    """The title lines, the expected values, then the outcomes table the odds carry,
    or the casualties, the headline chances and every chart: whatever the ruleset's
    odds put in their rows (``rules/odds.py``), in their order."""
    lines = [*title, ""]
    means = odds.means()
    if means:
        lines.append("Expected " + ", ".join(f"{m.name} {m.value:.2f}" for m in means))
    table = odds.table
    if table is not None:
        lines.append(table.title)
        lines += [f"  {row.text:34s} {ot.pct(row.p):>7}" for row in table.rows]
        return "\n".join(lines)
    if odds.shows_casualties:
        lines.append(f"Expected casualties {odds.mean_casualties:.2f} of {odds.figures}")
    lines += [f"{row.text:34s} {ot.pct(row.p):>7}" for row in odds.chances() if row.text]
    charts = [(c.title, ot.count_rows(c.dist, max_rows=HIT_ROWS)) for c in odds.charts()]
    if odds.shows_casualties:
        charts.append(("Casualties", [(str(k), p) for k, p in enumerate(odds.casualties)]))
    for name, rows in charts:
        lines += ["", name]
        pad = max(3, *(len(label) for label, _ in rows))
        for k, pc, bar in ot.bar_rows(rows, BAR_WIDTH):
            lines.append(f"  {k:>{pad}}  {pc:>7}  {bar}")
    return "\n".join(lines)

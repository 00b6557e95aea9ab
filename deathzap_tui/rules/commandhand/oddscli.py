"""Command Hand's own ``deathzap odds`` flags (``Ruleset.odds_arguments``): the
settings :func:`.odds.odds_cli` reads with force files. No bare-number form. Pure
stdlib, no I/O."""

from __future__ import annotations

import argparse

from deathzap_tui.rules.commandhand import tables


def odds_arguments(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """Command Hand's flags; none of them is for bare numbers only."""
    group = parser.add_argument_group("Command Hand")
    group.add_argument("--cover", choices=tables.COVERS, help="the target's cover (shooting)")
    group.add_argument("--range", choices=tables.BANDS,
                       help="the range band, near = 0-12\" (default) or far = beyond 12\" "
                       "(CH §4)")
    group.add_argument("--aimed", action="store_true",
                       help="aimed shots, re-rolling 1s once (CH §3)")
    group.add_argument("--shields", type=int, metavar="N",
                       help="the target's shields left (default: full)")
    group.add_argument("--figures", type=int, metavar="N",
                       help="the target's figures left (default: all)")
    return []

"""A new game's house-rule options as ``deathzap play`` and ``deathzap host`` take
them on the command line."""

from __future__ import annotations


def parse_options(pairs: list[str]) -> dict[str, object]:
    """``--option KEY=VALUE`` pairs as a ruleset's raw options: a whole number's value
    as an int, any other as text (the ruleset checks them); ValueError without ``=``."""
    out: dict[str, object] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise ValueError(f"--option {pair!r}: expected KEY=VALUE")
        out[key.strip()] = int(value) if value.strip().lstrip("-").isdigit() else value.strip()
    return out

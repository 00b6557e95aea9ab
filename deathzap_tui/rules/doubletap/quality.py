"""Double Tap quality tests (DT §1, DT-R1) and the modifiers that shift them.

Every roll of the game but a few single dice (hack, poison, Regeneration) is a quality
test: one die per test, 4+ before modifiers. A modifier list is kept as ``(value,
words)`` pairs so that the request's ``why`` can say where the target number comes
from ("-1 in cover, +1 shooting down").

Dice luck (the end-of-game report): every Double Tap roll with a target is rolled by
the side it helps, each success for the roller (DT §1: hit, cancel, dodge, detect and
throw tests, blocks, morale; DT-R1: the second dice of a test at 7+ or higher too;
DT §7: a hack, the poison cure, Regeneration), so each keeps the usual reading
(``luck=None``: more successes are better for its ``side``). The one roll of faces, the markers' D3
(DT §2), has no side and is not judged.
"""

from __future__ import annotations

from collections.abc import Sequence

from deathzap_tui.rules.doubletap import tables
from deathzap_tui.rules.narration import Gen, dice_text, plural
from deathzap_tui.rules.steps import Context, DiceRequest

Mods = list[tuple[int, str]]
"""Modifiers to a quality test: ``(value, words)``, e.g. ``(-1, "in cover")``."""


def total(mods: Sequence[tuple[int, str]]) -> int:
    return sum(value for value, _ in mods)


def why_words(mods: Sequence[tuple[int, str]], head: str = "") -> str:
    """``head`` then the modifiers and the number needed (:func:`tables.need_text`):
    "Pistol at 12\": -1 in cover; needs 5+", "...; needs 8+ (a 6, then 4+)"."""
    parts = ", ".join(f"{value:+d} {words}" for value, words in mods if value)
    text = "; ".join(filter(None, (head, parts or "no modifier")))
    return f"{text}; needs {tables.need_text(total(mods))}"


def quality_test(ctx: Context, key: str, count: int, modifier: int, purpose: str,
                 why: str, rule: str, side: str) -> Gen:
    """``count`` quality tests at ``modifier`` (DT §1, DT-R1); returns the successes.

    One request of ``count`` dice at :func:`tables.quality_target` (a count of
    successes is accepted). Needing 7+ or higher (8+, 9+ ... too: DT-R1), the dice are
    asked at 6+ and each six rolls again at 4+ (key ``<key>.second``). A natural 1
    always fails: the target is never below 2+."""
    if count <= 0:
        return 0
    target = tables.quality_target(modifier)
    two_dice = tables.two_dice(modifier)
    first = 6 if two_dice else target
    d = yield DiceRequest(key, count, purpose, first, why, rule, side)
    successes = d.count(first)
    if not two_dice:
        ctx.say(f"{purpose}: {dice_text(d, first)} ({rule}).")
        return successes
    ctx.say(f"{purpose}: {dice_text(d, first)}; needing {target}+, each 6 must be "
            f"followed by a {tables.SECOND_DIE}+ (DT §1{'' if target == 7 else ', DT-R1'}).")
    if not successes:
        return 0
    second = yield DiceRequest(f"{key}.second", successes, f"{purpose}: second dice",
                               tables.SECOND_DIE, f"{plural(successes, 'six', 'sixes')} rolled "
                               f"again: each {tables.SECOND_DIE}+ is a success (DT §1)",
                               rule, side)
    ctx.say(f"{purpose}, second dice: {dice_text(second, tables.SECOND_DIE)} ({rule}).")
    return second.count(tables.SECOND_DIE)

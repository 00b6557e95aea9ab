"""Rules revisions: what a game's log was written against.

A log holds the answers to the questions a game asked. When a change to the rules
code changes WHICH questions are asked (one fewer, one more, in another order), a
log written before it no longer replays: its answers meet other questions. So every
game records the rules revision it was started under (a save's and a club game's
header, ``revision``; a header without one is :data:`FIRST`), :class:`~.game.Game`
carries it into the state it starts from (``state.revision``, see
:class:`~.statebase.StateBase`), and the code that changed asks, with
:func:`at_least`, whether the game is new enough for the new behaviour. An old game
keeps being played as it began, to its end.

To change what is asked: add a constant naming the change (the next number), make
:data:`CURRENT` that constant, and keep the old behaviour for
``not at_least(state, THE_CHANGE)``, with a test that a log of the old revision still
replays. This is not :data:`deathzap_tui.rules.RULES_VERSION`, which says whether a
save's cache (a pickled state) was made by this rules code: a change bumps that
whenever a replay gives anything else, and never changes how a game is played.
"""

from __future__ import annotations

from typing import Any

FIRST = 1
"""Games started before revisions were recorded."""
DOOMED_NOT_ASKED = 2
"""Issue 26: no "which figure?" for a unit every living figure of which goes anyway
(:func:`~.casualties.pick_casualty`, ``doomed``); before it the owner was asked."""
CURRENT = DOOMED_NOT_ASKED
"""The revision every new game records."""


def at_least(state: Any, revision: int) -> bool:
    """Whether the game ``state`` belongs to plays by ``revision`` or later. A state
    that records none (a quick resolve's, a ruleset's own state shape) is current."""
    return bool(getattr(state, "revision", CURRENT) >= revision)


def check(revision: object) -> int:
    """``revision`` if this code can play it; ``ValueError`` naming the revisions it
    knows otherwise (a game started by a newer deathzap, a damaged header)."""
    if isinstance(revision, bool) or not isinstance(revision, int) or revision < FIRST:
        raise ValueError(f"rules revision {revision!r}: a whole number from {FIRST} up")
    if revision > CURRENT:
        raise ValueError(f"rules revision {revision}: the game was started by a newer "
                         f"deathzap (this one plays revisions {FIRST} to {CURRENT})")
    return revision

"""The Double Tap state as the battle screen shows it (a ``BoardView``).

Double Tap has no hidden information, so every viewer gets the same view."""

from __future__ import annotations

from deathzap_tui.rules.doubletap import tables
from deathzap_tui.rules.doubletap.actions import ALL_ACTIONS, action_refusal
from deathzap_tui.rules.doubletap.engine import SETUP_STEPS
from deathzap_tui.rules.doubletap.state import State, UnitState
from deathzap_tui.rules.doubletap.turn import points_word
from deathzap_tui.rules.doubletap.victory import MARKERS_RULE, held, holding
from deathzap_tui.rules.narration import side_name
from deathzap_tui.rules.ruleset import (
    SIDES,
    BoardView,
    CardSection,
    Column,
    TurnClock,
    UnitRow,
    other_side,
)
from deathzap_tui.rules.unitcard import sections
from deathzap_tui.rules.units import short_name
from deathzap_tui.rules.victory import result_words

COLUMNS = ("Unit", "Weapons", "Rules", "State")
"""Short headers: the weapons and rules lists give way first in 80 columns."""
COLUMN_HINTS = (Column(), Column(drop=2, wrap=True), Column(drop=1, wrap=True),
                Column(wrap=True))
"""At 80 columns the rules, then the weapons give way to the card (issue 22); lists
and the state wrap."""


def status(state: State, unit: UnitState) -> str:
    """What matters about the unit now, most pressing first."""
    if not unit.alive:
        return "killed"
    if unit.reserve:
        return "reserve"
    if not unit.placed:
        return "to deploy"
    words = []
    if unit.stunned:
        words.append("stunned")
    if unit.poisoned:
        words.append("poisoned")
    if unit.flashed_until:
        words.append("flashed")
    if unit.has("tough"):
        words.append(f"wounds {unit.wounds}/{tables.TOUGH_WOUNDS}")
    if unit.camo:
        words.append("camo")
    if unit.hacked:
        words.append("hacked")
    if unit.spotted_by:
        words.append("spotted")
    if unit.engaged:
        words.append("engaged: " + ", ".join(short_name(state, state.unit(e))
                                             for e in unit.engaged))
    return ", ".join(words)


def may_act(state: State, unit: UnitState) -> bool:
    """The unit belongs to the player and can take some action now."""
    return (not state.over and state.stage == "battle" and unit.side == state.player
            and unit.in_play and bool(state.points[unit.side])
            and any(not action_refusal(state, unit.id, a, state.player)
                    for a in ALL_ACTIONS))


def unit_row(state: State, unit: UnitState) -> UnitRow:
    weapons = [tables.WEAPONS[w].name for w in unit.figures[0].weapons]
    if unit.has("grenade"):
        weapons.append("Grenade (used)" if unit.grenade_used else "Grenade")
    rules = [tables.SPECIAL_RULES[r].name for r in unit.rules if r != "grenade"]
    cells = (short_name(state, unit), ", ".join(weapons), ", ".join(rules),
             status(state, unit))
    return UnitRow(unit.id, unit.side, unit.name, cells, gone=not unit.alive,
                   ready=may_act(state, unit), card=unit_card(state, unit))


def weapon_line(weapon: tables.Weapon) -> str:
    """"Rifle: 2 attacks, 36\", +1 at 19-27\"" (DT §4)."""
    reach = "melee" if weapon.melee else f"range {weapon.max_range}\""
    bands = "".join(f", {b.modifier:+d} at {b.low}-{b.high}\"" for b in weapon.bands)
    return f"{weapon.name}: {weapon.attacks} attacks, {reach}{bands}"


def this_turn(state: State, unit: UnitState) -> tuple[str, ...]:
    """What the state can tell of the unit in this turn. Double Tap keeps no record of
    a unit's actions (any unit may act again while its side has points, DT §3;
    reactions are counted per enemy action, DT-R3): whose turn it is, whether this
    unit may act or react now, and the markers that last until it acts or the turn
    ends (DT §5, §7)."""
    if state.stage != "battle" or state.over or not unit.in_play:
        return ()
    ours = unit.side == state.player
    lines = [f"Round {state.round}, {side_name(state.player)}'s turn"
             + (f": {points_word(state.points[unit.side])} left for any unit (DT §3)"
                if ours else "")]
    if ours:
        lines.append("may act now" if may_act(state, unit) else "cannot act now")
    elif unit.stunned:
        lines.append("cannot react while stunned (DT §5)")
    else:
        lines.append("may react once to each enemy action (DT §6, DT-R3)")
    if unit.stunned:
        lines.append("stunned: its next action is spent recovering (DT §5)")
    if unit.poisoned:
        lines.append("poisoned: tests on its next activation, 3+ cures it (DT §7)")
    if unit.flashed_until:
        lines.append(f"flashed: -2 to its quality rolls until the end of "
                     f"{side_name(unit.flashed_until)}'s turn (DT §7)")
    if unit.hacked:
        lines.append("hacked: -1 to its next attack or block roll (DT §7)")
    if unit.spotted_by:
        lines.append(f"spotted: {side_name(unit.spotted_by)}'s next unit to shoot at it "
                     "gets +1 to hit (DT §7)")
    return tuple(lines)


def unit_card(state: State, unit: UnitState) -> tuple[CardSection, ...]:
    """Its weapons (DT §4) and special rules (DT §7) in full, its points and state,
    and what the state tells of this turn (:func:`this_turn`)."""
    weapons = [weapon_line(tables.WEAPONS[w]) for w in unit.figures[0].weapons]
    if unit.has("grenade"):
        weapons.append("Grenade: used" if unit.grenade_used else "Grenade: not used yet")
    rules = [f"{tables.SPECIAL_RULES[r].name}: {tables.SPECIAL_RULES[r].summary}"
             for r in unit.rules if r != "grenade"]
    return sections(
        ("Weapons", weapons),
        ("Special rules", rules),
        ("Status", (status(state, unit) or "ready", f"{unit.points} points (DT-R4)")),
        ("This turn", this_turn(state, unit)),
    )


def score_lines(state: State) -> tuple[str, ...]:
    """Each marker and who holds it (DT §2)."""
    return tuple(f"Marker {m.number}: {holding(m)}" for m in state.markers)


def objective_lines(state: State) -> tuple[str, ...]:
    """How the game is won (DT §2, app reading 4)."""
    return (f"A marker is seized at the end of a round by a side with a unit (not "
            f"stunned) within {tables.MARKER_REACH}\" and no enemy within "
            f"{tables.MARKER_REACH}\". After "
            f"round {state.options['rounds']} {MARKERS_RULE}; a side with no unit left "
            "loses (DT §2).",)


def prompt(state: State) -> str:
    """What comes next, in words."""
    if state.over:
        return "Game over"
    if state.stage != "battle":
        return SETUP_STEPS.prompt(state.stage)
    return (f"Round {state.round}, {side_name(state.player)}'s turn: "
            f"{points_word(state.points[state.player])} to spend on actions, or end the "
            "turn")


def clock(state: State) -> TurnClock:
    """The round, its two turns in this round's order, whose turn it is."""
    order = (state.first, other_side(state.first)) if state.first else SIDES
    playing = state.stage == "battle" and not state.over
    return TurnClock(
        number=state.round,
        limit=state.options["rounds"],
        unit="Round",
        phases=tuple(f"{side_name(s)} turn" for s in order),
        current=f"{side_name(state.player)} turn" if playing else "",
        active=state.player if playing else "",
        detail=(f"{side_name(state.player)}: {points_word(state.points[state.player])} "
                "left" if playing else ""))


def score(state: State) -> dict[str, int]:
    """The objectives each side holds (the report reads it after every event: no whole
    view)."""
    return {s: held(state, s) for s in SIDES}


def board_view(state: State, viewer: str | None = None) -> BoardView:
    """The same for every ``viewer``: Double Tap has no secrets."""
    return BoardView(
        columns=COLUMNS,
        units={s: tuple(unit_row(state, u) for u in state.units[s]) for s in SIDES},
        deck=None,
        score=score(state),
        score_lines=score_lines(state),
        objectives=objective_lines(state),
        prompt=prompt(state),
        over=state.over,
        result=result_words(state),
        clock=clock(state),
        score_label="markers",
        advance_label="End turn",
        column_hints=COLUMN_HINTS,
    )

"""The Deathzap Classic state as the battle screen shows it (a ``BoardView``).

Classic has no hidden information, so every viewer gets the same view."""

from __future__ import annotations

from collections import Counter

from deathzap_tui.rules.classic import tables
from deathzap_tui.rules.classic.common import in_play, living_general, melees, steady
from deathzap_tui.rules.classic.engine import SETUP_STEPS
from deathzap_tui.rules.classic.state import State, UnitState
from deathzap_tui.rules.classic.turn import PHASE_NAMES, advance_label, phases, shoot_refusal
from deathzap_tui.rules.classic.victory import advanced
from deathzap_tui.rules.narration import plural, side_name
from deathzap_tui.rules.ruleset import (
    SIDES,
    BoardView,
    CardSection,
    Column,
    TurnClock,
    UnitRow,
    other_side,
)
from deathzap_tui.rules.unitcard import carried, figure_lines, sections
from deathzap_tui.rules.units import short_name
from deathzap_tui.rules.victory import final_score, result_words

COLUMNS = ("Unit", "Type", "Figs", "Guns", "Status")
COLUMN_HINTS = (Column(), Column(drop=2), Column(), Column(drop=1, wrap=True),
                Column(wrap=True))
"""At 80 columns the guns, then the type give way to the card (issue 22)."""


def guns(state: State, unit: UnitState) -> str:
    """The living figures' guns by name, "3 Rifle, 1 Lascannon" (CL §5)."""
    counts = Counter(state.weapons[unit.side][w].name for f in unit.alive_figures
                     for w in f.weapons)
    return ", ".join(f"{n} {name}" for name, n in counts.items())


def status(state: State, unit: UnitState) -> str:
    """What matters about the unit now; other units by their names without the side
    (under its side's table: a merge is into its own side, a melee with the enemy),
    so that the state stays short at 80 columns (issue 22)."""
    if unit.merged_into:
        return f"merged into {short_name(state, state.unit(unit.merged_into))}"
    if not unit.in_play:
        return "wiped out"
    words = []
    if unit.is_panicked:
        words.append("panicked (alone)" if unit.alone else "panicked")
    if unit.engaged:
        foes = ", ".join(short_name(state, state.unit(e)) for e in unit.engaged)
        words.append(f"in melee with {foes}")
    if unit.shot and state.step:  # this turn's: gone once the turn is over
        words.append("shot")
    if unit.pending:
        words.append(f"{plural(unit.pending, 'casualty', 'casualties')} pending")
    return ", ".join(words)


def may_act(state: State, unit: UnitState) -> bool:
    """The unit can do something in the phase under way."""
    if not unit.in_play:
        return False
    if state.step == "movement":
        return unit.side == state.mover and not unit.engaged
    if state.step == "shooting":
        return not shoot_refusal(state, unit.id)
    return state.step == "melee" and bool(unit.engaged)


def unit_row(state: State, unit: UnitState) -> UnitRow:
    total = sum(1 for f in unit.figures if not f.moved_to)
    cells = (short_name(state, unit), unit.stats.name,
             f"{unit.figures_left}/{total}", guns(state, unit), status(state, unit))
    return UnitRow(unit.id, unit.side, unit.name, cells, gone=not unit.in_play,
                   ready=may_act(state, unit), card=unit_card(state, unit))


def unit_card(state: State, unit: UnitState) -> tuple[CardSection, ...]:
    """Its figures (the general marked), guns with their CL §5 class, its type's CL §2
    profile, status and what it did this turn."""
    weapons = state.weapons[unit.side]
    figures = [f for f in unit.figures if not f.moved_to]  # merged ones live on elsewhere
    guns = []
    for wid in carried(figures):
        gun = weapons[wid].table
        to_hit = ", ".join(f"{n}+ {cover}" for cover, n in gun.to_hit.items())
        guns.append(f"{weapons[wid].name} ({gun.name}): range {gun.range}\", to hit {to_hit}")
    stats = unit.stats
    this_turn = []
    if state.step:
        this_turn.append("has shot (CL §5)" if unit.shot else "has not shot")
    if unit.pending:
        this_turn.append(f"{plural(unit.pending, 'casualty', 'casualties')} to remove "
                         "once everyone has fired (CL §5)")
    if unit.panicked_turn == state.turn and unit.is_panicked and state.turn:
        this_turn.append("panicked this turn: its morale test fails (CL §7)")
    return sections(
        ("Figures", figure_lines(figures, lambda w: weapons[w].name,
                                 lambda f: f"{f.name} (general)" if f.general else f.name)),
        ("Guns", guns),
        ("Profile", (f"{stats.name}: move {stats.move}\", "
                     f"{plural(stats.melee_attacks, 'melee die', 'melee dice')} per figure, "
                     f"melee save {stats.save}+ (CL §2)",)),
        ("Status", (status(state, unit) or "steady",)),
        ("This turn", this_turn),
    )


def score_lines(state: State) -> tuple[str, ...]:
    out = []
    for side in SIDES:
        big = plural(state.killed_big[side], "vehicle or monster", "vehicles or monsters")
        kills = (f"{plural(state.killed[side], 'enemy figure')} killed"
                 + (f" ({big})" if state.killed_big[side] else ""))
        if advanced(state):
            parts = [f"{e.reason} ({e.vp})" for e in state.score if e.side == side]
            out.append(f"{side_name(side)} {state.vp[side]} VP: "
                       + "; ".join([*parts, kills]))
        else:
            out.append(f"{side_name(side)}: {plural(len(in_play(state, side)), 'unit')} in "
                       f"play, {len(steady(state, side))} not panicked; {kills}")
    return tuple(out)


def objective_lines(state: State) -> tuple[str, ...]:
    """The game's aims (CL §8) and how each stands now."""
    if not advanced(state):
        return ("Basic game: a side wins when the enemy has no units in play, or only "
                "panicked ones (CL §8).",)
    if not state.objectives:
        return ("Advanced game: two objectives, rolled after the first impetus roll; "
                f"most VP after turn {state.options['turns']} wins (CL §8).",)
    return tuple(f"{tables.OBJECTIVE_NAMES[o]}: {_objective_words(state, o)}"
                 for o in state.objectives)


def _objective_words(state: State, objective: str) -> str:
    if objective == "assassinate":
        alive = "; ".join(f"{side_name(s)} general "
                          f"{getattr(living_general(state, s), 'name', '') or 'dead'}"
                          for s in SIDES)
        return f"{tables.ASSASSINATE_VP} VP for killing the enemy general ({alive})."
    if objective == "hard-hitters":
        got = (f"scored by {side_name(state.hard_hitters)}" if state.hard_hitters else
               "; ".join(f"{side_name(s)} has destroyed {state.killed_worth[s]} of "
                         f"{state.worth[other_side(s)]}" for s in SIDES))
        return (f"{tables.HARD_HITTERS_VP} VP to the first side to destroy half the enemy "
                f"force, a vehicle or monster counting as {tables.BIG_FIGURE_WORTH} ({got}).")
    if objective == "extermination":
        got = "; ".join(f"{side_name(s)} {state.killed[s]} killed" for s in SIDES)
        return (f"1 VP per {tables.EXTERMINATION_STEP} enemy casualties, and 1 VP per "
                f"vehicle or monster ({got}).")
    if objective == "hold":
        return ("1 VP per table quarter holding your figures when the game ends (the app "
                "asks then).")
    if objective == "push":
        return (f"{tables.PUSH_VP} VP if your general is in the enemy deployment zone when "
                "the game ends (the app asks then).")
    where = (f"carried off by {side_name(state.macguffin)}" if state.macguffin
             else "still on the table")
    return (f"{tables.MACGUFFIN_VP} VP for carrying the counter from the centre off the "
            f"table ({where}).")


def prompt(state: State) -> str:
    """What comes next, in words."""
    if state.over:
        return "Game over"
    if state.stage != "battle":
        return SETUP_STEPS.prompt(state.stage)
    if not state.step:
        return f"Turn {state.turn + 1}: roll for impetus"
    head = f"Turn {state.turn}, {state.step}"
    if state.step == "movement":
        return f"{head}: {side_name(state.mover)} moves (engage, merge), then says so"
    if state.step == "shooting":
        return f"{head}: units of both sides shoot, then remove the casualties"
    if state.step == "melee":
        count = len(melees(state))
        return f"{head}: fight {plural(count, 'melee')}" if count else f"{head}: no melee"
    return f"{head}: test the panicked units"


def clock(state: State) -> TurnClock:
    detail = []
    if state.impetus:
        t = state.impetus_totals
        detail.append(f"{side_name(state.impetus)} has the impetus ({t[state.impetus]} v "
                      f"{t[other_side(state.impetus)]})")
    detail.append(f"advanced game, {state.options['turns']} turns" if advanced(state)
                  else "basic game")
    between = state.stage == "battle" and not state.step and not state.over and state.turn > 0
    return TurnClock(  # between turns, the one the prompt says is about to begin
        number=state.turn + 1 if between else state.turn,
        limit=state.options["turns"] if advanced(state) else 0,
        phases=tuple(PHASE_NAMES[p] for p in phases(state)),
        current=PHASE_NAMES.get(state.step, ""),
        active=state.mover,
        detail="; ".join(detail))


def result(state: State) -> str:
    """The result, with the final VP (the winner's first) in the advanced game."""
    if not (state.over and advanced(state)):
        return result_words(state)
    return result_words(state, final_score(state.vp, state.winner, "VP"))


def score(state: State) -> dict[str, int]:
    """VP in the advanced game, else the units each side has steady (the report
    reads it after every event: no whole view)."""
    return dict(state.vp) if advanced(state) else {s: len(steady(state, s)) for s in SIDES}


def board_view(state: State, viewer: str | None = None) -> BoardView:
    """The same for every ``viewer``: Classic has no secrets."""
    return BoardView(
        columns=COLUMNS,
        units={s: tuple(unit_row(state, u) for u in state.units[s]) for s in SIDES},
        deck=None,
        score=score(state),
        score_lines=score_lines(state),
        objectives=objective_lines(state),
        prompt=prompt(state),
        over=state.over,
        result=result(state),
        clock=clock(state),
        score_label="VP" if advanced(state) else "units",
        advance_label=advance_label(state),
        column_hints=COLUMN_HINTS,
    )

"""The Deathzap Plasmashok state as the battle screen shows it (a ``BoardView``).

Plasmashok has no hidden information, so every viewer gets the same view."""

from __future__ import annotations

from deathzap_tui.rules.narration import plural, side_name
from deathzap_tui.rules.plasmashok import tables
from deathzap_tui.rules.plasmashok.casualties import wounded
from deathzap_tui.rules.plasmashok.engine import SETUP_STEPS
from deathzap_tui.rules.plasmashok.melee import foes
from deathzap_tui.rules.plasmashok.morale import testing
from deathzap_tui.rules.plasmashok.state import State, UnitState
from deathzap_tui.rules.plasmashok.turn import PHASES, act_refusal, advance_label, phase_name
from deathzap_tui.rules.plasmashok.victory import POINTS_RULE
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
from deathzap_tui.rules.victory import result_words

COLUMNS = ("Unit", "Type", "Trn", "Mdl", "Sz", "Sv", "W", "State")
"""Unit, type, training bracket, models left/all, size, shield save, wounds per model,
state: short headers, so that the names keep their room in 80 columns."""
COLUMN_HINTS = (Column(), Column(drop=1), Column(drop=3), Column(), Column(drop=2),
                Column(), Column(), Column(wrap=True))
"""At 80 columns the type, then the size, then the training give way to the card
(issue 22); the state wraps."""
TYPES = {"infantry": "Infantry", "beasts": "Beasts", "light-vehicles": "Lt Vehicle",
         "big-beasts": "Big Beast", "vehicles": "Vehicle", "monsters": "Monster"}
"""The PS §2 types in at most ten letters."""
TRAINING = {"elite": "Elt", "regular": "Reg", "recruit": "Rec"}
"""The training bracket in three letters (PS §1)."""


def wounds_cell(unit: UnitState) -> str:
    """Wounds per model (PS §5 step 5); with a partly wounded model (app reading 1),
    the wounds it has left of its type's: "4/6"."""
    per_model = unit.stats.wounds
    taken = wounded(unit)
    return f"{per_model - taken}/{per_model}" if taken else str(per_model)


def status(state: State, unit: UnitState) -> str:
    """What matters about the unit now, shortest first: wiped out, wounds waiting to
    come off (PS §3), acted in this phase, models lost this turn (PS §7), contacts
    with enemy units in play."""
    if not unit.in_play:
        return "wiped out"
    words = []
    if unit.pending:
        words.append(f"{plural(unit.pending, 'wound')} pending")
    if unit.acted and state.step in tables.BRACKET_PHASES:
        words.append("acted")
    if unit.lost_turn and state.step:  # this turn's: gone once the turn is over
        words.append(f"lost {unit.lost_turn} this turn")
    touching = foes(state, unit)
    if touching:
        words.append(f"in contact: {', '.join(t.name for t in touching)}")
    return ", ".join(words)


def may_act(state: State, unit: UnitState) -> bool:
    """The unit can do something in the phase under way."""
    if not unit.in_play:
        return False
    if state.step == "movement":
        return unit.side == state.mover and not unit.engaged
    return state.step in tables.BRACKET_PHASES and not act_refusal(state, state.step,
                                                                   unit.id)


def unit_row(state: State, unit: UnitState) -> UnitRow:
    cells = (short_name(state, unit), TYPES[unit.type], TRAINING[unit.training],
             f"{unit.figures_left}/{len(unit.figures)}", str(unit.size), f"{unit.save}+",
             wounds_cell(unit), status(state, unit))
    return UnitRow(unit.id, unit.side, unit.name, cells, gone=not unit.in_play,
                   ready=may_act(state, unit), card=unit_card(state, unit))


def unit_card(state: State, unit: UnitState) -> tuple[CardSection, ...]:
    """Its models and their wounds, weapons with their PS §5 profiles, its type's PS §2
    profile, melee (PS §6), status and what it did this turn."""
    weapons = state.weapons[unit.side]
    stats = unit.stats
    shots = []
    for wid in carried(unit.figures):
        w = weapons[wid]
        reach = f", range {w.range}\"" if w.range else ""
        dice = plural(w.shots, "shot") if isinstance(w.shots, int) else f"{w.shots} shots"
        shots.append(f"{w.name}: {dice}, strength {w.strength}, damage {w.damage}{reach}")
    melee = ("melee {}, strength {}, damage {} per model (PS §6)".format(
        plural(unit.melee[0], "attack"), *unit.melee[1:])
             if unit.melee else "melee profile unknown: " + ", ".join(unit.melee_missing))
    this_turn = []
    if state.step:
        if unit.acted and state.step in tables.BRACKET_PHASES:
            this_turn.append(f"has attacked in the {phase_name(state.step).lower()} phase")
        if unit.lost_turn:
            this_turn.append(f"lost {plural(unit.lost_turn, 'model')}: tests morale (PS §7)")
    if unit.pending:
        this_turn.append(f"{plural(unit.pending, 'wound')} to remove when the bracket ends "
                         "(PS §3)")
    return sections(
        ("Models", figure_lines(unit.figures, lambda w: weapons[w].name)),
        ("Weapons", shots),
        ("Profile", (f"{stats.singular}, {unit.training}: move "
                     f"{stats.move}\", defence {stats.defence}, size {unit.size}",
                     f"Save {unit.save}+, wounds {wounds_cell(unit)} per model (PS §5)",
                     melee)),
        ("Status", (status(state, unit) or "in play",)),
        ("This turn", this_turn),
    )


def score(state: State) -> dict[str, int]:
    """Each side's points of ENEMY models destroyed (PS §8: the other side's loss)."""
    return {s: state.lost[other_side(s)] for s in SIDES}


def score_lines(state: State) -> tuple[str, ...]:
    """Each side's points of enemy models destroyed out of the enemy's worth, short
    enough for the score panel: "Red: 92/267 pts killed" (PS §8)."""
    return tuple(f"{side_name(s)}: {state.lost[other_side(s)]}/{state.worth[other_side(s)]}"
                 " pts killed" for s in SIDES)


def objective_lines(state: State) -> tuple[str, ...]:
    """How the game is won (PS §8)."""
    return (f"A side with no unit left loses; after turn {state.options['turns']} "
            f"{POINTS_RULE} (PS §8).",)


def prompt(state: State) -> str:
    """What comes next, in words."""
    if state.over:
        return "Game over"
    if state.stage != "battle":
        return SETUP_STEPS.prompt(state.stage)
    if not state.step:
        return f"Turn {state.turn + 1}: roll off to see who moves first"
    head = f"Turn {state.turn}, {phase_name(state.step).lower()}"
    if state.step == "movement":
        return (f"{head}: {side_name(state.mover)} moves (into contact), then says it has "
                "finished")
    if state.step == "morale":
        count = len(testing(state))
        return f"{head}: {plural(count, 'unit')} to test, then the turn ends"
    verb = PHASES[state.step].verb
    if state.step == "melee":
        return (f"{head}, {state.bracket} bracket: every unit in contact must {verb}, then "
                "end the bracket")
    return f"{head}, {state.bracket} bracket: units {verb}, then end the bracket"


def clock_detail(state: State) -> str:
    """"Red moves first", "elite bracket", "elite bracket, round 2"."""
    if state.step == "movement":
        return f"{side_name(state.move_first)} moves first"
    if state.step in tables.BRACKET_PHASES:
        extra = f", round {state.melee_round}" if state.melee_round > 1 else ""
        return f"{state.bracket} bracket{extra}"
    return ""


def clock(state: State) -> TurnClock:
    between = state.stage == "battle" and not state.step and not state.over and state.turn > 0
    return TurnClock(  # between turns, the one the prompt says is about to begin
        number=state.turn + 1 if between else state.turn,
        limit=state.options["turns"],
        phases=tuple(tables.PHASE_NAMES[p] for p in tables.PHASES),
        current=tables.PHASE_NAMES.get(state.step, ""),
        active=state.mover if state.step == "movement" else "",
        detail=clock_detail(state))


def board_view(state: State, viewer: str | None = None) -> BoardView:
    """The same for every ``viewer``: Plasmashok has no secrets."""
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
        score_label="pts",
        advance_label=advance_label(state),
        column_hints=COLUMN_HINTS,
    )

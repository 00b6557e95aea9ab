"""The Deathzap 3 state as the battle screen shows it (a ``BoardView``)."""

from __future__ import annotations

from deathzap_tui.rules.activations import deck_counts
from deathzap_tui.rules.cards import Card
from deathzap_tui.rules.deathzap3 import tables
from deathzap_tui.rules.deathzap3.common import side_name
from deathzap_tui.rules.deathzap3.engine import prompt
from deathzap_tui.rules.deathzap3.state import FigureState, State, UnitState
from deathzap_tui.rules.narration import plural
from deathzap_tui.rules.ruleset import SIDES, BoardView, CardSection, Column, DeckView, UnitRow
from deathzap_tui.rules.setup import objective_lines
from deathzap_tui.rules.unitcard import carried, figure_lines, sections
from deathzap_tui.rules.units import short_name
from deathzap_tui.rules.victory import final_score, result_words

COLUMNS = ("Unit", "Figs", "Shields", "Skill", "Token", "Where", "Status", "Cmd")
COLUMN_HINTS = (Column(), Column(), Column("Sh", "shields left/most, strength"),
                Column(drop=1), Column("T", "token"), Column(drop=2), Column(wrap=True),
                Column("C", "command points", drop=3))
"""At 80 columns the skill, then where the unit is, then its command points give way
to the card (issue 22)."""
STRENGTH_LETTER = {"light": "L", "medium": "M", "heavy": "H"}


def status(unit: UnitState) -> str:
    words = []
    if unit.fled:
        words.append("fled")
    if unit.destroyed:
        words.append("destroyed")
    if unit.immobilised:
        words.append("immobilised")
    if unit.gun_crippled:
        words.append("gun crippled")
    if unit.weapon_crippled:
        words.append("weapon crippled")
    if unit.engaged and unit.in_play:
        words.append("in melee")
    return ", ".join(words)


def unit_row(state: State, unit: UnitState) -> UnitRow:
    cp = sum(f.command for f in unit.figures if f.alive and f.leader)
    has_leader = any(f.leader and f.alive for f in unit.figures)
    cells = (
        short_name(state, unit),
        f"{unit.figures_left}/{len(unit.figures)}",
        f"{unit.shields}/{unit.max_shields} {STRENGTH_LETTER.get(unit.shield_strength, '?')}",
        unit.skill.capitalize(),
        "●" if unit.token else "",
        "entered" if unit.entered else "off-table",
        status(unit),
        str(cp) if has_leader else "",
    )
    return UnitRow(unit.id, unit.side, unit.name, cells, gone=not unit.in_play,
                   ready=unit.ready and state.card_side == unit.side,
                   card=unit_card(state, unit))


def unit_card(state: State, unit: UnitState) -> tuple[CardSection, ...]:
    """Its figures (leaders with their command points, DZ3 §11), weapons and their
    profiles (DZ3 §6), shields, move and melee, token and status."""
    weapons = state.weapons[unit.side]

    def label(figure: FigureState) -> str:
        return f"{figure.name} (leader, {figure.command} CP)" if figure.leader else figure.name

    profiles = []
    for wid in carried(unit.figures):
        weapon = weapons[wid]
        profiles.append(f"{weapon.name}: " + "; ".join(
            ("" if p.name == weapon.name else f"{p.name} ") + f"{plural(p.shots, 'shot')}, "
            f"{p.power}" + "".join(f", {r}" for r in sorted(p.rules))
            for p in weapon.profiles))
    return sections(
        ("Figures", figure_lines(unit.figures, lambda w: weapons[w].name, label)),
        ("Weapons", profiles),
        ("Profile", (f"{unit.skill.capitalize()}, move {unit.move}\", "
                     f"{plural(unit.melee_attacks, 'melee attack')}"
                     + (", vehicle" if unit.vehicle else ""),
                     f"Shields {unit.shields}/{unit.max_shields} {unit.shield_strength} "
                     "(DZ3 §6)")),
        ("Status", (status(unit) or "in play",
                    "entered the table" if unit.entered else "off-table, enters on its "
                    "first activation (DZ3 §3)")),
        ("Activation", ("activated: carries a token until the tokens are reset (DZ3 §4)"
                       if unit.token else "no token: may activate",
                       f"{plural(unit.activations, 'activation')} this game")),
    )


def deck_view(state: State) -> DeckView:
    card = Card.parse(state.card) if state.card else None
    grants = ""
    if card is not None:
        if card.is_joker:
            grants = "Joker: all tokens removed"
        else:
            grants = f"{side_name(state.card_side)}: {state.granted} activation" + (
                "s" if state.granted != 1 else "") + f", {state.used} used"
            if state.forfeited:
                grants += f", {state.forfeited} spent"
            if state.command_used:
                grants += ", command used"
    left, jokers, by_colour = deck_counts(state.deck)
    return DeckView(
        current=card.label if card else "",
        current_words=card.words if card else "",
        colour=(card.colour or "") if card else "",
        grants=grants,
        cards_left=left,
        jokers_left=jokers,
        left_by_colour=by_colour,
        recent=tuple(Card.parse(c).label for c in state.discard[-5:]),
    )


def score_lines(state: State) -> tuple[str, ...]:
    out = []
    for side in SIDES:
        parts = [f"{e.reason} ({e.vp})" for e in state.score if e.side == side]
        out.append(f"{side_name(side)} {state.vp[side]} VP" + (": " + ", ".join(parts)
                                                               if parts else ""))
    return tuple(out)


def score(state: State) -> dict[str, int]:
    """The VP each side holds (the report reads it after every event: no whole view)."""
    return dict(state.vp)


def board_view(state: State, viewer: str | None = None) -> BoardView:
    """The same for every ``viewer``: Deathzap 3 has no secrets."""
    result = result_words(state, final_score(state.vp, state.winner))
    text = prompt(state)
    return BoardView(
        columns=COLUMNS,
        units={s: tuple(unit_row(state, u) for u in state.units[s]) for s in SIDES},
        deck=deck_view(state),
        score=score(state),
        score_lines=score_lines(state),
        objectives=objective_lines(state, tables.objective_vp),
        prompt=text,
        over=state.over,
        result=result,
        column_hints=COLUMN_HINTS,
    )

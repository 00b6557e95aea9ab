"""The Command Hand state as the battle screen shows it (a ``BoardView``).

Hidden information: each side's Command Hand goes ONLY into
``BoardView.private[side]``, and only when the viewer is that side or the whole
table (``None``, a shared terminal whose app hides it behind a cover screen). The
public parts show how many cards each hand holds, never which.
"""

from __future__ import annotations

from deathzap_tui.rules.activations import activations_for, deck_counts
from deathzap_tui.rules.cards import Card
from deathzap_tui.rules.commandhand import tables
from deathzap_tui.rules.commandhand.common import inches
from deathzap_tui.rules.commandhand.deck import rank_name
from deathzap_tui.rules.commandhand.engine import prompt
from deathzap_tui.rules.commandhand.state import State, UnitState
from deathzap_tui.rules.narration import card_label, plural, side_name
from deathzap_tui.rules.ruleset import SIDES, BoardView, CardSection, Column, DeckView, UnitRow
from deathzap_tui.rules.setup import objective_lines
from deathzap_tui.rules.unitcard import carried, figure_lines, sections
from deathzap_tui.rules.units import short_name
from deathzap_tui.rules.victory import final_score, result_words

COLUMNS = ("Unit", "Figs", "Shields", "Run/Walk", "Melee", "Token", "Where", "Status")
COLUMN_HINTS = (Column(), Column(), Column("Sh", "shields left/most, recharge"),
                Column("Mv", "run/walk", drop=2), Column(drop=1), Column("T", "token"),
                Column(drop=3), Column(wrap=True))
"""At 80 columns the melee profile, then the moves, then where the unit is give way
to the card (issue 22)."""


def where(unit: UnitState) -> str:
    if not unit.entered:
        return "off-table"
    return "home edge" if unit.edge in tables.HOME_EDGES else f"{unit.edge} edge"


def unit_row(state: State, unit: UnitState) -> UnitRow:
    status = "destroyed" if unit.destroyed else ("in melee" if unit.engaged else "")
    cells = (
        short_name(state, unit),
        f"{unit.figures_left}/{len(unit.figures)}",
        f"{unit.shields}/{unit.max_shields} +{unit.recharge}",
        f"{inches(state, unit.run)}/{inches(state, unit.walk)}",
        f"{unit.melee_attacks}x {unit.melee_damage}+",
        "●" if unit.token else "",
        where(unit),
        status,
    )
    return UnitRow(unit.id, unit.side, unit.name, cells, gone=not unit.in_play,
                   ready=unit.ready and state.active_side == unit.side and not state.window,
                   card=unit_card(state, unit, status))


def unit_card(state: State, unit: UnitState, status: str) -> tuple[CardSection, ...]:
    """Its figures, weapons with their CH §4 shots and to-damage rolls, shields,
    moves and melee, token, where it is and its status."""
    weapons = state.weapons[unit.side]
    guns = []
    for wid in carried(unit.figures):
        w = weapons[wid]
        damage = ", ".join(f"{n}+ {cover}" for cover, n in w.to_damage.items())
        rules = "".join(f", {r}" for r in sorted(w.rules))
        guns.append(f"{w.name}: {plural(w.shots_near, 'shot')} near, {w.shots_far} far; "
                    f"to damage {damage}{rules}")
    return sections(
        ("Figures", figure_lines(unit.figures, lambda w: weapons[w].name)),
        ("Weapons", guns),
        ("Profile", (f"Shields {unit.shields}/{unit.max_shields}, recharge "
                     f"{unit.recharge} by a Recharge action (CH §3)",
                     f"Run {inches(state, unit.run)}, walk {inches(state, unit.walk)}; "
                     f"melee {plural(unit.melee_attacks, 'attack')}, damage on "
                     f"{unit.melee_damage}+ (CH §5)")),
        ("Status", (status or "in play", where(unit))),
        ("Activation", ("activated: carries a token until the tokens are reset (CH §6)"
                        if unit.token else "no token: may activate",)),
    )


def grants_text(state: State) -> str:
    if not state.card:
        return ""
    if not state.card_side:
        return "Joker: all tokens removed"
    parts = []
    for g in state.grants:
        text = f"{side_name(g.side)} {g.used}/{plural(g.granted, 'activation')}"
        if g.from_hand:
            text += f" ({card_label(g.card)} from hand)"
        if g.forfeited:
            text += f", {g.forfeited} spent"
        parts.append(text)
    return ", then ".join(parts)


def deck_view(state: State) -> DeckView:
    card = Card.parse(state.card) if state.card else None
    left, jokers, by_colour = deck_counts(state.deck)
    return DeckView(
        current=card.label if card else "",
        current_words=card.words if card else "",
        colour=(card.colour or "") if card else "",
        grants=grants_text(state),
        cards_left=left,
        jokers_left=jokers,
        left_by_colour=by_colour,
        recent=tuple(Card.parse(c).label for c in state.discard[-5:]),
    )


def hand_lines(state: State, side: str) -> tuple[str, ...]:
    """A side's Command Hand for that side's eyes only: a header, then one line per
    card with what it grants and when it would come first (CH §2)."""
    hand = [Card.parse(c) for c in state.hands[side]]
    if not hand:
        return ("Command Hand: empty (hands are never refilled, CH-R2)",)
    out = [f"Command Hand ({plural(len(hand), 'card')}): "
           + " ".join(c.label for c in hand)]
    for c in hand:
        out.append(f"{c.label}: {plural(activations_for(c), 'activation')}; first against "
                   f"a flipped {rank_name(c)} or higher, otherwise straight after")
    return tuple(out)


def score_lines(state: State) -> tuple[str, ...]:
    out = []
    for side in SIDES:
        units = state.units[side]
        figs = sum(u.figures_left for u in units)
        total = sum(len(u.figures) for u in units)
        live = sum(1 for u in units if u.in_play)
        line = (f"{side_name(side)}: {figs}/{total} figures, {live}/{len(units)} units, "
                f"{plural(len(state.hands[side]), 'card')} in hand")
        if state.objectives_mode:
            line += f", {state.vp[side]} VP"
        out.append(line)
    if state.played:
        out.append("Played from hands: " + " ".join(card_label(c) for c in state.played))
    return tuple(out)


def score(state: State) -> dict[str, int]:
    """VP in an objectives game, else the figures each side has left (the report
    reads it after every event: no whole view)."""
    return dict(state.vp) if state.objectives_mode else {
        s: sum(u.figures_left for u in state.units[s]) for s in SIDES}


def board_view(state: State, viewer: str | None = None) -> BoardView:
    result = result_words(
        state, final_score(state.vp, state.winner) if state.objectives_mode else "")
    visible = SIDES if viewer is None else ((viewer,) if viewer in SIDES else ())
    return BoardView(
        columns=COLUMNS,
        units={s: tuple(unit_row(state, u) for u in state.units[s]) for s in SIDES},
        deck=deck_view(state),
        score=score(state),
        score_lines=score_lines(state),
        objectives=objective_lines(state, lambda d: tables.objective_vp(d, state.factor)),
        prompt=prompt(state),
        over=state.over,
        result=result,
        private={s: hand_lines(state, s) for s in visible},
        secret_turn=state.window,
        score_label="VP" if state.objectives_mode else "figures",
        column_hints=COLUMN_HINTS,
    )

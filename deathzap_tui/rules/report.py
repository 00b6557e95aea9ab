"""The end-of-game report: the score over time, what each unit did and suffered, and
how lucky each player's dice were.

Built by replaying a game's effective events once (:func:`build_report`): every
resolution keeps the steps it asked (``Resolution.asked``) and the harm it did
(``ctx.harms``), so nothing extra is saved; the report is derived from the log like
the rest of the state. After each event it reads only the score and the turn
(:meth:`Ruleset.tally`), the whole view once at the end: a 5,000-event game's report
costs about its replay (issue 21).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from deathzap_tui.rules.events import Event
from deathzap_tui.rules.game import Game
from deathzap_tui.rules.luck import RollLuck, SideLuck, judge, side_luck
from deathzap_tui.rules.ruleset import SIDES
from deathzap_tui.rules.statebase import StateBase
from deathzap_tui.rules.steps import Dice, DiceRequest, Harm


@dataclass(frozen=True)
class ScorePoint:
    """The score after ``event`` effective events (0: before the first)."""

    event: int
    turn: int
    """The turn (or round) under way then, 0 for a game without turns or before the
    first."""
    score: Mapping[str, int]


@dataclass(frozen=True)
class UnitTally:
    """What one unit did and suffered over the game (from the resolutions' harm)."""

    id: str
    side: str
    name: str
    kills: int = 0
    """Enemy figures (models) it removed."""
    damage_dealt: int = 0
    damage_taken: int = 0
    figures_lost: int = 0
    """Its own figures out of the game by the end, by any cause (casualties, rout,
    panic, morale, explosion, poison; a unit gone takes every figure it had left).
    A ruleset whose state is not a :class:`StateBase` counts the kills its harm
    records."""
    gone: bool = False
    """Destroyed or fled by the end."""


@dataclass(frozen=True)
class GameReport:
    ruleset: str
    title: str
    forces: Mapping[str, str]
    """side -> force name."""
    over: bool
    result: str
    score_label: str
    score: Mapping[str, int]
    """The final (or current) score."""
    series: tuple[ScorePoint, ...]
    """The score at the start, after every event that changed it, and at the end."""
    events: int
    units: tuple[UnitTally, ...]
    luck: Mapping[str, SideLuck]
    rolls: tuple[RollLuck, ...] = field(repr=False)
    """Every judged roll, in the order rolled."""
    damage_counts: str = ""
    """What the damage columns count in this ruleset (:attr:`Ruleset.damage_counts`)."""

    def to_json(self) -> dict[str, Any]:
        """Plain JSON-able data (``deathzap report --json``)."""
        return {
            "ruleset": self.ruleset,
            "title": self.title,
            "forces": dict(self.forces),
            "over": self.over,
            "result": self.result,
            "score_label": self.score_label,
            "score": dict(self.score),
            "events": self.events,
            "score_over_time": [{"event": p.event, "turn": p.turn, **p.score}
                                for p in self.series],
            "units": [asdict(u) for u in self.units],
            "damage_counts": self.damage_counts,
            "luck": {side: luck.to_json() for side, luck in self.luck.items()},
            "rolls": [r.to_json() for r in self.rolls],
        }


def build_report(game: Game, events: Sequence[Event] | None = None,
                 numbers: Sequence[int] | None = None) -> GameReport:
    """The report of ``game`` as it stands (over or not), by one replay of its
    effective events (or of ``events``, the game's :meth:`~Game.events` taken
    earlier: the replay reads nothing else of the game that changes, so it may run in
    another thread while the game goes on). ``numbers``: each event's index in its
    log, to name one that does not replay (:meth:`Game.replay`)."""
    ruleset = game.ruleset
    events = game.events() if events is None else list(events)
    kills: dict[str, int] = {}
    dealt: dict[str, int] = {}
    taken: dict[str, int] = {}
    lost: dict[str, int] = {}
    rolls: list[RollLuck] = []
    state = game.start_state()
    score, turn = ruleset.tally(state)
    series = [ScorePoint(0, turn, score)]
    harms: list[Harm] = []
    for n, (_, res) in enumerate(game.replay(events, numbers), 1):
        for step, answer in zip(res.asked, res.answers, strict=True):
            if isinstance(step, DiceRequest) and isinstance(answer, Dice):
                judged = judge(step, answer, n)
                if judged is not None:
                    rolls.append(judged)
        harms += res.ctx.harms
        state = res.ctx.state  # one state, moved on by each event in turn
        score, turn = ruleset.tally(state)
        if score != series[-1].score or n == len(events):
            series.append(ScorePoint(n, turn, score))
    view = ruleset.view(state)
    side_of = {row.id: side for side in SIDES for row in view.units.get(side, ())}
    for h in harms:
        taken[h.to] = taken.get(h.to, 0) + h.damage
        lost[h.to] = lost.get(h.to, 0) + h.kills
        if h.by is not None and side_of.get(h.by) != side_of.get(h.to):
            dealt[h.by] = dealt.get(h.by, 0) + h.damage
            kills[h.by] = kills.get(h.by, 0) + h.kills
    if isinstance(state, StateBase):
        # Read from the final state, not from the harm: a rout or a failed morale test
        # removes figures no enemy unit is credited with (issue 22).
        lost = {row.id: state.unit(row.id).figures_lost(row.gone)
                for side in SIDES for row in view.units.get(side, ())}
    units = tuple(
        UnitTally(row.id, side, row.name, kills.get(row.id, 0), dealt.get(row.id, 0),
                  taken.get(row.id, 0), lost.get(row.id, 0), row.gone)
        for side in SIDES for row in view.units.get(side, ()))
    return GameReport(
        ruleset=ruleset.id, title=ruleset.title,
        forces={"red": str(getattr(game.red, "name", "")),
                "black": str(getattr(game.black, "name", ""))},
        over=view.over, result=view.result, score_label=view.score_label,
        score=dict(view.score), series=tuple(series), events=len(events), units=units,
        luck={side: side_luck(side, [r for r in rolls if r.side == side]) for side in SIDES},
        rolls=tuple(rolls), damage_counts=ruleset.damage_counts)


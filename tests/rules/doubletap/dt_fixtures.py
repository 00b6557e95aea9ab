"""Double Tap test helpers: small forces built from the model, games, the set-up
with scripted dice, and a stand-in for the actions when a test is about the turn
machine, not the fighting."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

# shared with the other rulesets' fixtures; re-exported for the tests
from fixtures_common import (  # noqa: F401
    DiceSource,
    act,
    given_dice,
    notes,
    roll_for_me,
)

from deathzap_tui.rules.doubletap import RULESET, actions
from deathzap_tui.rules.doubletap.actions import action_refusal
from deathzap_tui.rules.doubletap.model import Force, Unit
from deathzap_tui.rules.game import Game
from deathzap_tui.rules.narration import Gen
from deathzap_tui.rules.ruleset import UNIT
from deathzap_tui.rules.steps import Context, Dice, DiceRequest, Refused

FORCES = Path(__file__).resolve().parents[3] / "forces"


def unit(name: str = "Trooper", weapons: Sequence[str] = ("rifle", "knife"),
         rules: Sequence[str] = (), poison: str = "") -> Unit:
    return Unit(name, tuple(weapons), tuple(rules), poison)


def force(name: str, *units: Unit) -> Force:
    return Force(name, tuple(units))


def new_game(red: Force, black: Force, options: Mapping[str, Any] | None = None,
             seed: int = 1) -> Game:
    return Game(RULESET, red, black, RULESET.options(options), seed)


def face(n: int) -> Dice:
    return Dice(faces=(n,))


def faces(*n: int) -> Dice:
    return Dice(faces=tuple(n))


def rolloff(game: Game, red: int = 6, black: int = 1, edge: str = "south") -> Game:
    """The deployment roll-off (DT §2), won by the higher roll."""
    act(game, {"type": "rolloff"}, {"rolloff.1.red": face(red), "rolloff.1.black": face(black),
                                    "edge": edge})
    return game


def deploy(game: Game, answers: Mapping[str, Any] | None = None) -> list[Any]:
    """Deployment (DT §2): each placement takes its default (the first unit listed)
    unless ``answers`` says otherwise."""
    return act(game, {"type": "deploy"}, answers)


def markers(game: Game, die: int = 3, red: int = 6, black: int = 1) -> list[Any]:
    """The markers (DT §2): ``die`` read as D3 (3: two markers), then the roll-off."""
    return act(game, {"type": "markers"}, {"markers": face(die), "rolloff.1.red": face(red),
                                           "rolloff.1.black": face(black)})


def ready_game(red: Force, black: Force, first: str = "red", die: int = 3,
               deploy: Mapping[str, Any] | None = None, **kw: Any) -> Game:
    """A game through its set-up: ``first`` won the roll-off (south edge), every unit
    deployed by default (or by the ``deploy`` answers), ``die`` markers (3: two),
    round 1 under way."""
    g = new_game(red, black, **kw)
    rolloff(g, *((6, 1) if first == "red" else (1, 6)))
    act(g, {"type": "deploy"}, deploy)
    markers(g, die)
    return g


def two_a_side(**kw: Any) -> Game:
    """Red: Vey, Kol. Black: Ash, Bix. Rifles and knives; Red first."""
    return ready_game(force("Reds", unit("Vey"), unit("Kol")),
                      force("Blacks", unit("Ash"), unit("Bix")), **kw)


Effect = Callable[[Context, str, str], None]


def fake_perform(monkeypatch: Any, effect: Effect | None = None) -> None:
    """Replace :func:`actions.perform` by a stand-in that asks nothing, narrates
    "<unit> does <action>." and calls ``effect(ctx, unit_id, action)`` (poisoning,
    killing... as a test needs it, so that the log replays): for tests of the turn
    machine (DT §3), not of the fighting."""

    def perform(ctx: Context, unit_id: str, action: str) -> Gen:
        ctx.say(f"{unit_id} does {action}.")
        if effect:
            effect(ctx, unit_id, action)
        yield from ()

    monkeypatch.setattr(actions, "perform", perform)


def hold(game: Game, unit_id: str, answers: Mapping[str, Any] | None = None,
         by: str = "") -> list[Any]:
    return act(game, {"type": "act", "unit": unit_id, "action": "hold"}, answers, by=by)


def pass_turn(game: Game, answers: Mapping[str, Any] | None = None, by: str = "") -> list[Any]:
    return act(game, {"type": "pass"}, answers, by=by)


def unit_intents(game: Game) -> list[tuple[str, str]]:
    return [(o.intent["unit"], o.intent["action"]) for o in RULESET.intents(game.state)
            if o.group == UNIT]


def reacting(side: str, how: Mapping[str, str]) -> dict[str, str]:
    """The answers of ``side`` reacting to an enemy action (DT §6, app reading 6): yes,
    then each unit of ``how`` (unit -> its reaction) chosen in turn, with its reaction;
    the next choice of a unit takes its default (none more)."""
    answers = {f"react.{side}": "yes"}
    for n, (unit_id, reaction) in enumerate(how.items(), 1):
        answers[f"reactor.{side}.{n}"] = unit_id
        answers[f"reaction.{unit_id}"] = reaction
    return answers


Scripted = tuple[str, str | tuple[str, ...], Mapping[str, Any]]
"""One scripted activation: a unit, its action (or actions, the first one it may take
is taken), and answers by question key."""


def play_script(game: Game, dice: DiceSource, turns: Mapping[tuple[int, str], Sequence[Scripted]],
                setup: Mapping[str, Any] | None = None,
                round_ends: Mapping[int, Mapping[str, Any]] | None = None,
                max_events: int = 500) -> Game:
    """Play the game out by a script: the set-up steps answered from ``setup``; in each
    turn the activations ``turns[(round, side)]`` lists, in order, then the player
    passes. An activation whose unit can take none of its actions (killed, stunned...)
    is left out. Questions are answered from the activation's answers, then from
    ``round_ends[round]`` (the markers and arrivals asked when the round ends); an
    answer the question does not offer (a target killed since), or none, takes the
    default. Every die comes from ``dice``."""
    done: dict[tuple[int, str], int] = {}
    for _ in range(max_events):
        state = game.state
        if state.over:
            break
        answers: dict[str, Any] = dict(setup or {})
        intent: dict[str, Any] = {"type": state.stage}
        if state.stage == "battle":
            key = (state.round, state.player)
            plan, n = turns.get(key, ()), done.get(key, 0)
            answers = dict((round_ends or {}).get(state.round, {}))
            intent = {"type": "pass"}
            while n < len(plan) and intent["type"] == "pass":
                unit_id, wanted, given = plan[n]
                n += 1
                legal = [a for a in ((wanted,) if isinstance(wanted, str) else wanted)
                         if not action_refusal(state, unit_id, a, state.player)]
                if legal:
                    intent = {"type": "act", "unit": unit_id, "action": legal[0]}
                    answers.update(given)
            done[key] = n
        started = game.begin(intent)
        res = started.resolution
        while not res.done:
            step = res.step
            fallback = dice(step) if isinstance(step, DiceRequest) else step.default
            answer = answers.get(step.key, fallback)
            try:
                res.answer(answer)
            except Refused:
                res.answer(fallback)
        game.commit(started)
    return game

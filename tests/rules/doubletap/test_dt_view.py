"""Double Tap board view: columns and state words, the round clock with the two turns
and the points left (DT §3), markers as the score (DT §2), the prompt, the result."""

from __future__ import annotations

from dt_fixtures import (
    act,
    fake_perform,
    force,
    new_game,
    pass_turn,
    ready_game,
    rolloff,
    two_a_side,
    unit,
)

from deathzap_tui.rules import registry
from deathzap_tui.rules.doubletap import RULESET
from deathzap_tui.rules.doubletap.common import kill
from deathzap_tui.rules.ruleset import WATCH, TurnClock


def rows(view):
    return {r.id: r for side in view.units.values() for r in side}


def test_dt_plugin_identity_and_no_secrets() -> None:
    assert registry.get("double-tap") is RULESET
    assert (RULESET.id, RULESET.title) == ("double-tap", "Double Tap 2.1")
    g = two_a_side()
    s = g.state
    assert RULESET.view(s, "red") == RULESET.view(s, "black") == RULESET.view(s, WATCH)
    assert RULESET.intents(s, "red") == RULESET.intents(s, WATCH) == RULESET.intents(s)


def test_dt_before_the_battle() -> None:
    g = new_game(force("Reds", unit("Vey", rules=("grenade", "scout"))),
                 force("Blacks", unit("Ash", ("sniper-rifle", "knife"), ("camouflage",)),
                       unit("Bix", rules=("ambush",))))
    v = RULESET.view(g.state)
    assert v.deck is None and v.columns == ("Unit", "Weapons", "Rules", "State")
    assert v.prompt == "Set-up: roll off for deployment edges"
    assert v.clock == TurnClock(number=0, limit=4, unit="Round",
                                phases=("Red turn", "Black turn"))
    assert v.score == {"red": 0, "black": 0} and v.score_lines == ()
    assert (v.score_label, v.advance_label) == ("markers", "End turn")
    r = rows(v)
    assert r["red.0"].cells == ("Vey", "Rifle, Knife, Grenade", "Scout", "to deploy")
    assert r["black.0"].cells == ("Ash", "Sniper Rifle, Knife", "Camouflage", "to deploy")
    assert not any(row.ready for row in r.values())
    rolloff(g, red=1, black=6)
    act(g, {"type": "deploy"}, {"deploy.2": "reserve:black.1"})
    v = RULESET.view(g.state)
    assert v.prompt == "Set-up: place the objective markers"
    assert v.clock.phases == ("Black turn", "Red turn")
    r = rows(v)
    assert r["black.0"].cells[-1] == "camo" and r["black.1"].cells[-1] == "reserve"
    assert r["red.0"].cells[-1] == ""


def test_dt_a_turn_under_way(monkeypatch) -> None:
    def hurt(ctx, unit_id, action):
        black = ctx.state.unit("black.0")
        black.stunned = black.poisoned = True
        black.wounds = 1
        black.engaged.append("red.1")
        ctx.state.unit("red.1").engaged.append("black.0")
        ctx.state.unit("red.1").flashed_until = "red"
        kill(ctx.state, ctx.state.unit("black.1"))

    fake_perform(monkeypatch, hurt)
    g = ready_game(force("Reds", unit("Vey"), unit("Kol")),
                   force("Blacks", unit("Ash", rules=("tough",)), unit("Bix"), unit("Cy")))
    act(g, {"type": "act", "unit": "red.0", "action": "hold"})
    v = RULESET.view(g.state)
    assert v.clock == TurnClock(number=1, limit=4, unit="Round",
                                phases=("Red turn", "Black turn"), current="Red turn",
                                active="red", detail="Red: 1 activation point left")
    assert v.prompt == ("Round 1, Red's turn: 1 activation point to spend on actions, or "
                        "end the turn")
    r = rows(v)
    assert r["black.0"].cells[-1] == "stunned, poisoned, wounds 1/3, engaged: Kol"
    assert r["red.1"].cells[-1] == "flashed, engaged: Ash"
    assert r["black.1"].cells[-1] == "killed" and r["black.1"].gone
    assert r["red.0"].ready and not r["black.2"].ready
    assert v.score_lines == ("Marker 1: neutral", "Marker 2: neutral")


def test_dt_markers_score_and_the_result(monkeypatch) -> None:
    fake_perform(monkeypatch)
    g = two_a_side()
    pass_turn(g)
    pass_turn(g, {"marker.1": "black"})
    v = RULESET.view(g.state)
    assert v.score == {"red": 0, "black": 1}
    assert v.score_lines == ("Marker 1: held by Black", "Marker 2: neutral")
    assert v.objectives == ("A marker is seized at the end of a round by a side with a unit "
                            "(not stunned) within 3\" and no enemy within 3\". After round 4 "
                            "the side "
                            "holding more markers wins, equal holdings draw; a side with no "
                            "unit left loses (DT §2).",)
    act(g, {"type": "end"})
    v = RULESET.view(g.state)
    assert v.over and v.prompt == "Game over"
    assert v.clock.current == "" and v.clock.active == ""
    assert v.result == ("Black wins (the players agree to end it (the side holding more "
                        "markers wins, equal holdings draw); Red holds 0 markers, Black 1)")
    assert not any(row.ready for row in rows(v).values())

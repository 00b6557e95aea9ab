"""Double Tap rounds and turns (DT §3, app reading 1): activation points, the same
unit acting twice, passing, turn order within rounds, the poison check before an
action (DT §7, app reading 9), Ambush arrivals from round 2 (app reading 5), the
flash wearing off (DT §7). The actions themselves are stood in for
(:func:`dt_fixtures.fake_perform`): this is the turn machine."""

from __future__ import annotations

import pytest
from dt_fixtures import (
    act,
    face,
    fake_perform,
    force,
    hold,
    notes,
    pass_turn,
    ready_game,
    two_a_side,
    unit,
    unit_intents,
)

from deathzap_tui.rules.doubletap import RULESET
from deathzap_tui.rules.doubletap.engine import resolution
from deathzap_tui.rules.ruleset import ADVANCE, END
from deathzap_tui.rules.steps import Refused


def test_dt_activation_points_are_the_living_units_reserve_included_dt_3(monkeypatch) -> None:
    """App reading 1: a unit in Ambush reserve is in the army and brings its point."""
    fake_perform(monkeypatch)
    red = force("Reds", unit("Vey"), unit("Kol"), unit("Mox", rules=("ambush",)))
    g = ready_game(red, force("Blacks", unit("Ash")), deploy={"deploy.3": "reserve:red.2"})
    s = g.state
    assert s.unit("red.2").reserve and s.points == {"red": 3, "black": 0}
    assert notes(g)[-1] == "Red's turn: 3 activation points, one per living unit (DT §3)."
    assert {u for u, _ in unit_intents(g)} == {"red.0", "red.1"}


def test_dt_the_same_unit_may_act_until_the_points_are_spent_dt_3(monkeypatch) -> None:
    fake_perform(monkeypatch)
    g = two_a_side()
    hold(g, "red.0")
    assert g.state.points["red"] == 1 and g.state.player == "red"
    assert notes(g) == ["Red Vey: Hold (1 activation point left) (DT §3).", "red.0 does hold."]
    act(g, {"type": "act", "unit": "red.0", "action": "advance"})
    s = g.state
    assert (s.player, s.points, s.turns_played, s.round) == (
        "black", {"red": 0, "black": 2}, 1, 1)
    assert notes(g) == [
        "Red Vey: Advance (0 activation points left) (DT §3).", "red.0 does advance.",
        "Red has spent its activation points (DT §3).",
        "Black's turn: 2 activation points, one per living unit (DT §3)."]


def test_dt_intents_are_the_players_legal_actions_then_pass_and_end_dt_3(monkeypatch) -> None:
    fake_perform(monkeypatch)
    g = two_a_side()
    offers = RULESET.intents(g.state)
    acts = [o for o in offers if o.intent["type"] == "act"]
    assert acts and all(o.side == "red" and o.intent["unit"].startswith("red.") for o in acts)
    first = acts[0]
    assert (first.intent, first.label, first.rule) == (
        {"type": "act", "unit": "red.0", "action": "hold"}, "Red Vey: Hold", "DT §3")
    rest = [(o.intent, o.label, o.group) for o in offers if o not in acts]
    assert rest == [
        ({"type": "pass"}, "Red ends its turn (forfeits 2 activation points)", ADVANCE),
        ({"type": "end"}, "End the game by agreement (the side holding more markers wins, "
         "equal holdings draw)", END)]
    assert RULESET.intents(g.state, "black") == offers


def test_dt_passing_forfeits_the_points_left_dt_3(monkeypatch) -> None:
    fake_perform(monkeypatch)
    g = two_a_side()
    hold(g, "red.1")
    pass_turn(g, by="red")
    s = g.state
    assert (s.player, s.points) == ("black", {"red": 0, "black": 2})
    assert notes(g)[0] == "Red ends its turn, forfeiting 1 activation point (DT §3)."


def test_dt_refusals_name_the_reason_dt_3(monkeypatch) -> None:
    fake_perform(monkeypatch)
    g = two_a_side()
    with pytest.raises(Refused, match=r"it is Red's turn \(DT §3\)"):
        g.begin({"type": "pass"}, by="black")
    with pytest.raises(Refused, match="it is Red's turn"):
        g.begin({"type": "act", "unit": "black.0", "action": "hold"}, by="black")
    with pytest.raises(Refused, match=r"Black Ash is Black's unit: it is Red's turn"):
        g.begin({"type": "act", "unit": "black.0", "action": "hold"})
    with pytest.raises(Refused, match="unknown action 'fly'"):
        g.begin({"type": "act", "unit": "red.0", "action": "fly"})
    with pytest.raises(Refused, match=r"red\.9"):
        g.begin({"type": "act", "unit": "red.9", "action": "hold"})
    s = g.state
    s.points["red"] = 0
    with pytest.raises(Refused, match=r"Red has no activation point left \(DT §3\)"):
        resolution(s, {"type": "act", "unit": "red.0", "action": "hold"})


def test_dt_the_first_side_plays_first_in_every_round_dt_3(monkeypatch) -> None:
    fake_perform(monkeypatch)
    g = two_a_side(first="black")
    order = []
    for _ in range(4):
        order.append((g.state.round, g.state.player))
        pass_turn(g)
    assert order == [(1, "black"), (1, "red"), (2, "black"), (2, "red")]
    assert g.state.round == 3 and g.state.turns_played == 0
    assert "Round 3 of 4: Black plays the first turn, then Red (DT §3)." in notes(g)


def poison_red_vey(ctx, unit_id, action):
    """A Rush stands in for a poisoning hit on Red Vey (DT §7 Poison Gear)."""
    if action == "rush":
        ctx.state.unit("red.0").poisoned = True


@pytest.mark.parametrize(("roll", "cured"), [(3, True), (6, True), (2, False), (1, False)])
def test_dt_a_poisoned_unit_tests_before_acting_dt_7(monkeypatch, roll: int,
                                                     cured: bool) -> None:
    """App reading 9: 3+ cures it and it acts; else it is killed, the point spent."""
    fake_perform(monkeypatch, poison_red_vey)
    g = ready_game(force("Reds", unit("Vey"), unit("Kol"), unit("Mox")),
                   force("Blacks", unit("Ash")))
    act(g, {"type": "act", "unit": "red.1", "action": "rush"})
    seen = hold(g, "red.0", {"poison.red.0": face(roll)})
    assert (seen[0].key, seen[0].count, seen[0].target, seen[0].side, seen[0].rule) == (
        "poison.red.0", 1, 3, "red", "DT §7")
    vey = g.state.unit("red.0")
    assert vey.alive == cured and not vey.poisoned
    assert (g.state.player, g.state.points["red"]) == ("red", 1)
    result = "cured" if cured else "it is killed before it can act"
    successes = "1 success" if cured else "0 successes"
    assert notes(g) == [
        "Red Vey: Hold (1 activation point left) (DT §3).",
        f"Red Vey tests against its poison: rolled {roll} ({successes} on 3+): {result} "
        "(DT §7 Poison Gear).", *(["red.0 does hold."] if cured else [])]


def test_dt_poison_killing_the_last_unit_ends_the_game_app_reading_4(monkeypatch) -> None:
    """App reading 4: a side with no living unit loses at once."""
    fake_perform(monkeypatch, poison_red_vey)
    g = ready_game(force("Reds", unit("Vey")), force("Blacks", unit("Ash")))
    act(g, {"type": "act", "unit": "red.0", "action": "rush"})
    pass_turn(g)
    hold(g, "red.0", {"poison.red.0": face(1)})
    assert g.state.over and g.state.winner == "black"
    assert notes(g)[-1] == "Game over: Red has no unit left: Black wins (DT §2)."


def ambush_game(monkeypatch, black_reserve: bool = True):
    fake_perform(monkeypatch)
    red = force("Reds", unit("Vey"), unit("Kol", rules=("ambush",)))
    black = force("Blacks", unit("Ash", rules=("ambush",)), unit("Bix"))
    deploy = {"deploy.2": "reserve:black.0" if black_reserve else "black.0",
              "deploy.3": "reserve:red.1"}
    return ready_game(red, black, deploy=deploy)


def test_dt_ambush_units_arrive_from_round_2_after_a_rolloff_dt_7(monkeypatch) -> None:
    """App reading 5: both sides have reserves: a roll-off, the winner places first."""
    g = ambush_game(monkeypatch)
    pass_turn(g)
    seen = pass_turn(g, {"rolloff.1.red": face(2), "rolloff.1.black": face(5),
                         "arrive.red.1": "no"})
    keys = [(s.key, s.side) for s in seen]
    assert keys[-4:] == [("rolloff.1.red", "red"), ("rolloff.1.black", "black"),
                         ("arrive.black.0", "black"), ("arrive.red.1", "red")]
    assert seen[-1].prompt == ("Red Kol: arrive from reserve now, anywhere over 8\" from "
                               "enemy units?")
    s = g.state
    assert s.unit("black.0").in_play and not s.unit("black.0").reserve
    assert s.unit("red.1").reserve and not s.unit("red.1").in_play
    assert notes(g)[-5:] == [
        "Round 2 of 4: Red plays the first turn, then Black (DT §3).",
        "Roll-off: Red rolled 2, Black rolled 5.",
        "Black Ash arrives from reserve: it is placed anywhere over 8\" from enemy units "
        "(DT §7 Ambush).",
        "Red Kol stays in reserve (DT §7 Ambush).",
        "Red's turn: 2 activation points, one per living unit (DT §3).",
    ]
    pass_turn(g)
    seen = pass_turn(g)
    assert [s.key for s in seen][-1] == "arrive.red.1"
    assert g.state.unit("red.1").in_play


def test_dt_no_ambush_rolloff_when_one_side_has_reserves_dt_7(monkeypatch) -> None:
    g = ambush_game(monkeypatch, black_reserve=False)
    pass_turn(g)
    seen = pass_turn(g)
    assert [s.key for s in seen] == ["marker.1", "marker.2", "arrive.red.1"]
    assert g.state.round == 2 and g.state.unit("red.1").in_play


def test_dt_a_flash_wears_off_at_the_end_of_the_throwers_turn_dt_7(monkeypatch) -> None:
    def flash(ctx, unit_id, action):
        ctx.state.unit("black.0").flashed_until = "red"
        ctx.state.unit("red.1").flashed_until = "red"

    fake_perform(monkeypatch, flash)
    g = two_a_side()
    hold(g, "red.0")
    assert g.state.unit("black.0").flashed_until == "red"
    hold(g, "red.0")
    assert not g.state.unit("black.0").flashed_until
    assert not g.state.unit("red.1").flashed_until
    assert notes(g)[-2:] == [
        "Red's turn is over: the flash wears off Red Kol and Black Ash (DT §7 Grenade).",
        "Black's turn: 2 activation points, one per living unit (DT §3)."]


@pytest.mark.parametrize(("regen", "lives"), [(5, True), (4, False)])
def test_dt_regeneration_saves_a_unit_from_its_poison_dt_7(monkeypatch, regen: int,
                                                           lives: bool) -> None:
    """DT §7 Regeneration "whenever this unit would be killed": a failed poison test
    rolls it first; saved, the unit acts and stays poisoned (app reading)."""
    fake_perform(monkeypatch, poison_red_vey)
    g = ready_game(force("Reds", unit("Vey", rules=("regeneration",)), unit("Kol")),
                   force("Blacks", unit("Ash")))
    act(g, {"type": "act", "unit": "red.1", "action": "rush"})
    seen = hold(g, "red.0", {"poison.red.0": face(2), "regen.red.0": face(regen)})
    assert [(s.key, s.target) for s in seen] == [("poison.red.0", 3), ("regen.red.0", 5)]
    vey = g.state.unit("red.0")
    assert vey.alive == lives and vey.poisoned == lives
    said = "\n".join(notes(g))
    assert "it would be killed (DT §7 Poison Gear)" in said
    assert ("survives its poison and acts, still poisoned" in said) == lives
    assert ("red.0 does hold." in notes(g)) == lives

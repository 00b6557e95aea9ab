"""Double Tap markers and winning (DT §2, app reading 4): markers seized, made neutral
or left as they were at the end of each round; after the last round (option
``rounds``) the side holding more markers wins, equal draw; a side with no living
unit loses at once, both at once draw; ending by agreement is decided on markers."""

from __future__ import annotations

import pytest
from dt_fixtures import act, fake_perform, force, notes, pass_turn, ready_game, two_a_side, unit

from deathzap_tui.rules.doubletap import RULESET
from deathzap_tui.rules.doubletap.common import kill


def end_round(g, **marks: str):
    """Both players pass; ``marks`` answers each ``marker.<n>`` (default: none)."""
    pass_turn(g)
    return pass_turn(g, {f"marker.{k.removeprefix('m')}": v for k, v in marks.items()})


def holders(g) -> list[str]:
    return [m.holder for m in g.state.markers]


def test_dt_markers_are_seized_made_neutral_or_left_as_they_were_dt_2(monkeypatch) -> None:
    fake_perform(monkeypatch)
    g = two_a_side(die=5)
    seen = end_round(g, m1="red", m2="black")
    q = seen[-3]
    assert (q.key, q.side, q.rule, q.default) == ("marker.1", None, "DT §2", "none")
    assert q.prompt == ("Marker 1 (neutral): which units are within 3\" of it? Stunned "
                        "units cannot seize it but still contest it.")
    assert [(c.value, c.label) for c in q.choices] == [
        ("red", "Red only, some not stunned"), ("black", "Black only, some not stunned"),
        ("both", "Units of both sides (stunned or not): neutral"), ("none", "No unit")]
    assert holders(g) == ["red", "black", ""]
    assert notes(g)[-6:-2] == [
        "Marker 1: Red seizes it (DT §2).", "Marker 2: Black seizes it (DT §2).",
        "Marker 3: no unit within 3\"; it stays neutral (DT §2).",
        "End of round 1: Red holds 1 marker, Black 1 (DT §2)."]
    seen = end_round(g, m1="none", m2="both", m3="red")
    assert seen[-3].prompt.startswith("Marker 1 (held by Red):")
    assert holders(g) == ["red", "", "red"]
    assert notes(g)[-6:-3] == [
        "Marker 1: no unit within 3\"; it stays held by Red (DT §2).",
        "Marker 2: both sides are within reach; it is neutral again (DT §2).",
        "Marker 3: Red seizes it (DT §2)."]
    end_round(g, m1="black", m3="red")
    assert holders(g) == ["black", "", "red"]
    assert notes(g)[-6:-3] == [
        "Marker 1: Black seizes it (DT §2).",
        "Marker 2: no unit within 3\"; it stays neutral (DT §2).",
        "Marker 3: Red still holds it (DT §2)."]
    assert RULESET.view(g.state).score == {"red": 1, "black": 1}


def stunned_red(monkeypatch):
    """Red's one unit on the table is stunned (its other unit is in reserve)."""
    def stun(ctx, unit_id, action):
        ctx.state.unit("red.0").stunned = True

    fake_perform(monkeypatch, stun)
    red = force("Reds", unit("Vey"), unit("Kol", rules=("ambush",)))
    g = ready_game(red, force("Blacks", unit("Ash")), die=3,
                   deploy={"deploy.3": "reserve:red.1"})
    act(g, {"type": "act", "unit": "red.0", "action": "hold"})
    return g


def test_dt_stunned_units_and_units_in_reserve_cannot_seize_dt_2(monkeypatch) -> None:
    """DT §2 "stunned units cannot seize": a side whose units on the table are all
    stunned is offered only as contesting ("both") or "red-stunned" (no change)."""
    g = stunned_red(monkeypatch)
    seen = end_round(g, m1="red-stunned")
    marker = next(q for q in seen if q.key == "marker.1")
    assert [(c.value, c.label) for c in marker.choices] == [
        ("black", "Black only, some not stunned"),
        ("both", "Units of both sides (stunned or not): neutral"),
        ("red-stunned", "Only stunned Red units: no change"), ("none", "No unit")]
    assert holders(g) == ["", ""]
    assert ("Marker 1: only stunned Red units are within reach: they cannot seize it; it "
            "stays neutral (DT §2).") in "\n".join(notes(g))


def test_dt_a_stunned_unit_still_contests_a_marker_dt_2(monkeypatch) -> None:
    """DT §2: a stunned Red unit within 3" stops Black seizing the marker ("both":
    it turns neutral)."""
    g = stunned_red(monkeypatch)
    end_round(g, m1="black", m2="black")
    assert holders(g) == ["black", "black"]
    end_round(g, m1="both", m2="red-stunned")
    assert holders(g) == ["", "black"]
    assert ("Marker 2: only stunned Red units are within reach: they cannot seize it; "
            "it stays held by Black (DT §2).") in "\n".join(notes(g))


def test_dt_after_the_last_round_more_markers_wins_dt_2(monkeypatch) -> None:
    fake_perform(monkeypatch)
    g = two_a_side()
    for _ in range(3):
        end_round(g, m1="black")
    assert not g.state.over and g.state.round == 4
    end_round(g, m1="both")
    assert g.state.over and g.state.winner == "draw"
    g = two_a_side()
    for _ in range(3):
        end_round(g, m1="black")
    end_round(g)
    assert g.state.over and g.state.winner == "black" and g.state.round == 4
    assert notes(g)[-2:] == [
        "End of round 4: Red holds 0 markers, Black 1 (DT §2).",
        "Game over: round 4 of 4 is over; Red holds 0 markers, Black 1: Black wins (DT §2)."]
    assert RULESET.intents(g.state) == []


@pytest.mark.parametrize(("rounds", "marks", "winner"), [
    (1, {"m1": "red"}, "red"), (1, {}, "draw"), (2, {"m1": "red", "m2": "black"}, "draw")])
def test_dt_the_rounds_option_ends_the_game_sooner_dt_2(monkeypatch, rounds: int,
                                                        marks: dict, winner: str) -> None:
    fake_perform(monkeypatch)
    g = two_a_side(options={"rounds": rounds})
    for _ in range(rounds):
        end_round(g, **marks)
    assert g.state.over and g.state.winner == winner and g.state.round == rounds


def test_dt_a_side_with_no_unit_left_loses_at_once_dt_2(monkeypatch) -> None:
    """App reading 4, checked after every action."""
    def wipe(ctx, unit_id, action):
        for u in ctx.state.units["black"]:
            kill(ctx.state, u)

    fake_perform(monkeypatch, wipe)
    g = two_a_side()
    act(g, {"type": "act", "unit": "red.0", "action": "hold"})
    s = g.state
    assert s.over and s.winner == "red" and s.player == "" and s.points["red"] == 0
    assert notes(g)[-1] == "Game over: Black has no unit left: Red wins (DT §2)."


def test_dt_both_sides_wiped_out_is_a_draw_app_reading_4(monkeypatch) -> None:
    def wipe(ctx, unit_id, action):
        for u in ctx.state.all_units():
            kill(ctx.state, u)

    fake_perform(monkeypatch, wipe)
    g = two_a_side()
    act(g, {"type": "act", "unit": "red.0", "action": "hold"})
    assert g.state.over and g.state.winner == "draw"
    assert notes(g)[-1] == "Game over: neither side has a unit left: a draw (DT §2)."


def test_dt_a_unit_in_reserve_keeps_its_side_alive_dt_7(monkeypatch) -> None:
    def wipe(ctx, unit_id, action):
        kill(ctx.state, ctx.state.unit("black.1"))

    fake_perform(monkeypatch, wipe)
    black = force("Blacks", unit("Ash", rules=("ambush",)), unit("Bix"))
    g = ready_game(force("Reds", unit("Vey")), black, deploy={"deploy.2": "reserve:black.0"})
    act(g, {"type": "act", "unit": "red.0", "action": "hold"})
    assert not g.state.over and g.state.player == "black" and g.state.points["black"] == 1


def test_dt_ending_by_agreement_is_decided_on_markers_dt_2(monkeypatch) -> None:
    fake_perform(monkeypatch)
    g = two_a_side()
    end_round(g, m2="red")
    act(g, {"type": "end"}, by="black")
    s = g.state
    assert s.over and s.winner == "red"
    assert notes(g) == ["Game over: the players agree to end it (the side holding more "
                        "markers wins, equal holdings draw); Red holds 1 marker, Black 0: "
                        "Red wins (DT §2)."]

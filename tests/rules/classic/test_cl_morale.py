"""Deathzap Classic morale phase (CL §7), always the last phase of the turn."""

from __future__ import annotations

from cl_fixtures import face, force, new_game, unit

from deathzap_tui.rules.classic.morale import morale_phase
from deathzap_tui.rules.classic.state import State
from deathzap_tui.rules.classic.victory import casualty
from deathzap_tui.rules.steps import Context, DiceRequest, Resolution


def morale_state() -> State:
    """Turn 3's morale phase. Red: Alpha (panicked in turn 2), Bravo (panicked this
    turn), Lone (one infantry figure), Dogs (one beast), Tank (one vehicle, panicked
    in turn 1); Black: Xray steady."""
    red = force("Reds", unit("Alpha", 5), unit("Bravo", 5), unit("Lone", 1),
                unit("Dogs", 1, "beasts", ()), unit("Tank", 1, "vehicles"))
    black = force("Blacks", unit("Xray", 5))
    s = new_game(red, black).state
    s.stage, s.turn, s.step, s.edges = "battle", 3, "morale", {"red": "south",
                                                              "black": "north"}
    for index, turn in ((0, 2), (1, 3), (4, 1)):
        s.units["red"][index].panicked = True
        s.units["red"][index].panicked_turn = turn
    return s


def run(state: State, faces: dict[str, int]) -> tuple[State, list[str], list[str]]:
    """The morale phase with ``faces`` by dice key; returns the state after it, the
    narration and the keys of the dice asked for."""
    res = Resolution(state, morale_phase)
    asked = []
    while not res.done:
        step = res.step
        assert isinstance(step, DiceRequest) and step.rule == "CL §7"
        asked.append(step.key)
        res.answer(face(faces[step.key]))
    return res.ctx.state, [n.text for n in res.ctx.notes], asked


def test_panicked_units_test_and_recover_on_4_plus_cl_7() -> None:
    after, text, asked = run(morale_state(), {"morale.red.0": 4, "morale.red.2": 6,
                                              "morale.red.3": 5, "morale.red.4": 6})
    assert asked == ["morale.red.0", "morale.red.2", "morale.red.3", "morale.red.4"]
    assert not after.unit("red.0").is_panicked
    assert not after.unit("red.4").is_panicked
    assert "Red Alpha rolls 4: it recovers and is no longer panicked (CL §7)." in text


def test_a_failed_test_falls_back_twice_the_roll_towards_its_zone_cl_7() -> None:
    after, text, _ = run(morale_state(), {"morale.red.0": 3, "morale.red.2": 1,
                                          "morale.red.3": 1, "morale.red.4": 1})
    assert after.unit("red.0").is_panicked
    assert ('Red Alpha rolls 3: it fails, falls back 6" towards its deployment zone '
            "(the south edge) and stays panicked (CL §7).") in text
    assert after.unit("red.4").is_panicked


def test_a_unit_panicked_this_turn_fails_without_moving_or_rolling_cl_7() -> None:
    after, text, asked = run(morale_state(), {"morale.red.0": 6, "morale.red.2": 6,
                                              "morale.red.3": 6, "morale.red.4": 6})
    assert "morale.red.1" not in asked
    assert after.unit("red.1").is_panicked
    assert ("Red Bravo was panicked this turn: it fails its morale test but does not "
            "move (CL §7).") in text


def test_a_lone_infantry_or_beast_figure_always_fails_cl_7() -> None:
    after, text, _ = run(morale_state(), {"morale.red.0": 6, "morale.red.2": 6,
                                          "morale.red.3": 2, "morale.red.4": 6})
    assert after.unit("red.2").is_panicked and after.unit("red.3").is_panicked
    assert ('Red Lone rolls 6: a lone figure always fails, falls back 12" towards its '
            "deployment zone (the south edge) and stays panicked (CL §7).") in text
    assert any(t.startswith("Red Dogs rolls 2: a lone figure always fails") for t in text)


def test_a_lone_vehicle_is_not_always_panicked_cl_4() -> None:
    s = morale_state()
    s.unit("red.4").panicked = False
    assert not s.unit("red.4").is_panicked


def test_no_panicked_unit_means_no_test_cl_7() -> None:
    s = morale_state()
    for u in s.units["red"]:
        u.panicked = False
    s.units["red"] = [u for u in s.units["red"] if not u.alone]
    res = Resolution(s, morale_phase)
    assert res.done
    assert res.ctx.notes == []


def test_a_unit_in_melee_that_fails_does_not_fall_back_cl_4_cl_7() -> None:
    s = morale_state()
    s.unit("red.0").engaged = ["black.0"]
    s.unit("black.0").engaged = ["red.0"]
    _, text, _ = run(s, {"morale.red.0": 2, "morale.red.2": 6, "morale.red.3": 6,
                         "morale.red.4": 6})
    assert ("Red Alpha rolls 2: it fails, cannot move, being in melee (CL §4), and stays "
            "panicked (CL §7).") in text


def test_a_unit_left_a_lone_figure_this_turn_fails_without_moving_cl_7() -> None:
    """CL §4, §7: casualties leave Black Xray one Infantry figure: it is panicked from
    that moment, so this turn's morale test fails at once and it does not move."""
    s = morale_state()
    ctx = Context(s)
    for i in range(4):
        casualty(ctx, f"black.0.{i}", "red")
    xray = s.unit("black.0")
    assert xray.alone and xray.panicked_turn == 3
    after, text, asked = run(s, {"morale.red.0": 6, "morale.red.2": 6, "morale.red.3": 6,
                                 "morale.red.4": 6})
    assert "morale.black.0" not in asked
    assert after.unit("black.0").is_panicked
    assert ("Black Xray was panicked this turn: it fails its morale test but does not "
            "move (CL §7).") in text


def test_a_panicked_unit_left_a_lone_figure_keeps_its_panic_turn_cl_7() -> None:
    """CL §7: Red Alpha, panicked in turn 2, loses all but one figure in turn 3: it
    did not become panicked this turn, so its lone figure fails and falls back."""
    s = morale_state()
    ctx = Context(s)
    for i in range(4):
        casualty(ctx, f"red.0.{i}", "black")
    assert s.unit("red.0").alone and s.unit("red.0").panicked_turn == 2
    _, text, asked = run(s, {"morale.red.0": 2, "morale.red.2": 6, "morale.red.3": 6,
                             "morale.red.4": 6})
    assert "morale.red.0" in asked
    assert ('Red Alpha rolls 2: a lone figure always fails, falls back 4" towards its '
            "deployment zone (the south edge) and stays panicked (CL §7).") in text

"""Double Tap set-up: the deployment roll-off (DT §2), alternate deployment with
Ambush reserve, Infiltrate and Scouts last (DT §7, app reading 2), the D3 objective
markers (app reading 3), then round 1."""

from __future__ import annotations

import pytest
from dt_fixtures import act, deploy, face, force, markers, new_game, notes, rolloff, unit

from deathzap_tui.rules.doubletap import RULESET
from deathzap_tui.rules.ruleset import SETUP, UNIT
from deathzap_tui.rules.steps import Question, Refused


def game(*black_units, red_units=None):
    red = red_units or (unit("Vey"), unit("Kol"), unit("Mox"))
    return new_game(force("Reds", *red), force("Blacks", *(black_units or (unit("Ash"),))))


def test_dt_rolloff_tie_rolls_again_and_the_winner_picks_its_edge_dt_2() -> None:
    g = game()
    seen = act(g, {"type": "rolloff"}, {
        "rolloff.1.red": face(3), "rolloff.1.black": face(3), "rolloff.2.red": face(2),
        "rolloff.2.black": face(5), "edge": "north"})
    edge = seen[-1]
    assert isinstance(edge, Question) and edge.side == "black" and edge.rule == "DT §2"
    s = g.state
    assert s.first == "black" and s.edges == {"black": "north", "red": "south"}
    assert s.stage == "deploy" and s.round == 0 and s.player == ""
    assert notes(g) == [
        "Roll-off: Red rolled 3, Black rolled 3.", "A tie: roll again.",
        "Roll-off: Red rolled 2, Black rolled 5.",
        "Black's base line is the north edge, Red's the south edge. Black deploys first, "
        "then Red; every unit starts within 12\" of its own edge (DT §2)."]


def test_dt_setup_steps_come_in_order_and_once_dt_2() -> None:
    g = game()
    assert [(o.intent, o.group) for o in RULESET.intents(g.state)] == [
        ({"type": "rolloff"}, SETUP)]
    for intent in ({"type": "pass"}, {"type": "act", "unit": "red.0", "action": "hold"},
                   {"type": "end"}):
        with pytest.raises(Refused, match="finish the set-up first: roll off for deployment"):
            g.begin(intent)
    with pytest.raises(Refused, match=r"roll off for deployment edges first \(DT §2\)"):
        g.begin({"type": "markers"})
    rolloff(g)
    assert [o.intent for o in RULESET.intents(g.state)] == [{"type": "deploy"}]
    with pytest.raises(Refused, match="the roll-off is done"):
        g.begin({"type": "rolloff"})
    deploy(g)
    assert [o.intent for o in RULESET.intents(g.state)] == [{"type": "markers"}]
    with pytest.raises(Refused, match="the units are deployed"):
        g.begin({"type": "deploy"})
    markers(g)
    assert g.state.stage == "battle"
    with pytest.raises(Refused, match="the markers are placed"):
        g.begin({"type": "markers"})


def test_dt_sides_alternate_placing_the_winner_first_and_the_rest_follow_dt_2() -> None:
    """App reading 2: a side with nothing left to place is skipped."""
    g = game(unit("Ash"))
    rolloff(g, red=1, black=6, edge="north")
    seen = deploy(g, {"deploy.2": "red.2"})
    assert [(q.key, q.side) for q in seen] == [
        ("deploy.1", "black"), ("deploy.2", "red"), ("deploy.3", "red"), ("deploy.4", "red")]
    assert [c.value for c in seen[1].choices] == ["red.0", "red.1", "red.2"]
    assert [c.label for c in seen[2].choices] == ["Red Vey", "Red Kol"]
    assert seen[1].prompt == "Red: which unit do you place within 12\" of the south edge?"
    assert all(u.placed and not u.reserve for u in g.state.all_units())
    assert notes(g) == [
        "Black Ash is placed within 12\" of the north edge (DT §2).",
        "Red Mox is placed within 12\" of the south edge (DT §2).",
        "Red Vey is placed within 12\" of the south edge (DT §2).",
        "Red Kol is placed within 12\" of the south edge (DT §2).",
        "Every unit is deployed: now the objective markers (DT §2)."]
    assert g.state.stage == "markers"


def test_dt_an_ambush_unit_may_be_kept_in_reserve_dt_7() -> None:
    g = game(unit("Ash", rules=("ambush",)), unit("Bix"))
    rolloff(g)
    seen = deploy(g, {"deploy.2": "reserve:black.0"})
    assert [(c.value, c.label) for c in seen[1].choices] == [
        ("black.0", "Black Ash"), ("reserve:black.0", "Black Ash: keep in reserve"),
        ("black.1", "Black Bix")]
    ash = g.state.unit("black.0")
    assert ash.reserve and not ash.placed and not ash.in_play and ash.alive
    assert ("Black Ash is kept in reserve: from round 2 it may arrive anywhere over 8\" "
            "from enemy units (DT §7 Ambush).") in notes(g)
    assert len(seen) == 5


def test_dt_infiltrate_may_move_8_inches_on_deployment_dt_7() -> None:
    g = game(unit("Ash", rules=("infiltrate",)))
    rolloff(g)
    deploy(g)
    assert notes(g)[1:3] == ["Black Ash is placed within 12\" of the north edge (DT §2).",
                             "Black Ash may move up to 8\" now (DT §7 Infiltrate)."]


def test_dt_scouts_deploy_last_after_a_rolloff_when_both_sides_have_them_dt_7() -> None:
    g = game(unit("Ash", rules=("scout",)), unit("Bix", rules=("scout",)), unit("Cy"),
             red_units=(unit("Vey", rules=("scout",)), unit("Kol")))
    rolloff(g)
    seen = act(g, {"type": "deploy"}, {"rolloff.1.red": face(2), "rolloff.1.black": face(4)})
    keys = [(s.key, s.side) for s in seen]
    assert keys == [("deploy.1", "red"), ("deploy.2", "black"),
                    ("rolloff.1.red", "red"), ("rolloff.1.black", "black"),
                    ("deploy.3", "black"), ("deploy.4", "red"), ("deploy.5", "black")]
    assert [c.value for c in seen[0].choices] == ["red.1"]
    assert [c.value for c in seen[1].choices] == ["black.2"]
    assert seen[2].rule == "DT §7"
    assert seen[4].prompt == "Black: which unit do you place within 24\" of the north edge?"
    assert ("Black Ash is placed within 24\" of the north edge (DT §7 Scout)."
            in notes(g))


def test_dt_one_sides_scouts_deploy_last_without_a_rolloff_dt_7() -> None:
    g = game(unit("Ash", rules=("scout",)), unit("Bix"))
    rolloff(g)
    seen = deploy(g)
    assert [(s.key, s.side) for s in seen] == [
        ("deploy.1", "red"), ("deploy.2", "black"), ("deploy.3", "red"),
        ("deploy.4", "red"), ("deploy.5", "black")]
    assert [c.value for c in seen[-1].choices] == ["black.0"]


@pytest.mark.parametrize(("die", "count"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_dt_markers_are_one_die_read_as_d3_dt_2(die: int, count: int) -> None:
    """App reading 3: 1-2 one marker, 3-4 two, 5-6 three."""
    g = game()
    rolloff(g)
    deploy(g)
    markers(g, die)
    assert [(m.number, m.holder) for m in g.state.markers] == [
        (n, "") for n in range(1, count + 1)]


def test_dt_markers_rolloff_then_round_one_begins_dt_2_dt_3() -> None:
    g = game()
    rolloff(g, red=1, black=6)
    deploy(g)
    seen = act(g, {"type": "markers"}, {"markers": face(5), "rolloff.1.red": face(5),
                                        "rolloff.1.black": face(2)})
    assert seen[0].target is None and seen[0].count == 1 and seen[0].rule == "DT §2"
    s = g.state
    assert (s.stage, s.round, s.player, s.points, s.turns_played) == (
        "battle", 1, "black", {"red": 0, "black": 1}, 0)
    assert notes(g) == [
        "Rolled 5: 3 objective markers (DT §2).",
        "Roll-off: Red rolled 5, Black rolled 2.",
        "Red places marker 1, then Black marker 2, then Red marker 3: each outside the "
        "deployment zones and over 9\" from the others; they start neutral (DT §2).",
        "Round 1 of 4: Black plays the first turn, then Red (DT §3).",
        "Black's turn: 1 activation point, one per living unit (DT §3)."]
    assert {o.group for o in RULESET.intents(s)} >= {UNIT}


def test_dt_a_side_without_units_loses_as_the_battle_begins_app_reading_4() -> None:
    """App reading 4: a side with no living unit loses at once."""
    g = new_game(force("Reds", unit("Vey")), force("Empty"))
    rolloff(g)
    deploy(g)
    markers(g)
    assert g.state.over and g.state.winner == "red" and g.state.round == 0
    assert notes(g)[-1] == "Game over: Black has no unit left: Red wins (DT §2)."


def test_dt_unknown_intents_are_refused() -> None:
    with pytest.raises(Refused, match="unknown intent 'draw'"):
        game().begin({"type": "draw"})

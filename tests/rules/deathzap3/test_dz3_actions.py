"""Actions (DZ3 §3, §8) and activation refusals."""

from __future__ import annotations

import pytest
from dz3_fixtures import act, draw, enter, notes, ready_game

from deathzap_tui.rules.deathzap3 import RULESET
from deathzap_tui.rules.steps import Refused


def activate(unit: str, action: str, **kw: str) -> dict:
    return {"type": "activate", "unit": unit, "action": action, **kw}


def test_charge_on_entry_refused_dz3_s3() -> None:
    g = ready_game()
    enter(g, "black.0", "2C")
    draw(g, "2H")
    with pytest.raises(Refused, match="Charge"):
        g.begin(activate("red.0", "charge"))


def test_only_charge_is_barred_on_entry_dz3_s3() -> None:
    """DZ3 §3 bars Charge on a unit's first activation; the other actions bring the
    unit on at its edge."""
    g = ready_game()
    draw(g, "2H")
    legal = {(o.intent["unit"], o.intent["action"]) for o in RULESET.intents(g.state)}
    assert {("red.0", a) for a in ("advance", "cover-ground", "signal", "protect")} <= legal
    assert ("red.0", "charge") not in legal
    act(g, activate("red.0", "protect"))
    assert g.state.unit("red.0").entered
    assert any("enters from" in line for line in notes(g, 1))


def test_wrong_players_unit_refused() -> None:
    g = ready_game()
    draw(g, "2H")
    with pytest.raises(Refused, match="Red's card"):
        g.begin(activate("black.0", "advance"))
    with pytest.raises(Refused, match="Red's card"):
        g.begin(activate("red.0", "advance"), by="black")
    g.begin(activate("red.0", "advance"), by="red")
    g.begin(activate("red.0", "advance"), by="")


def test_no_card_or_no_activation_left_refused() -> None:
    g = ready_game()
    with pytest.raises(Refused, match="draw a card"):
        g.begin(activate("red.0", "advance"))
    enter(g, "red.0", "2H")
    with pytest.raises(Refused, match="no activations left"):
        g.begin(activate("red.1", "advance"))
    with pytest.raises(Refused):
        g.begin(activate("red.9", "advance"))
    with pytest.raises(Refused):
        g.begin(activate("red.1", "dance"))


def test_first_activation_enters_from_the_edge_dz3_s3() -> None:
    g = ready_game()
    assert not g.state.unit("red.0").entered
    enter(g, "red.0", "2H")
    assert g.state.unit("red.0").entered
    assert any("enters from Red's south edge" in n for n in notes(g))


def test_cover_ground_rolls_d6_and_narrates_the_distance_dz3_s3() -> None:
    g = ready_game()
    draw(g, "2H")
    steps = act(g, activate("red.0", "cover-ground"), {"cover-ground": "5"})
    assert steps[0].target is None and steps[0].count == 1
    assert any('Move 6" + 5" = 11"' in n for n in notes(g))


def test_protect_recharges_shields_to_full_dz3_s8() -> None:
    g = ready_game()
    enter(g, "red.0", "2H")
    enter(g, "black.1", "2C")
    draw(g, "JOKER2")
    draw(g, "3C")
    act(g, activate("black.1", "advance"),
        {"shoot.target": "red.0", "shoot.1.hit": "=4", "shoot.1.shields": "4444",
         "shoot.1.saves": "1", "shoot.1.casualty.1": "red.0.1", "shoot.1.morale.1": "=1"},
        )
    assert g.state.unit("red.0").shields == 0
    draw(g, "4H")
    g.play(activate("red.0", "protect"))
    assert g.state.unit("red.0").shields == 3


def test_signal_scores_the_objective_and_tokens_it_dz3_s3_s12() -> None:
    g = ready_game()
    enter(g, "red.0", "2H")
    draw(g, "JOKER1")
    draw(g, "3H")
    act(g, activate("red.0", "signal"), {"signal.objective": "4"})
    assert g.state.objective(4).token
    assert g.state.vp["red"] == 3  # 18" -> 3 VP
    assert g.state.score[-1].reason == 'objective 4 at 18"'
    draw(g, "JOKER2")
    assert not g.state.objective(4).token


def test_signal_refused_with_enemy_within_3_dz3_s3() -> None:
    g = ready_game()
    enter(g, "red.0", "2H")
    draw(g, "JOKER1")
    draw(g, "3H")
    with pytest.raises(Refused, match="no enemy within 3"):
        act(g, activate("red.0", "signal"), {"signal.objective": "2", "signal.clear": "no"})


def test_objective_with_token_not_offered_again() -> None:
    g = ready_game()
    enter(g, "red.0", "2H")
    draw(g, "JOKER1")
    draw(g, "AH")
    act(g, activate("red.0", "signal"), {"signal.objective": "1"})
    act(g, activate("red.1", "cover-ground"), dice="1")
    steps = act(g, activate("red.2", "cover-ground"), dice="1")
    assert steps
    # red's reset cleared the objective token too
    assert not g.state.objective(1).token


def test_objective_at_distance_zero_scores_one_vp_dz3_r15() -> None:
    g = ready_game()
    g2 = ready_game()
    g2.undo()
    g2.play({"type": "objectives"}, [30, 15, 0, 12, 18, 24])
    enter(g2, "red.0", "2H")
    draw(g2, "JOKER1")
    draw(g2, "3H")
    act(g2, activate("red.0", "signal"), {"signal.objective": "2"})
    assert g2.state.vp["red"] == 1
    assert g.state.vp["red"] == 0


def test_disengaging_unit_does_not_shoot_dz3_s3() -> None:
    g = ready_game()
    enter(g, "black.1", "2C")
    enter(g, "red.0", "2H")
    draw(g, "JOKER1")
    draw(g, "3H")
    act(g, activate("red.0", "charge"), {"melee.target": "black.1", "melee.hit": "1111111"})
    assert g.state.unit("red.0").engaged == ["black.1"]
    draw(g, "JOKER2")
    draw(g, "4H")
    steps = act(g, activate("red.0", "advance"), {"disengage": "yes"})
    assert [s.key for s in steps] == ["disengage"]
    assert g.state.unit("red.0").engaged == [] and g.state.unit("black.1").engaged == []


@pytest.mark.parametrize("unit", ["red.-1", "red.99", "red.x", "green.0", "red", ""])
def test_malformed_unit_ids_are_refused(unit: str) -> None:
    g = ready_game()
    draw(g, "2H")
    with pytest.raises(Refused):
        g.begin(activate(unit, "advance"))

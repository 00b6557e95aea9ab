"""Deathzap Plasmashok melee (PS §6, PS-R1, app readings 7 and 8): refusals and the
PS-R1 unknown-profile message, dice from models x attacks, the size bonus to defence,
the target among the units touched, the shared pipeline's keys and facts, and the
end-of-melee roll (win, lose, tie on fewer models, double tie)."""

from __future__ import annotations

from typing import Any

import pytest
from ps_combat_fixtures import drive, engage, keep, roll_all, state_of, unit

from deathzap_tui.rules.plasmashok import tables
from deathzap_tui.rules.plasmashok.casualties import end_of_bracket
from deathzap_tui.rules.plasmashok.common import melees
from deathzap_tui.rules.plasmashok.melee import end_of_melee, fight, fight_refusal, foes
from deathzap_tui.rules.plasmashok.state import State
from deathzap_tui.rules.plasmashok.tables import Melee
from deathzap_tui.rules.steps import ROLL, Context, Maker, Question, Resolution


def fighting(name: str = "red.0") -> Maker:
    return lambda ctx: fight(ctx, name)


def duel(red_type: str = "infantry", red_n: int = 4, black_type: str = "infantry",
         black_n: int = 5, **kw: Any) -> State:
    """Red Band (red.0) in base contact with Black Band (black.0), melee phase."""
    s = state_of([unit("Band", red_type, red_n, **kw)], [unit("Band", black_type, black_n)],
                 step="melee")
    engage(s, "red.0", "black.0")
    return s


# --- who may attack (PS §6, PS-R1) -----------------------------------------------------


def test_ps_s6_refusals_not_in_contact_not_in_play_already_acted() -> None:
    s = state_of([unit("Band"), unit("Gone", "infantry", 1)], [unit("Foes")], step="melee")
    assert "not in base contact" in fight_refusal(s, "red.0")
    assert "no unit" in fight_refusal(s, "red.5")
    s.unit("red.1").figures[0].alive = False
    assert "no longer in play" in fight_refusal(s, "red.1")
    engage(s, "red.0", "black.0")
    assert fight_refusal(s, "red.0") == ""
    run = roll_all(s, fighting())
    assert "already attacked" in fight_refusal(run.state, "red.0")


def test_ps_r1_an_unknown_profile_is_refused_naming_every_missing_field() -> None:
    s = state_of([unit("Brutes", melee=None, missing=("melee.strength", "melee.damage"))],
                 [unit("Foes")], step="melee")
    engage(s, "red.0", "black.0")
    assert fight_refusal(s, "red.0") == ("Red Brutes cannot attack in melee: the force file "
                                         "gives no melee.strength, melee.damage (PS-R1)")


@pytest.mark.parametrize(("type_", "profile"), [("big-beasts", (4, 2, 1)),
                                                 ("light-vehicles", (2, 2, 2))])
def test_ps_r1_the_seeds_two_profiles(type_: str, profile: tuple[int, int, int]) -> None:
    s = duel(type_, 2, "infantry", 6)
    assert fight_refusal(s, "red.0") == ""
    run = drive(s, fighting(), dice=ROLL)
    attacks, strength, damage = profile
    assert run.ctx.facts["attack"]["groups"] == [
        {"weapon": "melee", "dice": 2 * attacks, "strength": strength, "damage": damage}]


# --- the attack (PS §6 "resolved like shooting") ---------------------------------------


def test_ps_s6_models_x_attacks_through_the_shooting_pipeline() -> None:
    s = duel(melee=Melee(2, 3, 2))
    run = drive(s, fighting(), {"melee.attack.1": "1 2 3 4 5 6 6 6", "melee.defence": "6 1 1",
                                "melee.strength.1": "3 3 3 1 1 1 1 1 1 1 1 1",
                                "melee.size": "3 3 3 3 3", "melee.saves": "1 1 1 1 1 6"})
    assert run.asked == ["melee.attack.1", "melee.defence", "melee.strength.1", "melee.size",
                         "melee.saves"]
    assert run.step("melee.attack.1").count == 4 * 2
    assert run.step("melee.defence").count == 2 + 1  # 5 models bigger than 4
    assert run.step("melee.strength.1").count == 4 * 3  # 2 3 4 5 unblocked x strength 3
    fact = run.ctx.facts["attack"]
    assert fact["kind"] == "melee" and fact["damage"] == 3 * 2  # three 3s x damage 2
    assert run.state.unit("black.0").pending == 5
    assert run.state.unit("black.0").figures_left == 5  # off at the bracket's end (PS §3)


@pytest.mark.parametrize(("red_n", "black_type", "black_n", "bonus"),
                         [(5, "infantry", 5, 0), (4, "infantry", 5, 1), (3, "infantry", 6, 2),
                          (2, "light-vehicles", 1, 1), (1, "vehicles", 1, 2)])
def test_ps_s6_defence_plus_1_if_bigger_plus_2_if_at_least_double(
        red_n: int, black_type: str, black_n: int, bonus: int) -> None:
    s = duel("infantry", red_n, black_type, black_n)
    run = drive(s, fighting(), dice=ROLL)
    req = run.step("melee.defence")
    assert req.count == tables.TYPES[black_type].defence + bonus
    assert req.side == "black" and "no cover or range" in req.why
    if bonus == 2:
        assert "at least double" in req.why
    elif bonus:
        assert "greater than" in req.why


def test_ps_s6_a_unit_touching_several_picks_its_target_app_reading_7() -> None:
    s = state_of([unit("Band")], [unit("A"), unit("B"), unit("C")], step="melee")
    engage(s, "red.0", "black.0")
    engage(s, "red.0", "black.2")
    res = Resolution(s, fighting())
    assert isinstance(res.step, Question) and res.step.key == "melee.target"
    assert [c.value for c in res.step.choices] == ["black.0", "black.2"]
    run = drive(s, fighting(), {"melee.target": "black.2"}, dice=ROLL)
    assert run.ctx.facts["attack"]["target"] == "black.2"
    assert run.state.unit("red.0").acted


# --- end of melee (PS §6, app reading 8) -----------------------------------------------


def ending(answers: dict[str, str], **kw: Any) -> tuple[bool, State, str]:
    """Red Band (red.0, 4) against Black Band (black.0, 5); returns the result of the
    end-of-melee roll, the state and the narration."""
    s = duel(**kw)
    return finish(s, answers)


def finish(s: State, answers: dict[str, str]) -> tuple[bool, State, str]:
    def make(ctx: Context) -> Any:
        return end_of_melee(ctx, melees(ctx.state)[0])

    run = drive(s, keep(make), answers)
    return run.ctx.facts["result"], run.state, run.text


def test_ps_s6_end_of_melee_the_lower_product_retreats() -> None:
    result, s, text = ending({"end.1.red": "6", "end.1.black": "4"})
    assert result is False
    assert "Red rolls 6 x 4 = 24" in text and "Black rolls 4 x 5 = 20" in text
    assert "Black Band retreats a full move (9\")" in text
    assert not s.unit("red.0").engaged and not s.unit("black.0").engaged


def test_ps_s6_models_killed_this_melee_phase_count_for_the_killer() -> None:
    s = duel()
    s.unit("black.0").lost_melee = 2  # Red killed 2: 4 + 2 = 6
    s.unit("red.0").lost_melee = 1  # Black killed 1: 5 + 1 = 6
    result, s, text = finish(s, {"end.1.red": "2", "end.1.black": "3"})
    assert "Red rolls 2 x 6 = 12" in text and "Black rolls 3 x 6 = 18" in text
    assert "Red Band retreats" in text and result is False


def test_ps_s6_a_tie_the_side_with_fewer_models_left_retreats() -> None:
    s = duel("infantry", 4, "infantry", 5)
    s.unit("black.0").lost_melee = 1  # Red: 4 + 1 = 5, Black: 5 + 0
    result, s, text = finish(s, {"end.1.red": "3", "end.1.black": "3"})
    assert result is False
    assert "Red has fewer models left and retreats" in text
    assert "Red Band retreats a full move" in text
    assert not s.unit("red.0").engaged


def test_ps_s6_still_tied_another_round() -> None:
    s = duel("infantry", 5, "infantry", 5)
    result, s, text = finish(s, {"end.1.red": "4", "end.1.black": "4"})
    assert result is True and "another round" in text
    assert s.unit("red.0").engaged == ["black.0"]  # the melee goes on


def test_ps_s6_end_of_melee_rolls_are_asked_of_each_side() -> None:
    s = duel()
    run = drive(s, keep(lambda ctx: end_of_melee(ctx, melees(ctx.state)[0])), dice=ROLL)
    assert [(d.key, d.count, d.side, d.target) for d in run.dice()] == [
        ("end.1.red", 1, "red", None), ("end.1.black", 1, "black", None)]


def test_ps_s6_several_melees_ending_in_one_resolution_keep_distinct_keys() -> None:
    s = state_of([unit("A"), unit("B")], [unit("C"), unit("D")], step="melee")
    engage(s, "red.0", "black.0")
    engage(s, "red.1", "black.1")

    def make(ctx: Context) -> Any:
        for group in melees(ctx.state):
            yield from end_of_melee(ctx, group)

    run = drive(s, make, {"end.1.red": "6", "end.1.black": "1", "end.2.red": "1",
                          "end.2.black": "6"})
    assert "Black C retreats" in run.text and "Red B retreats" in run.text
    assert not any(u.engaged for u in run.state.all_units())


def test_ps_s6_a_melee_with_one_side_gone_just_ends() -> None:
    s = duel()
    for f in s.unit("black.0").figures:
        f.alive = False
    run = drive(s, keep(lambda ctx: end_of_melee(ctx, [ctx.state.unit("red.0"),
                                                       ctx.state.unit("black.0")])))
    assert not run.dice() and run.ctx.facts["result"] is False
    assert not run.state.unit("red.0").engaged


def test_ps_s6_models_killed_in_a_unit_wiped_out_still_count_app_reading_8() -> None:
    """PS §6: Red A touches Black B (1 model) and Black C (5); A kills B. B stays in
    the melee until its end, so Red's roll counts the 1 kill; then B's contacts go."""
    s = state_of([unit("A")], [unit("B", "infantry", 1), unit("C")], step="melee")
    engage(s, "red.0", "black.0")
    engage(s, "red.0", "black.1")
    s.unit("black.0").pending = 1
    after = drive(s, end_of_bracket).state
    assert not after.unit("black.0").in_play
    assert [u.id for u in foes(after, after.unit("red.0"))] == ["black.1"]
    assert "already" not in fight_refusal(after, "black.0")
    assert fight_refusal(after, "black.0").endswith("is no longer in play")
    assert [u.id for u in melees(after)[0]] == ["red.0", "black.0", "black.1"]
    result, end, text = finish(after, {"end.1.red": "3", "end.1.black": "1"})
    assert "Red rolls 3 x 6 = 18" in text  # 5 models left + 1 enemy killed
    assert "Black rolls 1 x 5 = 5" in text
    assert result is False and not any(u.engaged for u in end.all_units())

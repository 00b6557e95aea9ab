"""Deathzap Plasmashok casualties (PS §3, §5 step 5, §7, §8; app readings 1-3):
wounds pending until the bracket ends, the owner's choice of models (the cheapest by
default), multi-wound models (the partly wounded one first), points lost, the turn's
and the melee's casualty counts, wiped-out units leaving their melees, and routs."""

from __future__ import annotations

from typing import Any

from ps_combat_fixtures import drive, engage, state_of, unit

from deathzap_tui.rules.plasmashok.casualties import end_of_bracket, remove_models, wounded
from deathzap_tui.rules.plasmashok.combat import shoot
from deathzap_tui.rules.plasmashok.melee import foes
from deathzap_tui.rules.plasmashok.model import Model
from deathzap_tui.rules.plasmashok.state import State
from deathzap_tui.rules.steps import ROLL, Context, Question, Resolution


def bracket_end(s: State, answers: dict[str, Any] | None = None) -> Any:
    return drive(s, end_of_bracket, answers or {})


def squad_and(black: list[Any], step: str = "shooting") -> State:
    return state_of([unit("Squad", "infantry", 3, "basic-rifle")], black, step=step)


def test_ps_s3_wounds_stay_pending_until_the_bracket_ends() -> None:
    s = squad_and([unit("Targets")])
    run = drive(s, lambda ctx: shoot(ctx, "red.0"),
                {"distance.black.0": 1, "attack.1.1": "1 1 1", "defence.1": "6 6",
                 "strength.1.1": "2 2 2 2 2 2", "size.1": "2 2 2 2 2", "saves.1": "1 1 1 1 6 6"})
    target = run.state.unit("black.0")
    assert (target.pending, target.figures_left, run.state.lost["black"]) == (4, 5, 0)
    after = bracket_end(run.state)
    target = after.state.unit("black.0")
    assert (target.pending, target.figures_left) == (0, 1)
    assert "Black Targets loses 4 models (4 wounds)" in after.text


def test_ps_s8_points_lost_and_casualty_counts_app_reading_3() -> None:
    s = squad_and([unit("Targets", "infantry", 3, "basic-rifle", base_cost=5, shields=1)])
    s.unit("black.0").pending = 2
    run = bracket_end(s)
    assert run.state.lost == {"red": 0, "black": 2 * (5 + 2 + 2)}  # base + rifle + shields
    target = run.state.unit("black.0")
    assert (target.lost_turn, target.lost_melee) == (2, 0)


def test_ps_s6_melee_losses_count_for_the_end_of_melee() -> None:
    s = squad_and([unit("Targets")], step="melee")
    s.unit("black.0").pending = 3
    target = bracket_end(s).state.unit("black.0")
    assert (target.lost_turn, target.lost_melee) == (3, 3)


def test_ps_s5_the_owner_picks_the_casualties_default_the_cheapest() -> None:
    s = squad_and([unit("Targets", "infantry", 2, "basic-rifle",
                        extra=(Model("Gunner", ("heavy-weapon",)),))])
    s.unit("black.0").pending = 2
    run = bracket_end(s)
    q = run.step("casualty.black.0.1")
    assert isinstance(q, Question) and q.side == "black"
    assert [c.value for c in q.choices] == ["black.0.0", "black.0.2"]
    assert q.default == "black.0.0"  # the rifleman (7 pts), not the gunner (23 pts)
    assert [f.alive for f in run.state.unit("black.0").figures] == [False, False, True]
    picked = bracket_end(s, {"casualty.black.0.1": "black.0.2"})
    assert [f.alive for f in picked.state.unit("black.0").figures] == [True, False, False]
    assert picked.state.lost["black"] == 23 + 7


def test_ps_s5_multi_wound_models_the_partly_wounded_first_app_reading_1() -> None:
    s = squad_and([unit("Walkers", "light-vehicles", 2)])
    s.unit("black.0").pending = 8
    run = bracket_end(s)
    walkers = run.state.unit("black.0")
    # alike models: the last is taken without a question (rules/casualties.pick_casualty)
    assert [(f.alive, f.wounds) for f in walkers.figures] == [(True, 2), (False, 6)]
    assert wounded(walkers) == 2 and walkers.lost_turn == 1
    assert "Black Walkers loses 1 model (8 wounds); a Light Vehicle model has 2 of 6" \
        in run.text
    walkers.pending = 3
    again = bracket_end(run.state)
    assert [(f.alive, f.wounds) for f in again.state.unit("black.0").figures] == [
        (True, 5), (False, 6)]
    assert not again.asked  # no choice: the wounded model takes them


def test_ps_s5_wounds_beyond_the_last_model_are_lost_the_melee_keeps_the_unit() -> None:
    """PS §6, app reading 8: in the melee phase a wiped-out unit stays in its melee
    (for the end-of-melee roll) but is no longer a foe."""
    s = squad_and([unit("Walkers", "light-vehicles", 1)], step="melee")
    engage(s, "red.0", "black.0")
    s.unit("black.0").figures[0].wounds = 4
    s.unit("black.0").pending = 5
    run = bracket_end(s)
    assert not run.state.unit("black.0").in_play
    assert run.state.unit("red.0").engaged == ["black.0"]
    assert foes(run.state, run.state.unit("red.0")) == []
    assert "3 wounds more than it could take" in run.text and "is wiped out" in run.text
    assert run.state.lost["black"] == 5 and run.state.unit("black.0").lost_melee == 1
    assert wounded(run.state.unit("black.0")) == 0


def test_ps_s5_a_unit_wiped_out_outside_melee_leaves_its_contacts_at_once() -> None:
    s = squad_and([unit("Walkers", "light-vehicles", 1)], step="shooting")
    engage(s, "red.0", "black.0")
    s.unit("black.0").pending = 6
    run = bracket_end(s)
    assert not run.state.unit("red.0").engaged and not run.state.unit("black.0").engaged


def test_ps_s3_every_unit_pending_red_first_then_nothing_left() -> None:
    s = squad_and([unit("Targets")])
    s.unit("black.0").pending = 1
    s.unit("red.0").pending = 1
    run = bracket_end(s)
    assert run.text.index("Red Squad loses") < run.text.index("Black Targets loses")
    assert all(u.pending == 0 for u in run.state.all_units())
    assert "No wounds to remove" in bracket_end(run.state).text


def test_ps_s7_remove_models_the_owner_picks_them() -> None:
    s = squad_and([unit("Targets", "infantry", 2, "basic-rifle",
                        extra=(Model("Gunner", ("heavy-weapon",)),))], step="morale")

    def rout(count: int) -> Any:
        return lambda ctx: remove_models(ctx, ctx.state.unit("black.0"), count,
                                         "morale.black.0.rout", "PS §7")

    run = drive(s, rout(2), {"morale.black.0.rout.1": "black.0.2"})
    assert [f.alive for f in run.state.unit("black.0").figures] == [True, False, False]
    assert run.state.unit("black.0").lost_turn == 2 and run.state.unit("black.0").lost_melee == 0
    assert "Black Targets loses 2 models (PS §7)" in run.text
    more = drive(s, rout(5))
    assert "loses 3 models (PS §7); Black Targets is wiped out" in more.text


def test_ps_s5_generated_choices_replay_deterministically() -> None:
    s = squad_and([unit("Targets")])
    s.unit("black.0").pending = 2

    def make(ctx: Context) -> Any:
        yield from shoot(ctx, "red.0")
        yield from end_of_bracket(ctx)

    a = drive(s, make, dice=ROLL)
    b = Resolution(s, make)
    b.replay(a.res.answers)
    assert b.done and b.ctx.state == a.state


def test_ps_s5_a_unit_wiped_out_is_not_asked_which_model_issue_26() -> None:
    """Every model goes whichever goes first: no "which one?" (issue 26)."""
    s = squad_and([unit("Targets", "infantry", 2, "basic-rifle",
                        extra=(Model("Gunner", ("heavy-weapon",)),))])
    s.unit("black.0").pending = 3
    run = bracket_end(s)
    assert not [k for k in run.asked if k.startswith("casualty.")]
    assert run.state.unit("black.0").figures_left == 0
    assert run.state.lost["black"] == 23 + 7 + 7  # every model's cost all the same


def test_ps_s5_multi_wound_models_left_wounded_are_still_asked_issue_26() -> None:
    """Two models of 6 wounds (PS §5 step 5): 10 wounds kill one and wound the other,
    so which survives is the owner's choice; 12 wounds kill both: no question."""
    def walkers(pending: int) -> Any:
        s = squad_and([unit("Walkers", "light-vehicles", 1,
                            extra=(Model("Gunwalker", ("heavy-weapon",)),))])
        s.unit("black.0").pending = pending
        return bracket_end(s)

    assert "casualty.black.0.1" in walkers(10).asked
    wiped = walkers(12)
    assert not [k for k in wiped.asked if k.startswith("casualty.")]
    assert wiped.state.unit("black.0").figures_left == 0

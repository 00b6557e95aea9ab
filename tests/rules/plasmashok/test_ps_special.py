"""Deathzap Plasmashok special combat (PS §4, app reading 5): refusals, attack and
defence dice counts, wounds from attack faces the defence does not show (no saves,
cover, range or size), pending until the bracket ends, targets in contact, facts."""

from __future__ import annotations

import pytest
from ps_combat_fixtures import drive, engage, roll_all, state_of, unit

from deathzap_tui.rules.plasmashok.combat import special, special_refusal
from deathzap_tui.rules.plasmashok.state import State
from deathzap_tui.rules.steps import ROLL, DiceRequest, Maker, Resolution


def psyker(name: str = "red.0") -> Maker:
    return lambda ctx: special(ctx, name)


def seers(special_red: int = 3, special_black: int = 1, black_type: str = "infantry",
          black_n: int = 5, others: bool = False) -> State:
    black = [unit("Targets", black_type, black_n, special=special_black)]
    if others:
        black.append(unit("Others"))
    return state_of([unit("Seers", "infantry", 3, special=special_red)], black, step="special")


def test_ps_s4_refusals() -> None:
    s = state_of([unit("Seers", special=2), unit("Plain"), unit("Gone", "infantry", 1,
                                                                  special=1)],
                 [unit("Targets")], step="special")
    s.unit("red.2").figures[0].alive = False
    assert special_refusal(s, "red.0") == ""
    assert "no special combat" in special_refusal(s, "red.1")
    assert "no longer in play" in special_refusal(s, "red.2")
    assert "no unit" in special_refusal(s, "red.7")
    run = roll_all(s, psyker())
    assert "already attacked" in special_refusal(run.state, "red.0")
    for f in s.unit("black.0").figures:
        f.alive = False
    assert "no enemy" in special_refusal(s, "red.0")


@pytest.mark.parametrize(("attack", "defence", "wounds"),
                         [("2 5 6", "5 1 1", 2), ("5 5 5", "5 6 6", 0), ("1 1 4", "2 3 5", 3)])
def test_ps_s4_each_attack_face_the_defence_does_not_show_is_a_wound(
        attack: str, defence: str, wounds: int) -> None:
    run = drive(seers(3, 1), psyker(), {"special.attack": attack, "special.defence": defence})
    assert run.step("special.attack").count == 3
    req = run.step("special.defence")
    assert (req.count, req.side, req.target) == (1 + 2, "black", None)  # special + 2
    assert run.state.unit("black.0").pending == wounds
    assert run.state.unit("black.0").figures_left == 5  # off at the bracket's end (PS §3)
    assert run.ctx.facts["attack"]["wounds"] == wounds
    assert f"{wounds} wound" in run.text and "no save" in run.text


def test_ps_s4_narrates_which_faces_are_matched() -> None:
    run = drive(seers(3, 0), psyker(), {"special.attack": "2 5 6", "special.defence": "5 2"})
    assert "the 2 5 are matched; 1 wound, no save (PS §4)" in run.text


def test_ps_s4_no_save_cover_or_range_even_against_a_monster() -> None:
    run = drive(seers(2, 0, "monsters", 1), psyker(),
                {"special.attack": "3 4", "special.defence": "1 1"})
    assert [s.key for s in run.dice()] == ["special.attack", "special.defence"]
    assert run.state.unit("black.0").pending == 2


def test_ps_s4_any_enemy_in_play_even_in_contact_app_reading_5() -> None:
    s = seers(1, 0, others=True)
    engage(s, "red.0", "black.1")
    res = Resolution(s, psyker())
    assert res.step.key == "special.target" and "12\"" in res.step.prompt
    assert [c.value for c in res.step.choices] == ["black.0", "black.1"]
    run = drive(s, psyker(), {"special.target": "black.1"}, dice=ROLL)
    assert run.ctx.facts["attack"]["target"] == "black.1"
    assert run.state.unit("red.0").acted


def test_ps_s4_a_single_enemy_is_targeted_without_a_question() -> None:
    run = drive(seers(), psyker(), dice=ROLL)
    assert run.asked == ["special.attack", "special.defence"]


def test_ps_s4_facts_by_stage() -> None:
    """Before any die the fact is "declared" (the odds panel: "as declared")."""
    res = Resolution(seers(2, 1), psyker())
    assert isinstance(res.step, DiceRequest)
    fact = res.ctx.facts["attack"]
    assert fact == {"kind": "special", "target": "black.0", "dice": 2, "defence": 3,
                    "models": 5, "wounds_per_model": 1, "wounded": 0, "pending": 0,
                    "stage": "declared"}
    res.answer("4 6")
    fact = res.ctx.facts["attack"]
    assert (fact["stage"], fact["attack_faces"]) == ("defence", [4, 6])
    res.answer("6 6 2")
    assert res.done
    assert res.ctx.facts["attacks"] == [{
        **fact, "stage": "done", "defence_faces": [6, 6, 2], "wounds": 1}]

"""Shooting (DZ3 §5, §6; DZ3-R5, R6, R7, R11)."""

from __future__ import annotations

import pytest
from dz3_fixtures import ROLL, act, battle, draw, notes

from deathzap_tui.rules.deathzap3 import tables
from deathzap_tui.rules.game import Game
from deathzap_tui.rules.steps import Dice, DiceRequest, Question, Refused

ADV = {"type": "activate", "unit": "red.0", "action": "advance"}
BRAVO = {"type": "activate", "unit": "red.1", "action": "advance"}


def black_to_act() -> Game:
    """The battle with its last two cards taken back, then a joker (tokens off) and
    the ace of clubs: Black activates one unit with every unit ready."""
    g = battle()
    g.undo()
    g.undo()
    draw(g, "JOKER1")
    draw(g, "AC")
    return g


@pytest.mark.parametrize(("cover", "target"), [("open", 3), ("soft", 4), ("hard", 5)])
def test_to_hit_by_skill_and_cover_dz3_r5(cover: str, target: int) -> None:
    g = battle()
    steps = act(g, ADV, {"shoot.target": "black.1", "shoot.cover.black.1": cover,
                         "shoot.profile.destroyer.black.1": "0"}, dice=ROLL)
    hit = next(s for s in steps if s.key == "shoot.1.hit")
    assert hit.target == target == tables.TO_HIT[("regular", cover)]
    assert "Regular shooter" in hit.why and hit.rule == "DZ3 §6 / DZ3-R5"
    assert hit.side == "red"


def test_full_pipeline_shields_then_saves_dz3_s6_r6() -> None:
    g = battle()
    # Bravo (basic): 4 Small Arms + Grenades (Short Range). Target Pickets, 4 light shields.
    steps = act(g, BRAVO, {
        "shoot.target": "black.1", "shoot.range.black.1": "no", "shoot.cover.black.1": "open",
        "shoot.1.hit": "4455", "shoot.1.shields": "4444",
    })
    keys = [s.key for s in steps]
    assert keys == ["shoot.target", "shoot.range.black.1", "shoot.cover.black.1",
                    "shoot.1.hit", "shoot.1.shields"]
    assert g.state.unit("black.1").shields == 0  # one pool for the unit (DZ3-R6)
    assert g.state.unit("black.1").figures_left == 4
    assert any("Grenades is Short Range" in n for n in notes(g))


def test_damage_beyond_shields_forces_saves_and_casualties_dz3_s6() -> None:
    g = battle()
    steps = act(g, BRAVO, {
        "shoot.target": "black.1", "shoot.range.black.1": "yes", "shoot.cover.black.1": "open",
        "shoot.order.1": "0",
        "shoot.1.hit": "4444", "shoot.1.shields": "4444",      # 4 dmg: 4 shields gone
        "shoot.2.hit": "444444", "shoot.2.shields": "444111",   # 3 dmg: 3 saves
        "shoot.2.saves": "611", "shoot.2.morale.1": "66",
    })
    save = next(s for s in steps if s.key == "shoot.2.saves")
    assert (save.count, save.target, save.side) == (3, 6, "black")
    p = g.state.unit("black.1")
    assert p.shields == 0 and p.figures_left == 2 and p.in_play


def test_strike_removes_a_shield_and_forces_a_save_dz3_s6() -> None:
    g = battle()
    steps = act(g, ADV, {"shoot.target": "black.1", "shoot.profile.destroyer.black.1": "0",
                         "shoot.order.1": "1", "shoot.1.hit": "6", "shoot.1.shields": "6",
                         "shoot.1.saves": "6",
                         "shoot.2.hit": "111111"})
    assert next(s for s in steps if s.key == "shoot.1.shields").target == 2  # heavy v light
    assert g.state.unit("black.1").shields == 3
    assert g.state.unit("black.1").figures_left == 4  # saved on the 6
    facts_strike = [s for s in steps if s.key == "shoot.1.saves"]
    assert facts_strike and facts_strike[0].count == 1


def test_two_profile_weapon_is_chosen_before_any_die_dz3_s5() -> None:
    g = battle()
    steps = act(g, ADV, {"shoot.target": "black.1", "shoot.profile.destroyer.black.1": "1"},
                dice=ROLL)
    first_die = next(i for i, s in enumerate(steps) if isinstance(s, DiceRequest))
    assert all(isinstance(s, Question) for s in steps[:first_die])
    assert any(s.key == "shoot.profile.destroyer.black.1" for s in steps[:first_die])
    assert any("Destroyer (2 light)" in n for n in notes(g))


def test_split_fire_declared_before_dice_and_short_range_refused_dz3_s6() -> None:
    g = battle()
    action = g.begin(BRAVO)
    r = action.resolution
    r.answer("split")
    assert r.step.key == "shoot.split.small-arms"
    r.answer("divide")
    r.answer(3)  # 3 at Lancers (black.0), 1 left for Pickets
    r.answer(1)
    assert r.step.key == "shoot.split.grenades"
    r.answer("black.0")
    assert r.step.key == "shoot.range.black.0"
    with pytest.raises(Refused, match="Short Range"):
        r.answer("no")
    assert r.step.key == "shoot.range.black.0"
    r.answer("yes")
    while isinstance(r.step, Question):
        r.answer(r.step.default)
    assert isinstance(r.step, DiceRequest)
    attacks = r.ctx.facts["attacks"]
    assert [(a["target"], a["weapon"], a["dice"]) for a in attacks] == [
        ("black.0", "Small Arms", 3), ("black.1", "Small Arms", 1), ("black.0", "Grenades", 6)]


def test_wrong_dice_refused_and_state_unchanged() -> None:
    g = battle()
    before = g.state.snapshot()
    action = g.begin(BRAVO)
    r = action.resolution
    for key, ans in (("shoot.target", "black.1"), ("shoot.range.black.1", "no"),
                     ("shoot.cover.black.1", "open")):
        assert r.step.key == key
        r.answer(ans)
    for bad in ("123", "12345", "1237", Dice(faces=(0, 1, 2, 3)), Dice(successes=5)):
        with pytest.raises(Refused):
            r.answer(bad)
        assert r.step.key == "shoot.1.hit"
    r.answer(Dice(successes=2))
    assert r.step.key == "shoot.1.shields" and r.step.count == 2
    assert g.state.snapshot() == before


def test_casualty_choice_when_figures_differ_and_leader_takes_cp_dz3_r14() -> None:
    g = battle()
    draw_state = g.state
    assert draw_state.unit("red.0").figures[0].leader
    g.undo()
    g.undo()
    draw(g, "JOKER1")
    draw(g, "AC")
    steps = act(g, {"type": "activate", "unit": "black.1", "action": "advance"}, {
        "shoot.target": "red.0", "shoot.cover.red.0": "open",
        "shoot.1.hit": "=5", "shoot.1.shields": "44444", "shoot.1.saves": "11",
        "shoot.1.casualty.1": "red.0.0", "shoot.1.casualty.2": "red.0.6",
        "shoot.1.morale.1": "=1"})  # no leader left on red: no leader question
    q = next(s for s in steps if s.key == "shoot.1.casualty.1")
    assert q.side == "red" and {c.value for c in q.choices} == {"red.0.0", "red.0.1", "red.0.6"}
    alpha = g.state.unit("red.0")
    assert not alpha.figures[0].alive and alpha.figures[0].command == 0
    assert not alpha.figures[6].alive and alpha.figures_left == 5
    assert any("command points are lost (DZ3-R14)" in n for n in notes(g))


def test_default_casualty_is_never_the_leader_dz3_s6_s11() -> None:
    """DZ3 §6: the owner picks the casualty. The default (what Enter answers) is the
    figure whose loss costs least: never a leader (its morale bonus, DZ3 §11, and
    its command points, DZ3-R14) while another figure is left, and the cheapest
    weapons first (DZ3 §13: Small Arms before the Destroyer)."""
    g = black_to_act()
    steps = act(g, {"type": "activate", "unit": "black.1", "action": "advance"}, {
        "shoot.target": "red.0", "shoot.cover.red.0": "open",
        "shoot.1.hit": "=5", "shoot.1.shields": "44444", "shoot.1.saves": "11",
        "shoot.1.morale.1": "=1"})  # its own leader is alive: no leader question
    q = next(s for s in steps if s.key == "shoot.1.casualty.1")
    assert q.choices[0].value == "red.0.0" and q.default == "red.0.1"  # leader listed first
    alpha = g.state.unit("red.0")
    assert alpha.figures[0].alive and alpha.figures[0].command == 2
    assert alpha.figures[6].alive  # the Gunner's Destroyer is kept too
    assert alpha.figures_left == 5


def test_identical_figures_are_removed_without_a_question() -> None:
    g = black_to_act()
    steps = act(g, {"type": "activate", "unit": "black.0", "action": "advance"}, {
        "shoot.target": "red.1", "shoot.cover.red.1": "open",
        "shoot.1.hit": "=6", "shoot.1.shields": "444444", "shoot.1.saves": "1111",
        "shoot.1.casualty.1": "red.1.4", "shoot.1.morale.1": "6"})
    assert not any(s.key == "shoot.1.casualty.2" for s in steps)
    assert g.state.unit("red.1").figures_left == 1


def test_facts_describe_the_attack_in_progress() -> None:
    g = battle()
    action = g.begin(BRAVO)
    r = action.resolution
    for ans in ("black.1", "no", "soft"):
        r.answer(ans)
    fact = r.ctx.facts["attack"]
    assert fact == {**fact, "target": "black.1", "kind": "shooting", "dice": 4, "to_hit": 5,
                    "vs_shields": 4, "strike": False, "shields": 4, "figures": 4, "save": 6,
                    "vehicle": False, "stage": "hit"}
    r.answer("5566")
    assert fact["hits"] == 4 and fact["stage"] == "shields"


def test_n_plus_means_at_least_n_dz3_r7() -> None:
    assert Dice(faces=(1, 2, 6)).count(2) == 2
    assert Dice(faces=(6, 6)).count(7) == 0

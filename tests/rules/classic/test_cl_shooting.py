"""Deathzap Classic shooting (CL §5, CL-R2, CL-R3): refusals, to-hit by cover and the
panicked 6, Auto-heavy and Radius dice, every save group, split fire, pending
casualties removed only at the end of the phase, the owner's choice, suppression, the
odds facts, counts of successes and generated dice."""

from __future__ import annotations

from typing import Any

import pytest
from cl_combat_fixtures import drive, engage, figures, roll_all, state_of, unit

from deathzap_tui.rules.classic import tables
from deathzap_tui.rules.classic.combat import end_of_shooting, shoot, shoot_refusal
from deathzap_tui.rules.classic.engine import resolution
from deathzap_tui.rules.classic.model import Figure
from deathzap_tui.rules.classic.state import State
from deathzap_tui.rules.steps import (
    ROLL,
    Dice,
    DiceRequest,
    Maker,
    Question,
    Refused,
    Resolution,
)


def shooter(name: str = "red.0") -> Maker:
    return lambda ctx: shoot(ctx, name)


def two_squads(weapon: str = "basic", n: int = 4, target_type: str = "infantry",
               target_n: int = 6, **kw: Any) -> State:
    """Red Squad (red.0) with ``n`` guns of ``weapon`` against Black's ``target_type``
    unit (black.0) and a second Black squad (black.1)."""
    return state_of([unit("Squad", "infantry", n, weapon)],
                    [unit("Targets", target_type, target_n), unit("Others", "infantry", 5)],
                    **kw)


def faces(n: int, value: int) -> str:
    return " ".join(str(value) for _ in range(n))


# --- who may shoot, at whom --------------------------------------------------------


def test_units_in_melee_cannot_shoot_cl_s5() -> None:
    s = two_squads()
    engage(s, "red.0", "black.0")
    assert "in melee" in shoot_refusal(s, "red.0")
    with pytest.raises(Refused, match="CL §5"):  # the engine asks combat.shoot_refusal
        resolution(s, {"type": "shoot", "unit": "red.0"})


def test_units_in_melee_cannot_be_shot_cl_s5() -> None:
    s = state_of([unit("Squad"), unit("Brawlers")], [unit("A"), unit("B")])
    engage(s, "red.1", "black.0")
    res = Resolution(s, shooter())
    assert [c.value for c in res.step.choices if c.value.startswith("black")] == ["black.1"]
    with pytest.raises(Refused):
        res.answer("black.0")
    engage(s, "red.1", "black.1")
    assert "cannot be shot" in shoot_refusal(s, "red.0")


def test_refusals_not_in_play_no_guns_already_shot_cl_s5() -> None:
    s = state_of([unit("Squad"), unit("Hounds", "beasts", 4, extra=()),
                  unit("Gone", "infantry", 2)], [unit("Targets")])
    for f in s.unit("red.1").figures:
        f.weapons = ()
    for f in s.unit("red.2").figures:
        f.alive = False
    assert "no guns" in shoot_refusal(s, "red.1")
    assert "no longer in play" in shoot_refusal(s, "red.2")
    assert "no unit" in shoot_refusal(s, "red.9")
    assert shoot_refusal(s, "red.0") == ""
    run = roll_all(s, shooter())
    assert run.state.unit("red.0").shot
    assert "already shot" in shoot_refusal(run.state, "red.0")


# --- to hit ------------------------------------------------------------------------

DIGEST_TO_HIT = {  # CL §5: open, soft, hard
    "basic": (4, 5, 6), "advanced": (3, 4, 5), "auto-heavy": (3, 4, 5), "heavy": (3, 4, 5),
    "radius": (4, 4, 4)}


@pytest.mark.parametrize("weapon", sorted(DIGEST_TO_HIT))
@pytest.mark.parametrize("cover", tables.COVERS)
def test_to_hit_by_cover_cl_s5(weapon: str, cover: str) -> None:
    s = two_squads(weapon, 2)
    res = Resolution(s, shooter())
    res.answer("black.0")
    assert isinstance(res.step, Question) and str(tables.WEAPONS[weapon].range) in \
        res.step.prompt  # the cover question names the weapon's range
    res.answer(cover)
    if tables.WEAPONS[weapon].radius:
        res.answer(1)
    hit = res.step
    assert isinstance(hit, DiceRequest) and hit.side == "red"
    assert hit.target == DIGEST_TO_HIT[weapon][tables.COVERS.index(cover)]
    assert res.ctx.facts["attack"]["to_hit"] == hit.target


@pytest.mark.parametrize("cover", tables.COVERS)
def test_panicked_shooter_hits_only_on_6_cl_s5(cover: str) -> None:
    s = two_squads("advanced", 3)
    s.unit("red.0").panicked = True
    run = drive(s, shooter(), {"cover.advanced.black.0": cover, "fire.1.hit": "6 5 6",
                               "fire.1.save": "1 1"})
    assert run.step("fire.1.hit").target == tables.PANICKED_TO_HIT == 6
    assert run.state.unit("black.0").pending == 2
    assert "panicked" in run.step("fire.1.hit").why


def test_a_lone_infantry_figure_is_panicked_and_hits_on_6_cl_s4_s5() -> None:
    s = two_squads("basic", 1)
    assert s.unit("red.0").is_panicked and not s.unit("red.0").panicked
    run = drive(s, shooter(), {"fire.1.hit": "5"})
    assert run.step("fire.1.hit").target == 6
    assert "fire.1.save" not in run.asked  # no hit, no save


def test_auto_heavy_rolls_6_dice_per_gun_cl_s5() -> None:
    s = two_squads("auto-heavy", 2)
    run = drive(s, shooter(), {"fire.1.hit": faces(12, 3), "fire.1.save": faces(12, 6)})
    assert run.step("fire.1.hit").count == 2 * tables.WEAPONS["auto-heavy"].dice_per_gun == 12
    fact = run.ctx.facts["attacks"][0]
    assert fact["dice"] == 12 and fact["hits"] == 12 and fact["failed_saves"] == 0


@pytest.mark.parametrize("blast", [1, 3, 6])
def test_radius_rolls_one_die_per_figure_in_the_blast_per_gun_cl_s5(blast: int) -> None:
    s = two_squads("radius", 2)
    run = drive(s, shooter(), {"radius.radius.black.0": blast}, dice=ROLL)
    q = run.step("radius.radius.black.0")
    assert (q.minimum, q.maximum) == (1, 6)  # 1..the target's living figures
    assert run.step("fire.1.hit").count == 2 * blast
    assert run.ctx.facts["attacks"][0]["dice"] == 2 * blast


def test_radius_blast_beyond_the_targets_figures_is_refused_cl_s5() -> None:
    s = two_squads("radius", 1, target_n=3)
    res = Resolution(s, shooter())
    res.answer("black.0")
    res.answer("open")
    for bad in (0, 4):
        with pytest.raises(Refused):
            res.answer(bad)


# --- saves (CL-R3: the table as data) ----------------------------------------------

SAVE_CASES = [(w, t) for w in tables.WEAPONS for t in tables.FIGURE_TYPES]


@pytest.mark.parametrize(("weapon", "target_type"), SAVE_CASES)
def test_every_save_group_safe_and_dead_cl_s5_cl_r3(weapon: str, target_type: str) -> None:
    """4 hits; every save roll shows 3 3 5 5 (two saves on 4+ and 5+)."""
    s = two_squads(weapon, 4, target_type, 6)
    save = tables.WEAPONS[weapon].save[tables.SAVE_GROUP[target_type]]
    answers: dict[str, Any] = {"fire.1.hit": faces(s.unit("red.0").figures_left * tables.WEAPONS[
        weapon].dice_per_gun, 6)}
    hits = 4 * tables.WEAPONS[weapon].dice_per_gun
    if save not in (tables.SAFE, tables.DEAD):
        answers["fire.1.save"] = " ".join(str(3 + 2 * (i % 2)) for i in range(hits))
    run = drive(s, shooter(), answers)
    fact = run.ctx.facts["attacks"][0]
    assert fact["save"] == save
    target = run.state.unit("black.0")
    if save == tables.SAFE:
        assert "fire.1.save" not in run.asked and "no effect" in run.text
        expected = 0
    elif save == tables.DEAD:
        assert "fire.1.save" not in run.asked and "no save" in run.text
        expected = hits
    else:
        req = run.step("fire.1.save")
        assert (req.target, req.count, req.side) == (save, hits, "black")
        expected = hits - sum(1 for i in range(hits) if 3 + 2 * (i % 2) >= save)
    assert fact["failed_saves"] == expected
    assert target.pending == min(expected, 6)
    assert target.figures_left == 6  # nothing comes off before the phase ends (CL-R2)


def test_the_save_groups_follow_the_digest_cl_r3() -> None:
    """The CL-R3 reading of the three save columns, as data."""
    assert {g: sorted(t for t, gg in tables.SAVE_GROUP.items() if gg == g)
            for g in tables.SAVE_GROUPS} == {
        "light": ["beasts", "infantry"],
        "medium": ["big-beasts", "heavy-infantry", "light-vehicles"],
        "big": ["monsters", "vehicles"]}
    assert tables.WEAPONS["heavy"].save["light"] == tables.DEAD
    assert tables.WEAPONS["basic"].save["big"] == tables.SAFE


# --- split fire, several weapons ---------------------------------------------------


def test_split_fire_between_targets_cl_s5() -> None:
    s = two_squads("basic", 4)
    run = drive(s, shooter(), {
        "target.basic": "split", "split.basic.black.0": 3, "split.basic.black.1": 1,
        "cover.basic.black.1": "soft",
        "fire.1.hit": "4 4 1", "fire.1.save": "1 1",
        "fire.2.hit": "5", "fire.2.save": "6"})
    first, second = run.ctx.facts["attacks"]
    assert (first["target"], first["dice"], first["to_hit"], first["weapon"]) == \
        ("black.0", 3, 4, "Basic x3")
    assert (second["target"], second["dice"], second["to_hit"]) == ("black.1", 1, 5)
    assert run.state.unit("black.0").pending == 2
    assert run.state.unit("black.1").pending == 0


def test_split_offered_only_with_several_guns_and_targets_cl_s5() -> None:
    res = Resolution(two_squads("basic", 1), shooter())
    assert "split" not in [c.value for c in res.step.choices]
    res = Resolution(state_of([unit("Squad", n=3)], [unit("Only")]), shooter())
    assert "split" not in [c.value for c in res.step.choices]


def test_each_weapon_group_picks_its_own_target_cl_s5() -> None:
    mixed = unit("Squad", "infantry", 3, "basic",
                 extra=(Figure("Gunner", ("heavy", "rifle")),))
    s = state_of([mixed], [unit("A"), unit("B", "vehicles", 1)])
    run = drive(s, shooter(), {"target.heavy": "black.1", "target.rifle": "hold"}, dice=ROLL)
    assert [q.key for q in run.steps if q.key.startswith("target.")] == [
        "target.basic", "target.heavy", "target.rifle"]
    attacks = run.ctx.facts["attacks"]
    assert [(a["weapon"], a["target"]) for a in attacks] == [
        ("Basic x3", "black.0"), ("Heavy x1", "black.1")]
    assert attacks[1]["save"] == tables.WEAPONS["heavy"].save["big"]


def test_hold_fire_and_out_of_range_cl_s5() -> None:
    s = two_squads("basic", 2)
    run = drive(s, shooter(), {"target.basic": "hold"})
    assert run.state.unit("red.0").shot and not run.ctx.facts.get("attacks")
    run = drive(s, shooter(), {"cover.basic.black.0": "out"})
    assert not run.dice() and "24\"" in run.text


# --- pending casualties (CL-R2) ----------------------------------------------------


def test_pending_is_capped_at_the_targets_figures_cl_r2() -> None:
    s = state_of([unit("Guns", "infantry", 5, "heavy"), unit("Second", n=3)],
                 [unit("Pair", n=2)])
    run = drive(s, shooter(), {"fire.1.hit": "6 6 6 6 6"})  # Heavy v infantry: dead
    assert run.state.unit("black.0").pending == 2
    assert run.ctx.facts["attack"]["failed_saves"] == 5
    # another unit firing at it now adds nothing: the shots are wasted
    run2 = drive(run.state, shooter("red.1"))
    assert not run2.dice() and "already a casualty" in run2.text
    assert run2.ctx.facts["attack"]["pending"] == 2
    assert run2.state.unit("black.0").pending == 2


def test_pending_adds_up_to_the_figures_not_yet_pending_cl_r2() -> None:
    s = two_squads("basic", 6, target_n=4)
    s.unit("black.0").pending = 3
    run = drive(s, shooter(), {"fire.1.hit": faces(6, 6), "fire.1.save": faces(6, 1)})
    fact = run.ctx.facts["attack"]
    assert (fact["figures"], fact["pending"], fact["failed_saves"]) == (4, 3, 6)
    assert run.state.unit("black.0").pending == 4


def test_casualties_come_off_only_after_everyone_has_fired_cl_r2() -> None:
    s = state_of([unit("Squad", n=4)], [unit("Enemy", n=4)])
    red = drive(s, shooter(), {"fire.1.hit": "6 6 6 6", "fire.1.save": "1 1 1 1"})
    assert red.state.unit("black.0").pending == 4
    assert red.state.unit("black.0").figures_left == 4
    # Black fires back with all four figures though all four are pending casualties.
    black = drive(red.state, shooter("black.0"), {"fire.1.hit": "6 6 1 1",
                                                  "fire.1.save": "6 1"})
    assert black.step("fire.1.hit").count == 4
    end = drive(black.state, end_of_shooting, {"suppression.red.0.left": "3",
                                               "suppression.red.0.killed": "2"})
    assert end.state.unit("black.0").figures_left == 0
    assert end.state.unit("red.0").figures_left == 3
    assert end.state.killed == {"red": 4, "black": 1}  # through victory.casualty
    assert all(u.pending == 0 for u in end.state.all_units())
    assert "suppression.black.0.left" not in end.asked  # wiped out: no test


def test_end_of_shooting_impetus_side_first_then_force_order_cl_r2() -> None:
    s = state_of([unit("A", n=3), unit("B", n=3)], [unit("C", n=3), unit("D", n=3)],
                 impetus="black")
    for uid in ("red.1", "red.0", "black.1", "black.0"):
        s.unit(uid).pending = 1
    run = drive(s, end_of_shooting, dice=Dice(faces=(6,)))
    units = [k.split(".")[1] + "." + k.split(".")[2] for k in run.asked
             if k.endswith(".left")]
    assert units == ["black.0", "black.1", "red.0", "red.1"]
    assert all(u.figures_left == 2 for u in run.state.all_units())


def test_the_owner_picks_which_figure_dies_cl_s5() -> None:
    boss = Figure("Captain", ("advanced",), general=True)
    s = state_of([unit("Squad", n=2)],
                 [unit("Command", "infantry", 2, extra=(boss, *figures(1, "Gunner", "heavy")))])
    s.unit("black.0").pending = 2
    res = Resolution(s, end_of_shooting)
    q = res.step
    assert isinstance(q, Question) and q.side == "black" and q.rule.startswith("CL §5")
    labels = [c.label for c in q.choices]
    assert len(labels) == 3 and any("general" in x for x in labels)
    res.answer("black.0.2")  # the general
    res.answer("black.0.3")  # the gunner
    assert not res.ctx.state.unit("black.0").figures[2].alive
    assert not res.ctx.state.unit("black.0").figures[3].alive
    assert res.ctx.state.unit("black.0").figures_left == 2
    assert res.step.key == "suppression.black.0.left" and res.step.side == "black"


# --- suppression (CL §5) -----------------------------------------------------------


@pytest.mark.parametrize(("left_die", "killed_die", "panicked"), [
    (1, 6, True),    # 1 x 4 = 4 < 6 x 2 = 12
    (5, 6, False),   # 20 > 12
    (3, 6, False),   # 12 = 12: equal products, not panicked
])
def test_suppression_cl_s5(left_die: int, killed_die: int, panicked: bool) -> None:
    s = state_of([unit("Squad")], [unit("Enemy", n=6)], turn=3)
    s.unit("black.0").pending = 2
    run = drive(s, end_of_shooting, {"suppression.black.0.left": str(left_die),
                                     "suppression.black.0.killed": str(killed_die)})
    u = run.state.unit("black.0")
    assert u.figures_left == 4
    assert u.panicked is panicked
    assert u.panicked_turn == (3 if panicked else 0)
    left, killed = run.step("suppression.black.0.left"), run.step("suppression.black.0.killed")
    assert left.target is None and killed.target is None  # faces, not a count
    assert "4 figures" in left.purpose and "2 figures" in killed.purpose


def test_suppressing_a_unit_already_panicked_keeps_its_panic_turn_cl_s7() -> None:
    """CL §7: only a unit that was steady "became panicked this turn"; suppressing
    one panicked in an earlier turn leaves that turn, so it tests in this morale
    phase."""
    s = state_of([unit("Squad")], [unit("Enemy", n=6)], turn=3)
    s.unit("black.0").panicked, s.unit("black.0").panicked_turn = True, 2
    s.unit("black.0").pending = 2
    run = drive(s, end_of_shooting, {"suppression.black.0.left": "1",
                                     "suppression.black.0.killed": "6"})
    assert "the unit is panicked (CL §5)" in run.text
    u = run.state.unit("black.0")
    assert u.panicked and u.panicked_turn == 2


def test_shot_down_to_a_lone_figure_it_becomes_panicked_this_turn_cl_s4_s7() -> None:
    """CL §4, §7: casualties that leave a steady unit a lone Infantry figure panic it
    this turn (it then fails its morale test without moving); suppression does not
    change that."""
    s = state_of([unit("Squad")], [unit("Enemy", n=3)], turn=3)
    s.unit("black.0").pending = 2
    run = drive(s, end_of_shooting, {"suppression.black.0.left": "6",
                                     "suppression.black.0.killed": "1"})
    u = run.state.unit("black.0")
    assert u.alone and u.is_panicked and not u.panicked and u.panicked_turn == 3


def test_no_pending_no_casualties_cl_r2() -> None:
    run = drive(state_of([unit("A")], [unit("B")]), end_of_shooting)
    assert not run.steps and "No casualties" in run.text


# --- the odds facts ----------------------------------------------------------------


def test_shooting_facts_follow_the_contract_cl_s5() -> None:
    s = two_squads("basic", 4)
    s.unit("black.0").pending = 1
    res = Resolution(s, shooter())
    res.answer("black.0")
    res.answer("soft")
    fact = res.ctx.facts["attack"]
    assert fact is res.ctx.facts["attacks"][0]
    assert fact == {"kind": "shooting", "target": "black.0", "weapon": "Basic x4", "dice": 4,
                    "to_hit": 5, "save": 4, "figures": 6, "pending": 1, "stage": "hit",
                    "target_type": "infantry", "target_panicked": False}
    res.answer("5 5 6 1")
    fact = res.ctx.facts["attack"]
    assert (fact["stage"], fact["hits"]) == ("saves", 3)
    res.answer("1 2 6")
    fact = res.ctx.facts["attack"]
    assert (fact["stage"], fact["failed_saves"]) == ("done", 2)
    assert res.done and len(res.ctx.facts["attacks"]) == 1


def test_declared_stage_while_questions_remain_cl_s5() -> None:
    s = state_of([unit("Squad", "infantry", 2, "basic",
                       extra=(Figure("Gunner", ("heavy",)),))], [unit("A")])
    res = Resolution(s, shooter())
    res.answer("black.0")
    res.answer("open")
    assert res.step.key == "target.heavy"
    assert res.ctx.facts["attacks"][0]["stage"] == "declared"


# --- answers: counts of successes, generated dice ----------------------------------


def test_counts_of_successes_are_accepted_where_a_target_exists_cl_s5() -> None:
    s = two_squads("basic", 4)
    run = drive(s, shooter(), {"fire.1.hit": "3s", "fire.1.save": Dice(successes=1)})
    assert run.state.unit("black.0").pending == 2
    assert "count given" in run.text
    s.unit("black.0").pending = 2
    with pytest.raises(Refused):  # suppression needs faces
        drive(s, end_of_shooting, {"suppression.black.0.left": "1s"})


def test_generated_dice_throughout_shooting_cl_s5() -> None:
    s = state_of([unit("Squad", "infantry", 6, "auto-heavy")],
                 [unit("Enemy", n=8), unit("Beasts", "beasts", 5)])
    shot = roll_all(s, shooter())
    assert all(d.count for d in shot.dice())
    assert shot.res.answers[0] == "black.0" and all(
        a.generated for a in shot.res.answers if isinstance(a, Dice))
    end = roll_all(shot.state, end_of_shooting)
    pending = shot.state.unit("black.0").pending
    assert end.state.unit("black.0").figures_left == 8 - pending
    assert end.state.rng.state != s.rng.state
    # replaying the recorded answers gives the same state
    again = Resolution(shot.state, end_of_shooting)
    again.replay(end.res.answers)
    assert again.ctx.state == end.state

"""Deathzap Classic melee (CL §6, §2, CL-R4): hits from pip totals and power per
figure type, panicked figures, hits spread evenly over types with the owner placing
the odd ones, simultaneous casualties, the end-of-melee roll and its re-roll, the
retreat, the melee ending, the odds facts, counts of successes and generated dice."""

from __future__ import annotations

from typing import Any

import pytest
from cl_combat_fixtures import drive, engage, figures, roll_all, state_of, unit

from deathzap_tui.rules.classic import tables
from deathzap_tui.rules.classic.combat import fight, fight_refusal
from deathzap_tui.rules.classic.engine import resolution
from deathzap_tui.rules.classic.model import Figure, Unit
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


def fighting(name: str = "red.0") -> Maker:
    return lambda ctx: fight(ctx, name)


def ones(n: int) -> str:
    return " ".join("1" for _ in range(n))


def sixes(n: int) -> str:
    return " ".join("6" for _ in range(n))


def duel(red_type: str = "infantry", red_n: int = 4, black_type: str = "infantry",
         black_n: int = 6, **kw: Any) -> State:
    """Red's unit red.0 in melee with Black's black.0."""
    s = state_of([unit("Red Band", red_type, red_n)], [unit("Black Band", black_type, black_n)],
                 step="melee", **kw)
    engage(s, "red.0", "black.0")
    return s


# --- refusals ----------------------------------------------------------------------


def test_only_a_unit_in_melee_fights_cl_s6() -> None:
    s = state_of([unit("A")], [unit("B")], step="melee")
    assert "not in melee" in fight_refusal(s, "red.0")
    assert "no unit" in fight_refusal(s, "black.7")
    with pytest.raises(Refused, match="CL §6"):  # the engine asks combat.fight_refusal
        resolution(s, {"type": "fight", "unit": "red.0"})


# --- hits --------------------------------------------------------------------------


@pytest.mark.parametrize("type_", tables.FIGURE_TYPES)
def test_hits_are_the_pip_total_divided_by_the_types_power_cl_s6(type_: str) -> None:
    s = duel(type_, 3, "infantry", 6)
    stats = tables.TYPES[type_]
    dice = 3 * stats.melee_attacks
    run = drive(s, fighting(), {"melee.red.1": sixes(dice), "melee.black.1": ones(6)},
                dice=ROLL)
    req = run.step("melee.red.1")
    assert (req.count, req.target, req.side) == (dice, None, "red")
    hits = 6 * dice // stats.melee_power
    assert run.ctx.facts["attacks"][0]["hits"] == hits
    assert run.ctx.facts["attacks"][0]["groups"] == [[dice, stats.melee_power]]
    assert run.step("save.black.infantry").count == hits


def test_the_digest_melee_table_cl_s2() -> None:
    assert {t.id: (t.melee_attacks, t.melee_power, t.save) for t in tables.TYPES.values()} == {
        "infantry": (1, 6, 6), "heavy-infantry": (1, 5, 4), "beasts": (1, 4, 6),
        "big-beasts": (2, 3, 4), "light-vehicles": (2, 2, 5), "vehicles": (2, 2, 3),
        "monsters": (2, 1, 3)}
    assert (tables.PANICKED_MELEE_ATTACKS, tables.PANICKED_MELEE_POWER) == (1, 6)


def test_each_type_rounds_down_separately_then_hits_add_up_cl_s6() -> None:
    s = state_of([unit("Rifles", "infantry", 4), unit("Heavies", "heavy-infantry", 3)],
                 [unit("Mob", "infantry", 10)], step="melee")
    engage(s, "red.0", "black.0")
    engage(s, "red.1", "black.0")
    run = drive(s, fighting("red.1"), {
        "melee.red.1": "6 6 5 4",      # 21 pips / 6 = 3 (infantry)
        "melee.red.2": "5 5 4",        # 14 pips / 5 = 2 (heavy infantry)
        "melee.black.1": "2 2 2 2 2 2 2 2 2 2",  # 20 / 6 = 3
        "save.black.infantry": "6 6 1 1 1",
        "odd.red.1": "heavy-infantry",
        "save.red.infantry": "1", "save.red.heavy-infantry": "4 1",
        "end.1.red": "6", "end.1.black": "1"})
    red, black = run.ctx.facts["attacks"]
    assert red["groups"] == [[4, 6], [3, 5]] and red["hits"] == 5
    assert black["hits"] == 3
    assert run.step("save.black.infantry").count == 5
    # 3 hits over two types: 1 each, the odd one placed by Red (the defender)
    odd = run.step("odd.red.1")
    assert isinstance(odd, Question) and odd.side == "red"
    assert run.step("save.red.infantry").count == 1
    assert run.step("save.red.heavy-infantry").count == 2
    assert run.state.unit("black.0").figures_left == 7
    assert run.state.unit("red.0").figures_left == 3
    assert run.state.unit("red.1").figures_left == 2


def test_mixed_types_spread_evenly_owner_places_odd_hits_cl_s6() -> None:
    s = state_of([unit("Brutes", "monsters", 2)],
                 [unit("Rifles", "infantry", 5), unit("Hounds", "beasts", 5),
                  unit("Heavies", "heavy-infantry", 5)], step="melee")
    for uid in ("black.0", "black.1", "black.2"):
        engage(s, "red.0", uid)
    run = drive(s, fighting(), {
        "melee.red.1": "2 1 1 1",  # 5 pips / power 1 = 5 hits
        "odd.black.1": "beasts", "odd.black.2": "heavy-infantry"}, dice=ROLL)
    assert run.ctx.facts["attacks"][0]["hits"] == 5
    first, second = run.step("odd.black.1"), run.step("odd.black.2")
    assert first.side == second.side == "black"
    assert [c.value for c in first.choices] == ["infantry", "beasts", "heavy-infantry"]
    assert [c.value for c in second.choices] == ["infantry", "heavy-infantry"]
    saves = {t: run.step(f"save.black.{t}") for t in ("infantry", "beasts", "heavy-infantry")}
    assert {t: (r.count, r.target) for t, r in saves.items()} == {
        "infantry": (1, 6), "beasts": (2, 6), "heavy-infantry": (2, 4)}
    assert run.ctx.facts["attacks"][0]["defenders"] == [[5, 6], [5, 6], [5, 4]]


def test_even_hits_need_no_question_cl_s6() -> None:
    s = state_of([unit("Brutes", "monsters", 1)],
                 [unit("Rifles", "infantry", 5), unit("Hounds", "beasts", 5)], step="melee")
    engage(s, "red.0", "black.0")
    engage(s, "red.0", "black.1")
    run = drive(s, fighting(), {"melee.red.1": "3 1"}, dice=ROLL)  # 4 hits: 2 and 2
    assert not [k for k in run.asked if k.startswith("odd.black")]
    assert run.step("save.black.infantry").count == run.step("save.black.beasts").count == 2


def test_panicked_figures_fight_at_1_attack_power_6_and_save_as_their_type_cl_s2() -> None:
    s = state_of([unit("Steady", "big-beasts", 2), unit("Shaken", "big-beasts", 3)],
                 [unit("Mob", "infantry", 8)], step="melee")
    s.unit("red.1").panicked = True
    engage(s, "red.0", "black.0")
    engage(s, "red.1", "black.0")
    run = drive(s, fighting(), {"melee.red.1": "3 3 3 3",  # 2 big beasts: 12 / 3 = 4
                                "melee.red.2": "6 6 5",    # panicked: 17 / 6 = 2
                                "melee.black.1": sixes(8)}, dice=ROLL)
    red = run.ctx.facts["attacks"][0]
    assert red["groups"] == [[4, 3], [3, tables.PANICKED_MELEE_POWER]]
    assert red["hits"] == 6
    assert "Panicked" in run.step("melee.red.2").purpose
    assert run.ctx.facts["attacks"][1]["defenders"] == [[5, tables.TYPES["big-beasts"].save]]


def test_panicked_figures_of_every_type_pool_into_one_power_6_group_cl_s2() -> None:
    """App ruling: the CL §2 "Panicked figures" row is one more type, so a side's
    panicked figures of all types total their pips together at power 6."""
    s = state_of([unit("Shaken", "infantry", 3), unit("Cowed", "big-beasts", 2)],
                 [unit("Mob", "infantry", 8)], step="melee")
    s.unit("red.0").panicked = s.unit("red.1").panicked = True
    engage(s, "red.0", "black.0")
    engage(s, "red.1", "black.0")
    run = drive(s, fighting(), {"melee.red.1": "4 4 4 4 4"}, dice=ROLL)  # 20 / 6 = 3
    red = run.ctx.facts["attacks"][0]
    assert red["groups"] == [[5, tables.PANICKED_MELEE_POWER]] and red["hits"] == 3
    assert "Panicked figures (Red Shaken and Red Cowed)" in run.step("melee.red.1").purpose


def test_hits_beyond_a_types_figures_are_lost_cl_s6() -> None:
    """App ruling (CL §6): hits are spread evenly over the defending types; failed
    saves beyond a type's figures kill nobody, and do not pass to another type."""
    s = state_of([unit("Brutes", "monsters", 2)],
                 [unit("Rifles", "infantry", 5), unit("Lone Hound", "beasts", 1)],
                 step="melee")
    engage(s, "red.0", "black.0")
    engage(s, "red.0", "black.1")
    run = drive(s, fighting(), {"melee.red.1": "1 1 1 1",  # 4 / power 1 = 4 hits: 2 and 2
                                "save.black.infantry": "6 6",
                                "save.black.beasts": "1 1"}, dice=ROLL)
    assert run.state.unit("black.1").figures_left == 0
    assert run.state.unit("black.0").figures_left == 5
    assert run.state.killed["red"] == 1


def test_a_lone_figure_fights_panicked_cl_s4_s2() -> None:
    s = duel("heavy-infantry", 1, "infantry", 2)
    run = drive(s, fighting(), dice=ROLL)
    assert run.ctx.facts["attacks"][0]["groups"] == [[1, 6]]


# --- saves and casualties ----------------------------------------------------------


def test_casualties_come_off_after_both_sides_have_saved_cl_s6() -> None:
    boss = Figure("Chief", ("basic",), general=True)
    s = state_of([unit("Pair", "infantry", 2)],
                 [unit("Warband", "infantry", 3, extra=(boss,))], step="melee")
    engage(s, "red.0", "black.0")
    run = drive(s, fighting(), {
        "melee.red.1": "6 6",            # 2 hits
        "melee.black.1": "6 6 6 6",      # 4 hits on 2 figures
        "save.black.infantry": "1 1",
        "save.red.infantry": "1 1 1 6",
        "casualty.black.infantry.1": "black.0.3",  # Black kills its general first
    }, dice=ROLL)
    keys = run.asked
    assert keys.index("save.red.infantry") < keys.index("casualty.black.infantry.1")
    q = run.step("casualty.black.infantry.1")
    assert q.side == "black" and len(q.choices) == 2
    # both red figures struck before dying; the saves failing beyond the figures
    # kill no more than there are
    assert run.state.unit("red.0").figures_left == 0
    assert run.state.unit("black.0").figures_left == 2
    assert not run.state.unit("black.0").figures[3].alive
    assert run.state.killed == {"red": 2, "black": 2}
    saves_at = max(n.after for n in run.ctx.notes if "saves" in n.text)
    assert all(n.after >= saves_at for n in run.ctx.notes if " loses " in n.text)


def test_default_casualty_is_never_the_general_cl_s1_s5() -> None:
    """CL §5: the owner picks the casualty; the default (what Enter answers) is never
    the general (CL §1, Assassinate in CL §8) while another figure is left, even when
    the general is listed first."""
    boss = Figure("Chief", ("basic",), general=True)
    s = state_of([unit("Pair", "infantry", 2)],
                 [Unit("Warband", "infantry", (boss, *figures(3, "Trooper", "basic")))],
                 step="melee")
    engage(s, "red.0", "black.0")
    run = drive(s, fighting(), {
        "melee.red.1": "6 6",            # 2 hits
        "melee.black.1": "6 6 6 6",
        "save.black.infantry": "1 1",
        "save.red.infantry": "1 1 1 6",
    }, dice=ROLL)
    q = run.step("casualty.black.infantry.1")
    assert q.choices[0].value == "black.0.0" and q.default == "black.0.1"
    warband = run.state.unit("black.0")
    assert warband.figures[0].alive and warband.figures_left == 2


def test_within_one_type_the_owner_picks_the_unit_cl_s6() -> None:
    s = state_of([unit("Brutes", "monsters", 1)],
                 [unit("Left", "infantry", 3), unit("Right", "infantry", 3)], step="melee")
    engage(s, "red.0", "black.0")
    engage(s, "red.0", "black.1")
    run = drive(s, fighting(), {
        "melee.red.1": "1 1",  # 2 hits
        "melee.black.1": ones(6),  # 1 hit
        "save.black.infantry": "1 1", "save.red.monsters": "6",
        "casualty.black.infantry.1.unit": "black.1",
        "casualty.black.infantry.2.unit": "black.1",
        "end.1.red": "6", "end.1.black": "1"})
    q = run.step("casualty.black.infantry.1.unit")
    assert q.side == "black" and {c.value for c in q.choices} == {"black.0", "black.1"}
    assert run.state.unit("black.0").figures_left == 3
    assert run.state.unit("black.1").figures_left == 1


def test_counts_of_successes_for_saves_faces_for_pips_cl_s6() -> None:
    s = duel()
    res = Resolution(s, fighting())
    with pytest.raises(Refused, match="faces"):
        res.answer("2s")
    with pytest.raises(Refused):
        res.answer(Dice(successes=2))
    res.answer("6 6 6 6")  # 4 hits
    res.answer(ones(6))
    assert res.step.key == "save.black.infantry"
    res.answer(Dice(successes=1))
    assert res.ctx.facts["attacks"][0]["stage"] == "done"
    res.answer("=0")  # Red saves nothing of its 1 hit
    while not res.done:
        res.answer(ROLL)
    assert res.ctx.state.unit("black.0").figures_left == 3
    assert res.ctx.state.unit("red.0").figures_left == 3


# --- the end of the melee ----------------------------------------------------------


def test_end_roll_counts_figures_left_and_kills_loser_retreats_panicked_cl_s6() -> None:
    s = duel("infantry", 4, "infantry", 6, turn=4)
    run = drive(s, fighting(), {
        "melee.red.1": "6 6 6 6",        # 4 hits
        "melee.black.1": "6 1 1 1 1 1",  # 11 / 6 = 1 hit
        "save.black.infantry": "1 1 6 6",
        "save.red.infantry": "1",
        "end.1.red": "2",    # (3 left + 2 killed) x 2 = 10
        "end.1.black": "2",  # (4 left + 1 killed) x 2 = 10: equal, again (CL-R4)
        "end.2.red": "1",    # 5
        "end.2.black": "2",  # 10
    })
    assert "3 figures left + 2 enemy killed = 5" in run.step("end.1.red").why
    assert "4 figures left + 1 enemy killed = 5" in run.step("end.1.black").why
    assert run.step("end.1.red").target is None and run.step("end.1.black").side == "black"
    assert "roll again (CL-R4)" in run.text
    red, black = run.state.unit("red.0"), run.state.unit("black.0")
    assert red.panicked and red.panicked_turn == 4
    assert not black.panicked
    assert "retreats a full move (9\")" in run.text and "south" in run.text
    assert red.engaged == [] and black.engaged == []


def test_the_winner_is_not_panicked_the_loser_is_cl_s6() -> None:
    s = duel()
    run = drive(s, fighting(), {"melee.red.1": ones(4), "melee.black.1": ones(6),
                                "save.red.infantry": "6", "end.1.red": "6",
                                "end.1.black": "1"})
    assert not run.state.unit("red.0").panicked
    assert run.state.unit("black.0").panicked
    assert run.state.unit("black.0").panicked_turn == s.turn


def test_losing_a_melee_when_already_panicked_keeps_the_panic_turn_cl_s7() -> None:
    """CL §7: a unit panicked in an earlier turn that loses a melee did not "become
    panicked this turn": it keeps its turn and tests in this morale phase."""
    s = duel(turn=5)
    s.unit("black.0").panicked, s.unit("black.0").panicked_turn = True, 4
    run = drive(s, fighting(), {"melee.red.1": ones(4), "melee.black.1": ones(6),
                                "save.red.infantry": "6", "end.1.red": "6",
                                "end.1.black": "1"})
    black = run.state.unit("black.0")
    assert "Black Black Band loses the melee" in run.text
    assert black.panicked and black.panicked_turn == 4


def test_every_unit_of_a_chained_melee_fights_and_disengages_cl_s6() -> None:
    s = state_of([unit("A", n=3), unit("B", "beasts", 3), unit("Far", n=3)],
                 [unit("X", n=4), unit("Other", n=2)], step="melee")
    engage(s, "red.0", "black.0")
    engage(s, "red.1", "black.0")
    engage(s, "red.2", "black.1")  # another melee: untouched
    run = drive(s, fighting("black.0"), dice=ROLL)
    red = run.ctx.facts["attacks"][0 if s.impetus == "red" else 1]
    assert red["groups"] == [[3, 6], [3, 4]]
    assert all(not run.state.unit(u).engaged for u in ("red.0", "red.1", "black.0"))
    assert run.state.unit("red.2").engaged == ["black.1"]
    assert run.state.unit("black.1").engaged == ["red.2"]


def test_a_wiped_out_side_has_no_end_roll_cl_s6() -> None:
    s = duel("infantry", 2, "monsters", 1)
    run = drive(s, fighting(), {"melee.red.1": "1 1", "melee.black.1": "2 1",
                                "save.red.infantry": "1 1 1"})
    assert run.state.unit("red.0").figures_left == 0
    assert not [k for k in run.asked if k.startswith("end.")]
    assert "no end-of-melee roll" in run.text
    assert not run.state.unit("black.0").engaged and not run.state.unit("black.0").panicked
    assert run.state.killed["black"] == 2


# --- the odds facts ----------------------------------------------------------------


def test_melee_facts_follow_the_contract_cl_s6() -> None:
    s = duel("heavy-infantry", 3, "infantry", 5, impetus="black")
    res = Resolution(s, fighting())
    attacks = res.ctx.facts["attacks"]
    assert [a["target"] for a in attacks] == ["red.0", "black.0"]  # impetus side first
    black, red = attacks
    assert res.ctx.facts["attack"] is black and black["stage"] == "declared"
    assert black == {"kind": "melee", "target": "red.0", "weapon": "melee",
                     "groups": [[5, 6]], "defenders": [[3, 4]], "stage": "declared"}
    assert red["groups"] == [[3, 5]] and red["defenders"] == [[5, 6]]
    res.answer(sixes(5))  # 5 hits
    assert res.ctx.facts["attack"] is red
    res.answer("5 5 5")  # 3 hits
    assert (black["stage"], black["hits"], red["stage"], red["hits"]) == \
        ("saves", 5, "saves", 3)
    assert res.ctx.facts["attack"] is black and res.step.key == "save.red.heavy-infantry"
    res.answer(ROLL)
    assert black["stage"] == "done" and res.ctx.facts["attack"] is red
    assert len(attacks) == 2


def test_generated_dice_throughout_a_melee_cl_s6() -> None:
    s = state_of([unit("Rifles", n=6), unit("Pack", "beasts", 4, extra=figures(1, "Alpha"))],
                 [unit("Tank", "vehicles", 1), unit("Mob", n=8)], step="melee")
    engage(s, "red.0", "black.1")
    engage(s, "red.1", "black.1")
    engage(s, "red.1", "black.0")
    run = roll_all(s, fighting())
    assert all(isinstance(d, DiceRequest) for d in run.dice())
    assert all(a.generated for a in run.res.answers if isinstance(a, Dice))
    assert not any(u.engaged for u in run.state.all_units())
    again = Resolution(s, fighting())
    again.replay(run.res.answers)
    assert again.done and again.ctx.state == run.state

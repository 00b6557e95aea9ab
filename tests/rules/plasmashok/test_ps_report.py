"""Deathzap Plasmashok in the end-of-game report (issue 14): the harm each attack does
(damage credited when the wounds are dealt, PS §4-§6; the models they remove credited
when the bracket ends, to the unit whose wound finished each model, PS §3), morale
routs that are no harm (PS §7), how every kind of roll is judged for dice luck, and
the golden game's tallies."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from golden_games import play_once
from ps_combat_fixtures import Run, drive, engage, keep, state_of, unit
from test_ps_golden import script

from deathzap_tui.reporttext import outcome_words
from deathzap_tui.rules.dice import D3
from deathzap_tui.rules.luck import RollLuck, judge
from deathzap_tui.rules.plasmashok.casualties import deal_wounds, end_of_bracket
from deathzap_tui.rules.plasmashok.combat import shoot, special
from deathzap_tui.rules.plasmashok.common import melees
from deathzap_tui.rules.plasmashok.melee import end_of_melee, fight
from deathzap_tui.rules.plasmashok.morale import morale_phase
from deathzap_tui.rules.plasmashok.state import State
from deathzap_tui.rules.plasmashok.tables import Melee
from deathzap_tui.rules.report import build_report
from deathzap_tui.rules.steps import (
    D3_VALUE,
    DAMAGE,
    MATCHES,
    SUCCESSES,
    TOTAL,
    Context,
    Dice,
    DiceRequest,
    Harm,
)


def shooting(unit_id: str = "red.0") -> Any:
    return lambda ctx: shoot(ctx, unit_id)


def bracket_end(s: State) -> Run:
    return drive(s, end_of_bracket)


def judged(run: Run, key: str) -> RollLuck | None:
    """The luck of the roll ``key`` as the report judges it, from the step the engine
    asked and the dice it was answered with."""
    keys = [step.key for step in run.res.asked]
    i = keys.index(key)
    step, dice = run.res.asked[i], run.res.answers[i]
    assert isinstance(step, DiceRequest) and isinstance(dice, Dice)
    return judge(step, dice, 1)


def rifles_at_targets() -> Run:
    """Red Squad's three rifles at five Black Targets in the open, 1" away (PS §5):
    attack 1 2 3, defence 1 2 blocks two, the 3 becomes strength dice 4 5, the 4
    matched by the size dice: 1 damage, the save (5+) failed."""
    s = state_of([unit("Squad", "infantry", 3, "basic-rifle")], [unit("Targets")])
    return drive(s, shooting(), {"distance.black.0": 1, "attack.1.1": "1 2 3",
                                 "defence.1": "1 2", "strength.1.1": "4 5",
                                 "size.1": "4 6 6 6 6", "saves.1": "1"})


# --- harm: shooting, melee, special combat (PS §4-§6) ----------------------------------


def test_ps_s5_shooting_damage_is_credited_when_dealt_kills_when_the_bracket_ends() -> None:
    """PS §5 steps 4-5 and PS §3: the points of damage, saved by the shields or not,
    are the shooter's damage at once (issue 26: what the rules call damage); the
    models its wounds remove at the end of the bracket are its kills."""
    s = state_of([unit("Squad", "infantry", 3, "basic-rifle")], [unit("Targets")])
    run = drive(s, shooting(), {"distance.black.0": 1, "attack.1.1": "1 1 1",
                                "defence.1": "6 6", "strength.1.1": "2 2 2 2 2 2",
                                "size.1": "2 2 2 2 2", "saves.1": "1 1 1 1 6 6"})
    assert run.ctx.harms == [Harm("black.0", "red.0", damage=6)]  # 2 of 6 saved
    assert "4 wounds pending" in run.text
    after = bracket_end(run.state)
    assert after.ctx.harms == [Harm("black.0", "red.0", kills=4)]
    assert "Black Targets loses 4 models (4 wounds)" in after.text


def test_ps_s3_the_wound_that_finishes_a_model_earns_the_kill() -> None:
    """PS §3, app reading 1: two units of a bracket wound one pair of light vehicles (6
    wounds each); the first model dies on the sixth wound, dealt by the second shooter,
    which gets the kill; the first shooter's four wounds killed nothing."""
    s = state_of([unit("Alpha", "infantry", 4, "basic-rifle"),
                  unit("Beta", "infantry", 3, "basic-rifle")],
                 [unit("Skiffs", "light-vehicles", 2)])
    first = drive(s, shooting("red.0"), {
        "distance.black.0": 1, "attack.1.1": "1 1 1 1", "defence.1": "6 6 6",
        "strength.1.1": "2 2 2 2 2 2 2 2", "size.1": "2 2 2 2 2 2",
        "saves.1": "1 1 1 1 6 6 6 6"})
    second = drive(first.state, shooting("red.1"), {
        "distance.black.0": 1, "attack.1.1": "1 1 1", "defence.1": "6 6 6",
        "strength.1.1": "2 2 2 2 2 2", "size.1": "2 2 2 2 2 2", "saves.1": "1 1 1 6 6 6"})
    assert first.ctx.harms == [Harm("black.0", "red.0", damage=8)]
    assert second.ctx.harms == [Harm("black.0", "red.1", damage=6)]
    skiffs = second.state.unit("black.0")
    assert (skiffs.pending, skiffs.pending_by) == (7, ["red.0"] * 4 + ["red.1"] * 3)
    after = bracket_end(second.state)
    assert after.ctx.harms == [Harm("black.0", "red.1", kills=1)]
    assert after.state.unit("black.0").pending_by == []
    assert "a Light Vehicle model has 1 of 6 wounds" in after.text


def test_ps_s3_kills_are_shared_by_the_units_whose_wounds_removed_the_models() -> None:
    """PS §3: one-wound models, two attackers in one bracket, each credited with the
    models its own wounds removed."""
    s = state_of([unit("Alpha"), unit("Beta")], [unit("Targets")])
    ctx = Context(s)
    deal_wounds(ctx, s.unit("black.0"), s.unit("red.0"), 2)
    deal_wounds(ctx, s.unit("black.0"), s.unit("red.1"), 1)
    assert ctx.harms == [Harm("black.0", "red.0", damage=2), Harm("black.0", "red.1", damage=1)]
    assert bracket_end(s).ctx.harms == [Harm("black.0", "red.0", kills=2),
                                        Harm("black.0", "red.1", kills=1)]


def test_ps_s3_pending_wounds_with_no_recorded_attacker_are_nobodys_kills() -> None:
    s = state_of([unit("Alpha")], [unit("Targets")])
    s.unit("black.0").pending = 2
    assert bracket_end(s).ctx.harms == [Harm("black.0", None, kills=2)]


def test_ps_s5_a_radius_blast_harms_each_unit_under_it_friends_too() -> None:
    """PS §5 "against each unit", app reading 6: each unit under the blast is its own
    attack; a friendly unit's wounds and models are the shooter's harm too (the report
    counts neither as kills nor as damage dealt: same side)."""
    s = state_of([unit("Blaster", "infantry", 1, "radius-weapon"),
                  unit("Friends", "infantry", 3)], [unit("Targets")])
    run = drive(s, shooting(), {
        "distance.black.0": 1, "radius.radius-weapon.black.0": 2,
        "blast.radius-weapon.1": "red.1", "distance.red.1": 1,
        "radius.radius-weapon.red.1": 1,
        "attack.1.1": "1 2", "defence.1": "6 6", "strength.1.1": "1 1 3 3 3 3",
        "size.1": "1 2 2 2 2", "saves.1": "1 1 1 6",
        "attack.2.1": "4", "defence.2": "6 6", "strength.2.1": "5 5 5", "size.2": "5 1 1",
        "saves.2": "1 1 1 1 1 1"})
    assert run.ctx.harms == [Harm("black.0", "red.0", damage=4),
                             Harm("red.1", "red.0", damage=6)]
    assert bracket_end(run.state).ctx.harms == [Harm("red.1", "red.0", kills=3),
                                                Harm("black.0", "red.0", kills=3)]


def test_ps_s6_melee_harm_is_the_attackers() -> None:
    """PS §6 resolved like shooting: five wounds from Red Band's melee, five models
    removed at the end of the bracket, all Red Band's."""
    s = state_of([unit("Band", "infantry", 4, melee=Melee(2, 3, 2))], [unit("Band")],
                 step="melee")
    engage(s, "red.0", "black.0")
    run = drive(s, lambda ctx: fight(ctx, "red.0"), {
        "melee.attack.1": "1 2 3 4 5 6 6 6", "melee.defence": "6 1 1",
        "melee.strength.1": "3 3 3 1 1 1 1 1 1 1 1 1", "melee.size": "3 3 3 3 3",
        "melee.saves": "1 1 1 1 1 6"})
    assert run.ctx.harms == [Harm("black.0", "red.0", damage=6)]
    assert bracket_end(run.state).ctx.harms == [Harm("black.0", "red.0", kills=5)]


def test_ps_s4_special_combat_wounds_are_the_attackers_harm() -> None:
    """PS §4: the attack die 1 is shown by no defence die: one wound, no save."""
    s = state_of([unit("Seers", "infantry", 3, special=2)], [unit("Targets", special=1)],
                 step="special")
    run = drive(s, lambda ctx: special(ctx, "red.0"),
                {"special.attack": "1 2", "special.defence": "2 3 4"})
    assert run.ctx.harms == [Harm("black.0", "red.0", damage=1)]
    assert bracket_end(run.state).ctx.harms == [Harm("black.0", "red.0", kills=1)]


def test_ps_s7_a_morale_rout_is_no_harm() -> None:
    """PS §7: 1 x 3 left against 2 x 2 lost: the D3 die 3 routs two more models, which
    the unit loses without anybody harming it."""
    s = state_of([unit("Alpha")], [unit("Targets")], step="morale")
    alpha = s.unit("red.0")
    alpha.figures[0].alive = alpha.figures[1].alive = False
    alpha.lost_turn = 2
    run = drive(s, morale_phase, {"morale.red.0.left": "1", "morale.red.0.lost": "2",
                                  "morale.red.0.rout": "3"})
    assert run.state.unit("red.0").figures_left == 1
    assert run.ctx.harms == []


# --- dice luck: how each roll is judged ------------------------------------------------


@pytest.mark.parametrize("key", ["attack.1.1", "strength.1.1"])
def test_ps_s5_attack_and_strength_dice_are_not_judged(key: str) -> None:
    """PS §5 steps 1 and 3: rolled before the dice that block or match them, no face
    is better than another for the shooter."""
    assert judged(rifles_at_targets(), key) is None


def test_ps_s5_step_2_defence_dice_are_judged_by_the_attack_dice_they_block() -> None:
    """Defence 1 2 against attack 1 2 3 blocks two; two fair dice block two only when
    they show two different faces of 1 2 3: 6 of 36."""
    luck = judged(rifles_at_targets(), "defence.1")
    assert luck is not None
    assert (luck.side, luck.measure, luck.more, luck.outcome) == ("black", MATCHES, True, 2)
    assert luck.p_at_least == pytest.approx(6 / 36)


def test_ps_s5_step_4_size_dice_are_judged_by_the_damage_they_let_through() -> None:
    """Size dice 4 6 6 6 6 against strength dice 4 5 let one through (damage 1); the
    target does at least as well unless five fair dice show both a 4 and a 5:
    2 (5/6)^5 - (4/6)^5."""
    luck = judged(rifles_at_targets(), "size.1")
    assert luck is not None
    assert (luck.side, luck.measure, luck.more, luck.outcome) == ("black", DAMAGE, False, 1)
    assert luck.p_at_least == pytest.approx((2 * 5 ** 5 - 4 ** 5) / 6 ** 5)
    assert outcome_words(luck) == "1 damage let through"  # not "1 match"


def test_ps_s5_step_4_the_size_measure_is_the_damage_of_each_group() -> None:
    """Two weapon groups of damage 1 and 2 (PS §5 table): the size roll's measure is
    the damage it let through, as narrated: the rifle's 3 and 4 (1 each) and the
    advanced rifle's 3 (2)."""
    s = state_of([unit("Squad", "infantry", 1, "basic-rifle", "advanced-rifle")],
                 [unit("Targets")])
    run = drive(s, shooting(), {"distance.black.0": 1, "attack.1.1": "1",
                                "attack.1.2": "2", "defence.1": "6 6",
                                "strength.1.1": "3 4", "strength.1.2": "3 5",
                                "size.1": "3 3 4 6 6", "saves.1": "6 6 6 6"})
    luck = judged(run, "size.1")
    assert luck is not None and luck.outcome == run.ctx.facts["attack"]["damage"] == 4


def test_ps_s5_step_5_shield_saves_more_successes_are_better_for_the_target() -> None:
    """Three saves at 4+ (light vehicles) all made: 1/8."""
    s = state_of([unit("Squad", "infantry", 3, "basic-rifle")],
                 [unit("Skiffs", "light-vehicles", 1)])
    run = drive(s, shooting(), {"distance.black.0": 1, "attack.1.1": "1 1 1",
                                "defence.1": "6 6 6", "strength.1.1": "2 2 2 3 3 3",
                                "size.1": "2 5 5", "saves.1": "4 5 6"})
    luck = judged(run, "saves.1")
    assert luck is not None
    assert (luck.side, luck.measure, luck.more, luck.outcome) == ("black", SUCCESSES, True, 3)
    assert luck.p_at_least == pytest.approx(1 / 8)


def test_ps_s4_special_defence_judged_by_the_attack_dice_it_matches() -> None:
    """PS §4: defence 2 3 4 matches the attack die 2 of 1 2; three fair dice match at
    least one unless none shows a 1 or a 2: 1 - (4/6)^3. The attack dice are not
    judged."""
    s = state_of([unit("Seers", "infantry", 3, special=2)], [unit("Targets", special=1)],
                 step="special")
    run = drive(s, lambda ctx: special(ctx, "red.0"),
                {"special.attack": "1 2", "special.defence": "2 3 4"})
    luck = judged(run, "special.defence")
    assert luck is not None
    assert (luck.side, luck.measure, luck.more, luck.outcome) == ("black", MATCHES, True, 1)
    assert luck.p_at_least == pytest.approx(1 - (4 / 6) ** 3)
    assert judged(run, "special.attack") is None


def test_ps_s6_end_of_melee_dice_are_better_high_for_each_side() -> None:
    """PS §6: the lower product retreats; a 5 or better: 2/6, a 2 or better: 5/6."""
    s = state_of([unit("Band")], [unit("Band")], step="melee")
    engage(s, "red.0", "black.0")
    run = drive(s, keep(lambda ctx: end_of_melee(ctx, melees(ctx.state)[0])),
                {"end.1.red": "5", "end.1.black": "2"})
    red, black = judged(run, "end.1.red"), judged(run, "end.1.black")
    assert red is not None and black is not None
    assert (red.side, red.measure, red.more) == ("red", TOTAL, True)
    assert (red.p_at_least, black.p_at_least) == (pytest.approx(2 / 6), pytest.approx(5 / 6))


def test_ps_s7_morale_left_die_high_casualty_and_rout_dice_low() -> None:
    """PS §7 for the testing unit: the models-left die better high (1: every face does
    as well), the casualties die better low (2: 2/6 do as well), the D3 die better low
    by its D3 value (a 3 is a D3 of 2: the faces 1-4 do as well, 4/6)."""
    s = state_of([unit("Alpha")], [unit("Targets")], step="morale")
    alpha = s.unit("red.0")
    alpha.figures[0].alive = alpha.figures[1].alive = False
    alpha.lost_turn = 2
    run = drive(s, morale_phase, {"morale.red.0.left": "1", "morale.red.0.lost": "2",
                                  "morale.red.0.rout": "3"})
    rolls = [judged(run, f"morale.red.0.{k}") for k in ("left", "lost", "rout")]
    assert [(r.side, r.measure, r.more) for r in rolls if r] == [
        ("red", TOTAL, True), ("red", TOTAL, False), ("red", D3_VALUE, False)]
    assert [r.p_at_least for r in rolls if r] == pytest.approx([1, 2 / 6, 4 / 6])


@pytest.mark.parametrize("face", range(1, 7))
def test_ps_s7_the_rout_die_is_judged_as_the_d3_it_gives(face: int) -> None:
    """PS §7 (seed deathzap-plasmashok.txt, morale phase: "If the result for casualties
    is higher a further D3 models rout"): the rout die is one D6 read as a D3
    (1-2 is 1, 3-4 is 2, 5-6 is 3), so it is judged by that D3, fewer routing being
    better: a 1 and a 2 both rout one model, 1 chance in 3 to do as well, never 1 in
    6; a 6 is certain to be matched."""
    s = state_of([unit("Alpha")], [unit("Targets")], step="morale")
    alpha = s.unit("red.0")
    alpha.figures[0].alive = alpha.figures[1].alive = False
    alpha.lost_turn = 2
    run = drive(s, morale_phase, {"morale.red.0.left": "1", "morale.red.0.lost": "6",
                                  "morale.red.0.rout": str(face)})
    luck = judged(run, "morale.red.0.rout")
    assert luck is not None and luck.outcome == D3[face]
    assert luck.p_at_least == pytest.approx(D3[face] / 3)
    assert luck.p_at_most == pytest.approx(1 - (D3[face] - 1) / 3)
    assert outcome_words(luck) == f"a D3 of {D3[face]}"


# --- the golden game --------------------------------------------------------------------


def _routed(game: Any) -> Counter[str]:
    """Models each unit lost in the morale phases (PS §7): the deaths of the ``next``
    events played from the morale phase."""
    routed: Counter[str] = Counter()
    step, dead = "", Counter[str]()
    for _, res in game.replay(game.events()):
        state = res.ctx.state
        now = Counter({u.id: len(u.figures) - u.figures_left for u in state.all_units()})
        if step == "morale":
            routed.update(now - dead)
        step, dead = state.step, now
    return routed


def test_ps_golden_game_report_tallies_match_the_final_state() -> None:
    """Every model removed is a unit's loss in the report, routed ones (PS §7)
    included (issue 22); only those removed by wounds are some enemy's kill; both
    sides' dice were judged."""
    game = play_once(script).played.game
    report = build_report(game)
    state = game.state
    routed = _routed(game)
    assert sum(routed.values()) > 0, "the golden game has routs to tell apart"
    for tally in report.units:
        unit_ = state.unit(tally.id)
        dead = len(unit_.figures) - unit_.figures_left
        assert tally.figures_lost == dead, tally
    for side, other in (("red", "black"), ("black", "red")):
        kills = sum(u.kills for u in report.units if u.side == side)
        lost = sum(u.figures_lost - routed[u.id] for u in report.units if u.side == other)
        dealt = sum(u.damage_dealt for u in report.units if u.side == side)
        taken = sum(u.damage_taken for u in report.units if u.side == other)
        assert kills == lost > 0 and dealt == taken > 0
        assert report.luck[side].rolls > 0

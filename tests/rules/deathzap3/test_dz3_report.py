"""The end-of-game report's bookkeeping for Deathzap 3 (issue 14): the harm each
resolution records (who damaged and killed whom) and how each roll's luck is judged.

Harm, as :func:`deathzap3.combat.take_damage` reads it: ``damage`` is what the rules
call damage, every point (DZ3 §6: each strips a shield or forces a save; stripped
shields count, issue 26), ``kills`` the figures removed (a vehicle the table kills
or blows up counts its one model, DZ3 §9). An explosion's harm is nobody's (``by``
None) and a unit that flees loses no figure to harm (DZ3 §10).
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from dz3_fixtures import battle
from fixtures_common import resolve, rolled
from golden_games import play_once
from test_dz3_golden import script

from deathzap_tui.rules.deathzap3.state import UnitState
from deathzap_tui.rules.game import Game
from deathzap_tui.rules.luck import judge
from deathzap_tui.rules.report import build_report
from deathzap_tui.rules.ruleset import other_side
from deathzap_tui.rules.steps import (
    SUCCESSES,
    TOTAL,
    Harm,
)

ALPHA_ADVANCE = {"type": "activate", "unit": "red.0", "action": "advance"}
ALPHA_CHARGE = {"type": "activate", "unit": "red.0", "action": "charge"}
BRAVO_ADVANCE = {"type": "activate", "unit": "red.1", "action": "advance"}
BRAVO_COVER_GROUND = {"type": "activate", "unit": "red.1", "action": "cover-ground"}

BRAVO_AT_PICKETS = {
    "shoot.target": "black.1", "shoot.range.black.1": "yes", "shoot.cover.black.1": "open",
    "shoot.order.1": "0",
    "shoot.1.hit": "4444", "shoot.1.shields": "4444",      # 4 damage: the 4 shields
    "shoot.2.hit": "444444", "shoot.2.shields": "444111",  # 3 damage: 3 saves
    "shoot.2.saves": "611", "shoot.2.morale.1": "66"}      # 2 failed: 2 casualties
"""Bravo (Basic: 4 Small Arms, Grenades) at the Pickets (4 Light shields, save 6+)."""

DESTROYER_AT_WALKER = {
    "shoot.target": "black.2", "shoot.profile.destroyer.black.2": "0", "shoot.order.1": "1",
    "shoot.1.hit": "6", "shoot.1.shields": "6", "shoot.1.saves": "1"}
"""Alpha's Destroyer (Strike) first at the Walker: one failed save, one damage roll."""

WALKER_EXPLODES = {
    **DESTROYER_AT_WALKER, "shoot.1.damage.1": "6",
    "shoot.1.x1.near.1": "black.1", "shoot.1.x1.near.2": "red.1", "shoot.1.x1.near.3": "done",
    # Pickets (own unit): 5 damage, 4 shields, 1 failed save; morale fails, they flee
    "shoot.1.x1.blast.1": "5", "shoot.1.x1.blast.1.saves": "1",
    "shoot.1.x1.blast.1.morale.1": "=0",
    # Bravo (the enemy): 4 damage, 2 shields, 2 failed saves; morale passes
    "shoot.1.x1.blast.2": "4", "shoot.1.x1.blast.2.saves": "11",
    "shoot.1.x1.blast.2.morale.1": "611"}


def tallies(game: Game) -> dict[str, tuple[int, int, int, int]]:
    """unit id -> (kills, damage dealt, damage taken, figures lost) from the report."""
    return {u.id: (u.kills, u.damage_dealt, u.damage_taken, u.figures_lost)
            for u in build_report(game).units}


# --- harm -------------------------------------------------------------------------


def test_shooting_harm_is_every_point_of_damage_shields_too_dz3_s6_issue_26() -> None:
    """Points the shields absorb are damage too (DZ3 §6, DZ3-R6): the first attack
    strips all 4 shields, the second forces 3 saves (2 fail)."""
    g = battle()
    res = resolve(g, BRAVO_ADVANCE, BRAVO_AT_PICKETS)
    assert res.ctx.harms == [Harm("black.1", "red.1", damage=4),
                             Harm("black.1", "red.1", damage=3, kills=2)]
    assert g.state.unit("black.1").figures_left == 2


def test_melee_harm_is_credited_to_the_attacker_dz3_s7() -> None:
    g = battle()
    # 6 hits: 4 shields gone, 2 saves on 6+, one fails; morale passes
    res = resolve(g, ALPHA_CHARGE, {"melee.target": "black.1", "melee.hit": "=6",
                                    "melee.saves": "16", "melee.morale.1": "=1"})
    assert res.ctx.harms == [Harm("black.1", "red.0", damage=6, kills=1)]


def test_an_attack_that_kills_nobody_records_no_harm_dz3_s6() -> None:
    g = battle()
    res = resolve(g, ALPHA_CHARGE, {"melee.target": "black.0", "melee.hit": "1111111"})
    assert res.ctx.harms == []


@pytest.mark.parametrize(("face", "kills"), [("2", 0), ("3", 0), ("5", 1)])
def test_vehicle_failed_save_is_damage_and_killed_vehicle_a_kill_dz3_s9_r9(
        face: str, kills: int) -> None:
    """DZ3-R9: the failed save is a point of vehicle damage whatever the table says;
    "Killed — remove it" removes the vehicle's one model (DZ3 §9)."""
    g = battle(walker=True)
    answers = {**DESTROYER_AT_WALKER, "shoot.1.damage.1": face}
    if not kills:
        answers["shoot.2.hit"] = "111111"  # the Small Arms then miss
    res = resolve(g, ALPHA_ADVANCE, answers)
    assert res.ctx.harms == [Harm("black.2", "red.0", damage=1, kills=kills)]
    assert g.state.unit("black.2").destroyed == bool(kills)


def test_explosion_harm_is_nobodys_and_fleeing_is_not_harm_dz3_s9_s10() -> None:
    """The wrecked Walker's explosion hurts its own Pickets and the enemy's Bravo with
    ``by`` None; the shooter is credited with the Walker only; the Pickets' flight
    is no harm (DZ3 §10), but every figure of a unit that fled is lost (issue 22)."""
    g = battle(walker=True)
    res = resolve(g, ALPHA_ADVANCE, WALKER_EXPLODES)
    assert sorted(res.ctx.harms, key=lambda h: h.to) == [
        Harm("black.1", None, damage=5, kills=1),
        Harm("black.2", "red.0", damage=1, kills=1),
        Harm("red.1", None, damage=4, kills=2)]
    assert g.state.unit("black.1").fled
    t = tallies(g)
    assert t["red.0"] == (1, 1, 0, 0)
    pickets = g.state.unit("black.1")
    assert pickets.figures_left == 3
    assert t["black.1"] == (0, 0, 5, len(pickets.figures))
    assert t["black.2"] == (0, 0, 1, 1)
    assert t["red.1"] == (0, 0, 4, 2)


def test_report_credits_each_unit_its_own_kills_dz3_s6_s7() -> None:
    g = battle()
    resolve(g, BRAVO_ADVANCE, BRAVO_AT_PICKETS)
    resolve(g, ALPHA_CHARGE, {"melee.target": "black.1", "melee.hit": "=1",
                              "melee.saves": "1", "melee.morale.1": "6"})
    t = tallies(g)
    assert t["red.1"] == (2, 4 + 3, 0, 0)  # the shields' 4 points are damage dealt
    assert t["red.0"] == (1, 1, 0, 0)
    assert t["black.1"] == (0, 0, 4 + 3 + 1, 3)
    assert g.state.unit("black.1").figures_left == 1


# --- luck -------------------------------------------------------------------------


def test_to_hit_and_against_shields_are_the_shooters_successes_dz3_s6() -> None:
    g = battle()
    res = resolve(g, BRAVO_ADVANCE, BRAVO_AT_PICKETS)
    for key in ("shoot.1.hit", "shoot.1.shields"):
        luck = judge(*rolled(res, key), 1)
        assert luck is not None
        assert (luck.side, luck.measure, luck.more, luck.outcome) == ("red", SUCCESSES,
                                                                      True, 4)
        # 4 dice at 4+ (Basic in the open; Light vs Light shields), all succeed: 1/16
        assert luck.p_at_least == pytest.approx(1 / 16)


def test_saves_and_morale_are_the_targets_successes_dz3_s6_s10() -> None:
    g = battle()
    res = resolve(g, BRAVO_ADVANCE, BRAVO_AT_PICKETS)
    saves = judge(*rolled(res, "shoot.2.saves"), 1)
    assert saves is not None
    assert (saves.side, saves.measure, saves.more, saves.outcome) == ("black", SUCCESSES,
                                                                      True, 1)
    # 3 saves at 6+, at least one made: 1 - (5/6)^3 = 91/216
    assert saves.p_at_least == pytest.approx(float(Fraction(91, 216)))
    morale = judge(*rolled(res, "shoot.2.morale.1"), 1)
    assert morale is not None
    assert (morale.side, morale.measure, morale.more, morale.outcome) == ("black", SUCCESSES,
                                                                          True, 2)
    # 2 dice at 6+ (Basic, no leader), both succeed: 1/36
    assert morale.p_at_least == pytest.approx(1 / 36)


def test_cover_ground_a_longer_move_is_luckier_dz3_s3() -> None:
    g = battle()
    res = resolve(g, BRAVO_COVER_GROUND, {"cover-ground": "5"})
    luck = judge(*rolled(res, "cover-ground"), 1)
    assert luck is not None
    assert (luck.side, luck.measure, luck.more, luck.outcome) == ("red", TOTAL, True, 5)
    assert luck.p_at_least == pytest.approx(2 / 6)  # a 5 or a 6


def test_explosion_damage_is_good_for_its_roller_only_against_the_enemy_dz3_s9() -> None:
    """The Walker's owner (black) rolls each D6: more damage to Red's Bravo is better
    for black, more to its own Pickets worse."""
    g = battle(walker=True)
    res = resolve(g, ALPHA_ADVANCE, WALKER_EXPLODES)
    own = judge(*rolled(res, "shoot.1.x1.blast.1"), 1)
    enemy = judge(*rolled(res, "shoot.1.x1.blast.2"), 1)
    assert own is not None and enemy is not None
    assert (own.side, own.measure, own.more, own.outcome) == ("black", TOTAL, False, 5)
    assert own.p_at_least == pytest.approx(5 / 6)  # anything but a 6
    assert (enemy.side, enemy.measure, enemy.more, enemy.outcome) == ("black", TOTAL, True, 4)
    assert enemy.p_at_least == pytest.approx(3 / 6)  # a 4, 5 or 6


def test_vehicle_damage_table_is_not_judged_dz3_s9() -> None:
    """Mixed outcomes (2-4 cripple different things, a 6 also hurts the units near
    it): no face is better for the owner rolling it."""
    g = battle(walker=True)
    res = resolve(g, ALPHA_ADVANCE, WALKER_EXPLODES)
    assert judge(*rolled(res, "shoot.1.damage.1"), 1) is None


# --- the golden game --------------------------------------------------------------


def figures_removed(unit: UnitState) -> int:
    """Figures out of the game (issue 22): the dead ones, and every one left in a
    unit that fled (DZ3 §10: its figures stay alive) or a vehicle the damage table
    destroyed (its one model, DZ3 §9)."""
    return sum(1 for f in unit.figures if not f.alive) + (
        unit.figures_left if unit.fled or unit.destroyed else 0)


def test_golden_game_report_agrees_with_the_final_state() -> None:
    game = play_once(script).played.game
    report = build_report(game)
    state = game.state
    for tally in report.units:
        assert tally.figures_lost == figures_removed(state.unit(tally.id)), tally.id
    harms = [h for _e, res in game.replay(game.events()) for h in res.ctx.harms]
    for side in ("red", "black"):
        kills = sum(u.kills for u in report.units if u.side == side)
        to_enemy = sum(h.kills for h in harms
                       if h.by is not None and h.to.startswith(other_side(side) + "."))
        assert kills == to_enemy
        assert report.luck[side].rolls > 0
    assert sum(u.kills for u in report.units) > 0

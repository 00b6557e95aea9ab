"""The end-of-game report's bookkeeping for Command Hand (issue 14): the harm each
resolution records (who damaged and killed whom) and how each roll's luck is judged.

Harm, as :func:`commandhand.combat.take_damage` reads it: ``damage`` is every point
of damage, what the rules call damage (CH §4: each strips a shield or, with none
left, kills a figure, no save; stripped shields count, issue 26) and ``kills`` the
figures removed; an Explosive weapon's damage is the sum of its D6s.
"""

from __future__ import annotations

from typing import Any

import pytest
from ch_fixtures import draw
from fixtures_common import resolve, rolled
from golden_games import play_once
from test_ch_actions import game, on_table
from test_ch_golden import script

from deathzap_tui.rules.game import Game
from deathzap_tui.rules.luck import judge
from deathzap_tui.rules.report import build_report
from deathzap_tui.rules.ruleset import other_side
from deathzap_tui.rules.steps import SUCCESSES, TOTAL, Harm


def intent(unit: str, action: str, **more: Any) -> dict[str, Any]:
    return {"type": "activate", "unit": unit, "action": action, **more}


def shot(target: str, band: str, dice: str, **more: str) -> dict[str, str]:
    """Answers for a shooting activation at ``target`` in the open."""
    return {"shoot.target": target, "shoot.range": band, "shoot.cover": "open",
            "shoot.1.damage": dice, **more}


def ready() -> Game:
    """Every unit on the table (red: Rifles, Spitters, Lobbers; black: Targets with 2
    shields, Others with none) and Red to activate one."""
    g = on_table()
    draw(g, "2H")
    return g


# --- harm -------------------------------------------------------------------------


def test_shooting_harm_is_every_point_of_damage_ch_s4() -> None:
    g = ready()
    # Rifles: 4 shots at 4+, 3 points; 2 shields take two, the third kills
    res = resolve(g, intent("red.0", "walk-shoot"), shot("black.0", "near", "4 5 6 1"))
    assert res.ctx.harms == [Harm("black.0", "red.0", damage=3, kills=1)]


def test_points_the_shields_absorb_are_damage_ch_s4_issue_26() -> None:
    """"Command Section stripped 4 shields and shows Dealt 0" (issue 26)."""
    g = ready()
    res = resolve(g, intent("red.0", "walk-shoot"), shot("black.0", "near", "4 5 1 1"))
    assert res.ctx.harms == [Harm("black.0", "red.0", damage=2)]
    assert g.state.unit("black.0").shields == 0
    tally = {u.id: u for u in build_report(g).units}
    assert (tally["red.0"].damage_dealt, tally["black.0"].damage_taken) == (2, 2)


def test_melee_harm_is_credited_to_the_attacker_ch_s5() -> None:
    g = ready()
    res = resolve(g, intent("red.0", "charge"),
                  {"melee.target": "black.0", "melee.damage": "4 4 4 1"})
    assert res.ctx.harms == [Harm("black.0", "red.0", damage=3, kills=1)]


def test_aimed_rerolls_kill_for_the_shooter_ch_s3_5() -> None:
    g = ready()
    # Others have no shields: the 4 and the re-rolled 5 each kill a figure
    res = resolve(g, intent("red.0", "aimed"),
                  shot("black.1", "near", "1 1 4 2", **{"shoot.1.reroll": "1 5"}))
    assert res.ctx.harms == [Harm("black.1", "red.0", damage=2, kills=2)]


def test_explosive_damage_beyond_the_last_figure_is_still_damage_ch_s4() -> None:
    """12 points (6 + 6) against 4 unshielded figures: all 12 got through, 4 kills;
    the unit is wiped out and the kills go to the Lobbers."""
    g = ready()
    res = resolve(g, intent("red.2", "walk-shoot"),
                  shot("black.1", "far", "4 6 1 2", **{"shoot.1.explosive": "6 6"}))
    assert res.ctx.harms == [Harm("black.1", "red.2", damage=12, kills=4)]
    assert g.state.unit("black.1").destroyed
    tally = {u.id: u for u in build_report(g).units}
    assert (tally["red.2"].kills, tally["red.2"].damage_dealt) == (4, 12)
    assert (tally["black.1"].figures_lost, tally["black.1"].damage_taken) == (4, 12)
    assert tally["red.0"].kills == 0


# --- luck -------------------------------------------------------------------------


def test_to_damage_is_the_shooters_successes_ch_s4() -> None:
    g = ready()
    res = resolve(g, intent("red.0", "walk-shoot"), shot("black.0", "near", "4 5 6 1"))
    luck = judge(*rolled(res, "shoot.1.damage"), 1)
    assert luck is not None
    assert (luck.side, luck.measure, luck.more, luck.outcome) == ("red", SUCCESSES, True, 3)
    # 4 dice at 4+, at least 3 succeed: (4 + 1) / 16
    assert luck.p_at_least == pytest.approx(5 / 16)


def test_aimed_reroll_is_the_shooters_successes_ch_s3_5() -> None:
    g = ready()
    res = resolve(g, intent("red.0", "aimed"),
                  shot("black.1", "near", "1 1 4 2", **{"shoot.1.reroll": "1 5"}))
    luck = judge(*rolled(res, "shoot.1.reroll"), 1)
    assert luck is not None
    assert (luck.side, luck.measure, luck.more, luck.outcome) == ("red", SUCCESSES, True, 1)
    assert luck.p_at_least == pytest.approx(3 / 4)  # 2 dice at 4+, not both failing


def test_explosive_damage_a_higher_total_is_luckier_ch_s4() -> None:
    g = ready()
    res = resolve(g, intent("red.2", "walk-shoot"),
                  shot("black.0", "far", "4 6 1 2", **{"shoot.1.explosive": "3 2"}))
    luck = judge(*rolled(res, "shoot.1.explosive"), 1)
    assert luck is not None
    assert (luck.side, luck.measure, luck.more, luck.outcome) == ("red", TOTAL, True, 5)
    # 2D6 totalling 5 or more: 1 - P(2, 3 or 4) = 1 - 6/36
    assert luck.p_at_least == pytest.approx(30 / 36)


def test_melee_is_the_attackers_successes_ch_s5() -> None:
    g = ready()
    res = resolve(g, intent("red.0", "charge"),
                  {"melee.target": "black.0", "melee.damage": "4 4 4 1"})
    luck = judge(*rolled(res, "melee.damage"), 1)
    assert luck is not None
    assert (luck.side, luck.measure, luck.more, luck.outcome) == ("red", SUCCESSES, True, 3)


@pytest.mark.parametrize(("answers", "p"), [
    ({"flank": "6", "flank.edge": "west"}, 1 / 2),  # a 4, 5 or 6 does as well
    ({"flank": "2"}, 1.0),                          # every die does at least as well
])
def test_flanking_4_plus_is_good_for_the_flanker_ch_s3(answers: dict[str, str],
                                                       p: float) -> None:
    g = game()
    draw(g, "2H")
    res = resolve(g, intent("red.0", "run", flank=True), answers)
    luck = judge(*rolled(res, "flank"), 1)
    assert luck is not None
    assert (luck.side, luck.measure, luck.more) == ("red", SUCCESSES, True)
    assert luck.p_at_least == pytest.approx(p)


# --- the golden game --------------------------------------------------------------


def test_golden_game_report_agrees_with_the_final_state() -> None:
    """No morale in this edition: every dead figure is a casualty of harm (CH §4)."""
    g = play_once(script).played.game
    report = build_report(g)
    for tally in report.units:
        unit = g.state.unit(tally.id)
        assert tally.figures_lost == sum(1 for f in unit.figures if not f.alive), tally.id
    harms = [h for _e, res in g.replay(g.events()) for h in res.ctx.harms]
    for side in ("red", "black"):
        kills = sum(u.kills for u in report.units if u.side == side)
        to_enemy = sum(h.kills for h in harms
                       if h.by is not None and h.to.startswith(other_side(side) + "."))
        assert kills == to_enemy
        assert report.luck[side].rolls > 0
    assert sum(u.kills for u in report.units) > 0

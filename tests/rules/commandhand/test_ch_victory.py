"""Victory options (CH-R5) and double distances (CH-R1)."""

from __future__ import annotations

from ch_fixtures import activate, draw, force, notes, ready_game, unit

from deathzap_tui.rules.commandhand import RULESET
from deathzap_tui.rules.game import Game


def duel(**kw) -> Game:
    red = force("Red", 0, unit("Rifles", 4, "rifle", shields=0))
    black = force("Black", 0, unit("Lone", 1, "rifle", shields=1),
                  unit("Reserve", 1, "rifle", shields=0))
    return ready_game(red=red, black=black, **kw)


def wipe_black(g: Game) -> None:
    draw(g, "5H")
    activate(g, "red.0", "run")
    draw(g, "KS")
    activate(g, "black.0", "run")
    activate(g, "black.1", "run")
    draw(g, "6H")
    activate(g, "red.0", "walk-shoot", {"shoot.target": "black.0", "shoot.range": "near",
                                        "shoot.cover": "open", "shoot.1.damage": "6 6 1 1"})
    draw(g, "7H")
    activate(g, "red.0", "walk-shoot", {"shoot.target": "black.1", "shoot.range": "near",
                                        "shoot.cover": "open", "shoot.1.damage": "6 1 1 1"})


def test_elimination_is_the_default_ch_r5() -> None:
    g = duel()
    assert g.state.options["victory"] == "elimination"
    wipe_black(g)
    s = g.state
    assert s.over and s.winner == "red" and "no figures left" in s.end_reason
    assert RULESET.intents(s) == [] and RULESET.is_over(s)
    assert RULESET.view(s).result.startswith("Red wins")


def test_objectives_option_scores_dz3_vp_and_plays_on_ch_r5() -> None:
    g = duel(options={"victory": "objectives"})
    assert g.state.phase == "battle" and len(g.state.objectives) == 5
    wipe_black(g)
    s = g.state
    assert not s.over  # the deck decides (as DZ3-R2)
    assert s.vp == {"red": 6, "black": 0}  # 3 VP per unit destroyed (DZ3 §12)
    draw(g, "4H")
    activate(g, "red.0", "aimed", {"objective": "4", "objective.clear": "yes"})
    # objective 4 placed 18" from Red's edge: 3 VP (1 per 6", DZ3 §12)
    assert g.state.vp["red"] == 9
    assert g.state.score[-1].reason == 'objective 4 at 18"'
    # Red's only unit is tokened: the reset (CH §6) clears the objective's token too


def test_objective_needs_no_enemy_near_ch_r5() -> None:
    import pytest

    from deathzap_tui.rules.steps import Refused

    g = duel(options={"victory": "objectives"})
    draw(g, "2H")
    action = g.begin({"type": "activate", "unit": "red.0", "action": "walk-shoot"})
    action.resolution.answer("2")
    with pytest.raises(Refused, match='within 3"'):
        action.resolution.answer("no")


def test_double_distances_double_what_is_shown_and_asked_ch_r1() -> None:
    g = duel(options={"distances": "double"})
    draw(g, "5H")
    activate(g, "red.0", "run")
    assert any('runs up to 16"' in n for n in notes(g))
    assert RULESET.view(g.state).units["red"][0].cells[3] == '16"/8"'
    draw(g, "KS")
    activate(g, "black.0", "run")
    activate(g, "black.1", "run")
    draw(g, "6H")
    action = g.begin({"type": "activate", "unit": "red.0", "action": "walk-shoot"})
    step = action.resolution.answer("black.0")
    assert [c.label for c in step.choices] == ['Within 24"', 'Beyond 24"']


def test_double_distances_objectives_ch_r1_ch_r5() -> None:
    g = duel(options={"distances": "double", "victory": "objectives"})
    # the set-up asked depth 24 and put objective 4 at 18": under CH-R1 that is
    # 9" on the normal scale, 2 VP (1 per 12" doubled)
    assert 'Objective 4: Red 18" (2 VP)' in RULESET.view(g.state).objectives[3]
    from deathzap_tui.rules.commandhand.tables import objective_vp

    assert objective_vp(13, 2) == 2 and objective_vp(13, 1) == 3 and objective_vp(0, 2) == 1


def test_the_result_gives_the_winners_score_first_issue_26() -> None:
    from deathzap_tui.rules.commandhand.common import finish
    from deathzap_tui.rules.steps import Context

    g = duel(options={"victory": "objectives"})
    ctx = Context(g.state)
    ctx.state.vp = {"red": 5, "black": 9}
    finish(ctx, "the deck ran out")
    assert RULESET.view(ctx.state).result == "Black wins 9-5 (the deck ran out)"

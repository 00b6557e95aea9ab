"""The seven actions (CH §3), entering and flanking (CH §3), shooting by range band
(CH §4), aimed shots (CH §3.5), Explosive (CH §4), shields then kills (CH §4),
melee (CH §5), recharge capped (CH §3.7)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from ch_fixtures import act, activate, draw, force, notes, ready_game, unit

from deathzap_tui.rules.commandhand.model import Figure
from deathzap_tui.rules.game import Game
from deathzap_tui.rules.steps import Dice, DiceRequest, Question, Refused


def game(sergeant_first: bool = False) -> Game:
    red = force("Red", 0, unit("Rifles", 4, "rifle", shields=2, recharge=1, ma=1, md=4),
                unit("Spitters", 3, "spitter", shields=3, recharge=2, ma=2, md=3),
                unit("Lobbers", 2, "lobber", shields=1, recharge=1))
    others = unit("Others", 3, "rifle", shields=0, recharge=0,
                  extra=(Figure("Sergeant", ("spitter",)),))
    if sergeant_first:
        others = replace(others, figures=others.figures[-1:] + others.figures[:-1])
    black = force("Black", 0, unit("Targets", 5, "rifle", shields=2, recharge=1), others)
    return ready_game(red=red, black=black)


def on_table(sergeant_first: bool = False) -> Game:
    """Every unit entered from its home edge, no tokens, nothing drawn pending."""
    g = game(sergeant_first)
    draw(g, "AH")
    for u in ("red.0", "red.1", "red.2"):
        activate(g, u, "run")
    draw(g, "KS")
    activate(g, "black.0", "run")
    activate(g, "black.1", "run")
    draw(g, "JOKER1")
    return g


def keys(steps: list) -> list[str]:
    return [s.key for s in steps]


def test_run_enters_from_the_home_edge_and_takes_a_token_ch_s3() -> None:
    g = game()
    draw(g, "2H")
    activate(g, "red.0", "run")
    u = g.state.unit("red.0")
    assert u.entered and u.edge == g.state.edges["red"] == "south" and u.token
    assert any('runs up to 8"' in n for n in notes(g))


def test_flank_4_plus_enters_from_a_chosen_side_edge_ch_s3() -> None:
    g = game()
    draw(g, "2H")
    steps = activate(g, "red.0", "run", {"flank": "6", "flank.edge": "west"}, flank=True)
    assert steps[0].target == 4 and steps[1].choices[0].value in ("east", "west")
    u = g.state.unit("red.0")
    assert u.entered and u.edge == "west"


def test_flank_never_from_the_opponents_home_edge_ch_s3() -> None:
    g = game()
    draw(g, "2H")
    action = g.begin({"type": "activate", "unit": "red.0", "action": "run", "flank": True})
    step = action.resolution.answer("4")
    assert isinstance(step, Question)
    assert {c.value for c in step.choices} == {"east", "west"}
    with pytest.raises(Refused):
        action.resolution.answer(g.state.edges["black"])
    with pytest.raises(Refused):
        action.resolution.answer(g.state.edges["red"])


@pytest.mark.parametrize("face", ["1", "2", "3"])
def test_flank_1_to_3_spends_the_activation_ch_s3(face: str) -> None:
    g = game()
    draw(g, "2H")
    activate(g, "red.0", "walk-shoot", {"flank": face}, flank=True)
    u = g.state.unit("red.0")
    assert not u.entered and u.token and g.state.grant is None
    assert any("activation is spent" in n for n in notes(g))


def test_flank_only_for_an_entering_unit_ch_s3() -> None:
    g = on_table()
    draw(g, "2H")
    with pytest.raises(Refused, match="flank"):
        g.begin({"type": "activate", "unit": "red.0", "action": "run", "flank": True})


@pytest.mark.parametrize("action", ["fight", "disengage", "aimed"])
def test_entering_unit_cannot_fight_disengage_or_aim_ch_s3(action: str) -> None:
    g = game()
    draw(g, "2H")
    with pytest.raises(Refused, match="entering"):
        g.begin({"type": "activate", "unit": "red.0", "action": action})


def test_walk_and_shoot_near_band_ch_s4() -> None:
    g = on_table()
    draw(g, "2H")
    steps = activate(g, "red.1", "walk-shoot", {
        "shoot.target": "black.0", "shoot.range": "near", "shoot.cover": "soft",
        "shoot.1.damage": "4 4 1 6 2 3 5 4 4"})
    req = next(s for s in steps if isinstance(s, DiceRequest))
    assert (req.count, req.target) == (9, 4)  # 3 figures x 3 shots at 0-12", soft 4+
    t = g.state.unit("black.0")
    assert (t.shields, t.figures_left) == (0, 1)  # 6 damage: 2 shields, 4 kills


def test_far_band_uses_the_beyond_12_shots_ch_s4() -> None:
    g = on_table()
    draw(g, "2H")
    activate(g, "red.1", "walk-shoot", {"shoot.target": "black.0", "shoot.range": "far"})
    assert any('no shots beyond 12"' in n for n in notes(g))
    draw(g, "3H")
    steps = activate(g, "red.2", "walk-shoot", {
        "shoot.target": "black.0", "shoot.range": "far", "shoot.cover": "hard",
        "shoot.1.damage": "5 1 4 2", "shoot.1.explosive": "3"})
    req = [s for s in steps if isinstance(s, DiceRequest)]
    assert (req[0].count, req[0].target) == (4, 5)  # 2 x 2 shots beyond 12", hard 5+


def test_explosive_deals_d6_per_success_ch_s4() -> None:
    g = on_table()
    draw(g, "2H")
    steps = activate(g, "red.2", "walk-shoot", {
        "shoot.target": "black.0", "shoot.range": "far", "shoot.cover": "open",
        "shoot.1.damage": "4 6 1 2", "shoot.1.explosive": "3 2"})
    exp = next(s for s in steps if s.key == "shoot.1.explosive")
    assert exp.count == 2 and exp.target is None
    t = g.state.unit("black.0")
    assert (t.shields, t.figures_left) == (0, 2)  # 5 damage: 2 shields, 3 kills


def test_shields_then_kills_no_saves_ch_s4() -> None:
    g = on_table()
    draw(g, "2H")
    steps = activate(g, "red.0", "walk-shoot", {
        "shoot.target": "black.0", "shoot.range": "near", "shoot.cover": "open",
        "shoot.1.damage": "4 5 6 1"})
    assert len([s for s in steps if isinstance(s, DiceRequest)]) == 1  # no save roll
    t = g.state.unit("black.0")
    assert (t.shields, t.figures_left) == (0, 4)


def test_owner_picks_the_casualty_when_figures_differ_ch_s4() -> None:
    g = on_table()
    draw(g, "2H")
    steps = activate(g, "red.0", "walk-shoot", {
        "shoot.target": "black.1", "shoot.range": "near", "shoot.cover": "open",
        "shoot.1.damage": "4 1 1 1", "shoot.1.kill.1": "black.1.3"})
    kill = next(s for s in steps if s.key == "shoot.1.kill.1")
    assert kill.side == "black"
    assert not g.state.figure("black.1.3")[1].alive


def test_default_casualty_is_the_figure_with_the_fewest_shots_ch_s4() -> None:
    """CH §4, CH-R4: the owner picks; the default (Enter) is the figure whose loss
    costs least, the one with the fewest shots, even when listed first."""
    g = on_table(sergeant_first=True)
    draw(g, "2H")
    steps = activate(g, "red.0", "walk-shoot", {
        "shoot.target": "black.1", "shoot.range": "near", "shoot.cover": "open",
        "shoot.1.damage": "4 1 1 1"})
    kill = next(s for s in steps if s.key == "shoot.1.kill.1")
    assert [c.value for c in kill.choices] == ["black.1.0", "black.1.1"]  # Sergeant first
    assert kill.default == "black.1.1"
    assert g.state.figure("black.1.0")[1].alive  # the Sergeant's Spitter is kept


def test_aimed_shots_reroll_ones_once_ch_s3_5() -> None:
    g = on_table()
    draw(g, "2H")
    steps = activate(g, "red.0", "aimed", {
        "shoot.target": "black.0", "shoot.range": "near", "shoot.cover": "open",
        "shoot.1.damage": "1 1 4 2", "shoot.1.reroll": "1 5"})
    rr = next(s for s in steps if s.key == "shoot.1.reroll")
    assert (rr.count, rr.target) == (2, 4)
    # 4 and 5 succeed; the re-rolled 1 stays a 1 (never re-rolled twice); 2 is not re-rolled
    assert len([s for s in steps if isinstance(s, DiceRequest)]) == 2
    assert g.state.unit("black.0").shields == 0


def test_aimed_shots_need_faces_ch_s3_5() -> None:
    g = on_table()
    draw(g, "2H")
    action = g.begin({"type": "activate", "unit": "red.0", "action": "aimed"})
    res = action.resolution
    for a in ("black.0", "near", "open"):
        res.answer(a)
    with pytest.raises(Refused, match="faces"):
        res.answer(Dice(successes=2))


def test_walk_and_shoot_does_not_reroll_ch_s3() -> None:
    g = on_table()
    draw(g, "2H")
    steps = activate(g, "red.0", "walk-shoot", {
        "shoot.target": "black.0", "shoot.range": "near", "shoot.cover": "open",
        "shoot.1.damage": "1 1 1 1"})
    assert len([s for s in steps if isinstance(s, DiceRequest)]) == 1


def test_charge_then_fight_melee_ch_s3_s5() -> None:
    g = on_table()
    draw(g, "KH")
    steps = activate(g, "red.1", "charge", {"melee.target": "black.0",
                                            "melee.damage": "3 3 2 1 6 2"})
    req = next(s for s in steps if isinstance(s, DiceRequest))
    assert (req.count, req.target) == (6, 3)  # 3 figures x 2 attacks, melee damage 3+
    assert "black.0" in g.state.unit("red.1").engaged
    assert "red.1" in g.state.unit("black.0").engaged
    t = g.state.unit("black.0")
    assert (t.shields, t.figures_left) == (0, 4)
    activate(g, "red.0", "run")
    draw(g, "JOKER2")
    draw(g, "2H")
    activate(g, "red.1", "fight", {"melee.damage": "1 1 1 1 1 1"})


def test_fight_needs_contact_and_contact_blocks_moving_ch_s3() -> None:
    g = on_table()
    draw(g, "2H")
    with pytest.raises(Refused, match="not in base contact"):
        g.begin({"type": "activate", "unit": "red.0", "action": "fight"})
    with pytest.raises(Refused, match="not in base contact"):
        g.begin({"type": "activate", "unit": "red.0", "action": "disengage"})
    activate(g, "red.0", "charge", {"melee.target": "black.0", "melee.damage": "1 1 1 1"})
    draw(g, "JOKER2")
    draw(g, "3H")
    for action in ("run", "walk-shoot", "charge"):
        with pytest.raises(Refused, match="Disengage"):
            g.begin({"type": "activate", "unit": "red.0", "action": action})
    activate(g, "red.0", "disengage")
    assert not g.state.unit("red.0").engaged and not g.state.unit("black.0").engaged
    assert any("may not move into contact nor shoot" in n for n in notes(g))


def test_recharge_is_capped_at_starting_shields_ch_s3_7() -> None:
    g = on_table()
    draw(g, "2H")
    activate(g, "red.0", "walk-shoot", {
        "shoot.target": "black.0", "shoot.range": "near", "shoot.cover": "open",
        "shoot.1.damage": "4 1 1 1"})
    assert g.state.unit("black.0").shields == 1
    draw(g, "2S")
    activate(g, "black.0", "recharge")
    assert g.state.unit("black.0").shields == 2  # +1, back to the starting 2
    draw(g, "3S")
    activate(g, "black.1", "run")
    draw(g, "4S")
    activate(g, "black.0", "recharge")
    assert g.state.unit("black.0").shields == 2  # never above the start
    assert any("never above its starting shields" in n for n in notes(g))


def test_all_seven_actions_are_offered_ch_s3() -> None:
    from deathzap_tui.rules.commandhand import RULESET

    g = on_table()
    draw(g, "2H")
    activate(g, "red.0", "charge", {"melee.target": "black.0", "melee.damage": "1 1 1 1"})
    draw(g, "JOKER2")
    draw(g, "3H")
    seen = {o.intent["action"] for o in RULESET.intents(g.state)
            if o.intent["type"] == "activate"}
    assert seen == {"run", "charge", "fight", "walk-shoot", "aimed", "disengage",
                    "recharge"}
    assert act is not None


def test_a_unit_wiped_out_is_not_asked_which_figure_ch_s4_issue_26() -> None:
    """4 kills on 4 figures of two kinds: all go whichever goes first, so the owner
    is not asked four times (issue 26); the Sergeant (most shots) goes last."""
    g = on_table()
    draw(g, "2H")
    steps = activate(g, "red.0", "walk-shoot", {
        "shoot.target": "black.1", "shoot.range": "near", "shoot.cover": "open",
        "shoot.1.damage": "4 5 6 4"})
    assert not [k for k in keys(steps) if ".kill." in k]
    assert g.state.unit("black.1").figures_left == 0
    lost = [n for n in notes(g) if "Black Others loses" in n]
    assert len(lost) == 4 and "Sergeant" in lost[-1]


def test_a_unit_not_wiped_out_still_chooses_ch_s4_issue_26() -> None:
    g = on_table()
    draw(g, "2H")
    steps = activate(g, "red.0", "walk-shoot", {
        "shoot.target": "black.1", "shoot.range": "near", "shoot.cover": "open",
        "shoot.1.damage": "4 5 6 1"})
    assert [k for k in keys(steps) if ".kill." in k] == [
        "shoot.1.kill.1", "shoot.1.kill.2", "shoot.1.kill.3"]

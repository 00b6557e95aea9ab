"""Morale (DZ3 §10, §11; DZ3-R11, R12)."""

from __future__ import annotations

from dz3_fixtures import act, battle

BRAVO = {"type": "activate", "unit": "red.1", "action": "advance"}


def bravo_kills(g, saves: str, **more):  # type: ignore[no-untyped-def]
    """Bravo's 4 Small Arms strip Pickets' 4 shields, then Grenades force saves."""
    return act(g, BRAVO, {
        "shoot.target": "black.1", "shoot.range.black.1": "yes", "shoot.order.1": "0",
        "shoot.1.hit": "4444", "shoot.1.shields": "4444",
        "shoot.2.hit": "=6", "shoot.2.shields": "4" * 6, "shoot.2.saves": saves, **more})


def test_dice_are_figures_left_and_one_success_passes_dz3_s10() -> None:
    g = battle()
    steps = bravo_kills(g, "116666", **{"shoot.2.leader": "no", "shoot.2.morale.1": "16"})
    m = next(s for s in steps if s.key == "shoot.2.morale.1")
    assert (m.count, m.target, m.side) == (2, 6, "black")
    assert g.state.unit("black.1").in_play


def test_failed_morale_flees_for_3_vp_dz3_s10() -> None:
    g = battle()
    bravo_kills(g, "116666", **{"shoot.2.leader": "no", "shoot.2.morale.1": "15"})
    assert g.state.unit("black.1").fled and g.state.vp["red"] == 3
    assert g.state.score[-1].reason == "Black Pickets fled"


def test_friendly_leader_within_6_lowers_the_target_dz3_s11() -> None:
    g = battle()
    steps = bravo_kills(g, "116666", **{"shoot.2.leader": "yes", "shoot.2.morale.1": "15"})
    m = next(s for s in steps if s.key == "shoot.2.morale.1")
    assert m.target == 5 and "+1" in m.why
    assert g.state.unit("black.1").in_play


def test_own_leader_needs_no_question() -> None:
    g = battle()
    steps = act(g, BRAVO, {
        "shoot.target": "black.0", "shoot.range.black.0": "yes", "shoot.order.1": "0",
        "shoot.1.hit": "1166", "shoot.1.shields": "66",
        "shoot.2.hit": "=6", "shoot.2.shields": "6" * 6, "shoot.2.saves": "144444",
        "shoot.2.casualty.1": "black.0.1", "shoot.2.morale.1": "33333"})
    assert not any(s.key.endswith(".leader") for s in steps)
    m = next(s for s in steps if s.key == "shoot.2.morale.1")
    assert m.target == 3  # elite 4+, own leader +1
    assert g.state.unit("black.0").figures_left == 5


def test_one_test_per_attack_by_default_dz3_r11() -> None:
    g = battle()
    steps = bravo_kills(g, "111666", **{"shoot.2.leader": "no", "shoot.2.morale.1": "6"})
    assert [s.key for s in steps if "morale" in s.key] == ["shoot.2.morale.1"]


def test_one_test_per_casualty_option_dz3_r11() -> None:
    g = battle(options={"morale": "per-casualty"})
    steps = bravo_kills(g, "116666", **{"shoot.2.leader": "no", "shoot.2.morale.1": "16",
                                        "shoot.2.morale.2": "61"})
    assert [s.key for s in steps if "morale." in s.key] == ["shoot.2.morale.1",
                                                             "shoot.2.morale.2"]


def test_wiped_out_unit_takes_no_test_dz3_r12() -> None:
    g = battle()
    steps = bravo_kills(g, "111166")
    assert not any("morale" in s.key for s in steps)
    assert g.state.unit("black.1").destroyed and g.state.vp["red"] == 3
    assert g.state.score[-1].reason == "Black Pickets destroyed"


def test_no_leader_question_when_the_force_has_no_living_leader() -> None:
    g = battle()
    g.state.unit("black.0").figures[0].alive = False  # black's only leader (test poke)
    steps = bravo_kills(g, "116666", **{"shoot.2.morale.1": "66"})
    assert not any(st.key == "shoot.2.leader" for st in steps)

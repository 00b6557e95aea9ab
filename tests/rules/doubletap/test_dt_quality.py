"""Double Tap quality tests (DT §1, DT-R1): the target at every modifier, a natural 1,
the second die at 7+ or higher (8+ and beyond too, DT-R1), counts of successes, and
generated dice."""

from __future__ import annotations

import pytest
from dt_combat_fixtures import hits, keep, state_of, unit
from fixtures_common import answer_all

from deathzap_tui.rules.doubletap import tables
from deathzap_tui.rules.doubletap.quality import quality_test, why_words
from deathzap_tui.rules.steps import ROLL, DiceRequest, Resolution


def run_test(count: int, modifier: int, answers: dict, dice: object = None,
             seed: int = 7) -> tuple[int, list, str]:
    """``count`` tests at ``modifier``: (successes, the requests, the narration)."""
    s = state_of([unit("A")], [unit("B")], seed=seed)
    res = Resolution(s, keep(lambda ctx: quality_test(ctx, "q", count, modifier, "Test",
                                                      "why", "DT §1", "red")))
    steps = answer_all(res, answers, dice)
    return (res.ctx.facts["result"], steps,
            "\n".join(n.text for n in res.ctx.notes))


@pytest.mark.parametrize(("modifier", "target"), [
    (3, 2), (2, 2), (1, 3), (0, 4), (-1, 5), (-2, 6)])
def test_dt_s1_quality_target_at_each_modifier(modifier: int, target: int) -> None:
    """DT §1: 4+ less the modifier; never below 2+ (DT-R1: a 1 still fails)."""
    assert tables.quality_target(modifier) == target
    n, steps, _ = run_test(6, modifier, {"q": "1 2 3 4 5 6"})
    assert [(s.key, s.count, s.target) for s in steps] == [("q", 6, target)]
    assert n == 7 - target


def test_dt_r1_a_natural_1_always_fails_even_at_2_plus() -> None:
    n, steps, text = run_test(3, 5, {"q": "1 1 2"})
    assert steps[0].target == 2
    assert n == 1
    assert "1 success on 2+" in text


def test_dt_s1_7_plus_is_a_6_then_a_4_plus_on_a_second_die() -> None:
    """DT §1: needing 7+, the sixes roll again (key ``<key>.second``) at 4+."""
    n, steps, text = run_test(4, -3, {"q": "6 6 5 1", "q.second": "4 3"})
    assert [(s.key, s.count, s.target) for s in steps] == [("q", 4, 6), ("q.second", 2, 4)]
    assert n == 1
    assert "each 6 must be followed by a 4+" in text


def test_dt_s1_7_plus_without_a_six_asks_no_second_die() -> None:
    n, steps, _ = run_test(2, -3, {"q": "5 5"})
    assert [s.key for s in steps] == ["q"]
    assert n == 0


@pytest.mark.parametrize(("modifier", "target"), [(-4, 8), (-5, 9), (-7, 11)])
def test_dt_r1_8_plus_or_higher_is_still_a_6_then_a_4_plus(modifier: int,
                                                           target: int) -> None:
    """DT-R1 (seed double-tap-2.1.txt, Modifiers: "If you need to roll a 7+ or higher
    to succeed, then a roll of 6+ followed by 4+ is a success."): 8+, 9+ ... are asked
    as 7+ is, never impossible: the sixes, then their second dice at 4+; 1 chance in 12
    a test."""
    n, steps, text = run_test(4, modifier, {"q": "6 6 6 5", "q.second": "4 3 6"})
    assert [(s.key, s.count, s.target) for s in steps] == [("q", 4, 6), ("q.second", 3, 4)]
    assert n == 2
    assert f"needing {target}+, each 6 must be followed by a 4+ (DT §1, DT-R1)" in text
    assert "cannot succeed" not in text
    assert tables.quality_target(modifier) == target
    assert tables.p_quality(modifier) == pytest.approx(1 / 12)


def test_dt_r1_8_plus_second_dice_are_generated_like_the_first() -> None:
    """DT-R1: both rolls of a test at 8+ come from the game's dice when asked to roll;
    each second die is rolled only for a six."""
    for seed in range(1, 40):
        n, steps, text = run_test(12, -4, {}, ROLL, seed=seed)
        if len(steps) == 2:
            break
    else:
        pytest.fail("no six in 39 seeds of 12 dice")
    assert [(s.key, s.target) for s in steps] == [("q", 6), ("q.second", 4)]
    assert "second dice:" in text and 0 <= n <= steps[1].count


def test_dt_s1_a_count_of_successes_is_accepted() -> None:
    n, steps, text = run_test(3, 0, {"q": hits(2)})
    assert isinstance(steps[0], DiceRequest) and steps[0].successes_only
    assert n == 2
    assert "count given" in text
    n, _, _ = run_test(3, -3, {"q": hits(2), "q.second": hits(1)})
    assert n == 1


def test_dt_s1_no_tests_ask_nothing() -> None:
    assert run_test(0, 0, {})[:2] == (0, [])


def test_dt_s1_generated_dice_are_deterministic_by_seed() -> None:
    first = run_test(6, 0, {}, ROLL, seed=3)
    again = run_test(6, 0, {}, ROLL, seed=3)
    assert first[0] == again[0] and first[2] == again[2]
    texts = {run_test(6, 0, {}, ROLL, seed=s)[2] for s in range(1, 8)}
    assert len(texts) > 1


def test_dt_s1_words_say_the_modifiers_and_the_number_needed() -> None:
    assert [tables.need_text(m) for m in (2, 0, -3, -4, -9)] == [
        "2+", "4+", "7+ (a 6, then 4+)", "8+ (a 6, then 4+)", "13+ (a 6, then 4+)"]
    assert why_words([(-3, "flashed, hacked")]) == ("-3 flashed, hacked; needs 7+ (a 6, "
                                                    "then 4+)")
    assert why_words([(-4, "worse")]) == "-4 worse; needs 8+ (a 6, then 4+)"  # DT-R1
    assert why_words([(-1, "in cover"), (1, "shooting down"), (0, "Rifle at 5\"")],
                     "Rifle") == "Rifle; -1 in cover, +1 shooting down; needs 4+"
    assert why_words([], "block") == "block; no modifier; needs 4+"

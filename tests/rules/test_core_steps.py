"""The shared resolution protocol (rules/steps.py) and RNG (rules/dice.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deathzap_tui.rules.dice import Rng
from deathzap_tui.rules.steps import (
    ROLL,
    Choice,
    Dice,
    DiceRequest,
    Question,
    Refused,
    answer_from_data,
    answer_to_data,
    check_answer,
    parse_dice,
)

FIVE = DiceRequest("hit", 5, "to hit", target=4)
TABLE = DiceRequest("damage", 1, "damage table")


@pytest.mark.parametrize("text", ["3 5 6 1 2", "35612", "3,5,6,1,2", " 3 5  6 1 2 "])
def test_faces_typed_naturally(text: str) -> None:
    assert parse_dice(text, FIVE).faces == (3, 5, 6, 1, 2)


@pytest.mark.parametrize("text", ["3s", "=3", "3 hits", "3 successes"])
def test_count_of_successes_where_only_successes_matter(text: str) -> None:
    dice = parse_dice(text, FIVE)
    assert dice.successes == 3 and dice.count(4) == 3


def test_partial_entry_says_how_many_more() -> None:
    with pytest.raises(Refused, match="3 of 5 dice entered; 2 more expected"):
        parse_dice("356", FIVE)


@pytest.mark.parametrize(("text", "reason"), [
    ("3561212", "7 dice entered but only 5"),
    ("3 5 0 1 2", "1 to 6, not 0"),
    ("3 5 7 1 2", "1 to 6, not 7"),
    ("6s", "6 successes from 5 dice is impossible"),
    ("abc", "digits 1-6"),
    ("", "enter 5 dice"),
])
def test_impossible_input_is_refused_with_a_reason(text: str, reason: str) -> None:
    with pytest.raises(Refused, match=reason):
        parse_dice(text, FIVE)


def test_table_rolls_need_faces() -> None:
    with pytest.raises(Refused, match="needs the faces"):
        parse_dice("1s", TABLE)
    assert parse_dice("5", TABLE).faces == (5,)


def test_dz3_r7_nothing_succeeds_on_seven_plus() -> None:
    """DZ3-R7: a target of 7+ cannot succeed, so a claimed success is refused."""
    seven = DiceRequest("hit", 3, "to hit", target=7)
    assert parse_dice("666", seven).count(7) == 0
    with pytest.raises(Refused, match="7\\+"):
        parse_dice("1s", seven)


def test_questions_check_choices_and_ranges() -> None:
    q = Question("cover", "Cover?", (Choice("open", "Open"), Choice("soft", "Soft")))
    assert check_answer(q, "soft") == "soft"
    with pytest.raises(Refused, match="not one of: open, soft"):
        check_answer(q, "hard")
    n = Question("dist", "Distance?", minimum=0, maximum=30)
    assert check_answer(n, "13") == 13
    with pytest.raises(Refused, match="at most 30"):
        check_answer(n, 31)
    with pytest.raises(Refused, match="whole number"):
        check_answer(n, "far")


@given(st.sampled_from([ROLL, Dice(faces=(1, 2)), Dice(successes=1), "open", 7]))
def test_answers_round_trip_through_plain_data(answer) -> None:
    assert answer_from_data(answer_to_data(answer)) == answer


@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_rng_is_a_pure_function_of_its_state(state: int) -> None:
    a, b = Rng(state), Rng(state)
    assert a.roll(20) == b.roll(20) and a.state == b.state
    assert all(1 <= f <= 6 for f in Rng(state).roll(50))


def test_rng_dice_are_roughly_uniform() -> None:
    faces = Rng.from_seed(1).roll(60_000)
    counts = [faces.count(f) for f in range(1, 7)]
    assert all(9_500 < c < 10_500 for c in counts), counts

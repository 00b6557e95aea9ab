"""Dice luck (issue 14): each roll's exact chance of doing at least as well, checked
against brute-force enumeration of every face; a player's percentile."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deathzap_tui.rules import luck
from deathzap_tui.rules.dice import D3, d3_request
from deathzap_tui.rules.luck import judge, luck_sentence, outcome_distribution, side_luck
from deathzap_tui.rules.steps import (
    D3_VALUE,
    DAMAGE,
    DISTINCT,
    MATCHES,
    SUCCESSES,
    TOTAL,
    UNJUDGED,
    Dice,
    DiceRequest,
    Luck,
    luck_of,
)


def roll(count: int, target: int | None = None, rule: Luck | None = None,
         side: str | None = "red") -> DiceRequest:
    return DiceRequest("k", count, "a roll", target, side=side, luck=rule)


def brute_measures(request: DiceRequest) -> list[Any]:
    """The measure of every roll fair dice could make for ``request``, listed."""
    rule = luck_of(request)
    return [luck.measure_of(Dice(faces=other), request, rule)
            for other in itertools.product(range(1, 7), repeat=request.count)]


def brute_p_at_least(request: DiceRequest, faces: tuple[int, ...],
                     measures: list[Any] | None = None) -> Fraction:
    """P(fair dice do at least as well as ``faces``), by listing every roll
    (``measures``: :func:`brute_measures` of ``request``, listed once by a caller
    that asks for many ``faces``)."""
    rule = luck_of(request)
    value = luck.measure_of(Dice(faces=faces), request, rule)
    if measures is None:
        measures = brute_measures(request)
    good = sum((v >= value) if rule.more else (v <= value) for v in measures)
    return Fraction(good, len(measures))


def test_three_dice_at_4_plus_all_hitting_is_one_in_eight() -> None:
    judged = judge(roll(3, 4), Dice(faces=(4, 5, 6)), 1)
    assert judged is not None
    assert judged.measure == SUCCESSES and judged.outcome == 3
    assert judged.p_at_least == pytest.approx(1 / 8)
    assert judged.rank == pytest.approx(1 - 1 / 16)


def test_no_successes_is_certain_to_be_matched() -> None:
    judged = judge(roll(3, 4), Dice(faces=(1, 2, 3)), 1)
    assert judged is not None and judged.p_at_least == pytest.approx(1.0)
    assert judged.rank == pytest.approx(1 / 16)


def test_a_count_of_successes_is_judged_like_faces() -> None:
    by_count = judge(roll(4, 5), Dice(successes=2), 1)
    by_faces = judge(roll(4, 5), Dice(faces=(5, 6, 1, 2)), 1)
    assert by_count is not None and by_faces is not None
    assert by_count.p_at_least == pytest.approx(by_faces.p_at_least)
    assert by_count.faces == ()


def test_fewer_successes_better_reverses_the_direction() -> None:
    judged = judge(roll(2, 4, Luck(SUCCESSES, more=False)), Dice(faces=(1, 1)), 1)
    assert judged is not None and judged.p_at_least == pytest.approx(1 / 4)


def test_a_roll_whose_outcome_was_certain_is_not_judged_dz3_r7() -> None:
    """Nothing succeeds on 7+ (DZ3-R7), everything on 1+, and dice matched against no
    dice match nothing: such a roll tells nothing of luck."""
    assert judge(roll(3, 7), Dice(faces=(6, 6, 6)), 1) is None
    assert judge(roll(2, 1), Dice(faces=(1, 2)), 1) is None
    assert judge(roll(2, rule=Luck(MATCHES, against=())), Dice(faces=(1, 2)), 1) is None


def test_successes_of_a_faces_roll_count_against_the_lucks_own_target() -> None:
    """A die read for its faces that also passes on 4+ (a morale die that sets a
    fall-back distance when it fails): a 5 and a 4 are equally good."""
    rule = Luck(SUCCESSES, target=4)
    five, four = (judge(roll(1, rule=rule), Dice(faces=(f,)), 1) for f in (5, 4))
    assert five is not None and four is not None
    assert five.p_at_least == four.p_at_least == pytest.approx(1 / 2)
    assert judge(roll(1, rule=Luck(SUCCESSES)), Dice(faces=(5,)), 1) is None  # no target


def test_two_dice_totalling_12_is_one_in_36() -> None:
    judged = judge(roll(2, rule=Luck(TOTAL)), Dice(faces=(6, 6)), 1)
    assert judged is not None and judged.p_at_least == pytest.approx(1 / 36)
    low = judge(roll(2, rule=Luck(TOTAL, more=False)), Dice(faces=(6, 6)), 1)
    assert low is not None and low.p_at_least == pytest.approx(1.0)


def test_rolls_of_nobody_faces_without_a_reading_and_unjudged_ones_are_left_out() -> None:
    assert judge(roll(3, 4, side=None), Dice(faces=(4, 5, 6)), 1) is None
    assert judge(roll(1), Dice(faces=(3,)), 1) is None
    assert judge(roll(2, 4, Luck(UNJUDGED)), Dice(faces=(4, 4)), 1) is None


@pytest.mark.parametrize("count", [1, 2, 3, 4])
@pytest.mark.parametrize("rule", [
    Luck(TOTAL), Luck(TOTAL, more=False), Luck(DISTINCT), Luck(DISTINCT, more=False),
    Luck(MATCHES, against=(1, 1, 4)), Luck(MATCHES, more=False, against=(2, 6, 6, 6, 3)),
    Luck(DAMAGE, more=False, against=(4, 5, 5)), Luck(D3_VALUE), Luck(D3_VALUE, more=False),
])
def test_faces_measures_match_brute_force(count: int, rule: Luck) -> None:
    request = roll(count, rule=rule)
    certain = sum(1 for p in outcome_distribution(request, rule) if p) < 2  # 1 die, distinct
    for faces in [(1,) * count, tuple(range(1, count + 1)), (6,) * count,
                  tuple(4 if i % 2 else 2 for i in range(count))]:
        judged = judge(request, Dice(faces=faces), 1)
        assert (judged is None) == certain
        if judged is None:
            continue
        assert judged.p_at_least == pytest.approx(float(brute_p_at_least(request, faces)),
                                                  abs=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("count,target", [(1, 2), (3, 4), (4, 6), (2, 3)])
def test_successes_match_brute_force(count: int, target: int) -> None:
    request = roll(count, target)
    measures = brute_measures(request)
    for faces in itertools.product(range(1, 7), repeat=count):
        judged = judge(request, Dice(faces=faces), 1)
        assert judged is not None
        assert judged.p_at_least == pytest.approx(
            float(brute_p_at_least(request, faces, measures)), abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(count=st.integers(1, 12), target=st.integers(1, 7),
       measure=st.sampled_from([SUCCESSES, TOTAL, DISTINCT, MATCHES, DAMAGE, D3_VALUE]),
       more=st.booleans(),
       against=st.lists(st.integers(1, 6), max_size=8).map(tuple))
def test_every_roll_averages_a_mid_rank_of_one_half(count: int, target: int, measure: str,
                                                   more: bool,
                                                   against: tuple[int, ...]) -> None:
    """Whatever a roll's distribution, its mid-rank averages 1/2 under fair dice: that
    is what lets one die and twenty weigh alike in a player's sum."""
    request = roll(count, target, Luck(measure, more, against))
    dist = outcome_distribution(request, Luck(measure, more, against))
    assert sum(dist) == 1
    ranks = luck._mid_ranks(dist, more)
    assert sum(r * p for r, p in zip(ranks, dist, strict=True)) == Fraction(1, 2)


def brute_percentile(requests: list[tuple[DiceRequest, tuple[int, ...]]]) -> float:
    """The percentile by listing every way fair dice could have fallen."""
    judged = [judge(r, Dice(faces=f), 1) for r, f in requests]
    total = sum(j.rank for j in judged if j is not None)
    below = same = 0.0
    # Each request's rank for every way its own dice could fall, judged once (an
    # unjudged roll adds nothing).
    ranks = [[0.0 if (j := judge(r, Dice(faces=f), 1)) is None else j.rank
              for f in itertools.product(range(1, 7), repeat=r.count)]
             for r, _ in requests]
    p = 6.0 ** -sum(r.count for r, _ in requests)
    for combo in itertools.product(*ranks):
        s = sum(combo)
        if math.isclose(s, total, abs_tol=1e-9):
            same += p
        elif s < total:
            below += p
    return 100 * (below + same / 2)


@pytest.mark.slow
def test_the_exact_percentile_matches_brute_force() -> None:
    requests = [(roll(2, 4), (4, 1)), (roll(1, rule=Luck(TOTAL)), (5,)),
                (roll(2, 3), (6, 5))]
    judged = [judge(r, Dice(faces=f), 1) for r, f in requests]
    result = side_luck("red", [j for j in judged if j is not None])
    assert result.method == "exact"
    assert result.percentile == pytest.approx(brute_percentile(requests), abs=1e-9)


def test_many_rolls_use_the_normal_approximation_close_to_the_exact(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rolls = [judge(roll(3, 4), Dice(faces=(4, 5, 1)), i) for i in range(4)]
    rolls += [judge(roll(2, 5), Dice(faces=(5, 6)), i) for i in range(3)]
    judged = [r for r in rolls if r is not None]
    exact = side_luck("red", judged)
    monkeypatch.setattr(luck, "EXACT_WORK", 1)
    normal = side_luck("red", judged)
    assert (exact.method, normal.method) == ("exact", "normal")
    assert normal.percentile == pytest.approx(exact.percentile, abs=6)


def test_ties_between_sums_are_found_exactly() -> None:
    """Mid-ranks of 4+ rolls are multiples of 2**-n: sums that tie must meet on one
    key (rounding floats would split the tie), checked against exact fractions."""
    rolls = [judge(roll(10, 4), Dice(successes=5), 1), judge(roll(11, 4), Dice(successes=5), 2),
             judge(roll(10, 4), Dice(successes=5), 3)]
    judged = [r for r in rolls if r is not None]
    dists = [outcome_distribution(roll(r.dice, 4), Luck(SUCCESSES)) for r in judged]
    ranks = [luck._mid_ranks(d, True) for d in dists]
    sums: dict[Fraction, Fraction] = {Fraction(0): Fraction(1)}
    for d, rk in zip(dists, ranks, strict=True):
        nxt: dict[Fraction, Fraction] = {}
        for s, p in sums.items():
            for k, q in enumerate(d):
                nxt[s + rk[k]] = nxt.get(s + rk[k], Fraction(0)) + p * q
        sums = nxt
    total = sum(rk[5] for rk in ranks)
    exact = 100 * (sum(p for s, p in sums.items() if s < total) + sums.get(total, 0) / 2)
    result = side_luck("red", judged)
    assert result.method == "exact"
    assert result.percentile == pytest.approx(float(exact), abs=1e-9)


def test_better_rolls_never_lower_the_percentile() -> None:
    base = [judge(roll(3, 4), Dice(faces=(4, 1, 1)), 1), judge(roll(2, 4), Dice(faces=(1, 1)), 2)]
    better = [base[0], judge(roll(2, 4), Dice(faces=(5, 1)), 2)]
    assert (side_luck("red", [r for r in better if r]).percentile
            > side_luck("red", [r for r in base if r]).percentile)


def test_the_luckiest_and_unluckiest_rolls_are_named() -> None:
    lucky = judge(roll(3, 4), Dice(faces=(4, 5, 6)), 1)
    unlucky = judge(roll(3, 4), Dice(faces=(1, 2, 3)), 2)
    result = side_luck("black", [r for r in (lucky, unlucky) if r])
    assert result.luckiest is lucky and result.unluckiest is unlucky
    assert result.rolls == 2 and result.dice == 6


def test_both_extremes_are_picked_by_the_chance_that_is_printed() -> None:
    """Issue 25: the luckiest roll is the one least likely to go as well (its printed
    P(at least as well)), the unluckiest the one least likely to go as badly (its
    printed P(no better)), not the lowest mid-rank. One die at 4+ failing (mid-rank
    1/4, 1 in 2 to do as badly) against 3 successes of 8 dice at 4+ (mid-rank 65/256,
    just above 1/4, but 93/256, about 1 in 3, to do as badly): the second is the
    unluckier."""
    flanking = judge(roll(1, 4), Dice(faces=(2,)), 1)
    melee = judge(roll(8, 4), Dice(faces=(1, 1, 2, 2, 3, 4, 5, 6)), 2)
    assert flanking is not None and melee is not None
    assert flanking.rank < melee.rank  # what the old choice went by
    assert (flanking.p_at_most, melee.p_at_most) == (pytest.approx(1 / 2),
                                                     pytest.approx(93 / 256))
    assert side_luck("red", [flanking, melee]).unluckiest is melee
    assert side_luck("red", [melee, flanking]).unluckiest is melee
    # The same for the luckiest, by its own tail: one die at 4+ hitting (1 in 2 to
    # do as well, mid-rank 3/4) against 5 successes of 8 (93/256, mid-rank 191/256).
    hit = judge(roll(1, 4), Dice(faces=(5,)), 3)
    five = judge(roll(8, 4), Dice(faces=(1, 1, 2, 4, 5, 6, 6, 6)), 4)
    assert hit is not None and five is not None and hit.rank > five.rank
    assert side_luck("red", [hit, five]).luckiest is five


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 5), st.integers(2, 6), st.integers(0, 2**31)),
                min_size=1, max_size=8))
def test_the_extremes_are_the_rarest_by_their_printed_tails(
        rolls: list[tuple[int, int, int]]) -> None:
    """Issue 25, over any rolls: no judged roll is rarer than the luckiest by
    P(at least as well), nor rarer than the unluckiest by P(no better)."""
    judged = []
    for n, (count, target, seed) in enumerate(rolls, 1):
        faces = tuple(1 + (seed >> (3 * i)) % 6 for i in range(count))
        j = judge(roll(count, target), Dice(faces=faces), n)
        if j is not None:
            judged.append(j)
    if not judged:
        return
    result = side_luck("red", judged)
    assert result.luckiest is not None and result.unluckiest is not None
    assert result.luckiest.p_at_least == min(r.p_at_least for r in judged)
    assert result.unluckiest.p_at_most == min(r.p_at_most for r in judged)


@pytest.mark.parametrize("more", [True, False])
@pytest.mark.parametrize("face", range(1, 7))
def test_a_d3_read_from_a_d6_is_judged_by_its_d3_value(face: int, more: bool) -> None:
    """Issue 25: a D6 read as a D3 (rules/dice.py ``D3``: 1-2 is 1, 3-4 is 2, 5-6 is
    3) is judged by the D3 it gives: faces giving the same D3 are alike, and a D3 of 1
    when fewer is better is 1 chance in 3 to do as well, never 1 in 6 (PS §7's rout,
    DT §2's markers)."""
    request = d3_request("k", "a D3", "PS §7", "red", more=more)
    judged = judge(request, Dice(faces=(face,)), 1)
    assert judged is not None and judged.measure == D3_VALUE
    assert judged.outcome == D3[face]
    as_well = (4 - D3[face]) / 3 if more else D3[face] / 3
    assert judged.p_at_least == pytest.approx(as_well)
    twin = next(f for f in range(1, 7) if f != face and D3[f] == D3[face])
    again = judge(request, Dice(faces=(twin,)), 1)
    assert again is not None and (again.rank, again.p_at_least) == (judged.rank,
                                                                    judged.p_at_least)


def test_two_d3s_are_judged_by_their_sum() -> None:
    """Two D3s totalling 6 (faces 5 and 6): 1 chance in 9 (both a 3)."""
    request = roll(2, rule=Luck(D3_VALUE))
    judged = judge(request, Dice(faces=(5, 6)), 1)
    assert judged is not None and judged.outcome == 6
    assert judged.p_at_least == pytest.approx(1 / 9)


def test_no_judged_roll_is_the_50th_percentile() -> None:
    result = side_luck("red", [])
    assert (result.percentile, result.method) == (50.0, "none")
    assert luck_sentence(result) == "Red rolled no judged dice."


@pytest.mark.parametrize("percentile,words", [
    (12.4, "12th"), (1.2, "1st"), (0.01, "1st"), (2.5, "2nd"), (3.9, "3rd"), (11.0, "11th"),
    (21.7, "21st"), (99.99, "99th"), (100.0, "99th"), (50.0, "50th"),
])
def test_the_sentence_names_the_percentile(percentile: float, words: str) -> None:
    result = luck.SideLuck("red", 3, 7, percentile, "exact")
    assert luck_sentence(result) == (f"Red's dice were in the {words} percentile "
                                     "(3 rolls, 7 dice).")

"""The end-of-game report as text and Markdown (issue 14): the score chart fits its
width exactly whatever the scores, untrusted names are cleaned and escaped, and the
luck lines tell each roll's exact chance."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from deathzap_tui.reporttext import (
    BOTH,
    MARKERS,
    as_markdown,
    as_text,
    cells,
    md_cell,
    one_in,
    units_table,
    vp_chart,
)
from deathzap_tui.rules import registry
from deathzap_tui.rules.luck import RollLuck, judge, luck_sentence, side_luck
from deathzap_tui.rules.report import GameReport, ScorePoint, UnitTally
from deathzap_tui.rules.reportdata import report_from_json
from deathzap_tui.rules.steps import Dice, DiceRequest

NASTY = "Evil\x1b]52;c;aGk=\x07 \u202eGang|of\x9b2J <b>"
"""A force-file name holding an OSC 52 clipboard write, a bidi override, a CSI, a
table pipe and HTML."""


def roll(side: str, faces: tuple[int, ...], target: int, event: int = 1,
         purpose: str = "Rifles at the enemy: to hit") -> RollLuck:
    """A judged roll of ``faces`` against ``target``+ (DZ3 §6: more hits help)."""
    request = DiceRequest("hits", len(faces), purpose, target=target, rule="DZ3 §6",
                          side=side)
    return judge(request, Dice(faces=faces), event)


def report(series: tuple[tuple[int, int, int, int], ...] = ((0, 0, 0, 0), (3, 0, 2, 1)),
           *, names: tuple[str, str] = ("Red Force", "Black Force"),
           units: tuple[UnitTally, ...] = (), over: bool = True) -> GameReport:
    """A report with ``series`` of (event, turn, red, black)."""
    rolls = [roll("red", (6, 6, 5), 4), roll("red", (1, 2, 1), 4, 2),
             roll("black", (3, 4), 3, 3)]
    return GameReport(
        ruleset="deathzap3", title="Deathzap 3", forces={"red": names[0], "black": names[1]},
        over=over, result="Red wins", score_label="VP",
        score={"red": series[-1][2], "black": series[-1][3]},
        series=tuple(ScorePoint(e, t, {"red": r, "black": b}) for e, t, r, b in series),
        events=series[-1][0], units=units,
        luck={s: side_luck(s, [r for r in rolls if r.side == s]) for s in ("red", "black")},
        rolls=tuple(rolls))


@pytest.mark.parametrize("width", [20, 60, 80, 97, 120, 160])
@pytest.mark.parametrize("height", [5, 8, 12, 20])
def test_the_chart_fits_its_width_and_height_exactly(width: int, height: int) -> None:
    lines = vp_chart(report(((0, 0, 0, 0), (5, 1, 3, 12), (40, 2, 130, 7), (41, 3, 9, 9))),
                     width, height)
    assert len(lines) == height
    assert {cells(line) for line in lines} == {width}


def test_a_chart_of_scores_that_stay_0() -> None:
    lines = vp_chart(report(((0, 0, 0, 0), (12, 0, 0, 0))), 80, 8)
    assert {len(line) for line in lines} == {80}
    plot = lines[1:-2]
    assert plot[-1].startswith("0┤") and set(plot[-1][2:]) == {BOTH}  # both on 0 throughout
    assert all(set(row[2:]) == {" "} and row.startswith(" │") for row in plot[:-1])


def test_a_chart_of_one_event_and_of_none() -> None:
    for series in (((0, 0, 0, 0),), ((0, 0, 0, 0), (1, 0, 4, 0))):
        lines = vp_chart(report(series), 60, 6)
        assert len(lines) == 6 and {len(line) for line in lines} == {60}
    top = vp_chart(report(((0, 0, 0, 0), (1, 0, 4, 0))), 60, 6)[1]
    assert top.startswith("4┤") and top.endswith(MARKERS["red"])  # red's 4 at the end


def test_the_chart_counts_turns_when_the_ruleset_has_them() -> None:
    by_turn = vp_chart(report(((0, 0, 0, 0), (9, 1, 1, 0), (20, 2, 1, 2), (30, 3, 3, 2))),
                       80, 8)
    assert "by turn" in by_turn[0] and by_turn[-1].split() == ["0", "1", "2", "3"]
    by_event = vp_chart(report(((0, 0, 0, 0), (30, 0, 1, 0))), 80, 8)
    assert "by event" in by_event[0] and by_event[-1].split()[::len(by_event[-1].split()) - 1] \
        == ["0", "30"]


def test_a_too_small_chart_is_refused() -> None:
    with pytest.raises(ValueError):
        vp_chart(report(), 19, 8)
    with pytest.raises(ValueError):
        vp_chart(report(), 80, 4)


def test_long_names_are_cut_to_the_width() -> None:
    long = "Unit " + "Z" * 200
    units = (UnitTally("red.0", "red", long, kills=3), UnitTally("black.0", "black", "x"))
    rep = report(names=("R" * 300, "本" * 100), units=units)
    for width in (60, 80, 120):
        text = as_text(rep, width)
        assert max(cells(line) for line in text.splitlines()) <= width
        assert "…" in text
    assert all(cells(line) <= 60 for line in units_table(rep, 60))


def test_control_characters_never_reach_the_output() -> None:
    units = (UnitTally("red.0", "red", NASTY),)
    rep = report(names=(NASTY, NASTY), units=units)
    rep = replace(rep, result=f"{NASTY} wins", luck={
        "red": side_luck("red", [roll("red", (6, 6), 4, purpose=NASTY)]),
        "black": rep.luck["black"]})
    for out in (as_text(rep, 80), as_markdown(rep), *vp_chart(rep, 80, 8)):
        assert not any((ord(c) < 32 and c != "\n") or 0x7f <= ord(c) <= 0x9f or c == "\u202e"
                       for c in out)
    assert "Evil]52;c;aGk= Gang|of2J <b>" in as_text(rep, 200)  # the text itself stays


def test_markdown_escapes_table_cells_and_html() -> None:
    units = (UnitTally("red.0", "red", "A|B \\ <i>"),)
    md = as_markdown(report(units=units, names=("Pipe|Force", "Black")))
    row = next(line for line in md.splitlines() if line.startswith("| A"))
    assert row.startswith(r"| A\|B \\ \<i\> | Red |")
    assert row.count("|") - row.count(r"\|") == 8  # seven cells
    assert r"Pipe\|Force" in md
    assert md_cell("a|b") == r"a\|b" and md_cell("x\ny") == "x y"
    assert md_cell("[x](http://evil) *b* _i_ `c`") == (r"\[x\](http://evil) \*b\* \_i\_ "
                                                       r"\`c\`")


def test_markdown_has_headings_a_table_and_the_chart_in_a_fence() -> None:
    rep = report(units=(UnitTally("red.0", "red", "Squad 1", 1, 2, 3, 4, True),))
    md = as_markdown(rep)
    assert md.startswith("# Red Force (red) vs Black Force (black) — Deathzap 3\n")
    for heading in ("## Score over time", "## Units", "## Dice luck"):
        assert f"\n{heading}\n" in md
    assert "| Squad 1 | Red | 1 | 2 | 3 | 4 | gone |" in md
    fenced = md.split("```")[1].strip("\n").splitlines()
    assert fenced == [line.rstrip() for line in vp_chart(rep, 80, 12)]
    assert "- " + luck_sentence(rep.luck["red"]) in md


def test_a_backtick_name_cannot_end_the_chart_fence() -> None:
    md = as_markdown(report(names=("``` oops", "Black")))
    assert "\n````\n" in md


def test_luck_lines_tell_each_side_and_its_notable_rolls() -> None:
    rep = report()
    text = as_text(rep, 120)
    red = rep.luck["red"]
    assert luck_sentence(red) in text and luck_sentence(rep.luck["black"]) in text
    assert (f"Luckiest: Rifles at the enemy: to hit: 6 6 5 (3 successes), "
            f"{one_in(red.luckiest.p_at_least)} to do as well") in text
    assert (f"Unluckiest: Rifles at the enemy: to hit: 1 2 1 (0 successes), "
            f"{one_in(red.unluckiest.p_at_most)} to do as badly") in text


def test_the_chance_of_doing_no_better_is_exact() -> None:
    """Three dice hitting on 4+ (DZ3 §6): no hit has chance 1/8, at most one 1/2."""
    assert roll("red", (1, 2, 3), 4).p_at_most == pytest.approx(1 / 8)
    assert roll("red", (1, 2, 6), 4).p_at_most == pytest.approx(1 / 2)
    assert one_in(1 / 8) == "1 in 8" and one_in(0.9) == "1 in 1"


def test_an_unfinished_game_says_so() -> None:
    text = as_text(report(over=False), 80)
    assert text.splitlines()[1] == "In progress (after 3 events)"
    assert text.splitlines()[2] == "Current VP: Red 2, Black 1"


def test_a_report_read_back_from_json_renders_the_same() -> None:
    rep = report(units=(UnitTally("red.0", "red", "Squad 1", 1, 2, 3, 4, True),))
    again = report_from_json(rep.to_json())
    assert again.to_json() == rep.to_json()
    assert as_text(again, 80) == as_text(rep, 80) and as_markdown(again) == as_markdown(rep)
    bad = rep.to_json()
    bad["units"][0]["kills"] = "many"
    with pytest.raises(ValueError):
        report_from_json(bad)


@pytest.mark.parametrize("spoil", [
    lambda d: d["luck"].pop("red"),
    lambda d: d["luck"].update(green=d["luck"]["red"]),
    lambda d: d["units"][0].update(side="\x1b]52;c;eA==\x07"),
    lambda d: d["luck"]["red"].update(percentile=10 ** 400),
    lambda d: d["luck"]["red"].update(percentile=float("nan")),
    lambda d: d["luck"]["black"]["luckiest"].update(p_at_least=-0.5),
    lambda d: d["score"].update({"\x1b[2J": 3}),
    lambda d: d["score_over_time"][0].update({"x": 1}),
    lambda d: d["score_over_time"][-1].update(turn=10 ** 12),
    lambda d: d["score_over_time"][-1].update(red=10 ** 19),
    lambda d: d.update(score_over_time=d["score_over_time"] * 60_000),
])
def test_a_report_from_the_wire_with_bad_sides_or_numbers_is_refused(
        spoil: Callable[[dict[str, Any]], object]) -> None:
    """A joined terminal rebuilds the referee's report: sides must be the two sides
    (they reach the screen), chances and percentiles finite and in range."""
    data = report(units=(UnitTally("red.0", "red", "Squad 1", 1, 2, 3, 4, True),)).to_json()
    report_from_json(data)  # as sent: fine
    spoil(data)
    with pytest.raises(ValueError):
        report_from_json(data)


def test_the_chart_of_a_huge_but_allowed_game_is_drawn_at_once() -> None:
    """The largest numbers a report may carry still lay out (ticks are spaced, never
    one a turn across a billion turns)."""
    big = report(((0, 0, 0, 0), (10 ** 9, 10 ** 9, 10 ** 9, -(10 ** 9))))
    for width in (20, 80):
        lines = vp_chart(big, width, 8)
        assert all(cells(line) == width for line in lines)


def test_a_vanishing_chance_reads_as_under_one_in_a_trillion() -> None:
    assert one_in(1e-320) == "under 1 in a trillion"
    assert one_in(0) == "never" and one_in(0.5) == "1 in 2"


@pytest.mark.parametrize("ruleset_id", registry.ids())
def test_the_report_says_what_its_damage_columns_count(ruleset_id: str) -> None:
    """Issue 26: "Damage dealt / taken" did not say what it counted. Each ruleset
    says it in its rules' words, with their section; text, Markdown and JSON carry it."""
    counts = registry.get(ruleset_id).damage_counts
    assert "§" in counts
    rep = replace(report(units=(UnitTally("red.0", "red", "Squad 1", 1, 2, 3, 4),)),
                  damage_counts=counts)
    words = " ".join(counts.split())
    assert words in " ".join(as_text(rep, 80).split())
    assert words in " ".join(as_markdown(rep).split())
    assert rep.to_json()["damage_counts"] == counts
    assert report_from_json(rep.to_json()).damage_counts == counts

"""Untrusted text never reaches the terminal as markup or control sequences, and the
wizard's words come from the engine's steps."""

from __future__ import annotations

from rich.console import Console

from deathzap_tui.app.battle.units import render_units
from deathzap_tui.app.common.text import clean, safe
from deathzap_tui.headless.describe import answer_line, auto_answer, dice_feedback, step_headline
from deathzap_tui.rules.ruleset import UnitRow
from deathzap_tui.rules.steps import ROLL, Choice, Dice, DiceRequest, Question

NASTY = "[@click=app.quit]x[/] \x1b]52;c;aGk=\x07 \x1b[2J \x9b31m \u202eevil\u2066 \x00"


def test_clean_strips_controls_and_bidi() -> None:
    out = clean(NASTY)
    assert not any(ord(c) < 32 or 0x7F <= ord(c) <= 0x9F for c in out)
    assert "\u202e" not in out and "\u2066" not in out
    assert "[@click=app.quit]" in out  # markup is kept as text by clean ...


def test_safe_escapes_markup() -> None:
    from textual.markup import to_content

    content = to_content(safe(NASTY))
    assert "[@click=app.quit]x[/]" in content.plain  # ... and shown literally by safe
    assert not content.spans


def test_unit_table_renders_names_as_text() -> None:
    row = UnitRow("red.0", "red", NASTY, (NASTY, "1/1", "evil[/b]"))
    console = Console(width=80, record=True, color_system=None)
    console.print(render_units(("Unit", "Figs", "Status"), [row], 80))
    text = console.export_text()
    assert "\x1b" not in text and "\x9b" not in text
    assert "[@click" in text and "evil[/b]" in text


def test_dice_feedback_counts_what_is_missing() -> None:
    req = DiceRequest("hit", 5, "to hit", target=4, why="Basic shooter", rule="DZ3 §6")
    ok, msg = dice_feedback("3 5 6", req)
    assert ok is None and "3 of 5 dice entered; 2 more expected" in msg
    ok, msg = dice_feedback("35612", req)
    assert ok and "2 succeed on 4+" in msg
    ok, msg = dice_feedback("2s", req)
    assert ok and "2 of 5 succeed" in msg
    ok, msg = dice_feedback("3 7", req)
    assert ok is False and "not 7" in msg
    faces_only = DiceRequest("d", 1, "damage table")
    ok, msg = dice_feedback("1s", faces_only)
    assert ok is False and "faces" in msg


def test_step_words_show_target_count_and_rule() -> None:
    req = DiceRequest("hit", 7, "Hit", target=5, why="Basic shooter, soft cover",
                      rule="DZ3 §6")
    assert step_headline(req) == "Hit on 5+ — roll 7 dice"
    assert answer_line(req, Dice(faces=(1, 5, 6), generated=True)) == "rolled for you: 1 5 6"
    q = Question("cover", "Cover?", (Choice("open", "Open"), Choice("soft", "Soft")),
                 default="soft")
    assert answer_line(q, "soft") == "Soft"
    assert auto_answer(q) == "soft" and auto_answer(req) is ROLL

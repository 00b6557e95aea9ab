"""Issue 11, table-side faults in the wizard: a stable key for every option (no
auto-skipped step shifting what the next key answers), Enter never answering a rules
question in generated-dice mode, and a resize to 60x20 and back mid-wizard.

The key tests drive a toy resolution in a bare app (a few keys each: ~120 ms
per key); the resize test uses the demo game's shooting
activation, odds panel and all."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any, ClassVar

from app_helpers import aiotest, battle_app, keys_for, session_at
from test_odds_panel import to_first_hit_roll
from textual.app import App
from textual.screen import Screen

from deathzap_tui.app.styles import STYLES
from deathzap_tui.app.wizard.odds import OddsPanel
from deathzap_tui.app.wizard.wizard import CHOICE_KEYS, WizardScreen, choice_key
from deathzap_tui.headless.describe import step_headline
from deathzap_tui.rules.dice import Rng
from deathzap_tui.rules.ruleset import IntentOption
from deathzap_tui.rules.steps import Choice, Context, DiceRequest, Question, Resolution


@dataclass
class Toy:
    rng: Rng = field(default_factory=lambda: Rng(7))
    began: list[Mapping[str, Any]] = field(default_factory=list)


def toy_steps(ctx: Context) -> Any:
    """A roll, then a yes/no question with a default, then a number with a default."""
    yield DiceRequest("hit", 2, "To hit", 4)
    yield Question("leader", "Is a friendly leader near?",
                   (Choice("yes", "Yes"), Choice("no", "No")), default="no")
    yield Question("range", "How far?", minimum=0, maximum=12, default=6)


class ToyApp(App[None]):
    CSS_PATH: ClassVar[list[Any]] = [STYLES[0]]
    """The shared widgets' sheet (common.tcss: the key bar's and the logs' own rules),
    as the toy had them before issue 20 (their DEFAULT_CSS); not wizard.tcss, which it
    never had."""

    def __init__(self, intents: list[IntentOption], dice_mode: str = "physical") -> None:
        super().__init__()
        self.toy = Toy()
        self.wizard = WizardScreen(title="Toy", begin=self.begin, intents=intents,
                                   dice_mode=dice_mode)

    def begin(self, intent: Mapping[str, Any]) -> tuple[Any, Resolution]:
        self.toy.began.append(intent)
        return intent, Resolution(self.toy, toy_steps)

    def on_mount(self) -> None:
        self.push_screen(self.wizard)


def loose(n: int) -> list[IntentOption]:
    return [IntentOption({"type": "x", "n": i}, f"Option {i + 1}") for i in range(n)]


def unit_intents() -> list[IntentOption]:
    """red.0 can do one thing, red.1 two: the unit list comes first."""
    return [IntentOption({"type": "shoot", "unit": "red.0"}, "Shoot"),
            IntentOption({"type": "shoot", "unit": "red.1"}, "Shoot"),
            IntentOption({"type": "hide", "unit": "red.1"}, "Hide")]


def choice_lines(wiz: WizardScreen) -> list[str]:
    choices = wiz.query_one("#wiz-choices")
    return [str(choices.get_option_at_index(i).prompt) for i in range(choices.option_count)]


def test_every_option_has_its_own_key() -> None:
    assert len(set(CHOICE_KEYS)) == len(CHOICE_KEYS)
    assert [choice_key(i) for i in (0, 8, 9, 10, 35, 36)] == ["1", "9", "0", "a", "z", ""]
    bound = {k for b in WizardScreen.BINDINGS if not b.action.startswith("pick")
             for k in b.key.split(",")}
    assert not bound & set(CHOICE_KEYS)


@aiotest
async def test_options_past_nine_have_keys_and_pick_what_they_show() -> None:
    """A Classic shooting phase offers 11 units: options 10 and 11 are 0 and a."""
    app = ToyApp(loose(12))
    async with app.run_test(size=(80, 24)) as pilot:
        lines = choice_lines(app.wizard)
        assert lines[9].startswith("0  Option 10") and lines[10].startswith("a  Option 11")
        await pilot.press("a")
        assert app.toy.began == [{"type": "x", "n": 10}]


@aiotest
async def test_a_single_action_is_not_skipped_so_keys_keep_their_step() -> None:
    """Unit 1 has one action: "1" "1" picks the unit, then that action; a third key
    answers the first step, never the step after (the wrong "leader near?" answer)."""
    app = ToyApp(unit_intents())
    async with app.run_test(size=(80, 24)) as pilot:
        wiz = app.wizard
        await pilot.press("1")
        assert wiz.resolution is None and choice_lines(wiz) == ["1  Shoot"]
        await pilot.press("1")
        assert app.toy.began == [{"type": "shoot", "unit": "red.0"}]
        assert wiz.resolution is not None and wiz.resolution.answers == []


@aiotest
async def test_one_legal_unit_still_gets_the_unit_chooser_issue_26() -> None:
    """Only red.1 can act: "a 1 2" must still be unit 1, its action 2 ("Hide"), never
    action 1 and then the first step answered with 2 (issue 26)."""
    app = ToyApp(unit_intents()[1:])
    async with app.run_test(size=(80, 24)) as pilot:
        wiz = app.wizard
        assert wiz.resolution is None and len(choice_lines(wiz)) == 1
        assert "Choose a unit" in str(wiz.query_one("#wiz-headline").render())
        await pilot.press("1", "2")
        assert app.toy.began == [{"type": "hide", "unit": "red.1"}]
        assert wiz.resolution is not None and wiz.resolution.answers == []


@aiotest
async def test_generated_enter_rolls_and_takes_a_number_but_never_a_choice() -> None:
    """Enter rolls; on a list just arrived it picks nothing (issue 11); on a number
    question it takes the default, as with physical dice (issue 26)."""
    app = ToyApp(loose(1), dice_mode="generated")
    async with app.run_test(size=(80, 24)) as pilot:
        wiz = app.wizard
        await pilot.press("1", "enter", "enter")  # pick, roll, then Enter on arrival
        res = wiz.resolution
        assert res is not None and len(res.answers) == 1 and res.step.key == "leader"
        assert "Enter does not answer" in str(wiz.query_one("#wiz-feedback").render())
        await pilot.press("up", "enter")  # moved to "Yes": an explicit choice
        assert res.answers[1] == "yes" and res.step.key == "range"
        await pilot.press("enter")  # an empty Enter takes the default (6)
        assert res.done and res.answers[2] == 6


@aiotest
async def test_physical_enter_still_takes_the_highlighted_default() -> None:
    app = ToyApp(loose(1))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("1", "ctrl+r", "enter")
        res = app.wizard.resolution
        assert res is not None and res.answers[1] == "no"


@aiotest
async def test_a_resolved_wizard_shown_again_still_confirms_on_enter() -> None:
    """Another screen opened and closed over the resolved wizard (the quit question,
    help) leaves nothing focused: Textual's auto focus took the hidden choice list,
    and Enter went to it instead of confirming."""
    app = ToyApp(loose(1))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("1", "4", "5", "enter", "2", "enter")
        wiz = app.wizard
        assert wiz.resolution is not None and wiz.resolution.done
        app.push_screen(Screen())
        await pilot.pause()
        app.pop_screen()
        await pilot.pause()
        assert wiz.focused is None
        await pilot.press("enter")
        assert app.screen is not wiz  # confirmed: the wizard is dismissed


def inside(inner: Any, outer: Any) -> bool:
    return (outer.x <= inner.x and inner.right <= outer.right
            and outer.y <= inner.y and inner.bottom <= outer.bottom)


def assert_whole(app: Any) -> None:
    """Every part of the wizard on screen, none overlapping another."""
    wiz = app.screen
    assert isinstance(wiz, WizardScreen)
    screen = wiz.region
    parts = [w for w in wiz.query("#wiz-title, #wiz-history, #wiz-odds, #wiz-step, KeyBar")
             if w.display]
    for w in parts:
        assert inside(w.region, screen), (w, w.region, screen)
    for a, b in pairwise(parts):
        assert not a.region.overlaps(b.region), (a, b)
    step = wiz.query_one("#wiz-step").region
    for w in wiz.query("#wiz-headline, #wiz-input, #wiz-choices"):
        if w.display:
            assert w.region.height and inside(w.region, step), (w, w.region, step)


def assert_step_shown(wiz: WizardScreen) -> None:
    step = wiz.resolution.step
    assert step_headline(step) in str(wiz.query_one("#wiz-headline").render())


@aiotest
async def test_a_resize_to_60x20_and_back_leaves_the_wizard_usable(demo_paths) -> None:
    """At the first to-hit roll, odds panel shown: 60x20, the dice typed there, back
    to 80x24 and the next roll made; the step whole at every size."""
    app = battle_app(session_at(*demo_paths, draws=2))
    async with app.run_test(size=(80, 24)) as pilot:
        await to_first_hit_roll(pilot)
        wiz = app.screen
        assert isinstance(wiz, WizardScreen) and wiz.query_one(OddsPanel).display
        await pilot.resize_terminal(60, 20)
        assert_whole(app)
        assert_step_shown(wiz)
        step = wiz.resolution.step
        assert isinstance(step, DiceRequest) and wiz.focused is wiz.query_one("#wiz-input")
        await pilot.press(*keys_for(step, entered=True))
        assert len(wiz.resolution.answers) > 0 and wiz.resolution.step is not step
        await pilot.resize_terminal(80, 24)
        assert_whole(app)
        assert_step_shown(wiz)
        answered = len(wiz.resolution.answers)
        await pilot.press(*keys_for(wiz.resolution.step, entered=False))
        assert len(wiz.resolution.answers) == answered + 1


@aiotest
async def test_the_resolved_summary_is_readable_at_22_rows_issue_26(demo_paths) -> None:
    """At 80x22 "Resolved. Confirm" showed only the tail of the last line
    ("possible)."): the summary takes the rows, and scrolls back (↑, Home) to every
    roll of the action before confirming."""
    from ch_helpers import has, screen_text

    app = battle_app(session_at(*demo_paths, draws=2), dice_mode="generated")
    async with app.run_test(size=(80, 22)) as pilot:
        await to_first_hit_roll(pilot)
        wiz = app.screen
        assert isinstance(wiz, WizardScreen)
        for _ in range(30):
            if wiz.resolution.step is None:
                break
            await pilot.press(*keys_for(wiz.resolution.step, entered=False))
        await pilot.pause()
        assert wiz.resolution.done and wiz.has_class("-tiny")
        assert wiz.query_one("#wiz-history").region.height >= 14
        history = wiz.query_one("#wiz-history")
        notes = [n.text for n in wiz.resolution.ctx.notes]
        seen = set()
        for key in ("end", *["up"] * 30):
            await pilot.press(key)
            assert "Confirm" in screen_text(app)
            seen |= {n for n in notes if has(history.render().plain, n)}
        assert seen == set(notes)
        assert has(history.render().plain, notes[0])  # scrolled back to the beginning
        events = len(app.session.game.log)
        await pilot.press("enter")  # the summary scrolled, Enter still confirms
        assert len(app.session.game.log) == events + 1

"""Issue 22, what the first pass left: a steady ``o`` and a key bar that always ends
with quit and its word, a table's legend named in its title when it has no line, a
unit's card that follows the game while it is open, Double Tap's "This turn", a score
panel that abbreviates visibly with the whole text one key away."""

from __future__ import annotations

import random

import pytest
from app_helpers import aiotest, battle_app
from board_helpers import BUSY, busy_session, screen_lines

from deathzap_tui.app.battle.battle import BattleScreen
from deathzap_tui.app.battle.score import MORE, fit_score, render_score
from deathzap_tui.app.battle.unitcard import UnitCardScreen, render_card
from deathzap_tui.app.battle.units import UnitTable, wrap
from deathzap_tui.app.common.keybar import KeyBar
from deathzap_tui.headless.describe import auto_answer
from deathzap_tui.rules.doubletap import view as dt_view
from deathzap_tui.rules.ruleset import END, SIDES


def _bar_keys(bar: KeyBar) -> dict[str, bool]:
    return {f"{key} {word}": enabled for key, word, _a, enabled, *_ in bar._items}


@pytest.mark.parametrize("ruleset", list(BUSY))
@aiotest
async def test_other_actions_keep_their_place_dimmed(ruleset, workdir) -> None:
    """"o Other actions" appeared and disappeared: it is always listed, dimmed while
    no other action applies, and then says why when pressed."""
    app = battle_app(busy_session(ruleset, workdir))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        board = app.screen
        assert isinstance(board, BattleScreen)
        keys = _bar_keys(board.query_one(KeyBar))
        assert keys["o Other"] is bool(board._others())
        assert "o Other" in board.query_one(KeyBar).render().plain
        if not board._others():
            assert board.check_action("other", ()) is None
            await pilot.press("o")
            await pilot.pause()
            assert any("no other action now" in str(n.message)
                       for n in app._notifications)


@pytest.mark.parametrize("width", [80, 60, 40])
@aiotest
async def test_quit_always_ends_the_key_bar_with_its_word(width, workdir) -> None:
    app = battle_app(busy_session("deathzap3", workdir))
    async with app.run_test(size=(width, 24)) as pilot:
        await pilot.pause()
        shown = app.screen.query_one(KeyBar).render().plain
        assert shown.rstrip().endswith("^q Quit") and len(shown) <= width
        assert screen_lines(app)[-1].rstrip().endswith("^q Quit")


@pytest.mark.parametrize("ruleset", list(BUSY))
@aiotest
async def test_every_column_not_shown_is_named_on_screen(ruleset, workdir) -> None:
    """Deathzap 3's busy board at 80x24 had no line for its legend: Skill and Where went
    to the card unnamed. A column a table leaves out is named on screen, in the legend
    or, when it has no line, in brief in the table's title ("card: Skill, Where")."""
    session = busy_session(ruleset, workdir)
    view = session.view()
    app = battle_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = "\n".join(screen_lines(app))
        for side in SIDES:
            table = app.screen.query_one(f"#units-{side}", UnitTable)
            header = table.render().plain.split("\n")[0].split()
            title = str(table.border_title)
            for column, hint in zip(view.columns, view.column_hints, strict=False):
                if column in header or (hint.short and hint.short in header):
                    continue
                assert ("on the unit card: " in text and column in text.split(
                    "on the unit card: ")[1].split("\n")[0]) or \
                    ("card: " in title and column in title.split("card: ")[1]), \
                    (side, column, title)


@aiotest
async def test_deathzap3_names_skill_and_where_in_the_titles_at_80x24(workdir) -> None:
    app = battle_app(busy_session("deathzap3", workdir))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        lines = screen_lines(app)
        titles = [line for line in lines if line.startswith("━")]
        assert len(titles) == 2
        for title in titles:
            assert "card: Skill, Where" in title, title
        assert not any("on the unit card" in line for line in lines)


def _play_until(session, changed, seed: int = 3, moves: int = 40) -> None:
    """Legal moves (never the end) until ``changed()`` holds."""
    pick = random.Random(seed)
    for _ in range(moves):
        if changed():
            return
        action = session.begin(pick.choice(
            [o for o in session.intents() if o.group != END]).intent)
        while action.resolution.step is not None:
            action.resolution.answer(auto_answer(action.resolution.step))
        session.commit(action)
    raise AssertionError("the game never changed the unit")


@pytest.mark.parametrize("ruleset", ["plasmashok", "deathzap3"])
@aiotest
async def test_an_open_card_follows_the_game(ruleset, workdir) -> None:
    """A card showed the unit as it was when opened: when the game moves on under it
    (a joined table's push, a watched save: the board is refreshed), the card shows the
    unit as it is now, still the same unit."""
    session = busy_session(ruleset, workdir)
    app = battle_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        board = app.screen
        assert isinstance(board, BattleScreen)
        await pilot.press("c")
        card = app.screen
        assert isinstance(card, UnitCardScreen)
        opened = card.row

        def now():
            return next(r for r in board.board_rows(session.view()) if r.id == opened.id)

        _play_until(session, lambda: now() != opened)
        board.refresh_board()
        await pilot.pause()
        assert app.screen is card and card.row == now() != opened
        words = " ".join(" ".join(screen_lines(app)).split())
        shown = " ".join(render_card(card.columns, now()).plain.split())
        assert shown[:160] in words and shown != " ".join(
            render_card(card.columns, opened).plain.split())


def test_double_taps_card_says_what_it_can_of_this_turn(workdir) -> None:
    """Double Tap keeps no record of a unit's actions: its card's "This turn" says whose
    turn it is, whether the unit may act (its side's turn) or react (DT §6, DT-R3; not
    when stunned, DT §5), and the markers that last until it acts or the turn ends."""
    state = busy_session("doubletap", workdir).game.state
    assert state.stage == "battle" and not state.over
    ours = next(u for u in state.units[state.player] if u.in_play)
    theirs = next(u for side in SIDES if side != state.player
                  for u in state.units[side] if u.in_play)

    def this_turn(unit):
        return dict(dt_view.unit_card(state, unit)).get("This turn", ())

    mine = this_turn(ours)
    assert mine[0].startswith(f"Round {state.round}, ") and "activation point" in mine[0]
    assert mine[1] == ("may act now" if dt_view.may_act(state, ours) else "cannot act now")
    theirs.stunned = False
    assert "may react once to each enemy action (DT §6, DT-R3)" in this_turn(theirs)
    theirs.stunned, theirs.hacked, theirs.flashed_until = True, True, state.player
    lines = " ".join(this_turn(theirs))
    assert "cannot react while stunned" in lines and "next action is spent recovering" in lines
    assert "-1 to its next attack or block roll" in lines and "-2 to its quality" in lines
    killed = next((u for side in SIDES for u in state.units[side] if not u.alive), None)
    if killed is not None:
        assert this_turn(killed) == ()


def test_the_score_panel_abbreviates_where_the_reader_sees_it(workdir) -> None:
    """At 80x24 a long objective scrolled inside the score panel and looked cut: the
    panel shows what fits, ends what it cuts with "…", and says the whole text is one
    key away; with room, it is all there."""
    view = busy_session("doubletap", workdir).view()
    assert fit_score(view, 22, 100) == render_score(view)
    whole = render_score(view).plain.split("\n")
    for height in (4, 6, 9):
        lines = fit_score(view, 22, height).plain.split("\n")
        assert lines[-1] == MORE
        assert sum(len(wrap(line, 22)) for line in lines) <= height
        shown = lines[:-1]
        for n, line in enumerate(shown):  # whole paragraphs, the last maybe abbreviated
            if line != whole[n]:
                assert n == len(shown) - 1 and line.endswith(" …")
                assert whole[n].startswith(line[:-2])
    assert fit_score(view, 22, 9).plain.split("\n")[-2].endswith(" …")


@aiotest
async def test_the_whole_score_is_one_key_away(workdir) -> None:
    from deathzap_tui.app.common.help import TextScreen

    session = busy_session("doubletap", workdir)
    view = session.view()
    app = battle_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert any(line.rstrip().endswith(MORE) for line in screen_lines(app))
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, TextScreen)
        words = " ".join(" ".join(screen_lines(app)).split())
        for line in view.objectives:
            assert " ".join(line.split()) in words


@aiotest
async def test_classics_first_melee_is_titled_whole_at_120x40(workdir) -> None:
    """At 120x40 Classic's first melee lost the end of its wizard's title (the names
    of the units in the melee): the title wraps onto a second line instead."""
    from deathzap_tui.app.wizard.wizard import WizardScreen

    session = busy_session("classic", workdir)

    def fights():
        return [o for o in session.intents() if o.intent.get("type") == "fight"]

    _play_until(session, lambda: bool(fights()))
    fight = max(fights(), key=lambda o: len(o.label))
    app = battle_app(session)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.screen.run_intent(fight)
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, WizardScreen)
        region = app.screen.query_one("#wiz-title").region
        lines = screen_lines(app)[region.y:region.bottom]
        words = " ".join(" ".join(line[region.x:region.right] for line in lines).split())
        assert words.endswith(" ".join(fight.label.split())), words

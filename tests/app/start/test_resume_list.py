"""Issue 22: the start screen's resume list at 80x24 says each save's ruleset,
whether its game is finished and who won (or whose move it is), and wraps between
words, never inside a name."""

from __future__ import annotations

from typing import Any

from app_helpers import aiotest, play_out, session_at

from deathzap_tui.app.app import DeathzapApp, Launch
from deathzap_tui.rules.ruleset import END


def finished(demo_paths: Any, name: str) -> Any:
    session = session_at(*demo_paths, options={"end": "agreement"}, save=name)
    (end,) = [o for o in session.intents() if o.group == END]
    session.commit(play_out(session, end))
    assert session.view().over
    return session


def rows(app: Any) -> list[str]:
    """The resume list as drawn, one row of the screen a line."""
    saves = app.screen.query_one("#saves")
    return [strip.text for strip in saves.render_lines(saves.region.reset_offset)]


async def states_shown(app: Any, pilot: Any) -> None:
    """Wait until the resume list shows how the games stand (read in a thread, the
    states are shown as they come)."""
    await pilot.pause()
    await app.workers.wait_for_complete()
    for _ in range(200):
        if "in progress:" in " ".join(rows(app)):
            break
        await pilot.pause(0.05)


@aiotest
async def test_the_resume_list_says_ruleset_state_and_result(demo_paths) -> None:
    done = finished(demo_paths, "a-long-save-name-for-a-finished-game")
    going = session_at(*demo_paths, save="going")
    result, title = done.view().result, done.ruleset.title
    app = DeathzapApp(Launch("start", seed=7))
    async with app.run_test(size=(80, 24)) as pilot:
        await states_shown(app, pilot)
        shown = rows(app)
        text = " ".join(line.strip() for line in shown)
        assert title in text and "finished:" in text and "in progress:" in text
        assert result.split()[0] in text  # who won (the result's first word)
        words = {w for s in (done, going) for n in (s.game.red.name, s.game.black.name)
                 for w in n.split()}
        cells = [w for line in shown for w in line.split()]
        assert words <= set(cells), words - set(cells)  # every word of every name whole
        long_name = [w for w in cells if w.startswith("a-long-save")]
        assert long_name and all(w.endswith("…") or w == "a-long-save-name-for-a-finished"
                                 "-game" for w in long_name), long_name
        assert not any(w.startswith("-") for w in cells)  # nothing cut across rows


@aiotest
async def test_the_resume_list_says_how_games_stand_from_their_summaries(
        demo_paths, monkeypatch) -> None:
    """Each save's summary says how its game stands: no game is loaded to list them."""
    from deathzap_tui.session import Session

    done = finished(demo_paths, "done")
    going = session_at(*demo_paths, save="going")
    now = going.view().prompt

    def not_loaded(*_args: Any) -> None:
        raise AssertionError("a save's game was loaded to list it")

    monkeypatch.setattr(Session, "read", not_loaded)
    app = DeathzapApp(Launch("start", seed=7))
    async with app.run_test(size=(80, 24)) as pilot:
        await states_shown(app, pilot)
        text = " ".join(line.strip() for line in rows(app))
    assert f"finished: {done.view().result.split()[0]}" in text
    assert "in progress:" in text and now.split()[0] in text
    assert text.count(done.ruleset.title) == 2


@aiotest
async def test_saves_past_the_list_s_box_are_wrapped_beside_its_scrollbar(
        demo_paths, monkeypatch) -> None:
    """Issue 21: saves that overflow the list are wrapped to the width its scrollbar
    leaves, once (the scrollbar appearing does not wrap them again: a second frame)."""
    from deathzap_tui.app.frames import SteadyOptionList

    for n in range(6):
        session_at(*demo_paths, save=f"save-{n}")
    fills = []
    real = SteadyOptionList.add_options
    monkeypatch.setattr(SteadyOptionList, "add_options",
                        lambda self, options: (options and fills.append(self.id))
                        or real(self, options))
    app = DeathzapApp(Launch("start", seed=7))
    async with app.run_test(size=(80, 24)) as pilot:
        await states_shown(app, pilot)
        saves = app.screen.query_one("#saves")
        texts = [saves.get_option_at_index(i).prompt for i in range(saves.option_count)]
        assert saves.show_vertical_scrollbar and len(texts) == 6
        room = saves.content_region.width - saves.styles.scrollbar_size_vertical
        assert saves.scrollable_content_region.width == room
        assert all(len(line) <= room for text in texts for line in text.plain.split("\n"))
        assert any(len(line) > room - 2 for text in texts for line in text.plain.split("\n"))
        assert fills.count("saves") == 1
        words = {w for text in texts for w in text.plain.split()}
        assert {f"save-{n}" for n in range(6)} <= words  # every name whole

"""``deathzap club session --hub SOCK --member NAME``: the app an SSH session runs.

The club server (:mod:`.server`) starts it on the session's pty with the session's
token in :data:`~.hub.TOKEN_ENV`; the hub, not this process, says who the member is
(``--member`` must match it). The first screen is the lobby
(:mod:`.lobbyscreen`); from there a member challenges (:mod:`.lobbyform`), accepts,
declines, and opens games.

An open game is today's joined game: :class:`LobbyApp` is a
:class:`~deathzap_tui.app.remote.app.JoinedApp` that attaches a
:class:`~deathzap_tui.net.client.RemoteSession` on the game's referee socket (the one
the hub's ``open`` names, as the side it says is this member's), so the battle
screen, the wizard (each answers their own steps, the referee rolls generated dice,
hidden information stays hidden, undo asks the other player) and the game-over
report are the ones ``deathzap join`` shows. On opening, "since you last looked"
shows what happened meanwhile. ctrl+l goes back to the lobby at any step: leaving is
a dropped link to the referee, which keeps an action in progress for its player.

The hub pushes events (a move, a challenge, a game over): the lobby is asked again,
the game's unread marker shows, and the terminal bell rings.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual.binding import Binding
from textual.widgets import Static

from deathzap_tui.app.common.dialogs import PickScreen
from deathzap_tui.app.common.paint import repaint
from deathzap_tui.app.common.text import clean
from deathzap_tui.app.remote.app import JoinedApp
from deathzap_tui.app.remote.battle import JoinedBattleScreen
from deathzap_tui.app.remote.wizard import JoinedWizardScreen
from deathzap_tui.app.start.since import SinceScreen
from deathzap_tui.app.styles import STYLES
from deathzap_tui.club.hub import TOKEN_ENV, HubClient, HubError
from deathzap_tui.club.lobbyform import GameFormScreen
from deathzap_tui.club.lobbyscreen import LobbyScreen
from deathzap_tui.net.client import RemoteSession
from deathzap_tui.rules import registry
from deathzap_tui.rules.steps import Refused

FORCE_FILE = "new-force.toml"
"""The name of the file a force built in the lobby is edited in (a private temporary
folder; what the club keeps is its text, under the force's own name)."""
RINGS = frozenset({"your-move", "moved", "challenge", "accepted", "game-over"})


class ClubWizardScreen(JoinedWizardScreen):
    """The joined wizard; a step waiting on the other player also says that this
    member may go back to the lobby meanwhile."""

    def _redraw_waiting(self, step: Any) -> None:
        super()._redraw_waiting(step)
        repaint(self.query_one("#wiz-reason", Static),
                Text("Their answer appears here as soon as they give it. ctrl+l: back "
                     "to the lobby; this step waits for them meanwhile.", style="dim"))


class ClubBattleScreen(JoinedBattleScreen):
    """The joined battle screen, with ctrl+l back to the lobby in its key bar."""

    BINDINGS: ClassVar[list[Any]] = [Binding("ctrl+l", "app.lobby", "Lobby", priority=True)]

    def wizard(self, **kw: Any) -> ClubWizardScreen:
        return ClubWizardScreen(side=self.session.side, **kw)

    def palette_commands(self) -> list[tuple[str, str, Any]]:
        app: Any = self.app
        return [*super().palette_commands(),
                ("Back to the lobby", "Leave this game for now (it waits for you)",
                 app.action_start_screen)]


class LobbyApp(JoinedApp):
    """The lobby, and each game opened from it as a joined game."""

    CSS_PATH: ClassVar[list[Any]] = [*STYLES, Path(__file__).resolve().parent / "lobby.tcss"]
    TITLE = "deathzap club"
    BINDINGS: ClassVar[list[Any]] = [
        Binding("ctrl+l", "lobby", "Lobby", priority=True, show=False)]

    def __init__(self, hub_path: str | Path, member: str, token: str) -> None:
        super().__init__(None, side=None, dice_mode="generated")
        self.hub_path = Path(hub_path)
        self.member = member
        self.token = token
        self.hub = HubClient()
        self.lobby = LobbyScreen(member)
        self.data: dict[str, Any] = {}
        """The last ``lobby`` reply."""
        self.game_open: int | None = None
        """The game this terminal shows now, if any."""

    def first_screen(self) -> LobbyScreen:
        return self.lobby

    def on_mount(self) -> None:  # DeathzapApp.on_mount (called too) pushes the lobby
        self.run_worker(self._connect(), name="hub", exclusive=True, group="hub")

    async def on_unmount(self) -> None:
        """Quitting leaves an open game as a dropped link does, and says goodbye to
        the hub."""
        if self.session is not None:
            await asyncio.to_thread(self.session.close)
        await self.hub.close()

    # --- the hub ------------------------------------------------------------------
    async def _connect(self) -> None:
        try:
            member = await self.hub.connect(str(self.hub_path), self.token)
        except (OSError, HubError) as exc:
            self.say(f"Cannot reach the club: {exc}", error=True)
            return
        if member != self.member:
            await self.hub.close()
            self.say(f"The club says this session is {member}, not {self.member}.",
                     error=True)
            return
        if await self.ask("subscribe") is None:
            return
        await self.refresh_lobby()
        await self._listen()

    async def _listen(self) -> None:
        """Follow the hub's pushes: each burst asks for the lobby once, rings once."""
        while True:
            events = [await self.hub.events.get()]
            while not self.hub.events.empty():
                events.append(self.hub.events.get_nowait())
            await self.refresh_lobby()
            if any(self._rings(e) for e in events):
                self.bell()
            for event in events:
                self.say(str(event.get("text", "")))

    def _rings(self, event: Mapping[str, Any]) -> bool:
        """A push worth the bell: anything but a move in the game being looked at (the
        board shows it) unless it makes it this member's move."""
        if event.get("what") not in RINGS:
            return False
        return not (event.get("what") == "moved" and event.get("game") == self.game_open
                    and self.game_open is not None)

    async def ask(self, t: str, **fields: Any) -> dict[str, Any] | None:
        """The hub's reply to a request, or ``None`` after saying why it failed."""
        try:
            return await self.hub.request(t, **fields)
        except HubError as exc:
            self.say(str(exc), error=True)
            return None

    async def refresh_lobby(self) -> None:
        data = await self.ask("lobby")
        if data is not None:
            self.data = data
            self.lobby.show(data)

    def say(self, text: str, *, error: bool = False) -> None:
        """Tell the member: under the lobby's list, or as a notice over a game."""
        if self.screen is self.lobby:
            self.lobby.say(text, error=error)
        else:
            self.notify(clean(text, oneline=True), markup=False, timeout=6,
                        severity="error" if error else "information")

    # --- what the lobby and its form ask (messages up) -------------------------------
    def on_lobby_screen_open_game(self, message: LobbyScreen.OpenGame) -> None:
        self.open_game(message.game)

    def on_lobby_screen_accept(self, message: LobbyScreen.Accept) -> None:
        self.accept(message.challenge)

    def on_lobby_screen_decline(self, message: LobbyScreen.Decline) -> None:
        self.decline(message.challenge)

    def on_lobby_screen_set_public(self, message: LobbyScreen.SetPublic) -> None:
        self.set_public(message.game, message.public)

    def on_game_form_screen_build_force(self, message: GameFormScreen.BuildForce) -> None:
        self.build_force(message.ruleset_id, message.done)

    # --- lobby keys -----------------------------------------------------------------
    def action_refresh_lobby(self) -> None:
        self.run_worker(self.refresh_lobby(), group="lobby")

    def action_new_game(self) -> None:
        self.run_worker(self._form(None), group="lobby")

    def accept(self, challenge: Mapping[str, Any]) -> None:
        self.run_worker(self._form(challenge), group="lobby")

    async def _form(self, challenge: Mapping[str, Any] | None) -> None:
        forces = await self.ask("forces")
        if forces is None:
            return
        fields = await self.push_screen_wait(GameFormScreen(forces["forces"], challenge))
        if fields is None:
            return
        if challenge is None:
            reply = await self.ask("challenge", **fields)
            if reply is not None:
                made = reply["challenge"]
                to = made.get("to") or "anyone"
                self.say(f"Challenge c{made['challenge']} made, to {to}.")
                await self.refresh_lobby()
            return
        reply = await self.ask("accept", **fields)
        if reply is not None:
            await self.refresh_lobby()
            await self._open(int(reply["game"]["game"]))

    def decline(self, challenge: Mapping[str, Any]) -> None:
        async def declining() -> None:
            if await self.ask("decline", challenge=int(challenge["challenge"])) is not None:
                self.say(f"Challenge c{challenge['challenge']} "
                         f"{'withdrawn' if challenge.get('mine') else 'declined'}.")
                await self.refresh_lobby()

        self.run_worker(declining(), group="lobby")

    def set_public(self, game: int, public: bool) -> None:
        async def setting() -> None:
            if await self.ask("public", game=game, public=public) is not None:
                now = "public: others may watch it" if public else "private"
                self.say(f"Game {game} is {now}.")
                await self.refresh_lobby()

        self.run_worker(setting(), group="lobby")

    # --- forces built here ----------------------------------------------------------
    def action_new_force(self) -> None:
        rulesets = [(rid, f"{registry.get(rid).title} ({rid})") for rid in registry.ids()]

        def saved(row: Mapping[str, str] | None, problems: Sequence[str] = ()) -> None:
            if row is not None:
                self.say(f"Force {row['name']} kept in the club.")

        self.push_screen(PickScreen("A new force: its ruleset", rulesets),
                         lambda rid: self.build_force(rid, saved) if rid else None)

    def build_force(self, ruleset_id: str,
                    done: Callable[..., None]) -> None:
        """Edit a new force of the ruleset (the force editor, on a file in a private
        temporary folder); once saved there, keep it in the club under your name:
        ``done(row)``, or ``done(None, problems)`` with what ``deathzap check`` found
        (a force with errors is refused)."""
        from deathzap_tui.app.editor.editor import EditorScreen  # lazy: the editor, ~38 ms CPU
        from deathzap_tui.forcedoc import ForceDocument  # lazy: the editor, ~38 ms CPU

        folder = Path(tempfile.mkdtemp(prefix="deathzap-force-"))
        path = folder / FORCE_FILE
        doc = ForceDocument.open(path, ruleset_id)

        def edited(was_saved: bool | None) -> None:
            if not was_saved:
                shutil.rmtree(folder, ignore_errors=True)
                done(None)
                return
            self.run_worker(keep(), group="lobby")

        async def keep() -> None:
            try:
                text = path.read_text(encoding="utf-8")
            except OSError as exc:
                done(None, [f"could not read the edited force: {exc}"])
                return
            finally:
                shutil.rmtree(folder, ignore_errors=True)
            try:
                reply = await self.hub.request("save_force", toml=text)
            except HubError as exc:
                done(None, [str(exc)])
                return
            done(reply["force"])

        self.push_screen(EditorScreen(doc), edited)

    # --- games ----------------------------------------------------------------------
    def open_game(self, game: int) -> None:
        self.run_worker(self._open(game), group="lobby", exclusive=True)

    async def _open(self, game: int) -> None:
        """Open a game at its referee as the side the hub says is this member's, with
        "since you last looked" over it when anything happened meanwhile."""
        if self.session is not None:
            return
        reply = await self.ask("open", game=game)
        if reply is None:
            return
        try:
            session = await asyncio.to_thread(RemoteSession.connect, reply["socket"],
                                              reply["side"], name=self.member)
        except (OSError, Refused) as exc:
            self.say(f"Game {game}: cannot join its table ({exc})", error=True)
            return
        self.attach(session)
        self.side = None if reply["side"] == "watch" else reply["side"]
        self.sub_title = f"game {game}"
        self.game_open = game
        battle = ClubBattleScreen()
        await self.push_screen(battle)
        self.reopen_action(battle)
        since = [str(line) for line in reply.get("since", ())]
        if since:
            self.push_screen(SinceScreen(f"Game {game}: since you last looked", since))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "lobby":
            return self.session is not None
        return super().check_action(action, parameters)

    async def action_lobby(self) -> None:
        """Leave the game for the lobby: the link to its referee closes (an action in
        progress stays there, as over a dropped link) and every screen of it goes."""
        session = self.session
        if session is None:
            return
        await asyncio.to_thread(session.close)
        self._request_open = None
        while self.screen is not self.lobby and len(self.screen_stack) > 1:
            await self.pop_screen()
        self.session = None
        self.side = None
        self.game_open = None
        self.sub_title = ""
        await self.refresh_lobby()

    def action_start_screen(self) -> None:
        """The start screen of a club session is its lobby."""
        self.run_worker(self.action_lobby(), group="lobby")

    def remote_changed(self) -> None:
        if self.session is not None:
            super().remote_changed()

    def reopen_action(self, screen: Any) -> None:
        if self.session is not None:
            super().reopen_action(screen)


# --- the command ------------------------------------------------------------------

def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hub", required=True, metavar="SOCK",
                        help="the club hub's socket (the club server starts this)")
    parser.add_argument("--member", required=True, metavar="NAME",
                        help="the member this session is (the hub confirms it)")


def run(args: argparse.Namespace) -> int:
    token = os.environ.get(TOKEN_ENV, "")
    if not token:
        print(f"deathzap club session: no session token ({TOKEN_ENV}); the club server "
              "runs this for each SSH session (`deathzap club serve`)", file=sys.stderr)
        return 1
    LobbyApp(args.hub, args.member, token).run(mouse=False)
    return 0

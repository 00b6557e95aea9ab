"""A game as the app and the CLI hold it: one :class:`Game` bound to where it is
kept (:class:`~deathzap_tui.gamestore.GameStore`: a save's files, or a club's store).

Every event is written to the store before the call that caused it returns, so the
store is always current and quitting (or being killed) loses nothing committed. The
action in progress is kept with it (:mod:`.inflight`) as it is answered, so that
quitting mid-action, a crash or a dropped link loses nothing of it either.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterable, Mapping, Sequence
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

from deathzap_tui import savecache, saves
from deathzap_tui.forcefile import load_force
from deathzap_tui.gamestore import GameStore
from deathzap_tui.inflight import InFlight, InFlightError, InFlightStore
from deathzap_tui.rules.events import Event
from deathzap_tui.rules.game import Action, Game
from deathzap_tui.rules.problems import InvalidInput, Problem
from deathzap_tui.rules.report import build_report
from deathzap_tui.rules.ruleset import BoardView, IntentOption, Ruleset
from deathzap_tui.rules.steps import Note
from deathzap_tui.savestore import SaveFileStore

if TYPE_CHECKING:
    from deathzap_tui.rules.report import GameReport


ActionT = TypeVar("ActionT")
"""What :meth:`GameSession.begin` hands out: a :class:`~.rules.game.Action` locally,
a ``net.client.RemoteAction`` standing in for one at a referee's table."""


@runtime_checkable
class GameSession(Protocol[ActionT]):
    """The session protocol: what the app may ask of a game, wherever it is played.
    :class:`Session` (this process holds the game) and ``net.client.RemoteSession``
    (a referee process does; no seed or hidden state here) implement it;
    ``tests/test_session_protocol.py`` type-checks both against it. The app's hints
    say ``GameSession[Any]`` where either will do."""

    @property
    def ruleset(self) -> Ruleset[Any, Any]: ...

    @property
    def can_undo(self) -> bool: ...

    @property
    def can_redo(self) -> bool: ...

    @property
    def over(self) -> bool: ...

    def view(self) -> BoardView: ...

    def intents(self) -> list[IntentOption]: ...

    def begin(self, intent: Mapping[str, Any], by: str = "") -> ActionT: ...

    def commit(self, action: ActionT) -> Event: ...

    def undo(self, by: str = "") -> Event | None: ...

    def redo(self, by: str = "") -> Event | None: ...

    def narrative(self, *, last: int | None = None) -> list[str]: ...

    def report(self) -> GameReport: ...


def new_deal_seed() -> int:
    """A new game's secret deal seed: unguessable, and a TOML integer (< 2**63)."""
    return secrets.randbits(63)


class Session:
    """The local game, and the facade the app talks to.

    The app should use the methods below (``view``, ``intents``, ``begin``,
    ``commit``, ``undo``, ``redo``, ``narrative``) rather than reach into
    ``self.game``: a remote session (a client of a referee process) implements the
    same methods, and never holds the seed or hidden state.

    A new game gets two seeds: the public ``seed`` (the dice: shown, and chosen with
    ``--seed``) and a secret ``deal_seed`` (hidden cards), drawn here from
    :mod:`secrets` and kept only in the game and its save, so two games with the
    same seed still deal differently.
    """

    def __init__(self, game: Game, path: Path | None, *,
                 in_flight: InFlightStore | None = None,
                 store: GameStore | None = None) -> None:
        """``path``: the save (its files are the store); ``store``: where the game is
        kept (a club's game, ``path`` then ``None``; or the save's store that loaded
        it); neither: a session that writes nothing. ``in_flight``: where the action
        in progress is kept (default: the store's place for it)."""
        self.game = game
        self.path = path
        self.store: GameStore | None = store if store is not None else \
            SaveFileStore(path) if path is not None else None
        self.in_flight = in_flight if in_flight is not None else \
            self.store.in_flight if self.store is not None else None
        self._kept = True
        """Whether :attr:`in_flight` may hold a record (one from an earlier sitting,
        until the first event or cancel clears it)."""
        if self.store is not None:
            game.listeners.append(self._autosave)

    @classmethod
    def open(cls, store: GameStore) -> Session:
        """The game kept in ``store`` (a club's game), written back there as it goes."""
        return cls(store.load(), None, store=store)

    @classmethod
    def new(cls, red_path: str | Path, black_path: str | Path, *, seed: int | None = None,
            options: Mapping[str, Any] | None = None, save_path: str | Path | None = None,
            ruleset_id: str | None = None, deal_seed: int | None = None) -> Session:
        """Start a game from two force files, saved under ``save_path`` or, without
        one, under a name made from the forces and the date. ``seed`` and
        ``deal_seed`` default to fresh random ones; a fixed ``deal_seed`` is for tests
        that need the same cards every run."""
        red, black = load_force(red_path), load_force(black_path)
        ids = {red.ruleset.id, black.ruleset.id} | ({ruleset_id} if ruleset_id else set())
        if len(ids) > 1:
            raise InvalidInput([Problem(
                f"the forces are for different rulesets ({red.ruleset.id} and "
                f"{black.ruleset.id})" + (f"; asked for {ruleset_id}" if ruleset_id else ""),
                "ruleset")])
        ruleset = red.ruleset
        game = Game(ruleset, red.force, black.force, ruleset.options(options),
                    secrets.randbelow(2**31) if seed is None else seed,
                    deal_seed=new_deal_seed() if deal_seed is None else deal_seed)
        names = (red.force.name, black.force.name)
        path = (saves.save_path(save_path) if save_path is not None
                else saves.unique_save_path(saves.default_save_name(*names)))
        if save_path is not None and path.exists():
            raise InvalidInput([Problem(f"{path} already exists; resume it with "
                                        f"`deathzap resume {path.stem}` or pick another "
                                        "name", "--save")])
        session = cls(game, path)
        session.save()
        session.keep_action(None)  # one left by an older save of that name is not ours
        return session

    @classmethod
    def resume(cls, name: str | Path) -> Session:
        """Open a save by name (in the saves directory) or path."""
        path = saves.save_path(name)
        store = SaveFileStore(path)  # it keeps what loading read: nothing read twice
        return cls(store.load(), path, store=store)

    @classmethod
    def read(cls, name: str | Path) -> Session:
        """Open a save only to read it: a path to any save file (one sent by the other
        player...) is read where it is and never written to; anything else is a save
        name, opened as :meth:`resume` opens it."""
        path = cls.locate(name)
        return cls(saves.load_game(path), None if path == Path(name) else path)

    @staticmethod
    def locate(name: str | Path) -> Path:
        """The save :meth:`read` reads for ``name``: a path to any save file, else the
        save of that name in the saves directory."""
        path = Path(name)
        if os.path.isfile(path):  # False, not OSError, for a name too long to be a file
            return path
        if len(path.parts) > 1:  # a path, not a name: don't look for it among the saves
            raise saves.SaveError(f"{path} is a folder, not a save file"
                                  if os.path.isdir(path) else f"no save file {path}")
        return saves.save_path(name)

    def save(self) -> None:
        """Write the whole game to its store (a save's snapshot, folding its journal
        in)."""
        if self.store is not None:
            self.store.rewrite(self.game)

    def keep_cache(self) -> None:
        """Cache the game as it stands beside its save, so that the next resume does
        not replay it (:mod:`.savecache`). Only the writer holding the save's lock
        may: done when a writer opens a save, then every ``WRITE_EVERY`` events."""
        if self.store is not None and not self.over:
            self.store.keep_cache(self.game)

    def _autosave(self, game: Game, event: Event) -> None:
        """Keep each event as it happens. A :class:`~deathzap_tui.gamestore.Conflict`
        (another writer got this event number first) reaches the caller, whose game
        is then behind its store: it must reload."""
        assert self.store is not None
        if self.over:
            # A finished game is whole in one place again (one self-contained file).
            self.save()
        else:
            # One event appended: constant cost however long the game (issue 11).
            self.store.append(len(game.log) - 1, event)
            if len(game.log) % savecache.WRITE_EVERY == 0:
                self.keep_cache()
        # The action committed (or any event: the game moved past it) is in the log.
        self.keep_action(None)

    # --- the facade ---------------------------------------------------------
    @property
    def ruleset(self) -> Ruleset[Any, Any]:
        return self.game.ruleset

    def view(self) -> BoardView:
        return self.game.ruleset.view(self.game.state)

    def intents(self) -> list[IntentOption]:
        return self.game.ruleset.intents(self.game.state)

    def begin(self, intent: Mapping[str, Any], by: str = "") -> Action:
        return self.game.begin(intent, by)

    def commit(self, action: Action) -> Event:
        return self.game.commit(action)

    def cancel(self, action: Action) -> Event | None:
        """Give up ``action``: what it showed stays spent (:meth:`Game.cancel`); the
        event recording that, if any."""
        return self.game.cancel(action)

    def undo(self, by: str = "") -> Event:
        return self.game.undo(by)

    def redo(self, by: str = "") -> Event:
        return self.game.redo(by)

    def keep_action(self, action: Action | None) -> None:
        """Keep ``action`` (begun, partly answered) beside the save as it stands now,
        before returning, so that a later sitting resumes it at the same step
        (:meth:`kept_action`); ``None``: there is none any more (cancelled). It
        survives any process dying; a save file's record also survives a power cut,
        a club store's commits without waiting for the disk (one flush per move, issue
        23), so a power cut may lose the step reached, never a move: the action then
        begins again, with the same generated dice (they come from the state). Each
        answer or step back is kept by calling this again; committing, or any other
        event, forgets it. Raises ``OSError`` if it cannot be written."""
        if self.in_flight is None:
            return
        if action is None:
            if self._kept:
                self.in_flight.clear()
                self._kept = False
            return
        self.in_flight.store(InFlight.of(action.intent, action.by,
                                         action.resolution.answers, self.game.log))
        self._kept = True

    def kept_action(self) -> tuple[Action | None, str]:
        """The action kept by :meth:`keep_action` in an earlier sitting, begun again
        and fed its answers (generated dice come again from the same RNG state, so
        they are the same dice), and "". ``None`` if there is none; and if a record
        was there but no longer fits the game (the log moved on, it no longer
        replays, it cannot be read), it is dropped and the message says so, and why."""
        if self.in_flight is None:
            return None, ""
        what = ""
        try:
            record = self.in_flight.load()
        except InFlightError as exc:
            why = f"its record cannot be read ({exc})"
        else:
            if record is None:
                return None, ""
            what = f" ({record.intent.get('type', 'an action')})"
            why = record.stale_for(self.game.log)
            if not why:
                try:
                    action = self.begin(record.intent, record.by)
                    action.resolution.replay(record.answers_in())
                    return action, ""
                except Exception as exc:  # Refused, or answers the rules cannot take
                    why = f"it no longer replays ({exc})"
        self.in_flight.clear()
        self._kept = False
        return None, (f"The action in progress when this game was last open{what} "
                      f"was dropped: {why}.")

    @property
    def can_undo(self) -> bool:
        return self.game.can_undo

    @property
    def can_redo(self) -> bool:
        return self.game.can_redo

    @property
    def over(self) -> bool:
        return self.game.ruleset.is_over(self.game.state)

    def narrative(self, viewer: str | None = None, last: int | None = None) -> list[str]:
        """The whole game so far in plain words, one line per thing that happened
        (only the ``last`` events in force if given: the log's visible end).

        Private notes (``ctx.say(..., to=side)``) are included only for ``viewer``
        ``"red"``/``"black"``; a shared terminal (``None``) never shows them.
        """
        return _visible(chain.from_iterable(self.game.told(last)), viewer)

    def report(self, events: Sequence[Event] | None = None) -> GameReport:
        """The end-of-game report of the game as it stands (over or not), or after
        ``events`` (its :meth:`Game.events` taken earlier: the report may then be
        worked out in another thread while the game goes on).

        A finished game's report is kept beside its save when first made, and read
        back after (:func:`savecache.read_report`: the same report, made from the
        same events by the same code) rather than replayed again: ``deathzap
        report`` reads it too (issue 21)."""
        if self.path is None or (events is None and not self.over):
            return build_report(self.game, events)  # in progress: nothing kept
        events = self.game.events() if events is None else list(events)
        key = savecache.report_key(self.game, events)
        report = savecache.read_report(self.path, key)
        if report is None:
            report = build_report(self.game, events)
            if report.over:
                savecache.write_report(self.path, key, report)
        return report

    def last_lines(self, viewer: str | None = None) -> list[str]:
        """The lines of :meth:`narrative` that tell the last event in force: what an
        undo takes off the end of the log, and a redo puts back."""
        history = self.game.history(1)
        return _visible(history[-1][1], viewer) if history else []


def _visible(notes: Iterable[Note], viewer: str | None) -> list[str]:
    """The text of the notes ``viewer`` may read (see :meth:`Session.narrative`)."""
    return [n.text for n in notes if n.to is None or n.to == viewer]

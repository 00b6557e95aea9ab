"""Playing Deathzap 3 through RemoteSessions: whoever is asked answers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from deathzap_tui.headless.describe import auto_answer
from deathzap_tui.net.client import RemoteSession
from deathzap_tui.net.wire import Waiting
from deathzap_tui.paths import PROJECT_ROOT

DEMOS = sorted((PROJECT_ROOT / "forces").glob("demo-*.toml"))[:2]


def dz3_session(name: str = "dz3", seed: int = 7) -> Any:
    """A saved DZ3 game of the two demo forces after quick set-up."""
    from deathzap_tui.headless.flow import quick_setup
    from deathzap_tui.session import Session

    session = Session.new(DEMOS[0], DEMOS[1], seed=seed, save_path=name)
    quick_setup(session)
    return session


def force_names() -> tuple[str, str]:
    from deathzap_tui.forcefile import load_force

    return load_force(DEMOS[0]).force.name, load_force(DEMOS[1]).force.name


def acting_side(*clients: RemoteSession) -> str | None:
    """The side whose options are offered now (``None``: anyone may draw)."""
    sides = {o.side for c in clients for o in c.intents() if o.side}
    return sides.pop() if len(sides) == 1 else None


def pick(options: list[Any]) -> Any:
    """An activation that shoots if there is one, else any; else the draw."""
    acts = [o for o in options if o.intent.get("type") == "activate"
            and "command" not in o.intent]
    for action in ("shoot", "advance", "fight"):
        found = [o for o in acts if o.intent.get("action") == action]
        if found:
            return found[0]
    draws = [o for o in options if o.intent.get("type") == "draw"]
    return (acts or draws or options)[0]


def play_intent(me: RemoteSession, intent: dict[str, Any],
                on_waiting: Callable[[Any, Waiting], None]) -> None:
    """``me`` begins ``intent``, answers its own steps and commits; while the step
    is another side's (``Waiting``) ``on_waiting(resolution, step)`` sees it through."""
    action = me.begin(intent)
    res = action.resolution
    for _ in range(200):
        step = res.step
        if step is None:
            break
        if isinstance(step, Waiting):
            on_waiting(res, step)
        else:
            res.answer(auto_answer(step))
    me.commit(action)


def play_one(clients: dict[str, RemoteSession], *, only_draw: bool = False,
             log: list[tuple[str, str, str]] | None = None) -> tuple[str, Any]:
    """Play one intent at the table: the acting side begins it, every step is
    answered by the client it belongs to (the defender rolls their own saves), the
    actor confirms. Returns (actor, intent). ``log`` collects (actor, answerer, what)."""
    side = acting_side(*clients.values())
    me = clients[side or "red"]
    options = me.intents()
    draws = [o for o in options if o.intent.get("type") == "draw"]
    option = pick(draws if only_draw and draws else options)

    def foe_answers(res: Any, step: Waiting) -> None:
        foe = clients[step.side]
        assert foe.wait_for(lambda s: (a := s.pending_action()) is not None
                            and not isinstance(a.resolution.step, Waiting)
                            and a.resolution.step is not None)
        theirs = foe.pending_action()
        assert not theirs.mine
        fstep = theirs.resolution.step
        if log is not None:
            log.append((me.side, foe.side, getattr(fstep, "purpose", "")
                        or getattr(fstep, "prompt", "")))
        before = len(res.answers)
        theirs.resolution.answer(auto_answer(fstep))
        assert me.wait_for(lambda s, n=before: len(res.answers) > n)

    play_intent(me, option.intent, foe_answers)
    for c in clients.values():  # everyone has the new state before the next move
        assert c.wait_for(lambda s: s.seq >= me.seq)
    return me.side, option.intent


def play(clients: dict[str, RemoteSession], activations: int,
         log: list[tuple[str, str, str]] | None = None) -> list[tuple[str, Any]]:
    """Draw cards and play until each side has made ``activations`` activations."""
    done: list[tuple[str, Any]] = []
    count = {"red": 0, "black": 0}
    for _ in range(200):
        if min(count.values()) >= activations:
            break
        side = acting_side(*clients.values())
        only_draw = side is not None and count[side] >= activations
        actor, intent = play_one(clients, only_draw=only_draw, log=log)
        done.append((actor, intent))
        if intent.get("type") == "activate":
            count[actor] += 1
    return done

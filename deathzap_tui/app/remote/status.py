"""What a joined terminal says of the table in words: the status line, and an
action in progress as it has been said and answered so far."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from deathzap_tui.app.common.text import clean
from deathzap_tui.headless import describe as d
from deathzap_tui.headless.describe import side_label
from deathzap_tui.net.wire import CANCELLED
from deathzap_tui.rules.ruleset import other_side
from deathzap_tui.rules.steps import Answer, Dice, DiceRequest, Step


def status_text(session: Any) -> Text:
    """"you: RED · red ● black ○ watching 1 · black: saves" (plain, public facts),
    then an undo/redo request, or its answer until the game moves on ("black
    declined your undo")."""
    t = Text()
    side = getattr(session, "side", "")
    t.append(f" {'watching' if side == 'watch' else 'you: ' + side_label(side)} ",
             style="bold reverse")
    presence = session.presence
    for s in ("red", "black"):
        here = presence.get(s, 0) > 0
        t.append(f"  {s} {'●' if here else '○'}", style="" if here else "dim")
    if presence.get("watch"):
        t.append(f"  watching {presence['watch']}", style="dim")
    if not session.connected:
        word = "disconnected" if session.closed else "reconnecting…"
        reason = f" ({clean(session.error, oneline=True)})" if session.error else ""
        t.append(f"   {word}{reason}", style="bold")
        return t
    turn = session.turn
    text = clean(turn.get("text", ""), oneline=True)
    if text:
        mine = turn.get("side") == side
        t.append("   " + ("▶ " if mine else "") + text, style="bold" if mine else "")
    req = session.request
    if req:
        who = "you" if req["by"] == side else req["by"]
        t.append(f"   {who} asked to {req['kind']}", style="italic")
    elif (answer := session.answered) is not None:
        asker = answer["by"]
        whose = "your" if asker == side else f"{asker}'s"
        who = "you" if other_side(asker) == side else other_side(asker)
        t.append(f"   {who} {answer['answer']} {whose} {answer['kind']}",
                 style="bold" if asker == side else "italic")
    return t

NOTE, LATEST, ANSWER = "note", "latest", "answer"
"""The kinds of :func:`said` lines: narrative, narrative of the latest answer, an
answer."""


def said(res: Any, side: str) -> list[tuple[str, str]]:
    """What an action in progress has said and been answered so far, in order, as
    ``side``'s terminal shows it: (kind, text), the notes of the latest answer
    marked ▶ (what that step did)."""
    answers, asked, answerers = res.answers, res.asked, res.answerers
    lines: list[tuple[str, str]] = []
    n = len(answers)
    for k in range(n + 1):
        latest = k == n and n > 0
        lines += [(LATEST, "▶ " + clean(note.text)) if latest else (NOTE, "  " + clean(note.text))
                  for note in res.ctx.notes if note.after == k]
        if k < n:
            lines.append((ANSWER, "  ✓ " + given(asked[k], answers[k], answerers[k], side)))
    return lines


def given(step: Step | None, answer: Answer | None, by: str, side: str) -> str:
    """One answer in words: this terminal's own as the wizard says it ("rolled for
    you: 3 5 6"); another player's with what it answered ("BLACK, saves: rolled 5 2",
    "BLACK: Is the target in cover? — Yes"); "BLACK answered" where it is private."""
    if step is None or answer is None:
        return f"{side_label(by)} answered"
    if by == side:
        return d.answer_line(step, answer)
    if isinstance(step, DiceRequest) and isinstance(answer, Dice):
        what = clean(step.purpose, oneline=True) or "dice"
        if answer.successes is not None:
            return f"{side_label(by)}, {what}: {answer.successes} of {step.count} succeeded"
        how = "rolled" if answer.generated else "entered"
        return f"{side_label(by)}, {what}: {how} {d.faces_text(answer.faces)}"
    return f"{side_label(by)}: {clean(step.prompt, oneline=True)} — {d.answer_line(step, answer)}"


def gone_message(action: Any) -> str:
    """What a terminal says of an action that left the table while its wizard showed
    it, not by this terminal's doing: "" for a commit (the board and the log, which
    show at once, say what it did), who cancelled it, or that it was dropped (a
    referee that did not say how it ended)."""
    ended = action.ended
    if action.committed:
        return ""
    if ended is None or ended.how != CANCELLED:
        return "The action was dropped at the table."
    if action.mine:
        return "The action was cancelled at your other terminal."
    return f"{side_label(ended.by)} cancelled the action."

"""The referee tells each client only the narrative it has not been sent (issue 11: a
hosted move must not cost more as the log grows), and what a client puts together
is always the whole narrative for its eyes (hidden notes included only for their
owner)."""

from __future__ import annotations

import random
from pathlib import Path

from ch_fixtures import play_random_action

from deathzap_tui.net.referee import Table, Told
from deathzap_tui.session import Session

ROOT = Path(__file__).resolve().parents[2]


def test_told_lines_always_add_up_to_the_whole_narrative(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("DEATHZAP_SAVES_DIR", str(tmp_path))
    session = Session.new(ROOT / "forces" / "ch-ironbark-rangers.toml",
                          ROOT / "forces" / "ch-cinder-collective.toml", seed=3,
                          save_path="told", deal_seed=5)
    table = Table(session)
    rnd = random.Random(3)
    shown = {viewer: ([], Told()) for viewer in ("red", "black", None)}
    sent = 0
    for _ in range(60):
        move = rnd.random()
        if move < 0.15 and session.can_undo:
            session.undo()
        elif move < 0.25 and session.can_redo:
            session.redo()
        elif not session.over:
            play_random_action(session.game, rnd)
        for viewer, (lines, told) in shown.items():
            keep, add = table.tell(told, viewer)
            del lines[keep:]
            lines += add
            sent += len(add)
            assert lines == table.narrative(viewer)
    assert sent < 3 * len(table.narrative(None)) + 200  # not the whole log every time

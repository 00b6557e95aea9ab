"""``deathzap edit FILE [--ruleset ID]``: what opens, and what is refused (exit 1)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from deathzap_tui.app.editor import app as editor_app
from deathzap_tui.cli import main
from deathzap_tui.forcedoc import ForceDocument

FORCES = Path(__file__).resolve().parents[2] / "forces"


limits: list[int | None] = []
"""The points limit each editor was run with (``--limit``)."""


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[ForceDocument]:
    """The documents the editor would have been run on (no terminal here)."""
    docs: list[ForceDocument] = []
    limits.clear()

    class Fake:
        def __init__(self, doc: ForceDocument, limit: int | None = None) -> None:
            docs.append(doc)
            limits.append(limit)

        def run(self) -> None:
            pass

    monkeypatch.setattr(editor_app, "EditorApp", Fake)
    return docs


def test_a_missing_file_starts_an_empty_force_of_the_ruleset(
        tmp_path: Path, opened: list[ForceDocument]) -> None:
    path = tmp_path / "my-swarm.toml"
    assert main(["edit", str(path), "--ruleset", "plasmashok"]) == 0
    (doc,) = opened
    assert doc.path == path and doc.data() == {"name": "my-swarm", "ruleset": "plasmashok"}
    assert doc.modified and not path.exists()  # made on save, not before


def test_a_missing_file_defaults_to_deathzap3(tmp_path: Path,
                                              opened: list[ForceDocument]) -> None:
    assert main(["edit", str(tmp_path / "f.toml")]) == 0
    assert opened[0].get("ruleset") == "deathzap3"


def test_an_existing_file_opens_as_it_is(tmp_path: Path, opened: list[ForceDocument]) -> None:
    source = FORCES / "dt-kestrel-cell.toml"
    assert main(["edit", str(source), "--ruleset", "double-tap"]) == 0
    assert opened[0].text() == source.read_text() and not opened[0].modified


def test_a_force_with_errors_opens_to_be_fixed(tmp_path: Path,
                                               opened: list[ForceDocument]) -> None:
    path = tmp_path / "broken.toml"
    path.write_text('name = "B"\nruleset = "deathzap3"\nunits = 3\n')
    assert main(["edit", str(path)]) == 0
    assert not opened[0].check().ok


def test_an_unknown_ruleset_is_refused(tmp_path: Path, capsys: Any,
                                       opened: list[ForceDocument]) -> None:
    assert main(["edit", str(tmp_path / "f.toml"), "--ruleset", "chess"]) == 1
    err = capsys.readouterr().err
    assert "unknown ruleset 'chess'" in err and "deathzap3" in err
    assert not opened


def test_broken_toml_is_refused_with_file_and_line(tmp_path: Path, capsys: Any,
                                                   opened: list[ForceDocument]) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('name = "x"\nshots = 3 3\n')
    assert main(["edit", str(path)]) == 1
    assert capsys.readouterr().err.startswith(f"{path}:2: not valid TOML: ")
    assert not opened


def test_a_ruleset_other_than_the_files_is_refused(capsys: Any,
                                                   opened: list[ForceDocument]) -> None:
    path = FORCES / "ps-iron-choir.toml"
    assert main(["edit", str(path), "--ruleset", "deathzap3"]) == 1
    err = capsys.readouterr().err
    assert "is a plasmashok force file, not deathzap3" in err
    assert not opened


def test_a_points_limit_goes_to_the_editor(tmp_path: Path, opened: list[ForceDocument],
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 22: a game size to build against (the editor shows used/limit)."""
    path = tmp_path / "army.toml"
    assert main(["edit", str(path), "--limit", "1000"]) == 0
    assert limits == [1000] and len(opened) == 1
    assert main(["edit", str(path), "--limit", "0"]) == 1
    assert "--limit 0: a number of points above 0" in capsys.readouterr().err
    assert len(opened) == 1

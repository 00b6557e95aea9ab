"""``--notify``: run in the background, bounded, failures logged, never a shell."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from deathzap_tui.club.notify import Notifier, parse_command


def test_the_command_is_split_into_words_never_given_to_a_shell(tmp_path: Path) -> None:
    assert parse_command("notify-send -u 'low priority'") == ["notify-send", "-u",
                                                             "low priority"]
    with pytest.raises(ValueError, match="--notify: cannot split"):
        parse_command("mail 'unclosed")
    with pytest.raises(ValueError, match="no command"):
        parse_command("   ")
    out = tmp_path / "args"
    script = [sys.executable, "-c",
              f"import sys; open({str(out)!r}, 'w').write(repr(sys.argv[1:]))"]

    async def main() -> None:
        notifier = Notifier(script, log=print)
        notifier.notify("a; rm -rf ~ $(x)", 7, "your-move")
        await notifier.drain()

    asyncio.run(main())
    assert out.read_text() == repr(["a; rm -rf ~ $(x)", "7", "your-move"])


def test_failures_are_logged_and_a_flood_is_bounded(tmp_path: Path) -> None:
    lines: list[str] = []
    fail = [sys.executable, "-c", "import sys; print('boom\\nmore', file=sys.stderr); "
                                  "sys.exit(3)"]

    async def main() -> None:
        notifier = Notifier(fail, running=1, queued=2, log=lines.append)
        for n in range(4):  # one runs at once, two wait: the fourth is dropped
            notifier.notify("bob", n, "challenge")
        await notifier.drain()
        missing = Notifier([str(tmp_path / "no-such-command")], log=lines.append)
        missing.notify("bob", 1, "game-over")
        await missing.drain()

    asyncio.run(main())
    assert sum("exit status 3: boom" in line for line in lines) == 3
    assert sum("2 calls waiting already; dropped challenge for bob" in line
               for line in lines) == 1
    assert any("cannot run" in line and "no-such-command" in line for line in lines)

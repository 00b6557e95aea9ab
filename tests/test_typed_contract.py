"""The typed plugin contract, checked by the type checker itself (issue 20, part 2):
each registered ruleset is a ``Ruleset`` of its own force and state types (what
``parse_force`` and ``new_state`` give is typed, not ``Any``), and the local and the
remote session both implement the ``GameSession`` protocol the app's hints name.
mypy must accept the right uses and refuse the wrong ones (the checks are real)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHECK = textwrap.dedent('''
    from typing import Any

    from deathzap_tui.net.client import RemoteAction, RemoteSession
    from deathzap_tui.rules.classic.model import Force
    from deathzap_tui.rules.classic.plugin import Classic
    from deathzap_tui.rules.classic.state import State
    from deathzap_tui.rules.game import Action
    from deathzap_tui.session import GameSession, Session


    def classic_force(ruleset: Classic, data: dict[str, Any]) -> Force:
        return ruleset.parse_force(data)


    def classic_state(ruleset: Classic, force: Force) -> State:
        return ruleset.new_state(force, force, {}, 1, None)


    def local(session: Session) -> GameSession[Action]:
        return session


    def remote(session: RemoteSession) -> GameSession[RemoteAction]:
        return session
''')
WRONG = CHECK + textwrap.dedent('''

    def wrong_session(session: RemoteSession) -> GameSession[Action]:
        return session


    def wrong_state(ruleset: Classic, force: Force) -> Force:
        return ruleset.new_state(force, force, {}, 1, None)


    def wrong_force(ruleset: Classic, state: State) -> State:
        return ruleset.new_state(state, state, {}, 1, None)
''')


def mypy(tmp_path: Path, source: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "check_sessions.py"
    path.write_text(source)
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\npython_version = 3.11\n")
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--follow-imports=silent", "--no-incremental",
         "--warn-return-any",
         "--config-file", str(config), str(path)],
        cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_rulesets_and_sessions_fit_the_contract_and_the_checker_refuses_what_does_not(
        tmp_path: Path) -> None:
    """One mypy run over the right uses followed by the wrong ones: every error it
    finds is in the wrong ones (mypy checks each function on its own, so the right
    uses pass as they would alone), and it finds each wrong one."""
    done = mypy(tmp_path, WRONG)
    assert done.returncode == 1, done.stdout + done.stderr
    right_lines = CHECK.count("\n")
    errors = [line for line in done.stdout.splitlines() if ": error: " in line]
    lines = [int(error.split(":")[1]) for error in errors]
    assert all(line > right_lines for line in lines), done.stdout  # the right uses pass
    assert 'Incompatible return value type (got "RemoteSession"' in done.stdout
    assert 'Incompatible return value type (got "State", expected "Force")' in done.stdout
    assert 'Argument 1 to "new_state" of "PackageRuleset" has incompatible type' \
        in done.stdout
    assert len(errors) == 4 and "Found 4 errors" in done.stdout  # the session, the
    # state, both forces

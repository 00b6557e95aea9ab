"""Which lane a test runs in: the fast lane (``./run-tests --fast``, pytest ``-m "not
slow"``: the edit-test loop, under a minute on two cores) or only the full suite.

A test is ``slow`` (pyproject.toml says what the marker means) when it is marked so by
hand (a Monte Carlo or brute-force oracle, whole random games) or when
:func:`slow_because` finds, from what it uses, that it

- drives a Textual app: an ``async`` test (Pilot), one that takes ``snap_compare``, or
  one whose body, or a helper of its own module that it calls, runs an app under a
  pilot (``run_test``, ``run_async``, ``auto_pilot=``);
- starts a process: its body, or such a helper, names ``subprocess`` or
  ``sys.executable``;
- is a network test: every test of ``tests/net/`` (nearly all run a referee, its
  clients or an SSH server over a socket; the few that do not go with them);
- talks to the club's servers: takes one of :data:`SERVER_FIXTURES`, runs against
  the ``postgres`` store (the run's own PostgreSQL server), or its body or such a
  helper names one of :data:`STARTS_A_SERVER`;
- is a Hypothesis fuzzer (``@given``: many generated cases).

``tests/conftest.py`` marks them as they are collected, so a new test of those kinds
lands in the slow lane without anyone marking it.
"""

from __future__ import annotations

import ast
import functools
import inspect
from pathlib import Path

import pytest

NET = Path(__file__).resolve().parent / "net"
SERVER_FIXTURES = frozenset({"pg", "club_server", "club_thread"})
"""Fixtures that start a server for the test: PostgreSQL, the club's server process,
its hub in a thread."""
STARTS_AN_APP = frozenset({".run_test", ".run_async", "auto_pilot="})
STARTS_A_PROCESS = frozenset({"subprocess", "Popen", ".executable"})
STARTS_A_SERVER = frozenset({"HubServer", "Running", "running", "ClubSSHServer"})
"""What a test (or a helper it calls) names when it starts one: a name, an attribute
after its dot (``app.run_test``, ``sys.executable``) or a keyword argument before its
``=`` (``app.run(headless=True, auto_pilot=...)``)."""


def slow_because(item: pytest.Item) -> str | None:
    """Why ``item`` belongs to the slow lane by what it uses, or ``None``."""
    if not isinstance(item, pytest.Function):
        return None
    function = inspect.unwrap(item.obj)
    if inspect.iscoroutinefunction(function) or "snap_compare" in item.fixturenames:
        return "drives a Textual app"
    if item.path.is_relative_to(NET):
        return "a network test (tests/net/)"
    if SERVER_FIXTURES.intersection(item.fixturenames) or (
            hasattr(item, "callspec") and "postgres" in item.callspec.params.values()):
        return "talks to a server"
    if getattr(item.obj, "is_hypothesis_test", False):
        return "a Hypothesis fuzzer"
    names = _names_used(item.path, item.originalname)
    if names & STARTS_AN_APP:
        return "drives a Textual app"
    if names & STARTS_A_PROCESS:
        return "starts a process"
    if names & STARTS_A_SERVER:
        return "talks to a server"
    return None


def _names_used(path: Path, name: str) -> frozenset[str]:
    """The names and ``.attributes`` test ``name`` of module ``path`` uses, with those
    of the module's own functions it calls (directly or through one another)."""
    uses = _module_uses(path)
    seen: set[str] = set()
    todo = [name]
    while todo:
        function = todo.pop()
        if function not in seen:
            seen.add(function)
            todo.extend(uses.get(function, frozenset()) & uses.keys())
    return frozenset().union(*(uses.get(function, frozenset()) for function in seen))


@functools.cache
def _module_uses(path: Path) -> dict[str, frozenset[str]]:
    """For each function of the module and method of its classes, by its own name,
    every name, ``.attribute`` and ``keyword=`` in its body (functions defined inside
    included)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    tops = [*tree.body, *(node for cls in tree.body if isinstance(cls, ast.ClassDef)
                          for node in cls.body)]
    return {
        node.name: frozenset(_token(inner) for inner in ast.walk(node)
                             if isinstance(inner, ast.Name | ast.Attribute | ast.keyword))
        for node in tops if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)}


def _token(node: ast.Name | ast.Attribute | ast.keyword) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f".{node.attr}"
    return f"{node.arg}="

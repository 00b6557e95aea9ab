"""The import graph of ``deathzap_tui`` (issue 20): every import counts, those inside
functions too (a lazy import still ties two modules together), only those under
``if TYPE_CHECKING:`` do not (they never run). No cycles but the known ones of
``app/``; the headless package and the headless commands (``deathzap host``,
``report``, ``log``) never load Textual."""

from __future__ import annotations

import ast
import functools
import os
import subprocess
import sys
import textwrap
from collections.abc import Collection, Iterator
from pathlib import Path

from deathzap_tui.paths import PROJECT_ROOT

PACKAGE = PROJECT_ROOT / "deathzap_tui"
KNOWN_CYCLES = [
    # Issue 20: the app's screens and the app reach each other (lazy imports); a
    # later step regroups app/ by feature with messages up, and empties this list.
    {"deathzap_tui.app.app", "deathzap_tui.app.remote.app", "deathzap_tui.app.editor.editor",
     "deathzap_tui.app.quick.quick", "deathzap_tui.app.start.start"},
]


def modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name)."""
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PROJECT_ROOT).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imported(tree: ast.AST, package: str, mods: Collection[str]) -> Iterator[str]:
    """Dotted names ``tree`` imports, anywhere but under ``if TYPE_CHECKING:``
    (``from X import Y`` is ``X.Y`` where that is a module of ``mods``, else ``X``)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _type_checking(node):
            for other in node.orelse:
                yield from _imported(other, package, mods)
            continue
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            for alias in node.names:
                yield f"{base}.{alias.name}" if f"{base}.{alias.name}" in mods else base
        yield from _imported(node, package, mods)


@functools.cache
def import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports, and ``"textual"`` if it imports
    Textual itself (worked out once per test run; nobody changes it)."""
    mods = modules()
    graph = {}
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        names = set(_imported(ast.parse(path.read_text(encoding="utf-8")), package, mods))
        edges = {n for n in names if n in mods and n != name}
        if any(n == "textual" or n.startswith("textual.") for n in names):
            edges.add("textual")
        graph[name] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(component)

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_graph_sees_function_level_imports() -> None:
    graph = import_graph()
    assert "deathzap_tui.headless.setup" in graph["deathzap_tui.commands.host"]  # lazy
    assert "deathzap_tui.session" not in graph["deathzap_tui.headless.hidden"]  # TYPE_CHECKING
    assert "textual" in graph["deathzap_tui.app.common.text"]  # inside safe()


def test_no_import_cycle_but_the_known_ones() -> None:
    found = cycles(import_graph())
    new = [sorted(c) for c in found if not any(c <= known for known in KNOWN_CYCLES)]
    assert not new, f"import cycles: {new}; move what both modules need into one of its own"
    stale = [sorted(k) for k in KNOWN_CYCLES if not any(c & k for c in found)]
    assert not stale, f"no longer cycles: take them off KNOWN_CYCLES: {stale}"


def test_the_headless_package_never_reaches_textual() -> None:
    graph = import_graph()
    todo = [m for m in graph if m.startswith("deathzap_tui.headless")]
    seen = set(todo)
    while todo:
        for nxt in graph.get(todo.pop(), ()):
            assert nxt != "textual" and not nxt.startswith("deathzap_tui.app"), nxt
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)


def _loaded(cwd: Path, *argv: str) -> list[str]:
    """Run ``deathzap ARGV`` in a fresh interpreter (a host's serving stubbed out) and
    return the Textual and app modules it loaded."""
    driver = textwrap.dedent("""
        import sys
        from deathzap_tui.cli import main
        from deathzap_tui.commands import host

        def serve(serving, lock, command):
            lock.release()
            return 0

        host.serve_until_stopped = serve
        status = main(sys.argv[1:])
        print(sorted(m for m in sys.modules
                     if m.split(".")[0] == "textual" or m.startswith("deathzap_tui.app")))
        sys.exit(status)
        """)
    out = subprocess.run([sys.executable, "-c", driver, *argv], capture_output=True,
                         text=True, timeout=60, cwd=cwd, check=False,
                         env={**os.environ, "DEATHZAP_SAVES_DIR": str(cwd)})
    assert out.returncode == 0, out.stderr
    loaded: list[str] = ast.literal_eval(out.stdout.splitlines()[-1])
    return loaded


def test_headless_commands_do_not_import_textual(tmp_path: Path) -> None:
    """``deathzap host --quick`` starts a game, plays its set-up and is about to serve;
    ``report`` and ``log`` read its save: none loads Textual, or anything of the app."""
    forces = PROJECT_ROOT / "forces"
    assert _loaded(tmp_path, "host", "--red", str(forces / "mortans-men.toml"), "--black",
                   str(forces / "gutter-saints.toml"), "--save", "hosted", "--quick") == []
    assert _loaded(tmp_path, "report", "hosted") == []
    assert _loaded(tmp_path, "log", "hosted") == []

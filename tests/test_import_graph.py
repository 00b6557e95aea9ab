"""The import graph of ``deathzap_tui`` (issue 20): every import counts, those inside
functions too (a lazy import still ties two modules together), only those under
``if TYPE_CHECKING:`` do not (they never run). No cycle at all; the headless
package and the headless commands (``deathzap host``, ``report``, ``log``) never load
Textual. An import inside a function says why it is there (``# lazy: <why>``)."""

from __future__ import annotations

import ast
import functools
import os
import re
import subprocess
import sys
import textwrap
from collections.abc import Collection, Iterator
from pathlib import Path

from deathzap_tui.paths import PROJECT_ROOT

PACKAGE = PROJECT_ROOT / "deathzap_tui"
LAZY = re.compile(r"#\s*lazy:\s*\S")
"""The comment an import inside a function carries: ``# lazy: <why>``, the start-up it
saves or the optional dependency it defers."""


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
    assert "deathzap_tui.commands.serving" in graph["deathzap_tui.commands.host"]  # lazy
    assert "deathzap_tui.session" not in graph["deathzap_tui.headless.hidden"]  # TYPE_CHECKING
    assert "deathzap_tui.app.battle.battle" in graph["deathzap_tui.app.app"]  # lazy


def test_no_import_cycle() -> None:
    found = [sorted(c) for c in cycles(import_graph())]
    assert not found, f"import cycles: {found}; move what both modules need into one of its own"


def function_level_imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement inside a function's body (nested ones included, each
    once), but those under ``if TYPE_CHECKING:``."""
    def walk(node: ast.AST, in_function: bool) -> Iterator[ast.Import | ast.ImportFrom]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking(child):
                for other in child.orelse:
                    yield from walk(other, in_function)
                continue
            if in_function and isinstance(child, (ast.Import, ast.ImportFrom)):
                yield child
            yield from walk(child, in_function or isinstance(
                child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    yield from walk(tree, False)


def test_function_level_imports_say_why() -> None:
    """Issue 20: an import belongs at the top of its module; one inside a function is
    a deliberate start-up saving (a command that does not need Textual, asyncssh or
    psycopg never loads them), and its line says so: ``# lazy: <why>``."""
    unexplained = []
    for path in sorted(modules().values()):
        lines = path.read_text(encoding="utf-8").splitlines()
        for node in function_level_imports(ast.parse("\n".join(lines))):
            statement = lines[node.lineno - 1:node.end_lineno]
            if not any(LAZY.search(line) for line in statement):
                unexplained.append(f"{path.relative_to(PROJECT_ROOT)}:{node.lineno}: "
                                   f"{ast.unparse(node)}")
    assert not unexplained, ("imports inside functions without a `# lazy: <why>` comment "
                             "(move them to the top of the module, or say what start-up "
                             "they save):\n" + "\n".join(unexplained))


def test_the_function_level_import_check_sees_them() -> None:
    source = textwrap.dedent("""
        import os
        if TYPE_CHECKING:
            import typing
        def f():
            import json  # lazy: a reason
            def g():
                from a import (b,
                               c)
            if TYPE_CHECKING:
                import typing
        class K:
            import sys
            def m(self):
                import re
        """)
    found = [(n.lineno, ast.unparse(n)) for n in function_level_imports(ast.parse(source))]
    assert found == [(6, "import json"), (8, "from a import b, c"), (15, "import re")]


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
        from deathzap_tui.commands import serving

        def serve(serve, lock, command):
            lock.release()
            return 0

        serving.serve_until_stopped = serve
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
    ``report`` and ``log`` read its save; ``check``, ``points`` and ``odds`` read force
    files: none loads Textual, or anything of the app."""
    red, black = (str(PROJECT_ROOT / "forces" / name)
                  for name in ("mortans-men.toml", "gutter-saints.toml"))
    assert _loaded(tmp_path, "host", "--red", red, "--black", black, "--save", "hosted",
                   "--quick") == []
    assert _loaded(tmp_path, "report", "hosted") == []
    assert _loaded(tmp_path, "log", "hosted") == []
    assert _loaded(tmp_path, "check", red, black) == []
    assert _loaded(tmp_path, "points", red) == []
    assert _loaded(tmp_path, "odds", "--attacker", f"{red}:1", "--target", f"{black}:1",
                   "--cover", "open") == []


def _modules(cwd: Path, *argv: str) -> list[str]:
    """The modules ``deathzap ARGV`` loads, run to its end in a fresh interpreter
    (``--help`` included) with its saves in ``cwd``."""
    driver = textwrap.dedent("""
        import sys
        from deathzap_tui.cli import main
        try:
            main(sys.argv[1:])
        except SystemExit:
            pass
        print(sorted(sys.modules))
        """)
    out = subprocess.run([sys.executable, "-c", driver, *argv], capture_output=True,
                         text=True, timeout=60, cwd=cwd, check=True,
                         env={**os.environ, "DEATHZAP_SAVES_DIR": str(cwd)})
    loaded: list[str] = ast.literal_eval(out.stdout.splitlines()[-1])
    return loaded


def _commands_loaded(cwd: Path, *argv: str) -> list[str]:
    """The ``deathzap_tui.commands`` modules ``deathzap ARGV`` loads."""
    return [m.removeprefix("deathzap_tui.commands.") for m in _modules(cwd, *argv)
            if m.startswith("deathzap_tui.commands.")]


def test_the_dispatcher_imports_only_the_chosen_command(tmp_path: Path) -> None:
    """``deathzap --help`` loads no command's module and ``deathzap check`` only its own,
    so a command imports what it needs at the top of its module; ``host --help`` does
    not load the hosting (the game, its save, asyncio)."""
    assert _commands_loaded(tmp_path, "--help") == ["subparsers"]
    force = str(PROJECT_ROOT / "forces" / "mortans-men.toml")
    assert _commands_loaded(tmp_path, "check", force) == ["check", "subparsers"]
    assert _commands_loaded(tmp_path, "host", "--help") == ["host", "subparsers"]


def test_club_store_commands_load_neither_asyncio_nor_psycopg(tmp_path: Path) -> None:
    """``deathzap club migrate`` and ``members`` on an SQLite store: no event loop, no
    PostgreSQL driver (only ``club serve`` and a PostgreSQL store need them)."""
    store = str(tmp_path / "club.sqlite")
    for argv in (("migrate", "--store", store), ("members", "--store", store)):
        loaded = {m.split(".")[0] for m in _modules(tmp_path, "club", *argv)}
        assert not loaded & {"asyncio", "psycopg"}, argv

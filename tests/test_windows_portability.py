"""The console is shipped for Windows too (``installers/windows``), where Python has no
``fcntl``, ``termios``, ``tty``, ``pwd`` and the like: one of them imported at the top of
``storage/writer_lock.py`` kept the Windows console from opening any table database. Such a
module may be imported only where Windows never goes: under a ``sys.platform`` branch, or in
a function that checks ``sys.platform`` first. (The names each system lacks inside modules
that exist on both, ``os.pread`` or ``os.O_NOFOLLOW``, are mypy's: ``scripts/run-tests``
type-checks the packages as on Windows too.)

Text, too, is read and written differently there: without an ``encoding`` Python takes the
machine's code page on Windows (UTF-8 here), so every text-mode file and every text pipe of a
shipped module names its encoding."""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ("dealer_console", "dealer_link", "drivers", "ui", "installers/windows")
POSIX_ONLY = frozenset({"fcntl", "termios", "tty", "pty", "pwd", "grp", "resource", "posix",
                        "syslog", "crypt", "nis", "spwd", "readline", "curses"})


def _mentions_platform(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Attribute) and n.attr == "platform"
               and isinstance(n.value, ast.Name) and n.value.id == "sys"
               for n in ast.walk(node))


def unguarded_posix_imports(source: str) -> list[tuple[int, str]]:
    """(line, module) of each import of a POSIX-only module Windows would run into."""
    found: list[tuple[int, str]] = []

    def visit(node: ast.AST, guarded: bool, function: ast.AST | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _mentions_platform(child.test):
                for part in (*child.body, *child.orelse):
                    visit_one(part, True, function)
                continue
            visit_one(child, guarded, function)

    def visit_one(node: ast.AST, guarded: bool, function: ast.AST | None) -> None:
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""])
            for name in names:
                if name.split(".")[0] in POSIX_ONLY and not guarded and not (
                        function is not None and _checked_before(function, node.lineno)):
                    found.append((node.lineno, name))
            return
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            visit(node, guarded, node)
            return
        visit(node, guarded, function)

    def _checked_before(function: ast.AST, line: int) -> bool:
        return any(isinstance(n, ast.If) and n.lineno < line and _mentions_platform(n.test)
                   for n in ast.walk(function))

    visit(ast.parse(source), False, None)
    return found


def shipped_findings(check: Callable[[str], list[tuple[int, str]]]) -> list[str]:
    """``file:line: what`` of each finding of ``check`` in every shipped module."""
    files = [p for part in SHIPPED for p in sorted((ROOT / part).rglob("*.py"))]
    assert len(files) > 200
    return [f"{p.relative_to(ROOT)}:{line}: {what}"
            for p in files for line, what in check(p.read_text("utf-8"))]


def test_no_posix_only_module_is_imported_where_windows_goes() -> None:
    bad = shipped_findings(lambda source: [(line, f"import {name}") for line, name
                                           in unguarded_posix_imports(source)])
    assert bad == [], "\n".join(bad)


def test_the_check_sees_an_unguarded_import_and_lets_guarded_ones_be() -> None:
    planted = ("import os\nimport fcntl\n"
               "def f():\n    import termios\n    return termios\n"
               "def g():\n    from pwd import getpwuid\n    if sys.platform == 'win32':\n"
               "        return\n")
    assert unguarded_posix_imports(planted) == [(2, "fcntl"), (4, "termios"), (7, "pwd")]
    guarded = ("import sys\nif sys.platform == 'win32':\n    import msvcrt\nelse:\n"
               "    import fcntl\n"
               "def f():\n    if sys.platform == 'win32':\n        raise OSError\n"
               "    import tty\n")
    assert unguarded_posix_imports(guarded) == []


TEXT_FILE_CALLS = frozenset({"open", "io.open", "os.fdopen"})
PIPES = frozenset({"run", "Popen", "check_output", "check_call"})


def _literal(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def text_without_encoding(source: str) -> list[tuple[int, str]]:
    """(line, call) of each text-mode file opened, text read or written, or text pipe to a
    program, with no ``encoding`` named: ``open``/``os.fdopen`` with no ``b`` in the mode,
    ``path.open("w")``, ``read_text``/``write_text``, ``subprocess.run(..., text=True)``."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        named = {k.arg for k in node.keywords}
        if "encoding" in named:
            continue
        func = ast.unparse(node.func)
        method = node.func.attr if isinstance(node.func, ast.Attribute) else None
        mode_kw = next((k.value for k in node.keywords if k.arg == "mode"), None)
        if func in TEXT_FILE_CALLS:
            mode = node.args[1] if len(node.args) > 1 else mode_kw
            text = mode is None or "b" not in (_literal(mode) or "b")
        elif method == "open" and func != "os.open":
            # a path's open: its mode comes first (an object's own open(), a table's or a
            # transport's, takes no mode and is not a file)
            mode = node.args[0] if node.args else mode_kw
            text = _literal(mode) is not None and "b" not in (_literal(mode) or "")
        elif method == "read_text":
            text = not node.args
        elif method == "write_text":
            text = len(node.args) < 2
        elif method in PIPES:
            text = any(k.arg in ("text", "universal_newlines") for k in node.keywords)
        else:
            continue
        if text:
            found.append((node.lineno, func))
    return found


def test_every_text_file_and_pipe_names_its_encoding() -> None:
    bad = shipped_findings(text_without_encoding)
    assert bad == [], "\n".join(bad)


def test_the_encoding_check_sees_text_with_no_encoding_and_lets_bytes_be() -> None:
    planted = ("open(p)\nopen(p, 'w')\nos.fdopen(fd, 'w')\npath.open('a')\n"
               "path.read_text()\npath.write_text(t)\n"
               "subprocess.run(['icacls', k], capture_output=True, text=True)\n")
    assert [line for line, _call in text_without_encoding(planted)] == [1, 2, 3, 4, 5, 6, 7]
    fine = ("open(p, 'rb')\nopen(p, 'w', encoding='utf-8')\nos.fdopen(fd, 'wb')\n"
            "os.open(p, os.O_RDONLY)\npath.open('rb')\ntable.open(db)\ntransport.open()\n"
            "path.read_text('ascii')\npath.read_text(encoding='utf-8')\n"
            "path.write_text(t, 'utf-8')\npath.read_bytes()\n"
            "subprocess.run(['ls'], capture_output=True)\n"
            "subprocess.run(['ls'], text=True, encoding='oem', errors='replace')\n")
    assert text_without_encoding(fine) == []

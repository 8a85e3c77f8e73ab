"""The import direction of the shared GUIDE: ``dealer_console`` holds no Qt, serial, usb or
PostgreSQL client and never imports ``drivers`` or ``dealer_link``; nothing but ``ui`` itself
imports ``ui``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("dealer_console", "dealer_link", "drivers", "ui", "benchmarks", "tests")


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def top(name: str) -> str:
    return name.split(".")[0]


def files_of(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def forbidden_for(package: str) -> set[str]:
    if package == "dealer_console":
        return {"PySide6", "serial", "usb", "drivers", "ui", "dealer_link", "psycopg"}
    if package == "dealer_link":  # the link's PostgreSQL side: the core below it, no screen
        return {"PySide6", "serial", "usb", "drivers", "ui"}
    if package == "drivers":
        return {"PySide6", "ui"}
    if package == "ui":
        return set()
    return {"ui"}  # tests and benchmarks of the other packages: only the GUI's own reach ui


def drives_the_gui(rel: Path) -> bool:
    """The GUI's tests (``tests/ui``) and benchmarks (``benchmarks/gui_*.py``) drive the real
    screens, so they import ``ui``."""
    return rel.parts[:2] == ("tests", "ui") or (
        rel.parts[0] == "benchmarks" and rel.name.startswith("gui_")) or (
        rel.as_posix() == "benchmarks/pit_soak.py")  # the pit's screen under 40 tables


@pytest.mark.parametrize("package", PACKAGES)
def test_import_direction(package: str) -> None:
    offenders = []
    for path in files_of(package):
        rel = path.relative_to(ROOT)
        banned = forbidden_for(package)
        if drives_the_gui(rel):
            banned = set()
        for name in imported_modules(path):
            if top(name) in banned:
                offenders.append(f"{rel} imports {name}")
    assert not offenders, "\n".join(offenders)


def test_only_the_gui_s_tests_and_benchmarks_may_import_ui() -> None:
    assert drives_the_gui(Path("tests/ui/test_app.py"))
    assert drives_the_gui(Path("benchmarks/gui_console.py"))
    assert not drives_the_gui(Path("benchmarks/round_sim.py"))
    assert not drives_the_gui(Path("tests/controller/test_controller.py"))


def test_the_checker_sees_a_violation(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import PySide6.QtCore\nfrom serial import Serial\nimport os\n")
    assert {top(n) for n in imported_modules(bad)} == {"PySide6", "serial", "os"}


def test_core_packages_exist() -> None:
    for package in ("dealer_console", "dealer_link", "drivers", "ui"):
        assert files_of(package), f"{package} has no modules"


# -- the layers inside the core ----------------------------------------------------------------

LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "money", "input_checks", "cards", "program_info", "award_words", "table_name",
     "clock"),
    ("hands", "setting", "seven"),
    ("house_ways",),
    ("config_file", "paytables"),
    ("jackpot_values", "jackpot.qualify", "jackpot.marks"),
    ("profiles",),
    ("settlement", "math"),
    ("storage", "employees", "jackpot.schema", "devices", "link.outbox"),
    ("table_db",),
    ("round",),
    ("jackpot", "link"),
    ("audit", "reports"),
    ("selftest",),
    ("controller",),
    ("cli",),
)
"""Lowest first: a module of ``dealer_console`` imports only from its own layer or below. The
values and rules of the game, then the table's files and devices, then the round, the jackpot
system played on it, the audit of both and the reports read from them, the power-on
self-test, the controller, the command line. The most specific prefix names a module's layer
(``jackpot.schema`` is storage; the rest of ``jackpot`` is above the round)."""


def layer_of(module: str) -> int | None:
    parts = module.split(".")[1:]
    best: tuple[int, int] | None = None
    for index, group in enumerate(LAYERS):
        for prefix in group:
            want = prefix.split(".")
            if parts[: len(want)] == want and (best is None or len(want) > best[1]):
                best = (index, len(want))
    return None if best is None else best[0]


def core_modules() -> dict[str, Path]:
    out = {}
    for path in files_of("dealer_console"):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        out[name.removesuffix(".__init__")] = path
    return out


def core_imports(path: Path, modules: dict[str, Path]) -> set[str]:
    """The core modules ``path`` imports (``from pkg import sub`` counts ``pkg`` and ``sub``),
    at module level or inside a function alike: a lazy import is a cycle all the same."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        for name in names:
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name.startswith("dealer_console"):
                found.add(name)
    return found


def test_every_core_module_has_a_layer_and_imports_nothing_above_it() -> None:
    modules = core_modules()
    offenders = []
    for name, path in modules.items():
        mine = layer_of(name)
        if mine is None and name != "dealer_console":
            offenders.append(f"{name} is in no layer: add it to LAYERS")
            continue
        for other in core_imports(path, modules):
            theirs = layer_of(other)
            if mine is not None and theirs is not None and theirs > mine:
                offenders.append(f"{name} ({LAYERS[mine][0]}) imports {other} "
                                 f"({LAYERS[theirs][0]}, a layer above)")
    assert not offenders, "\n".join(offenders)


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                top_node = stack.pop()
                group.append(top_node)
                if top_node == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in graph:
        if node not in index:
            visit(node)
    return found


def core_graph() -> dict[str, set[str]]:
    modules = core_modules()
    return {name: {other for other in core_imports(path, modules)
                   if other != name and not name.startswith(other + ".")}
            for name, path in modules.items()}


def test_no_import_cycle_inside_the_core() -> None:
    assert cycles(core_graph()) == []


def test_the_checkers_see_a_cycle_and_a_layer_broken() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert layer_of("dealer_console.jackpot.schema") == layer_of("dealer_console.storage.x")
    assert layer_of("dealer_console.jackpot.store") == layer_of("dealer_console.round.x") + 1  # type: ignore[operator]
    assert layer_of("dealer_console.money") == 0


# -- packages: no cycle between them, the pure core, the screens' way in ----------------------

SOURCES = ("dealer_console", "dealer_link", "drivers", "ui")


def all_modules() -> dict[str, Path]:
    out = {}
    for package in SOURCES:
        for path in files_of(package):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            out[name.removesuffix(".__init__")] = path
    return out


def unit_of(module: str) -> str:
    """The package a module belongs to for the cycle check: ``dealer_console.link.hook`` is
    ``dealer_console.link``, ``drivers.sim.table.dealer`` is ``drivers.sim``; a module at the
    top of a source tree (``dealer_console.cards``, ``ui.app``) is its own unit."""
    return ".".join(module.split(".")[:2])


def imports_of(path: Path, modules: dict[str, Path]) -> set[str]:
    """The source modules ``path`` imports, anywhere in the file (a lazy import or one under
    ``TYPE_CHECKING`` ties the packages together all the same)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        for name in names:
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name:
                found.add(name)
    return found


def package_edges() -> dict[tuple[str, str], list[str]]:
    """Every import from one package to another: ``(from, to)`` with the modules that make it."""
    modules = all_modules()
    edges: dict[tuple[str, str], list[str]] = {}
    for name, path in modules.items():
        for other in imports_of(path, modules):
            a, b = unit_of(name), unit_of(other)
            if a != b and not other.startswith(name + "."):
                edges.setdefault((a, b), []).append(f"{name} -> {other}")
    return edges


KNOWN_BACK_EDGES: dict[tuple[str, str], str] = {
}
"""Imports that close a cycle between packages today, each with why and the way out. The
cycle test ignores these and nothing else, so no new cycle can appear; one that is fixed must
be taken off the list (the test says so)."""


def test_no_import_cycle_between_packages() -> None:
    edges = package_edges()
    graph: dict[str, set[str]] = {}
    for a, b in edges:
        graph.setdefault(a, set())
        graph.setdefault(b, set())
        if (a, b) not in KNOWN_BACK_EDGES:
            graph[a].add(b)
    found = cycles(graph)
    detail = [f"{' <-> '.join(group)}: " + "; ".join(
        m for a in group for b in group for m in edges.get((a, b), [])[:2]) for group in found]
    assert not found, "packages import each other:\n" + "\n".join(detail)


def test_each_known_back_edge_is_still_there() -> None:
    edges = package_edges()
    gone = [f"{a} -> {b}" for a, b in KNOWN_BACK_EDGES if (a, b) not in edges]
    assert not gone, "fixed, take off KNOWN_BACK_EDGES: " + ", ".join(gone)


def test_the_package_check_fails_on_a_planted_cycle(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A copy of the tree with one import planted (the controller imported by the round) makes
    the check fail: the test is not blind."""
    import shutil

    for package in SOURCES:
        shutil.copytree(ROOT / package, tmp_path / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    planted = tmp_path / "dealer_console" / "round" / "phases.py"
    planted.write_text(planted.read_text(encoding="utf-8")
                       + "\nfrom dealer_console.controller import view  # planted\n")
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    with pytest.raises(AssertionError, match=r"dealer_console\.controller.*dealer_console\.round"
                       r"|dealer_console\.round.*dealer_console\.controller"):
        test_no_import_cycle_between_packages()
    planted.write_text(planted.read_text(encoding="utf-8").replace(
        "from dealer_console.controller import view  # planted", ""))
    test_no_import_cycle_between_packages()  # the copy without the plant passes


CORE_BANNED = ("PySide6", "psycopg")

KNOWN_PSYCOPG: dict[str, str] = {}
"""Core modules that still import psycopg, each with why; no other may. None does: the link's
PostgreSQL client, threads, server and command line are ``dealer_link``, which the composition
roots hand to ``open_table`` (issue 24)."""


def test_the_core_imports_no_qt_and_no_postgresql_client() -> None:
    offenders = []
    for path in files_of("dealer_console"):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for imported in imported_modules(path):
            if top(imported) in CORE_BANNED and not (
                    top(imported) == "psycopg" and name in KNOWN_PSYCOPG):
                offenders.append(f"{name} imports {imported}")
    assert not offenders, "\n".join(offenders)
    stale = [n for n in KNOWN_PSYCOPG
             if not any(top(i) == "psycopg" for i in imported_modules(
                 ROOT / (n.replace(".", "/") + ".py")))]
    assert not stale, "no longer imports psycopg, take off KNOWN_PSYCOPG: " + ", ".join(stale)


SCREENS = ("ui.dealer", "ui.supervisor", "ui.technician", "ui.meter_display")
CONTROLLER_SURFACE = ("dealer_console.controller", "dealer_console.controller.view")
"""What a screen may import of the controller: the package (its ``__all__``) and the view."""


def test_screens_import_only_the_controller_s_public_surface() -> None:
    modules = all_modules()
    offenders = []
    for name, path in modules.items():
        if unit_of(name) not in SCREENS:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                wanted = [node.module] if node.module != "dealer_console.controller" else []
            elif isinstance(node, ast.Import):
                wanted = [a.name for a in node.names]
            else:
                continue
            offenders.extend(f"{name} imports {m}" for m in wanted
                             if m.startswith("dealer_console.controller.")
                             and m not in CONTROLLER_SURFACE)
    assert not offenders, "\n".join(offenders)


def _is_controller(node: ast.expr) -> bool:
    name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")
    return name in ("ctl", "controller")


def screen_reaches(tree: ast.AST) -> list[str]:
    """Where a screen reaches past the snapshot: the controller's open table, round table or
    drivers, or ``check`` asked outside a validator of typed input (a lambda)."""
    found = []
    in_lambda: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Lambda):
            in_lambda.update(id(n) for n in ast.walk(node.body))
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and _is_controller(node.value)
                and node.attr in ("opened", "table", "devices", "inbox", "device_desk")):
            found.append(f"line {node.lineno}: .{node.attr}")
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "check" and _is_controller(node.func.value)
                and id(node) not in in_lambda):
            found.append(f"line {node.lineno}: check() on redraw")
    return sorted(found)


KNOWN_REACHES: dict[str, str] = {
    "ui.supervisor.table_actions": "the banker's hand reconstructed as the supervisor touched "
    "it is checked as it is drawn (the chosen cards are input, not in the snapshot)",
}
"""Screens that still reach past the snapshot, each with why; no other may."""


def test_screens_see_only_the_snapshot_and_send_commands() -> None:
    offenders = []
    for name, path in all_modules().items():
        if unit_of(name) not in SCREENS or name.endswith("gallery") or name in KNOWN_REACHES:
            continue
        offenders.extend(f"{name} {where}" for where in screen_reaches(
            ast.parse(path.read_text(encoding="utf-8"))))
    assert not offenders, "\n".join(offenders)
    modules = all_modules()
    stale = [n for n in KNOWN_REACHES
             if not screen_reaches(ast.parse(modules[n].read_text(encoding="utf-8")))]
    assert not stale, "no longer reaches past the snapshot, take off KNOWN_REACHES: " + (
        ", ".join(stale))


def test_the_reach_check_sees_a_screen_reaching_past_the_snapshot() -> None:
    tree = ast.parse("def redraw(self, view):\n"
                     "    rows = self.ctl.table.db.execute('SELECT 1')\n"
                     "    ok = self.ctl.check(c.EndGame()) is None\n"
                     "    pad.set_validator(lambda n: self.ctl.check(c.DeckCounted(n)))\n")
    assert screen_reaches(tree) == ["line 2: .table", "line 3: check() on redraw"]

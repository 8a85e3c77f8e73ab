"""The import direction of the shared GUIDE: ``dealer_console`` holds no Qt, serial or usb and
never imports ``drivers``; nothing but ``ui`` itself imports ``ui``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("dealer_console", "drivers", "ui", "benchmarks", "tests")


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
        rel.parts[0] == "benchmarks" and rel.name.startswith("gui_"))


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
    for package in ("dealer_console", "drivers", "ui"):
        assert files_of(package), f"{package} has no modules"


# -- the layers inside the core ----------------------------------------------------------------

LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "money", "input_checks", "cards", "program_info"),
    ("hands", "setting", "seven"),
    ("house_ways",),
    ("config_file", "paytables"),
    ("jackpot.paytable", "jackpot.config", "jackpot.qualify", "jackpot.meters", "jackpot.marks"),
    ("profiles",),
    ("settlement", "math"),
    ("storage", "employees", "jackpot.schema", "devices"),
    ("round",),
    ("jackpot",),
    ("audit",),
    ("controller",),
    ("cli",),
)
"""Lowest first: a module of ``dealer_console`` imports only from its own layer or below. The
values and rules of the game, then the table's files and devices, then the round, the jackpot
system played on it, the audit of both, the controller, the command line. The most specific
prefix names a module's layer (``jackpot.schema`` is storage; the rest of ``jackpot`` is above
the round)."""


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

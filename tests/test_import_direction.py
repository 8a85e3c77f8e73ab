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

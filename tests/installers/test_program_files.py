"""The launcher's own check (``dealer_console/selftest/program_files.py``) on a small release
made here: it imports nothing but the standard library (it runs before the release's packages
are on the path), it names what changed, went missing or was added, and the self-test's
``program`` item uses the launcher's result for the same release instead of reading every
file again, and checks anything else itself."""

from __future__ import annotations

import ast
import hashlib
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from dealer_console.selftest import program_files
from dealer_console.selftest.integrity import check_program
from dealer_console.selftest.program_files import (
    MANIFEST_NAME,
    ProgramCheck,
    at_launch,
    check_release,
)
from dealer_console.selftest.report import Report
from tests.installers.conftest import REPO

LAUNCHER_RUNS_FIRST = ("dealer_console/selftest/program_files.py",
                       "dealer_console/storage/log_files.py")


@pytest.mark.parametrize("name", LAUNCHER_RUNS_FIRST)
def test_what_the_launcher_runs_first_imports_only_the_standard_library(name: str) -> None:
    tree = ast.parse((REPO / name).read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{name}: a relative import"
            imported.add((node.module or "").split(".")[0])
    assert imported, name
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}, imported


def test_the_launcher_names_each_by_its_digest() -> None:
    launcher = (REPO / "installers/linux/files/launcher.py").read_text()
    for name in LAUNCHER_RUNS_FIRST:
        module = name.removesuffix(".py").replace("/", ".")
        assert f'"{module}": "@' in launcher, module


@pytest.fixture
def release(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """A release at its place under a root, with a manifest of its files and the unit."""
    root = tmp_path / "root"
    release = root / "opt/dealer-console/releases/9.9.9"
    site = release / "lib/python3.11/site-packages"
    files = {site / "pkg/__init__.py": "", site / "pkg/rules.py": "PAY = 1\n",
             release / "bin/dealer-console": "launcher\n",
             root / "usr/lib/systemd/system/dealer-console.service": "[Service]\n"}
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (release / "bin/python3").symlink_to("/usr/bin/python3.11")
    lines = ["# dealer-console manifest 2\n", "# version 9.9.9\n", "# build test\n"]
    for path in [*files, release / "bin/python3"]:
        name = (path.relative_to(release).as_posix() if path.is_relative_to(release)
                else "/" + path.relative_to(root).as_posix())
        lines.append(f"{program_files.entry_digest(path)}  {name}\n")
    manifest = site / MANIFEST_NAME
    manifest.write_text("".join(lines))
    yield site, manifest
    program_files.AT_LAUNCH = None


def test_a_release_as_built_passes_and_says_which(release: tuple[Path, Path]) -> None:
    site, manifest = release
    check = check_release(site.parents[2], manifest)
    assert check.ok and check.problem() == ""
    digest = hashlib.sha256(manifest.read_bytes()).hexdigest()
    assert check.passed() == (f"5 files match the manifest (release 9.9.9 build test, lock "
                              f"sha256 ?), manifest sha256 {digest}")


def test_changed_missing_added_and_a_swapped_link_are_each_named(
        release: tuple[Path, Path]) -> None:
    site, manifest = release
    root = site.parents[6]
    (site / "pkg/rules.py").write_text("PAY = 2\n")
    (root / "usr/lib/systemd/system/dealer-console.service").unlink()
    (site / "sqlite_dump.py").write_text("")
    link = site.parents[2] / "bin/python3"
    link.unlink()
    link.symlink_to("/tmp/python")
    problem = check_release(site.parents[2], manifest).problem()
    assert problem.startswith(
        "changed: bin/python3, lib/python3.11/site-packages/pkg/rules.py; missing: "
        "/usr/lib/systemd/system/dealer-console.service; not in the manifest: "
        "lib/python3.11/site-packages/sqlite_dump.py (in ")


@pytest.mark.parametrize(("manifest_text", "why"), [
    (None, "no manifest at "),
    ("not a line\n", "the manifest is damaged (dealer-console.manifest line 1: expected"),
    ("# dealer-console manifest 1\n", "is not a release manifest for this place"),
])
def test_a_manifest_missing_damaged_or_of_another_kind_refuses(
        release: tuple[Path, Path], manifest_text: str | None, why: str) -> None:
    site, manifest = release
    if manifest_text is None:
        manifest.unlink()
    else:
        manifest.write_text(manifest_text)
    check = check_release(site.parents[2], manifest)
    assert not check.ok and why in check.problem()


def test_the_self_test_uses_the_launchers_check_of_the_same_release_only(
        release: tuple[Path, Path]) -> None:
    site, manifest = release
    assert at_launch(site).ok
    (site / "pkg/rules.py").write_text("PAY = 2\n")  # after the launcher looked
    report = Report()
    check_program(report, site, manifest, require_manifest=True)
    assert report.checks[0].ok  # the launcher's result, not a second reading
    program_files.AT_LAUNCH = ProgramCheck(site.parents[2], manifest.with_name("other"))
    report = Report()
    check_program(report, site, manifest, require_manifest=True)
    assert not report.checks[0].ok
    assert "changed: lib/python3.11/site-packages/pkg/rules.py" in report.checks[0].detail

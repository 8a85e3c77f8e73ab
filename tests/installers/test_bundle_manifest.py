"""The Windows bundle's manifest (``make_manifest.py --wheel``: the console's own files and
paytables, no header) still holds the bundle's program folder to it, as the self-test does
there: passing as built, a changed or added module named."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from dealer_console.selftest.integrity import check_program
from dealer_console.selftest.report import Report
from tests.installers.conftest import LINUX


def _bundle(tmp_path: Path) -> tuple[Path, Path]:
    wheel = tmp_path / "dealer_console-0.1.0-py3-none-any.whl"
    files = {"dealer_console/__init__.py": "", "dealer_console/settle.py": "PAY = 1\n",
             "ui/app.py": "TITLE = 'x'\n", "drivers/pump.py": "RATE = 2\n"}
    with zipfile.ZipFile(wheel, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    program = tmp_path / "_internal"
    for name, text in files.items():
        (program / name).parent.mkdir(parents=True, exist_ok=True)
        (program / name).write_text(text)
    config = program / "config" / "paytables"
    config.mkdir(parents=True)
    (config / "wa.toml").write_text("pays = 8\n")
    manifest = program / "dealer-console.manifest"
    subprocess.run([sys.executable, str(LINUX / "make_manifest.py"), "--wheel", str(wheel),
                    "--config", str(program / "config"), "--out", str(manifest)], check=True,
                   capture_output=True, timeout=60)
    return program, manifest


def _program(program: Path, manifest: Path) -> str:
    report = Report()
    check_program(report, program, manifest, require_manifest=True)
    [line] = [c.line() for c in report.checks if c.item == "program"]
    return line


def test_the_bundle_passes_and_a_changed_or_added_module_is_named(tmp_path: Path) -> None:
    program, manifest = _bundle(tmp_path)
    assert _program(program, manifest).startswith("PASS  program: 5 files match")
    (program / "dealer_console/settle.py").write_text("PAY = 2\n")
    assert "changed: dealer_console/settle.py" in _program(program, manifest)
    (program / "dealer_console/settle.py").write_text("PAY = 1\n")
    (program / "drivers/extra.py").write_text("print('x')\n")
    assert "not in the manifest: drivers/extra.py" in _program(program, manifest)

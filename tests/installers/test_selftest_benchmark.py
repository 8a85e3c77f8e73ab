"""The short form of ``benchmarks/selftest_program.py`` runs and prints its figures (the
figures themselves are read, not asserted: speed is no unit test's business)."""

from __future__ import annotations

import subprocess
import sys

from tests.installers.conftest import REPO


def test_the_program_check_benchmark_runs_in_short_form() -> None:
    done = subprocess.run([sys.executable, str(REPO / "benchmarks/selftest_program.py"),
                           "--quick"], capture_output=True, text=True, timeout=300, cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert "500 files, 20 MB" in done.stdout and "files/s" in done.stdout

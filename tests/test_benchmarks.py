"""Every benchmark's short form runs in the suite, so a benchmark that breaks fails CI
(issue 24: `benchmarks/gui_console.py` had broken unseen). Nothing here is timed: each must run
to its end, exit 0 and print its figures. Two have their short forms beside the tests of
what they measure: the link's soak (`tests/link/test_soak.py`, `tests/link/test_load.py`)
and the installed self-test (`tests/installers/test_selftest_benchmark.py`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

SHORT_FORMS = {
    "drivers_keypad.py": (["--quick"], "keypad end to end:"),
    "drivers_serial.py": (["--quick"], "shuffler last byte -> event"),
    "gui_console.py": (["--smoke"], "supervisor's card to its area painted"),
    "long_run.py": (["--rounds", "20", "--every", "10"], "full collection"),
    "math_counts.py": (["--quick"], "math ace-high"),
    "pit_soak.py": (["--quick"], "change to pit"),
    "round_sim.py": (["--rounds", "6"], "in-process"),
    "rules_batch.py": (["--hands", "200"], "hands/s"),
}


def test_every_benchmark_has_a_short_form_here() -> None:
    elsewhere = {"link_soak.py": "tests/link/test_soak.py",
                 "selftest_program.py": "tests/installers/test_selftest_benchmark.py"}
    assert all((ROOT / test).is_file() for test in elsewhere.values())
    scripts = {p.name for p in (ROOT / "benchmarks").glob("*.py")} - set(elsewhere)
    assert scripts == set(SHORT_FORMS)


@pytest.mark.parametrize("script", sorted(SHORT_FORMS))
def test_the_benchmark_s_short_form_runs_to_its_end(script: str) -> None:
    args, figure = SHORT_FORMS[script]
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), *args], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    assert figure in done.stdout, done.stdout[-2000:]

"""The suite's worker groups hold (``tests/conftest.py``): tests put in one group, by a
module's own ``xdist_group`` mark or by a shared fixture, run on one worker.

A group that did not hold let two workers share what only one may use: the kiosk tests' one
system user, whose teardown kills every process of that user, killed the other worker's
console in the middle of its test (a suite run, stop 34)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import textwrap
from collections import defaultdict
from pathlib import Path

CONFTEST = Path(__file__).with_name("conftest.py")

MARKED = '''
import pytest

pytestmark = pytest.mark.xdist_group("one-user")


@pytest.mark.parametrize("n", range(6))
def test_marked(n):
    pass
'''

SHARED = '''
import pytest


@pytest.fixture(scope="session")
def server():
    return object()


@pytest.mark.parametrize("n", range(6))
def test_shared(server, n):
    pass
'''

LOOSE = '''
import pytest


@pytest.mark.parametrize("n", range(12))
def test_loose(n):
    pass
'''


def _workers(tmp_path: Path) -> tuple[dict[str, set[str]], str]:
    """Run a small suite on two workers: the workers each test function ran on, and the
    output."""
    tests = tmp_path / "tests"
    tests.mkdir()
    shutil.copy(CONFTEST, tests / "conftest.py")
    for name, text in (("marked", MARKED), ("shared", SHARED), ("loose", LOOSE)):
        (tests / f"test_{name}.py").write_text(textwrap.dedent(text))
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "2", "--dist", "loadgroup", "-v",
         "-p", "no:cacheprovider", "-p", "no:pytest-qt", "tests"],  # no Qt in these
        cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    ran: dict[str, set[str]] = defaultdict(set)
    for worker, test in re.findall(r"\[(gw\d+)\][^\n]*?PASSED (\S+)", done.stdout):
        ran[test.split("::")[1].split("[")[0]].add(worker)
    return ran, done.stdout


def test_a_module_s_own_group_and_a_shared_fixture_s_group_each_keep_to_one_worker(
        tmp_path: Path) -> None:
    ran, out = _workers(tmp_path)
    assert len(ran["test_marked"]) == 1, out
    assert len(ran["test_shared"]) == 1, out
    assert "test_marked[0]@one-user" in out and "test_shared[0]@session-server" in out, out
    # the rest belong to no group: they go to whichever worker is free
    assert "test_loose[0] " in out and "test_loose[0]@" not in out, out
    assert "2 workers" in out, out

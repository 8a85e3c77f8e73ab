"""``dealer-console table-db new`` as root, in a folder the service user owns: the files it
made are given to that user by their own names, and nothing a link there names is touched
(an outside review had it give a file of root's, behind a link ``table.db-x``, to the service
user); its note in the self-test log never goes through a link either."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

CARD = ";6006001234567890=2812?\n"
SERVICE_USER = 65534


@pytest.mark.skipif(os.geteuid() != 0, reason="the act is root's")
def test_table_db_new_gives_only_its_own_files_to_the_service_user(tmp_path: Path) -> None:
    data = tmp_path / "var-lib-dealer-console"
    data.mkdir()
    os.chown(data, SERVICE_USER, SERVICE_USER)  # the service user's folder
    etc, logs = tmp_path / "etc", tmp_path / "var-log"
    etc.mkdir()
    logs.mkdir()
    precious = etc / "shadow"  # stands for any file of root's
    precious.write_text("root:x:19000:0:99999:7:::\n")
    (data / "table.db-x").symlink_to(precious)  # what the service user left in its folder
    (logs / "self-test.log").symlink_to(precious)
    done = subprocess.run(
        [sys.executable, "-m", "dealer_console.cli", "table-db", "new", "--db",
         str(data / "table.db"), "--anchor", str(etc / "table-db.anchor"), "E100",
         "Pat Executive"], input=CARD, capture_output=True, text=True, timeout=120,
        env=dict(os.environ, QT_QPA_PLATFORM="offscreen",
                 DEALER_CONSOLE_SELFTEST_LOG=str(logs / "self-test.log")))
    assert precious.stat().st_uid == 0
    assert precious.read_text() == "root:x:19000:0:99999:7:::\n"
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [  # the note refused in plain words, one line
        f"table-db new: the self-test log was not written: {logs / 'self-test.log'} is a "
        "symbolic link: the log line was not written (a log file is never written through a "
        "link)"]
    assert (data / "table.db").stat().st_uid == SERVICE_USER
    assert (data / "table.db").exists() and (etc / "table-db.anchor").exists()

"""A log line appended where root may write in the service user's folder
(``storage/log_files.py``): never through a symbolic link or into a second name of another
file; a plain file gets the line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from dealer_console.storage.log_files import LogFileRefused, append_line


def test_a_plain_file_gets_the_line_and_a_missing_one_is_made(tmp_path: Path) -> None:
    log = tmp_path / "self-test.log"
    append_line(log, "one\n")
    append_line(log, "two\n", sync=False)
    assert log.read_text() == "one\ntwo\n"
    assert log.stat().st_mode & 0o777 == 0o640


def test_a_link_or_a_second_name_is_refused_and_nothing_written(tmp_path: Path) -> None:
    precious = tmp_path / "ld.so.preload"  # a file of root's elsewhere
    precious.write_text("")
    link = tmp_path / "logs" / "self-test.log"
    link.parent.mkdir()
    link.symlink_to(precious)
    with pytest.raises(LogFileRefused, match="is a symbolic link"):
        append_line(link, "/var/lib/dealer-console/table.db\n")
    link.unlink()
    os.link(precious, link)  # a hard link: the same file under the log's name
    with pytest.raises(LogFileRefused, match="not a plain file of its own"):
        append_line(link, "/var/lib/dealer-console/table.db\n")
    assert precious.read_text() == ""
    folder = tmp_path / "logs" / "a folder"
    folder.mkdir()
    with pytest.raises(LogFileRefused):
        append_line(folder, "x\n")

"""The audit key's access check behind one question with an implementation per system:
permission bits on Linux (a real file), Windows' access list as ``icacls`` prints it (its
output parsed here: no Windows machine runs these tests)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_console.storage import key_access
from dealer_console.storage.anchor import AnchorError, create_key, load_key

KEY = r"C:\ProgramData\DealerConsole\audit.key"
PRIVATE = f"""{KEY} NT AUTHORITY\\SYSTEM:(F)
                                       BUILTIN\\Administrators:(F)
                                       TABLE-07\\dealer:(R)

Successfully processed 1 files; Failed processing 0 files
"""
OPEN = f"""{KEY} NT AUTHORITY\\SYSTEM:(I)(F)
                                       BUILTIN\\Administrators:(I)(F)
                                       TABLE-07\\dealer:(I)(F)
                                       BUILTIN\\Users:(I)(RX)
                                       Everyone:(DENY)(W)

Successfully processed 1 files; Failed processing 0 files
"""


def test_windows_access_list_is_read_from_icacls() -> None:
    assert key_access.icacls_readers(PRIVATE, KEY) == [
        "NT AUTHORITY\\SYSTEM", "BUILTIN\\Administrators", "TABLE-07\\dealer"]
    readers = key_access.icacls_readers(OPEN, KEY)
    assert "BUILTIN\\Users" in readers and "Everyone" not in readers  # a deny is no reader
    assert key_access.windows_problem_from(
        key_access.icacls_readers(PRIVATE, KEY), "TABLE-07\\dealer") is None
    problem = key_access.windows_problem_from(readers, "TABLE-07\\dealer")
    assert problem is not None and "BUILTIN\\Users" in problem and "icacls" in problem


def test_each_system_has_its_check() -> None:
    assert key_access.checker("win32") is key_access.windows_problem
    assert key_access.checker("linux") is key_access.posix_problem


def test_a_key_others_can_read_is_refused_here(tmp_path: Path) -> None:
    key = tmp_path / "audit.key"
    create_key(key)
    assert len(load_key(key)) == 32
    key.chmod(0o640)
    with pytest.raises(AnchorError, match="readable by others; chmod 600"):
        load_key(key)

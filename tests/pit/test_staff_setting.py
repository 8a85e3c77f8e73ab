"""A table keeping the casino's staff list says so in its console.env
(``DEALER_CONSOLE_STAFF=casino``, docs/pit.md): the self-test's system-files item takes that
setting, and no other value of it."""

from __future__ import annotations

from pathlib import Path

from dealer_console.selftest.system_files import _differs, _env

SHIPPED = Path(__file__).resolve().parents[2] / "installers" / "linux" / "files" / "console.env"


def test_console_env_takes_the_casino_s_staff_list_setting(tmp_path: Path) -> None:
    table = tmp_path / "console.env"
    base = SHIPPED.read_text("utf-8")
    table.write_text(base + "DEALER_CONSOLE_TABLE_ID=pit1-t3\nDEALER_CONSOLE_STAFF=casino\n",
                     "utf-8")
    assert _differs(table, SHIPPED, _env, subset=False) is None
    for bad in ("DEALER_CONSOLE_STAFF=own", "DEALER_CONSOLE_STAFF=casino;x",
                'DEALER_CONSOLE_STAFF="casino" LD_PRELOAD=/tmp/x.so'):
        table.write_text(base + bad + "\n", "utf-8")
        found = _differs(table, SHIPPED, _env, subset=False)
        assert found is not None and "is not in the shipped file" in found, bad

"""The dealer sees the jackpot link's health in the device area: down (with the reason, and
that jackpot wagers are refused) while the real PostgreSQL server cannot serve the link, and
connected once it can, redrawn when the sender's health turns (no screen polls the server)."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest
from PySide6.QtWidgets import QLabel

from dealer_console.controller.link_device import LINK_DEVICE
from dealer_console.profiles.loader import load_profile
from dealer_link import server, server_schema
from tests.link.helpers import linked_profile_file
from tests.link.pg_server import PgServer
from ui.gallery.meter import start_player
from ui.gallery.player import ScreenPlayer
from ui.screenshots import SIZES, render

LINK = "pit-1"
SCREENSHOTS = Path(__file__).resolve().parents[3] / "docs" / "screenshots"


def _link_line(p: ScreenPlayer) -> tuple[bool, str | None]:
    view = next(d for d in p.ctl.snapshot().devices if d.name == LINK_DEVICE)
    return view.connected, view.fault


def _link_detail(p: ScreenPlayer) -> str:
    """The driver's own words, for the technician (here: the database the server lacks)."""
    return next(d.detail for d in p.ctl.snapshot().devices if d.name == LINK_DEVICE)


def _banner(p: ScreenPlayer) -> str:
    return " ".join(label.text() for label in p.window.faults.findChildren(QLabel))


def test_the_dealer_sees_the_link_down_with_its_reason_then_up(
        tmp_path: Path, pg_server: PgServer, monkeypatch: pytest.MonkeyPatch) -> None:
    profile = load_profile(linked_profile_file(tmp_path, LINK))
    assert profile.jackpots is not None
    name = "link_device_test"
    login = f"{name}-table-a"  # the table's own login (made by hand: no link yet to add it)
    with psycopg.connect(pg_server.dsn(), autocommit=True) as admin:
        admin.execute(f"CREATE ROLE \"{login}\" LOGIN PASSWORD 'table-a-secret'".encode())
    pg_server.add_password(login, "table-a-secret")
    monkeypatch.setenv("DEALER_CONSOLE_LINK_DSN", pg_server.dsn(name, user=login))  # no such
    # database yet
    monkeypatch.setenv("DEALER_CONSOLE_TABLE_ID", "table-a")
    p = start_player(profile, tmp_path / "table.db", meter_display=False)
    try:
        p.wait(lambda: name in _link_detail(p), "the link down with the server's reason")
        connected, fault = _link_line(p)
        assert not connected
        assert fault == "down: the link server cannot be reached"
        p.wait(lambda: f"Jackpot link {LINK}" in _banner(p), "the link in the fault banner")
        assert "no jackpot wagers" in _banner(p)
        assert f"Jackpot link {LINK} FAULT" in p.window.devices.text()
        for size in SIZES:
            render(p.window, SCREENSHOTS / f"dealer-link-down-{size[0]}x{size[1]}.png", size)

        with psycopg.connect(pg_server.dsn(), autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {name}".encode())
        conn = server.connect(pg_server.dsn(name))
        server_schema.apply(conn)
        server.install_game(conn, LINK, profile.jackpots.games[0], actor="test")
        conn.execute(f"GRANT dealer_link_table TO \"{login}\"".encode())
        conn.execute("SELECT link_register_login(%s, 'table-a', 'the test table')", [login])
        conn.execute("SELECT link_set_table_link('table-a', %s, true, 'the test table')",
                     [LINK])
        conn.close()
        p.wait(lambda: _link_line(p) == (True, None), "the link up", timeout=30)
        p.wait(lambda: "Jackpot link" not in _banner(p), "the banner cleared")
        assert f"Jackpot link {LINK} OK" in p.window.devices.text()
    finally:
        p.close()

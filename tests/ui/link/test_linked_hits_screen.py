"""The supervisor's "Linked hits" screen through the real supervisor's area: every hit on the
link from the real PostgreSQL server, the table each was on (this one marked), read off the
GUI thread; the server's trouble told in plain words with the last list kept."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from dealer_console.jackpot_values.link_records import Owed
from dealer_console.jackpot_values.meters import MICRO
from dealer_console.link.health import now as taken_now
from dealer_console.money import format_cents
from dealer_link import server
from tests.link.helpers import as_table, serve_linked_profile, table_dsn
from tests.link.pg_server import PgServer
from ui.gallery.meter import start_player
from ui.screenshots import SIZES, render
from ui.supervisor.link_hits_screen import LinkHitsScreen

LINK = "pit-1"
SCREENSHOTS = Path(__file__).resolve().parents[3] / "docs" / "screenshots"
FULL_HOUSE, WILD_SF = 8, 3


def test_the_supervisor_sees_each_linked_hit_with_its_table(
        tmp_path: Path, link_dsn: str, pg_server: PgServer,
        monkeypatch: pytest.MonkeyPatch) -> None:
    _profile, game, conn = serve_linked_profile(tmp_path, LINK, link_dsn,
                                                other_table="table-b", wagers=30)
    a, b = as_table(link_dsn, "table-a"), as_table(link_dsn, "table-b")
    server.contribute(a, LINK, "table-a", [Owed(7, 1, 1, 4, game.wager_cents, taken_now())])
    other = server.confirm_hit(b, LINK, "table-b", round_id=3, spot=1, seat=1,
                               line_no=WILD_SF, employee_id="S1")
    mine = server.confirm_hit(a, LINK, "table-a", round_id=7, spot=1, seat=4,
                              line_no=FULL_HOUSE, employee_id="SIM-S1")
    a.close()
    b.close()
    monkeypatch.setenv("DEALER_CONSOLE_LINK_DSN", table_dsn(link_dsn, "table-a"))
    monkeypatch.setenv("DEALER_CONSOLE_TABLE_ID", "table-a")
    p = start_player(_profile, tmp_path / "table.db", meter_display=False)
    try:
        area = p.open_supervisor("supervisor")
        p.tap(area.buttons["Linked hits"])
        screen = area.screens["Linked hits"]
        assert isinstance(screen, LinkHitsScreen)
        p.wait(lambda: screen.table.rowCount() == 2, "the link's hits read from its server")
        rows = [[screen.table.item(r, c).text() for c in range(screen.table.columnCount())]
                for r in range(2)]
        by_table = {row[1]: row for row in rows}
        assert set(by_table) == {"table-b", "table-a\n(this table)"}
        theirs = by_table["table-b"]
        assert theirs[0] == f"{LINK}\n#{other.hit_id}"
        assert theirs[2] == "3\nseat 1"
        assert theirs[4] == format_cents(other.amount_cents)
        assert other.meter_before_micro is not None and other.meter_after_micro is not None
        assert theirs[5] == (f"main {format_cents(other.meter_before_micro // MICRO)}\n"
                             f"-> {format_cents(other.meter_after_micro // MICRO)}")
        assert by_table["table-a\n(this table)"][4] == format_cents(mine.amount_cents)
        assert "2 hits on the link" in screen.status.text()
        for size in SIZES:
            render(p.window, SCREENSHOTS / f"supervisor-linked-hits-{size[0]}x{size[1]}.png",
                   size)
        # the link's database goes away: the screen says so, keeps the last list it read
        conn.close()
        name = link_dsn.rsplit("dbname=", 1)[-1].split()[0]
        with psycopg.connect(pg_server.dsn(), autocommit=True) as admin:
            admin.execute(f"DROP DATABASE {name} WITH (FORCE)".encode())
        p.tap(screen.refresh)
        p.wait(lambda: screen.status.text().startswith("The link server cannot be reached"),
               "the failed read told")
        assert "call the technician" in screen.status.text()
        assert "last one read" in screen.status.text()
        assert screen.table.rowCount() == 2
    finally:
        p.close()

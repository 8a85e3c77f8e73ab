"""The meter display of a linked game shows the link's shared amounts, read from the real
PostgreSQL server off the GUI thread, and says the game is linked and to which link."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_console.jackpot_values.link_records import Owed
from dealer_console.jackpot_values.meters import MICRO
from dealer_console.link.health import now as taken_now
from dealer_console.money import format_cents
from dealer_link import server
from tests.link.helpers import as_table, serve_linked_profile, table_dsn
from ui.gallery.meter import start_player
from ui.meter_display.window import MeterDisplayWindow
from ui.screenshots import SIZES, render

LINK = "pit-1"
SCREENSHOTS = Path(__file__).resolve().parents[3] / "docs" / "screenshots"


def test_a_linked_game_shows_the_servers_meters_and_its_link(
        tmp_path: Path, link_dsn: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # another table on the link has taken 40 wagers: this table's own rows know nothing
    profile, game, conn = serve_linked_profile(tmp_path, LINK, link_dsn, other_table="table-b",
                                               wagers=40)
    shared = {lv: st.meter_micro // MICRO for lv, st in server.meter_states(conn, LINK).items()}
    seeds = {lv.name: lv.seed_cents for lv in game.levels}
    assert all(shared[lv] > seeds[lv] for lv in seeds)  # the shared meter has moved

    monkeypatch.setenv("DEALER_CONSOLE_LINK_DSN", table_dsn(link_dsn, "table-a"))
    monkeypatch.setenv("DEALER_CONSOLE_TABLE_ID", "table-a")
    p = start_player(profile, tmp_path / "table.db", meter_display=False)
    window = MeterDisplayWindow(p.ctl, p.console.bridge)
    try:
        panel_text = lambda: {lv: lab.text() for lv, lab in window.panels[1].meters.items()}  # noqa: E731
        p.wait(lambda: bool(window.panels)
               and panel_text() == {lv: format_cents(c) for lv, c in shared.items()},
               "the link's amounts on the meter display")
        assert LINK in window.panels[1].title.text()
        assert "linked" in window.panels[1].title.text()
        # the link moves on (another table's wager) while nothing changes at this table: the
        # display reads the shared meter again on its own (LINKED_POLL_MS)
        with as_table(link_dsn, "table-b") as other:
            assert server.contribute(other, LINK, "table-b", [
                Owed(41, 1, 1, 2, game.wager_cents, taken_now())]) == 1
        moved = {lv: st.meter_micro // MICRO
                 for lv, st in server.meter_states(conn, LINK).items()}
        p.wait(lambda: panel_text() == {lv: format_cents(c) for lv, c in moved.items()},
               "the moved amounts")
        # the server ends the display's connection: the next read says so at the bottom and
        # keeps the link's last amounts (never the table's own); the read after reconnects
        ended = conn.execute("SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM "
                             "pg_stat_activity WHERE application_name = %s) x",
                             ["dealer-console meter display"]).fetchone()
        assert ended is not None and ended[0] == 1
        window.show_view(p.ctl.snapshot())
        p.wait(lambda: window.problem.text().startswith("the linked meters cannot be read"),
               "the failed read said")
        assert panel_text() == {lv: format_cents(c) for lv, c in moved.items()}
        window.show_view(p.ctl.snapshot())
        p.wait(lambda: window.problem.isHidden(), "the next read to reconnect")
        assert panel_text() == {lv: format_cents(c) for lv, c in moved.items()}
        for size in SIZES:
            render(window, SCREENSHOTS / f"meter-display-linked-{size[0]}x{size[1]}.png", size)
    finally:
        window.stop()
        window.close()
        p.close()
        conn.close()

"""A linked hit through the dealer's real screens: the hand dealt by the simulated shuffler, the
chip on the simulated sensors, the supervisor's card on the simulated keypad's reader; the
award decided by the real PostgreSQL link server from the shared meter (which another table
has moved), recorded at the table exactly as the server paid it (``docs/link.md``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_console.audit.verify import audit
from dealer_console.jackpot_values.meters import MICRO
from dealer_console.money import format_cents
from dealer_console.round.state import Phase
from dealer_link import server
from tests.link.helpers import serve_linked_profile, table_dsn
from tests.ui.test_jackpot_panel import WILD_SF, panel
from ui.gallery.meter import start_player
from ui.gallery.player import ScreenPlayer
from ui.screenshots import SIZES, render
from ui.supervisor.jackpot_screen import COLUMNS, JackpotScreen

LINK = "pit-1"
SCREENSHOTS = Path(__file__).resolve().parents[3] / "docs" / "screenshots"
WILD_SF_LINE = 3
"""FUPGPP-WA01's line 3: 25% of the main meter."""


def hit_dealt_on_the_link(p: ScreenPlayer) -> None:
    """Once the table's link is up, a round with a seven-card wild straight flush at seat 1,
    played to its end: the hit waits for its card."""
    link = p.console.opened.link
    assert link is not None
    p.wait(lambda: link.health.view().up, "the link up")
    p.deal_jackpot_hands([WILD_SF])
    assert p.phase is Phase.END


def test_a_linked_hit_is_paid_by_the_server_from_the_shared_meter(
        tmp_path: Path, link_dsn: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # another table on the link has taken 60 wagers: this table's own rows know nothing
    profile, _game, conn = serve_linked_profile(tmp_path, LINK, link_dsn, other_table="table-b",
                                               wagers=60)
    monkeypatch.setenv("DEALER_CONSOLE_LINK_DSN", table_dsn(link_dsn, "table-a"))
    monkeypatch.setenv("DEALER_CONSOLE_TABLE_ID", "table-a")
    p = start_player(profile, tmp_path / "table.db", meter_display=False)
    try:
        hit_dealt_on_the_link(p)
        p.wait(lambda: conn.execute("SELECT COUNT(*) FROM link_contributions WHERE "
                                    "table_id = 'table-a'").fetchone() == (3,),
               "this table's three wagers on the link")
        quoted = server.quote(conn, LINK, WILD_SF_LINE).amount_cents
        p.wait(lambda: [h.amount_cents for h in p.ctl.snapshot().jackpot_pending] == [quoted],
               "the panel quoting the shared meter")
        db = p.console.opened.db
        own = db.execute("SELECT meter_micro FROM jackpot_levels").fetchone()[0]
        assert own // MICRO * 25 // 100 != quoted  # the table's own meter would pay otherwise
        p.tap(panel(p).confirm)
        p.swipe("supervisor")
        p.wait(lambda: not p.ctl.snapshot().jackpot_pending, "the server's award recorded")
        (hit,) = server.hits(conn, LINK)
        assert (hit.table_id, hit.seat, hit.line_no, hit.amount_cents) == (
            "table-a", 1, WILD_SF_LINE, quoted)
        row = db.execute("SELECT amount_cents, meter_before_micro, meter_after_micro, link, "
                         "link_hit_id FROM jackpot_hits").fetchone()
        assert tuple(row) == (quoted, hit.meter_before_micro, hit.meter_after_micro, LINK,
                              hit.hit_id)
        assert db.execute("SELECT meter_micro FROM jackpot_levels").fetchone()[0] == own
        assert db.execute("SELECT COUNT(*) FROM jackpot_ledger WHERE kind = 'award'"
                          ).fetchone()[0] == 0
        text = panel(p).result.text()
        assert f"Paid: seat 1, 7 card wild straight flush with joker, {format_cents(quoted)}" \
            in text
        assert f"(shared, link {LINK})" in text
        for size in SIZES:
            render(p.window, SCREENSHOTS / f"dealer-linked-hit-{size[0]}x{size[1]}.png", size)
        p.end_game()
        report = audit(db, profiles=[profile])
        assert report.ok, report.problems
        # the supervisor's awards list names the link, and offers no back-out at the table
        area = p.open_supervisor("supervisor")
        p.tap(area.buttons["Jackpot awards"])
        screen = area.screens["Jackpot awards"]
        assert isinstance(screen, JackpotScreen)
        status = screen.table.item(0, len(COLUMNS) - 1).text()
        assert status == f"paid by link {LINK} (its hit {hit.hit_id})"
        assert not screen.back_out.isEnabled()
        assert "on the link's server" in screen.detail.text()
    finally:
        p.close()
        conn.close()

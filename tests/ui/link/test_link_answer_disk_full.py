"""The link's server has paid a hit, and the table's disk refuses to record it: the answer
waits at the head of the console's inbox and is recorded, once, as soon as a technician frees
space, with no card swiped again (the server pays a hit once; its answer is not sent twice).
Before, the dealer was told to swipe again, and a supervisor away from the table left the
hit paid on the server and missing at the table."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_console.audit.verify import audit
from dealer_console.controller.jackpot_desk import JackpotDesk
from dealer_console.storage.identity import StorageError
from dealer_link import server
from tests.controller.small_disk import Disk, disk  # noqa: F401  (the fixture)
from tests.link.helpers import serve_linked_profile, table_dsn
from tests.ui.link.test_linked_hit_panel import hit_dealt_on_the_link
from tests.ui.test_jackpot_panel import panel
from ui.gallery.meter import start_player

LINK = "pit-1"


def test_a_paid_hit_the_disk_refused_is_recorded_once_space_is_freed(
        tmp_path: Path, disk: Disk, link_dsn: str,  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    profile, _game, conn = serve_linked_profile(tmp_path, LINK, link_dsn, other_table="table-b",
                                               wagers=10)
    monkeypatch.setenv("DEALER_CONSOLE_LINK_DSN", table_dsn(link_dsn, "table-a"))
    monkeypatch.setenv("DEALER_CONSOLE_TABLE_ID", "table-a")
    p = start_player(profile, disk.where / "table.db", meter_display=False)
    refused: list[StorageError] = []
    answered = JackpotDesk.link_answered

    def disk_full_at_the_answer(desk: JackpotDesk, answer: object) -> None:
        if not refused:  # the disk fills as the server's answer comes in
            disk.fill()
        try:
            answered(desk, answer)  # type: ignore[arg-type]
        except StorageError as exc:
            refused.append(exc)
            raise

    try:
        hit_dealt_on_the_link(p)
        p.wait(lambda: bool(p.ctl.snapshot().jackpot_pending), "the hit quoted")
        monkeypatch.setattr(JackpotDesk, "link_answered", disk_full_at_the_answer)
        p.tap(panel(p).confirm)
        p.swipe("supervisor")
        p.wait(lambda: bool(refused), "the server's answer refused by the disk")
        (paid,) = server.hits(conn, LINK)  # paid on the server
        db = p.console.opened.db
        assert db.execute("SELECT COUNT(*) FROM jackpot_hits").fetchone()[0] == 0
        notice = p.ctl.snapshot().notice
        assert notice is not None
        assert "the jackpot link paid this hit, but it could not be saved here" in notice.what
        assert "saves the hit as soon as the disk takes it" in notice.todo
        assert p.ctl.snapshot().jackpot_pending  # still waiting, not lost
        disk.free()
        # nothing but the console's own retry: no swipe, no tap
        p.wait(lambda: not p.ctl.snapshot().jackpot_pending, "the paid hit recorded",
               timeout=15)
        rows = db.execute("SELECT amount_cents, link_hit_id FROM jackpot_hits").fetchall()
        assert [tuple(r) for r in rows] == [(paid.amount_cents, paid.hit_id)]
        assert len(server.hits(conn, LINK)) == 1  # paid once
        p.end_game()
        report = audit(db, profiles=[profile])
        assert report.ok, report.problems
    finally:
        p.close()
        conn.close()

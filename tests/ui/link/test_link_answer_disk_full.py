"""The link's server has answered a hit, and the table's disk refuses to record the answer:
the answer waits at the head of the console's inbox and is recorded, once, as soon as a
technician frees space, with no card swiped again (the server pays a hit once; its answer is
not sent twice). Before, the dealer was told to swipe again, and a supervisor away from the
table left the hit paid on the server and missing at the table. A refusal is kept the same
way: an outside review found it told as paid, then dropped in silence once space was freed."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from dealer_console.audit.verify import audit
from dealer_console.controller.jackpot_desk import JackpotDesk
from dealer_console.jackpot import linked
from dealer_console.jackpot_values.link_records import HitAnswer
from dealer_console.storage.identity import StorageError
from dealer_link import admin, server
from tests.controller.small_disk import Disk, disk  # noqa: F401  (the fixture)
from tests.link.helpers import serve_linked_profile, table_dsn
from tests.ui.link.test_linked_hit_panel import hit_dealt_on_the_link
from tests.ui.test_disk_full import fits_both_screens
from tests.ui.test_jackpot_panel import panel
from ui.gallery.meter import start_player
from ui.gallery.player import ScreenPlayer

LINK = "pit-1"


@dataclass
class Table:
    """A linked console on a small disk that fills as the server's first answer comes in."""
    p: ScreenPlayer
    conn: server.Connection
    disk: Disk
    answers: list[HitAnswer] = field(default_factory=list)
    refused: list[StorageError] = field(default_factory=list)

    def told(self) -> tuple[str, str]:
        notice = self.p.ctl.snapshot().notice
        assert notice is not None
        return notice.what, notice.todo


@pytest.fixture
def table(tmp_path: Path, disk: Disk, link_dsn: str,  # noqa: F811
          monkeypatch: pytest.MonkeyPatch) -> Iterator[Table]:
    profile, _game, conn = serve_linked_profile(tmp_path, LINK, link_dsn, other_table="table-b",
                                               wagers=10)
    monkeypatch.setenv("DEALER_CONSOLE_LINK_DSN", table_dsn(link_dsn, "table-a"))
    monkeypatch.setenv("DEALER_CONSOLE_TABLE_ID", "table-a")
    t = Table(start_player(profile, disk.where / "table.db", meter_display=False), conn, disk)
    answered = JackpotDesk.link_answered

    def disk_full_at_the_answer(desk: JackpotDesk, answer: HitAnswer) -> None:
        t.answers.append(answer)
        if not t.refused:
            disk.fill()
        try:
            answered(desk, answer)
        except StorageError as exc:
            t.refused.append(exc)
            raise

    try:
        hit_dealt_on_the_link(t.p)
        # the round's wagers on the server first: it refuses a hit on a wager it has not got
        t.p.wait(lambda: conn.execute("SELECT COUNT(*) FROM link_contributions WHERE "
                                      "table_id = 'table-a'").fetchone() == (3,),
                 "this table's three wagers on the link")
        t.p.wait(lambda: bool(t.p.ctl.snapshot().jackpot_pending), "the hit quoted")
        monkeypatch.setattr(JackpotDesk, "link_answered", disk_full_at_the_answer)
        yield t
        report = audit(t.p.console.opened.db, profiles=[profile])
        assert report.ok, report.problems
    finally:
        t.p.close()
        conn.close()


def swipe_and_see_the_disk_refuse(t: Table) -> None:
    t.p.tap(panel(t.p).confirm)
    t.p.swipe("supervisor")
    t.p.wait(lambda: bool(t.refused), "the server's answer refused by the disk")
    assert t.p.console.opened.db.execute("SELECT COUNT(*) FROM jackpot_hits").fetchone()[0] == 0
    assert t.p.ctl.snapshot().jackpot_pending  # still waiting, not lost


def test_a_paid_hit_the_disk_refused_is_recorded_once_space_is_freed(table: Table,
                                                                    tmp_path: Path) -> None:
    t = table
    swipe_and_see_the_disk_refuse(t)
    (paid,) = server.hits(t.conn, LINK)  # paid on the server
    what, todo = t.told()
    assert what == "Link paid the hit, not saved, the disk is full"
    assert todo == "call a technician: it saves by itself"
    # the jackpot panel, where the swipe was made, says it too: not "nothing was paid"
    t.p.wait(lambda: panel(t.p).result.text() == "Link paid the hit, not saved, the disk is "
             "full. Call a technician: it saves by itself.", "the panel's word")
    fits_both_screens(t.p, tmp_path / "kept")
    t.disk.free()
    # nothing but the console's own retry: no swipe, no tap
    t.p.wait(lambda: not t.p.ctl.snapshot().jackpot_pending, "the paid hit recorded",
             timeout=15)
    db = t.p.console.opened.db
    what, _todo = t.told()  # the alarm replaced once the hit is saved
    assert what == "Jackpot link: saved now, the disk works again"
    fits_both_screens(t.p, tmp_path / "saved")
    rows = db.execute("SELECT amount_cents, link_hit_id FROM jackpot_hits").fetchall()
    assert [tuple(r) for r in rows] == [(paid.amount_cents, paid.hit_id)]
    assert len(server.hits(t.conn, LINK)) == 1  # paid once
    t.p.end_game()


def test_a_refusal_the_disk_refused_is_recorded_and_told_once_space_is_freed(
        table: Table) -> None:
    t = table
    # the server refuses: the supervisor taken off the link's list of confirmers
    admin.set_confirmer(t.conn, "SIM-S1", "Sim Supervisor", "supervisor", enabled=False,
                        reason="the server refuses this card")
    swipe_and_see_the_disk_refuse(t)
    assert t.answers[0].hit is None and t.answers[0].refused
    assert server.hits(t.conn, LINK) == []  # nothing paid on the server
    what, todo = t.told()
    assert what == "Link refused the hit, not saved, the disk is full"
    assert todo == "call a technician: it saves by itself"
    t.disk.free()
    db = t.p.console.opened.db
    t.p.wait(lambda: db.execute("SELECT COUNT(*) FROM jackpot_link_asks WHERE refused_at IS"
                                " NOT NULL").fetchone()[0] == 1,
             "the refusal recorded once space is freed", timeout=15)
    what, _todo = t.told()
    assert "the jackpot link refused seat" in what and "nothing was paid" in what
    assert linked.open_asks(db, t.p.ctl.state.round_id) == []  # the mark is free again


def test_cancelling_the_swipe_while_the_paid_answer_waits_loses_nothing(table: Table) -> None:
    """The panel offers "Cancel the swipe" while the paid answer waits for the disk: the
    dealer taps it. The server has paid; the cancel forgets no pay, the hit is recorded once
    space is freed, and no second swipe is asked for or taken."""
    t = table
    swipe_and_see_the_disk_refuse(t)
    (paid,) = server.hits(t.conn, LINK)
    assert panel(t.p).cancel.isVisible()  # still offered while the answer waits
    t.p.tap(panel(t.p).cancel)
    assert not t.p.ctl.snapshot().jackpot_armed
    assert t.p.ctl.snapshot().jackpot_pending  # the hit still waits for its pay
    assert t.told() == ("Link paid the hit, not saved, the disk is full",
                        "call a technician: it saves by itself")  # no swipe asked for
    t.disk.free()
    t.p.wait(lambda: not t.p.ctl.snapshot().jackpot_pending, "the paid hit recorded",
             timeout=15)
    db = t.p.console.opened.db
    rows = db.execute("SELECT amount_cents, link_hit_id FROM jackpot_hits").fetchall()
    assert [tuple(r) for r in rows] == [(paid.amount_cents, paid.hit_id)]
    assert len(server.hits(t.conn, LINK)) == 1
    t.p.end_game()

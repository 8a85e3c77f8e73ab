"""The pit's pictures: a pit of ten tables with one of each alert, a table opened, a table
whose records went back opened and the reason for clearing it being typed, and a table
keeping the casino's staff list with its link down, on the supervisor's staff screen
(``python -m ui.screenshots --page pit-floor --page pit-table ...``; the fit test renders
the same pages)."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QWidget

from dealer_link.pit.report import DeviceState, TableReport
from dealer_link.pit.server import Ack, ReportRow, Rewind
from ui.pit.window import PitWindow

DEVICES = (DeviceState("Shuffler", True), DeviceState("Bet sensors", True),
           DeviceState("Jackpot keypad", True))


def sample_rows() -> list[ReportRow]:
    """Ten tables of a pit: a jackpot waiting, a closed table, a shuffler down, a lost
    heartbeat, a link down (acknowledged), a table whose records went back, and four playing
    quietly."""
    def row(table: str, *, age_ms: int = 400, acks: dict[str, Ack] | None = None,
            rewind: Rewind | None = None, **changes: object) -> ReportRow:
        base: dict[str, object] = dict(
            table_id=table, phase="betting", round_id=41, round_text="seats 1, 2 and 5 bet",
            table_open=True, self_test="passed", devices=DEVICES, link_state="up",
            jackpots_waiting=0, drop_cents=1_840_000, hold_cents=412_500,
            events=("21:14:09 round 41: wagers taken", "21:13:30 round 40 settled",
                    "21:12:02 round 40: seat 3 a straight flush paid $1,000.00"))
        base.update(changes)
        return ReportRow(TableReport(**base), age_ms, acks or {},  # type: ignore[arg-type]
                         rewind)

    return [
        row("pit1-t1", phase="players_set", round_id=118, jackpots_waiting=1,
            round_text="round 118: seat 4 marked a seven-card straight flush (100% of the "
                       "main meter, $12,480.22); the dealer waits for a supervisor's card",
            drop_cents=2_315_000, hold_cents=598_000),
        row("pit1-t2", table_open=False, phase="betting", round_id=None, round_text="",
            self_test="the shuffler did not answer its self-test: the table stays closed",
            drop_cents=0, hold_cents=0),
        row("pit1-t3", devices=(DeviceState("Shuffler", False, "no answer for 40 s: check "
                                            "its cable"), *DEVICES[1:]), phase="dealing"),
        row("pit1-t4", age_ms=47_000, phase="settlement", drop_cents=960_000,
            hold_cents=-52_500),
        row("pit1-t5", link_state="the link server did not answer within 5 s",
            acks={"link": Ack("S1", "Sam Super", "21:13:55")}),
        row("pit1-t6", round_id=35, rewind=Rewind(3, "back", 48_213, "2026-11-27 20:58:41",
                                                  45_907, "2026-11-27 21:02:17")),
        row("pit1-t7", phase="dealing", round_id=77),
        row("pit1-t8", phase="end", round_id=12, drop_cents=410_000, hold_cents=95_000),
        row("pit1-t9", link_state="none"), row("pit1-t10", phase="complete", round_id=203),
    ]


def floor_page() -> QWidget:
    window = PitWindow()
    window.show_rows(sample_rows())
    return window


def table_page() -> QWidget:
    window = PitWindow()
    window.show_rows(sample_rows())
    window.open_table("pit1-t1")
    return window


def records_page() -> QWidget:
    window = PitWindow()
    window.show_rows(sample_rows())
    window.open_table("pit1-t6")
    return window


def clear_reason_page() -> QWidget:
    window = records_page()
    assert isinstance(window, PitWindow)
    window.ask_reason("pit1-t6")
    window.reason.keys.type_text("Restored from the 20.30 backup after the disk failed - "
                                 "ticket 4411")
    return window


def staff_link_down_page() -> QWidget:
    """The supervisor's staff screen of a table working from its copy of the casino's list
    (the words a :class:`~dealer_link.pit.replica.StaffFeed` gives while the server does
    not answer; no server needed)."""
    from ui.gallery.player import ScreenPlayer

    folder = tempfile.TemporaryDirectory(prefix="pit-staff-")
    p = ScreenPlayer.start("washington-face-up", Path(folder.name) / "table.db")
    p.window.on_closed.extend([p.close, folder.cleanup])
    p.ctl.staff.list_status = lambda: "staff list: the casino's, copy from 21:14:09 (link down)"
    area = p.open_supervisor("supervisor")
    p.tap(area.buttons["Staff"])
    return p.window


PIT_PAGES: dict[str, Callable[[], QWidget]] = {"pit-floor": floor_page,
                                               "pit-table": table_page,
                                               "pit-records": records_page,
                                               "pit-clear-reason": clear_reason_page,
                                               "pit-staff-link-down": staff_link_down_page}


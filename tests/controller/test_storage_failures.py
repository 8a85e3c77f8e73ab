"""A table whose storage fails in play (an outside review): the step the disk refuses is told
in plain words and lost nowhere, and the table goes on once the disk takes writes again. The
disk is filled for real: SQLite's page limit on the connection (``max_page_count``) refuses a
write exactly as a full disk does (SQLITE_FULL), and the journal beside the database is
made a folder the console cannot write."""

from __future__ import annotations

from pathlib import Path

from dealer_console.audit.verify import audit
from dealer_console.round.state import Phase
from dealer_console.storage.anchor import journal_for, read_journal
from tests.controller.conftest import Rig
from tests.controller.test_controller import bet, finish_round, start_by_keypad


def test_a_checkpoint_the_disk_refuses_is_told_and_the_next_round_is_set_up(
        rig: Rig, tmp_path: Path) -> None:
    """The round's END GAME is committed, then its checkpoint cannot be written: before, the
    error left the sensors locked for the old round and the screens on it."""
    ctl = rig.controller
    bus = rig.hardware.bus
    assert bus is not None
    bet(rig)
    start_by_keypad(rig)
    finish_round(rig)
    round_id = ctl.state.round_id
    journal = journal_for(rig.opened.db_path)
    assert not journal.exists()  # the first round's end writes the first line
    journal.mkdir()  # the disk will not take the journal's line
    shown = []
    ctl.add_listener(shown.append)
    ctl.end_game()
    assert ctl.state.round_id == round_id + 1 and ctl.state.phase is Phase.BETTING
    view = shown[-1]
    assert (view.round.round_id, view.round.phase) == (round_id + 1, Phase.BETTING)
    assert view.notice is not None and f"round {round_id} is saved" in view.notice.what
    assert "free space" in view.notice.todo
    rig.until(lambda: not any(node.lock_id for node in bus.nodes.values()),
              "the sensors released")
    journal.rmdir()
    bet(rig)
    start_by_keypad(rig)
    finish_round(rig)
    ctl.end_game()  # the next round's end writes the newest point
    assert read_journal(journal)[-1].seq == rig.opened.db.execute(
        "SELECT MAX(seq) FROM events").fetchone()[0]
    assert audit(rig.opened.db).ok

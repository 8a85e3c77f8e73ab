"""Each checkpoint in the journal says how many rounds were finished when it was written. The
journal now counts on from the rounds it counted before (counting them all at each round's
end took longer every round of a table's life); the numbers must stay those of a full count,
through a restart too."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from dealer_console.storage.anchor import journal_for, read_journal
from drivers.sim.table.run import open_sim, parse_faults


def test_every_checkpoint_counts_the_rounds_finished_by_its_event(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    for resume, rounds in ((False, 9), (True, 16)):  # a restart makes a new journal writer
        with open_sim(db, "washington-face-up", 3, "in-process", parse_faults("all"),
                      resume=resume) as sim:
            sim.dealer.run(rounds)
    checkpoints = read_journal(journal_for(db))
    assert len(checkpoints) >= 16
    conn = sqlite3.connect(db)
    try:
        for cp in checkpoints:
            finished = conn.execute(
                "SELECT COUNT(*) FROM rounds WHERE status IN ('complete', 'voided')"
                " AND last_seq <= ?", [cp.seq]).fetchone()[0]
            assert cp.rounds == finished, cp.line()
    finally:
        conn.close()
    assert checkpoints[-1].rounds == 16

"""The chain anchored outside the file: a log rewritten with its chain recomputed, erased last
rounds and a copy made without its ``-wal`` file all passed ``audit verify`` before; now the
settlement recomputed from the cards, the checkpoint journal, the keyed MAC and the printed
digest catch them. Real files: a table played by ``dealer-console simulate`` (or the round
API), changed the way someone holding the file would change it."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from dealer_console.cli import main
from tests.cli.audit_helpers import erase_rounds_from, guards_off, rechain, rewrite_event

CLI = [sys.executable, "-m", "dealer_console.cli"]


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A California table of 12 rounds with its keyed checkpoint journal, and the key."""
    folder = tmp_path_factory.mktemp("table")
    key = folder / "audit.key"
    assert main(["audit", "init-key", "--key", str(key)]) == 0
    out = subprocess.run(
        [*CLI, "simulate", "--profile", "california-face-up", "--rounds", "12", "--seed", "4",
         "--devices", "in-process", "--db", str(folder / "table.db"), "--audit-key", str(key)],
        capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return folder / "table.db", key


@pytest.fixture
def table(made: tuple[Path, Path], tmp_path: Path) -> Path:
    db, _key = made
    shutil.copy(db, tmp_path / "table.db")
    shutil.copy(f"{db}.checkpoints", tmp_path / "table.db.checkpoints")
    return tmp_path / "table.db"


@pytest.fixture
def key(made: tuple[Path, Path]) -> Path:
    return made[1]


def verify(capsys: pytest.CaptureFixture[str], db: Path, *extra: str) -> tuple[int, str]:
    status = main(["audit", "verify", "--db", str(db), *extra])
    captured = capsys.readouterr()
    return status, captured.out + captured.err


def _lost_base_line(db: Path) -> tuple[int, int, int]:
    """``(seat_settled seq, settlement_planned seq, round)`` of a base wager a player lost."""
    conn = sqlite3.connect(db)
    row = conn.execute(
        "SELECT e.seq, e.round_id FROM events e, json_each(e.payload, '$.lines') l"
        " WHERE e.kind = 'seat_settled' AND json_extract(l.value, '$.kind') = 'base'"
        " AND json_extract(l.value, '$.outcome') = 'loss' ORDER BY e.seq LIMIT 1").fetchone()
    plan, = conn.execute("SELECT MAX(seq) FROM events WHERE kind = 'settlement_planned' AND"
                         " round_id = ? AND seq < ?", [row[1], row[0]]).fetchone()
    conn.close()
    return int(row[0]), int(plan), int(row[1])


def _as_win(line: dict[str, Any]) -> None:
    line.update(outcome="win", returned=2 * line["staked"], banker_delta=-line["staked"],
                house_delta=0)


def rewrite_loss_as_win(db: Path) -> int:
    """The issue's case: a lost base wager made a win in the plan, in the paid lines and in the
    table row, the chain recomputed from there. Returns the round."""
    settled, planned, rid = _lost_base_line(db)
    seat = 0

    def paid(p: dict[str, Any]) -> None:
        nonlocal seat
        line = next(x for x in p["lines"] if x["kind"] == "base" and x["outcome"] == "loss")
        seat = line["seat"]
        _as_win(line)

    rewrite_event(db, settled, paid)

    def plan(p: dict[str, Any]) -> None:
        _as_win(next(x for x in p["lines"] if x["kind"] == "base" and x["seat"] == seat))

    rewrite_event(db, planned, plan)
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER settlement_lines_no_update")
    conn.execute("UPDATE settlement_lines SET outcome = 'win', returned_cents = 2 * staked_cents,"
                 " banker_delta_cents = -staked_cents, house_delta_cents = 0"
                 " WHERE round_id = ? AND seat = ? AND kind = 'base'", [rid, seat])
    conn.commit()
    conn.close()
    return rid


def test_a_played_table_matches_its_keyed_checkpoints(
        table: Path, key: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = Path(f"{table}.checkpoints").read_text().splitlines()
    assert len(lines) == 12  # one per round
    status, out = verify(capsys, table, "--key", str(key))
    assert status == 0, out
    assert "the chain matches its checkpoints up to event" in out


def test_a_lost_wager_rewritten_as_a_win_is_recomputed_from_the_cards(
        table: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No checkpoint needed: the settlement engine settles the round again."""
    rid = rewrite_loss_as_win(table)
    os.remove(f"{table}.checkpoints")
    status, out = verify(capsys, table)
    assert status == 1, out
    assert f"round {rid} event" in out and "(settlement_planned): settlement line" in out
    assert "base win" in out and "recomputed from the cards, settings and wagers" in out


def test_a_rewrite_is_caught_by_the_checkpoint_journal_even_where_no_money_moved(
        table: Path, key: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A change no rule can see (the time a round was opened), chain recomputed: only the
    anchor outside the file tells."""
    conn = sqlite3.connect(table)
    seq, = conn.execute("SELECT seq FROM events WHERE kind = 'round_opened' AND round_id = 3"
                        ).fetchone()
    with guards_off(conn, "events_no_update"):  # and put back: the schema is as it was
        conn.execute("UPDATE events SET recorded_at = '2020-01-01T00:00:00.000000+00:00'"
                     " WHERE seq = ?", [seq])
        rechain(conn, seq)
    conn.commit()
    conn.close()
    journal = Path(f"{table}.checkpoints")
    saved = journal.read_text()
    journal.unlink()
    assert verify(capsys, table)[0] == 0  # the file alone cannot tell
    journal.write_text(saved)
    status, out = verify(capsys, table, "--key", str(key))
    assert status == 1, out
    assert "the log was rewritten at or before event" in out


def test_a_journal_rewritten_to_match_fails_its_mac(
        table: Path, key: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rewrite_loss_as_win(table)
    conn = sqlite3.connect(table)
    heads = dict(conn.execute("SELECT seq, hash FROM events").fetchall())
    conn.close()
    journal = Path(f"{table}.checkpoints")
    forged = []
    for line in journal.read_text().splitlines():
        parts = line.split()
        parts[3] = heads[int(parts[1])]  # the new head, the old MAC
        forged.append(" ".join(parts))
    journal.write_text("\n".join(forged) + "\n")
    status, out = verify(capsys, table, "--key", str(key))
    assert status == 1 and "its MAC does not match" in out, out
    stripped = [" ".join([*line.split()[:5], "-", *line.split()[6:]]) for line in forged]
    journal.write_text("\n".join(stripped) + "\n")
    status, out = verify(capsys, table, "--key", str(key))
    assert status == 1 and "it carries no MAC, but this table's checkpoints are keyed" in out


def test_erased_last_rounds_make_the_database_behind(
        table: Path, key: Path, capsys: pytest.CaptureFixture[str]) -> None:
    erase_rounds_from(table, 11)
    journal = Path(f"{table}.checkpoints")
    saved = journal.read_text()
    journal.unlink()
    assert verify(capsys, table)[0] == 0  # what the audit said before: OK
    journal.write_text(saved)
    status, out = verify(capsys, table, "--key", str(key))
    assert status == 1, out
    assert "it is BEHIND" in out and "(12 rounds finished then, 10 here)" in out


def test_a_printed_digest_catches_a_rewrite_and_a_truncation_without_the_journal(
        table: Path, key: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "checkpoint", "--db", str(table), "--key", str(key),
                 "--journal", str(table.parent / "elsewhere")]) == 0
    digest = capsys.readouterr().out.splitlines()[0]
    assert digest.startswith("DC-CHECKPOINT seq ") and len(digest.split()) == 7
    os.remove(f"{table}.checkpoints")
    shutil.copy(table, table.parent / "truncated.db")
    assert verify(capsys, table, "--key", str(key), "--digest", digest)[0] == 0
    rewrite_loss_as_win(table)
    status, out = verify(capsys, table, "--key", str(key), "--digest", digest)
    assert status == 1 and "digest 1: event" in out and "rewritten" in out, out
    erase_rounds_from(table.parent / "truncated.db", 12)
    status, out = verify(capsys, table.parent / "truncated.db", "--digest", digest)
    assert status == 1 and "digest 1: the table had reached event" in out, out


def test_a_copy_without_its_wal_file_is_behind(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """After a power cut the last rounds may still be in ``table.db-wal``: a copy of the .db
    alone is behind the table, and the checkpoints say so."""
    from dealer_console.storage.anchor import Journal, journal_for
    from tests.round.helpers import make_table, play_round

    table = make_table(tmp_path, "washington-face-up")
    table.db.execute("PRAGMA wal_autocheckpoint=0")  # as if the cut came before SQLite's own
    journal = Journal(journal_for(tmp_path / "table.db"), None)
    for seed in range(5):
        if seed == 2:
            table.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        play_round(table, seed=seed)
        journal.write(table.db)
    copy = tmp_path / "copy" / "table.db"
    copy.parent.mkdir()
    shutil.copy(tmp_path / "table.db", copy)  # the .db without its -wal
    shutil.copy(journal.path, journal_for(copy))
    table.db.close()
    os.remove(journal_for(copy))
    assert verify(capsys, copy)[0] == 0  # what the audit said before
    shutil.copy(journal.path, journal_for(copy))
    status, out = verify(capsys, copy)
    assert status == 1, out
    assert "it is BEHIND" in out and "(5 rounds finished then, 2 here)" in out
    assert "-wal file" in out and "dealer-console backup" in out
    assert verify(capsys, tmp_path / "table.db")[0] == 0  # the table itself is whole


def test_the_key_is_made_once_and_kept_private(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    key = tmp_path / "audit.key"
    assert main(["audit", "init-key", "--key", str(key)]) == 0
    assert key.stat().st_mode & 0o777 == 0o600
    first = key.read_text()
    assert main(["audit", "init-key", "--key", str(key)]) == 2
    assert "never replaced" in capsys.readouterr().err
    assert key.read_text() == first
    key.chmod(0o644)
    db = tmp_path / "t.db"
    from dealer_console.table_db import open_table_db

    open_table_db(db).close()
    assert main(["audit", "verify", "--db", str(db), "--key", str(key)]) == 2
    assert "readable by others; chmod 600" in capsys.readouterr().err
    bad = tmp_path / "bad.key"
    bad.write_text("not a key\n")
    bad.chmod(0o600)
    assert main(["audit", "verify", "--db", str(db), "--key", str(bad)]) == 2
    assert "not an audit key" in capsys.readouterr().err
    os.environ.pop("DEALER_CONSOLE_AUDIT_KEY", None)
    assert main(["audit", "init-key"]) == 2
    assert "give --key FILE" in capsys.readouterr().err


def test_a_broken_chain_is_not_anchored(table: Path, capsys: pytest.CaptureFixture[str]) -> None:
    conn = sqlite3.connect(table)
    conn.execute("DROP TRIGGER events_no_update")
    conn.execute("UPDATE events SET recorded_at = 'x' WHERE seq = 5")
    conn.commit()
    conn.close()
    before = Path(f"{table}.checkpoints").read_text()
    assert main(["audit", "checkpoint", "--db", str(table)]) == 1
    assert "the hash chain is broken" in capsys.readouterr().err
    assert Path(f"{table}.checkpoints").read_text() == before


@pytest.mark.parametrize("change", ["rewritten", "cut back"])
def test_a_log_its_journal_shows_changed_is_not_signed_again(
        change: str, table: Path, key: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``audit checkpoint`` (root, at a shift's change) signed whatever unbroken chain it found:
    a log rewritten with its chain recomputed, or its last rounds erased, got a new keyed
    checkpoint and a digest for the shift report, which a journal with its earlier lines
    removed would then back."""
    journal = Path(f"{table}.checkpoints")
    assert main(["audit", "checkpoint", "--db", str(table), "--key", str(key)]) == 0
    assert capsys.readouterr().out.startswith("DC-CHECKPOINT seq ")  # an honest log: signed
    if change == "rewritten":
        rewrite_loss_as_win(table)
        why = "the log was rewritten at or before event"
    else:
        erase_rounds_from(table, 10)
        why = "BEHIND"
    before = journal.read_text()
    assert main(["audit", "checkpoint", "--db", str(table), "--key", str(key)]) == 1
    err = capsys.readouterr().err
    assert "the log does not match its checkpoint journal" in err and why in err, err
    assert journal.read_text() == before


def test_bad_checkpoint_input_is_one_line_exit_2(table: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    for digest in ("seq x head abc", "seq 5 head nothex!nothex!nothex! mac -", "seq 5"):
        assert main(["audit", "verify", "--db", str(table), "--digest", digest]) == 2
        err = capsys.readouterr().err
        assert err.startswith("dealer-console audit: digest 1: ") and err.count("\n") == 1


def test_a_checkpoint_past_any_event_number_is_refused_in_words(
        table: Path, key: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An event number beyond SQLite's 64 bits, typed as a digest or written into the journal
    (anyone who can write the table's folder can), stopped the audit and the power-on
    self-test with a traceback: the table stayed closed with no reason given."""
    past = 2**63
    line = f"seq {past} head {'a' * 64} mac -"
    assert main(["audit", "verify", "--db", str(table), "--digest", line]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dealer-console audit: digest 1: seq must be 0 to ") and \
        err.count("\n") == 1, err
    with Path(f"{table}.checkpoints").open("a", encoding="ascii") as journal:
        journal.write(line + " rounds 1 at x\n")
    status, out = verify(capsys, table, "--key", str(key))
    assert status == 2 and "seq must be 0 to" in out and "Traceback" not in out, out
    done = subprocess.run([*CLI, "self-test", "--profile", "california-face-up", "--db",
                           str(table), "--key", str(key)], capture_output=True, text=True,
                          timeout=300)
    lines = (done.stdout + done.stderr).splitlines()
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert any(x.startswith("FAIL  hash chain: ") and "seq must be 0 to" in x for x in lines), \
        lines


def _first(db: Path, kind: str) -> int:
    conn = sqlite3.connect(db)
    seq, = conn.execute("SELECT MIN(seq) FROM events WHERE kind = ?", [kind]).fetchone()
    conn.close()
    return int(seq)


def _lower_fee(p: dict[str, Any]) -> None:
    p["fees"][0][2] -= 50


def _move_action(p: dict[str, Any]) -> None:
    p["action_seat"] = 1 + p["action_seat"] % 7


@pytest.mark.parametrize(("kind", "change", "expected"), [
    ("game_started", _lower_fee, "(game_started): fees is"),
    ("action_set", _move_action, "(action_set): action_seat is"),
])
def test_an_event_the_rules_compute_is_computed_again(
        table: Path, capsys: pytest.CaptureFixture[str], kind: str,
        change: Any, expected: str) -> None:
    """A collection fee lowered or the action button moved in the log (chain recomputed)."""
    rewrite_event(table, _first(table, kind), change)
    os.remove(f"{table}.checkpoints")
    status, out = verify(capsys, table)
    assert status == 1 and expected in out and "but the rules give" in out, out


def test_the_houses_hand_in_the_log_must_be_the_house_way(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.round.helpers import make_table, play_round

    table = make_table(tmp_path, "washington-face-up")
    play_round(table)
    table.db.close()
    db = tmp_path / "table.db"

    def swap(p: dict[str, Any]) -> None:  # a card of the low hand swapped with the high's
        low, high = p["low"].split(), p["high"].split()
        low[0], high[0] = high[0], low[0]
        p["low"], p["high"] = " ".join(low), " ".join(high)

    rewrite_event(db, _first(db, "banker_set"), swap)
    status, out = verify(capsys, db)
    assert status == 1 and "the house's hand is set" in out and "but the House Way of" in out


def test_a_checkpoint_torn_by_a_power_cut_is_left_out_and_cut_off(
        table: Path, key: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A kill while the journal line was written: the audit reads past it, and the next
    checkpoint starts on a line of its own."""
    from dealer_console.storage.anchor import Journal, load_key
    from dealer_console.table_db import open_table_db

    journal = Path(f"{table}.checkpoints")
    with open(journal, "a") as out:
        out.write("seq 999 head 8d2f")  # torn: no newline
    status, out = verify(capsys, table, "--key", str(key))
    assert status == 0, out
    db = open_table_db(table)
    Journal(journal, load_key(key)).write(db)
    db.close()
    lines = journal.read_text().splitlines()
    assert len(lines) == 13 and all(line.startswith("seq ") for line in lines)
    # the torn line is gone (not its four hex digits alone: a whole line's hash may hold them)
    assert "seq 999 head 8d2f" not in journal.read_text()
    assert verify(capsys, table, "--key", str(key))[0] == 0


def test_paid_lines_that_are_not_the_plan_are_reported(
        table: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Only the paid line (and its table row) rewritten, the plan left as computed."""
    settled, _planned, rid = _lost_base_line(table)

    def paid(p: dict[str, Any]) -> None:
        _as_win(next(x for x in p["lines"] if x["kind"] == "base" and x["outcome"] == "loss"))

    rewrite_event(table, settled, paid)
    os.remove(f"{table}.checkpoints")
    status, out = verify(capsys, table)
    assert status == 1, out
    assert f"round {rid} event {settled} (seat_settled): lines is" in out, out

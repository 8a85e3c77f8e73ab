"""``audit verify`` holds the jackpot's tables to the event log: a database made by
``dealer-console simulate`` (jackpot hits on the real keypad path) is changed the way someone
who can write the file would change it, and the audit must name the table, the row and both
values. Each change here passed the audit before the jackpot was rebuilt from the log."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dealer_console.cards import format_cards, parse_cards
from dealer_console.cli import main
from dealer_console.jackpot.games import game_config
from dealer_console.jackpot.qualify import winning_line
from dealer_console.storage.connection import connect
from tests.cli.audit_helpers import (
    append_event,
    copied,
    resync_tables,
    rewrite_event,
    tamper,
)

CLI = [sys.executable, "-m", "dealer_console.cli"]


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Washington with its jackpot, hands stacked so that hits happen (tray and meter)."""
    path = tmp_path_factory.mktemp("sim") / "table.db"
    out = subprocess.run(
        [*CLI, "simulate", "--profile", "washington-face-up", "--rounds", "20", "--seed", "6",
         "--faults", "jackpot-hands", "--devices", "in-process", "--db", str(path)],
        capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    conn = sqlite3.connect(path)
    tray, meter = conn.execute("SELECT SUM(from_tray_cents > 0), SUM(from_meter_cents > 0)"
                               " FROM jackpot_hits").fetchone()
    conn.close()
    assert tray and meter, "the fixture needs a tray hit and a meter hit"
    return path


@pytest.fixture
def db(simulated: Path, tmp_path: Path) -> Path:
    return copied(simulated, tmp_path)


def verify(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = main(["audit", "verify", "--db", str(path)])
    return status, capsys.readouterr().out


FIRST_TRAY_HIT = "(SELECT MIN(hit_id) FROM jackpot_hits WHERE from_tray_cents > 0)"
FIRST_HIT = "(SELECT MIN(hit_id) FROM jackpot_hits)"


def test_the_simulated_jackpot_table_audits_clean(db: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    status, out = verify(db, capsys)
    assert status == 0, out
    events = sqlite3.connect(db).execute(
        "SELECT COUNT(*) FROM events WHERE kind = 'jackpot_game_installed'").fetchone()[0]
    assert events == 1  # the set-up is in the log


@pytest.mark.parametrize(("sql", "expected"), [
    # a tray award raised by $1,000
    (("DROP TRIGGER jackpot_hits_no_update",
      "UPDATE jackpot_hits SET from_tray_cents = from_tray_cents + 100000, amount_cents ="
      f" amount_cents + 100000 WHERE hit_id = {FIRST_TRAY_HIT}"),
     ["jackpot_hits (hit_id=", "amount_cents is", "from_tray_cents is"]),
    # a hit deleted, with its meter entries
    (("DROP TRIGGER jackpot_hits_no_delete", "DROP TRIGGER jackpot_ledger_no_delete",
      f"DELETE FROM jackpot_ledger WHERE hit_id = {FIRST_HIT}",
      f"DELETE FROM jackpot_hits WHERE hit_id = {FIRST_HIT}"),
     ["jackpot_hits (hit_id=", "in the event log, but not stored"]),
    # someone else named as the confirmer
    (("DROP TRIGGER jackpot_hits_no_update",
      "UPDATE jackpot_hits SET employee_id = 'SIM-D1', employee_name = 'Dee Dealer'"
      f" WHERE hit_id = {FIRST_HIT}"),
     ["employee_id is 'SIM-D1' stored", "employee_name is 'Dee Dealer' stored"]),
    # a wager (with its meter contribution, so the meter still adds up) and a tray hit for a
    # round that never was
    (("INSERT INTO jackpot_wagers VALUES (999, 1, 3, 100, '2024-01-01T00:00:00+00:00')",
      "INSERT INTO jackpot_ledger (recorded_at, spot, level, kind, round_id, seat,"
      " meter_delta_micro, reserve_delta_micro, meter_after_micro, reserve_after_micro)"
      " SELECT '2024-01-01T00:00:00+00:00', 1, 'main', 'contribution', 999, 3,"
      " 100 * contribution_ppm, 100 * reserve_ppm, meter_micro + 100 * contribution_ppm,"
      " reserve_micro + 100 * reserve_ppm FROM jackpot_levels",
      "UPDATE jackpot_levels SET meter_micro = meter_micro + 100 * contribution_ppm,"
      " reserve_micro = reserve_micro + 100 * reserve_ppm",
      "INSERT INTO jackpot_hits (round_id, spot, seat, paytable, line_no, line_label, pay,"
      " wager_cents, amount_cents, from_meter_cents, from_tray_cents, employee_id,"
      " employee_name, employee_role, confirmed_at) VALUES (999, 1, 3, 'fupgpp-wa01', 3,"
      " 'Royal Flush', '100 for 1', 100, 10000, 0, 10000, 'SIM-S1', 'Sim Supervisor',"
      " 'supervisor', '2024-01-01T00:00:00+00:00')"),
     ["jackpot_wagers (round_id=999, spot=1, seat=3): stored, but not in the event log",
      "jackpot_hits (hit_id=", "stored, but not in the event log"]),
    # the executive threshold raised (a supervisor could then confirm anything)
    (("UPDATE jackpot_games SET executive_threshold_cents = 100000000",),
     ["jackpot_games (spot=1): executive_threshold_cents is 100000000 stored"]),
    # a meter's rate changed
    (("UPDATE jackpot_levels SET contribution_ppm = 200000",),
     ["jackpot_levels (spot=1, level='main'): contribution_ppm is 200000 stored"]),
    # a ledger entry changed together with the meter, so the sums still agree
    (("DROP TRIGGER jackpot_ledger_no_update",
      "UPDATE jackpot_ledger SET meter_delta_micro = meter_delta_micro - 5000000,"
      " meter_after_micro = meter_after_micro - 5000000 WHERE entry ="
      " (SELECT MAX(entry) FROM jackpot_ledger WHERE kind = 'contribution')",
      "UPDATE jackpot_levels SET meter_micro = meter_micro - 5000000"),
     ["jackpot_ledger (spot=1, level='main', nth=", "meter_delta_micro is"]),
])
def test_a_changed_jackpot_table_fails_the_audit(db: Path, capsys: pytest.CaptureFixture[str],
                                                 sql: tuple[str, ...],
                                                 expected: list[str]) -> None:
    tamper(db, *sql)
    status, out = verify(db, capsys)
    assert status == 1, out
    for text in expected:
        assert text in out, out


def test_a_jackpot_award_is_recomputed_not_copied_from_the_log(
        db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Even the hit's event raised (and its chain recomputed) is caught: the award is the
    paytable's on the meters as they stood."""
    from tests.cli.audit_helpers import rewrite_event

    conn = sqlite3.connect(db)
    seq, = conn.execute("SELECT MIN(seq) FROM events WHERE kind = 'jackpot_hit' AND"
                        " json_extract(payload, '$.from_tray_cents') > 0").fetchone()
    conn.close()

    def raise_award(p: dict[str, object]) -> None:
        p["award_cents"] = int(str(p["award_cents"])) + 100_000
        p["from_tray_cents"] = int(str(p["from_tray_cents"])) + 100_000

    rewrite_event(db, seq, raise_award)
    status, out = verify(db, capsys)
    assert status == 1, out
    assert f"(event {seq}): the log pays" in out and "on the meters as they stood pays" in out


@pytest.mark.parametrize("role", ["dealer", "technician"])
def test_a_hit_confirmed_by_a_card_that_may_not_confirm_is_reported(
        db: Path, capsys: pytest.CaptureFixture[str], role: str) -> None:
    from tests.cli.audit_helpers import rewrite_event

    conn = sqlite3.connect(db)
    seq, = conn.execute("SELECT MIN(seq) FROM events WHERE kind = 'jackpot_hit'").fetchone()
    conn.close()

    def confirmer(p: dict[str, object]) -> None:
        p["employee_role"] = role

    rewrite_event(db, seq, confirmer)
    status, out = verify(db, capsys)
    assert status == 1 and f"confirmed by a {role}'s card" in out, out


def test_a_threshold_below_an_award_makes_a_supervisors_confirmation_a_problem(
        db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The set-up in the log is what the awards are held to: with the executive threshold
    below a supervisor-confirmed award, that confirmation is reported."""
    from tests.cli.audit_helpers import rewrite_event

    conn = sqlite3.connect(db)
    seq, = conn.execute("SELECT seq FROM events WHERE kind = 'jackpot_game_installed'"
                        ).fetchone()
    conn.close()

    def threshold(p: dict[str, object]) -> None:
        p["executive_threshold_cents"] = 1000

    rewrite_event(db, seq, threshold)
    status, out = verify(db, capsys)
    assert status == 1, out
    assert "confirmed by a supervisor's card;" in out and "needs an executive's" in out, out


def test_a_set_up_an_older_console_kept_only_in_its_table_is_backfilled(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An older console kept the set-up only in ``jackpot_games``: the upgrade writes it to
    the log, and from then on the audit holds the table to it."""
    from dealer_console.jackpot import games
    from dealer_console.profiles.loader import get_profile
    from dealer_console.table_db import open_table_db

    path = tmp_path / "old.db"
    db = open_table_db(path)
    setup = get_profile("washington-face-up").jackpots
    assert setup is not None
    with db.atomic():  # as the older console installed it: tables only
        games.write_game(db, setup.games[0], installed_at="2024-01-01T00:00:00+00:00",
                         installed_by="console", pin_and_link=False)  # not kept then
    db.execute("DELETE FROM _sqlite_migrations WHERE name = '0002_setup_in_the_event_log'")
    db.close()
    open_table_db(path).close()  # what the console does on start: upgrade
    conn = sqlite3.connect(path)
    payload, = conn.execute("SELECT payload FROM events WHERE kind = 'jackpot_game_installed'"
                            ).fetchone()
    conn.close()
    assert '"backfilled":true' in payload
    assert verify(path, capsys)[0] == 0
    tamper(path, "UPDATE jackpot_games SET executive_threshold_cents = 1")
    status, out = verify(path, capsys)
    assert status == 1 and "executive_threshold_cents is 1 stored" in out, out


# -- a hit forged in the log itself, the tables made to agree (an outside review's cases) ------


def _tray_hit(path: Path) -> tuple[int, int, dict[str, Any]]:
    """The first hit paid from the tray (its amount does not hang on the meters): its event's
    number, round and payload."""
    conn = sqlite3.connect(path)
    seq, rid, text = conn.execute(
        "SELECT seq, round_id, payload FROM events WHERE kind = 'jackpot_hit' ORDER BY seq"
    ).fetchall()[[json.loads(r[2]).get("from_tray_cents", 0) > 0 for r in conn.execute(
        "SELECT seq, round_id, payload FROM events WHERE kind = 'jackpot_hit' ORDER BY seq"
    )].index(True)]
    conn.close()
    return int(seq), int(rid), json.loads(text)


def test_a_hit_added_to_a_finished_round_is_reported(db: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """No key and no rewrite: one event chained on at the end, for the last round (ended),
    on a seat that took a jackpot wager and hit nothing, with a genuine hit's cards."""
    _seq, _rid, genuine = _tray_hit(db)
    conn = sqlite3.connect(db)
    last, = conn.execute("SELECT MAX(round_id) FROM rounds WHERE status = 'complete'"
                         ).fetchone()
    seat, = conn.execute("SELECT MIN(w.seat) FROM wagers w WHERE w.round_id = ? AND w.kind "
                         "LIKE 'jackpot%' AND w.seat NOT IN (SELECT seat FROM jackpot_hits "
                         "WHERE round_id = ?)", [last, last]).fetchone()
    next_hit, = conn.execute("SELECT MAX(hit_id) + 1 FROM jackpot_hits").fetchone()
    conn.close()
    assert seat is not None
    append_event(db, "jackpot_hit", {**genuine, "seat": seat, "hit_id": next_hit},
                 round_id=last)
    resync_tables(db)
    status, out = verify(db, capsys)
    assert status == 1, out
    assert f"round {last} event" in out and f"written after round {last + 1} had opened" in out
    assert "a jackpot hit is not allowed in phase complete" in out
    assert f"but seat {seat} was dealt" in out


def test_a_hit_rewritten_onto_cards_the_seat_never_held_is_reported(
        db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The same line and amount, one card changed (the chain recomputed, the tables made to
    agree): only the dealt hand tells."""
    seq, _rid, genuine = _tray_hit(db)
    cards = parse_cards(genuine["cards"], 7)
    with connect(db) as handle:
        paytable = game_config(handle, int(genuine.get("spot", 1))).paytable
    line = winning_line(paytable, cards)
    other = next(held for held in _one_suit_changed(cards)
                 if winning_line(paytable, held) == line)
    rewrite_event(db, seq, lambda p: p.update(cards=format_cards(other)))
    resync_tables(db)
    status, out = verify(db, capsys)
    assert status == 1, out
    assert f"the hit is on {format_cards(other)}, but seat {genuine['seat']} was dealt" in out


def _one_suit_changed(cards: tuple[Any, ...]) -> Iterator[tuple[Any, ...]]:
    """Hands one card's suit away from ``cards`` (no card twice)."""
    for i, card in enumerate(cards):
        for suit in "cdhs":
            text = [str(c) for c in cards]
            text[i] = str(card)[:-1] + suit
            if text[i] != str(card) and len(set(text)) == 7:
                yield parse_cards(" ".join(text), 7)


def test_a_hit_said_confirmed_by_a_dealer_as_a_supervisor_is_reported(
        db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    seq, _rid, _genuine = _tray_hit(db)
    dealer, = sqlite3.connect(db).execute(
        "SELECT employee_id FROM employees WHERE role = 'dealer' ORDER BY employee_id"
    ).fetchone()
    rewrite_event(db, seq, lambda p: p.update(employee_id=dealer,
                                              employee_role="supervisor"))
    resync_tables(db)
    status, out = verify(db, capsys)
    assert status == 1, out
    assert (f"confirmed by {dealer!r} as a supervisor, but the staff list had them as a "
            "dealer then") in out


def test_a_local_hit_rewritten_as_paid_by_a_link_is_reported(
        db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An outside review: a meter hit of this local game rewritten as the link L1's, on a
    shared meter of $400,000 and an award of $100,000 (chain recomputed, tables made to
    agree), passed the audit; the award was recomputed on the meter the forged event named.
    A link is taken only from the game's own set-up."""
    conn = sqlite3.connect(db)
    seq, = conn.execute("SELECT MIN(seq) FROM events WHERE kind = 'jackpot_hit' AND"
                        " json_extract(payload, '$.from_meter_cents') > 0").fetchone()
    conn.close()
    forged = 10_000_000

    def paid_by_a_link(p: dict[str, Any]) -> None:
        p.update(link="L1", link_hit_id=1, award_cents=forged, from_meter_cents=forged,
                 from_tray_cents=0, meter_before_micro=4 * forged * 1_000_000,
                 meter_after_micro=3 * forged * 1_000_000, employee_id="SIM-X1",
                 employee_name="Sim Executive", employee_role="executive",
                 who="Sim Executive (SIM-X1, executive)")  # the card such an award needs

    rewrite_event(db, seq, paid_by_a_link)
    resync_tables(db)
    status, out = verify(db, capsys)
    assert status == 1, out
    assert f"(event {seq}): said paid by the link L1, but the game plays no link" in out
    assert f"(event {seq}): the log pays {forged} cents" in out


def test_a_hit_said_linked_on_an_older_consoles_game_is_held_to_the_link_recorded_later(
        db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A game an older console installed did not keep its link: a hit said paid by a link is
    taken as the link's until the upgrade's event records the game's link, then reported when
    the game plays none."""
    conn = sqlite3.connect(db)
    installed, = conn.execute("SELECT seq FROM events WHERE kind = 'jackpot_game_installed'"
                              ).fetchone()
    hit, = conn.execute("SELECT MIN(seq) FROM events WHERE kind = 'jackpot_hit' AND"
                        " json_extract(payload, '$.from_meter_cents') > 0").fetchone()
    conn.close()

    def as_an_older_console(p: dict[str, Any]) -> None:
        del p["pin_required"], p["linked"]

    def paid_by_a_link(p: dict[str, Any]) -> None:  # the award as a shared meter would pay
        p.update(link="L1", link_hit_id=1, meter_before_micro=p["award_cents"] * 4_000_000,
                 meter_after_micro=p["award_cents"] * 3_000_000)

    rewrite_event(db, installed, as_an_older_console)
    rewrite_event(db, hit, paid_by_a_link)
    append_event(db, "jackpot_game_pin_and_link_recorded",
                 {"spot": 1, "pin_required": False, "linked": None}, None)
    resync_tables(db)
    status, out = verify(db, capsys)
    assert status == 1, out
    assert (f"event {hit}: a hit on jackpot game 1 said paid by the link L1, but the game "
            "plays no link") in out


# -- the power-on self-test holds the tables the console pays from (an outside review) --------


def _self_test_records(path: Path) -> tuple[bool, str]:
    from dealer_console.profiles.loader import get_profile
    from dealer_console.selftest.database import check_database
    from dealer_console.selftest.report import Report

    report = Report()
    check_database(report, path, get_profile("washington-face-up"))
    (line,) = [x for x in report.checks if x.item == "records"]
    return line.ok, line.detail


RAISED = "UPDATE jackpot_levels SET meter_micro = meter_micro + 5000000 * 1000000"
"""$50,000 on the meter the console pays percentages of."""


def _line_carrying_the_raise(kind: str) -> str:
    """A ledger line added to match the raise: the ledger's triggers refuse changes and
    deletions, not new lines (an outside review)."""
    return ("INSERT INTO jackpot_ledger (recorded_at, spot, level, kind, meter_delta_micro, "
            "reserve_delta_micro, meter_after_micro, reserve_after_micro) SELECT "
            f"'2026-01-01T00:00:00+00:00', spot, level, '{kind}', 5000000 * 1000000, 0, "
            "meter_micro, reserve_micro FROM jackpot_levels")


@pytest.mark.parametrize(("sql", "expected"), [
    ((RAISED,), "but the ledger adds up to"),
    ((RAISED, _line_carrying_the_raise("adjustment")), "is no back-out of its hit"),
    ((RAISED, _line_carrying_the_raise("seed")), "seeds the meter again"),
    # a dealer made a supervisor, who may then confirm hits
    (("UPDATE employees SET role = 'supervisor' WHERE role = 'dealer'",),
     "in role ('supervisor' on file, 'dealer' in the event log)"),
    # a supervisor's card made enough for any award (the console refuses it when it starts)
    (("UPDATE jackpot_games SET executive_threshold_cents = 99999999",),
     "jackpot game spot 1 executive_above (cents): installed 99999999, profile 100000"),
])
def test_the_self_test_refuses_tables_changed_outside_the_console(
        db: Path, sql: tuple[str, ...], expected: str) -> None:
    assert _self_test_records(db) == (True, "jackpot meters follow their ledger, the games "
                                            "their profile, the staff list its events")
    tamper(db, *sql)
    ok, detail = _self_test_records(db)
    assert not ok and expected in detail and "audit verify" in detail, detail
    if len(sql) > 1:  # the ledger adds up: only the new line's own check tells
        assert detail.startswith("jackpot game 1 meter main: ledger entry "), detail


@pytest.mark.parametrize(("table", "which"), [
    ("jackpot_ledger", "entry = (SELECT MIN(entry) FROM jackpot_ledger WHERE kind = 'award')"),
    ("jackpot_ledger", "entry = (SELECT MAX(entry) FROM jackpot_ledger "
                       "WHERE kind = 'contribution')"),
    ("jackpot_wagers", "rowid = (SELECT MIN(rowid) FROM jackpot_wagers)"),
    ("jackpot_ledger", "kind = 'seed'"),  # held to the game's installation
])
def test_a_jackpot_row_moved_to_another_night_is_reported(
        db: Path, capsys: pytest.CaptureFixture[str], table: str, which: str) -> None:
    """An outside review moved an award's ledger line to 2020 (the trigger dropped): the
    meter history put it on that night, and the audit passed, since a replay stamps its own
    times. Each row is now held to the time of the event it was written with."""
    tamper(db, f"DROP TRIGGER IF EXISTS {table}_no_update",
           f"UPDATE {table} SET recorded_at = '2020-01-01T03:00:00.000000+00:00' WHERE {which}")
    status, out = verify(db, capsys)
    assert status == 1, out
    assert f"PROBLEM: {table} (" in out and ("): recorded at 2020-01-01T03:00:00.000000+00:00, "
                                             "but the event it was written with at ") in out


def test_jackpot_games_deleted_fail_the_self_test_and_are_never_installed_again(
        db: Path) -> None:
    """An outside review deleted the games and their meters with SQL: the self-test passed
    (the ledger of a meter no longer listed was never read) and the console, finding no game,
    installed the profile's again, the meter back at its seed: the players' money gone."""
    from dealer_console.jackpot.setup import JackpotSetupMismatch, install_from_profile
    from dealer_console.profiles.loader import get_profile
    from dealer_console.table_db import open_table_db

    tamper(db, "DELETE FROM jackpot_levels", "DELETE FROM jackpot_games")
    ok, detail = _self_test_records(db)
    assert not ok and detail.startswith("jackpot game 1 meter main: ") and (
        "ledger lines of a meter the table no longer lists") in detail, detail
    table = open_table_db(db)
    try:
        with pytest.raises(JackpotSetupMismatch, match="jackpot games are gone, but its "
                                                       "meters' ledger shows them installed"):
            install_from_profile(table, get_profile("washington-face-up").jackpots,
                                 actor="console")
        assert table.execute("SELECT COUNT(*) FROM jackpot_games").fetchone()[0] == 0
    finally:
        table.close()

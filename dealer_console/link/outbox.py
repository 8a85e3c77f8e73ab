"""What a table owes its link, kept in the table's own SQLite database.

START GAME takes the jackpot wagers in the round's transaction; for a linked game the same
transaction writes one ``link_outbox`` row per wager (:func:`record_owed`), so a round that is
committed has its debt to the link recorded, and one that rolled back owes nothing.

The outbox is append-only and the sender never writes to the table's file (the round's
transactions expect one writer): it reads the rows after its mark, delivers them, and then
moves its mark, kept in a file of its own beside the table's (``link/progress.py``). The
server's idempotency key (link, table, round, deal, spot, seat) makes the case that can
repeat harmless: a crash between the server's commit and the mark, or a lost mark file, only
resends what the server then skips.

A linked hit the server paid is the table's ``jackpot_hits`` row naming the link
(``jackpot/linked.py``); the ``link_hits_local`` table an earlier version made for it was never
written and is dropped (migration 0002).
"""

from __future__ import annotations

from sqlite_utils import Database, Migrations

from dealer_console.jackpot_values.link_records import Owed, TrayReport

MIGRATIONS = Migrations("link")


@MIGRATIONS(name="0001_outbox")
def _outbox_v1(db: Database) -> None:
    for statement in (
        """
        CREATE TABLE link_outbox (
            entry INTEGER PRIMARY KEY,
            link TEXT NOT NULL,
            table_id TEXT NOT NULL,
            round_id INTEGER NOT NULL,
            deal_no INTEGER NOT NULL,
            spot INTEGER NOT NULL CHECK (spot IN (1, 2)),
            seat INTEGER NOT NULL CHECK (seat BETWEEN 1 AND 7),
            wager_cents INTEGER NOT NULL CHECK (typeof(wager_cents) = 'integer'
                                                AND wager_cents > 0),
            taken_at TEXT NOT NULL,
            UNIQUE (link, table_id, round_id, deal_no, spot, seat)
        )
        """,
        "CREATE TRIGGER link_outbox_no_update BEFORE UPDATE ON link_outbox "
        "BEGIN SELECT RAISE(ABORT, 'link_outbox is append-only: UPDATE refused'); END",
        "CREATE TRIGGER link_outbox_no_delete BEFORE DELETE ON link_outbox "
        "BEGIN SELECT RAISE(ABORT, 'link_outbox is append-only: DELETE refused'); END",
        """
        CREATE TABLE link_hits_local (
            link TEXT NOT NULL,
            server_hit_id INTEGER NOT NULL,
            table_id TEXT NOT NULL,
            round_id INTEGER NOT NULL,
            spot INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            line_no INTEGER NOT NULL,
            line_label TEXT NOT NULL,
            level TEXT,
            amount_cents INTEGER NOT NULL CHECK (amount_cents >= 0),
            from_meter_cents INTEGER NOT NULL,
            from_tray_cents INTEGER NOT NULL,
            meter_before_micro INTEGER,
            meter_after_micro INTEGER,
            employee_id TEXT NOT NULL,
            confirmed_at TEXT NOT NULL,
            PRIMARY KEY (link, server_hit_id),
            UNIQUE (link, round_id, spot, seat)
        )
        """,
        "CREATE TRIGGER link_hits_local_no_update BEFORE UPDATE ON link_hits_local "
        "BEGIN SELECT RAISE(ABORT, 'link_hits_local is append-only: UPDATE refused'); END",
        "CREATE TRIGGER link_hits_local_no_delete BEFORE DELETE ON link_hits_local "
        "BEGIN SELECT RAISE(ABORT, 'link_hits_local is append-only: DELETE refused'); END",
    ):
        db.execute(statement)


def record_owed(db: Database, link: str, table_id: str, round_id: int, spot: int,
                seats: list[int], wager_cents: int, taken_at: str) -> None:
    """In the caller's (START GAME) transaction: each seat's wager is owed to ``link``."""
    row = db.execute("SELECT deal_no FROM rounds WHERE round_id = ?", [round_id]).fetchone()
    deal_no = int(row[0]) if row is not None else 0
    with db.atomic():
        for seat in seats:
            db.execute(
                "INSERT INTO link_outbox (link, table_id, round_id, deal_no, spot, seat, "
                "wager_cents, taken_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [link, table_id, round_id, deal_no, spot, seat, wager_cents, taken_at])


def undelivered(db: Database, link: str, table_id: str, after: int, limit: int = 500
                ) -> list[tuple[int, Owed]]:
    """The oldest wagers after outbox entry ``after`` (the sender's mark), at most ``limit``,
    each with its entry number."""
    return [(int(r[0]), Owed(int(r[1]), int(r[2]), int(r[3]), int(r[4]), int(r[5]), str(r[6])))
            for r in db.execute(
                "SELECT entry, round_id, deal_no, spot, seat, wager_cents, taken_at "
                "FROM link_outbox WHERE link = ? AND table_id = ? AND entry > ? "
                "ORDER BY entry LIMIT ?", [link, table_id, after, limit])]


def owed_count(db: Database, link: str, after: int) -> int:
    """How many wagers after the sender's mark wait for delivery."""
    return int(db.execute("SELECT COUNT(*) FROM link_outbox WHERE link = ? AND entry > ?",
                          [link, after]).fetchone()[0])


def counted(db: Database, link: str, table_id: str, mark: int) -> tuple[int, int]:
    """(entries up to the sender's mark, all entries) of ``table_id`` for ``link``: what the
    server should hold of this table once it has confirmed delivery up to the mark."""
    row = db.execute("SELECT COALESCE(SUM(entry <= ?), 0), COUNT(*) FROM link_outbox "
                     "WHERE link = ? AND table_id = ?", [mark, link, table_id]).fetchone()
    return int(row[0]), int(row[1])


def last_hit_number(db: Database, link: str) -> int | None:
    """The highest hit number of ``link`` this table has recorded (None: none yet)."""
    row = db.execute("SELECT MAX(link_hit_id) FROM jackpot_hits WHERE link = ?",
                     [link]).fetchone()
    return None if row is None or row[0] is None else int(row[0])


@MIGRATIONS(name="0002_no_local_hit_copy")
def _no_local_hit_copy(db: Database) -> None:
    """A linked hit is the table's ``jackpot_hits`` row naming its link; this copy was never
    written."""
    db.execute("DROP TABLE IF EXISTS link_hits_local")


@MIGRATIONS(name="0003_tray_paid_at_table")
def _tray_paid_at_table(db: Database) -> None:
    """A linked game's tray pay confirmed at the table while its link was down (Washington,
    Rules of Play item 9 b: such a hand is paid from the tray, not off the meter, so it needs
    nothing of the shared meter): owed to the link as a report, sent when it answers again."""
    for statement in (
        """
        CREATE TABLE link_tray_owed (
            entry INTEGER PRIMARY KEY,
            link TEXT NOT NULL,
            table_id TEXT NOT NULL,
            round_id INTEGER NOT NULL,
            spot INTEGER NOT NULL CHECK (spot IN (1, 2)),
            seat INTEGER NOT NULL CHECK (seat BETWEEN 1 AND 7),
            line_no INTEGER NOT NULL,
            amount_cents INTEGER NOT NULL CHECK (typeof(amount_cents) = 'integer'
                                                 AND amount_cents > 0),
            employee_id TEXT NOT NULL,
            second_employee_id TEXT,
            paid_at TEXT NOT NULL,
            UNIQUE (link, table_id, round_id, spot, seat)
        )
        """,
        *append_only("link_tray_owed"),
    ):
        db.execute(statement)


def append_only(table: str) -> tuple[str, str]:
    """The two triggers that refuse an UPDATE or a DELETE of ``table``'s rows."""
    def refuse(verb: str) -> str:
        return (f"CREATE TRIGGER {table}_no_{verb.lower()} BEFORE {verb} ON {table} BEGIN "
                f"SELECT RAISE(ABORT, '{table} is append-only: {verb} refused'); END")

    return refuse("UPDATE"), refuse("DELETE")


def record_tray(db: Database, report: TrayReport) -> None:
    """In the caller's (the hit's) transaction: the tray pay is owed to its link as a report."""
    db.execute(
        "INSERT INTO link_tray_owed (link, table_id, round_id, spot, seat, line_no, "
        "amount_cents, employee_id, second_employee_id, paid_at) VALUES "
        "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [report.link, report.table_id, report.round_id, report.spot, report.seat,
         report.line_no, report.amount_cents, report.employee_id, report.second_employee_id,
         report.paid_at])


def trays_owed(db: Database, link: str, table_id: str, after: int) -> int:
    """How many tray pays wait after the sender's tray mark (counted, not read)."""
    row = db.execute("SELECT COUNT(*) FROM link_tray_owed WHERE link = ? AND table_id = ? "
                     "AND entry > ?", [link, table_id, after]).fetchone()
    return int(row[0])


def trays_undelivered(db: Database, link: str, table_id: str, after: int
                      ) -> list[tuple[int, TrayReport]]:
    """The tray pays after the sender's tray mark, oldest first, each with its entry."""
    return [(int(r[0]), TrayReport(str(r[1]), str(r[2]), int(r[3]), int(r[4]), int(r[5]),
                                   int(r[6]), int(r[7]), str(r[8]),
                                   None if r[9] is None else str(r[9]), str(r[10])))
            for r in db.execute(
                "SELECT entry, link, table_id, round_id, spot, seat, line_no, amount_cents, "
                "employee_id, second_employee_id, paid_at FROM link_tray_owed WHERE link = ? "
                "AND table_id = ? AND entry > ? ORDER BY entry", [link, table_id, after])]

"""The table database's schema, as ``sqlite_utils.Migrations``.

Tables are created with explicit SQL so that every column type, check and key is visible here
and in ``docs/storage.md`` (which auditors read). A later schema is a new migration appended
below; a migration already released is never edited.
"""

from __future__ import annotations

from sqlite_utils import Database, Migrations

MIGRATIONS = Migrations("dealer_console")

SCHEMA_V1: tuple[str, ...] = (
    # The append-only event log. Each row's hash is sha256 over the previous row's hash and the
    # canonical JSON of this row (see eventlog.py); (device, device_seq) makes a device event
    # impossible to apply twice.
    """
    CREATE TABLE events (
        seq INTEGER PRIMARY KEY,
        round_id INTEGER,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL,
        recorded_at TEXT NOT NULL,
        device TEXT,
        device_seq INTEGER,
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL UNIQUE,
        CHECK ((device IS NULL) = (device_seq IS NULL))
    )
    """,
    "CREATE UNIQUE INDEX events_device_seq ON events (device, device_seq) "
    "WHERE device IS NOT NULL",
    "CREATE INDEX events_round ON events (round_id, seq)",
    """
    CREATE TRIGGER events_no_update BEFORE UPDATE ON events
    BEGIN SELECT RAISE(ABORT, 'the event log is append-only: UPDATE refused'); END
    """,
    """
    CREATE TRIGGER events_no_delete BEFORE DELETE ON events
    BEGIN SELECT RAISE(ABORT, 'the event log is append-only: DELETE refused'); END
    """,
    """
    CREATE TABLE rounds (
        round_id INTEGER PRIMARY KEY,
        profile TEXT NOT NULL,
        phase TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('open', 'complete', 'voided')),
        banker_seat INTEGER NOT NULL,
        banker_kind TEXT NOT NULL CHECK (banker_kind IN ('house', 'player')),
        action_seat INTEGER,
        deal_no INTEGER NOT NULL DEFAULT 0,
        deck_count_due INTEGER NOT NULL DEFAULT 0 CHECK (deck_count_due IN (0, 1)),
        banker_wager_cents INTEGER NOT NULL DEFAULT 0 CHECK (banker_wager_cents >= 0),
        ace_high_push INTEGER NOT NULL DEFAULT 0 CHECK (ace_high_push IN (0, 1)),
        first_seq INTEGER NOT NULL REFERENCES events (seq),
        last_seq INTEGER NOT NULL REFERENCES events (seq)
    )
    """,
    "CREATE INDEX rounds_status ON rounds (status)",
    """
    CREATE TABLE wagers (
        round_id INTEGER NOT NULL REFERENCES rounds (round_id),
        seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 7),
        kind TEXT NOT NULL,
        amount_cents INTEGER NOT NULL CHECK (typeof(amount_cents) = 'integer'
                                              AND amount_cents > 0),
        envy_button INTEGER NOT NULL DEFAULT 0 CHECK (envy_button IN (0, 1)),
        PRIMARY KEY (round_id, seat, kind)
    )
    """,
    """
    CREATE TABLE fees (
        round_id INTEGER NOT NULL REFERENCES rounds (round_id),
        seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 7),
        kind TEXT NOT NULL CHECK (kind IN ('collection_fee', 'rake')),
        amount_cents INTEGER NOT NULL CHECK (typeof(amount_cents) = 'integer'
                                              AND amount_cents > 0),
        PRIMARY KEY (round_id, seat, kind)
    )
    """,
    """
    CREATE TABLE hands (
        round_id INTEGER NOT NULL REFERENCES rounds (round_id),
        deal_no INTEGER NOT NULL,
        seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 7),
        delivery INTEGER NOT NULL,
        cards TEXT NOT NULL,
        low TEXT,
        high TEXT,
        set_how TEXT,
        foul_count INTEGER NOT NULL DEFAULT 0,
        dead INTEGER NOT NULL DEFAULT 0 CHECK (dead IN (0, 1)),
        void INTEGER NOT NULL DEFAULT 0 CHECK (void IN (0, 1)),
        PRIMARY KEY (round_id, deal_no, seat)
    )
    """,
    """
    CREATE TABLE settlement_lines (
        round_id INTEGER NOT NULL REFERENCES rounds (round_id),
        line_no INTEGER NOT NULL,
        seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 7),
        kind TEXT NOT NULL,
        outcome TEXT NOT NULL,
        staked_cents INTEGER NOT NULL CHECK (staked_cents >= 0),
        returned_cents INTEGER NOT NULL CHECK (returned_cents >= 0),
        banker_delta_cents INTEGER NOT NULL,
        house_delta_cents INTEGER NOT NULL,
        note TEXT NOT NULL DEFAULT '',
        PRIMARY KEY (round_id, line_no),
        UNIQUE (round_id, seat, kind)
    )
    """,
    """
    CREATE TRIGGER settlement_lines_no_update BEFORE UPDATE ON settlement_lines
    BEGIN SELECT RAISE(ABORT, 'settlement lines are final: UPDATE refused'); END
    """,
    """
    CREATE TRIGGER settlement_lines_no_delete BEFORE DELETE ON settlement_lines
    BEGIN SELECT RAISE(ABORT, 'settlement lines are final: DELETE refused'); END
    """,
    """
    CREATE TABLE banker_rotation (
        round_id INTEGER PRIMARY KEY REFERENCES rounds (round_id),
        banker_seat INTEGER NOT NULL,
        banker_kind TEXT NOT NULL CHECK (banker_kind IN ('house', 'player')),
        consecutive INTEGER NOT NULL CHECK (consecutive >= 1),
        next_offer_seat INTEGER NOT NULL
    )
    """,
    """
    CREATE TABLE misdeals (
        round_id INTEGER NOT NULL REFERENCES rounds (round_id),
        deal_no INTEGER NOT NULL,
        reason TEXT NOT NULL,
        detail TEXT NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('device', 'dealer')),
        deck_count_due INTEGER NOT NULL CHECK (deck_count_due IN (0, 1)),
        deck_counted INTEGER,
        PRIMARY KEY (round_id, deal_no)
    )
    """,
    """
    CREATE TABLE interventions (
        seq INTEGER PRIMARY KEY REFERENCES events (seq),
        round_id INTEGER NOT NULL REFERENCES rounds (round_id),
        kind TEXT NOT NULL,
        who TEXT NOT NULL,
        detail TEXT NOT NULL
    )
    """,
    """
    CREATE TABLE devices (
        device TEXT PRIMARY KEY,
        last_device_seq INTEGER NOT NULL,
        last_event_seq INTEGER NOT NULL REFERENCES events (seq)
    )
    """,
)


@MIGRATIONS(name="0001_initial")
def initial(db: Database) -> None:
    """The first released schema (kept as tests/storage/schemas/v1.db for upgrade tests)."""
    for statement in SCHEMA_V1:
        db.execute(statement)


SCHEMA_V2: tuple[str, ...] = (
    # INSERT OR REPLACE deletes the row it collides with, and on a connection where
    # recursive_triggers is off the DELETE triggers above do not fire: an event or a settlement
    # line could be rewritten in place. These triggers refuse the insert before any row goes.
    """
    CREATE TRIGGER events_append_only BEFORE INSERT ON events
    WHEN NEW.seq IS NOT (SELECT COALESCE(MAX(seq), 0) + 1 FROM events)
      OR EXISTS (SELECT 1 FROM events WHERE hash = NEW.hash)
      OR (NEW.device IS NOT NULL AND EXISTS (SELECT 1 FROM events
          WHERE device = NEW.device AND device_seq = NEW.device_seq))
    BEGIN SELECT RAISE(ABORT, 'the event log is append-only: an event replaces nothing');
    END
    """,
    """
    CREATE TRIGGER settlement_lines_no_replace BEFORE INSERT ON settlement_lines
    WHEN EXISTS (SELECT 1 FROM settlement_lines WHERE round_id = NEW.round_id
                 AND (line_no = NEW.line_no OR (seat = NEW.seat AND kind = NEW.kind)))
    BEGIN SELECT RAISE(ABORT, 'settlement lines are final: a line is never replaced'); END
    """,
    # A device fact (the shuffler's deal id and delivery index, the bet sensors' lock id and
    # spot) applied to a round: the key that keeps a fact from being applied twice, also after
    # the driver restarts and its own sequence numbers start again from 1.
    """
    CREATE TABLE device_facts (
        round_id INTEGER NOT NULL REFERENCES rounds (round_id),
        device TEXT NOT NULL,
        fact TEXT NOT NULL,
        seq INTEGER NOT NULL REFERENCES events (seq),
        PRIMARY KEY (round_id, device, fact)
    )
    """,
)


@MIGRATIONS(name="0002_append_only_inserts_and_device_facts")
def append_only_inserts(db: Database) -> None:
    """No INSERT OR REPLACE into the log or the settlement lines; device facts by their key."""
    for statement in SCHEMA_V2:
        db.execute(statement)


@MIGRATIONS(name="0003_events_by_kind")
def events_by_kind(db: Database) -> None:
    """The log's events of one kind found by an index, not a scan of the whole log: the
    power-on self-test holds the jackpot's wagers, hits and back-outs to their events
    (``jackpot.audit.verify_in_the_log``), and scanned every event a dozen times, a cost that
    grew with the table's years (0.29 s at 4,000 rounds, 0.08 s with the index)."""
    db.execute("CREATE INDEX events_kind ON events (kind, seq)")


@MIGRATIONS(name="0004_win_prints_by_award")
def win_prints_by_award(db: Database) -> None:
    """A win page's prints found by their award, not by reading every print of the table:
    the next copy's number is counted from the award's earlier prints in the transaction that
    records the print, and recall and the awards screen read an award's prints
    (``dealer_console/jackpot/win_prints.py``, whose queries name these kinds as written
    here). Only the print events are in it: the log's other events cost it nothing."""
    db.execute("CREATE INDEX events_win_prints ON events (json_extract(payload, '$.hit_id'),"
               " seq) WHERE kind IN ('win_page_printed', 'win_page_not_printed',"
               " 'win_page_print_finished')")

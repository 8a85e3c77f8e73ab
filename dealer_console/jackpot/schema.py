"""The jackpot's tables in the table database: their migrations, kept apart from the jackpot
system so that the storage layer can bring a table database up to date without importing the
system that plays on it (``dealer_console/jackpot/store.py`` works on these tables)."""

from __future__ import annotations

from sqlite_utils import Database, Migrations

from dealer_console.storage import eventlog

MIGRATIONS = Migrations("jackpot")

GAME_INSTALLED = "jackpot_game_installed"
"""The event holding a jackpot game's set-up (round_id NULL: it belongs to no round)."""
BACKED_OUT = "jackpot_backed_out"
"""The event of a manual back-out of a confirmed award (round_id NULL)."""
PIN_AND_LINK_RECORDED = "jackpot_game_pin_and_link_recorded"
"""The event recording, for a game installed before they were kept, whether its confirmations
ask for a PIN and which link it plays (round_id NULL; ``setup.install_from_profile``)."""

_APPEND_ONLY = ("jackpot_ledger", "jackpot_wagers", "jackpot_hits", "jackpot_adjustments")


@MIGRATIONS(name="0001_jackpot")
def _jackpot_v1(db: Database) -> None:
    statements = [
        """
        CREATE TABLE jackpot_games (
            spot INTEGER PRIMARY KEY CHECK (spot IN (1, 2)),
            paytable TEXT NOT NULL,
            mode TEXT NOT NULL CHECK (mode IN ('house', 'progressive')),
            wager_cents INTEGER NOT NULL CHECK (typeof(wager_cents) = 'integer'
                                                AND wager_cents > 0),
            fixed_from_meter INTEGER NOT NULL CHECK (fixed_from_meter IN (0, 1)),
            executive_threshold_cents INTEGER NOT NULL CHECK (executive_threshold_cents >= 0),
            installed_at TEXT NOT NULL,
            installed_by TEXT NOT NULL
        )
        """,
        """
        CREATE TABLE jackpot_levels (
            spot INTEGER NOT NULL REFERENCES jackpot_games (spot),
            level TEXT NOT NULL,
            position INTEGER NOT NULL,
            seed_cents INTEGER NOT NULL CHECK (seed_cents >= 0),
            contribution_ppm INTEGER NOT NULL CHECK (contribution_ppm BETWEEN 0 AND 1000000),
            reserve_ppm INTEGER NOT NULL CHECK (reserve_ppm BETWEEN 0 AND 1000000),
            meter_micro INTEGER NOT NULL CHECK (meter_micro >= 0),
            reserve_micro INTEGER NOT NULL CHECK (reserve_micro >= 0),
            PRIMARY KEY (spot, level)
        )
        """,
        """
        CREATE TABLE jackpot_wagers (
            round_id INTEGER NOT NULL,
            spot INTEGER NOT NULL REFERENCES jackpot_games (spot),
            seat INTEGER NOT NULL CHECK (seat BETWEEN 1 AND 7),
            wager_cents INTEGER NOT NULL CHECK (wager_cents > 0),
            recorded_at TEXT NOT NULL,
            PRIMARY KEY (round_id, spot, seat)
        )
        """,
        """
        CREATE TABLE jackpot_hits (
            hit_id INTEGER PRIMARY KEY,
            round_id INTEGER NOT NULL,
            spot INTEGER NOT NULL REFERENCES jackpot_games (spot),
            seat INTEGER NOT NULL,
            paytable TEXT NOT NULL,
            line_no INTEGER NOT NULL,
            line_label TEXT NOT NULL,
            pay TEXT NOT NULL,
            level TEXT,
            cards TEXT,
            detected_line_no INTEGER,
            wager_cents INTEGER NOT NULL,
            amount_cents INTEGER NOT NULL CHECK (amount_cents >= 0),
            from_meter_cents INTEGER NOT NULL CHECK (from_meter_cents >= 0),
            from_tray_cents INTEGER NOT NULL CHECK (from_tray_cents >= 0),
            meter_before_micro INTEGER,
            meter_after_micro INTEGER,
            employee_id TEXT NOT NULL,
            employee_name TEXT NOT NULL,
            employee_role TEXT NOT NULL,
            confirmed_at TEXT NOT NULL,
            UNIQUE (round_id, spot, seat),
            FOREIGN KEY (round_id, spot, seat) REFERENCES jackpot_wagers (round_id, spot, seat),
            CHECK (amount_cents = from_meter_cents + from_tray_cents)
        )
        """,
        """
        CREATE TABLE jackpot_adjustments (
            adjustment_id INTEGER PRIMARY KEY,
            hit_id INTEGER NOT NULL UNIQUE REFERENCES jackpot_hits (hit_id),
            reason TEXT NOT NULL CHECK (length(trim(reason)) > 0),
            employee_id TEXT NOT NULL,
            employee_name TEXT NOT NULL,
            recorded_at TEXT NOT NULL
        )
        """,
        """
        CREATE TABLE jackpot_ledger (
            entry INTEGER PRIMARY KEY,
            recorded_at TEXT NOT NULL,
            spot INTEGER NOT NULL,
            level TEXT NOT NULL,
            kind TEXT NOT NULL
                CHECK (kind IN ('seed', 'contribution', 'award', 'reset', 'adjustment')),
            round_id INTEGER,
            seat INTEGER,
            hit_id INTEGER REFERENCES jackpot_hits (hit_id),
            adjustment_id INTEGER REFERENCES jackpot_adjustments (adjustment_id),
            meter_delta_micro INTEGER NOT NULL,
            reserve_delta_micro INTEGER NOT NULL,
            meter_after_micro INTEGER NOT NULL CHECK (meter_after_micro >= 0),
            reserve_after_micro INTEGER NOT NULL CHECK (reserve_after_micro >= 0),
            FOREIGN KEY (spot, level) REFERENCES jackpot_levels (spot, level)
        )
        """,
        "CREATE INDEX jackpot_ledger_level ON jackpot_ledger (spot, level, entry)",
        "CREATE INDEX jackpot_hits_time ON jackpot_hits (confirmed_at)",
    ]
    for table in _APPEND_ONLY:
        for verb in ("UPDATE", "DELETE"):
            statements.append(
                f"CREATE TRIGGER {table}_no_{verb.lower()} BEFORE {verb} ON {table} "
                f"BEGIN SELECT RAISE(ABORT, '{table} is append-only: {verb} refused'); END"
            )
    for statement in statements:
        db.execute(statement)


@MIGRATIONS(name="0002_setup_in_the_event_log")
def _setup_in_the_log(db: Database) -> None:
    """A game installed by an older console has its set-up only in ``jackpot_games``: write it
    to the event log now (marked ``backfilled``), so the audit can hold the table to it from
    here on. Schema unchanged; nothing happens in a database without an event log."""
    if not eventlog.has_log(db):
        return
    games = db.execute(
        "SELECT spot, paytable, mode, wager_cents, fixed_from_meter, executive_threshold_cents,"
        " installed_at, installed_by FROM jackpot_games ORDER BY spot").fetchall()
    if not games:
        return
    with db.atomic():
        for spot, paytable, mode, wager, from_meter, threshold, at, by in games:
            levels = [{"level": str(r[0]), "seed_cents": int(r[1]),
                       "contribution_ppm": int(r[2]), "reserve_ppm": int(r[3])}
                      for r in db.execute(
                          "SELECT level, seed_cents, contribution_ppm, reserve_ppm FROM"
                          " jackpot_levels WHERE spot = ? ORDER BY position", [spot])]
            # the same fields as ``store.setup_payload`` writes for a game installed now
            payload = {"spot": int(spot), "paytable": str(paytable), "mode": str(mode),
                       "wager_cents": int(wager), "fixed_from_meter": bool(from_meter),
                       "executive_threshold_cents": int(threshold), "levels": levels,
                       "installed_by": str(by), "backfilled": True, "installed_at": str(at)}
            eventlog.append(db, GAME_INSTALLED, payload, round_id=None)


@MIGRATIONS(name="0003_two_people")
def _two_people(db: Database) -> None:
    """A game's two-person level (an award above it needs a supervisor and an executive) and
    the second confirmer of a hit; NULL for a game without the level and a hit confirmed by
    one card."""
    db.execute("ALTER TABLE jackpot_games ADD COLUMN two_person_above_cents INTEGER "
               "CHECK (two_person_above_cents >= 0)")
    for column in ("second_employee_id", "second_employee_name", "second_employee_role"):
        db.execute(f"ALTER TABLE jackpot_hits ADD COLUMN {column} TEXT")


@MIGRATIONS(name="0004_linked_hits")
def _linked_hits(db: Database) -> None:
    """A hit of a linked game is paid by the link's server from the shared meter
    (``docs/link.md``): its row names the link and the server's hit number, and its meter
    before and after are the server's. ``jackpot_link_asks`` records each hit sent to the
    server before it is sent, so a hit the server may have paid (the reply lost, the table
    restarted) keeps its mark until a swipe learns the award (``jackpot/linked.py``)."""
    db.execute("ALTER TABLE jackpot_hits ADD COLUMN link TEXT")
    db.execute("ALTER TABLE jackpot_hits ADD COLUMN link_hit_id INTEGER")
    db.execute("""
        CREATE TABLE jackpot_link_asks (
            ask_id INTEGER PRIMARY KEY,
            round_id INTEGER NOT NULL,
            spot INTEGER NOT NULL REFERENCES jackpot_games (spot),
            seat INTEGER NOT NULL,
            line_no INTEGER NOT NULL,
            link TEXT NOT NULL,
            employee_id TEXT NOT NULL,
            asked_at TEXT NOT NULL,
            refused_at TEXT,
            refusal TEXT
        )
    """)
    db.execute("CREATE INDEX jackpot_link_asks_seat ON jackpot_link_asks (round_id, spot, seat)")


@MIGRATIONS(name="0005_pin_and_link")
def _pin_and_link(db: Database) -> None:
    """Whether a game's confirmations ask for the confirmer's PIN, and the link whose shared
    meters it plays, kept with the game: a later profile that drops either is then refused
    like any other change of a live jackpot's set-up (an outside review dropped
    ``pin_required`` and ``linked`` from a profile unnoticed). NULL ``pin_required``: a game
    installed before, whose two facts the next start records from its profile (event
    ``jackpot_game_pin_and_link_recorded``); ``linked`` NULL then means the table's own."""
    db.execute("ALTER TABLE jackpot_games ADD COLUMN pin_required INTEGER "
               "CHECK (pin_required IN (0, 1))")
    db.execute("ALTER TABLE jackpot_games ADD COLUMN linked TEXT")

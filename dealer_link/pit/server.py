"""The pit's calls on the link's server: its schema applied, a table's report sent, every
report read, an alert acknowledged and the staff list changed on a card, a pit login made.

Every call is one server-side function (``pit/sql.py``); the connection is the link's
(:func:`dealer_link.server.connect`), so the same timeouts and keepalives hold.
"""

from __future__ import annotations

import json
import os
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from dealer_console.employees.cardhash import hash_card
from dealer_console.employees.pins import check_pin
from dealer_console.employees.registry import RegistryError, check_id, check_name, check_track
from dealer_console.link.sql_base import ADMIN_ROLE, TABLE_ROLE
from dealer_link.pit.report import DeviceState, TableReport
from dealer_link.pit.sql import _GRANTS, _TABLES, AUDITOR_ROLE, MIGRATION, PIT_ROLE, SCHEMA
from dealer_link.pit.sql import _KEY as KEY
from dealer_link.pit.sql_cards import (
    OWN_PIN_MIGRATION,
    OWN_PIN_SCHEMA,
    TURNS_MIGRATION,
    TURNS_SCHEMA,
)
from dealer_link.pit.sql_pit_pins import (
    PIN_TRIES_READABLE,
    PIN_TRY,
    PIT_PIN_MIGRATION,
    PIT_PIN_SCHEMA,
    PIT_PIN_TABLES,
    STAFF_SET,
)
from dealer_link.pit.sql_witness import (
    WITNESS_GRANTS,
    WITNESS_MIGRATION,
    WITNESS_SCHEMA,
    WITNESS_TABLES,
)
from dealer_link.server import Connection, call, track_of
from dealer_link.settings import LinkError, LinkRefused

STAFF_READABLE = "(employee_id, name, role, enabled, version)"
"""The columns of ``pit_staff`` an auditor reads: not the card's verifier, hash or tag."""
_LOGIN = re.compile(r"^[a-z0-9][a-z0-9_.-]{0,62}$")


def _quoted(role: str) -> str:
    """A role's name quoted for SQL (only names this module checked or defines)."""
    if not _LOGIN.match(role):
        raise LinkError(f"a pit login is 1-63 lower-case letters, digits, _ . - ({role[:70]!r})")
    return f'"{role}"'


def apply(conn: Connection) -> bool:
    """Apply the pit's schema once (recorded in ``link_migrations``, after the link's own);
    True if any of it was applied now. Run by ``link init`` as the link's administrator."""
    first = _apply_first(conn)
    turns = _apply_later(conn, TURNS_MIGRATION, TURNS_SCHEMA)
    witness = _apply_later(conn, WITNESS_MIGRATION, WITNESS_SCHEMA, _witness_rights)
    own_pin = _apply_later(conn, OWN_PIN_MIGRATION, OWN_PIN_SCHEMA)
    pit_pins = _apply_later(conn, PIT_PIN_MIGRATION, PIT_PIN_SCHEMA, _pit_pin_rights)
    return first or turns or witness or own_pin or pit_pins


def _apply_later(conn: Connection, name: str, statements: tuple[str, ...],
                 rights: Callable[[Connection], None] | None = None) -> bool:
    """A later migration of the pit's (``pit_0002_card_turns`` and after), once."""
    with conn.transaction():
        conn.execute(b"SELECT pg_advisory_xact_lock(1346982996)")  # "PITT"
        if conn.execute("SELECT 1 FROM link_migrations WHERE name = %s",
                        [name]).fetchone() is not None:
            return False
        for statement in statements:
            conn.execute(statement.encode())
        if rights is not None:
            rights(conn)
        conn.execute("INSERT INTO link_migrations (name) VALUES (%s)", [name])
    return True


def _pit_pin_rights(conn: Connection) -> None:
    """Who tries an executive's PIN and calls the staff change again (its signature changed),
    and who reads whether the casino's executives took PINs up and the tries (administrator
    and auditor; never a verifier or a try's token)."""
    for function in (STAFF_SET, PIN_TRY):
        conn.execute(f"GRANT EXECUTE ON FUNCTION {function} TO {PIT_ROLE}, {TABLE_ROLE}, "
                     f"{ADMIN_ROLE}".encode())
    readable = {**{table: "" for table in PIT_PIN_TABLES}, "pit_pin_tries": PIN_TRIES_READABLE}
    for table, columns in readable.items():
        conn.execute(f"GRANT SELECT {columns} ON {table} TO {ADMIN_ROLE}, {AUDITOR_ROLE}"
                     .encode())
        conn.execute(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY".encode())
        conn.execute(f"CREATE POLICY pit_read ON {table} FOR SELECT TO {ADMIN_ROLE}, "
                     f"{AUDITOR_ROLE} USING (true)".encode())


def _witness_rights(conn: Connection) -> None:
    """Who reads the witness's tables (administrator and auditor) and calls its functions."""
    for table in WITNESS_TABLES:
        conn.execute(f"GRANT SELECT ON {table} TO {ADMIN_ROLE}, {AUDITOR_ROLE}".encode())
        conn.execute(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY".encode())
        conn.execute(f"CREATE POLICY pit_read ON {table} FOR SELECT TO {ADMIN_ROLE}, "
                     f"{AUDITOR_ROLE} USING (true)".encode())
    for signature, roles in WITNESS_GRANTS:
        conn.execute(f"GRANT EXECUTE ON FUNCTION {signature} TO {', '.join(roles)}".encode())


def _apply_first(conn: Connection) -> bool:
    with conn.transaction():
        conn.execute(b"SELECT pg_advisory_xact_lock(1346982996)")  # "PITT"
        done = conn.execute("SELECT 1 FROM link_migrations WHERE name = %s",
                            [MIGRATION]).fetchone()
        if done is not None:
            return False
        if conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s",
                        [PIT_ROLE]).fetchone() is None:
            conn.execute(f"CREATE ROLE {PIT_ROLE} NOLOGIN".encode())
        for statement in (*SCHEMA, KEY):
            conn.execute(statement.encode())
        conn.execute(f"GRANT USAGE ON SCHEMA public TO {PIT_ROLE}".encode())
        for table in _TABLES:
            # the staff list's cards (verifier, hash, tag) are read by no auditor
            columns = STAFF_READABLE if table == "pit_staff" else ""
            conn.execute(f"GRANT SELECT {columns} ON {table} TO {ADMIN_ROLE}, {AUDITOR_ROLE}"
                         .encode())
            conn.execute(f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY".encode())
            conn.execute(f"CREATE POLICY pit_read ON {table} FOR SELECT TO {ADMIN_ROLE}, "
                         f"{AUDITOR_ROLE} USING (true)".encode())
        # the secret is read by no login but its owner's, not even an auditor
        conn.execute(b"REVOKE ALL ON pit_secret FROM PUBLIC")
        conn.execute(b"REVOKE ALL ON ALL FUNCTIONS IN SCHEMA public FROM PUBLIC")
        for signature, roles in _GRANTS:
            conn.execute(f"GRANT EXECUTE ON FUNCTION {signature} TO {', '.join(roles)}"
                         .encode())
        conn.execute("INSERT INTO link_migrations (name) VALUES (%s)", [MIGRATION])
    return True


def send_report(conn: Connection, report: TableReport) -> None:
    """The calling table's report (the server knows which table from the login)."""
    call(conn, "SELECT pit_report(%s, %s, %s, %s, %s, %s::jsonb, %s, %s, %s, %s, %s::jsonb)",
         [report.phase, report.round_id, report.round_text, report.table_open,
          report.self_test, json.dumps([d.as_json() for d in report.devices]),
          report.link_state, report.jackpots_waiting, report.drop_cents, report.hold_cents,
          json.dumps(list(report.events))])


def witness(conn: Connection, seq: int, digest: str, at_seq: int | None,
            at_digest: str | None) -> int:
    """Tell the server where the calling table's event log ends (``seq``, its hash) and
    what it holds at the server's last mark (``at_seq``, or None before the first answer).
    Returns the mark to say next time (``sql_witness.py``)."""
    rows = call(conn, "SELECT pit_witness(%s, %s, %s, %s)", [seq, digest, at_seq, at_digest])
    return int(str(rows[0][0]))


@dataclass(frozen=True, slots=True)
class Rewind:
    """A table's open records alert: its log ended before (``back``), or held something else
    at (``fork``), the point the server had seen it reach (``witnessed_seq``)."""

    entry: int
    """The alert's number on the server: a clearing names it, so a reason typed for one
    alert never clears a later one."""
    kind: str
    witnessed_seq: int
    witnessed_at: str
    reported_seq: int
    found_at: str

    def words(self) -> str:
        """The alert in one short line (the pit's strip); :meth:`detail` says it whole."""
        went = "went back" if self.kind == "back" else "differ"
        return (f"records {went} (event {self.witnessed_seq:,} → {self.reported_seq:,}): "
                "stop play, call an executive")

    def detail(self) -> str:
        what = (f"The table's records now end at event {self.reported_seq:,}"
                if self.kind == "back" else
                f"The table's records (to event {self.reported_seq:,}) differ from those it "
                "reported")
        return (f"{what}, but it had reported event {self.witnessed_seq:,} at "
                f"{self.witnessed_at} (found {self.found_at}): an older copy of its database, "
                "or a new one, hides what was played since. Stop play at the table and call "
                "the table games manager; an executive's card clears the alert, with the "
                "reason (a restore after a failed disk, for example).")


@dataclass(frozen=True, slots=True)
class Ack:
    employee_id: str
    name: str
    at: str


@dataclass(frozen=True, slots=True)
class ReportRow:
    """A table's last report as the pit reads it, with its age on the server's clock."""

    report: TableReport
    age_ms: int
    acks: dict[str, Ack]
    rewind: Rewind | None = None
    """The table's open records alert, or None."""


def read_reports(conn: Connection) -> list[ReportRow]:
    """Every table's last report (the pit's login; a table's is refused)."""
    rows = call(conn, "SELECT * FROM pit_reports()", [])
    rewinds = {str(t): Rewind(int(str(e)), str(k), int(str(ws)), str(wa), int(str(rs)), str(fa))
               for t, e, k, ws, wa, rs, fa in call(conn, "SELECT * FROM pit_rewinds()", [])}
    out = []
    for (table_id, phase, round_id, round_text, table_open, self_test, devices, link_state,
         waiting, drop, hold, events, age_ms, acks) in rows:
        report = TableReport(
            str(table_id), str(phase), None if round_id is None else int(str(round_id)),
            str(round_text), bool(table_open), str(self_test),
            tuple(DeviceState.from_json(d) for d in _list(devices)), str(link_state),
            int(str(waiting)), int(str(drop)), int(str(hold)),
            tuple(str(e) for e in _list(events)))
        ack_map = acks if isinstance(acks, dict) else {}
        out.append(ReportRow(report, int(str(age_ms)), {
            str(k): Ack(str(v["employee"]), str(v["name"]), str(v["at"]))
            for k, v in ack_map.items()}, rewinds.get(str(table_id))))
    return out


def _list(value: object) -> list[object]:
    return list(value) if isinstance(value, list) else []


def acknowledge(conn: Connection, table_id: str, kind: str, track: str) -> str:
    """Acknowledge ``table_id``'s alert of ``kind`` on the card swiped (``track``); the server
    finds whose card it is and answers their name."""
    [(refusal, name)] = call(conn, "SELECT * FROM pit_acknowledge(%s, %s, %s)",
                             [table_id, kind, track_of(track)])
    _refused(refusal)
    return str(name)


def clear_rewind(conn: Connection, entry: int, track: str, reason: str) -> str:
    """Clear records alert ``entry`` (:attr:`Rewind.entry`) on an executive's card, with
    ``reason`` (the pit's login); the executive's name as the server found it."""
    if not any(ch.isalnum() for ch in reason):
        raise LinkRefused("clearing a records alert needs a reason, in words")
    [(refusal, name)] = call(conn, "SELECT * FROM pit_rewind_clear(%s, %s, %s)",
                             [entry, track_of(track), reason])
    _refused(refusal)
    return str(name)


def _refused(refusal: object) -> None:
    """The server's refusal of a card's call (written in ``pit_card_attempts``, so returned
    rather than raised) as a :class:`LinkRefused` in its words."""
    if refusal is not None:
        raise LinkRefused(str(refusal))


def set_staff(conn: Connection, *, executive_track: str | None, employee_id: str, name: str,
              role: str, card_track: str | None, enabled: bool, reason: str,
              pin: str | None = None, executive_pin: str | None = None) -> int:
    """Change the casino's staff list on an executive's card (``executive_track``; None only
    for the link administrator's login, to put the first executives on it) and, once the
    casino's executives took PINs up, their PIN (``executive_pin``, checked by the server).
    ``pin``: a new PIN, sent as the tables' salted hash and, for the server's own check,
    as its digits, which it keeps only as its verifier (None: the PIN on file stays).
    Returns the change's version, the order every table's replica applies it in."""
    executive = None if executive_track is None else track_of(executive_track)
    card = None if card_track is None else track_of(card_track)
    try:  # as every table takes them (the server checks again)
        check_id(employee_id)
        check_name(name)
        if card is not None:
            check_track(card)  # what every table's reader can read back
        if pin is not None:
            check_pin(pin)
        if executive_pin is not None:
            check_pin(executive_pin)
    except RegistryError as exc:
        raise LinkError(str(exc)) from None
    pin_try = None
    if executive is not None and executive_pin is not None:
        # the PIN is tried in a transaction of its own (``sql_pit_pins.py``): the try is
        # counted whatever the change does; the change says whether the PIN was right
        [(refusal, pin_try)] = call(conn, "SELECT * FROM pit_pin_try(%s, %s)",
                                    [executive, executive_pin])
        _refused(refusal)
    [(refusal, version)] = call(conn, "SELECT * FROM pit_staff_set(%s, %s, %s, %s, %s, %s, "
                                "%s, %s, %s, %s, %s)", [executive, employee_id, name, role, card,
                                                        None if card is None
                                                        else hash_card(card),
                                                        enabled, reason,
                                                        None if pin is None else hash_card(pin),
                                                        pin, pin_try])
    _refused(refusal)
    return int(str(version))


def unlock_cards(conn: Connection, login: str, reason: str) -> str:
    """Lift the lock on ``login``'s card attempts (the link administrator's login; written
    with the reason in ``pit_card_unlocks``); the server's words."""
    return str(call(conn, "SELECT pit_card_unlock(%s, %s)", [login, reason])[0][0])


@dataclass(frozen=True, slots=True)
class CardAttempt:
    """A refused card attempt as the server wrote it (never the card)."""

    login: str
    caller: str
    action: str
    refusal: str
    counts: bool
    at: str


def card_attempts(conn: Connection, limit: int = 50) -> list[CardAttempt]:
    """The last refused card attempts, newest first (a link administrator or auditor)."""
    rows = call(conn, "SELECT login, caller, action, refusal, counts, "
                "to_char(at, 'YYYY-MM-DD HH24:MI:SS') FROM pit_card_attempts "
                "ORDER BY entry DESC LIMIT %s", [limit])
    return [CardAttempt(str(lg), str(c), str(a), str(r), bool(n), str(t))
            for lg, c, a, r, n, t in rows]


@dataclass(frozen=True, slots=True)
class StaffChange:
    """One change of the casino's staff list, as a table's replica applies it."""

    employee_id: str
    name: str
    role: str
    card_tag: str
    card_hash: str
    enabled: bool
    version: int
    mark: str
    """Random, made with the change: a server restored from a backup numbers its next
    changes as the lost ones were, but never marks them alike."""
    pin_hash: str | None = None
    """The employee's PIN as the tables' salted hash, or None: no PIN on file."""


def staff_since(conn: Connection, version: int) -> list[StaffChange]:
    """The staff list's changes after ``version``, in the server's order (a table's login)."""
    return [StaffChange(str(e), str(n), str(r), str(t), str(h), bool(on), int(str(v)), str(m),
                        None if p is None else str(p))
            for e, n, r, t, h, on, v, m, p in call(conn, "SELECT * FROM pit_staff_since(%s)",
                                                   [version])]


def staff_holds(conn: Connection, version: int, mark: str) -> bool:
    """Whether the server still holds change ``version`` with ``mark`` (a table's login);
    False after a restore that lost it."""
    rows = call(conn, "SELECT pit_staff_holds(%s, %s)", [version, mark])
    return bool(rows and rows[0][0])


def pin_wrong(conn: Connection, employee_id: str, entry: int) -> str:
    """Report a wrong PIN typed at this table (a table's login; ``entry``: the table's own
    log entry, so a report sent twice counts once). The server's word: ``counted``,
    ``counted before``, ``locked`` (the PIN taken off the list) or ``not on the list``."""
    return str(call(conn, "SELECT pit_pin_wrong(%s, %s)", [employee_id, entry])[0][0])


def staff_key(conn: Connection) -> bytes:
    """The key of the server's card tags (a table's login)."""
    rows = call(conn, "SELECT pit_staff_key()", [])
    value = rows[0][0] if rows else None
    if not isinstance(value, bytes | memoryview):
        raise LinkError("this login is not a table's: the staff list's key is a table's only")
    return bytes(value)


def add_pit_login(conn: Connection, login: str, credentials: Path) -> None:
    """Make the podium's login (a member of ``dealer_pit`` only) and its credentials file
    (a libpq password file, mode 0600, refused if it exists). The administrator's login."""
    who = _quoted(login)
    if credentials.exists():
        raise LinkError(f"{credentials} exists already: nothing was changed")
    rows = call(conn, "SELECT 1 FROM pg_roles WHERE rolname = %s", [login])
    if rows:
        raise LinkError(f"the login {login} exists already: choose another")
    password = secrets.token_urlsafe(32)
    verifier = conn.pgconn.encrypt_password(password.encode(), login.encode(),
                                            b"scram-sha-256").decode()
    with conn.transaction():  # a login without the right: refused in one line (call)
        call(conn, f"CREATE ROLE {who} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE "
             f"NOBYPASSRLS PASSWORD '{verifier}'", [])
        call(conn, f"GRANT {PIT_ROLE} TO {who}", [])
        fd = os.open(credentials, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    dbname = conn.info.dbname.replace("\\", "\\\\").replace(":", "\\:")
    with os.fdopen(fd, "w", encoding="utf-8") as out:  # as libpq compares the names
        out.write(f"*:*:{dbname}:{login}:{password}\n")

"""What only a link administrator does (``dealer-console link add-table``, ``table-link``,
``add-confirmer``, ``thresholds``, ``adjust``, ``rounds-an-hour``): each a server-side
function that checks the login is one (``server_trust.py``) and records who and why.

- A table gets a login of its own: :func:`add_table` creates it (the password made here and
  sent to the server only as its SCRAM verifier, so it is in no statement log) and writes the
  table's credentials file, a libpq password file readable by its owner only (mode 0600).
- The login acts only on the links it is put on (:func:`add_table`'s ``links``,
  :func:`set_table_link`; ``server_links.py``): a table of one pit's progressive cannot feed
  or be paid from another's.
- Who may confirm a linked jackpot is the link's own list (:func:`set_confirmer`), kept by its
  administrator: a supervisor confirms up to the game's executive threshold, an executive
  above it, both together above its two-person level. The server refuses anyone else.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Sequence
from pathlib import Path

from psycopg import sql

from dealer_link.server import Connection, call
from dealer_link.server_trust import ADMIN_ROLE, TABLE_ROLE
from dealer_link.settings import LinkError, check_link_name

CONFIRMER_ROLES = ("supervisor", "executive")


def default_login(table_id: str) -> str:
    return f"table-{table_id}"


def _escape(field: str) -> str:
    return field.replace("\\", "\\\\").replace(":", "\\:")


def add_table(conn: Connection, table_id: str, credentials: Path, *, login: str | None = None,
              links: Sequence[str] = (), reason: str) -> str:
    """Make ``table_id``'s login (a new password each time), put it on ``links`` (none: a
    table that only reports to the pit) and write its credentials file at ``credentials``
    (refused if the file exists: nothing is overwritten). Returns the login. An existing
    login is reused only if it is a plain one (no superuser, no administrator): its password
    is replaced. A link not installed refuses the whole step."""
    check_link_name(table_id)
    links = list(dict.fromkeys(links))  # a link named twice is one link
    for link in links:
        check_link_name(link)
    login = login or default_login(table_id)
    if not 1 <= len(login) <= 63:
        raise LinkError(f"the login {login[:70]!r} is longer than PostgreSQL's 63 characters: "
                        "name a shorter one with --login")
    if credentials.exists():
        raise LinkError(f"{credentials} exists already: nothing was changed (remove it or name "
                        "another file)")
    rows = call(conn, "SELECT rolsuper OR rolcreaterole OR rolcreatedb OR rolbypassrls OR "
                "pg_has_role(oid, %s, 'MEMBER') FROM pg_roles WHERE rolname = %s",
                [ADMIN_ROLE, login])
    if rows and rows[0][0]:
        raise LinkError(f"the login {login} has rights a table must not have (superuser, "
                        "create roles or databases, or link administrator): choose another")
    password = secrets.token_urlsafe(32)
    verifier = conn.pgconn.encrypt_password(password.encode(), login.encode(),
                                            b"scram-sha-256").decode()
    who = sql.Identifier(login)
    with conn.transaction():
        verb = "ALTER" if rows else "CREATE"
        conn.execute(sql.SQL(f"{verb} ROLE {{}} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE "
                             "NOBYPASSRLS PASSWORD {}").format(who, sql.Literal(verifier)))
        conn.execute(sql.SQL("GRANT {} TO {}").format(sql.Identifier(TABLE_ROLE), who))
        call(conn, "SELECT link_register_login(%s, %s, %s)", [login, table_id, reason])
        for link in links:
            set_table_link(conn, table_id, link, True, reason=reason)
        dbname = conn.info.dbname
        fd = os.open(credentials, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:  # as libpq compares the names
        out.write(f"*:*:{_escape(dbname)}:{_escape(login)}:{_escape(password)}\n")
    return login


def set_table_link(conn: Connection, table_id: str, link: str, on: bool, *, reason: str
                   ) -> bool:
    """Put ``table_id``'s login on ``link`` (or take it off: its wagers then wait in its
    outbox, and its hits are not paid). False when it was so already."""
    check_link_name(table_id)
    check_link_name(link)
    rows = call(conn, "SELECT link_set_table_link(%s, %s, %s, %s)",
                [table_id, link, on, reason])
    return bool(rows[0][0])


def set_confirmer(conn: Connection, employee_id: str, name: str, role: str, *,
                  enabled: bool = True, reason: str) -> None:
    """Put ``employee_id`` on the link's list of who may confirm (or take them off)."""
    if role not in CONFIRMER_ROLES:
        raise LinkError(f"a linked jackpot is confirmed by a supervisor or an executive, not a "
                        f"{role[:30]}")
    if not employee_id.strip() or len(employee_id) > 64 or not name.strip() or len(name) > 100:
        raise LinkError("an employee id (1-64 characters) and a name (1-100) are needed")
    call(conn, "SELECT link_set_confirmer(%s, %s, %s, %s, %s)",
         [employee_id, name, role, enabled, reason])


def set_thresholds(conn: Connection, link: str, *, executive_cents: int,
                   two_person_cents: int | None, reason: str) -> None:
    """The link's executive threshold and two-person level (every table's profile must then
    say the same, or its registration is refused with the difference)."""
    if executive_cents < 0 or (two_person_cents is not None and two_person_cents < 0):
        raise LinkError("a threshold cannot be negative")
    call(conn, "SELECT link_set_thresholds(%s, %s, %s, %s)",
         [link, executive_cents, two_person_cents, reason])


def set_cards_on_server(conn: Connection, link: str, on: bool, *, reason: str) -> None:
    """Whether ``link`` pays off its meter only on cards the server reads itself against the
    casino's staff list (``server_cards.py``): every table of the link must then keep that
    list (``DEALER_CONSOLE_STAFF=casino``), or its confirmers' cards are refused."""
    call(conn, "SELECT link_set_cards_on_server(%s, %s, %s)", [link, on, reason])


def adjust(conn: Connection, link: str, level: str, *, delta_micro: int = 0,
           reset: bool = False, reason: str) -> int:
    """A meter reset to seed plus reserve (``reset``) or moved by ``delta_micro`` millionths
    of a cent; a ledger entry with who and why. Returns the meter after."""
    rows = call(conn, "SELECT link_adjust(%s, %s, %s, %s, %s)",
                [link, level, "reset" if reset else "adjustment", delta_micro, reason])
    return int(str(rows[0][0]))


def rounds_an_hour(conn: Connection, link: str) -> int:
    """The most rounds a table of ``link`` may play in an hour of its clock
    (``server_play_bound.py``): what one table's login can add to the meters."""
    check_link_name(link)
    rows = call(conn, "SELECT rounds_an_hour FROM link_games WHERE link = %s", [link])
    if not rows:
        raise LinkError(f"link {link} is not installed")
    return int(str(rows[0][0]))


def set_rounds_an_hour(conn: Connection, link: str, rounds: int, *, reason: str) -> int:
    """Set ``link``'s bound (``server_rounds_an_hour.py`` says what it refuses); returns the
    bound before (the same: nothing changed)."""
    check_link_name(link)
    rows = call(conn, "SELECT link_set_rounds_an_hour(%s, %s, %s)", [link, rounds, reason])
    return int(str(rows[0][0]))

"""Where a table finds its link: the server's address, never from the profile.

The profile names the link (``linked = "NAME"`` in its jackpot section) and nothing else: the
server's address is the table's own (``DEALER_CONSOLE_LINK_DSN``, a libpq connection string
or URI), and a password belongs in the table's ``~/.pgpass`` (or ``PGPASSFILE``), which libpq
reads itself. An address that carries a password is refused, so one never lands in a process
list, a log or a shell history.
"""

from __future__ import annotations

import os
import re

from dealer_console.jackpot_values.link_names import LinkError, check_link_name

ASK_TIMEOUT_S = 15
"""The longest the server may take over one hit (``statement_timeout`` on the asker's
connection): a server that hangs gives the table an answer ("no answer": the mark is held and
the next swipe asks again) instead of a panel that waits for ever. Here, with no PostgreSQL
client, so the simulated dealer waits on it without loading one."""

__all__ = ["LinkError", "check_link_name"]  # the names, below the link (jackpot_values)

DSN_VARIABLE = "DEALER_CONSOLE_LINK_DSN"
CONNECT_TIMEOUT_S = 3
"""How long a table waits for the server before it calls the link down."""

_PASSWORD = re.compile(r"(?:^|[\s?&])password\s*=|://[^/@\s]*:[^/@\s]*@", re.IGNORECASE)


class LinkRefused(LinkError):
    """The server answered and refused (nothing written there): unlike a lost connection, the
    outcome is known, so a table may change what it asked for."""


def check_dsn(dsn: str) -> str:
    """``dsn`` if it is an address without a password that, over the network, verifies the
    server (``sslmode=verify-full``) and names a password file only its owner can read; else
    :class:`LinkError`."""
    text = dsn.strip()
    if not text:
        raise LinkError(f"the link server's address is empty: set {DSN_VARIABLE} or --dsn")
    if len(text) > 1000 or any(ord(c) < 32 for c in text):
        raise LinkError("the link server's address is too long or holds control characters")
    if _PASSWORD.search(text):
        raise LinkError("the link server's address holds a password: put it in the table's "
                        "~/.pgpass (or PGPASSFILE), never in the address")
    from psycopg import ProgrammingError
    from psycopg.conninfo import conninfo_to_dict

    try:
        params = conninfo_to_dict(text)
    except ProgrammingError as exc:
        raise LinkError(f"the link server's address is not a libpq address: "
                        f"{str(exc).strip().splitlines()[0][:200]}") from None
    hosts = [h for h in str(params.get("host", "")).split(",") if h]
    network = bool(params.get("hostaddr")) or any(not h.startswith("/") for h in hosts)
    if network and params.get("sslmode") != "verify-full":
        raise LinkError("the link server's address reaches it over the network without "
                        "sslmode=verify-full: add sslmode=verify-full and sslrootcert=(the "
                        "card room's certificate authority) so the table talks, encrypted, "
                        "only to the real server")
    passfile = params.get("passfile")
    if passfile:
        _check_passfile(str(passfile))
    return text


def _check_passfile(path: str) -> None:
    """A password file others can read is refused (libpq would ignore it anyway)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return  # libpq says itself that there is no password
    if mode & 0o077:
        raise LinkError(f"the link's password file {path[:200]} can be read by others: "
                        "chmod 600 it (only the table's service user may read it)")


def dsn_from_environment(given: str | None = None) -> str:
    """The server's address: ``given`` (a command's ``--dsn``) or the environment's."""
    value = given if given is not None else os.environ.get(DSN_VARIABLE, "")
    return check_dsn(value)


def has_link_login() -> bool:
    """The table has a login on the link's server (its address and its name both set): only
    then is the PostgreSQL client loaded, so a table without a link starts without it."""
    from dealer_console.table_name import TABLE_ID_VARIABLE

    return bool(os.environ.get(DSN_VARIABLE)) and bool(os.environ.get(TABLE_ID_VARIABLE))

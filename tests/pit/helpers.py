"""A link with the pit's schema, tables with their own logins, a pit login, staff cards."""

from __future__ import annotations

from pathlib import Path

from psycopg.conninfo import conninfo_to_dict, make_conninfo

from dealer_link import server as link_server
from dealer_link.pit import server
from dealer_link.pit.report import DeviceState, TableReport
from tests.link.helpers import init_link, table_dsn

EXEC_CARD = ";1111000011110000=1?"
SUPER_CARD = ";2222000022220000=2?"
DEALER_CARD = ";3333000033330000=3?"
"""Track-2 data as a keyboard reader types it (sentinels included), as the tables read it."""


def init_pit(dsn: str) -> link_server.Connection:
    """The link and the pit's schema installed by the administrator (``dsn``), with an
    executive put on the staff list by the administrator and a supervisor and a dealer
    added on the executive's card; the administrator's connection."""
    conn = init_link(dsn)
    assert server.apply(conn) is True
    server.set_staff(conn, executive_track=None, employee_id="X1", name="Ella Exec",
                     role="executive", card_track=EXEC_CARD, enabled=True,
                     reason="the casino's first executive")
    for employee, name, role, card in (("S1", "Sam Super", "supervisor", SUPER_CARD),
                                       ("D1", "Dana Dealer", "dealer", DEALER_CARD)):
        server.set_staff(conn, executive_track=EXEC_CARD, employee_id=employee, name=name,
                         role=role, card_track=card, enabled=True, reason="hired")
    return conn


def her_first_pin(admin_dsn: str, pin: str) -> None:
    """Ella's own first PIN, set at the pit on her card (the casino's executives take PINs up
    with it, ``sql_pit_pins.py``)."""
    with link_server.connect(pit_dsn(admin_dsn)) as pit:
        server.set_staff(pit, executive_track=EXEC_CARD, employee_id="X1", name="Ella Exec",
                         role="executive", card_track=None, enabled=True, reason="her PIN",
                         pin=pin)


def pit_dsn(admin_dsn: str) -> str:
    """The podium's own login (made once per test database)."""
    params = conninfo_to_dict(admin_dsn)
    login = f"{params['dbname']}-pit".replace("_", "-")
    credentials = Path(str(params["passfile"])).parent / f"{login}.pgpass"
    if not credentials.exists():
        with link_server.connect(admin_dsn) as conn:
            server.add_pit_login(conn, login, credentials)
    return make_conninfo(admin_dsn, user=login, passfile=str(credentials))


def as_table(admin_dsn: str, table_id: str) -> link_server.Connection:
    return link_server.connect(table_dsn(admin_dsn, table_id), who=table_id)


def report(**changes: object) -> TableReport:
    """A quiet table's report, with ``changes``."""
    base: dict[str, object] = dict(
        table_id="", phase="betting", round_id=7, round_text="seats 1, 3 and 5 bet",
        table_open=True, self_test="passed",
        devices=(DeviceState("Shuffler", True), DeviceState("Bet sensors", True)),
        link_state="up", jackpots_waiting=0, drop_cents=125_000, hold_cents=31_250,
        events=("12:00:01 round 7 started",))
    base.update(changes)
    return TableReport(**base)  # type: ignore[arg-type]

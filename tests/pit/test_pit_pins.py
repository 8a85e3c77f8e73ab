"""Migration pit_0005_pins_at_the_pit: the pit's staff changes take the executive's PIN, once
the casino's executives took PINs up there. A second outside review made an executive for a
thief at the pit on a stolen executive card alone, with a PIN of the thief's, and that
executive then backed an award out at a table whose confirmations take a PIN. Real logins on a
real server."""

from __future__ import annotations

import io

import pytest

from dealer_console.cli import main
from dealer_link import server as link_server
from dealer_link.pit import server
from dealer_link.settings import DSN_VARIABLE
from tests.controller.conftest import Rig
from tests.link.helpers import table_dsn
from tests.pit.helpers import EXEC_CARD, pit_dsn
from tests.pit.test_staff_replica import casino_table

__all__ = ["casino_table"]  # the fixture, used below

X2_CARD = ";4444000044440000=4?"
THIEF_CARD = ";9999000099990000=9?"


def _attempts(link_dsn: str) -> list[tuple[str, bool]]:
    with link_server.connect(link_dsn) as admin:
        return [(str(r), bool(c)) for r, c in admin.execute(
            b"SELECT refusal, counts FROM pit_card_attempts ORDER BY entry")]


def _thief(pit: link_server.Connection, executive_pin: str | None) -> None:
    server.set_staff(pit, executive_track=X2_CARD, employee_id="T1", name="Tom Thief",
                     role="executive", card_track=THIEF_CARD, enabled=True, reason="hired",
                     pin="1234", executive_pin=executive_pin)


def test_a_stolen_executive_card_alone_makes_no_executive_at_the_pit(
        casino_table: Rig, link_dsn: str) -> None:
    with link_server.connect(pit_dsn(link_dsn)) as pit:
        server.set_staff(pit, executive_track=EXEC_CARD, employee_id="X2", name="Xavi Exec",
                         role="executive", card_track=X2_CARD, enabled=True,
                         reason="second")  # before PINs: the card alone
        server.set_staff(pit, executive_track=EXEC_CARD, employee_id="X1", name="Ella Exec",
                         role="executive", card_track=None, enabled=True, reason="her PIN",
                         pin="90210")  # her first PIN: the casino's executives take PINs up
        with pytest.raises(link_server.LinkRefused, match="Xavi Exec has no PIN the server "
                                                          "can check"):
            _thief(pit, "24680")
        server.set_staff(pit, executive_track=EXEC_CARD, employee_id="X2", name="Xavi Exec",
                         role="executive", card_track=None, enabled=True, reason="his PIN",
                         pin="24680", executive_pin="90210")
        # the thief has X2's card, not its PIN
        with pytest.raises(link_server.LinkRefused, match="Xavi Exec's PIN is needed"):
            _thief(pit, None)
        with pytest.raises(link_server.LinkRefused, match="wrong PIN for Xavi Exec"):
            _thief(pit, "13579")
        _thief(pit, "24680")  # the executive's own PIN: the change is made
    attempts = _attempts(link_dsn)
    assert ("wrong PIN for Xavi Exec", True) in attempts  # a guess counts towards the lock
    assert not [a for a, _c in attempts if "13579" in a or "24680" in a]
    with link_server.connect(link_dsn) as admin:
        # the server's verifier: bcrypt, never the digits, never to the auditor's columns
        [(crypt,)] = admin.execute(b"SELECT pin_crypt FROM pit_staff WHERE employee_id = 'X2'")
        assert str(crypt).startswith("$2a$08$") and "24680" not in str(crypt)
        assert admin.execute(b"SELECT count(*) FROM pit_executive_pins").fetchone() == (1,)


def test_the_floor_s_lock_takes_the_server_s_check_off_too(casino_table: Rig,
                                                           link_dsn: str) -> None:
    with link_server.connect(pit_dsn(link_dsn)) as pit:
        server.set_staff(pit, executive_track=EXEC_CARD, employee_id="X1", name="Ella Exec",
                         role="executive", card_track=None, enabled=True, reason="her PIN",
                         pin="90210")
    with link_server.connect(table_dsn(link_dsn, "t1")) as t1:
        assert [server.pin_wrong(t1, "X1", e) for e in (1, 2, 3, 4)] == ["counted"] * 4
    with link_server.connect(table_dsn(link_dsn, "t2")) as t2:
        assert server.pin_wrong(t2, "X1", 1) == "locked"
    with link_server.connect(pit_dsn(link_dsn)) as pit, pytest.raises(
            link_server.LinkRefused, match="Ella Exec has no PIN the server can check"):
        server.set_staff(pit, executive_track=EXEC_CARD, employee_id="S1", name="Sam Super",
                         role="supervisor", card_track=None, enabled=False, reason="left",
                         executive_pin="90210")


def test_the_pit_command_takes_the_executive_s_pin_after_the_card(
        casino_table: Rig, link_dsn: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    with link_server.connect(pit_dsn(link_dsn)) as pit:
        server.set_staff(pit, executive_track=EXEC_CARD, employee_id="X1", name="Ella Exec",
                         role="executive", card_track=None, enabled=True, reason="her PIN",
                         pin="90210")
    monkeypatch.setenv(DSN_VARIABLE, pit_dsn(link_dsn))
    args = ["pit", "staff", "S1", "--name", "Sam Super", "--role", "supervisor",
            "--new-pin", "--reason", "his PIN for jackpots"]
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{EXEC_CARD}\n4821\n4821\n"))
    assert main(args) == 2
    assert "Ella Exec's PIN is needed with the card" in capsys.readouterr().err
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{EXEC_CARD}\n90210\n4821\n4821\n"))
    assert main([*args, "--executive-pin"]) == 0
    said = capsys.readouterr()
    assert "S1 (Sam Super, supervisor, new PIN) recorded" in said.out
    assert "90210" not in said.out + said.err

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
from tests.pit.helpers import EXEC_CARD, her_first_pin, pit_dsn
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
    assert ("wrong PIN for Xavi Exec", True) in attempts
    assert not [a for a, _c in attempts if "13579" in a or "24680" in a]
    with link_server.connect(link_dsn) as admin:
        # the server's verifier: bcrypt, never the digits, never to the auditor's columns
        [(crypt,)] = admin.execute(b"SELECT pin_crypt FROM pit_staff WHERE employee_id = 'X2'")
        assert str(crypt).startswith("$2a$08$") and "24680" not in str(crypt)
        assert admin.execute(b"SELECT count(*) FROM pit_executive_pins").fetchone() == (1,)


def test_the_floor_s_lock_takes_the_server_s_check_off_too(casino_table: Rig,
                                                           link_dsn: str) -> None:
    her_first_pin(link_dsn, "90210")
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
    her_first_pin(link_dsn, "90210")
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


def _old_call(conn: link_server.Connection, track: str | None, employee: str, name: str,
              role: str, card: str | None, pin: str | None) -> object:
    """pit_staff_set as a pit before pit_0005 called it (nine arguments: the PIN's hash)."""
    from dealer_console.employees.cardhash import hash_card

    card_track = None if card is None else link_server.track_of(card)
    [(refusal, _version)] = link_server.call(
        conn, "SELECT * FROM pit_staff_set(%s, %s, %s, %s, %s, %s, %s, %s, %s)",
        [None if track is None else link_server.track_of(track), employee, name, role,
         card_track, None if card_track is None else hash_card(card_track), True, "as before",
         None if pin is None else hash_card(pin)])
    return refusal


def test_a_casino_whose_executives_had_pins_keeps_them_wanted_after_the_upgrade(
        link_dsn: str) -> None:
    """A third outside review: on a pit upgraded from pit_0004, executives had PINs (the
    tables' hash) but no check of the server's, and nothing said PINs were taken up: the
    first stolen card alone made an executive of the thief's, which shut the real ones out.
    The upgrade now takes PINs up, and the administrator's login sets an executive's PIN the
    server can check while none has one (the way out, logged as theirs)."""
    from dealer_link.pit.sql_cards import (
        OWN_PIN_MIGRATION,
        OWN_PIN_SCHEMA,
        TURNS_MIGRATION,
        TURNS_SCHEMA,
    )
    from dealer_link.pit.sql_witness import WITNESS_MIGRATION, WITNESS_SCHEMA
    from tests.link.helpers import init_link

    with init_link(link_dsn) as admin:  # the pit as released before pit_0005, in use
        assert server._apply_first(admin)
        assert server._apply_later(admin, TURNS_MIGRATION, TURNS_SCHEMA)
        assert server._apply_later(admin, WITNESS_MIGRATION, WITNESS_SCHEMA,
                                   server._witness_rights)
        assert server._apply_later(admin, OWN_PIN_MIGRATION, OWN_PIN_SCHEMA)
        assert _old_call(admin, None, "X1", "Ella Exec", "executive", EXEC_CARD, None) is None
        assert _old_call(admin, EXEC_CARD, "X1", "Ella Exec", "executive", None, "90210") is None
        assert _old_call(admin, EXEC_CARD, "X2", "Xavi Exec", "executive", X2_CARD, None) is None
        assert server.apply(admin) is True  # link init, later: pit_0005
    with link_server.connect(pit_dsn(link_dsn)) as pit:
        with pytest.raises(link_server.LinkRefused, match="Xavi Exec has no PIN the server"):
            _thief(pit, None)  # the stolen card alone
        with pytest.raises(link_server.LinkRefused, match="Ella Exec has no PIN the server"):
            server.set_staff(pit, executive_track=EXEC_CARD, employee_id="X2",
                             name="Xavi Exec", role="executive", card_track=None, enabled=True,
                             reason="his PIN", pin="24680", executive_pin="90210")
    with link_server.connect(link_dsn) as admin:  # the way out: the administrator's login
        server.set_staff(admin, executive_track=None, employee_id="X1", name="Ella Exec",
                         role="executive", card_track=None, enabled=True,
                         reason="a PIN the server checks", pin="13579")
        with pytest.raises(link_server.LinkRefused, match="while no enabled executive has one"):
            server.set_staff(admin, executive_track=None, employee_id="X2", name="Xavi Exec",
                             role="executive", card_track=None, enabled=True,
                             reason="and his", pin="24680")  # one has one now: her card
        [(detail, by)] = admin.execute(
            b"SELECT detail, by_employee FROM pit_staff_log ORDER BY entry DESC LIMIT 1")
        assert "new PIN at the link administrator" in str(detail) and by is None
    with link_server.connect(pit_dsn(link_dsn)) as pit:
        server.set_staff(pit, executive_track=EXEC_CARD, employee_id="X2", name="Xavi Exec",
                         role="executive", card_track=None, enabled=True, reason="his PIN",
                         pin="24680", executive_pin="13579")
        _thief(pit, "24680")  # with his PIN, his card does


def test_a_promoted_employee_s_pin_takes_pins_up(casino_table: Rig, link_dsn: str) -> None:
    """A third outside review: a PIN set while its holder was a supervisor, then the holder
    made an executive, left the pit taking cards alone."""
    with link_server.connect(pit_dsn(link_dsn)) as pit:
        server.set_staff(pit, executive_track=EXEC_CARD, employee_id="S1", name="Sam Super",
                         role="supervisor", card_track=None, enabled=True, reason="his PIN",
                         pin="4821")
        server.set_staff(pit, executive_track=EXEC_CARD, employee_id="S1", name="Sam Super",
                         role="executive", card_track=None, enabled=True, reason="promoted")
        with pytest.raises(link_server.LinkRefused, match="Ella Exec has no PIN the server"):
            server.set_staff(pit, executive_track=EXEC_CARD, employee_id="D1",
                             name="Dana Dealer", role="dealer", card_track=None,
                             enabled=False, reason="left")


def test_a_pin_s_hash_without_its_digits_is_refused(casino_table: Rig, link_dsn: str) -> None:
    """A third outside review: the tables' hash alone (no digits for the server's check) set a
    PIN and cleared the server's check of it."""
    from dealer_console.employees.cardhash import hash_card

    with link_server.connect(pit_dsn(link_dsn)) as pit:
        [(refusal, version)] = link_server.call(
            pit, "SELECT * FROM pit_staff_set(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            [link_server.track_of(EXEC_CARD), "S1", "Sam Super", "supervisor", None, None,
             True, "a hash alone", hash_card("4821"), None, None])
    assert "a new PIN comes as 4 to 8 digits" in str(refusal) and version is None


def test_wrong_pins_at_the_pit_count_for_the_executive_whichever_login_sent_them(
        casino_table: Rig, link_dsn: str) -> None:
    """A third outside review: each login's card lock alone let the pit and every table's
    login add their own guesses at an executive's PIN (16 went through, the right one then
    accepted). Five within the floor's hours take the PIN off, as the floor's lock does."""
    her_first_pin(link_dsn, "90210")
    logins = [pit_dsn(link_dsn), table_dsn(link_dsn, "t1"), table_dsn(link_dsn, "t2")]
    said = []
    for n, guess in enumerate(("11111", "22222", "33333", "44444", "55555")):
        with link_server.connect(logins[n % 3]) as conn, pytest.raises(
                link_server.LinkRefused) as refused:
            server.set_staff(conn, executive_track=EXEC_CARD, employee_id="D1",
                             name="Dana Dealer", role="dealer", card_track=None,
                             enabled=False, reason="left", executive_pin=guess)
        said.append(str(refused.value))
    assert said == ["wrong PIN for Ella Exec"] * 5
    for words in ("Ella Exec's PIN is taken off after 5 wrong PINs: another executive sets "
                  "a new one", "Ella Exec has no PIN the server can check"):
        with link_server.connect(pit_dsn(link_dsn)) as pit, pytest.raises(
                link_server.LinkRefused, match=words):
            server.set_staff(pit, executive_track=EXEC_CARD, employee_id="D1",
                             name="Dana Dealer", role="dealer", card_track=None,
                             enabled=False, reason="left",
                             executive_pin="90210")  # the right PIN, too late
    with link_server.connect(link_dsn) as admin:
        [(detail,)] = admin.execute(b"SELECT detail FROM pit_staff_log WHERE employee_id = "
                                    b"'X1' ORDER BY entry DESC LIMIT 1")
        assert str(detail) == "PIN taken off after 5 wrong PINs at the pit"
        [(pin_hash, crypt)] = admin.execute(
            b"SELECT pin_hash, pin_crypt FROM pit_staff WHERE employee_id = 'X1'")
        assert pin_hash is None and crypt is None


def test_a_guess_rolled_back_is_counted_and_tells_nothing(casino_table: Rig,
                                                           link_dsn: str) -> None:
    """A fourth outside review guessed a PIN inside transactions it rolled back: the change
    said "wrong PIN" or went through, and nothing of the guess was kept (4321 found in 22
    guesses, none counted). The try is now a call of its own, committed before the change
    that reads it: within one transaction the change takes no try, and a try rolled back
    leaves no token."""
    her_first_pin(link_dsn, "4321")
    track = link_server.track_of(EXEC_CARD)
    change = (b"SELECT * FROM pit_staff_set(%s, 'D1', 'Dana Dealer', 'dealer', NULL, NULL, "
              b"true, 'probe', NULL, NULL, %s)")
    with link_server.connect(pit_dsn(link_dsn)) as pit:
        for guess in ("4320", "4321"):  # wrong, then right: the answers are the same
            pit.execute(b"BEGIN")
            [(refusal, token)] = pit.execute(b"SELECT * FROM pit_pin_try(%s, %s)",
                                             [track, guess]).fetchall()
            assert refusal is None and token
            [(said, _v)] = pit.execute(change, [track, token]).fetchall()
            assert "PIN is needed with the card, typed just before the change" in str(said)
            pit.execute(b"ROLLBACK")
            [(said, _v)] = pit.execute(change, [track, token]).fetchall()
            assert "typed just before the change" in str(said)  # the try was rolled back
        [(refusal, token)] = pit.execute(b"SELECT * FROM pit_pin_try(%s, %s)",
                                         [track, "4320"]).fetchall()  # committed: counted
        pit.execute(b"BEGIN")
        [(said, _v)] = pit.execute(change, [track, token]).fetchall()
        pit.execute(b"ROLLBACK")
        assert str(said) == "wrong PIN for Ella Exec"
    with link_server.connect(link_dsn) as admin:
        assert admin.execute(b"SELECT count(*) FROM pit_pin_tries WHERE wrong"
                             ).fetchone() == (1,)


def test_the_auditor_reads_the_tries_but_no_verifier_nor_token(
        casino_table: Rig, link_dsn: str) -> None:
    """A fourth outside review read the bcrypt verifier in the tries' table as the auditor
    and broke it offline. The tries hold a random generation of the verifier, and the
    administrator and the auditor read neither it nor the token."""
    import psycopg

    her_first_pin(link_dsn, "4321")
    with link_server.connect(pit_dsn(link_dsn)) as pit, pytest.raises(
            link_server.LinkRefused, match="wrong PIN for Ella Exec"):
        server.set_staff(pit, executive_track=EXEC_CARD, employee_id="D1", name="Dana Dealer",
                         role="dealer", card_track=None, enabled=False, reason="x",
                         executive_pin="0000")
    with link_server.connect(link_dsn) as admin:
        admin.execute(b"SET ROLE dealer_link_auditor")
        assert admin.execute(b"SELECT employee_id, wrong FROM pit_pin_tries").fetchall() == [
            ("X1", True)]
        for column in (b"token", b"generation"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                admin.execute(b"SELECT " + column + b" FROM pit_pin_tries")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            admin.execute(b"SELECT pin_crypt FROM pit_staff")


CHANGE = (b"SELECT * FROM pit_staff_set(%s, 'D1', 'Dana Dealer', 'dealer', NULL, NULL, "
          b"true, 'probe', NULL, NULL, %s)")


def test_no_try_reads_another_s_answer_in_its_transaction(casino_table: Rig,
                                                           link_dsn: str) -> None:
    """A fifth outside review kept one committed wrong try's token, then in each rolled-back
    transaction made a new try and redeemed the old token: the refusal's count of wrong tries
    ("2 of 5" against "1 of 5") told the new guess's answer. The words hold no count, a
    transaction that made a try redeems none, and a second try in it is refused."""
    her_first_pin(link_dsn, "4321")
    track = link_server.track_of(EXEC_CARD)
    with link_server.connect(pit_dsn(link_dsn)) as pit:
        [(_r, old_token)] = pit.execute(b"SELECT * FROM pit_pin_try(%s, '0000')",
                                        [track]).fetchall()
        for guess in ("4320", "4321"):
            pit.execute(b"BEGIN")
            [(refusal, _token)] = pit.execute(b"SELECT * FROM pit_pin_try(%s, %s)",
                                              [track, guess]).fetchall()
            assert refusal is None
            [(said, _v)] = pit.execute(CHANGE, [track, old_token]).fetchall()
            assert "typed just before the change" in str(said)  # the same either way
            [(again, _t)] = pit.execute(b"SELECT * FROM pit_pin_try(%s, %s)",
                                        [track, guess]).fetchall()
            assert "tried once in a transaction of its own" in str(again)
            pit.execute(b"ROLLBACK")


def test_a_try_from_an_older_snapshot_is_refused(casino_table: Rig, link_dsn: str) -> None:
    """A fifth outside review tried from a snapshot exported before its wrong tries (each try
    counted none of them: 21 wrong, the PIN never taken off), and from twenty repeatable-read
    transactions begun together. Tries and answers are taken at read committed only."""
    her_first_pin(link_dsn, "4321")
    track = link_server.track_of(EXEC_CARD)
    with link_server.connect(pit_dsn(link_dsn)) as holder, \
            link_server.connect(pit_dsn(link_dsn)) as pit:
        holder.execute(b"BEGIN ISOLATION LEVEL REPEATABLE READ")
        [(snapshot,)] = holder.execute(b"SELECT pg_export_snapshot()").fetchall()
        pit.execute(b"BEGIN ISOLATION LEVEL REPEATABLE READ")
        pit.execute(b"SET TRANSACTION SNAPSHOT '" + str(snapshot).encode() + b"'")
        [(refusal, token)] = pit.execute(b"SELECT * FROM pit_pin_try(%s, '4300')",
                                         [track]).fetchall()
        pit.execute(b"COMMIT")
        assert "at read committed" in str(refusal) and token is None
        [(_r, token)] = pit.execute(b"SELECT * FROM pit_pin_try(%s, '4300')",
                                    [track]).fetchall()
        pit.execute(b"BEGIN ISOLATION LEVEL REPEATABLE READ")
        [(said, _v)] = pit.execute(CHANGE, [track, token]).fetchall()
        pit.execute(b"ROLLBACK")
        assert "typed just before the change" in str(said)  # no answer at repeatable read
        holder.execute(b"ROLLBACK")

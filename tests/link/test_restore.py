"""The documented restore, end to end (``docs/link.md``, "Restoring the server"): the link's
nightly dump restored after the tables played on; the table, on reconnecting, finds the server
lacks wagers it had delivered and sends them again, says the server went back in time, and the
server's hit numbers go on after the table's (never repeating); ``link reconcile`` names the
hit the server lost; ``link audit`` holds."""

from __future__ import annotations

import subprocess
from pathlib import Path

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict

from dealer_console.cli import main
from dealer_console.errors import Refusal, RefusalCode
from dealer_console.round import commands as c
from dealer_link import server
from dealer_link.audit import verify
from dealer_link.reconcile import reconcile
from dealer_link.settings import LinkError
from tests.jackpot.conftest import CARDS
from tests.jackpot.swipes import answered, swipe
from tests.link.helpers import FULL_HOUSE, LINK, LinkedTable, init_link, open_linked, play_to_hit
from tests.link.pg_server import PgServer
from tests.round.helpers import settle_all


def _hit_round(t: LinkedTable) -> int:
    """A round with three jackpot wagers and a full house on seat 3, paid by the server (asked
    again if the first ask got no answer, as the dealer would swipe again); its hit number."""
    play_to_hit(t, FULL_HOUSE)
    swipe(t.system, t.table, CARDS["supervisor"])
    try:
        hit = answered(t.system, t.table, t.answer())
    except Refusal as unanswered:  # the connection the restore cut: swipe again
        if unanswered.code is not RefusalCode.LINK_UNANSWERED:
            raise
        swipe(t.system, t.table, CARDS["supervisor"])
        hit = answered(t.system, t.table, t.answer())
    assert hit is not None and hit.link_hit_id is not None
    settle_all(t.table)
    t.table.handle(c.EndGame())
    return hit.link_hit_id


def _drain(t: LinkedTable) -> None:
    for _ in range(5):
        try:
            while t.sender.drain_once():
                pass
            return
        except LinkError as exc:  # the restore ended the old connection: reconnect
            t.sender._drop(str(exc))
    raise AssertionError("the table never reconnected")


def test_a_restored_server_loses_nothing_and_never_repeats_a_hit_number(
        tmp_path: Path, pg_server: PgServer, link_dsn: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    init_link(link_dsn).close()
    dump = tmp_path / "jackpot-nightly.dump"
    t = open_linked(tmp_path / "t1.db", "t1", link_dsn)
    try:
        assert _hit_round(t) == 1
        # the nightly dump (as docs/link.md says), then the table plays on
        subprocess.run([str(pg_server.bindir / "pg_dump"), "--format=custom",
                        f"--file={dump}", f"--dbname={link_dsn}"], check=True, timeout=120)
        assert _hit_round(t) == 2
        _drain(t)
        # the server is lost and restored from the dump, as documented
        name = str(conninfo_to_dict(link_dsn)["dbname"])
        with psycopg.connect(pg_server.dsn(), autocommit=True) as su:
            su.execute(f"DROP DATABASE {name} WITH (FORCE)".encode())
            su.execute(f"CREATE DATABASE {name}".encode())
        subprocess.run([str(pg_server.bindir / "pg_restore"), "--exit-on-error",
                        f"--dbname={link_dsn}", str(dump)], check=True, timeout=120)
        conn = server.connect(link_dsn)
        assert [h.hit_id for h in server.hits(conn, LINK)] == [1]
        # the table reconnects: what the server lost of its wagers is sent again, and the
        # supervisor is told the server went back in time
        _drain(t)
        warning = t.hook.health.view().warning
        assert "gone back in time: table t1 recorded its hit number 2, which the server " \
            "does not have" in warning
        assert "lost 3 of this table's jackpot wagers" in warning
        assert conn.execute(b"SELECT COUNT(*) FROM link_contributions").fetchone() == (6,)
        # the hit the server lost is named; nothing else differs
        found = reconcile(conn, t.path)
        assert len(found) == 1 and "hit 2 (round 2 seat 3, $6.00): paid at the table, the " \
            "server does not have it" in found[0]
        assert main(["link", "reconcile", str(t.path), "--dsn", link_dsn]) == 1
        assert "1 differences" in capsys.readouterr().out
        assert main(["link", "status", "--dsn", link_dsn]) == 0  # the administrator reads it
        shown = capsys.readouterr().out
        assert "the link's database is a restored copy" in shown
        assert "the link server has gone back in time: table t1 recorded its hit number 2" \
            in shown
        # the copy knew itself for one (a new database): its hits are numbered from the next
        # million on, never 2 again
        assert _hit_round(t) == 1_000_001
        assert [h.hit_id for h in server.hits(conn, LINK)] == [1, 1_000_001]
        assert verify(conn) == []
        logged = [str(r[0]) for r in conn.execute(
            b"SELECT detail FROM link_admin_log WHERE what = 'went back in time' "
            b"ORDER BY entry").fetchall()]
        assert len(logged) == 2
        assert "the link's database is a restored copy (its hit numbers had reached 1)" in \
            logged[0]
        assert "table t1 recorded its hit number 2, which the server does not have" in \
            logged[1]
        conn.close()
    finally:
        t.close()


def test_a_hit_asked_before_the_table_that_holds_a_lost_number_reconnects_is_not_given_it(
        tmp_path: Path, pg_server: PgServer, link_dsn: str) -> None:
    """Another table asks for a hit on the restored copy before the table that recorded the
    lost number has reconnected: the copy, knowing itself for one, numbers it after the next
    million; the lost hit is named by ``link reconcile``, and the table still learns its
    wagers were lost."""
    init_link(link_dsn).close()
    dump = tmp_path / "jackpot-nightly.dump"
    t1 = open_linked(tmp_path / "t1.db", "t1", link_dsn)
    t2 = open_linked(tmp_path / "t2.db", "t2", link_dsn)
    try:
        subprocess.run([str(pg_server.bindir / "pg_dump"), "--format=custom",
                        f"--file={dump}", f"--dbname={link_dsn}"], check=True, timeout=120)
        assert _hit_round(t1) == 1
        name = str(conninfo_to_dict(link_dsn)["dbname"])
        with psycopg.connect(pg_server.dsn(), autocommit=True) as su:
            su.execute(f"DROP DATABASE {name} WITH (FORCE)".encode())
            su.execute(f"CREATE DATABASE {name}".encode())
        subprocess.run([str(pg_server.bindir / "pg_restore"), "--exit-on-error",
                        f"--dbname={link_dsn}", str(dump)], check=True, timeout=120)
        _drain(t2)
        assert _hit_round(t2) == 1_000_001  # not 1, which t1 holds
        _drain(t1)
        view = t1.hook.health.view()
        assert "lost 3 of this table's jackpot wagers" in view.warning
        assert "recorded its hit number 1, which the server does not have" in view.warning
        with server.connect(link_dsn) as conn:
            found = reconcile(conn, t1.path)
        assert len(found) == 1
        assert found[0].endswith("hit 1 (round 1 seat 3, $6.00): paid at the table, the server "
                                 "does not have it")
    finally:
        t1.close()
        t2.close()

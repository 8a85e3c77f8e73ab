"""A link made before the trust boundary (migrations 0001-0002, its game installed and played
on) upgrades with ``link init``: the game's paytable lines are put on the server, its history
still replays in ``link audit``, and its tables then play with logins of their own."""

from __future__ import annotations

from dealer_console.jackpot_values.link_records import Owed
from dealer_console.jackpot_values.meters import MICRO
from dealer_console.link.health import now as taken_now
from dealer_link import server, server_schema
from dealer_link.audit import verify
from tests.link.helpers import LINK, SEED, add_confirmers, as_table, linked_game, older_link


def test_an_older_link_upgrades_and_keeps_its_history(link_dsn: str) -> None:
    conn = older_link(link_dsn, "0003_trust")  # the link as the older console left it
    with conn.transaction(), conn.cursor() as cur:
        cur.execute("INSERT INTO link_games VALUES (%s, 'fupgpp-wa01', 'progressive', 100, "
                    "false, 1000000000, now(), 'link init')", [LINK])
        cur.execute("INSERT INTO link_levels VALUES (%s, 'main', 0, %s, 150000, 20000, %s, "
                    "%s)", [LINK, SEED, SEED * MICRO + 100 * 150_000, 100 * 20_000])
        cur.execute("INSERT INTO link_ledger (link, level, kind, meter_delta_micro, "
                    "reserve_delta_micro, meter_after_micro, reserve_after_micro) VALUES "
                    "(%s, 'main', 'seed', %s, 0, %s, 0)", [LINK, SEED * MICRO, SEED * MICRO])
        cur.execute("INSERT INTO link_tables (link, table_id) VALUES (%s, 'old-table')", [LINK])
        cur.execute("INSERT INTO link_contributions (link, table_id, round_id, deal_no, spot, "
                    "seat, wager_cents, taken_at) VALUES (%s, 'old-table', 1, 1, 1, 1, 100, "
                    "%s)", [LINK, taken_now()])
        cur.execute("INSERT INTO link_ledger (link, level, kind, table_id, round_id, deal_no, "
                    "spot, seat, meter_delta_micro, reserve_delta_micro, meter_after_micro, "
                    "reserve_after_micro) VALUES (%s, 'main', 'contribution', 'old-table', 1, "
                    "1, 1, 1, %s, %s, %s, %s)", [LINK, 100 * 150_000, 100 * 20_000,
                                                 SEED * MICRO + 100 * 150_000, 100 * 20_000])
    assert server_schema.apply(conn) == ["0003_trust", "0004_bounded_hello",
                                         "0005_cards_on_server", "0006_stuck_locks",
                                         "0007_table_links", "0008_in_force",
                                         "0009_one_statement", "0010_every_hit_carded",
                                         "0011_waiting_its_turn", "0012_bounded_went_back",
                                         "0013_bounded_play", "0014_rounds_an_hour",
                                         "0015_went_back_reviews",
                                         "0016_accepted_wagers"]
    assert conn.execute(b"SELECT COUNT(*) FROM link_lines").fetchone() == (
        len(linked_game().paytable.lines),)
    assert verify(conn) == []
    add_confirmers(conn)
    table = as_table(link_dsn, "old-table")
    server.register_table(table, LINK, "old-table", linked_game())
    assert server.contribute(table, LINK, "old-table", [Owed(2, 1, 1, 3, 100, taken_now())]) == 1
    hit = server.confirm_hit(table, LINK, "old-table", round_id=2, spot=1, seat=3,
                             line_no=1, employee_id="S1")
    assert hit.amount_cents == (SEED * MICRO + 2 * 100 * 150_000) // MICRO
    assert verify(conn) == []
    table.close()
    conn.close()

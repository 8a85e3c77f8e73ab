"""What the table owes its jackpot links, held to the log: the link's outbox (each linked
jackpot wager, which the sender delivers and the shared meter rises by) and its tray reports.

Both are written in the transaction of the round step they come from (START GAME, a tray pay
while the link was down: ``link/outbox.py``), but nothing held them to the event log: an
outside review deleted a real wager's row and added rows for seats that took none, and the
sender delivered them, ``audit verify`` said OK and ``link reconcile`` agreed (it compares the
server with these same rows). The jackpot's wagers and hits are rebuilt from the log by the
audit; these rows must be exactly the linked games' part of them.
"""

from __future__ import annotations

from sqlite_utils import Database

Owed = tuple[str, int, int, int, int]
"""(link, round, spot, seat, cents)."""


def link_owed_problems(db: Database) -> list[str]:
    """Each outbox row the log does not have, and each linked wager it lacks; each tray
    report without its hit."""
    names = set(db.table_names())
    if "link_outbox" not in names or "jackpot_games" not in names:
        return []
    columns = {str(r[1]) for r in db.execute("PRAGMA table_info(jackpot_games)")}
    if "linked" not in columns:
        return []
    linked = {int(spot): str(link) for spot, link in db.execute(
        "SELECT spot, linked FROM jackpot_games WHERE linked IS NOT NULL")}
    wagers: set[Owed] = {
        (linked[int(spot)], int(rid), int(spot), int(seat), int(cents))
        for rid, spot, seat, cents in db.execute(
            "SELECT round_id, spot, seat, wager_cents FROM jackpot_wagers")
        if int(spot) in linked}
    owed: set[Owed] = {
        (str(link), int(rid), int(spot), int(seat), int(cents))
        for link, rid, spot, seat, cents in db.execute(
            "SELECT link, round_id, spot, seat, wager_cents FROM link_outbox")}
    problems = [f"link_outbox ({_words(row)}): owed to the link, but the event log has no "
                "such jackpot wager" for row in sorted(owed - wagers)]
    problems += [f"link_outbox ({_words(row)}): a jackpot wager of a linked game in the event "
                 "log, not owed to its link" for row in sorted(wagers - owed)]
    if "link_tray_owed" in names:
        problems += _tray_problems(db)
    return problems


def _words(row: Owed) -> str:
    link, rid, spot, seat, cents = row
    return f"link {link}, round {rid}, spot {spot}, seat {seat}, {cents} cents"


def _tray_problems(db: Database) -> list[str]:
    rows = db.execute(
        "SELECT t.link, t.round_id, t.spot, t.seat, t.amount_cents FROM link_tray_owed t "
        "WHERE NOT EXISTS (SELECT 1 FROM jackpot_hits h WHERE h.round_id = t.round_id "
        "AND h.spot = t.spot AND h.seat = t.seat AND h.line_no = t.line_no "
        "AND h.amount_cents = t.amount_cents AND h.link IS NULL) "
        "ORDER BY t.round_id, t.spot, t.seat").fetchall()
    return [f"link_tray_owed ({_words((str(link), int(rid), int(spot), int(seat), int(c)))}): "
            "a tray pay reported to the link, but the event log has no such hit paid at the "
            "table" for link, rid, spot, seat, c in rows]

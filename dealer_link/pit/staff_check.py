"""A table's staff changes said to come from the casino's list, held to the server's record.

A table that keeps the casino's staff list writes each change it applies into its own chain,
naming the change's number and random mark (``replica.py``). The table's audit cannot tell
such a change from one added at the end of its file by someone who can write it (a made-up
executive, say): the server checked the card, not the table. The server's own log of the
list (``pit_staff_log``, append-only) can. Each change the table says came from the list must
be there, by number, mark and employee. A change numbered 0 is the table's own step (its own
staff taken off when it took up the casino's list, or one the server no longer lists): only a
card taken off, which gives no one a right, is such a step.
"""

from __future__ import annotations

from sqlite_utils import Database

from dealer_link.pit.replica import ACTOR, parse_actor
from dealer_link.server import Connection, call


def unvouched(db: Database, conn: Connection) -> tuple[int, list[str]]:
    """How many changes of the casino's list the table's log holds, and each one the
    server's log does not vouch for, in words (an administrator's or auditor's login)."""
    rows = db.execute("SELECT entry, action, actor, employee_id FROM employee_log WHERE actor "
                      "LIKE ? ORDER BY entry", [ACTOR + "%"]).fetchall()
    problems = []
    for entry, action, actor, employee in rows:
        where = f"staff log entry {entry} ({action} {employee}, {actor})"
        point = parse_actor(str(actor))
        if point is None:
            problems.append(f"{where}: not a form the console writes")
            continue
        version, mark = point
        if version == 0:
            if action != "disable":
                problems.append(f"{where}: only a card taken off is the table's own step")
            continue
        held = call(conn, "SELECT 1 FROM pit_staff_log WHERE version = %s AND "
                    "(%s = '' OR mark = %s) AND lower(employee_id) = lower(%s)",
                    [version, mark, mark, str(employee)])
        if not held:
            problems.append(f"{where}: the server's staff log has no change {version} of "
                            f"{employee}{f' with mark {mark}' if mark else ''}: made at the "
                            "table, or lost when the server was restored from an older copy")
    return len(rows), problems

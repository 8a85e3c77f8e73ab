"""``dealer-console link went-back``: the tables' "the server went back in time" claims, and
the administrator's review of each (``server_went_back_review.py``).

:func:`claims` lists every claim the server took, whether it holds the hit claimed, and who
looked at it (read-only: the auditor's login may); :func:`review` acknowledges a claim the
server took, or grants one it refused (an administrator's login, with a reason).
"""

from __future__ import annotations

from dataclasses import dataclass

from dealer_link.server import Connection, call
from dealer_link.settings import LinkError, check_link_name


@dataclass(frozen=True, slots=True)
class Claim:
    link: str
    table_id: str
    seen_hit: int
    reached: int
    """Where the hit numbers stood when the claim was taken."""
    claimed_at: str
    held: bool
    """The server holds a hit with that number (it did not go back past it)."""
    verdict: str | None = None
    """``acknowledged`` or ``granted``; None: nobody has looked at it yet."""
    reviewed: str = ""
    """Who, when and why, in words."""

    @property
    def audited(self) -> bool:
        """``link audit`` names it: it moved the numbers to a hit the server does not hold,
        and nobody has looked at it."""
        return self.verdict is None and not self.held and self.seen_hit > self.reached


_UTC = "'YYYY-MM-DD HH24:MI:SS \"UTC\"'"
_CLAIMS = f"""
SELECT w.link, w.table_id, w.seen_hit, w.reached,
       to_char(w.claimed_at AT TIME ZONE 'UTC', {_UTC}),
       EXISTS (SELECT 1 FROM link_hits h WHERE h.hit_id = w.seen_hit),
       r.verdict, r.actor || ' at ' || to_char(r.recorded_at AT TIME ZONE 'UTC', {_UTC})
           || ': ' || r.reason
FROM link_went_back_claims w LEFT JOIN link_went_back_reviews r
    ON (r.link, r.table_id, r.seen_hit) = (w.link, w.table_id, w.seen_hit)
WHERE %(link)s::text IS NULL OR w.link = %(link)s::text
ORDER BY w.claimed_at, w.link, w.table_id, w.seen_hit
"""


def claims(conn: Connection, link: str | None = None) -> list[Claim]:
    """Every claim the server took (of ``link``, or of every link), oldest first."""
    if link is not None:
        check_link_name(link)
    with conn.cursor() as cur:
        cur.execute(_CLAIMS.encode(), {"link": link})
        return [Claim(str(r[0]), str(r[1]), int(str(r[2])), int(str(r[3])), str(r[4]),
                      bool(r[5]), None if r[6] is None else str(r[6]),
                      "" if r[7] is None else str(r[7])) for r in cur.fetchall()]


def review(conn: Connection, link: str, table_id: str, seen_hit: int, *, grant: bool,
           reason: str) -> int:
    """Acknowledge ``table_id``'s claim of ``seen_hit`` on ``link`` (the server took it), or
    grant it (the server refused it: the numbers go on after it and the table's next hello
    is taken). Returns where the hit numbers stood before; refused in words, nothing
    written, for a claim that is not there, was looked at already, or is no restore's."""
    check_link_name(link)
    check_link_name(table_id)
    if not 1 <= seen_hit < 2**63:
        raise LinkError(f"{seen_hit} is not a hit number (1 or more)")
    rows = call(conn, "SELECT link_review_went_back(%s, %s, %s, %s, %s)",
                [link, table_id, seen_hit, grant, reason])
    return int(str(rows[0][0]))


def said(claim: Claim) -> str:
    """One claim in words, for the administrator."""
    what = (f"link {claim.link} table {claim.table_id}: said at {claim.claimed_at} it "
            f"recorded hit number {claim.seen_hit} (the numbers stood at {claim.reached})")
    if claim.held:
        state = "the server holds that hit"
    elif claim.seen_hit > claim.reached:
        state = "the server holds no such hit; it moved the numbers"
    else:
        state = "the server holds no such hit; the numbers were past it"
    if claim.verdict is not None:
        return f"{what}; {state}; {claim.verdict} by {claim.reviewed}"
    return f"{what}; {state}; not looked at" + (" (link audit names it)" if claim.audited
                                                 else "")

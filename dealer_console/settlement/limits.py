"""The two limits on what moves: the aggregate payout limit and the banker's coverage.

Rules README, "Money and settlement": the aggregate limit caps the odds-based bonus payouts of a
round (Fortune, Ace-High; never Envy or jackpot), cutting winning payouts pro rata; a player
banker's wager bounds what they win and lose, walked in settlement order.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby

from dealer_console.profiles.model import AggregateLimit, AggregateScope
from dealer_console.settlement.model import LineOutcome, SheetLine, WagerKind

ODDS_BASED = (WagerKind.FORTUNE, WagerKind.ACE_HIGH)


def pro_rata(amounts: Sequence[int], cap: int) -> list[int]:
    """Cut ``amounts`` to total exactly ``cap`` in proportion, in whole cents.

    Each share is rounded down, then the cents left over go one each to the largest
    fractional remainders (earlier lines first on a tie), so the cap is paid in full and no
    line gains from rounding more than a cent over another's proportion.
    """
    total = sum(amounts)
    if total <= cap:
        return list(amounts)
    shares = [a * cap // total for a in amounts]
    remainders = [a * cap % total for a in amounts]
    left = cap - sum(shares)
    for i in sorted(range(len(amounts)), key=lambda i: (-remainders[i], i))[:left]:
        shares[i] += 1
    return shares


def apply_aggregate(lines: Sequence[SheetLine], limit: AggregateLimit) -> None:
    winners = [ln for ln in lines if ln.kind in ODDS_BASED and ln.outcome is LineOutcome.WIN]
    if limit.scope is AggregateScope.TABLE:
        groups = [winners]
    else:
        keyed = sorted(winners, key=lambda ln: (ln.party, lines.index(ln)))
        groups = [list(g) for _, g in groupby(keyed, key=lambda ln: ln.party)]
    for group in groups:
        shares = pro_rata([ln.due for ln in group], limit.cents)
        for line, share in zip(group, shares, strict=True):
            line.reduced = line.due - share


def walk_coverage(lines: Sequence[SheetLine], banker: str, stake: int) -> int:
    """The coverage walk over the lines against ``banker`` whose wager is ``stake``.

    Keeping the banker's net ``n``: a wager the banker wins is collected up to ``stake - n``, a
    payout is paid up to ``stake + n``; the rest is marked uncovered (returned untouched, or
    not paid while the winner keeps their own wager). Returns the banker's final net.
    """
    net = 0
    for line in lines:
        if line.counterparty != banker:
            continue
        owed = line.due - line.reduced
        if line.outcome is LineOutcome.LOSS:
            take = min(owed, stake - net)
            line.uncovered = owed - take
            net += take
        elif line.outcome is LineOutcome.WIN:
            pay = min(owed, stake + net)
            line.uncovered = owed - pay
            net -= pay
    return net

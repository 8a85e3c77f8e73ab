"""The coverage walk and the pro rata cut, on the README's own example and as properties."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from dealer_console.settlement.limits import pro_rata, walk_coverage
from dealer_console.settlement.model import BANKER, LineOutcome, SheetLine, WagerKind


def _line(outcome: LineOutcome, amount: int, position: int) -> SheetLine:
    return SheetLine(WagerKind.BASE, position, f"position {position}", BANKER, amount, outcome,
                     "", due=amount)


def test_readme_coverage_example() -> None:
    # Rules README, "Banker coverage": B = $100; P1 $60 loses, P2 $80 wins, P3 $100 loses.
    lines = [_line(LineOutcome.LOSS, 6000, 1), _line(LineOutcome.WIN, 8000, 2),
             _line(LineOutcome.LOSS, 10000, 3)]
    assert walk_coverage(lines, BANKER, 10000) == 8000
    assert [ln.uncovered for ln in lines] == [0, 0, 0]
    # With player 3 first: collect $100, cannot collect player 1's $60, pay $80.
    lines = [_line(LineOutcome.LOSS, 10000, 3), _line(LineOutcome.LOSS, 6000, 1),
             _line(LineOutcome.WIN, 8000, 2)]
    assert walk_coverage(lines, BANKER, 10000) == 2000
    assert [ln.moved for ln in lines] == [10000, 0, 8000]
    assert lines[1].uncovered == 6000


walks = st.lists(st.tuples(st.booleans(), st.integers(0, 50_000)), max_size=20)


@given(walks, st.integers(1, 100_000))
def test_banker_never_wins_or_loses_more_than_the_stake(items: list[tuple[bool, int]],
                                                        stake: int) -> None:
    lines = [_line(LineOutcome.WIN if win else LineOutcome.LOSS, a, i)
             for i, (win, a) in enumerate(items)]
    net = walk_coverage(lines, BANKER, stake)
    running = 0
    for line in lines:
        assert 0 <= line.moved <= line.due
        running += line.moved if line.outcome is LineOutcome.LOSS else -line.moved
        assert -stake <= running <= stake
    assert running == net


@given(st.lists(st.integers(0, 10**9), min_size=1, max_size=12), st.integers(0, 10**9))
def test_pro_rata_pays_the_cap_exactly_and_in_proportion(amounts: list[int], cap: int) -> None:
    shares = pro_rata(amounts, cap)
    total = sum(amounts)
    if total <= cap:
        assert shares == amounts
        return
    assert sum(shares) == cap
    for a, s in zip(amounts, shares, strict=True):
        assert 0 <= s <= a
        assert abs(s * total - a * cap) < total  # within one cent of the exact share


def test_aggregate_per_position_caps_each_player() -> None:
    from dealer_console.profiles.model import AggregateLimit, AggregateScope
    from dealer_console.settlement.limits import apply_aggregate

    def win(kind: WagerKind, position: int, due: int) -> SheetLine:
        return SheetLine(kind, position, f"position {position}", "house", 100,
                         LineOutcome.WIN, "", due=due)

    lines = [win(WagerKind.FORTUNE, 2, 9000), win(WagerKind.ACE_HIGH, 2, 3000),
             win(WagerKind.FORTUNE, 3, 5000), win(WagerKind.ENVY, 2, 50000)]
    apply_aggregate(lines, AggregateLimit(6000, AggregateScope.POSITION))
    assert [ln.moved for ln in lines] == [4500, 1500, 5000, 50000]

"""Random command sequences, legal and not, against a real table: a refused command changes
nothing, an accepted one leaves the database rebuildable to exactly the state in memory, and
the audit finds nothing wrong at the end."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer_console.audit.verify import audit
from dealer_console.cards import DECK
from dealer_console.round import commands as c
from dealer_console.round.machine import Refused
from dealer_console.round.snapshot import RoundSnapshot
from dealer_console.round.table import load_open_round
from tests.round.helpers import PROFILES, make_table

seats = st.integers(-1, 8)
kinds = st.sampled_from(["base", "fortune", "ace_high", "jackpot", "house_wager", "tips"])
amounts = st.sampled_from([0, 1, 100, 500, 1000, 2000, 2500, 100_000, 10_000_000])
hands = st.lists(st.sampled_from(DECK), min_size=5, max_size=8, unique=True).map(tuple)

STEP = c.Command()  # stands for "the next legal step of this phase"

anything = st.one_of(
    st.builds(c.AcceptBank, seats, amounts),
    st.builds(c.DeclineBank, seats),
    st.builds(c.PlaceWager, seats, kinds, amounts),
    st.builds(c.RemoveWager, seats, kinds),
    st.builds(c.ChangeWager, seats, kinds, amounts),
    st.builds(c.CopyWagers, seats, seats),
    st.just(c.StartGame()),
    st.builds(c.SetActionNumber, st.integers(-2, 30)),
    st.builds(c.SetActionSeat, seats),
    st.builds(c.DealHand, hands, st.one_of(st.none(), seats)),
    st.just(c.CorrectFirstHand()),
    st.builds(c.RemainingCards, st.integers(0, 6)),
    st.builds(c.CardsExposed, st.integers(-1, 4)),
    st.builds(c.DeclareMisdeal, st.sampled_from(["position_missed", "hand_not_seven", "x"])),
    st.builds(c.DeckCounted, st.sampled_from([52, 53])),
    st.just(c.Redeal()),
    st.just(c.SetBankerHand()),
    st.builds(c.SetPlayerHand, seats),
    st.just(c.SettleNext()),
    st.builds(c.JackpotHit, seats, st.integers(1, 8), st.sampled_from(["", "sup"])),
    st.just(c.EndGame()),
    st.builds(c.VoidRound, st.just("closing"), st.sampled_from(["", "sup"])),
)
# Mostly legal steps, so that scripts get deep into rounds, with random commands between.
commands = st.integers(0, 4).flatmap(lambda i: anything if i == 0 else st.just(STEP))


def legal_step(table: object) -> c.Command:
    """What a dealer would do next, so that random scripts reach every phase."""
    from dealer_console.round.state import Phase
    from dealer_console.round.table import Table
    from tests.round.helpers import hands_with

    assert isinstance(table, Table)
    st_ = table.state
    rules = table.rules
    if st_.phase is Phase.BANKER:
        return c.AcceptBank(st_.offer_seat, 200_000)
    if st_.phase is Phase.BETTING:
        free = [s for s in rules.player_seats if (s, "base") not in st_.wagers
                and not (st_.banker_kind == "player" and s == st_.banker_seat)]
        if st_.banker_kind == "player" and rules.house_hand and (0, "house_wager") not in \
                st_.wagers:
            return c.PlaceWager(0, "house_wager", 1000)
        return c.PlaceWager(free[0], "base", 1000) if len(free) > 3 else c.StartGame()
    if st_.phase is Phase.ACTION:
        if rules.action_method.value == "high_card":
            return c.SetActionSeat(next(s for s in rules.seats if s != st_.banker_seat),
                                   restart=True)
        return c.SetActionNumber(10)
    if st_.phase is Phase.DEALING:
        return c.DealHand(hands_with({}, st_.deal_no)[len(st_.delivered)])
    if st_.phase is Phase.DEAL_CHECK:
        return c.CorrectFirstHand() if st_.wrong_start is not None else c.RemainingCards(4)
    if st_.phase is Phase.MISDEAL:
        return c.DeckCounted(53) if st_.deck_count_due else c.Redeal()
    if st_.phase is Phase.BANKER_SET:
        return c.SetBankerHand()
    if st_.phase is Phase.PLAYERS_SET:
        left = RoundSnapshot.of(st_, table.rules).players_to_set()
        return c.SetPlayerHand(left[0]) if left else c.SettleNext()
    if st_.phase is Phase.SETTLEMENT:
        return c.SettleNext()
    return c.EndGame()


def _snapshot(table: object) -> tuple[object, ...]:
    from dealer_console.round.table import Table

    assert isinstance(table, Table)
    db = table.db
    return (db.execute("SELECT COUNT(*) FROM events").fetchone()[0],
            [tuple(r) for r in db.execute("SELECT * FROM rounds")],
            [tuple(r) for r in db.execute("SELECT * FROM wagers")],
            [tuple(r) for r in db.execute("SELECT * FROM hands")])


@pytest.mark.parametrize("profile", PROFILES)
@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(script=st.lists(commands, min_size=30, max_size=150))
def test_random_commands_keep_every_invariant(tmp_path_factory: pytest.TempPathFactory,
                                              profile: str, script: list[c.Command]) -> None:
    table = make_table(tmp_path_factory.mktemp("fuzz"), profile)
    for cmd in script:
        if cmd is STEP:
            cmd = legal_step(table)
        before = _snapshot(table)
        state_before = table.state
        try:
            table.handle(cmd)
        except Refused:
            assert _snapshot(table) == before
            assert table.state is state_before
            continue
        rebuilt = load_open_round(table.db, table.rules)
        assert rebuilt == table.state
    report = audit(table.db)
    assert report.ok, report.problems

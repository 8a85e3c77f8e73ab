"""Building tables and decks for round tests: a real profile, a real database file, real
House Ways and the real settlement engine."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

from dealer_console.cards import DECK, Card, parse_cards
from dealer_console.profiles.loader import get_profile
from dealer_console.round import commands as c
from dealer_console.round.machine import button_seat
from dealer_console.round.rules import RoundRules, round_rules
from dealer_console.round.snapshot import RoundSnapshot
from dealer_console.round.state import Phase
from dealer_console.round.table import Table
from dealer_console.table_db import open_table_db

PROFILES = ("washington-face-up", "california-face-up", "oxford-downs-face-up",
            "catfish-bend-fortune")


def make_table(tmp_path: Path, profile: str, action: str | None = None,
               deal: str | None = None, name: str = "table.db") -> Table:
    rules = round_rules(get_profile(profile), action, deal)
    return Table.open(open_table_db(tmp_path / name), rules)


def reopen(table: Table) -> Table:
    """What the console does after a power cut: a new connection and a rebuild from the log."""
    path = table.db.execute("PRAGMA database_list").fetchone()[2]
    table.db.close()
    return Table.open(open_table_db(path), table.rules)


def hands_with(fixed: dict[int, str], seed: int = 0) -> list[tuple[Card, ...]]:
    """Seven hands in delivery order; ``fixed`` gives some of them (index -> card text), the
    rest are drawn from the remaining cards with a seeded shuffle."""
    chosen = {i: parse_cards(text, 7) for i, text in fixed.items()}
    used = {card for cards in chosen.values() for card in cards}
    rest = [card for card in DECK if card not in used]
    random.Random(seed).shuffle(rest)
    out: list[tuple[Card, ...]] = []
    for i in range(7):
        if i in chosen:
            out.append(chosen[i])
        else:
            out.append(tuple(rest[:7]))
            rest = rest[7:]
    return out


def take_bank(table: Table, wager: int = 100_000) -> None:
    st = table.state
    if st.phase is Phase.BANKER:
        if st.offer_seat == 0:
            raise AssertionError("offer at the dealer's spot")
        table.handle(c.AcceptBank(st.offer_seat, wager))


def bet_all(table: Table, base: int = 2000, fortune: int = 500, ace_high: int = 0,
            seats: Sequence[int] | None = None) -> None:
    rules = table.rules
    st = table.state
    for seat in seats or rules.player_seats:
        if st.banker_kind == "player" and seat == st.banker_seat:
            continue
        table.handle(c.PlaceWager(seat, "base", base))
        if fortune and "fortune" in rules.wager_kinds:
            table.handle(c.PlaceWager(seat, "fortune", fortune))
        if ace_high and "ace_high" in rules.wager_kinds:
            table.handle(c.PlaceWager(seat, "ace_high", ace_high))
    if st.banker_kind == "player" and rules.house_hand:
        table.handle(c.PlaceWager(0, "house_wager", base))


def start_and_act(table: Table, number: int = 9) -> None:
    table.handle(c.StartGame())
    rules: RoundRules = table.rules
    if rules.action_method.value == "high_card":
        seat = button_seat(table.state, rules)
        if seat is None:  # the button put in play: a high card on the floor's permission
            seat = next(s for s in rules.player_seats if s != table.state.banker_seat)
            table.handle(c.SetActionSeat(seat, who="the floor"))
        else:
            table.handle(c.SetActionSeat(seat))
    else:
        table.handle(c.SetActionNumber(number))


def deal(table: Table, hands: Sequence[tuple[Card, ...]]) -> None:
    for cards in hands:
        table.handle(c.DealHand(tuple(cards)))


def set_all_house_way(table: Table) -> None:
    st = table.state
    if st.phase is Phase.BANKER_SET:
        table.handle(c.SetBankerHand())
    while table.state.phase is Phase.PLAYERS_SET:
        left = RoundSnapshot.of(table.state, table.rules).players_to_set()
        table.handle(c.SetPlayerHand(left[0]))
    if table.state.phase is Phase.BANKER_SET:
        table.handle(c.SetBankerHand())


def settle_all(table: Table) -> None:
    while table.state.phase is Phase.SETTLEMENT:
        table.handle(c.SettleNext())


def play_out(table: Table, seed: int = 0, number: int = 9) -> None:
    """The wagers placed: START GAME, the action, a deal of ``seed``, every hand set the House
    Way and every seat settled (END GAME left to the caller)."""
    start_and_act(table, number)
    deal(table, hands_with({}, seed))
    table.handle(c.RemainingCards(4))
    set_all_house_way(table)
    settle_all(table)


def play_round(table: Table, seed: int = 0, number: int = 9) -> None:
    """A whole ordinary round with House Way settings, ending with END GAME."""
    if table.state.phase is Phase.BANKER and table.state.offer_seat:
        take_bank(table)
    bet_all(table)
    play_out(table, seed, number)
    table.handle(c.EndGame())

"""Properties over random rounds for every shipped profile: money is conserved (every party's
gain sums to zero, fees and commission included) and no party moves more than its limits
allow: a covered banker's stake, a player banker's stake, a player's own wagers, the
aggregate payout limit."""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_console.cards import DECK, Card
from dealer_console.profiles.loader import get_profile
from dealer_console.profiles.model import Area, Banking, Limit, Profile, SettleFrom
from dealer_console.setting import make_setting
from dealer_console.settlement import settle
from dealer_console.settlement.model import (
    BANKER,
    HOUSE,
    Backline,
    BankedBy,
    BankerInput,
    HandChoice,
    HouseHand,
    LineOutcome,
    PositionInput,
    RoundInput,
    SetBy,
    WagerKind,
    Wagers,
    position_party,
)

PROFILES = ("california-face-up", "oxford-downs-face-up", "washington-face-up",
            "catfish-bend-fortune")


def amount(draw: st.DrawFn, limit: Limit | None, optional: bool = True) -> int:
    if limit is None or (optional and draw(st.booleans())):
        return 0
    steps = (limit.maximum - limit.minimum) // limit.increment
    return limit.minimum + limit.increment * draw(st.integers(0, min(steps, 40)))


def choice(draw: st.DrawFn, cards: tuple[Card, ...]) -> HandChoice:
    kind = draw(st.sampled_from(["house", "split", "split"]))
    if kind == "house":
        return SetBy.HOUSE_WAY
    low = draw(st.sampled_from(list(combinations(range(7), 2))))
    return make_setting([cards[i] for i in low], [c for i, c in enumerate(cards) if i not in low])


@st.composite
def rounds(draw: st.DrawFn, profile: Profile) -> RoundInput:
    deck = draw(st.permutations(DECK))
    # Plant four of a kind in up to two hands: random deals almost never hold envy hands, and
    # envy, big Fortune pays, coverage exhaustion and the aggregate limit need them.
    plants = draw(st.lists(st.tuples(st.integers(0, 6), st.integers(2, 14)), max_size=2,
                           unique_by=(lambda t: t[0], lambda t: t[1])))
    quads = {hand: [c for c in deck if c.rank == rank] for hand, rank in plants}
    rest = iter([c for c in deck if c.rank not in {rank for _, rank in plants}])
    hands = [tuple(quads.get(i, []) + [next(rest) for _ in range(7 - len(quads.get(i, [])))])
             for i in range(7)]
    by = BankedBy.HOUSE
    if profile.banking.covered:
        by = BankedBy.PLAYER
    elif profile.banking is Banking.HOUSE_OR_PLAYER_BANKER:
        by = draw(st.sampled_from([BankedBy.HOUSE, BankedBy.PLAYER]))
    positions = []
    for n in range(2, profile.positions + 1):
        base = amount(draw, profile.limit(Area.BASE))
        wagers = Wagers()
        if base:
            backline: tuple[Backline, ...] = ()
            if profile.backline and draw(st.booleans()):
                backline = (Backline("B", amount(draw, profile.limit(Area.BACKLINE), False)),)
            jackpot = (profile.jackpot.wager if profile.jackpot and draw(st.booleans()) else 0)
            wagers = Wagers(base=base, fortune=amount(draw, profile.limit(Area.FORTUNE)),
                            ace_high=amount(draw, profile.limit(Area.ACE_HIGH)),
                            tips=amount(draw, profile.limit(Area.TIPS)) if profile.tip_bets else 0,
                            jackpot=jackpot, backline=backline)
        cards = hands[n - 1]
        positions.append(PositionInput(n, cards, choice(draw, cards), wagers,
                                       draw(st.integers(0, 1))))
    house = None
    stake = 0
    fortune = 0
    if by is BankedBy.PLAYER and profile.banking.covered:
        stake = amount(draw, profile.limit(Area.BANKER), False)
    elif by is BankedBy.PLAYER:
        # the dealer's spot holds the house hand, so one fewer player position plays
        positions.pop()
        house = HouseHand(hands[6], amount(draw, profile.limit(Area.HOUSE_WAGER), False))
        at_risk = sum(p.wagers.base for p in positions) + house.wager
        stake = at_risk + draw(st.integers(0, 10_000))
        fortune = amount(draw, profile.limit(Area.FORTUNE))
    banker_cards = hands[0]
    # the house's hand is set the House Way, never otherwise; a player banker sets their own
    banker_choice = choice(draw, banker_cards) if by is BankedBy.PLAYER else SetBy.HOUSE_WAY
    action = (draw(st.integers(2, len(positions) + 1))
              if profile.settle_from is SettleFrom.ACTION_SEAT else None)
    return RoundInput(action, BankerInput(by, banker_cards, banker_choice, stake, fortune),
                      tuple(positions), house)


def _check(profile: Profile, rnd: RoundInput) -> None:
    sheet = settle(profile, rnd)
    assert sum(sheet.totals.values()) == 0
    net = dict.fromkeys(sheet.totals, 0)
    for line in sheet.lines:
        assert 0 <= line.moved <= line.due
        assert line.reduced >= 0 and line.uncovered >= 0 and line.commission >= 0
        for t in line.transfers:
            assert t.cents > 0 and t.payer != t.payee
            net[t.payer] -= t.cents
            net[t.payee] += t.cents
    assert net == sheet.totals
    for pos in rnd.positions:
        w = pos.wagers
        staked = w.base + w.fortune + w.ace_high + w.jackpot + w.tips
        fees = sum(ln.moved for ln in sheet.lines
                   if ln.kind is WagerKind.FEE and ln.party == position_party(pos.position))
        commission = sum(ln.commission for ln in sheet.lines
                         if ln.party == position_party(pos.position))
        assert sheet.totals.get(position_party(pos.position), 0) >= -(staked + fees + commission)
    if profile.banking.covered:
        game = sum(-ln.moved if ln.outcome is LineOutcome.WIN else ln.moved
                   for ln in sheet.lines if ln.counterparty == BANKER)
        assert -rnd.banker.wager <= game <= rnd.banker.wager
    elif rnd.banker.by is BankedBy.PLAYER:
        assert sheet.totals[BANKER] >= -(rnd.banker.wager + rnd.banker.fortune)
    if profile.aggregate_limit is not None:
        odds_paid = sum(ln.moved for ln in sheet.lines
                        if ln.kind in (WagerKind.FORTUNE, WagerKind.ACE_HIGH)
                        and ln.outcome is LineOutcome.WIN and ln.counterparty == HOUSE)
        assert odds_paid <= profile.aggregate_limit.cents


@pytest.mark.parametrize("name", PROFILES)
def test_money_is_conserved_and_limits_hold(name: str) -> None:
    profile = get_profile(name)

    @settings(max_examples=150, deadline=None)
    @given(rounds(profile))
    def run(rnd: RoundInput) -> None:
        _check(profile, rnd)

    run()


# The properties above hold by construction as much as by rule (totals are summed from the
# transfers). The ones below compare two settlements or recount from the cards, so a wrong
# order, a lost line or an envy paid for the wrong hand makes them fail.

def _totals_by_party(profile: Profile, rnd: RoundInput) -> dict[str, int]:
    return {party: cents for party, cents in settle(profile, rnd).totals.items() if cents}


def _deep_bank(profile: Profile) -> Profile:
    """The profile with a banker limit so large that no round can exhaust the banker."""
    if not profile.banking.covered:
        return profile
    bank = profile.limits[Area.BANKER]
    limits = {**profile.limits, Area.BANKER: Limit(bank.minimum, 10**12, bank.increment)}
    return replace(profile, limits=limits)


@pytest.mark.parametrize("name", PROFILES)
def test_order_changes_nothing_when_no_limit_binds(name: str) -> None:
    """Only the banker's coverage makes settlement order matter. With a bank nobody can
    exhaust (or the house banking), every action seat gives every party the same total, and
    no line is left uncovered."""
    profile = _deep_bank(get_profile(name))

    @settings(max_examples=60, deadline=None)
    @given(rounds(profile), st.data())
    def run(rnd: RoundInput, data: st.DataObject) -> None:
        if profile.banking.covered:
            rnd = replace(rnd, banker=replace(rnd.banker, wager=10**11))
        seats = profile.positions if rnd.house is None else len(rnd.positions) + 1
        other = replace(rnd, action_seat=data.draw(st.integers(2, seats))
                        if rnd.action_seat is not None else None)
        first = settle(profile, rnd)
        assert all(ln.uncovered == 0 for ln in first.lines)
        assert _totals_by_party(profile, rnd) == _totals_by_party(profile, other)

    run()


@pytest.mark.parametrize("name", PROFILES)
def test_winners_keep_their_wager_and_envy_is_recounted(name: str) -> None:
    """A winning wager never costs its bettor anything but commission; envy lines are exactly
    one per (holder, other qualifying hand holding a Fortune wager), recounted from the cards."""
    from dealer_console.seven import fortune_class

    profile = get_profile(name)

    @settings(max_examples=100, deadline=None)
    @given(rounds(profile))
    def run(rnd: RoundInput) -> None:
        sheet = settle(profile, rnd)
        for line in sheet.lines:
            if line.outcome is LineOutcome.WIN and line.kind in (
                    WagerKind.BASE, WagerKind.BACKLINE, WagerKind.FORTUNE, WagerKind.ACE_HIGH,
                    WagerKind.ENVY):
                paid_out = sum(t.cents for t in line.transfers if t.payer == line.party)
                assert paid_out == line.commission
        envy = profile.envy
        expected = 0
        if envy is not None and profile.fortune is not None:
            qualifying = [
                p.position for p in rnd.positions
                if p.wagers.base and (p.wagers.fortune or not envy.needs_fortune_on_hand)
                and (cls := fortune_class(p.cards)) is not None and cls.is_envy_hand
            ]
            holders = [p.position for p in rnd.positions if p.wagers.fortune >= envy.threshold]
            if rnd.banker.by is BankedBy.PLAYER and rnd.banker.fortune >= envy.threshold:
                holders.append(1)
            expected = sum(1 for h in holders for q in qualifying if q != h)
        assert sum(1 for ln in sheet.lines if ln.kind is WagerKind.ENVY) == expected

    run()

"""Settling a round: one line per wager in settlement order, limits applied, money moved.

Rules README, "Money and settlement" (order, coverage, commission, aggregate limit, fees),
"Face Up" (the banker's ace-high pai gow pushes every base wager), "Fortune bonus and Envy";
Catfish Bend, "Player Banker" (the house's wager against a player banker, the house covering
bonuses, each party paying its own commission).
"""

from __future__ import annotations

from collections.abc import Iterator

from dealer_console.money import format_cents, percent_of
from dealer_console.profiles.model import FeePayer, Game, Profile, SettleFrom
from dealer_console.setting import Comparison, Outcome, compare
from dealer_console.settlement.bonuses import ace_high_due, envy_line, fortune_due, jackpot_line
from dealer_console.settlement.limits import apply_aggregate, walk_coverage
from dealer_console.settlement.model import (
    BANKER,
    COLLECTION,
    DEALER_TIPS,
    HOUSE,
    BankedBy,
    LineOutcome,
    PositionInput,
    RoundError,
    RoundInput,
    Sheet,
    SheetLine,
    Transfer,
    WagerKind,
    backline_party,
    position_party,
)
from dealer_console.settlement.resolve import ResolvedHand, resolve_banker, resolve_player
from dealer_console.settlement.validate import validate
from dealer_console.seven import ace_high_status

_OUTCOME = {Outcome.WIN: LineOutcome.WIN, Outcome.LOSS: LineOutcome.LOSS,
            Outcome.PUSH: LineOutcome.PUSH}
BASE_GAME = (WagerKind.HOUSE_WAGER, WagerKind.BASE, WagerKind.BACKLINE, WagerKind.TIPS)


def settlement_order(profile: Profile, rnd: RoundInput) -> list[PositionInput]:
    """Seat by seat from the start seat, counting up the position numbers (which run in the
    profile's direction) and wrapping past the banker at 1."""
    by_action = profile.settle_from is SettleFrom.ACTION_SEAT and rnd.action_seat is not None
    start = rnd.action_seat if by_action and rnd.action_seat is not None else 2
    seats = profile.positions - 1
    return sorted(rnd.positions, key=lambda p: (p.position - start) % seats)


def _describe(cmp: Comparison) -> str:
    return f"high {cmp.high.value}, low {cmp.low.value}"


class _Round:
    def __init__(self, profile: Profile, rnd: RoundInput) -> None:
        self.profile = profile
        self.rnd = rnd
        self.rules = profile.hand_rules
        self.player_banker = rnd.banker.by is BankedBy.PLAYER
        self.banker_party = BANKER if self.player_banker else HOUSE
        self.bonus_payer = HOUSE if profile.house_covers_bonuses else self.banker_party
        self.banker_setting, self.banker_note = resolve_banker(
            profile, rnd.banker.setting, rnd.banker.cards, "banker.setting")
        self.banker_ace_high = (ace_high_status(rnd.banker.cards)
                                if profile.game is Game.FACE_UP else None)
        self.lines: list[SheetLine] = []
        self.notes: list[str] = []
        if self.banker_note:
            self.notes.append(f"banker: {self.banker_note}")
        if self.banker_ace_high is not None:
            self.notes.append(f"banker's hand is ace-high pai gow ({self.banker_ace_high.value}):"
                              " every base wager pushes")
        self.hands = {
            p.position: resolve_player(profile, p.setting, p.cards, p.prior_fouls,
                                       f"positions[{i}].setting")
            for i, p in enumerate(rnd.positions)
        }

    # --- base game ------------------------------------------------------------------------
    def base_outcome(self, pos: PositionInput, index: int) -> tuple[LineOutcome, str]:
        hand: ResolvedHand = self.hands[pos.position]
        if self.banker_ace_high is not None:
            return LineOutcome.PUSH, "banker's ace-high pai gow: every base wager pushes"
        if hand.dead:
            return LineOutcome.LOSS, hand.note
        if hand.setting is None:
            raise RoundError(f"positions[{index}].setting", "the hand must be set (a setting "
                                                            "or \"house way\") to settle its "
                                                            "base wager")
        cmp = compare(hand.setting, self.banker_setting, self.rules)
        reason = _describe(cmp) + (f"; {hand.note}" if hand.note else "")
        return _OUTCOME[cmp.outcome], reason

    def add(self, line: SheetLine) -> None:
        self.lines.append(line)

    def ride(self, kind: WagerKind, position: int, party: str, wager: int,
             outcome: LineOutcome, reason: str) -> None:
        """A wager paid even money on the hand's base outcome (base, backline, tips)."""
        due = wager if outcome is not LineOutcome.PUSH else 0
        self.add(SheetLine(kind, position, party, self.banker_party, wager, outcome, reason,
                           due=due))

    # --- lines ----------------------------------------------------------------------------
    def fee_lines(self) -> None:
        fees = self.profile.fees
        if fees is None:
            return
        if fees.payer is FeePayer.BANKER or self.player_banker:
            fee = fees.fee_for(self.rnd.banker.wager)
            what = "rake" if fees.payer is FeePayer.BANKER else "collection fee"
            bank = format_cents(self.rnd.banker.wager)
            self.add(SheetLine(WagerKind.FEE, 1, BANKER, COLLECTION, self.rnd.banker.wager,
                               LineOutcome.CHARGE, f"{what} on a {bank} bank", due=fee))
        if fees.payer is FeePayer.EACH_HAND:
            for pos in settlement_order(self.profile, self.rnd):
                if pos.wagers.base:
                    fee = fees.fee_for(pos.wagers.base)
                    self.add(SheetLine(WagerKind.FEE, pos.position, position_party(pos.position),
                                       COLLECTION, pos.wagers.base, LineOutcome.CHARGE,
                                       f"collection fee on a {format_cents(pos.wagers.base)} "
                                       "wager", due=fee))

    def house_wager_line(self) -> None:
        house = self.rnd.house
        if house is None:
            return
        house_setting, note = resolve_banker(self.profile, house.setting, house.cards,
                                             "house.setting", house=True)
        cmp = compare(house_setting, self.banker_setting, self.rules)
        outcome = _OUTCOME[cmp.outcome]
        reason = "house hand against the player banker: " + _describe(cmp)
        self.add(SheetLine(WagerKind.HOUSE_WAGER, None, HOUSE, BANKER, house.wager, outcome,
                           reason + (f"; {note}" if note else ""),
                           due=house.wager if outcome is not LineOutcome.PUSH else 0))

    def envy_holders(self) -> Iterator[tuple[int, str]]:
        envy = self.profile.envy
        if envy is None:
            return
        if self.player_banker and self.rnd.banker.fortune >= envy.threshold:
            yield 1, BANKER
        for pos in self.rnd.positions:
            if pos.wagers.fortune >= envy.threshold:
                yield pos.position, position_party(pos.position)

    def envy_lines(self, holder_position: int, party: str) -> None:
        """One line per other qualifying hand: player hands only, never the banker's."""
        envy, table = self.profile.envy, self.profile.fortune
        if envy is None or table is None:
            return
        for pos in settlement_order(self.profile, self.rnd):
            if pos.position == holder_position:
                continue
            if envy.needs_fortune_on_hand and not pos.wagers.fortune:
                continue
            if not pos.wagers.base:
                continue  # a hand with no wager goes to the discard rack unplayed
            line = envy_line(table, pos.cards)
            if line is None or line.envy_cents is None:
                continue
            self.add(SheetLine(WagerKind.ENVY, holder_position, party, self.bonus_payer, 0,
                               LineOutcome.WIN, f"envy for position {pos.position}'s {line.id}",
                               due=line.envy_cents))

    def bonus_lines(self, position: int, party: str, pos: PositionInput | None) -> None:
        table = self.profile.fortune
        cards = pos.cards if pos is not None else self.rnd.banker.cards
        w = pos.wagers if pos is not None else None
        if pos is not None and w is not None and w.ace_high and self.profile.ace_high:
            due = ace_high_due(self.profile.ace_high, cards, self.banker_ace_high, w.ace_high)
            self.add(SheetLine(WagerKind.ACE_HIGH, position, party, self.bonus_payer, w.ace_high,
                               due.outcome, due.reason, due=due.amount))
        fortune = w.fortune if w is not None else self.rnd.banker.fortune
        if fortune and table is not None:
            due = fortune_due(table, cards, fortune)
            self.add(SheetLine(WagerKind.FORTUNE, position, party, self.bonus_payer, fortune,
                               due.outcome, due.reason, due=due.amount))
        if any(holder == position for holder, _ in self.envy_holders()):
            self.envy_lines(position, party)

    def jackpot_line(self, pos: PositionInput) -> None:
        game = self.profile.jackpot
        wager = pos.wagers.jackpot
        if not wager or game is None:
            return
        party = position_party(pos.position)
        line = jackpot_line(game.paytable, pos.cards)
        if line is None:
            self.add(SheetLine(WagerKind.JACKPOT, pos.position, party, HOUSE, wager,
                               LineOutcome.LOSS, f"no {game.paytable.name} hand", due=wager))
        elif line.for_one is not None:
            self.add(SheetLine(WagerKind.JACKPOT, pos.position, party, HOUSE, wager,
                               LineOutcome.WIN, f"{line.id} pays {line.for_one} for 1 from the "
                               "tray (wager not returned)", due=wager * line.for_one))
        else:
            self.add(SheetLine(WagerKind.JACKPOT, pos.position, party, HOUSE, wager,
                               LineOutcome.METER, f"{line.id}: {line.meter_percent}% of the "
                               f"{line.meter} meter, paid by the jackpot system on confirmation",
                               due=0))

    def seat_lines(self) -> None:
        index = {p.position: i for i, p in enumerate(self.rnd.positions)}
        for pos in settlement_order(self.profile, self.rnd):
            w = pos.wagers
            if not w.base:
                continue
            outcome, reason = self.base_outcome(pos, index[pos.position])
            self.ride(WagerKind.BASE, pos.position, position_party(pos.position), w.base,
                      outcome, reason)
            for back in w.backline:
                self.ride(WagerKind.BACKLINE, pos.position,
                          backline_party(pos.position, back.bettor), back.amount, outcome,
                          f"rides on position {pos.position}: {reason}")
            if w.tips:
                self.ride(WagerKind.TIPS, pos.position, position_party(pos.position), w.tips,
                          outcome, f"dealer tip bet on position {pos.position}: {reason}")
            self.bonus_lines(pos.position, position_party(pos.position), pos)
            self.jackpot_line(pos)

    # --- charges and money ----------------------------------------------------------------
    def commissions(self) -> None:
        commission = self.profile.commission
        if commission is None:
            return
        fortunes = {p.position: p.wagers.fortune for p in self.rnd.positions}
        waiver = commission.waived_by_fortune
        for line in self.lines:
            if line.kind not in (WagerKind.BASE, WagerKind.BACKLINE):
                continue
            if line.outcome is not LineOutcome.WIN or line.party == HOUSE:
                continue
            if (line.kind is WagerKind.BASE and waiver is not None and line.position is not None
                    and fortunes[line.position] >= waiver):
                line.reason += "; commission waived by the Fortune wager"
                continue
            line.commission = percent_of(line.moved, commission.basis_points)
        if not self.player_banker:
            return
        # Catfish Bend, "Commission": every player, the player banker included, pays on their
        # own winnings. On the net of the base game by default; otherwise on each base-game
        # wager the banker wins (before, a false setting let the banker pay nothing at all).
        nets = [self.net_of(line, BANKER) for line in self.lines if line.kind in BASE_GAME]
        on_net = commission.player_banker_pays_on_net
        basis = sum(nets) if on_net else sum(n for n in nets if n > 0)
        if basis <= 0:
            return
        if waiver is not None and self.rnd.banker.fortune >= waiver:
            self.notes.append("player banker's commission waived by their Fortune wager")
            return
        what = "net win" if on_net else "winnings"
        self.add(SheetLine(WagerKind.COMMISSION, 1, BANKER, HOUSE, 0, LineOutcome.CHARGE,
                           f"{commission.basis_points / 100:g}% of the player banker's {what} "
                           f"of {format_cents(basis)}",
                           due=percent_of(basis, commission.basis_points)))

    @staticmethod
    def net_of(line: SheetLine, party: str) -> int:
        return sum(t.cents for t in line.transfers if t.payee == party) - sum(
            t.cents for t in line.transfers if t.payer == party)

    def transfers(self, line: SheetLine) -> None:
        moved = line.moved
        out: list[Transfer] = []
        if line.kind is WagerKind.JACKPOT:
            out.append(Transfer(line.party, HOUSE, line.wager))
            if line.outcome is LineOutcome.WIN:
                out.append(Transfer(HOUSE, line.party, moved))
        elif line.kind is WagerKind.TIPS and line.outcome is LineOutcome.WIN:
            # the dealer takes the stake the banker matched and the win paid on it; a part of
            # the stake the bank could not match had no action and stays the bettor's (rules
            # README, "Banker coverage"; Oxford Downs, "Dealer Tip Bets"). Under the house
            # the whole stake is matched.
            out.append(Transfer(line.party, DEALER_TIPS, moved))
            out.append(Transfer(line.counterparty, DEALER_TIPS, moved))
        elif line.outcome is LineOutcome.WIN:
            out.append(Transfer(line.counterparty, line.party, moved))
        elif line.outcome in (LineOutcome.LOSS, LineOutcome.CHARGE):
            out.append(Transfer(line.party, line.counterparty, moved))
        if line.commission:
            out.append(Transfer(line.party, HOUSE, line.commission))
        line.transfers = [t for t in out if t.cents]

    def settle(self) -> Sheet:
        self.fee_lines()
        self.house_wager_line()
        if self.player_banker and self.profile.house_covers_bonuses:
            self.bonus_lines(1, BANKER, None)
        self.seat_lines()
        if self.profile.aggregate_limit is not None:
            apply_aggregate(self.lines, self.profile.aggregate_limit)
        if self.profile.banking.covered:
            walk_coverage([ln for ln in self.lines if ln.kind is not WagerKind.FEE],
                          BANKER, self.rnd.banker.wager)
        for line in self.lines:
            self.transfers(line)
        self.commissions()
        for line in self.lines:
            self.transfers(line)
        totals: dict[str, int] = {}
        for line in self.lines:
            totals.setdefault(line.party, 0)
            totals.setdefault(line.counterparty, 0)
        for line in self.lines:
            for t in line.transfers:
                totals[t.payer] = totals.get(t.payer, 0) - t.cents
                totals[t.payee] = totals.get(t.payee, 0) + t.cents
        assert sum(totals.values()) == 0
        return Sheet(self.profile.name, tuple(self.lines), totals, tuple(self.notes))


def settle(profile: Profile, rnd: RoundInput) -> Sheet:
    """Settle one round under ``profile``. A :class:`RoundError` is raised before any line is
    produced when the input is wrong, so nothing is ever half-settled."""
    validate(profile, rnd)
    return _Round(profile, rnd).settle()


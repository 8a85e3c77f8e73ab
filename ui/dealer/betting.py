"""The bank and the wagers: the pages of the round before START GAME. Each seat starts on its
base wager; after a base wager the next seat without one comes into focus, so new wagers are
typed seat after seat without touching the table; at a table with side bets "OK +
Fortune" keeps the seat for its side bet, and the page moves on after it. Last round's wagers
come back in one touch for the table or a seat (``RepeatWagers``), and the seat before's in one
touch for a new seat (``CopyWagers``): round commands the snapshot offers with their
why-not."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QHBoxLayout, QVBoxLayout, QWidget

from dealer_console.controller import TableController, TableSnapshot
from dealer_console.money import format_cents
from dealer_console.round import commands as c
from dealer_console.round.jackpot_kinds import JACKPOT_KINDS
from ui.dealer.page_kit import Act, Page, Scroller, clear_layout
from ui.widgets.amount_keypad import AmountKeypad
from ui.widgets.kit import label
from ui.widgets.touch import ButtonRole, TouchButton
from ui.words import kind_name, seat_name


def wagers_words(wagers: list[tuple[str, int]]) -> str:
    return ", ".join(f"{kind_name(k)} {format_cents(a)}" for k, a in wagers)


class BankPage(Page):
    """The bank offered to a seat: their wager as banker (typed, or the seat's own amount of
    the last time it banked or played: never another player's), or they decline."""

    def seat_in_focus(self, view: TableSnapshot, focus: int | None) -> int | None:
        return view.round.offer_seat

    def __init__(self, ctl: TableController, act: Act) -> None:
        super().__init__(ctl, act)
        self.heading = label(role="heading")
        self.keypad = AmountKeypad(hint=ctl.wager_hint("bank"))
        self.keypad.accepted.connect(self._accept)
        self.again = TouchButton("", ButtonRole.PRIMARY, money=True)
        self.again.clicked.connect(self._again)
        self.again_why = label(role="hint")
        self.hint = label(ctl.wager_hint("bank"), "hint")
        self.keypad.hint.hide()  # said beside the keypad: the keys keep their room
        self.decline = TouchButton("Decline the bank", ButtonRole.SECONDARY, money=True)
        self.decline.clicked.connect(self._decline)
        side = QVBoxLayout()
        side.addWidget(self.heading)
        side.addWidget(self.again)
        side.addWidget(self.again_why)
        side.addWidget(self.hint)
        side.addStretch(1)
        side.addWidget(self.decline)
        layout = QHBoxLayout(self)
        layout.addLayout(side, 1)
        layout.addWidget(self.keypad, 2)
        self._seat = 0
        self._offer: tuple[int, int] = (-1, -1)
        self._own: int | None = None

    def show_view(self, view: TableSnapshot, focus: int | None) -> None:
        self._seat = seat = view.round.offer_seat
        if (view.round.round_id, seat) != self._offer:
            self._offer = (view.round.round_id, seat)
            self.keypad.clear()  # a new offer starts empty: never another player's amount
        self._own = own = view.round.own_bank
        self.heading.setText(f"Seat {seat}: the banker's wager, or decline")
        self.keypad.set_validator(lambda cents: self.ctl.check(c.AcceptBank(seat, cents)))
        self.decline.setEnabled(view.why_not(c.DeclineBank(seat)) is None)
        self.again.setVisible(own is not None)
        self.again_why.setVisible(own is not None)
        if own is not None:
            why = view.why_not(c.AcceptBank(seat, own))
            self.again.setText(f"Seat {seat} banks {format_cents(own)}")
            self.again.setEnabled(why is None)
            self.again_why.setText(why or f"{format_cents(own)}: seat {seat}'s own amount, "
                                          "as it last banked or played")

    def _accept(self, cents: int) -> None:
        self.act(lambda: self.ctl.do(c.AcceptBank(self._seat, cents)))

    def _again(self) -> None:
        own = self._own
        if own is not None:
            self.act(lambda: self.ctl.do(c.AcceptBank(self._seat, own)))

    def _decline(self) -> None:
        self.act(lambda: self.ctl.do(c.DeclineBank(self._seat)))


class BettingPage(Page):
    """The seat in focus: a button per wager the table takes (the base wager first at each
    seat), the amount on the keypad, the seat's wagers with a button to take each back, and
    last round's wagers again for the seat or the whole table."""

    def __init__(self, ctl: TableController, act: Act) -> None:
        super().__init__(ctl, act)
        self.heading = label(role="heading")
        self.kinds = QHBoxLayout()
        self.kind_buttons: dict[str, TouchButton] = {}
        sensed = "bet-sensors" in ctl.device_names()
        for kind in ctl.rules.wager_kinds:
            if kind in JACKPOT_KINDS.values() and sensed:
                continue  # read from the bet sensors at START GAME
            if kind == "backline":
                continue  # a backline bettor is named at the table: not offered by touch yet
            button = TouchButton(kind_name(kind), ButtonRole.SECONDARY)
            button.setCheckable(True)
            button.clicked.connect(lambda _=False, k=kind: self._choose(k))
            self.kinds.addWidget(button)
            self.kind_buttons[kind] = button
        self.keypad = AmountKeypad()
        self.keypad.accepted.connect(self._place)
        self.keypad.accepted_then.connect(self._place_then)
        self._then_seat: int | None = None
        """The seat kept for its side bet by "OK + ...": the page moves on after it."""
        self.same_table = TouchButton("Same wagers as last round", ButtonRole.PRIMARY,
                                      money=True)
        self.same_table.clicked.connect(lambda: self._repeat(None))
        self.same_seat = TouchButton("", ButtonRole.SECONDARY, money=True)
        self.same_seat.clicked.connect(lambda: self._repeat(self._seat))
        self.same_before = TouchButton("", ButtonRole.SECONDARY, money=True)
        self.same_before.clicked.connect(self._copy)
        self._copy_offer: c.CopyWagers | None = None
        self.placed = QVBoxLayout()
        self.note = label(role="hint")
        if sensed:
            self.note.setText("Jackpot wagers are read from the bet sensors at START GAME.")
        self.hint = label(role="hint")
        self.keypad.hint.hide()  # said beside the keypad: the keys keep their room
        column = QWidget()
        left = QVBoxLayout(column)
        left.setContentsMargins(0, 0, 0, 0)
        left.addWidget(self.heading)
        left.addLayout(self.kinds)
        left.addWidget(self.hint)
        left.addWidget(self.same_seat)
        left.addWidget(self.same_before)
        left.addLayout(self.placed)
        left.addStretch(1)
        left.addWidget(self.same_table)
        left.addWidget(self.note)
        layout = QHBoxLayout(self)
        layout.addWidget(Scroller(column), 3)  # a seat's wagers scroll; the keypad stays
        layout.addWidget(self.keypad, 2)
        self._seat: int | None = None
        self._round = -1
        self._kind = "base"
        self.on_focus: Callable[[int | None], None] = lambda _seat: None
        """Moves the window's seat in focus (the next seat after a base wager)."""
        self.on_typed: Callable[[], None] = lambda: None
        """Tells the window a key was touched: the phase bar offers the typed amount with
        START GAME."""
        for key in self.keypad.keys.values():  # after the keypad's own handler
            key.clicked.connect(lambda _=False: self.on_typed())

    def seat_in_focus(self, view: TableSnapshot, focus: int | None) -> int | None:
        return self._seat

    def _open_seat(self, view: TableSnapshot, after: int | None = None) -> int | None:
        """The first player seat (after ``after``) with no base wager, not the banker."""
        r = view.round
        seats = [s for s in self.ctl.rules.player_seats
                 if (s, "base") not in r.wagers
                 and not (r.banker_kind == "player" and s == r.banker_seat)]
        later = [s for s in seats if after is not None and s > after]
        pick = later or seats
        return pick[0] if pick else None

    def touched(self, seat: int) -> None:
        """The dealer touched a seat on the table: its wagers, starting on the base."""
        if seat in self.ctl.rules.player_seats or seat == 0:
            if seat != self._seat:
                self._kind = "base"
                self._then_seat = None
            self._seat = seat

    def _side_kind(self) -> str | None:
        """The side bet "OK + ..." keeps the seat for: the first wager the page offers
        after the base."""
        return next((k for k in self.kind_buttons if k != "base"), None)

    def show_view(self, view: TableSnapshot, focus: int | None) -> None:
        r = view.round
        if r.round_id != self._round:  # a new round starts at its first open seat
            self._round, self._seat, self._kind = r.round_id, None, "base"
            self._then_seat = None
        if self._seat is None:
            self._seat = self._open_seat(view)
        if self._seat is None:
            self.heading.setText("Touch a seat for its wagers")
        else:
            name = seat_name(self._seat, r.banker_seat, r.banker_kind)
            self.heading.setText(f"{name}: the wager and its amount")
        for kind, button in self.kind_buttons.items():
            button.setChecked(kind == self._kind)
            button.setEnabled(self._seat is not None)
        self._choose(self._kind, refresh_only=True)
        self._show_copy(view)
        table_why = view.why_not(c.RepeatWagers())
        self.same_table.setVisible(bool(r.last_wagers))
        self.same_table.setEnabled(table_why is None)
        self.same_table.setToolTip(table_why or "")
        mine = [(k, a) for s, k, a in r.last_wagers if s == self._seat]
        self.same_seat.setVisible(bool(mine))
        if mine and self._seat is not None:
            self.same_seat.setText(f"Same as last round: {wagers_words(mine)}")
            self.same_seat.setEnabled(view.why_not(c.RepeatWagers(self._seat)) is None)
        clear_layout(self.placed)
        if self._seat is None:
            return
        for (seat, kind), cents in sorted(r.wagers.items()):
            if seat != self._seat:
                continue
            row = TouchButton(f"Take back {kind_name(kind)} {format_cents(cents)}",
                              ButtonRole.SECONDARY)
            row.setEnabled(view.why_not(c.RemoveWager(seat, kind)) is None)
            row.clicked.connect(lambda _=False, s=seat, k=kind: self._remove(s, k))
            self.placed.addWidget(row)

    def _show_copy(self, view: TableSnapshot) -> None:
        """"Same as" the seat before, when the round offers its wagers for this seat."""
        self._copy_offer = next((cmd for cmd, _why in view.offers
                                 if isinstance(cmd, c.CopyWagers) and cmd.seat == self._seat),
                                None)
        self.same_before.setVisible(self._copy_offer is not None)
        if self._copy_offer is not None:
            r = view.round
            source = self._copy_offer.from_seat
            self.same_before.setText(
                f"Same as {seat_name(source, r.banker_seat, r.banker_kind)}: "
                f"{wagers_words(r.copied_wagers(source))}")
            why = view.why_not(self._copy_offer)
            self.same_before.setEnabled(why is None)
            self.same_before.setToolTip(why or "")

    def _choose(self, kind: str, refresh_only: bool = False) -> None:
        self._kind = kind
        for name, button in self.kind_buttons.items():
            button.setChecked(name == kind)
        seat = self._seat
        self.hint.setText(f"{kind_name(kind)}: {self.ctl.wager_hint(kind)}")
        if seat is None:
            self.keypad.set_validator(lambda _cents: "touch a seat first")
        else:
            self.keypad.set_validator(
                lambda cents: self.ctl.check(self._wager(seat, kind, cents)))
        side = self._side_kind()
        self.keypad.set_then(f"OK +\n{kind_name(side)}" if side is not None and kind == "base"
                             and seat in self.ctl.rules.player_seats else None)
        if not refresh_only:
            self.keypad.clear()

    def pending(self) -> tuple[int, str, int] | None:
        """The wager typed on the keypad and not placed yet, when the round would take it:
        (seat, kind, cents)."""
        cents = self.keypad.amount()
        if self._seat is None or cents is None or self.keypad.refusal() is not None:
            return None
        return self._seat, self._kind, cents

    def place_pending(self) -> None:
        """The typed wager placed, as OK places it (a refusal is raised)."""
        typed = self.pending()
        if typed is None:
            return
        seat, kind, cents = typed
        self.ctl.do(self._wager(seat, kind, cents))
        self.keypad.clear()
        if kind == "base":
            self._advance(seat)

    def _place(self, cents: int) -> None:
        if self._seat is None:
            return
        seat, kind = self._seat, self._kind
        if self.act(lambda: self.ctl.do(self._wager(seat, kind, cents))):
            self.keypad.clear()
            if kind == "base" or seat == self._then_seat:
                self._advance(seat)

    def _place_then(self, cents: int) -> None:
        """The base wager placed, the seat kept with its side bet chosen."""
        seat, side = self._seat, self._side_kind()
        if seat is None or side is None or self._kind != "base":
            return
        if self.act(lambda: self.ctl.do(self._wager(seat, "base", cents))):
            self._then_seat = seat
            self._choose(side)

    def _copy(self) -> None:
        offer = self._copy_offer
        if offer is not None and self.act(lambda: self.ctl.do(offer)):
            self.keypad.clear()  # an amount typed for this seat is not the next seat's
            self._advance(offer.seat)

    def _wager(self, seat: int, kind: str, cents: int) -> c.PlaceWager | c.ChangeWager:
        """The amount typed for the seat's wager of ``kind``: placed, or, when it has one,
        changed to it (typing over a wager changes it: no taking back first)."""
        if (seat, kind) in self.ctl.snapshot().round.wagers:
            return c.ChangeWager(seat, kind, cents)
        return c.PlaceWager(seat, kind, cents)

    def _advance(self, seat: int) -> None:
        """After a base wager, the next seat without one comes into focus on its base."""
        self._then_seat = None
        following = self._open_seat(self.ctl.snapshot(), after=seat)
        if following is not None and following != seat:
            self._kind = "base"
            self._seat = following
            self.on_focus(following)

    def _repeat(self, seat: int | None) -> None:
        self.act(lambda: self.ctl.do(c.RepeatWagers(seat)))

    def _remove(self, seat: int, kind: str) -> None:
        self.act(lambda: self.ctl.do(c.RemoveWager(seat, kind)))

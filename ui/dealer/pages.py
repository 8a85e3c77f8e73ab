"""The page beside the table for each phase: the choices of that phase, the hand in focus drawn
large. A page shows the controller's view and sends commands through ``act`` (which shows a
refusal in the phase bar); it decides nothing about the rules: what is live is asked of the
controller (``check``), the limits come from the profile (``wager_hint``), a foul and its
consequence from ``preview_setting``."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QVBoxLayout,
    QWidget,
)

from dealer_console.cards import Card, format_cards
from dealer_console.controller import TableController, TableSnapshot
from dealer_console.money import format_cents
from dealer_console.round import commands as c
from dealer_console.round.jackpot_kinds import JACKPOT_KINDS
from dealer_console.round.rules import ActionSeatMethod
from dealer_console.round.state import MisdealReason, Phase
from ui import theme
from ui.dealer.jackpot_panel import JackpotPanel
from ui.widgets.amount_keypad import AmountKeypad
from ui.widgets.card import CardRow
from ui.widgets.kit import label as _label
from ui.widgets.number_pad import NumberPad
from ui.widgets.pages import PageStack
from ui.widgets.touch import ButtonRole, TouchButton
from ui.words import MISDEALS, kind_name, line_words, seat_name

Act = Callable[[Callable[[], object]], bool]
"""Run a command; a refusal is shown to the dealer and False returned."""


def _clear(layout: QGridLayout | QHBoxLayout | QVBoxLayout) -> None:
    while layout.count():
        item = layout.takeAt(0)
        widget = item.widget() if item is not None else None
        if widget is not None:
            widget.hide()  # gone from the screen now, not when the deferred delete runs
            widget.deleteLater()


def _widgets(layout: QHBoxLayout) -> list[QWidget]:
    items = (layout.itemAt(i) for i in range(layout.count()))
    return [w for w in (item.widget() if item is not None else None for item in items)
            if w is not None]


class Page(QWidget):
    def __init__(self, ctl: TableController, act: Act) -> None:
        super().__init__()
        self.ctl = ctl
        self.act = act
        self.four_colour = False

    def show_view(self, view: TableSnapshot, focus: int | None) -> None:
        raise NotImplementedError

    def seat_in_focus(self, view: TableSnapshot, focus: int | None) -> int | None:
        """The seat this page is about (highlighted on the table)."""
        return focus


class BankPage(Page):
    """The bank offered to a seat: their wager as banker, or they decline."""

    def seat_in_focus(self, view: TableSnapshot, focus: int | None) -> int | None:
        return view.round.offer_seat

    def __init__(self, ctl: TableController, act: Act) -> None:
        super().__init__(ctl, act)
        self.heading = _label(role="heading")
        self.keypad = AmountKeypad(hint=ctl.wager_hint("bank"))
        self.keypad.accepted.connect(self._accept)
        self.decline = TouchButton("Decline the bank", ButtonRole.SECONDARY, money=True)
        self.decline.clicked.connect(self._decline)
        side = QVBoxLayout()
        side.addWidget(self.heading)
        side.addStretch(1)
        side.addWidget(self.decline)
        layout = QHBoxLayout(self)
        layout.addLayout(side, 1)
        layout.addWidget(self.keypad, 2)
        self._seat = 0

    def show_view(self, view: TableSnapshot, focus: int | None) -> None:
        self._seat = view.round.offer_seat
        self.heading.setText(f"Seat {self._seat}: the banker's wager, or decline")
        seat = self._seat
        self.keypad.set_validator(lambda cents: self.ctl.check(c.AcceptBank(seat, cents)))
        self.decline.setEnabled(view.why_not(c.DeclineBank(seat)) is None)

    def _accept(self, cents: int) -> None:
        self.act(lambda: self.ctl.do(c.AcceptBank(self._seat, cents)))

    def _decline(self) -> None:
        self.act(lambda: self.ctl.do(c.DeclineBank(self._seat)))


class BettingPage(Page):
    """The seat in focus: a button per wager the table takes, the amount on the keypad, and
    the seat's wagers with a button to take each back."""

    def __init__(self, ctl: TableController, act: Act) -> None:
        super().__init__(ctl, act)
        self.heading = _label(role="heading")
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
        self.placed = QVBoxLayout()
        self.note = _label(role="hint")
        if sensed:
            self.note.setText("Jackpot wagers are read from the bet sensors at START GAME.")
        left = QVBoxLayout()
        left.addWidget(self.heading)
        left.addLayout(self.kinds)
        left.addLayout(self.placed)
        left.addStretch(1)
        left.addWidget(self.note)
        layout = QHBoxLayout(self)
        layout.addLayout(left, 3)
        layout.addWidget(self.keypad, 2)
        self._seat: int | None = None
        self._kind = "base"

    def show_view(self, view: TableSnapshot, focus: int | None) -> None:
        players = [s for s in self.ctl.rules.player_seats]
        self._seat = focus if focus in players or focus == 0 else None
        if self._seat is None:
            self.heading.setText("Touch a seat for its wagers")
        else:
            name = seat_name(self._seat, view.round.banker_seat, view.round.banker_kind)
            self.heading.setText(f"{name}: the wager and its amount")
        for kind, button in self.kind_buttons.items():
            button.setChecked(kind == self._kind)
            button.setEnabled(self._seat is not None)
        self._choose(self._kind, refresh_only=True)
        _clear(self.placed)
        if self._seat is None:
            return
        for (seat, kind), cents in sorted(view.round.wagers.items()):
            if seat != self._seat:
                continue
            row = TouchButton(f"Take back {kind_name(kind)} {format_cents(cents)}",
                              ButtonRole.SECONDARY)
            row.setEnabled(view.why_not(c.RemoveWager(seat, kind)) is None)
            row.clicked.connect(lambda _=False, s=seat, k=kind: self._remove(s, k))
            self.placed.addWidget(row)

    def _choose(self, kind: str, refresh_only: bool = False) -> None:
        self._kind = kind
        for name, button in self.kind_buttons.items():
            button.setChecked(name == kind)
        seat = self._seat
        self.keypad.set_hint(f"{kind_name(kind)}: {self.ctl.wager_hint(kind)}")
        if seat is None:
            self.keypad.set_validator(lambda _cents: "touch a seat first")
        else:
            self.keypad.set_validator(
                lambda cents: self.ctl.check(c.PlaceWager(seat, kind, cents)))
        if not refresh_only:
            self.keypad.clear()

    def _place(self, cents: int) -> None:
        if self._seat is None:
            return
        seat, kind = self._seat, self._kind
        if self.act(lambda: self.ctl.do(c.PlaceWager(seat, kind, cents))):
            self.keypad.clear()

    def _remove(self, seat: int, kind: str) -> None:
        self.act(lambda: self.ctl.do(c.RemoveWager(seat, kind)))


class ActionPage(Page):
    """The action: dice total or RNG number on the keypad, the high-card seat, or the
    shuffler's own number."""

    def __init__(self, ctl: TableController, act: Act) -> None:
        super().__init__(ctl, act)
        self.heading = _label(role="heading")
        self.keypad = NumberPad()
        self.keypad.accepted.connect(self._number)
        self.seat_row = QHBoxLayout()
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addLayout(self.seat_row)
        layout.addWidget(self.keypad, 1)
        method = ctl.rules.action_method
        self.keypad.setVisible(method in (ActionSeatMethod.DICE, ActionSeatMethod.RNG))
        self.restart = TouchButton("New high card (floor's permission)", ButtonRole.SECONDARY)
        self.restart.setCheckable(True)
        layout.addWidget(self.restart)
        self.restart.setVisible(method is ActionSeatMethod.HIGH_CARD)
        if method is ActionSeatMethod.HIGH_CARD:
            for seat in ctl.rules.seats:
                button = TouchButton(f"Seat {seat}", ButtonRole.SECONDARY)
                button.clicked.connect(lambda _=False, s=seat: self._seat(s))
                self.seat_row.addWidget(button)

    def show_view(self, view: TableSnapshot, focus: int | None) -> None:
        method = self.ctl.rules.action_method
        words = {ActionSeatMethod.DICE: "Roll the three dice and enter the total",
                 ActionSeatMethod.RNG: "Enter the random number",
                 ActionSeatMethod.HIGH_CARD: "Touch the seat that won the high card",
                 ActionSeatMethod.SHUFFLER: "The shuffler draws the number for the first hand"}
        self.heading.setText(words[method])
        self.keypad.set_validator(lambda n: self.ctl.check(c.SetActionNumber(n)))

    def _number(self, number: int) -> None:
        self.act(lambda: self.ctl.do(c.SetActionNumber(number)))

    def _seat(self, seat: int) -> None:
        """The seat the high card went to; naming another seat than the button's usual move
        needs the floor's permission, given with the switch (the round refuses it otherwise,
        and says where the button goes)."""
        restart = self.restart.isChecked()
        if self.act(lambda: self.ctl.do(c.SetActionSeat(seat, restart=restart))):
            self.restart.setChecked(False)


class DealPage(Page):
    """The deal arriving from the shuffler, and what the dealer reports during it."""

    def __init__(self, ctl: TableController, act: Act) -> None:
        super().__init__(ctl, act)
        self.heading = _label(role="heading")
        self.progress = _label()
        self.exposed = QHBoxLayout()
        for n in (1, 2, 3, 4):
            button = TouchButton(f"{n} card{'s' if n > 1 else ''} exposed", ButtonRole.SECONDARY)
            button.clicked.connect(lambda _=False, k=n: self.act(
                lambda: self.ctl.do(c.CardsExposed(k))))
            self.exposed.addWidget(button)
        self.first = QHBoxLayout()
        self.first_label = _label("First hand put at another seat:", "hint")
        self.first.addWidget(self.first_label)
        for seat in ctl.rules.seats:
            button = TouchButton(str(seat), ButtonRole.SECONDARY)
            button.clicked.connect(lambda _=False, s=seat: self.act(
                lambda: self.ctl.first_hand_went_to(s)))
            self.first.addWidget(button)
        self.misdeal = QHBoxLayout()
        for reason in (MisdealReason.POSITION_MISSED, MisdealReason.HAND_NOT_SEVEN):
            button = TouchButton(f"Misdeal: {MISDEALS[reason.value][0]}", ButtonRole.DANGER)
            button.clicked.connect(lambda _=False, r=reason: self.act(
                lambda: self.ctl.do(c.DeclareMisdeal(r.value))))
            self.misdeal.addWidget(button)
        layout = QVBoxLayout(self)
        for part in (self.heading, self.progress):
            layout.addWidget(part)
        layout.addLayout(self.exposed)
        layout.addLayout(self.first)
        layout.addLayout(self.misdeal)
        layout.addStretch(1)

    def show_view(self, view: TableSnapshot, focus: int | None) -> None:
        r = view.round
        if r.wrong_start is not None:
            self.heading.setText(f"The first hand went to seat {r.wrong_start}: move every "
                                 "hand to its right seat")
        elif view.waiting_for:
            self.heading.setText(f"Waiting for {view.waiting_for}")
        else:
            self.heading.setText("Deal the hands")
        order = " ".join(str(s) for s in r.order)
        self.progress.setText(f"Hands {len(r.delivered)} of {len(r.order) or 7} - deal "
                              f"order {order}" + (f" - {r.exposed} card(s) exposed"
                                                  if r.exposed else ""))
        live = r.phase in (Phase.DEALING, Phase.DEAL_CHECK)
        for widget in _widgets(self.exposed):
            widget.setEnabled(live)
        early = r.phase in (Phase.ACTION, Phase.DEALING) and not r.delivered
        for widget in _widgets(self.first):
            widget.setVisible(early)


class MisdealPage(Page):
    def __init__(self, ctl: TableController, act: Act) -> None:
        super().__init__(ctl, act)
        self.heading = _label(role="heading")
        self.todo = _label()
        self.keypad = NumberPad(hint="count by hand and enter the number of cards, or "
                                     "count them in the shuffler")
        self.keypad.accepted.connect(self._counted)
        text = QVBoxLayout()
        text.addWidget(self.heading)
        text.addWidget(self.todo)
        text.addStretch(1)
        layout = QHBoxLayout(self)
        layout.addLayout(text, 1)
        layout.addWidget(self.keypad, 1)

    def show_view(self, view: TableSnapshot, focus: int | None) -> None:
        r = view.round
        what, todo = MISDEALS.get(r.misdeal_reason or "", (r.misdeal_reason or "", ""))
        self.heading.setText(f"Misdeal: {what}")
        if r.deck_count_due:
            self.todo.setText(f"{todo.capitalize()}. Play goes on only when the count is 53; "
                              "every wager stays.")
        else:
            self.todo.setText("The deck is counted. Redeal: every wager stays.")
        self.keypad.setVisible(r.deck_count_due)
        self.keypad.set_validator(lambda n: self.ctl.check(c.DeckCounted(n)))

    def _counted(self, count: int) -> None:
        self.act(lambda: self.ctl.do(c.DeckCounted(count)))


class HandPage(Page):
    """A hand in focus, large: the banker's set the House Way with the chart line that set it,
    or a player's hand set the House Way on request or by touching the two cards of the low
    hand (a foul is shown at once, with what the profile does with it)."""

    def __init__(self, ctl: TableController, act: Act) -> None:
        super().__init__(ctl, act)
        self.heading = _label(role="heading")
        self.cards = CardRow(card_height=theme.CARD_HEIGHT)
        self.cards.tapped.connect(self._tap)
        self.detail = _label()
        self.house_way = TouchButton("House Way", ButtonRole.PRIMARY, money=True)
        self.house_way.clicked.connect(self._house_way)
        self.own = TouchButton("Set as shown", ButtonRole.SECONDARY, money=True)
        self.own.clicked.connect(self._own)
        self.clear = TouchButton("Start again", ButtonRole.SECONDARY)
        self.clear.clicked.connect(self._clear)
        buttons = QHBoxLayout()
        for button in (self.house_way, self.own, self.clear):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.cards, 1)
        layout.addWidget(self.detail)
        layout.addLayout(buttons)
        self._seat: int | None = None
        self._hand: tuple[Card, ...] = ()
        self._low: list[int] = []
        self._banker = False

    def show_view(self, view: TableSnapshot, focus: int | None) -> None:
        r = view.round
        self._banker = r.phase is Phase.BANKER_SET
        todo = r.players_to_set()
        seat = r.banker_seat if self._banker else (
            focus if focus in todo else (todo[0] if todo else None))
        if seat != self._seat:
            self._low = []
        self._seat = seat
        self.cards.set_four_colour(self.four_colour)
        if seat is None:
            self.heading.setText("Every hand is set")
            self.cards.set_cards("")
            return
        self._hand = r.hands.get(seat, ())
        name = seat_name(seat, r.banker_seat, r.banker_kind)
        self.heading.setText(f"{name}'s hand" + (" (the banker)" if self._banker else ""))
        house = not self.ctl.sets_own_hand(seat)
        self.own.setVisible(not house)
        self.clear.setVisible(not house)
        self.house_way.setVisible(not house)  # the phase bar's button sets the house's hand
        self.house_way.setText(f"{name}: House Way")
        self._show()

    def seat_in_focus(self, view: TableSnapshot, focus: int | None) -> int | None:
        return self._seat

    def _show(self) -> None:
        if self._seat is None:
            return
        way = self.ctl.house_way(self._seat)
        if len(self._low) == 2:
            low = [self._hand[i] for i in self._low]
            preview = self.ctl.preview_setting(self._seat, low)
            self.cards.set_groups([("Low", format_cards(preview.setting.low).split()),
                                   ("High", format_cards(preview.setting.high).split())])
            if preview.foul:
                self.detail.setText(f"FOUL: the low hand beats the high hand. "
                                    f"{preview.consequence.capitalize()}.")
            else:
                self.detail.setText("Set by the player: not foul.")
            self.own.setEnabled(True)
        else:
            self.cards.set_cards(format_cards(self._hand).split())
            self.cards.set_selected(self._low)
            self.detail.setText(f"House Way: {format_cards(way.low)} | {format_cards(way.high)}"
                                f" - {way.rule}" + ("" if self._banker else
                                                    "\nor touch the two cards of the low hand"))
            self.own.setEnabled(False)

    def _tap(self, index: int) -> None:
        if self._seat is None or not self.ctl.sets_own_hand(self._seat):
            return  # a hand set only the House Way
        if len(self._low) == 2:
            self._low = []
        if index in self._low:
            self._low.remove(index)
        elif index < len(self._hand):
            self._low.append(index)
        self._show()

    def _clear(self) -> None:
        self._low = []
        self._show()

    def _house_way(self) -> None:
        seat = self._seat
        if seat is None:
            return
        cmd: c.Command = c.SetBankerHand() if self._banker else c.SetPlayerHand(seat)
        if self.act(lambda: self.ctl.do(cmd)):
            self._low = []

    def _own(self) -> None:
        seat = self._seat
        if seat is None or len(self._low) != 2:
            return
        setting = self.ctl.preview_setting(seat, [self._hand[i] for i in self._low]).setting
        cmd: c.Command = (c.SetBankerHand(setting) if self._banker
                          else c.SetPlayerHand(seat, setting))
        if self.act(lambda: self.ctl.do(cmd)):
            self._low = []


class SettlementPage(Page):
    """The next seat in the settlement order: what to pay, take or push, line by line."""

    def seat_in_focus(self, view: TableSnapshot, focus: int | None) -> int | None:
        return view.round.next_to_settle()

    def __init__(self, ctl: TableController, act: Act) -> None:
        super().__init__(ctl, act)
        self.heading = _label(role="heading")
        self.banker = CardRow(card_height=theme.CARD_HEIGHT // 2)
        self.player = CardRow(card_height=theme.CARD_HEIGHT // 2)
        self.lines = _label()
        self.lines.setProperty("role", "amount")
        self.coverage = _label(role="hint")
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        hands = QHBoxLayout()
        hands.addWidget(self.player, 1)
        hands.addWidget(self.banker, 1)
        layout.addLayout(hands, 1)
        layout.addWidget(self.lines)
        layout.addWidget(self.coverage)

    def show_view(self, view: TableSnapshot, focus: int | None) -> None:
        r = view.round
        seat = r.next_to_settle()
        for row in (self.banker, self.player):
            row.set_four_colour(self.four_colour)
        if r.ace_high_push:
            push = "The banker has ace-high pai gow: every base wager pushes. "
        else:
            push = ""
        if seat is None:
            self.heading.setText(push + "Every seat is settled")
            self.lines.setText("")
            return
        self.heading.setText(push + f"Settle {seat_name(seat, r.banker_seat, r.banker_kind)}")
        banker = r.banker_setting
        if banker is not None:
            self.banker.set_groups([("Banker low", format_cards(banker.low).split()),
                                    ("Banker high", format_cards(banker.high).split())])
        setting = r.settings.get(seat)
        if setting is not None:
            self.player.set_groups([("Low", format_cards(setting.low).split()),
                                    ("High", format_cards(setting.high).split())])
        else:
            self.player.set_cards("")
        self.lines.setText("\n".join(line_words(x) for x in r.lines_of(seat)) or "nothing")
        left = r.banker_coverage_left
        self.coverage.setText("" if left is None else
                              f"Banker's coverage left: {format_cents(left)}")


class EndPage(Page):
    """Every seat settled: the jackpot panel (marks, the hits in paying order, CONFIRM and the
    swipe), then END GAME."""

    def __init__(self, ctl: TableController, act: Act) -> None:
        super().__init__(ctl, act)
        self.heading = _label(role="heading")
        self.jackpot = JackpotPanel(ctl, act)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.jackpot, 1)
        self.jackpot.setVisible(ctl.snapshot().has_jackpot)

    def show_view(self, view: TableSnapshot, focus: int | None) -> None:
        # with a jackpot the panel's own titles and the phase bar say it: the room is the panel's
        self.heading.setVisible(not view.jackpot_games)
        self.heading.setText("Every seat is settled: press END GAME")
        if view.has_jackpot:
            self.jackpot.show_view(view)


def build_pages(ctl: TableController, act: Act) -> tuple[PageStack, dict[Phase, Page]]:
    stack = PageStack()
    pages: dict[Phase, Page] = {}
    bank, betting, action = BankPage(ctl, act), BettingPage(ctl, act), ActionPage(ctl, act)
    deal, misdeal, hand = DealPage(ctl, act), MisdealPage(ctl, act), HandPage(ctl, act)
    settle, end = SettlementPage(ctl, act), EndPage(ctl, act)
    for phase, page in ((Phase.BANKER, bank), (Phase.BETTING, betting),
                        (Phase.ACTION, action), (Phase.DEALING, deal),
                        (Phase.DEAL_CHECK, deal), (Phase.MISDEAL, misdeal),
                        (Phase.BANKER_SET, hand), (Phase.PLAYERS_SET, hand),
                        (Phase.SETTLEMENT, settle), (Phase.END, end)):
        pages[phase] = page
        if stack.indexOf(page) < 0:
            stack.addWidget(page)
    return stack, pages

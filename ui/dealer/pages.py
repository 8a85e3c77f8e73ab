"""The page beside the table for each phase: the choices of that phase, the hand in focus drawn
large. A page shows the controller's view and sends commands through ``act`` (which shows a
refusal in the phase bar); it decides nothing about the rules: what is live is asked of the
controller (``check``), the limits come from the profile (``wager_hint``), a foul and its
consequence from ``preview_setting``."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QVBoxLayout,
    QWidget,
)

from dealer_console.cards import Card, format_cards
from dealer_console.controller import TableController, TableSnapshot
from dealer_console.round import commands as c
from dealer_console.round.rules import ActionSeatMethod
from dealer_console.round.state import MisdealReason, Phase
from dealer_console.round.values import DICE_RANGE
from ui import theme
from ui.dealer.betting import BankPage, BettingPage
from ui.dealer.page_kit import Act, Page, Scroller, layout_widgets
from ui.dealer.settle_page import EndPage, SettlementPage
from ui.widgets.card import CardRow
from ui.widgets.card_text import setting_on_dark
from ui.widgets.kit import label
from ui.widgets.number_pad import NumberPad
from ui.widgets.touch import ButtonRole, TouchButton
from ui.words import MISDEALS, seat_name


class ActionPage(Page):
    """The action: the dice total in one touch (3 to 18), the RNG number on the keypad, the
    high-card seat, or the shuffler's own number."""

    def __init__(self, ctl: TableController, act: Act) -> None:
        super().__init__(ctl, act)
        self.heading = label(role="heading")
        self.keypad = NumberPad()
        self.keypad.accepted.connect(self._number)
        self.seat_row = QHBoxLayout()
        self.dice = QGridLayout()
        self.dice_buttons: dict[int, TouchButton] = {}
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addLayout(self.seat_row)
        layout.addLayout(self.dice)
        layout.addWidget(self.keypad, 1)
        method = ctl.rules.action_method
        self.keypad.setVisible(method is ActionSeatMethod.RNG)
        if method is ActionSeatMethod.DICE:
            low, high = DICE_RANGE
            for n in range(low, high + 1):
                button = TouchButton(str(n), ButtonRole.SECONDARY)
                button.setProperty("big", True)
                button.setMinimumHeight(theme.TOUCH_MIN * 2)  # the page's room is the dice's
                button.clicked.connect(lambda _=False, k=n: self._number(k))
                self.dice.addWidget(button, (n - low) // 8, (n - low) % 8)
                self.dice_buttons[n] = button
        self.restart = TouchButton("New high card (floor's permission)", ButtonRole.SECONDARY)
        self.restart.setCheckable(True)
        layout.addWidget(self.restart)
        layout.addStretch(0 if method is ActionSeatMethod.RNG else 1)
        self.restart.setVisible(method is ActionSeatMethod.HIGH_CARD)
        if method is ActionSeatMethod.HIGH_CARD:
            for seat in ctl.rules.seats:
                button = TouchButton(f"Seat {seat}", ButtonRole.SECONDARY)
                button.clicked.connect(lambda _=False, s=seat: self._seat(s))
                self.seat_row.addWidget(button)

    def seat_in_focus(self, view: TableSnapshot, focus: int | None) -> int | None:
        return None  # no seat is this page's: the action is found for the table

    def show_view(self, view: TableSnapshot, focus: int | None) -> None:
        method = self.ctl.rules.action_method
        words = {ActionSeatMethod.DICE: "Roll the three dice and touch the total",
                 ActionSeatMethod.RNG: "Enter the random number",
                 ActionSeatMethod.HIGH_CARD: "Touch the seat that won the high card",
                 ActionSeatMethod.SHUFFLER: "The shuffler draws the number for the first hand"}
        self.heading.setText(words[method])
        self.keypad.set_validator(lambda n: self.ctl.check(c.SetActionNumber(n)))

    def _number(self, number: int) -> None:
        self.act(lambda: self.ctl.do(c.SetActionNumber(number)))

    def _seat(self, seat: int) -> None:
        """The seat the high card went to; putting the button in play, or naming another seat
        than its usual move, needs the floor's permission: (the switch, then) a supervisor's
        card where the round asks for one (it refuses it otherwise, and says where the button
        goes)."""
        restart = self.restart.isChecked()
        cmd = c.SetActionSeat(seat, restart=restart)
        purpose = (f"give the floor's permission for a new high card (seat {seat})" if restart
                   else f"give the floor's permission to put the action button in play at "
                        f"seat {seat}")
        if self.act(lambda: self.ctl.do_or_card(cmd, purpose)):
            self.restart.setChecked(False)


class DealPage(Page):
    """The deal arriving from the shuffler, and what the dealer reports during it."""

    def __init__(self, ctl: TableController, act: Act) -> None:
        super().__init__(ctl, act)
        self.heading = label(role="heading")
        self.progress = label()
        self.exposed = QHBoxLayout()
        self.exposed_buttons: dict[int, TouchButton] = {}
        for n in (1, 2, 3, 4):
            button = TouchButton(_exposed_words(n), ButtonRole.SECONDARY)
            button.clicked.connect(lambda _=False, k=n: self._exposed(k))
            self.exposed.addWidget(button)
            self.exposed_buttons[n] = button
        self.first = QHBoxLayout()
        self.first_label = label("First hand put at another seat:", "hint")
        self.first.addWidget(self.first_label)
        for seat in ctl.rules.seats:
            button = TouchButton(str(seat), ButtonRole.SECONDARY)
            button.clicked.connect(lambda _=False, s=seat: self.act(
                lambda: self.ctl.first_hand_went_to(s)))
            self.first.addWidget(button)
        self.misdeal = QHBoxLayout()
        self.misdeal_buttons: dict[MisdealReason, TouchButton] = {}
        self._armed: MisdealReason | int | None = None
        """The misdeal the next touch of its button asks a supervisor's card for: a reason,
        or the count of exposed cards that makes one."""
        for reason in (MisdealReason.POSITION_MISSED, MisdealReason.HAND_NOT_SEVEN):
            button = TouchButton(f"Misdeal: {MISDEALS[reason.value][0]}", ButtonRole.DANGER)
            button.clicked.connect(lambda _=False, r=reason: self._misdeal(r))
            self.misdeal.addWidget(button)
            self.misdeal_buttons[reason] = button
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
        for widget in layout_widgets(self.exposed):
            widget.setEnabled(live)
        early = r.phase in (Phase.ACTION, Phase.DEALING) and not r.delivered
        for widget in layout_widgets(self.first):
            widget.setVisible(early)
        if r.phase not in (Phase.DEALING, Phase.DEAL_CHECK):
            self._arm(None)

    def _arm(self, armed: MisdealReason | int | None) -> None:
        self._armed = armed
        for each, button in self.misdeal_buttons.items():
            words = MISDEALS[each.value][0]
            button.setText(f"Touch again to declare: {words}" if each is armed
                           else f"Misdeal: {words}")
        for n, button in self.exposed_buttons.items():
            button.setText(f"Misdeal, {n} exposed: again" if n == armed
                           else _exposed_words(n))

    def _misdeal(self, reason: MisdealReason) -> None:
        """A misdeal voids every hand: the first touch asks, the second asks for a
        supervisor's card, which declares it."""
        if self._armed is not reason:
            self._arm(reason)
            return
        self._arm(None)
        self.act(lambda: self.ctl.do_or_card(
            c.DeclareMisdeal(reason.value),
            f"declare a misdeal: {MISDEALS[reason.value][0]}"))

    def _exposed(self, count: int) -> None:
        """Exposed cards: taken at once while the deal goes on; where the round says they make
        a misdeal (it takes them only on a supervisor's card), the first touch asks and the
        second asks for the card, as a misdeal button does."""
        cmd = c.CardsExposed(count)
        if self.ctl.on_card_only(cmd) and self._armed != count:
            self._arm(count)
            return
        self._arm(None)
        self.act(lambda: self.ctl.do_or_card(
            cmd, f"declare a misdeal: {_exposed_words(count)}"))


def _exposed_words(count: int) -> str:
    return f"{count} card{'s' if count > 1 else ''} exposed"


class MisdealPage(Page):
    def __init__(self, ctl: TableController, act: Act) -> None:
        super().__init__(ctl, act)
        self.heading = label(role="heading")
        self.todo = label()
        self.keypad = NumberPad(hint="count by hand and enter the number of cards (a "
                                     "supervisor's card enters it), or count them in the "
                                     "shuffler")
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
        if r.deck_count_due and r.last_count is not None:
            self.todo.setText(f"The deck counted {r.last_count} cards, not 53: look for the "
                              "missing or extra cards (floor, discard rack, shuffler), then "
                              "count again. Every wager stays.")
        elif r.deck_count_due:
            self.todo.setText(f"{todo.capitalize()}. Play goes on only when the count is 53; "
                              "every wager stays.")
        elif r.misdeal_reason in ("not_four_left", "card_count_error"):
            self.todo.setText("The deck is counted. Redeal: every wager stays.")
        else:  # Catfish Bend, "Irregularities": a count follows items 1 and 5 only
            self.todo.setText("No deck count is due for this misdeal. Gather the hands and "
                              "redeal: every wager stays.")
        self.keypad.setVisible(r.deck_count_due)
        self.keypad.set_validator(lambda n: self.ctl.check_on_card(c.DeckCounted(n)))

    def _counted(self, count: int) -> None:
        """A count by hand: entered on a supervisor's card (the round takes none without)."""
        self.act(lambda: self.ctl.do_or_card(c.DeckCounted(count),
                                             f"enter the deck count of {count} cards"))


class HandPage(Page):
    """A hand in focus, large: the banker's set the House Way with the chart line that set it,
    or a player's hand set the House Way on request or by touching the two cards of the low
    hand (a foul is shown at once, with what the profile does with it)."""

    def __init__(self, ctl: TableController, act: Act) -> None:
        super().__init__(ctl, act)
        self.heading = label(role="heading")
        self.cards = CardRow(card_height=theme.CARD_HEIGHT, grows=True)
        self.cards.tapped.connect(self._tap)
        self.detail = label()
        self.detail.setTextFormat(Qt.TextFormat.RichText)  # the House Way's cards in colour
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
        self._house_after = False  # the house's hand is set once the player banker's is

    def show_view(self, view: TableSnapshot, focus: int | None) -> None:
        r = view.round
        self._banker = r.phase is Phase.BANKER_SET
        self._house_after = self._banker and r.house_hand_last
        todo = r.players_to_set()
        # Catfish Bend, "Irregularities": a hand reset after a first foul may be set again
        again = [s for s, how in r.set_how.items() if how == "foul_reset_house_way"
                 and view.why_not(c.SetPlayerHand(s)) is None]
        seat = r.banker_seat if self._banker else (
            focus if focus in todo or focus in again else (todo[0] if todo else None))
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
        self.heading.setText(f"{name}'s hand" + (" (the banker)" if self._banker else "")
                             + (": one more try after a foul" if seat in r.second_chances
                                else ""))
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
            if preview.foul and self._banker:
                # the banker never plays a foul hand (rules README, "Setting and comparing
                # hands"; Catfish Bend, "Player Banker"): the round resets it
                said = ("FOUL: the low hand beats the high hand. The banker's hand is then set "
                        "the House Way.")
            elif preview.foul:
                said = (f"FOUL: the low hand beats the high hand. "
                        f"{preview.consequence.capitalize()}.")
            else:
                said = "Set by the player: not foul."
            self.detail.setText(escape(said))
            self._loud(preview.foul)
            self.own.setEnabled(True)
        else:
            self.cards.set_cards(format_cards(self._hand).split())
            self.cards.set_selected(self._low)
            self._loud(False)
            then = ("or touch the two cards of the low hand"
                    + ("; then the house's hand is turned over and set the House Way"
                       if self._house_after else "")
                    if not self._banker or self._house_after else "")
            self.detail.setText(f"House Way: {setting_on_dark(way, self.four_colour)} - "
                                f"{escape(way.rule)}" + (f"<br>{escape(then)}" if then else ""))
            self.own.setEnabled(False)

    def _loud(self, foul: bool) -> None:
        """A foul is said as loudly as a refusal."""
        role = "refusal" if foul else ""
        if self.detail.property("role") != role:
            self.detail.setProperty("role", role)
            self.detail.style().unpolish(self.detail)
            self.detail.style().polish(self.detail)

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


class PageStack(QWidget):
    """The phase's page, one shown at a time, each inside its own scroll area: a page takes
    the room the window gives it and scrolls what does not fit, so no page makes the window
    taller than the screen. Only the page shown counts for the window's size."""

    def __init__(self) -> None:
        super().__init__()
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self.pages: list[QWidget] = []
        self._areas: list[Scroller] = []

    def addWidget(self, page: QWidget) -> None:
        area = Scroller(page)
        self.pages.append(page)
        self._areas.append(area)
        self._layout.addWidget(area)
        area.setVisible(len(self.pages) == 1)

    def indexOf(self, page: QWidget) -> int:
        return self.pages.index(page) if page in self.pages else -1

    def currentWidget(self) -> QWidget | None:
        return next((p for p, a in zip(self.pages, self._areas, strict=True)
                     if not a.isHidden()), None)

    def setCurrentWidget(self, page: QWidget) -> None:
        for other, area in zip(self.pages, self._areas, strict=True):
            if other is not page:
                area.hide()
        self._areas[self.pages.index(page)].show()


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

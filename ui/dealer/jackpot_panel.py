"""The dealer's jackpot panel (End page): pick the game, the winner's seat and the hand
button; the marked hits in the order they will be paid, with the card each needs and each
meter as it will be after the hits before it; CONFIRM, then the swipe.

Washington document, "Face Up Pai Gow Poker Jackpot Rules of Play" item 9: the dealer selects
the seat, then the hand button (pressed again, it takes back the dealer's own press, never a
mark the console read from the cards); a supervisor confirms
by card (an executive above the game's level); several meter pays are paid in order. Where the
profile asks for a PIN (``pin_required``), an accepted card brings up a masked number pad for
the confirmer's PIN (the controller checks it, ``TableSnapshot.jackpot_pin_for``). The panel
sends each touch to the controller (the keypad's buttons take the same path) and draws what the
view says; it decides no rule itself.
"""

from __future__ import annotations

import contextlib
import textwrap
from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from dealer_console.controller import TableController, TableSnapshot
from dealer_console.controller.view import ConfirmedHit, Level, PendingHit
from dealer_console.employees.pins import PIN_MAX
from dealer_console.errors import Refusal, RefusalCode
from dealer_console.money import format_cents
from ui import theme
from ui.widgets.kit import label as _label
from ui.widgets.kit import restyle as _restyle
from ui.widgets.number_pad import NumberPad
from ui.widgets.touch import ButtonRole, TouchButton

Act = Callable[[Callable[[], object]], bool]

NEEDS = {"supervisor": "a supervisor's card", "executive": "an executive's card",
         "two people": "two cards: a supervisor's and an executive's"}
LINE_COLUMNS = 2
LINE_WRAP = 26
"""A hand button's label is wrapped at this many characters: the paytable's words stay whole
and two buttons fit across half the window at 1280 pixels."""
HAND_STYLE = f"font-size: {theme.FONT_SMALL}px; padding: 2px 6px;"
PAID_STYLE = (f"font-size: {theme.FONT_BODY}px; font-weight: bold; color: {theme.TEXT}; "
              f"background: {theme.SURFACE}; border: 2px solid {theme.BORDER}; "
              f"border-radius: {theme.RADIUS}px; padding: 6px 12px;")


def hand_text(number: int, label: str) -> str:
    """A hand button's words: its number on the keypad and the paytable line, wrapped."""
    return textwrap.fill(f"{number}. {label}", LINE_WRAP)


def hit_words(number: int, hit: PendingHit, two_games: bool) -> str:
    """One row of the list: order, seat, hand, amount, whose card, the meter after it."""
    game = f"game {hit.spot}, " if two_games else ""
    text = (f"{number}. Seat {hit.seat} ({game}hand {hit.line_no}): "
            f"{format_cents(hit.amount_cents)}, {NEEDS.get(hit.needs, hit.needs)}\n"
            f"    {hit.label}\n    ")
    if hit.level is not None and hit.meter_before_cents is not None:
        text += (f"{hit.level} meter {format_cents(hit.meter_before_cents)} -> "
                 f"{format_cents(hit.meter_after_cents or 0)}")
    else:
        text += "from the tray; " + ", ".join(
            f"{name} meter stays {format_cents(cents)}" for name, cents in hit.meters_after)
    return text


def accepted_words(hit: ConfirmedHit) -> str:
    if hit.backed_out:
        return (f"BACKED OUT: seat {hit.seat}, {hit.label}, {format_cents(hit.amount_cents)}"
                f", confirmed by {hit.who}; the award and its meter move no longer stand.")
    text = (f"Paid: seat {hit.seat}, {hit.label}, {format_cents(hit.amount_cents)}, "
            f"confirmed by {hit.who}.")
    if hit.level is not None and hit.meter_before_cents is not None:
        shared = f" (shared, link {hit.link})" if hit.link else ""
        text += (f" {hit.level} meter{shared} {format_cents(hit.meter_before_cents)} -> "
                 f"{format_cents(hit.meter_after_cents or 0)}.")
    return text


class JackpotPanel(QWidget):
    def __init__(self, ctl: TableController, act: Act) -> None:
        super().__init__()
        self.ctl = ctl
        self.act = act
        self.game_buttons: dict[int, TouchButton] = {}
        self.seat_buttons: dict[int, TouchButton] = {}
        self.hand_buttons: dict[int, TouchButton] = {}
        self._last: ConfirmedHit | None = None
        self._notice_seen = 0
        self._refusal = ""

        self.games_row = QHBoxLayout()
        self.seats_row = QGridLayout()  # three a row: six seats fit a 1280 px screen
        self.hands_grid = QGridLayout()
        self.games_title = _label("Game", "group")
        self.seats_title = _label("", "group")
        self.hands_title = _label("Hand (press again to undo your own press)", "group")
        self.marking = QWidget()
        marking = QVBoxLayout(self.marking)
        marking.setContentsMargins(0, 0, 0, 0)
        marking.setSpacing(4)  # as the paying column: the room at 1280x800 is tight
        marking.addWidget(self.games_title)
        marking.addLayout(self.games_row)
        marking.addWidget(self.seats_title)
        marking.addLayout(self.seats_row)
        marking.addWidget(self.hands_title)
        marking.addLayout(self.hands_grid, 1)  # the room a large screen has goes to the keys

        self.list_title = _label("Hits in the order they are paid", "group")
        self.hits = _label()
        self.hits.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.result = _label()
        self.confirm = TouchButton("CONFIRM, then swipe the card", ButtonRole.PRIMARY,
                                   money=True)
        self.confirm.clicked.connect(lambda: self.act(self.ctl.arm_confirmation))
        self.cancel = TouchButton("Cancel the swipe", ButtonRole.SECONDARY)
        self.cancel.clicked.connect(lambda: self.act(self.ctl.cancel_jackpot_swipe))
        self.pin_pad = NumberPad(masked=True, max_digits=PIN_MAX, wide=True)
        self.pin_pad.typed.connect(self._enter_pin)
        paying = QVBoxLayout()
        paying.setSpacing(4)  # the room at 1280x800 is the list's
        paying.addWidget(self.list_title)
        paying.addWidget(self.hits)
        paying.addWidget(self.result)  # the swipe's outcome right under the hit it was for
        paying.addStretch(1)
        paying.addWidget(self.confirm)
        paying.addWidget(self.cancel)

        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.pin_box = QWidget()
        """In the marking's place while a confirmer types their PIN (no mark changes then)."""
        pin_layout = QVBoxLayout(self.pin_box)
        pin_layout.setContentsMargins(0, 0, 0, 0)
        pin_layout.addWidget(self.pin_pad)
        pin_layout.addStretch(1)  # keys of a touch size, not the whole height
        self.pin_box.hide()
        layout.addWidget(self.marking, 1)
        layout.addWidget(self.pin_box, 1)
        layout.addLayout(paying, 1)

    # -- drawing -------------------------------------------------------------------------------

    def show_view(self, view: TableSnapshot) -> None:
        self._games(view)
        self._seats(view)
        self._hands(view)
        self._list(view)
        self._result(view)
        self._pin(view)

    def _pin(self, view: TableSnapshot) -> None:
        """The masked pad while a confirmer's card waits for their PIN."""
        who = view.jackpot_pin_for
        if who is None and self.pin_pad.isVisibleTo(self):
            self.pin_pad.clear()
        if who is not None:
            self.pin_pad.set_hint(f"{who}: type your PIN, then OK")
        self.pin_box.setVisible(who is not None)
        self.marking.setVisible(who is None)

    def _games(self, view: TableSnapshot) -> None:
        two = len(view.jackpot_games) > 1
        self.games_title.setVisible(two)
        if set(self.game_buttons) != set(view.jackpot_games):
            for button in self.game_buttons.values():
                button.hide()
                button.deleteLater()
            self.game_buttons = {}
            for spot in view.jackpot_games:
                button = TouchButton(f"Game {spot}")
                button.clicked.connect(self._pick_game(spot))
                self.games_row.addWidget(button)
                self.game_buttons[spot] = button
        for spot, button in self.game_buttons.items():
            button.setVisible(two)
            button.set_role(ButtonRole.PRIMARY if spot == view.jackpot_game
                            else ButtonRole.SECONDARY)

    def _seats(self, view: TableSnapshot) -> None:
        seats = sorted(seat for spot, seat in view.jackpot_wagered if spot == view.jackpot_game)
        if list(self.seat_buttons) != seats:
            for button in self.seat_buttons.values():
                button.hide()
                button.deleteLater()
            self.seat_buttons = {}
            for index, seat in enumerate(seats):
                button = TouchButton(f"Seat {seat}")
                button.clicked.connect(self._pick_seat(seat))
                self.seats_row.addWidget(button, index // 3, index % 3)
                self.seat_buttons[seat] = button
        self.seats_title.setText("No jackpot wager on this game this round")
        self.seats_title.setVisible(not seats)
        for seat, button in self.seat_buttons.items():
            button.set_role(ButtonRole.PRIMARY if seat == view.jackpot_selected
                            else ButtonRole.SECONDARY)

    def _hands(self, view: TableSnapshot) -> None:
        wanted = [hand_text(i, label) for i, label in enumerate(view.jackpot_lines, 1)]
        if [b.text() for b in self.hand_buttons.values()] != wanted:
            for button in self.hand_buttons.values():
                button.hide()
                button.deleteLater()
            self.hand_buttons = {}
            for index, text in enumerate(wanted):
                number = index + 1
                button = TouchButton(text)
                button.setStyleSheet(HAND_STYLE)
                button.setSizePolicy(QSizePolicy.Policy.Expanding,
                                     QSizePolicy.Policy.Expanding)
                button.setMaximumHeight(theme.MONEY_MIN + theme.SPACING * 2)
                button.clicked.connect(self._press_hand(number))
                self.hands_grid.addWidget(button, index // LINE_COLUMNS, index % LINE_COLUMNS)
                self.hand_buttons[number] = button
        selected = view.jackpot_selected
        for number, button in self.hand_buttons.items():
            button.setEnabled(selected is not None)
            marked = (view.jackpot_game, selected, number) in view.jackpot_marked
            button.set_role(ButtonRole.PRIMARY if marked else ButtonRole.SECONDARY)

    def _list(self, view: TableSnapshot) -> None:
        pending = view.jackpot_pending
        two = len(view.jackpot_games) > 1
        rows = [hit_words(i, p, two) for i, p in enumerate(pending, 1)]
        if not rows:
            rows = ["No jackpot hand is marked."]
        elif view.jackpot_asking is not None:
            rows.append(f"Card accepted: the jackpot link is paying {view.jackpot_asking}. "
                        "Wait: the award shows here.")
        elif view.jackpot_pin_for is not None:
            rows.append(f"{view.jackpot_pin_for}: card accepted; nothing is paid until the "
                        "right PIN is typed on the pad.")
        elif view.jackpot_held is not None:
            rows.append(f"{view.jackpot_held} confirmed first; nothing is paid yet. The "
                        f"second person swipes now for seat {pending[0].seat}.")
        elif view.jackpot_armed and any(d.name == "keypad" for d in view.faults):
            rows.append("The card reader (the jackpot keypad) is not connected: no swipe "
                        "can be read. Plug it back, or Cancel the swipe.")
        elif view.jackpot_armed:
            rows.append(f"Swipe {NEEDS.get(pending[0].needs, 'a card')} now for seat "
                        f"{pending[0].seat}.")
        self.hits.setText("\n".join(rows))
        # once pressed, the button gives its room to the swipe's prompt and outcome
        self.confirm.setVisible(bool(pending) and not view.jackpot_armed)
        self.cancel.setVisible(view.jackpot_armed)

    def _result(self, view: TableSnapshot) -> None:
        """The last swipe's outcome: a refusal while the swipe is still awaited, else the last
        award with its meter."""
        notice = view.notice
        if notice is not None and notice.number != self._notice_seen:
            self._notice_seen = notice.number
            if notice.code is RefusalCode.NOT_SAVED and view.jackpot_armed:
                # the disk's, not the hit's: a hit the link paid may wait for it to be saved
                self._refusal = f"{notice.what}. {notice.todo[:1].upper()}{notice.todo[1:]}."
            elif notice.level is Level.REFUSED and view.jackpot_armed:
                self._refusal = f"Refused: {notice.what}. Nothing was paid."
            else:  # a later step went through (a first of two held, a PIN right): the
                self._refusal = ""  # earlier refusal is stale (issue 23: it stayed on top)
        if not view.jackpot_armed or view.jackpot_last is not self._last:
            self._refusal = ""  # CANCEL, or the right card came
        self._last = view.jackpot_last
        if self._refusal:
            self.result.setText(self._refusal)
            _restyle(self.result, "refusal")
        elif view.jackpot_last is not None:
            self.result.setText(accepted_words(view.jackpot_last))
            _restyle(self.result, "", PAID_STYLE)
        else:
            self.result.setText("")
        self.result.setVisible(bool(self.result.text()))

    # -- touches -------------------------------------------------------------------------------

    def _pick_game(self, spot: int) -> Callable[[], object]:
        return lambda: self.act(lambda: self.ctl.select_jackpot_game(spot))

    def _pick_seat(self, seat: int) -> Callable[[], object]:
        return lambda: self.act(lambda: self.ctl.jackpot_seat(seat))

    def _enter_pin(self, digits: str) -> None:
        """A wrong PIN is told once, under the hit (the notice): through ``act`` the phase bar
        said the same sentence again (issue 23's repeated sentence)."""
        with contextlib.suppress(Refusal):
            self.ctl.enter_pin(digits)

    def _press_hand(self, number: int) -> Callable[[], object]:
        return lambda: self.act(lambda: self.ctl.jackpot_hand(number))

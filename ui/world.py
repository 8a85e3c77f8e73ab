"""In ``--simulated`` mode, a second small window stands in for the world outside the console:
chips put on or taken off the bet sensors, the shuffler's next deal (a card-count error, hands
one by one), the keypad's buttons, a test card of each role swiped, and every cable pulled or
plugged back. Every action goes to a simulated device, and reaches the console only through
that device's real driver."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from PySide6.QtWidgets import QGridLayout, QGroupBox, QLabel, QVBoxLayout, QWidget

from dealer_console.devices.keypad import Button
from drivers.sim.hardware import SimulatedHardware
from drivers.sim.table.choices import SIM_STAFF, UNKNOWN_CARD
from ui.dealer.page_kit import Scroller
from ui.widgets.touch import ButtonRole, TouchButton


class WorldWindow(QWidget):
    def __init__(self, hardware: SimulatedHardware, jackpot_spots: tuple[int, ...]) -> None:
        super().__init__()
        self.hardware = hardware
        self.setWindowTitle("Simulated table - the world outside the console")
        inner = QWidget()
        layout = QVBoxLayout(inner)
        # the window fits any screen: what does not fit scrolls, every key whole
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(Scroller(inner))
        self.resize(1100, 760)
        self.status = QLabel("Everything here acts on the simulated devices.")
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        self.chip_buttons: dict[tuple[int, int], TouchButton] = {}
        self.game_buttons: dict[int, TouchButton] = {}
        """A two-game keypad's game keys, by sensor spot."""
        if hardware.bus is not None and jackpot_spots:
            layout.addWidget(self._sensors(jackpot_spots))
        if hardware.shuffler is not None:
            layout.addWidget(self._shuffler())
        if hardware.keypad is not None:
            layout.addWidget(self._keypad(jackpot_spots))
        layout.addWidget(self._cables())
        layout.addStretch(1)

    def _box(self, title: str) -> tuple[QGroupBox, QGridLayout]:
        box = QGroupBox(title)
        grid = QGridLayout(box)
        return box, grid

    def _button(self, text: str, action: Callable[[], object],
                role: ButtonRole = ButtonRole.SECONDARY) -> TouchButton:
        button = TouchButton(text, role)
        button.clicked.connect(lambda _=False: action())
        return button

    def _sensors(self, spots: tuple[int, ...]) -> QGroupBox:
        box, grid = self._box("Jackpot chips on the bet sensors (touch to put on or take off)")
        for column, seat in enumerate(self.hardware.seats):
            for row, spot in enumerate(spots):
                button = self._button(f"{seat}" + (f"/{spot}" if len(spots) > 1 else ""),
                                      partial(self.toggle_chip, seat, spot))
                button.setCheckable(True)
                grid.addWidget(button, row, column)
                self.chip_buttons[(seat, spot)] = button
        return box

    def toggle_chip(self, seat: int, spot: int) -> None:
        bus = self.hardware.bus
        assert bus is not None
        button = self.chip_buttons[(seat, spot)]
        on = button.isChecked()
        (bus.place if on else bus.take)(seat, spot)
        self.status.setText(f"Chip {'on' if on else 'off'} seat {seat}'s jackpot sensor.")

    def _shuffler(self) -> QGroupBox:
        box, grid = self._box("Shuffler")
        grid.addWidget(self._button("Next deal: card-count error", self.count_error), 0, 0)
        grid.addWidget(self._button("Next deal: hands one a second", self.slow_deal), 0, 1)
        grid.addWidget(self._button("Next deal: normal", self.normal_deal), 0, 2)
        self.deal_button = self._button("Hands on the deal button", self.toggle_deal_button)
        self.deal_button.setCheckable(True)
        grid.addWidget(self.deal_button, 1, 0)
        grid.addWidget(self._button("Deal button: next hand", self.press_deal_button,
                                    ButtonRole.PRIMARY), 1, 1, 1, 2)
        return box

    def toggle_deal_button(self) -> None:
        assert self.hardware.shuffler is not None
        on = self.deal_button.isChecked()
        self.hardware.shuffler.script(deal_button=on)
        self.status.setText("Each hand waits for the shuffler's deal button." if on else
                            "The shuffler delivers the hands by itself.")

    def press_deal_button(self) -> None:
        assert self.hardware.shuffler is not None
        taken = self.hardware.shuffler.press_deal_button()
        self.status.setText("A hand leaves the shuffler." if taken else
                            "No hand waits in the shuffler.")

    def count_error(self) -> None:
        assert self.hardware.shuffler is not None
        self.hardware.shuffler.script(deck_count=52)
        self.status.setText("The shuffler will find 52 cards on its next deal.")

    def slow_deal(self) -> None:
        assert self.hardware.shuffler is not None
        self.hardware.shuffler.script(hand_interval=1.0, shuffle_seconds=2.0)
        self.status.setText("The shuffler shuffles for two seconds, then delivers one hand "
                            "a second.")

    def normal_deal(self) -> None:
        assert self.hardware.shuffler is not None
        self.hardware.shuffler.script(deck_count=53, hand_interval=0.0, shuffle_seconds=0.0)
        self.status.setText("The shuffler deals normally.")

    def _keypad(self, jackpot_spots: tuple[int, ...]) -> QGroupBox:
        box, grid = self._box("Jackpot keypad and card reader")
        keypad = self.hardware.keypad
        assert keypad is not None
        buttons = [Button.START_GAME, Button.END_GAME, Button.CONFIRM, Button.CANCEL,
                   Button.MONEY_BAG]
        # four keys a row: each key wide enough for its words on a 1280 px screen
        for i, button in enumerate(buttons):
            grid.addWidget(self._button(button.name.replace("_", " "),
                                        partial(keypad.tap, button)), i // 4, i % 4)
        for seat in range(1, 8):
            grid.addWidget(self._button(f"Seat {seat}",
                                        partial(keypad.tap, Button.for_seat(seat))),
                           2 + (seat - 1) // 4, (seat - 1) % 4)
        for line in range(1, 9):
            grid.addWidget(self._button(f"Hand {line}",
                                        partial(keypad.tap, Button.for_hand_line(line))),
                           4 + (line - 1) // 4, (line - 1) % 4)
        if len(jackpot_spots) > 1:  # a two-game keypad has a key for each game
            for spot in jackpot_spots:
                self.game_buttons[spot] = self._button(
                    f"Game {spot} key", partial(keypad.tap, Button.for_game(spot)))
                grid.addWidget(self.game_buttons[spot], 1, spot)
        cards = [(f"Swipe {role}'s card", track) for _id, _name, role, track in SIM_STAFF]
        cards.append(("Swipe an unknown card", UNKNOWN_CARD))
        for i, (text, track) in enumerate(cards):
            grid.addWidget(self._button(text, partial(keypad.swipe, track)),
                           6 + i // 2, (i % 2) * 2, 1, 2)
        return box

    def _cables(self) -> QGroupBox:
        box, grid = self._box("Cables")
        for i, name in enumerate(self.hardware.devices):
            grid.addWidget(self._button(f"Unplug {name}", partial(self.unplug, name),
                                        ButtonRole.DANGER), 0, i)
            grid.addWidget(self._button(f"Plug {name} back", partial(self.replug, name)),
                           1, i)
        return box

    def unplug(self, name: str) -> None:
        self.hardware.unplug(name)
        self.status.setText(f"The {name}'s cable is pulled.")

    def replug(self, name: str) -> None:
        self.hardware.replug(name)
        self.status.setText(f"The {name}'s cable is plugged back.")

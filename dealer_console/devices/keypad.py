"""What the jackpot keypad tells the round, and what the round tells the keypad.

Pure values: the USB driver (``drivers.keypad``) turns reports into these events and these
commands into reports, so the round procedure and the screens never see a byte. The buttons
are the ones the Washington jackpot procedure names (../shared/rules/
washington-face-up-pai-gow-and-jackpot.txt, "Face Up Pai Gow Poker Jackpot Rules of Play",
items 6 and 9 d-g): START GAME, a seat select, one button per jackpot hand line, CONFIRM (with
the supervisor's or executive's card swipe), the money bag that prints a win page, END GAME;
plus CANCEL to back out of a selection before it is confirmed.

Connection and disconnection are the common ``DeviceConnected`` / ``DeviceDisconnected`` of
``dealer_console.devices.events``.

Card track data identifies an employee: it is kept out of ``repr`` and ``str`` so that no log
or diagnostic line shows it in clear; :func:`mask_track` gives the form a screen may show.
"""

from __future__ import annotations

import enum
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Final, Protocol

from dealer_console.devices.diagnostics import DeviceDriver
from dealer_console.devices.events import DeviceEvent


class Button(enum.IntEnum):
    """A keypad button; the value is its code on the wire (docs/protocols/keypad.md).

    ``HAND_1`` .. ``HAND_8`` are the paytable's lines counted from the top: the largest
    Washington jackpot paytable (FUPGPP-WA01) has eight lines, the others six, and the overlay
    printed for the table's paytable names each button. Which hand a line means is paytable data,
    not a property of the keypad.
    """

    START_GAME = 0x01
    END_GAME = 0x02
    SEAT_1 = 0x11
    SEAT_2 = 0x12
    SEAT_3 = 0x13
    SEAT_4 = 0x14
    SEAT_5 = 0x15
    SEAT_6 = 0x16
    SEAT_7 = 0x17
    HAND_1 = 0x21
    HAND_2 = 0x22
    HAND_3 = 0x23
    HAND_4 = 0x24
    HAND_5 = 0x25
    HAND_6 = 0x26
    HAND_7 = 0x27
    HAND_8 = 0x28
    CONFIRM = 0x30
    CANCEL = 0x31
    MONEY_BAG = 0x32
    GAME_1 = 0x41
    GAME_2 = 0x42
    """A two-game layout's game keys (Washington document, "House Jackpot and Progressive
    Jackpots": up to two jackpot games per layout, one per sensor): the game of sensor spot 1
    or 2, which the seat and hand buttons act on until the other key is pressed. A one-game
    keypad has neither."""

    @property
    def seat(self) -> int | None:
        """The seat 1-7 this button selects, or None."""
        if Button.SEAT_1 <= self <= Button.SEAT_7:
            return int(self) - int(Button.SEAT_1) + 1
        return None

    @property
    def hand_line(self) -> int | None:
        """The paytable line 1-8 (from the top) this button names, or None."""
        if Button.HAND_1 <= self <= Button.HAND_8:
            return int(self) - int(Button.HAND_1) + 1
        return None

    @property
    def game(self) -> int | None:
        """The jackpot game (its sensor spot, 1 or 2) this game key picks, or None."""
        if Button.GAME_1 <= self <= Button.GAME_2:
            return int(self) - int(Button.GAME_1) + 1
        return None

    @classmethod
    def for_game(cls, spot: int) -> Button:
        if not 1 <= spot <= 2:
            raise ValueError(f"jackpot game {spot} is not 1 or 2")
        return cls(int(cls.GAME_1) + spot - 1)

    @classmethod
    def for_seat(cls, seat: int) -> Button:
        if not 1 <= seat <= 7:
            raise ValueError(f"seat {seat} is not 1-7")
        return cls(int(cls.SEAT_1) + seat - 1)

    @classmethod
    def for_hand_line(cls, line: int) -> Button:
        if not 1 <= line <= HAND_LINES:
            raise ValueError(f"hand line {line} is not 1-{HAND_LINES}")
        return cls(int(cls.HAND_1) + line - 1)


HAND_LINES: Final = 8
"""Hand-line buttons on the keypad: the longest jackpot paytable (FUPGPP-WA01) has 8 lines."""


class LedMode(enum.IntEnum):
    """How the light behind one button shows; the value is its code on the wire."""

    OFF = 0
    ON = 1
    BLINK_SLOW = 2
    BLINK_FAST = 3


class BadReadReason(enum.IntEnum):
    """Why the card reader rejected a swipe; the value is its code on the wire."""

    NO_DATA = 1
    """Nothing readable: no start sentinel found."""
    PARITY = 2
    """A character failed its parity bit."""
    LRC = 3
    """The longitudinal redundancy check at the end of the track did not match."""
    LENGTH = 4
    """No end sentinel within the track's length."""
    UNKNOWN = 0xFF


@dataclass(frozen=True, slots=True, kw_only=True)
class KeypadEvent(DeviceEvent):
    """Base of the keypad's own events.

    ``session`` and ``number`` are the keypad's: a session id fixed until the keypad's memory
    is wiped, and the event's number in it (1, 2, 3, ... across replugs and console restarts).
    Together they name the fact, so a round that stored an event can refuse its repeat.
    """

    session: int
    number: int
    kept: bool = False
    """Sent at once after the cable was plugged back: pressed (or swiped) while it was out,
    maybe in an earlier round (``drivers/keypad/device.py``, ``KEPT_WINDOW``)."""

    @property
    def key(self) -> Hashable:
        return ("keypad", self.device, self.session, self.number)


@dataclass(frozen=True, slots=True, kw_only=True)
class ButtonPressed(KeypadEvent):
    button: Button


@dataclass(frozen=True, slots=True, kw_only=True)
class ButtonReleased(KeypadEvent):
    button: Button


TRACK2_CHARS: Final = frozenset("0123456789:;<=>?")
"""ISO/IEC 7811 track 2 carries 4-bit characters: digits and ``: ; < = > ?``."""

TRACK2_MAX: Final = 37
"""Data characters of track 2 between its sentinels (40 with start, end sentinel and LRC)."""


def check_track2(track: str) -> str:
    """Return ``track`` if it is valid track-2 data (sentinels stripped), else raise ValueError.

    The message never repeats the data itself: it may be a real card.
    """
    if not 1 <= len(track) <= TRACK2_MAX:
        raise ValueError(f"track 2 data must hold 1-{TRACK2_MAX} characters, not {len(track)}")
    bad = [i for i, ch in enumerate(track) if ch not in TRACK2_CHARS or ch in ";?"]
    if bad:
        raise ValueError(
            f"track 2 data has a character outside 0-9 : < = > at position {bad[0] + 1}"
        )
    return track


def mask_track(track: str, shown: int = 4) -> str:
    """The last ``shown`` characters of ``track``, the rest as ``*``: what a screen may show."""
    if len(track) <= shown:
        return "*" * len(track)
    return "*" * (len(track) - shown) + track[-shown:]


@dataclass(frozen=True, slots=True, kw_only=True)
class CardSwiped(KeypadEvent):
    """An employee card read cleanly: ``track`` is its track 2 data without the sentinels.

    ``track`` is left out of repr; use :attr:`masked` for display.
    """

    track: str = field(repr=False)

    def __post_init__(self) -> None:
        check_track2(self.track)

    @property
    def masked(self) -> str:
        return mask_track(self.track)

    def __str__(self) -> str:
        return f"card swiped {self.masked}"


@dataclass(frozen=True, slots=True, kw_only=True)
class BadRead(KeypadEvent):
    """A swipe the reader could not read: the dealer asks for another swipe."""

    reason: BadReadReason


@dataclass(frozen=True, slots=True)
class SetLeds:
    """Command: the whole LED state. Buttons not named are off, so a repeat is harmless."""

    modes: tuple[tuple[Button, LedMode], ...] = ()

    @classmethod
    def of(cls, modes: dict[Button, LedMode]) -> SetLeds:
        return cls(tuple(sorted((b, m) for b, m in modes.items() if m is not LedMode.OFF)))

    def mode(self, button: Button) -> LedMode:
        for b, m in self.modes:
            if b is button:
                return m
        return LedMode.OFF

    @classmethod
    def all(cls, mode: LedMode) -> SetLeds:
        """Every light in ``mode``: the technician's light test."""
        return cls.of({b: mode for b in Button})


class KeypadControl(DeviceDriver, Protocol):
    """What the table controller asks of the jackpot keypad (``drivers.keypad`` fulfils it);
    its buttons and the card reader's swipes arrive as events."""

    def set_leds(self, command: SetLeds) -> None:
        """Light the buttons: the next step lit, the others dark or blinking."""

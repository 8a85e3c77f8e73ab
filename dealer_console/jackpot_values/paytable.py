"""Jackpot paytables: which seven-card hands win and how each is paid.

Washington document, "Face Up Pai Gow Poker Jackpot Paytables": a line pays either a percentage
of a meter (``100%``, ``10%``; ML02 names the meter: Mega, Major or Minor) or a fixed "N for 1"
on the fixed wager, the wager not returned. Lines are listed top first; line ``n`` is the keypad's
``HAND_n`` button (``dealer_console/devices/keypad.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from dealer_console.errors import ConsoleError
from dealer_console.paytables import Paytable, PaytableKind, get_paytable
from dealer_console.seven import FortuneClass

MAIN_LEVEL = "main"
"""The name of the only meter of a one-meter paytable (WA01, WA03, WA07)."""


class PaytableError(ConsoleError, ValueError):
    """A jackpot paytable that cannot be played: no lines, a bad percentage, an unknown level."""


@dataclass(frozen=True, slots=True)
class MeterPay:
    """A percentage of one meter, taken from the meter as it stands when the hit is paid."""

    level: str
    percent: Fraction

    @property
    def is_full(self) -> bool:
        """A 100% award empties the meter, which is then reset to seed plus reserve."""
        return self.percent == 100

    def __str__(self) -> str:
        pct = str(self.percent) if self.percent.denominator == 1 else f"{float(self.percent):g}"
        return f"{pct}% {self.level}"


@dataclass(frozen=True, slots=True)
class FixedPay:
    """``for_one`` times the fixed wager; the wager itself is not returned."""

    for_one: int

    def __str__(self) -> str:
        return f"{self.for_one:,} for 1"


Pay = MeterPay | FixedPay


@dataclass(frozen=True, slots=True)
class JackpotLine:
    """One paytable line: the hands it covers (usually one class) and its pay."""

    label: str
    hands: tuple[FortuneClass, ...]
    pay: Pay

    @property
    def order(self) -> int:
        return min(h.order for h in self.hands)


@dataclass(frozen=True, slots=True)
class JackpotPaytable:
    """A jackpot paytable: its name, its meters (levels) and its lines, top first."""

    name: str
    lines: tuple[JackpotLine, ...]

    def __post_init__(self) -> None:
        if not self.lines:
            raise PaytableError(f"jackpot paytable {self.name}: it has no lines")
        orders = [line.order for line in self.lines]
        if orders != sorted(orders) or len(set(orders)) != len(orders):
            raise PaytableError(
                f"jackpot paytable {self.name}: lines must be listed top hand first, one per hand"
            )
        for line in self.lines:
            pay = line.pay
            if isinstance(pay, MeterPay) and not 0 < pay.percent <= 100:
                raise PaytableError(
                    f"jackpot paytable {self.name}, line {line.label!r}: a meter pay must be "
                    f"more than 0% and at most 100%, not {pay.percent}%"
                )
            if isinstance(pay, FixedPay) and pay.for_one <= 0:
                raise PaytableError(
                    f"jackpot paytable {self.name}, line {line.label!r}: "
                    f"{pay.for_one} for 1 is not a pay"
                )

    @property
    def levels(self) -> tuple[str, ...]:
        """The meters this paytable draws on, top line's first; one-meter tables have one."""
        seen: list[str] = []
        for line in self.lines:
            if isinstance(line.pay, MeterPay) and line.pay.level not in seen:
                seen.append(line.pay.level)
        return tuple(seen) or (MAIN_LEVEL,)

    def line(self, number: int) -> JackpotLine:
        """Line ``number`` counted from 1 at the top (the keypad's hand button)."""
        if not 1 <= number <= len(self.lines):
            raise PaytableError(
                f"jackpot paytable {self.name} has lines 1-{len(self.lines)}, not {number}"
            )
        return self.lines[number - 1]

    def number_of(self, line: JackpotLine) -> int:
        return self.lines.index(line) + 1


def from_paytable(table: Paytable) -> JackpotPaytable:
    """The jackpot view of a shipped paytable (``config/paytables``).

    The data lists one line per Fortune class; where the printed table has one line for two
    classes (WA03's and ML02's "7 Card Straight Flush" covers the natural and the wild one) the
    data gives both the same pay, and adjacent lines with the same pay are merged back into the
    printed line, so line numbers match the keypad's hand buttons and the table's overlay.
    """
    if table.kind is not PaytableKind.JACKPOT:
        raise PaytableError(f"paytable {table.name} is a {table.kind.value} table, not a jackpot")
    lines: list[JackpotLine] = []
    for src in table.lines:
        pay: Pay
        if src.for_one is not None:
            pay = FixedPay(src.for_one)
        else:
            assert src.meter_percent is not None and src.meter is not None
            pay = MeterPay(src.meter, Fraction(src.meter_percent))
        hand = FortuneClass(src.id)
        if lines and lines[-1].pay == pay:
            prev = lines[-1]
            lines[-1] = JackpotLine(prev.label, (*prev.hands, hand), pay)
        else:
            lines.append(JackpotLine(src.label, (hand,), pay))
    return JackpotPaytable(table.name, tuple(lines))


def load(name: str) -> JackpotPaytable:
    """The shipped jackpot paytable called ``name`` (``fupgpp-wa01``...)."""
    return from_paytable(get_paytable(name))

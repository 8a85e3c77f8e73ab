"""Money as integer cents: reading what an operator writes and printing what a dealer reads.

Rules README, "Money and settlement": money is integer cents, never a float. Config files write
amounts in dollars as strings (``"$5"``, ``"$25,000.00"``) so an operator reads them as posted
at the table; this module turns them into cents exactly, without passing through a float.
"""

from __future__ import annotations

import re
from typing import Final

from dealer_console.errors import ConsoleError
from dealer_console.input_checks import shown

# ASCII digits only: ``\d`` would also take fullwidth and other scripts' digits ("１００"),
# which int() reads but a dealer or an auditor may misread. At most 15 digits of dollars, so
# any amount fits a 64-bit integer of cents.
_MONEY_RE: Final = re.compile(r"^\$?([0-9]{1,3}(?:,[0-9]{3}){0,4}|[0-9]{1,15})(?:\.([0-9]{1,2}))?$")


class MoneyError(ConsoleError, ValueError):
    """Text that is not an amount of money in dollars and cents."""


def parse_cents(text: str) -> int:
    """``"$1,000"`` -> 100000, ``"5.5"`` -> 550. Negative amounts and fractions of a cent are
    refused: no table amount is either."""
    token = text.strip().replace(" ", "")
    match = _MONEY_RE.match(token)
    if match is None:
        raise MoneyError(
            f"{shown(text)} is not an amount of money: write dollars like \"$5\", \"$25,000\" or "
            "\"$12.50\" (at most two decimals, no minus sign)"
        )
    dollars, cents = match.groups()
    return int(dollars.replace(",", "")) * 100 + int((cents or "0").ljust(2, "0"))


def format_cents(cents: int, *, sign: bool = False) -> str:
    """``150000`` -> ``"$1,500.00"``; with ``sign`` a gain shows ``+`` and a loss ``-``."""
    prefix = "-" if cents < 0 else ("+" if sign and cents > 0 else "")
    dollars, rest = divmod(abs(cents), 100)
    return f"{prefix}${dollars:,}.{rest:02d}"


def percent_of(cents: int, basis_points: int) -> int:
    """``basis_points``/10000 of ``cents``, rounded down to the cent (5% is 500 points)."""
    return cents * basis_points // 10_000


_CENTS_IN_TEXT: Final = re.compile(r"\b(-?[0-9]{1,18}) cents\b")


def dollars_in_text(text: str) -> str:
    """``text`` as a person reads it: each "N cents" written as dollars ("250045 cents" ->
    "$2,500.45"). For showing only: a stored text keeps its words (the audit hashes them)."""
    return _CENTS_IN_TEXT.sub(lambda m: format_cents(int(m.group(1))), text)

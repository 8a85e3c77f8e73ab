"""Argument types with limits, for every command's ``add_argument(type=...)``.

``argparse`` with ``type=int`` takes an integer of any size (SQLite then refuses it with a
traceback) and fullwidth digits; ``type=float`` takes ``nan`` and ``inf``; a bare string takes
100,000 characters or control characters. These types refuse all of that with a message that
names the option, and :func:`dealer_console.cli.main` prints it as one line with status 2.
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable

from dealer_console.input_checks import (
    InputError,
    check_path_text,
    check_text,
    is_plain_name,
    shown,
)

SQLITE_MAX_INT = 2**63 - 1
"""The largest integer SQLite stores; an id or a count above it cannot be looked up."""

_INTEGER = re.compile(r"[+-]?[0-9]{1,19}")
_DECIMAL = re.compile(r"[+-]?(?:[0-9]{1,9}(?:\.[0-9]{0,9})?|\.[0-9]{1,9})")


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """A whole number from ``low`` to ``high``, in ASCII digits."""
    if not -SQLITE_MAX_INT <= low <= high <= SQLITE_MAX_INT:
        raise ValueError(f"limits {low}..{high} are not within SQLite's integers")

    def parse(text: str) -> int:
        value = text.strip()
        if not _INTEGER.fullmatch(value) or not low <= int(value) <= high:
            raise argparse.ArgumentTypeError(
                f"{shown(text)} is not a whole number from {low:,} to {high:,} (digits 0-9)")
        return int(value)

    parse.__name__ = "whole number"
    return parse


def decimal(low: float, high: float, what: str = "a number") -> Callable[[str], float]:
    """A finite decimal from ``low`` to ``high`` in ASCII digits (no ``nan``, ``inf`` or
    exponent, which ``float`` would take)."""

    def parse(text: str) -> float:
        value = text.strip()
        number = float(value) if _DECIMAL.fullmatch(value) else math.nan
        if not low <= number <= high:  # also false for nan
            raise argparse.ArgumentTypeError(
                f"{shown(text)} is not {what} from {_figure(low)} to {_figure(high)}")
        return number

    parse.__name__ = what
    return parse


def _figure(x: float) -> str:
    return f"{int(x):,}" if x.is_integer() else f"{x:g}"


def seconds(low: float, high: float) -> Callable[[str], float]:
    """A finite number of seconds from ``low`` to ``high``."""
    return decimal(low, high, "a number of seconds")


def label(max_chars: int) -> Callable[[str], str]:
    """A name or a free-text label: 1 to ``max_chars`` characters, no control characters."""

    def parse(text: str) -> str:
        try:
            return check_text(text, "", max_chars).strip()
        except InputError as exc:
            raise argparse.ArgumentTypeError(str(exc).removeprefix(": ")) from None

    parse.__name__ = "label"
    return parse


def file_path(text: str) -> str:
    """A path as typed: not empty, no part longer than the system allows."""
    try:
        return check_path_text(text, "path")
    except InputError as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix("path: ")) from None


def profile_ref(text: str) -> str:
    """A shipped profile's name or the path of a profile TOML file."""
    if text.endswith(".toml") or "/" in text:
        return file_path(text)
    if not is_plain_name(text):
        raise argparse.ArgumentTypeError(
            f"{shown(text)} is neither a profile name (1-64 letters, digits, '-', '_', '.') nor "
            "the path of a .toml file")
    return text


def moment(text: str) -> str:
    """A date and time in ISO 8601 (``2026-11-23T18:00``, ``2026-11-23 18:00+01:00``, or a
    date alone for its midnight), UTC when no zone is given; returned as UTC ISO text, the
    way the table's logs record times."""
    from datetime import UTC, datetime

    value = text.strip()
    try:
        if not value.isascii() or len(value) > 40:
            raise ValueError
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{shown(text)} is not a date and time like 2026-11-23T18:00 (UTC unless a zone "
            "such as +01:00 follows)") from None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.astimezone(UTC).isoformat(timespec="microseconds")


def pin(text: str) -> str:
    """A PIN read from standard input: 4 to 8 digits (``dealer_console/employees/pins.py``).
    The refusal never repeats what was typed: a PIN is not echoed, logged or printed."""
    from dealer_console.employees.pins import check_pin
    from dealer_console.employees.registry import RegistryError

    try:
        return check_pin(text)
    except RegistryError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None

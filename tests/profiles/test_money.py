"""Money text <-> integer cents, exactly, with no float on the way."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dealer_console.money import MoneyError, format_cents, parse_cents, percent_of


@given(st.integers(0, 10**12))
def test_format_then_parse_round_trips(cents: int) -> None:
    assert parse_cents(format_cents(cents)) == cents


@pytest.mark.parametrize(("text", "cents"), [
    ("$5", 500), ("5", 500), ("$25,000", 2_500_000), ("$12.5", 1250), ("0.07", 7),
    ("$1,000,000.99", 100_000_099),
])
def test_parse(text: str, cents: int) -> None:
    assert parse_cents(text) == cents


@pytest.mark.parametrize("text", ["-5", "$5.001", "5,00", "1e3", "", "$", "five", "$1,0000"])
def test_refused(text: str) -> None:
    with pytest.raises(MoneyError, match="not an amount of money"):
        parse_cents(text)


def test_signed_format_and_percent() -> None:
    assert format_cents(-150) == "-$1.50"
    assert format_cents(150, sign=True) == "+$1.50"
    assert percent_of(3500, 500) == 175
    assert percent_of(1110, 500) == 55  # 55.5 cents rounds down to the cent

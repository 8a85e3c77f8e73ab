"""Every golden line of every House Way: the chart's setting (by value) and the line named."""

from __future__ import annotations

import pytest

from dealer_console.house_ways import NAMES, set_house_way
from dealer_console.setting import setting_values
from tests.house_ways.golden import GoldenLine, read

CASES = [(name, line) for name in NAMES for line in read(name)]


@pytest.mark.parametrize(("name", "line"), CASES, ids=[f"{n}-{ln.where}" for n, ln in CASES])
def test_golden_setting(name: str, line: GoldenLine) -> None:
    actual = set_house_way(name, line.cards, line.rules)
    assert (actual.rule, setting_values(actual, line.rules)) == (
        line.rule,
        setting_values(line.expected, line.rules),
    ), f"{line.where}: got {actual} ({actual.rule}), expected {line.expected}"
    assert sorted(actual.cards) == sorted(line.cards)


@pytest.mark.parametrize("name", NAMES)
def test_every_chart_line_has_golden_data(name: str) -> None:
    """Each chart line named by the code appears in the golden file (see CHART_LINES)."""
    named = {line.rule for line in read(name)}
    missing = [rule for rule in CHART_LINES[name] if not any(rule in n for n in named)]
    assert not missing, f"{name}: chart lines without golden data: {missing}"


# One fragment per chart line (and per branch of a line): each must be in some golden rule.
CHART_LINES = {
    "california": [
        "high card",
        "one pair",
        "two pair: high pair A-Q",
        "two pair: high pair J-9, ace in front",
        "two pair: high pair J-9, no ace",
        "two pair: high pair 8-6, king or higher in front",
        "two pair: high pair 8-6, no king",
        "two pair: high pair 5-3, queen or higher in front",
        "two pair: high pair 5-3, no queen",
        "three pair",
        "three of a kind aces",
        "three of a kind kings and below",
        "two three of a kinds",
        "full house",
        "straight/flush with no pair",
        "straight/flush with one pair",
        "straight/flush with two pair: pair in front",
        "straight/flush with two pair, no pair can go up",
        "straight/flush with three of a kind",
        "four of a kind A-Q",
        "four of a kind J-9, king or higher in front",
        "four of a kind J-9, no king",
        "four of a kind 8-6, queen or higher in front",
        "four of a kind 8-6, no queen",
        "four of a kind 5 or below",
        "four of a kind with a pair",
        "five aces",
    ],
    "oxford_downs": [
        "no pair",
        "one pair",
        "two pairs: high pair A-Q",
        "two pairs: high pair J-9, ace in front",
        "two pairs: high pair J-9, no ace",
        "two pairs: high pair 8-6, king or higher in front",
        "two pairs: high pair 8-6, no king",
        "two pairs: high pair 5-3, queen or higher in front",
        "two pairs: high pair 5-3, no queen",
        "three pairs",
        "three of a kind aces",
        "three of a kind kings and below",
        "two sets of three of a kind",
        "straight/flush with no pair",
        "straight/flush with one pair",
        "straight/flush with two pairs",
        "straight/flush with three of a kind",
        "full house",
        "four of a kind A-Q",
        "four of a kind J-9, king or higher in front",
        "four of a kind J-9, no king",
        "four of a kind 8-6, queen or higher in front",
        "four of a kind 8-6, no queen",
        "four of a kind 5 or below",
        "four of a kind with a pair",
        "five aces",
    ],
    "catfish_bend": [
        "no pairs",
        "one pair",
        "two pair H-H",
        "two pair H-M",
        "two pair H-L, ace",
        "two pair H-L, no ace",
        "two pair M-M, ace",
        "two pair M-M, no ace",
        "two pair M-L, ace",
        "two pair M-L, no ace",
        "two pair L-L",
        "three pairs",
        "three of a kind:",
        "three of a kind aces",
        "full house:",
        "full house with a pair",
        "two three of a kinds",
        "straight or flush, no pairs",
        "straight or flush, one pair",
        "straight and flush",
        "straight or flush with two pairs, no pair for Low",
        "straight or flush with two pairs, joker completes it",
        "straight or flush with two pairs, joker as the 2nd pair",
        "straight or flush with three of a kind: straight or flush in High",
        "straight or flush with three of a kind, the joker as the third ace",
        "four of a kind: two pair rule H-H",
        "four of a kind: two pair rule M-M, ace",
        "four of a kind: two pair rule M-M, no ace",
        "four of a kind: two pair rule L-L",
        "four of a kind, one pair",
        "four of a kind, three of a kind: highest pair",
        "four of a kind, three of a kind: aces and kings",
        "five aces: split",
        "five aces, odd cards kings",
    ],
}

"""House Ways, looked up by the name a table profile gives (``house_way`` option).

Each chart is one module exposing ``set_hand(cards, rules) -> Setting``; the returned
``Setting.rule`` names the chart line applied. Adding a casino's House Way is a new module and
one line in ``_MODULES``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import import_module

from dealer_console.cards import Card
from dealer_console.hands import DEFAULT_RULES, HandRules
from dealer_console.setting import Setting

HouseWay = Callable[[Sequence[Card], HandRules], Setting]

_MODULES = {
    "california": "dealer_console.house_ways.california",
    "oxford_downs": "dealer_console.house_ways.oxford_downs",
    "catfish_bend": "dealer_console.house_ways.catfish_bend",
}

NAMES = tuple(_MODULES)


def get(name: str) -> HouseWay:
    """The House Way called ``name``; an unknown name is a ``KeyError`` listing the known ones."""
    try:
        module = import_module(_MODULES[name])
    except KeyError:
        raise KeyError(f"unknown House Way {name!r}; known: {', '.join(NAMES)}") from None
    set_hand: HouseWay = module.set_hand
    return set_hand


def set_house_way(name: str, cards: Sequence[Card], rules: HandRules = DEFAULT_RULES) -> Setting:
    """Set seven cards the House Way called ``name``."""
    return get(name)(cards, rules)

"""Reading the cards a rich-text line shows (``ui/widgets/card_text.py``), for the tests of the
screens that show hands as text."""

from __future__ import annotations

import re

from dealer_console.setting import Setting
from ui.theme import SUIT_SYMBOLS

SUIT_OF_SYMBOL = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items()}
NOTATION = re.compile(r"\b[2-9TJQKA][shdc]\b")
"""A card in the notation's letters (``Jd``), which a screen never shows."""


def plain(text: str) -> str:
    """A rich text's words, its tags and non-breaking spaces as spaces."""
    return re.sub(r"<[^>]+>", " ", text).replace("&nbsp;", " ")


def shown_cards(text: str) -> list[str]:
    """The cards a rich-text line shows by rank and suit symbol, as the notation spells them
    (``10♥`` -> ``Th``); the joker (``JK``) is left out."""
    symbols = "".join(SUIT_OF_SYMBOL)
    return [("T" if rank == "10" else rank) + SUIT_OF_SYMBOL[suit]
            for rank, suit in re.findall(f"(10|[2-9JQKA])([{symbols}])", plain(text))]


def spelled(setting: Setting) -> list[str]:
    """A set hand's cards, low then high, as :func:`shown_cards` reads them back."""
    return [str(card) for card in setting.low + setting.high if str(card) != "JK"]

"""Reading the cards a rich-text line shows (``ui/widgets/card_text.py``), for the tests of the
screens that show hands as text."""

from __future__ import annotations

import re

from dealer_console.setting import Setting

SYMBOLS = {"\u2660": "s", "\u2665": "h", "\u2666": "d", "\u2663": "c"}
NOTATION = re.compile(r"\b[2-9TJQKA][shdc]\b")
"""A card in the notation's letters (``Jd``), which a screen never shows."""


def shown_cards(text: str) -> list[str]:
    """The cards a rich-text line shows by rank and suit symbol, as the notation spells them
    (``10♥`` -> ``Th``); the joker (``JK``) is left out."""
    plain = re.sub(r"<[^>]+>", " ", text).replace("&nbsp;", " ")
    return [("T" if rank == "10" else rank) + SYMBOLS[suit]
            for rank, suit in re.findall(r"(10|[2-9JQKA])([\u2660\u2665\u2666\u2663])", plain)]


def spelled(setting: Setting) -> list[str]:
    """A set hand's cards, low then high, as :func:`shown_cards` reads them back."""
    return [str(card) for card in setting.low + setting.high if str(card) != "JK"]

"""Cards as short coloured text: rank and suit symbol in the suit's colour, for the lines where
a hand is read in passing rather than looked at (the seat strip, the House Way's proposal, the
settlement's lines; without colour, the supervisor's jackpot awards). The dealer reads the
same symbols and colours as on the large cards, never the notation's letters (``Jd 5h``); a
text on the screen's dark ground gets a card's white behind it, so the black suits stay
black."""

from __future__ import annotations

from collections.abc import Sequence

from dealer_console.cards import Card, CardError, parse_cards
from dealer_console.setting import Setting
from ui import theme


def _face(card: Card) -> tuple[str, str | None]:
    """The card's rank as printed on it and its suit letter (None for the joker)."""
    text = str(card)
    if text == "JK":
        return "JK", None
    return text[0].replace("T", "10"), text[1]


def _mini_card(card: Card, four_colour: bool) -> str:
    rank, suit = _face(card)
    if suit is None:
        return f"<b style='color:{theme.JOKER_COLOUR}'>JK</b>"
    return (f"<b style='color:{theme.suit_colour(suit, four_colour)}'>"
            f"{rank}{theme.SUIT_SYMBOLS[suit]}</b>")


def symbols(notation: str, *, together: bool = False) -> str:
    """Plain text: a stored hand (``2c 3c JK``) as rank and suit symbol (``2♣ 3♣ JK``), for a
    place that cannot colour them (a table's cell, a long plain line); ``together``: never
    broken inside the hand (no-break spaces). Text that does not read as cards is shown as it
    was stored: it is a record's evidence."""
    try:
        cards = parse_cards(notation)
    except CardError:
        return notation
    faces = (_face(card) for card in cards)
    return ("\u00a0" if together else " ").join(
        rank if suit is None else f"{rank}{theme.SUIT_SYMBOLS[suit]}" for rank, suit in faces)


def mini_cards(cards: Sequence[Card], four_colour: bool) -> str:
    """Rich text: each card's rank and suit symbol in the suit's colour (the joker ``JK``); a
    narrow place may break the line between cards."""
    return " ".join(_mini_card(card, four_colour) for card in cards)


def cards_on_dark(cards: Sequence[Card], four_colour: bool) -> str:
    """The cards on a card's white, for a line on the dark ground; kept on one line."""
    shown = "&nbsp;".join(_mini_card(card, four_colour) for card in cards)
    return f"<span style='background-color:{theme.CARD_FACE}'>&nbsp;{shown}&nbsp;</span>"


def setting_on_dark(setting: Setting, four_colour: bool) -> str:
    """A set hand as its low and high hands side by side (low first, as on the felt); a narrow
    line breaks between the two hands, never inside one."""
    return (f"{cards_on_dark(setting.low, four_colour)}&nbsp;| "
            f"{cards_on_dark(setting.high, four_colour)}")

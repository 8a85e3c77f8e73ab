"""The table as on the felt: the player seats in a row, numbered from the dealer's left, and the
dealer's (or the house's) place below them. Each seat shows its wagers, its role this round
(banker, action), its cards small, and what its settlement was; touching a seat puts it in
focus."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from dealer_console.controller import TableSnapshot
from dealer_console.money import format_cents
from dealer_console.round.snapshot import RoundSnapshot
from ui import theme
from ui.widgets.card_text import mini_cards
from ui.words import kind_name, line_words, seat_name

SHORT_STRIP = 200
"""A table strip lower than this (pixels) shows the seats' cards in the small type."""
NO_WAGER = "no wager"


class SeatPanel(QFrame):
    tapped = Signal(int)

    def __init__(self, seat: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.seat = seat
        self.setObjectName(f"seat-{seat}")
        self.setProperty("role", "panel")
        self.setMinimumSize(theme.TOUCH_MIN * 2, theme.TOUCH_MIN * 2)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.title = QLabel()
        self.title.setProperty("role", "group")
        self.badges = QLabel()
        self.badges.setWordWrap(True)
        self._badge_style(theme.FONT_BODY)
        self.wagers = QLabel()
        self.wagers.setWordWrap(True)
        self.wagers.setStyleSheet(f"font-size: {theme.FONT_SMALL}px;")
        self.cards = QLabel()
        self.cards.setTextFormat(Qt.TextFormat.RichText)
        self.cards.setWordWrap(True)
        # from the top: a seat taller than the strip (it scrolls) shows its first cards,
        # not the blank middle of its card block
        self.cards.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.set_card_size(theme.FONT_BODY)
        self.result = QLabel()
        self.result.setWordWrap(True)
        self.result.setStyleSheet(f"font-size: {theme.FONT_SMALL}px; font-weight: bold;")
        self._lines = QVBoxLayout(self)
        self._lines.setContentsMargins(6, 1, 6, 1)
        self._lines.setSpacing(2)
        for widget in (self.title, self.badges, self.wagers):
            self._lines.addWidget(widget)
        self._lines.addWidget(self.cards, 1)
        self._lines.addWidget(self.result)

    def _badge_style(self, pixels: int) -> None:
        self.badges.setStyleSheet(f"color: {theme.WARNING_AMBER}; font-weight: bold; "
                                  f"font-size: {pixels}px;")

    def set_card_size(self, pixels: int) -> None:
        """The small cards' type size (the table's strip sets it from its height)."""
        self.cards.setStyleSheet(f"background: {theme.CARD_FACE}; border-radius: 6px; "
                                 f"padding: 2px 4px; font-size: {pixels}px;")

    def set_short(self, short: bool) -> None:
        """On a short strip the seat's name and badges take the small type and its lines close
        up: a hand's two lines of cards then show whole under a badge and a wager, where
        they were cut in half (1280x800)."""
        pixels = theme.FONT_SMALL if short else theme.FONT_BODY
        self.title.setStyleSheet(f"font-size: {pixels}px;" if short else "")
        self._badge_style(pixels)
        self._lines.setSpacing(0 if short else 2)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.tapped.emit(self.seat)
        super().mouseReleaseEvent(event)

    def show_round(self, view: TableSnapshot, focused: bool, four_colour: bool) -> None:
        r = view.round
        seat = self.seat
        self.title.setText(seat_name(seat, r.banker_seat, r.banker_kind))
        badges = []
        if seat == r.banker_seat and r.phase.value != "banker":
            badges.append("BANKER")
        if r.phase.value == "banker" and seat == r.offer_seat:
            badges.append("BANK OFFERED")
        if seat == r.action_seat:
            badges.append("ACTION")
        # one word on every profile, then what the profile did with it
        if seat in r.dead:
            badges.append("FOUL: LOSES")
        elif r.fouls.get(seat):
            badges.append("FOUL: HOUSE WAY")
        if any(h.seat == seat for h in r.jackpot_hits):
            badges.append("JACKPOT PAID")
        elif any(p.seat == seat for p in view.jackpot_pending):
            badges.append("JACKPOT HAND")
        self.badges.setText("  ".join(badges))
        self.badges.setVisible(bool(badges))
        wagers = _wagers(r, seat)
        self.wagers.setText(wagers or NO_WAGER)
        # the house's place without a wager of its own (a house wager shows) keeps the line
        # for its cards
        self.wagers.setVisible(seat != 0 or bool(wagers))
        self._cards(view, four_colour)
        settled = [x for x in r.lines if x.seat == seat]
        self.result.setText("\n".join(line_words(x) for x in settled))
        self.result.setVisible(bool(settled))
        frame = "focused" if focused else (
            ("offered" if "BANK OFFERED" in badges else "plain" if seat else "dealer")
            + ("-dealer" if seat == 0 and "BANK OFFERED" in badges else ""))
        if self.property("frame") != frame:
            # the theme's rule for this frame (ui/theme.py), this panel alone polished again:
            # a sheet of its own re-polished the panel and every label in it, about 1 ms a
            # seat at each move of the focus (a stall of the dealer's screen)
            self.setProperty("frame", frame)
            self.style().unpolish(self)
            self.style().polish(self)
            # the frame's width from the new border (its contents move in by it, as before)
            self.setFrameStyle(self.frameStyle())

    def _cards(self, view: TableSnapshot, four_colour: bool) -> None:
        """The seat's cards small, as coloured text (the hand in focus is drawn large on the
        page): the low hand over the high hand once set, face down while hidden."""
        r = view.round
        hand = r.hands.get(self.seat)
        in_play = self.seat == r.banker_seat or self.seat in r.seats_with_base()
        if hand is None or not in_play:  # a hand without a wager goes to the discard rack
            self.cards.setVisible(False)
            return
        self.cards.setVisible(True)
        if self.seat in view.hidden_seats:
            self.cards.setText(f"<span style='color:{theme.CARD_BACK}'>"
                               + "&#9646;" * len(hand) + "</span>")
            return
        setting = r.banker_setting if self.seat == r.banker_seat else r.settings.get(self.seat)
        lines = [setting.low, setting.high] if setting is not None else [hand[:4], hand[4:]]
        self.cards.setText("<br>".join(mini_cards(cards, four_colour) for cards in lines))


def _wagers(r: RoundSnapshot, seat: int) -> str:
    """The seat's wagers a line each, or "" for none."""
    parts = [f"{kind_name(kind)} {format_cents(cents)}"
             for (s, kind), cents in sorted(r.wagers.items()) if s == seat]
    if seat == r.banker_seat and r.banker_kind == "player" and r.banker_wager:
        parts.insert(0, f"Bank {format_cents(r.banker_wager)}")
    return "\n".join(parts)


class TableView(QWidget):
    """Player seats left to right from the dealer's left, and the dealer's place (the house's
    hand) at the end of the row, marked apart."""

    seat_tapped = Signal(int)

    def __init__(self, seats: tuple[int, ...], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.panels: dict[int, SeatPanel] = {}
        self._card_size = theme.FONT_BODY
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(theme.SPACING // 2)
        for seat in [s for s in seats if s != 0] + ([0] if 0 in seats else []):
            panel = SeatPanel(seat)
            panel.tapped.connect(self.seat_tapped)
            row.addWidget(panel, 1)
            self.panels[seat] = panel

    def fit_cards(self, strip_height: int) -> None:
        """The small cards in the type the strip has room for: on a short strip (a 1280x800
        screen) the smallest the dealer reads, so a hand's two lines show whole instead of
        three lines cut in half; on a taller one, the body's."""
        pixels = theme.FONT_SMALL if strip_height < SHORT_STRIP else theme.FONT_BODY
        if pixels != self._card_size:
            self._card_size = pixels
            for panel in self.panels.values():
                panel.set_short(pixels == theme.FONT_SMALL)
                panel.set_card_size(pixels)

    def show_round(self, view: TableSnapshot, focus: int | None, four_colour: bool) -> None:
        for seat, panel in self.panels.items():
            panel.show_round(view, seat == focus, four_colour)

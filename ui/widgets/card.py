"""Cards drawn large enough to read at arm's length: one card, and a row of them.

Cards arrive as text in the console's notation (``As``, ``Th``, ``JK``; see
``dealer_console.cards``) and are read with ``parse_cards``, so a misread card is refused with
the same words everywhere. The widgets know nothing of hands or rules: which card is selected
or dimmed, and what the groups are called, is the screen's decision.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from math import ceil

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPaintEvent,
    QPen,
    QPixmap,
    QResizeEvent,
)
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

from dealer_console.cards import Card, parse_card, parse_cards
from ui import theme

ASPECT = 5 / 7  # width / height of a playing card (2.5 by 3.5 inches)
RANK_TEXT = {10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}
RANK_NAMES = {11: "jack", 12: "queen", 13: "king", 14: "ace"}
SUIT_NAMES = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
JOKER_STAR = "\u2605"


def ring_width(height: int) -> int:
    """Room kept around a card for the "selected" ring, so selecting never moves anything."""
    return max(4, round(height * 0.04))


def card_width(height: int) -> int:
    """The width of a ``CardView`` of ``height`` pixels (the card plus its ring on both sides)."""
    ring = ring_width(height)
    return round((height - 2 * ring) * ASPECT) + 2 * ring


def spoken(card: Card | None) -> str:
    """The card in words, for accessibility names: "ace of spades", "joker"."""
    if card is None:
        return "no card"
    if card.is_joker:
        return "joker"
    return f"{RANK_NAMES.get(card.rank, str(card.rank))} of {SUIT_NAMES[card.suit]}"


FACE_PAD = 2
"""Room around a cached face for its antialiased edge."""
FACE_CACHE_MAX = 600
"""Faces kept (a deck in a few sizes and both colour schemes); the cache starts again when
full."""
_FACES: dict[tuple[str, int, int, bool, float], QPixmap] = {}


class CardView(QWidget):
    """One card: face up, face down, or an empty place (``card`` None and not face down).

    ``selected`` draws a bright ring around it; ``dimmed`` greys it (a card out of play).
    ``tapped`` is emitted when a finger lifts off it."""

    tapped = Signal()

    def __init__(self, card: str | Card | None = None, *, height: int = theme.CARD_HEIGHT,
                 four_colour: bool = False, face_down: bool = False, selected: bool = False,
                 dimmed: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._card = parse_card(card) if isinstance(card, str) else card
        self._height = height
        self._four_colour = four_colour
        self._face_down = face_down
        self._selected = selected
        self._dimmed = dimmed
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent, False)
        self._update_name()

    # -- state -----------------------------------------------------------------------------
    @property
    def card(self) -> Card | None:
        return self._card

    def reset(self, card: Card | None) -> None:
        """Show ``card`` as a new view would (face up, not selected, not dimmed), repainting
        only if that changes what is drawn."""
        if (card, self._face_down, self._selected, self._dimmed) == (self._card, False, False,
                                                                      False):
            return
        self._card, self._face_down, self._selected, self._dimmed = card, False, False, False
        self._update_name()
        self.update()

    def set_card(self, card: str | Card | None) -> None:
        self._card = parse_card(card) if isinstance(card, str) else card
        self._update_name()
        self.update()

    @property
    def face_down(self) -> bool:
        return self._face_down

    def set_face_down(self, face_down: bool) -> None:
        self._face_down = face_down
        self._update_name()
        self.update()

    @property
    def selected(self) -> bool:
        return self._selected

    def set_selected(self, selected: bool) -> None:
        self._selected = selected
        self._update_name()
        self.update()

    @property
    def dimmed(self) -> bool:
        return self._dimmed

    def set_dimmed(self, dimmed: bool) -> None:
        self._dimmed = dimmed
        self.update()

    @property
    def four_colour(self) -> bool:
        return self._four_colour

    def set_four_colour(self, four_colour: bool) -> None:
        self._four_colour = four_colour
        self.update()

    def set_card_height(self, height: int) -> None:
        """The height the card asks for (its size hint); the card is drawn to fit its rect."""
        self._height = height
        self.updateGeometry()

    def sizeHint(self) -> QSize:
        return QSize(card_width(self._height), self._height)

    def minimumSizeHint(self) -> QSize:
        return QSize(card_width(48), 48)

    def _update_name(self) -> None:
        name = "card face down" if self._face_down else spoken(self._card)
        self.setAccessibleName(name + (", selected" if self._selected else ""))

    # -- input -----------------------------------------------------------------------------
    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        # a touch arrives as a synthesised left button; the release must be on the card
        if (event.button() == Qt.MouseButton.LeftButton
                and self.rect().contains(event.position().toPoint())):
            self.tapped.emit()
        super().mouseReleaseEvent(event)

    # -- painting --------------------------------------------------------------------------
    def card_rect(self) -> QRectF:
        """Where the card itself is drawn: the largest 5:7 rectangle inside the ring."""
        ring = ring_width(min(self.height(), round(self.width() / ASPECT)))
        room = QRectF(self.rect()).adjusted(ring, ring, -ring, -ring)
        height = min(room.height(), room.width() / ASPECT)
        width = height * ASPECT
        return QRectF(room.center().x() - width / 2, room.center().y() - height / 2,
                      width, height)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        rect = self.card_rect()
        if rect.height() < 8:
            return
        radius = rect.height() * 0.06
        if self._selected:
            ring = ring_width(round(rect.height()))
            outer = rect.adjusted(-ring, -ring, ring, ring)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(theme.SELECTED))
            painter.drawRoundedRect(outer, radius + ring, radius + ring)
        if self._face_down:
            self._paint_back(painter, rect, radius)
        elif self._card is None:
            pen = QPen(QColor(theme.BORDER), max(2.0, rect.height() * 0.015), Qt.PenStyle.DashLine)
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(rect, radius, radius)
        else:
            face = self._face_pixmap(rect, radius, self._card)
            painter.drawPixmap(QPointF(rect.left() - FACE_PAD, rect.top() - FACE_PAD), face)
        if self._dimmed:
            veil = QColor(theme.BACKGROUND)
            veil.setAlpha(165)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(veil)
            painter.drawRoundedRect(rect, radius, radius)
        painter.end()

    def _face_pixmap(self, rect: QRectF, radius: float, card: Card) -> QPixmap:
        """The card's face drawn once per card, size and colour scheme, then reused: a
        screen redraws many cards many times a round, and drawing the text of each face
        again is most of a redraw's cost."""
        ratio = self.devicePixelRatioF()
        width, height = rect.width(), rect.height()
        key = (str(card), round(width * 4), round(height * 4), self._four_colour, ratio)
        face = _FACES.get(key)
        if face is None:
            if len(_FACES) >= FACE_CACHE_MAX:
                _FACES.clear()
            size = QSize(ceil((width + 2 * FACE_PAD) * ratio),
                         ceil((height + 2 * FACE_PAD) * ratio))
            face = QPixmap(size)
            face.setDevicePixelRatio(ratio)
            face.fill(Qt.GlobalColor.transparent)
            painter = QPainter(face)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
            self._paint_face(painter, QRectF(FACE_PAD, FACE_PAD, width, height), radius, card)
            painter.end()
            _FACES[key] = face
        return face

    def _paint_back(self, painter: QPainter, rect: QRectF, radius: float) -> None:
        painter.setPen(QPen(QColor(theme.CARD_FACE), max(2.0, rect.height() * 0.02)))
        painter.setBrush(QColor(theme.CARD_BACK))
        painter.drawRoundedRect(rect, radius, radius)
        inset = rect.height() * 0.07
        inner = rect.adjusted(inset, inset, -inset, -inset)
        path = QPainterPath()
        path.addRoundedRect(inner, radius / 2, radius / 2)
        painter.setPen(QPen(QColor(theme.CARD_BACK_PATTERN), 2.0))
        painter.setBrush(QBrush(QColor(theme.CARD_BACK_PATTERN), Qt.BrushStyle.DiagCrossPattern))
        painter.drawPath(path)

    def _paint_face(self, painter: QPainter, rect: QRectF, radius: float, card: Card) -> None:
        height = rect.height()
        painter.setPen(QPen(QColor(theme.CARD_EDGE), max(1.5, height * 0.01)))
        painter.setBrush(QColor(theme.CARD_FACE))
        painter.drawRoundedRect(rect, radius, radius)
        margin = height * 0.05
        if card.is_joker:
            colour = QColor(theme.JOKER_COLOUR)
            rank, suit, label = "JK", JOKER_STAR, "JOKER"
        else:
            colour = QColor(theme.suit_colour(card.suit, self._four_colour))
            rank = RANK_TEXT.get(card.rank, str(card.rank))
            suit, label = theme.SUIT_SYMBOLS[card.suit], ""
        painter.setPen(colour)
        # corner index: the rank as large as the width allows, the suit under it
        rank_size = height * (0.34 if len(rank) == 1 else 0.29)
        painter.setFont(theme.font(max(8, round(rank_size)), bold=True))
        rank_box = QRectF(rect.left() + margin, rect.top() + margin * 0.4,
                          rect.width() - 2 * margin, height * 0.36)
        align_left = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        painter.drawText(rank_box, int(align_left), rank)
        painter.setFont(theme.font(max(8, round(height * 0.24))))
        suit_box = QRectF(rank_box.left(), rank_box.bottom() - height * 0.04,
                          rank_box.width(), height * 0.26)
        painter.drawText(suit_box, int(align_left), suit)
        # the large pip, lower right, readable from across the table
        pip_box = QRectF(rect.left() + rect.width() * 0.30, rect.top() + height * 0.42,
                         rect.width() * 0.70 - margin * 0.6, height * 0.56 - margin * 0.5)
        painter.setFont(theme.font(max(8, round(height * 0.50))))
        painter.drawText(pip_box, int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignBottom),
                         suit)
        if label:
            painter.setFont(theme.font(max(8, round(height * 0.085)), bold=True))
            label_box = QRectF(rect.left(), rect.bottom() - height * 0.16, rect.width(),
                               height * 0.12)
            painter.drawText(label_box, int(Qt.AlignmentFlag.AlignCenter), label)


class CardRow(QWidget):
    """Several cards side by side, optionally in labelled groups (a hand set as two cards low
    and five high). ``tapped(index)`` gives the card's index counted across all groups.

    Cards are drawn at ``card_height`` when there is room and shrink to fit the width and
    height the layout gives, so one screen works at 1280x800 and 1920x1080. A row that
    ``grows`` asks its layout only for its smallest cards and is drawn as large as the room it
    is given (it needs a stretch in its layout): on a page in a scroll area, which lays its page
    out at the height the page prefers, the row then shrinks to leave the page's buttons in
    view instead of pushing them below it."""

    tapped = Signal(int)

    def __init__(self, cards: str | Iterable[str] = "", *, card_height: int = theme.CARD_HEIGHT,
                 four_colour: bool = False, grows: bool = False,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._card_height = card_height
        self._grows = grows
        self._four_colour = four_colour
        self._groups: list[tuple[QLabel | None, list[CardView]]] = []
        self.views: list[CardView] = []
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self.set_cards(cards)

    # -- content ---------------------------------------------------------------------------
    def set_cards(self, cards: str | Iterable[str]) -> None:
        """Show one unlabelled group. Raises ``CardError`` (one line, naming the card) for
        unreadable text or a card shown twice, and then keeps what it showed before."""
        self.set_groups([("", cards)])

    def set_groups(self, groups: Sequence[tuple[str, str | Iterable[str]]]) -> None:
        """Show groups of cards, each ``(label, cards)``; an empty label shows no title.

        The card and title widgets already in the row are given their new content rather
        than made anew (a screen sets its groups on every change of the table), each card as
        a new one would be: face up, not selected, not dimmed."""
        parsed = [(label, parse_cards(cards)) for label, cards in groups]
        parse_cards([str(card) for _, group in parsed for card in group])  # no card twice
        old_views = self.views
        old_labels = [label for label, _ in self._groups if label is not None]
        self._groups = []
        self.views = []
        for label, group in parsed:
            label_widget = None
            if label:
                label_widget = old_labels.pop(0) if old_labels else self._new_label()
                label_widget.setText(label)
            views = []
            for card in group:
                index = len(self.views)
                if index < len(old_views):
                    view = old_views[index]
                    view.reset(card)
                    if view.sizeHint().height() != self._card_height:
                        view.set_card_height(self._card_height)
                else:
                    view = CardView(card, height=self._card_height,
                                    four_colour=self._four_colour, parent=self)
                    view.tapped.connect(lambda index=index: self.tapped.emit(index))
                    view.show()
                views.append(view)
                self.views.append(view)
            self._groups.append((label_widget, views))
        for old in (*old_labels, *old_views[len(self.views):]):
            old.hide()  # gone from the screen now, freed when Qt is back in its loop
            old.deleteLater()
        self.updateGeometry()
        self._place()

    def _new_label(self) -> QLabel:
        label = QLabel(self)
        label.setProperty("role", "group")
        label.ensurePolished()  # its size comes from the stylesheet's font
        label.show()
        return label

    def cards(self) -> tuple[Card | None, ...]:
        return tuple(view.card for view in self.views)

    def set_selected(self, indices: Iterable[int]) -> None:
        chosen = set(indices)
        for index, view in enumerate(self.views):
            view.set_selected(index in chosen)

    def set_dimmed(self, indices: Iterable[int]) -> None:
        chosen = set(indices)
        for index, view in enumerate(self.views):
            view.set_dimmed(index in chosen)

    def set_face_down(self, indices: Iterable[int]) -> None:
        chosen = set(indices)
        for index, view in enumerate(self.views):
            view.set_face_down(index in chosen)

    def set_four_colour(self, four_colour: bool) -> None:
        self._four_colour = four_colour
        for view in self.views:
            view.set_four_colour(four_colour)

    def set_card_height(self, height: int) -> None:
        self._card_height = height
        self.updateGeometry()
        self._place()

    # -- geometry --------------------------------------------------------------------------
    def _label_height(self) -> int:
        heights = [label.sizeHint().height() for label, _ in self._groups if label is not None]
        return max(heights) + theme.SPACING // 2 if heights else 0

    def _extents(self, height: int) -> list[int]:
        """Each group's width at card ``height``: its cards, or its title if that is wider."""
        width = card_width(height)
        gap = round(height * 0.05)
        extents = []
        for label, views in self._groups:
            cards = len(views) * width + max(0, len(views) - 1) * gap
            title = label.sizeHint().width() + ring_width(height) if label is not None else 0
            extents.append(max(cards, title))
        return extents

    def _width_for(self, height: int) -> int:
        group_gap = round(card_width(height) * 0.45)
        return sum(self._extents(height)) + max(0, len(self._groups) - 1) * group_gap

    def _height_to_fit(self, width: int, height: int) -> int:
        """The largest card height up to ``card_height`` whose row fits ``width`` x ``height``."""
        best = min(self._card_height, height - self._label_height())
        while best > 24 and self._width_for(best) > width:
            best -= 2
        return max(24, best)

    def sizeHint(self) -> QSize:
        if self._grows:
            return self.minimumSizeHint()
        return QSize(self._width_for(self._card_height),
                     self._card_height + self._label_height())

    def minimumSizeHint(self) -> QSize:
        small = min(self._card_height, 72)
        return QSize(self._width_for(small), small + self._label_height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        self._place()

    def _place(self) -> None:
        height = self._height_to_fit(self.width(), self.height())
        width = card_width(height)
        gap = round(height * 0.05)
        group_gap = round(width * 0.45)
        label_height = self._label_height()
        top = max(0, (self.height() - height - label_height) // 2)
        x = 0
        for (label, views), extent in zip(self._groups, self._extents(height), strict=True):
            if label is not None:
                label.setGeometry(x + ring_width(height), top, extent, label_height)
            for offset, view in enumerate(views):
                view.setGeometry(x + offset * (width + gap), top + label_height, width, height)
            x += extent + group_gap

"""The supervisor's "Jackpot awards" screen: every confirmed award, newest first, its win page
printed by the money bag, and a back-out by manual adjustment behind an executive's card.

Washington document, "Face Up Pai Gow Poker Jackpot Rules of Play" item 9 f (the money bag
prints the win page) and item 9 h (a confirmed award is taken back only by a manual
adjustment); who may back one out and what it reverses is the core's
(``back_outs.back_out_by``, ``docs/jackpot.md``). A win page the console recorded and never
printed (it stopped in between) is named in its award's status, under the list when the
award is chosen and above it otherwise, with what to do, in the core's words
(``win_prints``). This screen only shows the awards and sends the requests to the
controller: the window prints what the controller asks for (``win_page.py``).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QHideEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from dealer_console.award_words import local_time
from dealer_console.controller import TableController, TableSnapshot
from dealer_console.controller.view import Level
from dealer_console.employees.registry import REASON_MAX
from dealer_console.jackpot.history import AwardEntry
from dealer_console.jackpot.win_prints import copy_words, summary, todo
from dealer_console.jackpot_values.meters import MICRO
from dealer_console.money import format_cents
from ui import theme
from ui.bridge import ControllerBridge
from ui.supervisor.session import Session
from ui.widgets.card_text import symbols
from ui.widgets.kit import act
from ui.widgets.pages import PageStack
from ui.widgets.text_keyboard import TextKeyboard
from ui.widgets.touch import ButtonRole, TouchButton, kinetic

BACK_OUT = "back out jackpot award"
"""How the card prompt names a back-out (``TableController.ask_back_out``)."""
COLUMNS = ("Award", "Hand", "Amount", "Meter", "Confirmed by", "Status")
"""The award's number, round and seat share one narrow column, so the hand and the names have
the width at 1280x800 (issue 23: about one and a half rows fitted, "Confirmed by" cut)."""
STRETCH = ("Hand", "Confirmed by", "Status")
"""The columns that take the width left and wrap their words."""


def when(iso: str) -> str:
    """A stored UTC time in the table's local time with its zone, to the second."""
    return local_time(iso)


def meter_words(micro: int | None) -> str:
    """A meter as the monitor shows it: rounded down to the cent."""
    return "-" if micro is None else format_cents(micro // MICRO)


def status_words(entry: AwardEntry) -> str:
    out = entry.back_out
    if out is None and entry.hit.link is not None:
        return f"paid by link {entry.hit.link} (its hit {entry.hit.link_hit_id})"
    if out is None:
        return "paid"
    return (f"BACKED OUT by {out.employee_name} ({out.employee_id}) at "
            f"{when(out.recorded_at)}: {out.reason}")


def award_row(entry: AwardEntry, unfinished: tuple[int, ...] = ()) -> tuple[str, ...]:
    """The award's row; ``unfinished``: the copies of its win page the console recorded and
    never printed, with no page printed since (said in its status)."""
    h = entry.hit
    stopped = "".join(f"\nwin page {copy_words(copy)} NOT FINISHED" for copy in unfinished)
    return (f"{h.hit_id}\nround {h.round_id}\nseat {h.seat}",
            f"line {h.line_no}: {h.line_label}\n{symbols(h.cards or '') or 'cards not read'}",
            format_cents(h.amount_cents),
            f"before {meter_words(h.meter_before_micro)}\nafter {meter_words(h.meter_after_micro)}",
            h.employee_name + ("" if h.second_employee_name is None
                               else f"\nand {h.second_employee_name}"),
            status_words(entry) + stopped)


class _Header(QHeaderView):
    """A column header whose least height is the one its titles need (Qt's own answer adds
    room for scroll bars a header never shows)."""

    def minimumSizeHint(self) -> QSize:
        return QSize(super().minimumSizeHint().width(), self.sizeHint().height())


def table_widget(columns: tuple[str, ...], stretch: tuple[str, ...]) -> QTableWidget:
    """A read-only list a finger scrolls, rows tall enough to touch, one row selected; the
    ``stretch`` columns share the width left and wrap, the others fit their contents."""
    table = QTableWidget(0, len(columns))
    table.setHorizontalHeader(_Header(Qt.Orientation.Horizontal, table))
    table.horizontalHeader().setMinimumHeight(theme.TOUCH_MIN)
    table.setHorizontalHeaderLabels(list(columns))
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    table.verticalHeader().setVisible(False)
    table.verticalHeader().setDefaultSectionSize(theme.TOUCH_MIN + 8)
    table.verticalHeader().setMinimumSectionSize(theme.TOUCH_MIN + 8)
    for column, title in enumerate(columns):
        table.horizontalHeader().setSectionResizeMode(
            column, QHeaderView.ResizeMode.Stretch if title in stretch
            else QHeaderView.ResizeMode.ResizeToContents)
    table.setWordWrap(True)
    table.setFont(theme.font(theme.FONT_SMALL))
    kinetic(table)
    return table


def fill(table: QTableWidget, rows: list[tuple[str, ...]]) -> None:
    table.setRowCount(len(rows))
    for r, values in enumerate(rows):
        for c, value in enumerate(values):
            table.setItem(r, c, QTableWidgetItem(value))
    table.resizeRowsToContents()


class JackpotScreen(QWidget):
    def __init__(self, controller: TableController, bridge: ControllerBridge,
                 session: Session) -> None:
        super().__init__()
        self.ctl = controller
        self.session = session
        self.entries: list[AwardEntry] = []
        notice = controller.snapshot().notice
        self._notice_seen = notice.number if notice is not None else 0

        # the list of awards
        heading = QLabel("Jackpot awards, newest first")
        heading.setProperty("role", "heading")
        self.unfinished = QLabel()
        """A win page of another award than the chosen one that the console recorded and
        never printed (it stopped in between), and what to do, above the list."""
        self.unfinished.setWordWrap(True)
        self.unfinished.setProperty("role", "refusal")
        self.unfinished.hide()
        self._waiting: dict[int, tuple[int, ...]] = {}
        self.table = table_widget(COLUMNS, STRETCH)
        self.table.itemSelectionChanged.connect(self._selected)
        self.detail = QLabel()
        self.detail.setWordWrap(True)
        self.print_page = TouchButton("Print the win page (money bag)", ButtonRole.PRIMARY,
                                      money=True)
        self.print_page.clicked.connect(self._print)
        self.back_out = TouchButton("Back out this award", ButtonRole.DANGER, money=True)
        self.back_out.clicked.connect(self._start_back_out)
        actions = QHBoxLayout()
        actions.addWidget(self.print_page)
        actions.addWidget(self.back_out)
        self.awards_page = QWidget()
        awards = QVBoxLayout(self.awards_page)
        awards.setContentsMargins(0, 0, 0, 0)
        awards.addWidget(heading)
        awards.addWidget(self.unfinished)
        awards.addWidget(self.table, 1)
        awards.addWidget(self.detail)
        awards.addLayout(actions)

        # the back-out: the reason typed, then an executive's card
        self.back_heading = QLabel()
        self.back_heading.setProperty("role", "heading")
        self.back_heading.setWordWrap(True)
        hint = QLabel("Type why. The meter gets the award back; it stays on record as "
                      "backed out.")
        hint.setProperty("role", "hint")
        hint.setWordWrap(True)
        self.reason = TextKeyboard(placeholder="The reason (required)", sentence=True,
                                   with_ok=False, max_chars=REASON_MAX)
        self.reason.changed.connect(self._reason_changed)
        self.cancel = TouchButton("Cancel", ButtonRole.SECONDARY, money=True)
        self.cancel.clicked.connect(self._cancel_back_out)
        self.ask_card = TouchButton("Back out: swipe an executive's card", ButtonRole.DANGER,
                                    money=True)
        self.ask_card.clicked.connect(self._ask_card)
        buttons = QHBoxLayout()
        buttons.addWidget(self.cancel)
        buttons.addWidget(self.ask_card, 2)
        self.back_out_page = QWidget()
        back = QVBoxLayout(self.back_out_page)
        back.setContentsMargins(0, 0, 0, 0)
        back.addWidget(self.back_heading)
        back.addWidget(hint)
        back.addWidget(self.reason, 1)
        back.addLayout(buttons)

        self.pages = PageStack()
        self.pages.addWidget(self.awards_page)
        self.pages.addWidget(self.back_out_page)
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setProperty("role", "refusal")
        self.message.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.pages, 1)
        layout.addWidget(self.message)
        self._backing: int | None = None
        self.reload()

    # -- what is shown -------------------------------------------------------------------------

    def reload(self) -> None:
        chosen = self.chosen()
        self.entries = self.ctl.jackpot_awards()
        waiting: dict[int, tuple[int, ...]] = {}
        for made in self.ctl.unfinished_win_pages():
            waiting[made.hit_id] = (*waiting.get(made.hit_id, ()), made.copy)
        fill(self.table, [award_row(e, waiting.get(e.hit.hit_id, ())) for e in self.entries])
        self._waiting = waiting
        row = next((i for i, e in enumerate(self.entries)
                    if chosen is not None and e.hit.hit_id == chosen.hit.hit_id), 0)
        if self.entries:
            self.table.selectRow(row)
        self._selected()

    def chosen(self) -> AwardEntry | None:
        rows = self.table.selectionModel().selectedRows() if self.entries else []
        if not rows or rows[0].row() >= len(self.entries):
            return None
        return self.entries[rows[0].row()]

    def _selected(self) -> None:
        entry = self.chosen()
        # an unfinished win page of another award above the list (the chosen one's is said
        # under it)
        others = [hit for hit in sorted(self._waiting)
                  if entry is None or hit != entry.hit.hit_id]
        self.unfinished.setText("\n".join(
            f"Award {hit}'s win page: {todo(self.ctl.win_page_prints(hit))}" for hit in others))
        self.unfinished.setVisible(bool(others))
        self.print_page.setEnabled(entry is not None)
        self.back_out.setEnabled(entry is not None and entry.back_out is None
                                 and entry.hit.link is None)
        if entry is None:
            self.detail.setText("No jackpot award has been confirmed at this table yet.")
            return
        h = entry.hit
        self.detail.setText(
            f"Award {h.hit_id}: round {h.round_id}, seat {h.seat}, {h.line_label} "
            f"({symbols(h.cards or '', together=True) or 'cards not read'}), "
            f"{format_cents(h.amount_cents)} "
            f"({format_cents(h.from_meter_cents)} off the meter, "
            f"{format_cents(h.from_tray_cents)} from the tray). Confirmed by "
            f"{h.confirmers}, at {when(h.confirmed_at)}. "
            + (f"Paid by the jackpot link {h.link} off its shared meter (its hit "
               f"{h.link_hit_id}): a back-out is made on the link's server by its operator, "
               "not at a table." if h.link is not None else
               "Paid." if entry.back_out is None else
               f"{entry.back_out.words()}.")
            + " " + summary(self.ctl.win_page_prints(h.hit_id)))

    def show_view(self, view: TableSnapshot) -> None:
        """Called on every change while shown: the list read again, a refused card told."""
        notice = view.notice
        if notice is not None and notice.number != self._notice_seen:
            self._notice_seen = notice.number
            self._tell(notice.what + (f": {notice.todo}" if notice.todo else ""),
                       refused=notice.level is not Level.INFO)
        self.reload()
        if self._backing is not None:
            done = next((e for e in self.entries if e.hit.hit_id == self._backing), None)
            if done is None or done.back_out is not None:
                self._backing = None
                self.pages.setCurrentWidget(self.awards_page)

    def _tell(self, text: str, refused: bool = True) -> None:
        self.message.setText(text)
        self.message.setProperty("role", "refusal" if refused else "hint")
        self.message.style().unpolish(self.message)
        self.message.style().polish(self.message)
        self.message.setVisible(bool(text))

    def _act(self, action: Callable[[], object]) -> bool:
        return act(action, self._tell, lambda: self._tell(""), self.session.check)

    # -- the supervisor's touches ----------------------------------------------------------

    def _print(self) -> None:
        entry = self.chosen()
        if entry is not None:
            self._act(lambda: self.ctl.request_win_page(entry.hit.hit_id,
                                                         self.session.employee))

    def _start_back_out(self) -> None:
        entry = self.chosen()
        if entry is None:
            return
        h = entry.hit
        self.back_heading.setText(f"Back out award {h.hit_id}: round {h.round_id}, "
                                  f"seat {h.seat}, {format_cents(h.amount_cents)}")
        self.reason.clear()
        self._backing = h.hit_id
        self._tell("")
        self.pages.setCurrentWidget(self.back_out_page)

    def _reason_changed(self, text: str) -> None:
        self.ask_card.setEnabled(bool(text.strip()))

    def _ask_card(self) -> None:
        if self._backing is not None:
            hit_id, reason = self._backing, self.reason.text()
            self._act(lambda: self.ctl.ask_back_out(hit_id, reason))

    def _cancel_back_out(self) -> None:
        if self._backing is not None and BACK_OUT in (self.ctl.snapshot().card_wanted or ""):
            self.ctl.cancel_card()
        self._backing = None
        self._tell("")
        self.pages.setCurrentWidget(self.awards_page)

    def hideEvent(self, event: QHideEvent) -> None:
        """Leaving the screen (another screen, back to the table) calls off a back-out still
        waiting for its card: an executive swiping later for something else must not find
        it."""
        self._cancel_back_out()
        super().hideEvent(event)

"""The settlement: the whole table on one page (every seat's hands and lines in the order the
dealer pays and takes, the fees or rake collected before the deal, the banker's net), settled
in one touch; the next seat alone can be confirmed on its own where the dealer wants to go
seat by seat. Then the End page: the jackpot panel and END GAME."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from dealer_console.cards import format_cards
from dealer_console.controller import TableController, TableSnapshot
from dealer_console.money import format_cents
from dealer_console.round import commands as c
from dealer_console.round.snapshot import RoundSnapshot
from ui import theme
from ui.dealer.jackpot_panel import JackpotPanel
from ui.dealer.page_kit import Act, Page, clear_layout
from ui.widgets.card import CardRow
from ui.widgets.card_text import setting_on_dark
from ui.widgets.kit import label
from ui.widgets.touch import ButtonRole, TouchButton, kinetic
from ui.words import kind_name, line_words, seat_name


def money_handled(r: RoundSnapshot) -> list[str]:
    """What the dealer collects or hands over besides the wagers' lines: the collection fees
    or the rake taken before the deal, the commission, the banker's net for the round."""
    out = []
    for (seat, kind), cents in sorted(r.fees.items()):
        out.append(f"{seat_name(seat, r.banker_seat, r.banker_kind)}: {kind_name(kind)} "
                   f"{format_cents(cents)} collected before the deal")
    commission = sum(x.staked - x.returned for x in r.plan if x.kind == "commission")
    if commission:
        out.append(f"Commission: {format_cents(commission)} in the lines above")
    if r.banker_kind == "player":
        net = sum(x.banker_delta for x in r.plan)
        sign = "+" if net > 0 else "-" if net < 0 else ""
        out.append(f"Banker (seat {r.banker_seat}) nets {sign}{format_cents(abs(net))} "
                   f"this round; coverage left {format_cents(r.banker_coverage_left or 0)}")
    return out


class SettlementPage(Page):
    """Every seat's lines, the next one marked; the phase bar settles them all as shown."""

    def seat_in_focus(self, view: TableSnapshot, focus: int | None) -> int | None:
        return view.round.next_to_settle()

    def __init__(self, ctl: TableController, act: Act) -> None:
        super().__init__(ctl, act)
        self.heading = label(role="heading")
        self.banker = CardRow(card_height=theme.CARD_HEIGHT // 3)
        self.one = TouchButton("", ButtonRole.SECONDARY, money=True)
        self.one.clicked.connect(lambda: self.act(lambda: self.ctl.do(c.SettleNext())))
        self.rows = QGridLayout()  # two seats a row: the whole table at a glance
        self.rows.setHorizontalSpacing(theme.SPACING * 2)
        self.money = QVBoxLayout()
        body = QWidget()
        inner = QVBoxLayout(body)
        inner.addLayout(self.rows)
        inner.addLayout(self.money)
        inner.addStretch(1)
        self.area = QScrollArea()
        self.area.setWidgetResizable(True)
        self.area.setFrameShape(QFrame.Shape.NoFrame)
        self.area.setWidget(body)
        kinetic(self.area)
        top = QHBoxLayout()
        top.addWidget(self.heading, 1)
        top.addWidget(self.banker, 1)
        top.addWidget(self.one)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.area, 1)

    def show_view(self, view: TableSnapshot, focus: int | None) -> None:
        r = view.round
        seat = r.next_to_settle()
        self.banker.set_four_colour(self.four_colour)
        push = ("The banker has ace-high pai gow: every base wager pushes. "
                if r.ace_high_push else "")
        self.heading.setText(push + ("Every seat is settled" if seat is None else
                                     "Settle each seat as shown"))
        banker = r.banker_setting
        if banker is not None:
            self.banker.set_groups([("Banker low", format_cards(banker.low).split()),
                                    ("Banker high", format_cards(banker.high).split())])
        self.one.setVisible(seat is not None)
        if seat is not None:
            self.one.setText(f"{seat_name(seat, r.banker_seat, r.banker_kind)} settled")
            self.one.setEnabled(view.why_not(c.SettleNext()) is None)
        clear_layout(self.rows)
        clear_layout(self.money)
        for index, s in enumerate(r.plan_seats):
            name = seat_name(s, r.banker_seat, r.banker_kind)
            done = " - settled" if s in r.settled_seats else " - next" if s == seat else ""
            lines = "<br>".join(escape(line_words(x)) for x in r.lines_of(s)) or "nothing"
            setting = r.settings.get(s)
            hand = "" if setting is None else setting_on_dark(setting, self.four_colour)
            cell = label(f"{escape(name + done)}&nbsp;&nbsp; {hand}<br>{lines}",
                         "group" if s == seat else "hint" if done else "")
            cell.setTextFormat(Qt.TextFormat.RichText)
            self.rows.addWidget(cell, index // 2, index % 2)
        for text in money_handled(r):
            self.money.addWidget(label(text, "hint"))


class EndPage(Page):
    """Every seat settled: the jackpot panel (marks, the hits in paying order, CONFIRM and the
    swipe), then END GAME."""

    def __init__(self, ctl: TableController, act: Act) -> None:
        super().__init__(ctl, act)
        self.heading = label(role="heading")
        self.handled = label(role="hint")
        self.jackpot = JackpotPanel(ctl, act)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.handled)
        layout.addWidget(self.jackpot, 1)
        self.jackpot.setVisible(ctl.snapshot().has_jackpot)

    def show_view(self, view: TableSnapshot, focus: int | None) -> None:
        # with a jackpot the panel's own titles and the phase bar say it: the room is the panel's
        self.heading.setVisible(not view.jackpot_games)
        self.heading.setText("Every seat is settled: press END GAME")
        self.handled.setText("\n".join(money_handled(view.round)))
        self.handled.setVisible(not view.jackpot_games and bool(self.handled.text()))
        if view.has_jackpot:
            self.jackpot.show_view(view)

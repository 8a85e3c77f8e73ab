"""The supervisor's table actions: void a round before START GAME, reconstruct a banker's hand
set wrongly, enter the deck count after a misdeal, and what the profile does with a foul.

Each action is live only when the round's rules accept it (``controller.check``), and says why
when not; each is made as a round command carrying the session's employee (``who``), so the
round's log names who did it. The rules are the round's (``dealer_console/round/machine.py``),
never this screen's: a void before START GAME (rules README, "Round procedure"), a player
banker's hand reconstructed by a supervisor (Catfish Bend document, "Irregularities"; the
house's hand is only ever the House Way), the whole deck counted for 53 cards after the misdeals
that need it (rules README, "Round procedure", misdeal)."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from dealer_console.cards import Card, format_cards
from dealer_console.controller import CONSEQUENCE, TableController, TableSnapshot
from dealer_console.errors import ConsoleError
from dealer_console.round import commands as c
from dealer_console.round.state import Phase
from dealer_console.setting import Setting, make_setting
from ui import theme
from ui.bridge import ControllerBridge
from ui.supervisor.common import SupervisorScreen, who
from ui.supervisor.session import Session
from ui.widgets.card import CardRow
from ui.widgets.card_text import setting_on_dark
from ui.widgets.kit import label as _label
from ui.widgets.number_pad import NumberPad
from ui.widgets.pages import PageStack
from ui.widgets.text_keyboard import TextKeyboard
from ui.widgets.touch import ButtonRole, TouchButton
from ui.words import MISDEALS, PHASES

RECONSTRUCT_REASONS = ("Dealer's error", "Keyed wrongly", "Misread")
"""Why a banker's hand is reconstructed, one touch each; the round records the one picked."""
VOID_REASONS = ("Table closing", "Dealer's error", "Device fault", "Player dispute")
"""The reasons a supervisor picks with one touch; any other is typed."""
OTHER = "Other reason"
REASON_MAX = 120
SECTIONS = ("Void the round", "Banker's hand", "Deck count", "Fouls")


def _why(label: QLabel, problem: str | None, ready: str) -> None:
    """A refusal in the refusal's colours ("Not now: ..."), or what may be done, as a hint."""
    label.setProperty("role", "refusal" if problem else "hint")
    label.style().unpolish(label)
    label.style().polish(label)
    label.setText(f"Not now: {problem}." if problem else ready)


class TableActions(SupervisorScreen):
    def __init__(self, controller: TableController, bridge: ControllerBridge,
                 session: Session) -> None:
        super().__init__(controller, bridge, session)
        self.status = _label(role="heading")
        self.sections: dict[str, TouchButton] = {}
        self.pages = PageStack()
        tabs = QHBoxLayout()
        builders = (self._void_page, self._banker_page, self._count_page, self._foul_page)
        for title, build in zip(SECTIONS, builders, strict=True):
            button = TouchButton(title, ButtonRole.SECONDARY)
            button.setCheckable(True)
            button.clicked.connect(lambda _=False, t=title: self.show_section(t))
            tabs.addWidget(button)
            self.sections[title] = button
            self.pages.addWidget(build())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.status)
        layout.addLayout(tabs)
        layout.addWidget(self.pages, 1)
        layout.addWidget(self.message)
        self._reason: str | None = None
        self._why_reconstruct: str | None = None
        self._low: list[int] = []
        self._hand: tuple[Card, ...] = ()
        self.show_section(SECTIONS[0])

    @property
    def who(self) -> str:
        return who(self.session)

    def show_section(self, title: str) -> None:
        self.pages.setCurrentIndex(SECTIONS.index(title))
        for name, button in self.sections.items():
            button.setChecked(name == title)
        self.show_view(self.ctl.snapshot())

    # -- void -----------------------------------------------------------------------------

    def _void_page(self) -> QWidget:
        page = QWidget()
        self.void_why = _label(role="refusal")
        self.reason_buttons: dict[str, TouchButton] = {}
        reasons = QVBoxLayout()
        reasons.addWidget(_label("Why is the round void?", "group"))
        for reason in (*VOID_REASONS, OTHER):
            button = TouchButton(reason, ButtonRole.SECONDARY)
            button.setCheckable(True)
            button.clicked.connect(lambda _=False, r=reason: self.pick_reason(r))
            reasons.addWidget(button)
            self.reason_buttons[reason] = button
        reasons.addStretch(1)
        self.reason_keys = TextKeyboard(self._reason_problem, "type the reason, then OK",
                                        sentence=True, max_chars=REASON_MAX)
        self.reason_keys.accepted.connect(lambda text: self.pick_reason(OTHER, text))
        self.reason_keys.hide()
        self.void_button = TouchButton("Void the round: every wager returned",
                                       ButtonRole.DANGER, money=True)
        self.void_button.clicked.connect(self.void_round)
        body = QHBoxLayout()
        body.addLayout(reasons, 1)
        body.addWidget(self.reason_keys, 3)
        layout = QVBoxLayout(page)
        layout.addWidget(self.void_why)
        layout.addLayout(body, 1)
        layout.addWidget(self.void_button)
        return page

    def _reason_problem(self, text: str) -> str | None:
        if len(text.strip()) > REASON_MAX:
            return f"a reason is at most {REASON_MAX} characters"
        return None

    def pick_reason(self, reason: str, typed: str | None = None) -> None:
        """A listed reason, or (``OTHER``) the keyboard to type one; typed text picks it."""
        if reason == OTHER and typed is None:
            self._reason = None
            self.reason_keys.show()
        else:
            self._reason = (typed if typed is not None else reason).strip()
            self.reason_keys.setVisible(reason == OTHER)
        for name, button in self.reason_buttons.items():
            button.setChecked(name == reason)
        self.show_view(self.ctl.snapshot())

    def void_round(self) -> None:
        reason = self._reason
        if reason is None:
            return
        round_id = self.ctl.state.round_id
        if self.act(lambda: self.ctl.supervise(c.VoidRound(reason, ""),
                                               self.session.employee),
                    f"Round {round_id} voided ({reason}) by {self.who}: every wager returned."):
            self._reason = None
            self.reason_keys.clear()
            self.reason_keys.hide()
            for button in self.reason_buttons.values():
                button.setChecked(False)
            self.show_view(self.ctl.snapshot())

    # -- the banker's hand ----------------------------------------------------------------

    def _banker_page(self) -> QWidget:
        page = QWidget()
        self.banker_why = _label(role="refusal")
        self.banker_cards = CardRow(card_height=theme.CARD_HEIGHT)
        self.banker_cards.tapped.connect(self.tap_card)
        self.banker_detail = _label()
        self.banker_detail.setTextFormat(Qt.TextFormat.RichText)
        self.house_way = TouchButton("Set the House Way", ButtonRole.PRIMARY,
                                     money=True)
        self.house_way.clicked.connect(lambda: self.reconstruct(None))
        self.as_shown = TouchButton("Set as shown", ButtonRole.PRIMARY, money=True)
        self.as_shown.clicked.connect(lambda: self.reconstruct(self._chosen()))
        self.again = TouchButton("Start again", ButtonRole.SECONDARY)
        self.again.clicked.connect(self._start_again)
        buttons = QHBoxLayout()
        for button in (self.house_way, self.as_shown, self.again):
            buttons.addWidget(button)
        reasons = QHBoxLayout()
        reasons.addWidget(_label("Why:", "group"))
        self.reconstruct_reasons: dict[str, TouchButton] = {}
        for reason in RECONSTRUCT_REASONS:
            button = TouchButton(reason, ButtonRole.SECONDARY)
            button.setCheckable(True)
            button.clicked.connect(lambda _=False, r=reason: self.pick_why(r))
            reasons.addWidget(button)
            self.reconstruct_reasons[reason] = button
        layout = QVBoxLayout(page)
        layout.addWidget(self.banker_why)
        layout.addWidget(self.banker_cards, 1)
        layout.addWidget(self.banker_detail)
        layout.addLayout(reasons)
        layout.addLayout(buttons)
        return page

    def pick_why(self, reason: str) -> None:
        """The reason recorded with the reconstruction (the round refuses one without)."""
        self._why_reconstruct = reason
        for name, button in self.reconstruct_reasons.items():
            button.setChecked(name == reason)
        self.show_view(self.ctl.snapshot())

    def _reconstruction(self, setting: Setting) -> c.ReconstructBankerHand:
        return c.ReconstructBankerHand(setting, self.who, self._why_reconstruct or "")

    def tap_card(self, index: int) -> None:
        """Touch the two cards of the banker's low hand (a third touch starts again)."""
        if len(self._low) == 2:
            self._low = []
        if index in self._low:
            self._low.remove(index)
        elif index < len(self._hand):
            self._low.append(index)
        self.show_view(self.ctl.snapshot())

    def _start_again(self) -> None:
        self._low = []
        self.show_view(self.ctl.snapshot())

    def _chosen(self) -> Setting | None:
        if len(self._low) != 2:
            return None
        low = [self._hand[i] for i in self._low]
        return make_setting(low, [card for card in self._hand if card not in low])

    def _house_way(self) -> Setting | None:
        r = self.ctl.snapshot().round
        if r.banker_seat not in r.hands:
            return None
        return self.ctl.house_way(r.banker_seat)

    def reconstruct(self, setting: Setting | None) -> None:
        """The banker's hand set again as ``setting`` (None: the House Way)."""
        chosen = setting or self._house_way()
        if chosen is None:
            return
        why = self._why_reconstruct or ""
        if self.act(lambda: self.ctl.supervise(c.ReconstructBankerHand(chosen, "", why),
                                               self.session.employee),
                    f"The banker's hand is now {chosen}, reconstructed by {self.who} "
                    f"({why})."):
            self._low = []
            self.pick_why("")

    def _show_banker(self, view: TableSnapshot) -> None:
        r = view.round
        hand = r.hands.get(r.banker_seat, ())
        if hand != self._hand:
            self._hand, self._low = hand, []
        way = self._house_way()
        problem = r.reconstruct_problem  # the round's, whatever the setting
        if problem is None and way is None:
            problem = "the banker has no hand yet"
        _why(self.banker_why, problem, "The banker's hand may be reconstructed now, once, "
             "with the reason touched below.")
        chosen = self._chosen()
        if chosen is not None:
            self.banker_cards.set_groups([("Low", format_cards(chosen.low).split()),
                                          ("High", format_cards(chosen.high).split())])
        else:
            self.banker_cards.set_cards(format_cards(hand).split())
            self.banker_cards.set_selected(self._low)
        lines = []  # rich text: the hands' cards as the cards show them
        if r.banker_setting is not None:
            lines.append(f"Set now: {setting_on_dark(r.banker_setting, False)}")
        if way is not None:
            lines.append(f"House Way: {setting_on_dark(way, False)}"
                         + (f" ({escape(way.rule)})" if way.rule else ""))
        if chosen is None and hand:
            lines.append("Touch the two cards of the low hand to set it otherwise.")
        if chosen is not None and problem is None:
            why = self.ctl.check(self._reconstruction(chosen))
            if why:
                lines.append(f"Refused as shown: {escape(why)}")
        self.banker_detail.setText("<br>".join(lines))
        for button in self.reconstruct_reasons.values():
            button.setEnabled(problem is None)
        self.house_way.setEnabled(problem is None and way is not None and self.ctl.check(
            self._reconstruction(way)) is None)
        self.as_shown.setEnabled(problem is None and chosen is not None and self.ctl.check(
            self._reconstruction(chosen)) is None)

    # -- deck count -----------------------------------------------------------------------

    def _count_page(self) -> QWidget:
        page = QWidget()
        self.count_why = _label(role="refusal")
        self.count_pad = NumberPad(hint="the cards counted by hand (53 expected); the "
                                        "shuffler's own count is on the dealer's screen")
        self.count_pad.accepted.connect(self.deck_counted)
        layout = QHBoxLayout(page)
        layout.addWidget(self.count_why, 1, Qt.AlignmentFlag.AlignTop)
        layout.addWidget(self.count_pad, 1)
        return page

    def deck_counted(self, count: int) -> None:
        ok = "play may resume: redeal" if count == 53 else "not 53: count the deck again"
        self.act(lambda: self.ctl.supervise(c.DeckCounted(count), self.session.employee),
                 f"Deck count {count} entered by {self.who}: {ok}.")

    def _show_count(self, view: TableSnapshot) -> None:
        r = view.round
        problem = None
        if r.phase is not Phase.MISDEAL:
            problem = "a deck count is entered after a misdeal"
        else:
            problem = view.deck_count_problem
        what = MISDEALS.get(r.misdeal_reason or "", (r.misdeal_reason or "", ""))[0]
        _why(self.count_why, problem, f"Misdeal: {what}. Count the whole deck and enter the "
             "number of cards.")
        self.count_pad.setEnabled(problem is None)
        self.count_pad.set_validator(lambda n: self.ctl.check(c.DeckCounted(n, self.who)))

    # -- fouls ----------------------------------------------------------------------------

    def _foul_page(self) -> QWidget:
        page = QWidget()
        rules = self.ctl.rules
        text = _label(
            f"At this table ({rules.name}) {CONSEQUENCE[rules.foul]}. The console applies "
            "this itself when a hand is set: the profile asks the floor for no decision on "
            "a foul. A banker's hand is never foul: it is set the House Way (rules README, "
            "\"Setting and comparing hands\").")
        text.setProperty("role", "hint")
        layout = QGridLayout(page)
        layout.addWidget(_label("Foul hands", "heading"), 0, 0)
        layout.addWidget(text, 1, 0)
        layout.setRowStretch(2, 1)
        return page

    # -- drawing --------------------------------------------------------------------------

    def show_view(self, view: TableSnapshot) -> None:
        r = view.round
        self.status.setText(f"Round {r.round_id} - {PHASES[r.phase]}")
        self.show_notice(view)
        void_problem = view.void_problem
        _why(self.void_why, void_problem, "A round may be voided before START GAME; every "
             "wager is returned.")
        self.void_button.setEnabled(void_problem is None and bool(self._reason))
        for button in self.reason_buttons.values():
            button.setEnabled(void_problem is None)
        try:
            self._show_banker(view)
        except ConsoleError as exc:  # a hand the House Way cannot read: say so, stay up
            self.banker_why.setText(str(exc))
        self._show_count(view)

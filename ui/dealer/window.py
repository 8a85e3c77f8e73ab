"""The dealer's window: header (table, round, phase, devices), the device faults where the
dealer looks, the table as on the felt, the phase's page with the hand in focus, and the phase
bar with the one next step. It redraws from the controller's view on every change."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QCloseEvent, QResizeEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from dealer_console.controller import TableController, TableSnapshot
from dealer_console.controller.view import Level
from dealer_console.employees.registry import Employee, Role
from dealer_console.round.state import Phase
from ui import theme
from ui.bridge import ControllerBridge
from ui.dealer.betting import BettingPage
from ui.dealer.next_step import next_step, typed_step
from ui.dealer.page_kit import Scroller
from ui.dealer.pages import build_pages
from ui.dealer.seats import SHORT_STRIP, TableView
from ui.supervisor.area import SupervisorArea
from ui.supervisor.session import Session, SessionGuard
from ui.supervisor.win_page import WinPageDesk
from ui.technician.area import TechnicianArea
from ui.technician.setup_screen import SetupContext
from ui.widgets.card_prompt import CardPrompt
from ui.widgets.fault_banner import FaultBanner
from ui.widgets.kit import act
from ui.widgets.pages import PageStack
from ui.widgets.phase_bar import PhaseBar
from ui.widgets.touch import ButtonRole, TouchButton
from ui.words import PHASES

TOP_SHARE, TABLE_SHARE, BAR_SHARE = 9, 16, 15
"""The top strip's, the table's and the phase bar's share of the screen's height (per cent)."""

TALLER_TABLE = {Phase.DEALING: 10, Phase.DEAL_CHECK: 10, Phase.BANKER_SET: 10,
                Phase.PLAYERS_SET: 10, Phase.SETTLEMENT: 10, Phase.END: 21}
"""A short screen's table strip takes this much more of the height (per cent) in a phase whose
page can give the room: there every seat shows its hand under up to three wagers or a badge
(while it arrives, and set: a high hand's five cards take two lines in a 1280x800 seat). The
deal's page has room to spare; while the hands are set the hand page's large cards shrink for
it (its row ``grows``: its buttons stay in view); in settlement every seat's results show, and
at the end of a jackpot round its hands and results under two badges and two wagers, a paid
award's line included (the jackpot page's hand buttons stay over 48 px: about 50)."""


def _taller(phase: Phase | None) -> int:
    """How much taller (per cent of the screen) a short screen's strip is in ``phase``."""
    return 0 if phase is None else TALLER_TABLE.get(phase, 0)


DEVICE_SHARE = 55
"""The most of the header's width (per cent) the device list may take from the round's title."""


class DealerArea(QWidget):
    """The dealer's table: its strips have fixed heights and its page scrolls, so its height
    never depends on its width (a stack would otherwise take the page's wish for a need)."""

    def hasHeightForWidth(self) -> bool:
        return False

    def heightForWidth(self, _width: int) -> int:
        # a stack asks each page directly, shown or not (QStackedLayout::heightForWidth)
        return -1


class DealerWindow(QMainWindow):
    def __init__(self, controller: TableController, bridge: ControllerBridge,
                 four_colour: bool = False) -> None:
        super().__init__()
        self.ctl = controller
        self.bridge = bridge
        self.four_colour = four_colour
        self.focus: int | None = None
        self._phase: Phase | None = None  # the phase the strips were last fitted for
        self._fitted = QSize(1280, 800)  # and the size
        self._notice_seen = 0
        self.on_closed: list[Callable[[], object]] = []
        """Called once the window is closed (a screenshot's console is stopped with it)."""
        self.setWindowTitle(f"Dealer Console - {controller.about.title}")

        self.title = QLabel()
        self.title.setProperty("role", "heading")
        self.title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.devices = QLabel()
        self._devices_view: TableSnapshot | None = None
        self.devices.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.colours = TouchButton("Four colours", ButtonRole.SECONDARY)
        self.colours.setMinimumWidth(theme.TOUCH_MIN * 4)
        self.colours.setMaximumWidth(theme.TOUCH_MIN * 6)  # a switch, not a banner
        self.colours.setCheckable(True)
        self.colours.setChecked(four_colour)
        self.colours.clicked.connect(self._toggle_colours)
        self.header = QWidget()
        header = QHBoxLayout(self.header)
        header.setContentsMargins(0, 0, 0, 0)
        header.addWidget(self.title, 1)
        header.addWidget(self.devices)
        header.addWidget(self.colours)

        self.faults = FaultBanner(compact=True)
        self.table = TableView(controller.rules.seats)
        self.table.seat_tapped.connect(self._seat_tapped)
        self.stack, self.pages = build_pages(controller, self.act)
        betting = self.pages[Phase.BETTING]
        if isinstance(betting, BettingPage):
            betting.on_focus = self._focus_on
            betting.on_typed = lambda: self._show_step(self.ctl.snapshot())
        self.phase_bar = PhaseBar()
        policy = self.phase_bar.primary.sizePolicy()
        policy.setRetainSizeWhenHidden(True)
        self.phase_bar.primary.setSizePolicy(policy)
        self.supervisor_button = self.phase_bar.add_secondary("Supervisor", self.ask_supervisor)
        self.technician_button = self.phase_bar.add_secondary("Technician", self.ask_technician)
        for staff in (self.supervisor_button, self.technician_button):
            # the staff's doors, in small type: the dealer's sentence keeps its width
            staff.setStyleSheet(f"font-size: {theme.FONT_SMALL}px; padding: 0 8px;")
        self.technician: TechnicianArea | None = None
        self.setup_context = SetupContext(controller.about.db_path.parent / "devices.toml")
        """Where device set-up saves (the console's start sets the real file and the
        simulator)."""
        self.card_prompt = CardPrompt(lambda: self.act(controller.cancel_card),
                                      controller.enter_card_pin)
        self.supervisor: SupervisorArea | None = None
        self.guard: SessionGuard | None = None
        """Ends the open staff area's session (disabled card, changed role, idle lock)."""
        self.win_pages = WinPageDesk(controller, self)
        """Prints and shows the win page the money bag asks for."""

        # the top strip: the round's title always, then the devices or their faults, then
        # the card the table waits for; one fixed height, so nothing below it ever moves
        self.fault_area = Scroller(self.faults)
        self.fault_area.hide()
        self.table_area = Scroller(self.table)
        """The seats scroll together when a round's marks need more than their strip."""
        self.title.setWordWrap(True)
        self.title.setProperty("role", "")
        self.title.setStyleSheet(f"font-size: {theme.FONT_BODY}px; font-weight: bold;")
        prompt_layout = self.card_prompt.layout()
        assert prompt_layout is not None
        prompt_layout.setContentsMargins(theme.SPACING, 2, 2, 2)
        self.card_prompt.text.setStyleSheet(f"font-size: {theme.FONT_SMALL}px;")
        header.removeWidget(self.title)
        self.top = QWidget()
        self.top_row = QHBoxLayout(self.top)
        self.top_row.setContentsMargins(0, 0, 0, 0)
        self.top_row.addWidget(self.title, 2)
        self.top_row.addWidget(self.header, 3)
        self.top_row.addWidget(self.fault_area, 4)  # a fault says more than the devices: room
        body = QVBoxLayout()
        body.setContentsMargins(theme.SPACING // 2, 0, theme.SPACING // 2, 0)
        body.setSpacing(0)
        body.addWidget(self.top)
        body.addWidget(self.table_area)
        body.addWidget(self.stack, 1)
        body.addWidget(self.phase_bar)
        self.dealer_area = DealerArea()
        self.dealer_area.setLayout(body)
        self.areas = PageStack()
        """The dealer's table, or a staff area (the supervisor's screens) in its place."""
        self.areas.addWidget(self.dealer_area)
        central = QWidget()
        self.outer = QVBoxLayout(central)
        self.outer.setContentsMargins(0, 0, 0, 0)
        self.outer.setSpacing(0)
        self.outer.addWidget(self.areas, 1)
        self.setCentralWidget(central)
        self._place_prompt()
        self._fit_parts(QSize(1280, 800))
        bridge.changed.connect(self.show_view)
        self.show_view(controller.snapshot())

    # -- commands ------------------------------------------------------------------------------

    def act(self, command: Callable[[], object]) -> bool:
        """Run a dealer's command; a refusal is shown in plain words with what to do."""
        return act(command, self._say, self._said_nothing)

    def _said_nothing(self) -> None:
        self.phase_bar.clear_message()
        self.phase_bar.instruction.show()

    def _say(self, problem: str, todo: str = "", calm: bool = False) -> None:
        """A refusal or a notice in the phase bar, in the sentence's place (the bar keeps its
        height) until the next step succeeds."""
        self.phase_bar.show_message(problem, todo, calm)
        self.phase_bar.instruction.hide()

    def ask_supervisor(self) -> None:
        """The supervisor's screens open on a supervisor's (or an executive's) card."""
        self.act(lambda: self.ctl.want_card(Role.SUPERVISOR, "open the supervisor's screens",
                                            self.open_supervisor))

    def open_supervisor(self, employee: Employee) -> SupervisorArea:
        self.close_supervisor()
        self.guard = SessionGuard(self.ctl, employee, Role.SUPERVISOR, self._session_ended,
                                  parent=self)
        self.supervisor = SupervisorArea(self.ctl, self.bridge,
                                         Session(employee, check=self.guard.check),
                                         self.close_supervisor)
        self.areas.addWidget(self.supervisor)
        self.areas.setCurrentWidget(self.supervisor)
        self._place_prompt()
        return self.supervisor

    def close_supervisor(self) -> None:
        area, self.supervisor = self.supervisor, None
        self._stop_guard()
        if area is not None and self.ctl.snapshot().card_pin:
            self.ctl.cancel_card()  # the area's change waited for a PIN: no one is there now
        self.areas.setCurrentWidget(self.dealer_area)
        self._place_prompt()
        if area is not None:
            self.areas.removeWidget(area)
            area.deleteLater()

    def _stop_guard(self) -> None:
        guard, self.guard = self.guard, None
        if guard is not None:
            guard.stop()
            guard.deleteLater()

    def _session_ended(self, why: str) -> None:
        """A staff session ended by the guard (a card disabled, a role changed, the idle
        lock): back to the dealer's screen, saying why."""
        self.guard = None
        if self.technician is not None:
            self.leave_test_mode()
        else:
            self.close_supervisor()
        self._say(why)

    def ask_technician(self) -> None:
        """Test mode and the technician's screens open on a technician's card, between
        rounds only (refused at once otherwise, with the reason)."""
        self.act(lambda: self.ctl.ask_test_mode(self.open_technician))

    def open_technician(self, employee: Employee) -> TechnicianArea:
        self.close_supervisor()
        self.guard = SessionGuard(self.ctl, employee, Role.TECHNICIAN, self._session_ended,
                                  parent=self)
        self.technician = TechnicianArea(self.ctl, self.bridge, employee, self.setup_context,
                                         self.leave_test_mode, check=self.guard.check)
        self.areas.addWidget(self.technician)
        self.areas.setCurrentWidget(self.technician)
        self._place_prompt()
        return self.technician

    def leave_test_mode(self) -> None:
        area, self.technician = self.technician, None
        self._stop_guard()
        if self.ctl.in_test_mode:
            self.act(self.ctl.leave_test_mode)
        self.areas.setCurrentWidget(self.dealer_area)
        self._place_prompt()
        if area is not None:
            self.areas.removeWidget(area)
            area.deleteLater()

    def _focus_on(self, seat: int | None) -> None:
        """A page moved the seat in focus (the next seat's wager)."""
        self.focus = seat

    def _seat_tapped(self, seat: int) -> None:
        self.focus = seat
        betting = self.pages[Phase.BETTING]
        if isinstance(betting, BettingPage):
            betting.touched(seat)
        self.show_view(self.ctl.snapshot())

    def _toggle_colours(self) -> None:
        self.four_colour = self.colours.isChecked()
        self.show_view(self.ctl.snapshot())

    # -- drawing -------------------------------------------------------------------------------

    def _device_words(self) -> None:
        """Each device and its state; where that list would crowd the round's title (a small
        screen, many devices) and every device is OK, one short line says so (a fault always
        names itself, and the fault banner takes the header's place)."""
        view = self._devices_view
        if view is None:
            return
        full = "  ".join(f"{d.title} {'OK' if d.fault is None else 'FAULT'}"
                         for d in view.devices)
        room = self.width() * DEVICE_SHARE // 100
        if view.faults or self.devices.fontMetrics().horizontalAdvance(full) <= room:
            self.devices.setText(full)
        else:
            self.devices.setText(f"All {len(view.devices)} devices OK")

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_parts(event.size())
        self._device_words()

    def _fit_parts(self, size: QSize) -> None:
        """The strips' heights from the screen's: fixed whatever the page holds (the keypad
        and the phase bar never move), the table taller on a taller screen (bigger cards,
        more lines), and on a short screen taller in a phase of ``TALLER_TABLE``; the page
        takes the rest and scrolls what does not fit."""
        self._fitted = size
        height = max(size.height(), 600)
        self.top.setFixedHeight(height * TOP_SHARE // 100)
        # past 800 px, four tenths of the extra height go to the table: bigger cards, more lines
        table_height = height * TABLE_SHARE // 100 + max(0, height - 800) * 2 // 5
        self.table.fit_cards(table_height)  # the screen's type, whatever the phase
        if table_height < SHORT_STRIP:
            table_height += height * _taller(self._phase) // 100
        self.table_area.setFixedHeight(table_height)
        self.phase_bar.setFixedHeight(height * BAR_SHARE // 100)

    def _place_prompt(self) -> None:
        """The card prompt sits in the dealer's top strip (beside the faults, never over
        them) while the dealer's table shows, above a staff area otherwise."""
        dealer = self.areas.currentWidget() is self.dealer_area
        owner = self.top if dealer else self.centralWidget()
        if self.card_prompt.parentWidget() is owner:
            return
        if dealer:
            self.top_row.addWidget(self.card_prompt, 3)
        else:
            self.outer.insertWidget(0, self.card_prompt)

    def show_view(self, view: TableSnapshot) -> None:
        self.card_prompt.show_prompt(view.card_wanted, view.card_pin)
        # an executive's PIN asked for in a staff area: its pad takes the area's room (the
        # change waits for it; the smallest screen has no room for both)
        self.areas.setVisible(not view.card_pin
                              or self.areas.currentWidget() is self.dealer_area)
        self.win_pages.show_request(view.win_page)
        r = view.round
        self.title.setText(f"Round {r.round_id} - {PHASES[r.phase]}"
                           + (" - TEST MODE" if view.test_mode else ""))
        self._devices_view = view
        self._device_words()
        self.faults.set_faults([(d.title, d.fault or "", d.todo) for d in view.faults])
        # a fault takes the devices' place (the round's title stays): it says more, and the
        # page keeps its room
        self.header.setVisible(not view.faults and view.card_wanted is None)
        self.fault_area.setVisible(bool(view.faults))
        self._place_prompt()
        refit = _taller(r.phase) != _taller(self._phase)
        self._phase = r.phase
        if refit:
            self._fit_parts(self._fitted)
        page = self.pages.get(r.phase)
        current = self.focus
        if page is not None:
            page.four_colour = self.four_colour
            self.stack.setCurrentWidget(page)
            page.show_view(view, self.focus)
            current = page.seat_in_focus(view, self.focus)
        self.table.show_round(view, current, self.four_colour)
        self._show_step(view)
        notice = view.notice
        if notice is not None and notice.number != self._notice_seen:
            self._notice_seen = notice.number
            # a refused swipe for an armed jackpot is told in the jackpot panel, beside the
            # hit it was for; the phase bar keeps its room for the next step
            in_panel = view.jackpot_armed and r.phase is Phase.END
            if (notice.level is not Level.INFO or notice.todo) and not in_panel:
                self._say(notice.what, notice.todo, calm=notice.level is Level.INFO)

    def _show_step(self, view: TableSnapshot) -> None:
        """The phase bar's sentence and button: the phase's next step, or, while an amount
        for a seat is typed on the betting keypad, that amount placed with START GAME."""
        step = typed_step(self.pages[Phase.BETTING], self.ctl, view) or next_step(self.ctl, view)
        self.phase_bar.set_instruction(
            "Test mode: a technician is testing the devices" if view.test_mode
            else step.sentence)
        bar_action = step.action
        self.phase_bar.set_action(step.button, (lambda: self.act(bar_action))
                                  if bar_action else None, step.enabled)
        # with no step to take here the button is hidden; it keeps its room, so hiding and
        # showing it never lays the window out again
        self.phase_bar.primary.setVisible(bool(step.button))

    def closeEvent(self, event: QCloseEvent) -> None:
        self._stop_guard()  # a closed console keeps no idle timer running
        self.bridge.detach()
        super().closeEvent(event)
        callbacks, self.on_closed = self.on_closed, []
        for callback in callbacks:
            callback()

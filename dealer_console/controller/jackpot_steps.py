"""The controller's jackpot steps, as a screen or the keypad takes them: the seat and hand
buttons, CONFIRM and the confirming card or PIN, the money bag's win page, the awards and
meters read back, and the back-out. Each is one turn handed to the jackpot desk
(:mod:`.jackpot_desk`); :class:`~dealer_console.controller.controller.TableController` has
them from here, so the façade stays small."""

from __future__ import annotations

from dealer_console.controller.card_desk import CardDesk
from dealer_console.controller.jackpot_desk import JackpotDesk
from dealer_console.controller.turns import Turns, one_turn
from dealer_console.controller.view import WinPageRequest
from dealer_console.employees.registry import Employee
from dealer_console.jackpot import history, hits, win_prints


class JackpotSteps:
    """The jackpot's public steps of the controller (see the module doc)."""

    turns: Turns
    jackpot: JackpotDesk
    cards: CardDesk

    @one_turn
    def select_jackpot_game(self, spot: int) -> None:
        self.jackpot.select_game(spot)

    @one_turn
    def jackpot_seat(self, seat: int) -> None:
        self.jackpot.seat(seat)

    @one_turn
    def jackpot_hand(self, line_no: int) -> None:
        """The hand button: mark the selected seat, or (pressed again) clear the dealer's own
        mark."""
        self.jackpot.hand(line_no)

    @one_turn
    def arm_confirmation(self) -> None:
        """CONFIRM: the next swipe confirms the first pending hit. One card prompt at a time
        (issue 23: two showed, and the swipe went to the one not meant): a card asked for
        anything else is no longer asked for."""
        self.jackpot.arm()
        if self.cards.wanted is not None:
            self.cards.cancel()

    @one_turn
    def cancel_jackpot_swipe(self) -> None:
        """The screen's Cancel for an armed confirmation (the keypad's CANCEL may be out of
        reach: its cable pulled): disarmed, a held first confirmation or a PIN forgotten."""
        self.jackpot.cancel()

    @one_turn
    def confirm_jackpot(self, track: str) -> None:
        """A card swipe confirms the first pending hit: authorised once by the jackpot system
        (a refusal is logged and raised with its reason). Where the award needs two people the
        first accepted swipe is held and told; the confirmation stays armed for the second."""
        self.jackpot.confirm(track)

    @one_turn
    def enter_pin(self, pin: str) -> None:
        """The confirmer's PIN after their accepted swipe (``pin_required``): checked by the
        jackpot system; a wrong one is logged and raised in plain words, nothing paid."""
        self.jackpot.enter_pin(pin)

    # the money bag: the win page of an award (Washington document, "Face Up Pai Gow Poker
    # Jackpot Rules of Play" item 9 f); and the back-out by manual adjustment (item 9 h)

    @one_turn
    def request_win_page(self, hit_id: int | None = None,
                         asked_by: Employee | None = None) -> int:
        """Ask the window to print award ``hit_id``'s win page and show it; without an award,
        the last one confirmed in this round (the keypad's money bag). ``asked_by``: the
        employee whose card opened the screen that asked (None: the keypad's money bag, no
        card). The print is recorded, with its copy number, before the window prints it.
        Returns the award."""
        return self.jackpot.request_win_page(hit_id, asked_by)

    def win_page_not_printed(self, request: WinPageRequest, why: str) -> None:
        """The window could not print ``request`` (the printer or the disk refused): recorded,
        and its copy number goes to the next print."""
        self.jackpot.win_page_not_printed(request, why)

    def win_page_finished(self, request: WinPageRequest, printer: str | None) -> None:
        """The window printed ``request`` to ``printer`` (None: wrote its PDF file): recorded,
        so a print recorded and never finished (the console stopped in between) shows."""
        self.jackpot.win_page_finished(request, printer)

    def win_page_prints(self, hit_id: int) -> list[win_prints.WinPrint]:
        """Award ``hit_id``'s recorded prints, oldest first."""
        return self.jackpot.win_page_prints(hit_id)

    def unfinished_win_pages(self) -> list[win_prints.WinPrint]:
        """The prints recorded and never finished with no page of their award printed since,
        oldest first: each wants a copy printed."""
        return self.jackpot.unfinished_win_pages()

    def win_page_of(self, hit_id: int) -> hits.HitRecord:
        """The confirmed award as its win page prints it."""
        return self.jackpot.win_page_of(hit_id)

    def jackpot_awards(self) -> list[history.AwardEntry]:
        """The table's confirmed awards, newest first, each with its back-out if any."""
        return self.jackpot.awards()

    def meter_ledger(self) -> list[history.LedgerEntry]:
        """Every change of a meter (contributions, awards, resets, adjustments), newest first."""
        return self.jackpot.meter_ledger()

    def meter_history(self) -> tuple[list[history.LedgerEntry], list[hits.HitRecord]]:
        """Every change of a meter, oldest first, and every award (the supervisor's chart)."""
        return self.jackpot.meter_history()

    def meter_cents(self) -> dict[int, dict[str, int]]:
        """Each jackpot game's meters as they stand, in cents, by sensor spot."""
        return self.jackpot.meter_cents()

    @one_turn
    def ask_back_out(self, hit_id: int, reason: str) -> None:
        """Want an executive's card to back award ``hit_id`` out with ``reason``; refused at
        once (no card asked for) without a reason or for an award already backed out."""
        self.jackpot.ask_back_out(hit_id, reason)

    @one_turn
    def back_out(self, hit_id: int, reason: str, employee: Employee) -> int:
        """Back award ``hit_id`` out for ``employee``, whose executive's card was authorised:
        the meter entries reversed exactly, the award kept on record as backed out."""
        return self.jackpot.back_out(hit_id, reason, employee)

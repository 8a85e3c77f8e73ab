"""The one next step of each phase: the sentence the phase bar says, and the primary button's
words and command. Whether the button is live is asked of the controller (``check``); a step
the table waits for a device on has no button, and the sentence says what it waits for."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from dealer_console.controller import TableController, TableSnapshot
from dealer_console.money import format_cents
from dealer_console.round import commands as c
from dealer_console.round.rules import ActionSeatMethod
from dealer_console.round.state import Phase
from ui.dealer.betting import BettingPage
from ui.words import kind_name, seat_name

Action = Callable[[], object]


@dataclass
class Step:
    sentence: str
    button: str = ""
    action: Action | None = None
    enabled: bool = True
    secondary: list[tuple[str, Action]] = field(default_factory=list)


def seats_words(seats: list[int]) -> str:
    """``seats 1-3, 5`` (the dealer's spot as "the dealer")."""
    parts: list[str] = []
    players = [s for s in seats if s != 0]
    for seat in players:
        if parts and parts[-1].split("-")[-1] == str(seat - 1):
            parts[-1] = f"{parts[-1].split('-')[0]}-{seat}"
        else:
            parts.append(str(seat))
    words = ("seat " if len(players) == 1 else "seats ") + ", ".join(parts) if players else ""
    if 0 in seats:
        words = f"{words} and the dealer" if words else "the dealer"
    return words


def next_step(ctl: TableController, view: TableSnapshot) -> Step:
    r = view.round
    phase = r.phase
    dealer_acts = (phase is Phase.ACTION
                   and ctl.rules.action_method is not ActionSeatMethod.SHUFFLER)
    if view.waiting_for and not dealer_acts:
        return Step(f"Waiting for {view.waiting_for}.")
    if phase is Phase.BANKER:
        return Step(f"Offer the bank to seat {r.offer_seat}.")
    if phase is Phase.BETTING:
        problem = view.start_game_problem
        if problem and view.why_not(c.StartGame()) is None:
            sentence = problem[0].upper() + problem[1:] + "."  # a device START GAME needs
        elif problem:
            # the grey button always says why (the round's words, money in dollars)
            why = problem.removeprefix("START GAME ")
            sentence = f"START GAME waits: {why}."
        else:
            sentence = "Wagers are in: press START GAME."
        return Step(sentence, "START GAME", ctl.start_game, problem is None)
    if phase is Phase.ACTION:
        if ctl.rules.action_method is ActionSeatMethod.SHUFFLER:
            return Step("Waiting for the shuffler's number.")
        button = next((cmd for cmd, why in view.offers
                       if isinstance(cmd, c.SetActionSeat) and why is None), None)
        if button is not None:
            # Oxford Downs, "Action Button": it moves one seat clockwise every hand
            return Step(f"The action button moves clockwise to seat {button.seat}.",
                        f"Action button to seat {button.seat}", lambda: ctl.do(button))
        if ctl.rules.action_method is ActionSeatMethod.HIGH_CARD:
            return Step("Find the action: touch the seat that won the high card.")
        return Step("Find the action: touch the dice total." if ctl.rules.action_method
                    is ActionSeatMethod.DICE else "Find the action: enter the number.")
    if phase in (Phase.DEALING, Phase.DEAL_CHECK):
        if r.wrong_start is not None:
            return Step(f"The first hand went to seat {r.wrong_start}: move the hands.",
                        "Move the hands", lambda: ctl.do(c.CorrectFirstHand()))
        return Step("Deal the hands as the shuffler delivers them.")
    if phase is Phase.MISDEAL:
        if r.deck_count_due:
            live = any(d.name == "shuffler" for d in view.devices)
            return Step("Misdeal: count the deck, 53 cards.",
                        "Count the deck in the shuffler", ctl.count_deck, live)
        return Step("Misdeal: deal again; every wager stays.",
                    "Redeal", lambda: ctl.do(c.Redeal()), view.why_not(c.Redeal()) is None)
    if phase is Phase.BANKER_SET:
        if r.house_hand_last:
            # Catfish Bend, "Player Banker": the player banker sets, then the dealer turns the
            # house's hand over and sets it the House Way (the round does it with this touch)
            return Step(f"Seat {r.banker_seat} banks: their hand, then the house's.",
                        "Set the banker's hand",
                        lambda: ctl.do(c.SetBankerHand()),
                        view.why_not(c.SetBankerHand()) is None)
        sentence = ("Ace-high pai gow: base wagers push."
                    if view.banker_pai_gow else
                    "Expose the banker's hand and set it the House Way.")
        return Step(sentence,
                    "Set the banker's hand", lambda: ctl.do(c.SetBankerHand()),
                    view.why_not(c.SetBankerHand()) is None)
    if phase is Phase.PLAYERS_SET:
        todo = r.players_to_set()
        if not todo:
            return Step("Every hand is set.")
        # the button names every hand it sets: the players who asked for the House Way
        if r.house_hand_last:
            return Step(f"Players' hands: {len(todo)} to go; the house's waits.",
                        f"House Way: {seats_words(todo)}",
                        lambda: ctl.do(c.SetHandsHouseWay()),
                        view.why_not(c.SetHandsHouseWay()) is None)
        return Step(f"Players' hands: {len(todo)} to go.", f"House Way: {seats_words(todo)}",
                    lambda: ctl.do(c.SetHandsHouseWay()),
                    view.why_not(c.SetHandsHouseWay()) is None)
    if phase is Phase.SETTLEMENT:
        left = [s for s in r.plan_seats if s not in r.settled_seats]
        # without a jackpot END GAME waits for nothing once the money has moved: the same
        # touch ends the round (the page showed every line and the money handled before it)
        cmd = c.SettleAll(end_game=ctl.rules.profile.jackpot is None)
        words = (f"All {len(left)} settled as shown" if len(left) > 1 else
                 f"{seat_name(left[0], r.banker_seat, r.banker_kind)} settled")
        if cmd.end_game:
            words = words.replace(" as shown", "") + ": END GAME"
        return Step(f"Pay and take as shown: {len(left)} to settle.", words,
                    lambda: ctl.do(cmd), view.why_not(cmd) is None)
    if phase is Phase.END:
        if view.jackpot_pending:
            first = view.jackpot_pending[0]
            # the panel says whose card; the bar, short, what to do now
            unplugged = any(d.name == "keypad" for d in view.faults)
            sentence = ("Jackpot: the PIN on the pad." if view.jackpot_pin_for
                        else "Jackpot: the card reader is unplugged." if view.jackpot_armed
                        and unplugged
                        else "Jackpot: swipe the card." if view.jackpot_armed
                        else f"Jackpot: CONFIRM seat {first.seat}.")
            return Step(sentence,
                        "END GAME waits for the jackpot", ctl.end_game, False)
        return Step("All seats settled: press END GAME.", "END GAME", ctl.end_game,
                    view.why_not(c.EndGame()) is None)
    return Step("")


def typed_step(page: object, ctl: TableController, view: TableSnapshot) -> Step | None:
    """While a seat's amount is typed on the betting keypad and START GAME is the next step:
    that amount placed and START GAME in one touch, the button saying both (the last seat's
    OK and START GAME are one touch; a refusal of either is said as always)."""
    if not isinstance(page, BettingPage) or view.round.phase is not Phase.BETTING:
        return None
    typed = page.pending()
    plain = next_step(ctl, view)
    if typed is None or plain.button != "START GAME" or view.waiting_for:
        return None
    seat, kind, cents = typed
    r = view.round
    name = seat_name(seat, r.banker_seat, r.banker_kind)

    def place_and_start() -> None:
        page.place_pending()
        ctl.start_game()

    return Step(f"{name}: {kind_name(kind)} {format_cents(cents)} typed.",
                f"{format_cents(cents)} and START GAME", place_and_start)

"""The dealer's screens in the states a dealer meets them, for ``python -m ui.screenshots``:
each is a real console on simulated devices, played there by touch (``ScreenPlayer``) and
stopped when its window closes. Seeded: the same pictures every time."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QWidget

from dealer_console.cards import parse_cards
from dealer_console.profiles.loader import PROFILE_DIR
from dealer_console.round.state import Phase
from drivers.sim.table.world import shuffled_deck
from ui.dealer.settle_page import EndPage
from ui.gallery.player import ScreenPlayer


def _player(profile: str, pin_required: bool = False) -> ScreenPlayer:
    folder = tempfile.TemporaryDirectory(prefix="dealer-screens-")
    if pin_required:  # the shipped profile, asking for the confirmer's PIN after the card
        text = (PROFILE_DIR / f"{profile}.toml").read_text(encoding="utf-8")
        profile = str(Path(folder.name) / "pins.toml")
        Path(profile).write_text(text.replace('executive_above = "$1,000"\n',
                                              'executive_above = "$1,000"\npin_required = true\n'),
                            encoding="utf-8")
    player = ScreenPlayer.start(profile, Path(folder.name) / "table.db")
    assert player.hardware.shuffler is not None
    player.hardware.shuffler.script(seed=21)
    player.window.on_closed.append(player.close)
    player.window.on_closed.append(folder.cleanup)
    return player


def _wagers(p: ScreenPlayer) -> None:
    p.bet(1, "Base", 25)
    p.bet(3, "Base", 50)
    p.bet(3, "Fortune", 5)
    p.bet(5, "Base", 10)


def wagers() -> QWidget:
    p = _player("washington-face-up")
    _wagers(p)
    p.seat(3)
    p.tap(p.button("Ace-High", p.betting))
    p.type_amount(p.betting.keypad, 900)  # above the limit: refused as typed
    return p.window


def same_as_seat_before() -> QWidget:
    """New wagers seat after seat: seat 1's base and then its Fortune typed, seat 2 in focus
    with "same as seat 1" offered and a new base being typed, "OK + Fortune" beside it."""
    p = _player("washington-face-up")
    keypad = p.betting.keypad
    p.type_amount(keypad, 25)
    p.tap(keypad.keys["then"])
    p.type_amount(keypad, 5)
    p.tap(keypad.keys["ok"])
    p.type_amount(keypad, 40)
    return p.window


def bank_offered() -> QWidget:
    p = _player("california-face-up")
    return p.window


def dice() -> QWidget:
    p = _player("california-face-up")
    p.accept_bank(500)
    p.bet(2, "Base", 20)
    p.bet(4, "Base", 15)
    p.start_game()
    return p.window


def banker_pai_gow() -> QWidget:
    p = _player("washington-face-up")
    pai_gow = list(parse_cards("As Kd 9c 7h 5s 3d 2c"))
    deck = pai_gow + [x for x in shuffled_deck(3, 1) if x not in pai_gow]
    assert p.hardware.shuffler is not None
    p.hardware.shuffler.script(deck_order=tuple(deck), random_number=1)
    _wagers(p)
    p.chip(3)
    p.start_game()
    p.until_hands_set()
    return p.window


def players_foul() -> QWidget:
    p = _player("washington-face-up")
    _wagers(p)
    p.start_game()
    p.until_hands_set()
    p.next_step()
    p.touch_foul(3)
    return p.window


def settlement() -> QWidget:
    """The whole table's settlement on one page, the next seat marked."""
    p = _player("washington-face-up")
    to_settlement(p)
    return p.window


def to_settlement(p: ScreenPlayer) -> None:
    """Every seat wagered (seat 3 a Fortune wager too), dealt and set the House Way."""
    for seat in (1, 2, 3, 4, 5, 6):
        p.bet(seat, "Base", 10 + 5 * seat)
    p.bet(3, "Fortune", 5)
    p.start_game()
    p.until_hands_set()
    while p.phase in (Phase.BANKER_SET, Phase.PLAYERS_SET):
        p.next_step()


def settlement_limited() -> QWidget:
    """Washington's aggregate limit cutting the round's Fortune wins: each says the cut beside
    what the dealer pays (a seven-card straight flush at seat 1, four twos at seat 2)."""
    p = _player("washington-face-up")
    dealt = [parse_cards(x) for x in ("3c 4d 6s 8c 9d Jc Ks", "7h 8h 9h Th Jh Qh Kh",
                                        "2c 2d 2s 2h 5d 6c 9s")]
    fixed = [card for hand in dealt for card in hand]
    deck = fixed + [x for x in shuffled_deck(3, 1) if x not in fixed]
    assert p.hardware.shuffler is not None
    p.hardware.shuffler.script(deck_order=tuple(deck), random_number=1)  # the dealer's first
    for seat in (1, 2, 3, 4, 5, 6):
        p.bet(seat, "Base", 10 + 5 * seat)
        p.bet(seat, "Fortune", 100)
    p.start_game()
    p.until_hands_set()
    while p.phase in (Phase.BANKER_SET, Phase.PLAYERS_SET):
        p.next_step()
    return p.window


def same_wagers() -> QWidget:
    """The second round: last round's wagers again in one touch, for the table or a seat."""
    p = _player("washington-face-up")
    _wagers(p)
    p.start_game()
    p.until_hands_set()
    p.play_to_end()
    p.end_game()
    p.seat(3)
    return p.window


def house_way_all() -> QWidget:
    """Every hand the players leave to the House Way, named on the one button that sets them."""
    p = _player("washington-face-up")
    for seat in (1, 2, 3, 4, 5, 6):
        p.bet(seat, "Base", 10 + 5 * seat)
    p.start_game()
    p.until_hands_set()
    p.next_step()
    return p.window


def short_count() -> QWidget:
    """A deck count short of 53: what was counted, and what to do next."""
    p = _player("washington-face-up")
    p.tap(p.button("Next deal: card-count error", p.world))
    _wagers(p)
    p.start_game()
    p.wait(lambda: p.phase is Phase.MISDEAL, "the misdeal")
    page = p.window.pages[Phase.MISDEAL]
    p.type_number(page.keypad, 52)  # type: ignore[attr-defined]
    p.swipe("supervisor")  # a deck counted by hand is entered on the floor's card
    p.wait(lambda: p.ctl.snapshot().round.last_count == 52, "the count")
    return p.window


def misdeal() -> QWidget:
    p = _player("washington-face-up")
    p.tap(p.button("Next deal: card-count error", p.world))
    _wagers(p)
    p.start_game()
    p.wait(lambda: p.phase is Phase.MISDEAL, "the misdeal")
    return p.window


def device_fault() -> QWidget:
    p = _player("washington-face-up")
    _wagers(p)
    p.tap(p.button("Unplug bet-sensors", p.world))
    p.wait(lambda: p.window.faults.isVisible(), "the fault banner")
    return p.window  # START GAME waits for the sensors: its button is not live


def fortune_players() -> QWidget:
    p = _player("catfish-bend-fortune")
    p.bet(2, "Base", 25)
    p.bet(2, "Fortune", 5)
    p.bet(4, "Base", 10)
    p.start_game()
    p.until_hands_set()
    p.seat(2)
    return p.window


def typed_with_start() -> QWidget:
    """The last seat's amount typed: the phase bar places it with START GAME in one touch."""
    p = _player("washington-face-up")
    _wagers(p)
    p.seat(6)
    p.type_amount(p.betting.keypad, 70)
    return p.window


def player_banker_first() -> QWidget:
    """Catfish Bend, a player banks: the players have set, the player banker sets next and
    the house's hand stays face down until then."""
    p = _player("catfish-bend-fortune")
    p.bet(2, "Base", 25)
    p.bet(6, "Base", 25)  # the next banker: the house wagers up to its last wager
    p.start_game()
    p.until_hands_set()
    p.play_to_end()
    p.end_game()
    p.accept_bank(1000)
    p.bet(1, "Base", 25)
    p.bet(3, "Base", 10)
    p.bet(0, "House wager", 20)
    p.start_game()
    p.until_hands_set()
    p.next_step()  # the players' hands the House Way
    p.wait(lambda: p.phase is Phase.BANKER_SET, "the player banker's turn")
    return p.window


def jackpot_pending() -> QWidget:
    p = _player("washington-face-up")
    p.deal_jackpot_hands(["As Ks Qs Js Ts 2d 3c"])  # a royal flush at seat 1
    p.tap(p.button("CONFIRM, then swipe the card"))
    return p.window


def jackpot_two_hits() -> QWidget:
    p = _player("washington-face-up")
    # a natural and a wild seven-card straight flush: two meter pays, paid seat 2 first
    p.deal_jackpot_hands(["2s 3s 4s 5s 6s 7s 8s", "2h 3h 4h 5h 6h JK 8h"])
    return p.window


def jackpot_refused() -> QWidget:
    p = _player("washington-face-up")
    p.deal_jackpot_hands(["2s 3s 4s 5s 6s 7s 8s"])  # the whole meter: an executive's card
    p.tap(p.button("CONFIRM, then swipe the card"))
    p.swipe("supervisor")
    return p.window


def jackpot_pin() -> QWidget:
    """``pin_required``: the supervisor's card accepted, one wrong PIN refused, the PIN being
    typed again on the masked pad."""
    p = _player("washington-face-up", pin_required=True)
    p.deal_jackpot_hands(["As Ks Qs Js Ts 2d 3c"])
    p.tap(p.button("CONFIRM, then swipe the card"))
    p.swipe("supervisor")
    page = p.window.pages[Phase.END]
    assert isinstance(page, EndPage)
    pad = page.jackpot.pin_pad
    for digit in "0000":
        p.tap(pad.keys[digit])
    p.tap(pad.ok)
    for digit in "13":
        p.tap(pad.keys[digit])
    return p.window


DEALER_PAGES: dict[str, Callable[[], QWidget]] = {
    "dealer-wagers": wagers,
    "dealer-same-as-seat-before": same_as_seat_before,
    "dealer-bank-offered": bank_offered,
    "dealer-dice": dice,
    "dealer-banker-pai-gow": banker_pai_gow,
    "dealer-player-foul": players_foul,
    "dealer-settlement": settlement,
    "dealer-settlement-limited": settlement_limited,
    "dealer-misdeal": misdeal,
    "dealer-same-wagers": same_wagers,
    "dealer-house-way-all": house_way_all,
    "dealer-short-count": short_count,
    "dealer-device-fault": device_fault,
    "dealer-fortune-players-first": fortune_players,
    "dealer-player-banker-first": player_banker_first,
    "dealer-typed-with-start": typed_with_start,
    "dealer-jackpot-pending": jackpot_pending,
    "dealer-jackpot-two-hits": jackpot_two_hits,
    "dealer-jackpot-refused": jackpot_refused,
    "dealer-jackpot-pin": jackpot_pin,
}

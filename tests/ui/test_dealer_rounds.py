"""Whole rounds played by touch through the dealer's real screens, the table controller, the
real drivers and the simulated devices (in-process link), on every shipped profile; and the
round's special cases as a dealer meets them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from dealer_console.audit.verify import audit
from dealer_console.cards import parse_cards
from dealer_console.round.state import Phase
from drivers.sim.table.world import shuffled_deck
from tests.ui.shown_cards import NOTATION, plain, shown_cards, spelled
from ui import theme
from ui.gallery.player import ScreenPlayer

PROFILES = ["washington-face-up", "california-face-up", "oxford-downs-face-up",
            "catfish-bend-fortune"]


@pytest.fixture
def play(qtbot: QtBot, tmp_path: Path) -> Iterator[list[ScreenPlayer]]:
    started: list[ScreenPlayer] = []
    yield started
    for player in started:
        player.close()


def start(play: list[ScreenPlayer], profile: str, db: Path) -> ScreenPlayer:
    player = ScreenPlayer.start(profile, db)
    play.append(player)
    return player


@pytest.mark.parametrize("profile", PROFILES)
def test_a_whole_round_by_touch(play: list[ScreenPlayer], tmp_path: Path, profile: str) -> None:
    p = start(play, profile, tmp_path / "t.db")
    p.open_round()
    p.until_hands_set()
    if not p.ctl.rules.face_up:
        # Fortune Pai Gow keeps its order: the banker's hand stays face down meanwhile
        assert p.phase is Phase.PLAYERS_SET
        assert p.ctl.snapshot().hidden_seats == {p.ctl.state.banker_seat}
    p.play_to_end()
    lines = p.ctl.snapshot().round.lines
    assert {x.seat for x in lines} >= {2, 3}
    p.end_game()
    assert p.ctl.state.round_id == 2
    report = audit(p.console.opened.db)
    assert report.ok, report.problems


def test_a_wager_above_the_limit_is_refused_as_typed(play: list[ScreenPlayer],
                                                     tmp_path: Path) -> None:
    p = start(play, "washington-face-up", tmp_path / "t.db")
    p.seat(2)
    keypad = p.betting.keypad
    p.type_amount(keypad, 900)
    assert "above the maximum of $500.00" in (keypad.refusal() or "")
    assert not keypad.keys["ok"].isEnabled()
    assert not p.ctl.state.wagers
    p.type_amount(keypad, 25)
    p.tap(keypad.keys["ok"])
    assert p.ctl.state.wagers == {(2, "base"): 2500}


def test_the_banker_s_ace_high_pai_gow_pushes_every_base_wager(play: list[ScreenPlayer],
                                                               tmp_path: Path) -> None:
    p = start(play, "washington-face-up", tmp_path / "t.db")
    pai_gow = list(parse_cards("As Kd 9c 7h 5s 3d 2c"))
    deck = pai_gow + [x for x in shuffled_deck(3, 1) if x not in pai_gow]
    assert p.hardware.shuffler is not None  # number 1: the banker takes the first hand
    p.hardware.shuffler.script(deck_order=tuple(deck), random_number=1)
    p.open_round()
    p.until_hands_set()
    assert p.phase is Phase.BANKER_SET
    assert "ace-high pai gow" in p.window.phase_bar.instruction.text().lower()
    p.next_step()  # the banker's hand, set the House Way
    assert p.phase is Phase.SETTLEMENT
    p.play_to_end()
    base = [x for x in p.ctl.state.lines if x.kind == "base"]
    assert base and all(x.outcome == "push" for x in base)


def players_hands(play: list[ScreenPlayer], db: Path) -> ScreenPlayer:
    """A California round dealt, the banker's hand set: the players' hands to set."""
    p = start(play, "california-face-up", db)
    p.open_round()
    p.until_hands_set()
    p.next_step()  # the banker's hand
    assert p.phase is Phase.PLAYERS_SET
    return p


def test_a_player_s_foul_is_shown_at_once_with_the_profile_s_consequence(
        play: list[ScreenPlayer], tmp_path: Path) -> None:
    p = players_hands(play, tmp_path / "t.db")
    hand = p.ctl.state.hands[2]
    fouls = [(i, j) for i in range(7) for j in range(i + 1, 7)
             if p.ctl.preview_setting(2, [hand[i], hand[j]]).foul]
    assert fouls, f"the seeded deal gives seat 2 {hand}: no foul setting to try"
    low = fouls[0]
    p.seat(2)
    for index in low:
        p.tap(p.hand_page.cards.views[index])
    assert "FOUL" in p.hand_page.detail.text()
    assert "a foul hand loses" in p.hand_page.detail.text().lower()
    p.tap(p.hand_page.own)
    assert 2 in p.ctl.state.dead  # California: the foul hand loses


def test_the_house_way_and_the_settlement_show_cards_as_the_cards_show_them(
        play: list[ScreenPlayer], tmp_path: Path) -> None:
    """Suit symbols in the suits' colours, never the notation's letters (``Jd 5h``)."""
    p = players_hands(play, tmp_path / "t.db")
    p.seat(2)
    proposal = p.hand_page.detail.text()
    assert shown_cards(proposal) == spelled(p.ctl.house_way(2))
    assert not NOTATION.search(plain(proposal))
    assert any(theme.suit_colour(suit) in proposal for suit in "shdc")  # in the suits' colours
    p.next_step()  # every player's hand the House Way
    assert p.phase is Phase.SETTLEMENT
    page = p.window.pages[Phase.SETTLEMENT]
    cells = [page.rows.itemAt(i).widget().text()  # type: ignore[attr-defined]
             for i in range(page.rows.count())]  # type: ignore[attr-defined]
    shown = {int(re.match(r"Seat (\d)", cell).group(1)): cell for cell in cells}  # type: ignore[union-attr]
    assert set(shown) == set(p.ctl.state.settings)
    for seat, setting in p.ctl.state.settings.items():
        assert shown_cards(shown[seat]) == spelled(setting)


def test_a_misdeal_with_the_deck_count(play: list[ScreenPlayer], tmp_path: Path) -> None:
    p = start(play, "washington-face-up", tmp_path / "t.db")
    p.tap(p.button("Next deal: card-count error", p.world))
    p.open_round()
    p.wait(lambda: p.phase is Phase.MISDEAL, "the misdeal")
    assert "card-count error" in p.window.pages[Phase.MISDEAL].findChild(
        type(p.window.phase_bar.instruction)).text()
    assert "count the deck, 53 cards" in p.window.phase_bar.instruction.text()
    p.tap(p.button("Next deal: normal", p.world))  # the dealer gathers all 53 cards
    p.next_step()  # count the deck in the shuffler
    p.wait(lambda: not p.ctl.state.deck_count_due, "the deck count")
    assert p.window.phase_bar.primary.text() == "Redeal"
    p.next_step()
    p.until_hands_set()
    assert p.ctl.state.deal_no == 1 and p.phase is Phase.BANKER_SET
    misdeals = p.console.opened.db.execute(
        "SELECT reason, deck_counted FROM misdeals").fetchall()
    assert misdeals == [("card_count_error", 53)]


def test_the_first_hand_at_the_wrong_seat_is_moved(play: list[ScreenPlayer],
                                                   tmp_path: Path) -> None:
    p = start(play, "california-face-up", tmp_path / "t.db")
    assert p.hardware.shuffler is not None
    # the machine shuffles a while before the first hand: time to say where it went
    p.hardware.shuffler.script(shuffle_seconds=1.5)
    if p.phase is Phase.BANKER:
        p.accept_bank(1000)
    p.bet(2, "Base", 10)
    p.start_game()
    p.action(number=9)
    deal = p.window.pages[Phase.DEALING]
    p.wait(lambda: p.phase is Phase.DEALING, "the deal")
    wrong = p.ctl.state.order[2]
    p.tap(p.button(str(wrong), deal))
    p.wait(lambda: p.ctl.state.wrong_start is not None and p.phase is Phase.DEAL_CHECK,
           "the deal to the wrong seat")
    assert p.window.phase_bar.primary.text() == "Move the hands"
    p.next_step()
    p.until_hands_set()
    state = p.ctl.state
    assert state.wrong_start is None and state.delivered[0] == state.order[0]


def test_a_device_unplugged_and_back(play: list[ScreenPlayer], tmp_path: Path) -> None:
    p = start(play, "washington-face-up", tmp_path / "t.db")
    p.bet(2, "Base", 20)
    p.tap(p.button("Unplug bet-sensors", p.world))
    p.wait(lambda: p.window.faults.isVisible(), "the fault banner")
    assert any("Bet sensors" in f[0] for f in p.window.faults.faults())
    # START GAME waits for the sensors: the bar says so and its button is not live
    assert not p.window.phase_bar.primary.isEnabled()
    assert "Bet sensors not connected: START GAME waits" in p.window.phase_bar.instruction.text()
    assert p.phase is Phase.BETTING
    p.tap(p.button("Plug bet-sensors back", p.world))
    p.wait(lambda: not p.window.faults.isVisible(), "the fault to clear")
    p.start_game()
    p.until_hands_set()
    assert p.phase is Phase.BANKER_SET


def test_killed_in_the_middle_of_settlement_reopens_there(play: list[ScreenPlayer],
                                                          tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    first = start(play, "washington-face-up", db)
    first.open_round((1, 2, 3))
    first.until_hands_set()
    while first.phase in (Phase.BANKER_SET, Phase.PLAYERS_SET):
        first.next_step()
    first.tap(first.window.pages[Phase.SETTLEMENT].one)  # one seat settled, on its own
    settled = first.ctl.state.settled_seats
    assert len(settled) == 1
    play.remove(first)
    first.close()  # the power goes (every transition is already on disk)
    again = start(play, "washington-face-up", db)
    assert again.phase is Phase.SETTLEMENT
    assert again.ctl.state.settled_seats == settled
    assert "settled" in again.window.phase_bar.primary.text()
    again.play_to_end()
    again.end_game()
    report = audit(again.console.opened.db)
    assert report.ok, report.problems


def test_hands_taken_one_by_one_on_the_shuffler_s_deal_button(play: list[ScreenPlayer],
                                                              tmp_path: Path) -> None:
    """The world window's deal button: each hand reaches the screen when it is taken."""
    p = start(play, "washington-face-up", tmp_path / "t.db")
    p.tap(p.button("Hands on the deal button", p.world))
    p.open_round()
    p.wait(lambda: p.phase is Phase.DEALING, "the number")
    for taken in range(1, 8):
        assert len(p.ctl.state.delivered) == taken - 1
        p.tap(p.button("Deal button: next hand", p.world))
        p.wait(lambda n=taken: len(p.ctl.state.delivered) == n, f"hand {taken}")  # type: ignore[misc]
    p.until_hands_set()
    assert p.phase is Phase.BANKER_SET

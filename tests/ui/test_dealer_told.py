"""What the dealer must be told (issue 22), on the real screens: a misdeal declared only on a
second touch, a short deck count said with what to do, each seat starting on its base wager,
and a grey START GAME saying why in dollars."""

from __future__ import annotations

import json
from pathlib import Path

from dealer_console.audit.verify import audit
from dealer_console.round.state import Phase
from ui.gallery.player import ScreenPlayer


def start(play: list[ScreenPlayer], profile: str, db: Path) -> ScreenPlayer:
    player = ScreenPlayer.start(profile, db)
    play.append(player)
    return player


def test_a_misdeal_button_asks_for_a_second_touch(play: list[ScreenPlayer],
                                                  tmp_path: Path) -> None:
    p = start(play, "washington-face-up", tmp_path / "t.db")
    p.tap(p.button("Hands on the deal button", p.world))
    p.open_round()
    p.wait(lambda: p.phase is Phase.DEALING, "the deal")
    deal = p.window.pages[Phase.DEALING]
    p.tap(p.button("Misdeal: a position was missed in the deal", deal))
    assert p.phase is Phase.DEALING  # one touch declares nothing
    p.tap(p.button("Touch again to declare: a position was missed in the deal", deal))
    assert p.phase is Phase.DEALING  # nor the second: it asks for a supervisor's card
    assert "Swipe a supervisor's card to declare a misdeal" in str(p.ctl.snapshot().card_wanted)
    p.swipe("supervisor")
    p.wait(lambda: p.phase is Phase.MISDEAL, "the misdeal")
    misdeal = json.loads(p.ctl.table.db.execute(
        "SELECT payload FROM events WHERE kind = 'misdeal'").fetchone()[0])
    assert misdeal["who"] == "Sim Supervisor (SIM-S1)"
    todo = p.window.pages[Phase.MISDEAL].todo  # type: ignore[attr-defined]
    assert "No deck count is due" in todo.text()


def test_a_short_deck_count_says_what_was_counted_and_what_to_do(
        play: list[ScreenPlayer], tmp_path: Path) -> None:
    p = start(play, "washington-face-up", tmp_path / "t.db")
    p.tap(p.button("Next deal: card-count error", p.world))
    p.open_round()
    p.wait(lambda: p.phase is Phase.MISDEAL, "the misdeal")
    page = p.window.pages[Phase.MISDEAL]
    p.type_number(page.keypad, 52)  # type: ignore[attr-defined]
    assert p.ctl.snapshot().card_wanted is not None  # a count by hand: the floor enters it
    p.swipe("supervisor")
    p.wait(lambda: "counted 52 cards, not 53" in page.todo.text(),  # type: ignore[attr-defined]
           "the short count on screen")
    assert p.ctl.state.deck_count_due


def test_each_seat_starts_on_its_base_wager(play: list[ScreenPlayer], tmp_path: Path) -> None:
    p = start(play, "washington-face-up", tmp_path / "t.db")
    p.seat(1)
    p.tap(p.button("Base", p.betting))
    p.type_amount(p.betting.keypad, 20)
    p.tap(p.betting.keypad.keys["ok"])
    p.seat(1)
    p.tap(p.button("Fortune", p.betting))
    p.seat(2)
    assert p.betting.kind_buttons["base"].isChecked()
    assert not p.betting.kind_buttons["fortune"].isChecked()
    p.type_amount(p.betting.keypad, 30)
    p.tap(p.betting.keypad.keys["ok"])
    assert p.ctl.state.wagers == {(1, "base"): 2000, (2, "base"): 3000}


def test_a_grey_start_game_says_why_in_dollars(play: list[ScreenPlayer], tmp_path: Path) -> None:
    """Catfish Bend, "Player Banker": a player banks only covering every standard wager."""
    p = start(play, "catfish-bend-fortune", tmp_path / "t.db")
    p.open_round(seats=(2, 6))  # the house banks the first round; seat 6 wagers $10 on it
    p.until_hands_set()
    p.play_to_end()
    p.end_game()
    assert p.phase is Phase.BANKER and p.ctl.state.offer_seat == 6
    p.accept_bank(10)
    p.tap(p.button("Same wagers as last round", p.betting))
    p.bet(0, "House wager", 10)  # the house plays against a player banker, up to its $10
    p.wait(lambda: not p.window.phase_bar.primary.isEnabled(), "START GAME to grey")
    sentence = p.window.phase_bar.instruction.text()
    assert "START GAME waits" in sentence and "$10.00" in sentence, sentence


def test_a_jackpot_swipe_with_the_reader_unplugged_says_so_and_cancels_on_screen(
        play: list[ScreenPlayer], tmp_path: Path) -> None:
    p = start(play, "washington-face-up", tmp_path / "t.db")
    p.deal_jackpot_hands(["As Ks Qs Js Ts 2d 3c"])  # a royal flush at seat 1
    p.tap(p.button("CONFIRM, then swipe the card"))
    assert p.ctl.snapshot().jackpot_armed
    p.tap(p.button("Unplug keypad", p.world))
    p.wait(lambda: p.window.faults.isVisible(), "the fault banner")
    page = p.window.pages[Phase.END]
    assert "not connected: no swipe can be read" in page.jackpot.hits.text()  # type: ignore[attr-defined]
    assert "card reader is unplugged" in p.window.phase_bar.instruction.text()
    p.tap(page.jackpot.cancel)  # type: ignore[attr-defined]
    assert not p.ctl.snapshot().jackpot_armed
    assert p.button("CONFIRM, then swipe the card").isVisible()


def test_a_player_banker_sets_before_the_house_s_hand_is_turned_over(
        play: list[ScreenPlayer], tmp_path: Path) -> None:
    """Catfish Bend, "Player Banker": the players set, then the player banker, and only then
    does the dealer set the house's hand; "Card Placement": it stays face down until then."""
    p = start(play, "catfish-bend-fortune", tmp_path / "t.db")
    p.open_round(seats=(2, 6))  # seat 6 wagers $10 against the house: it may bank next
    p.until_hands_set()
    p.play_to_end()
    p.end_game()
    assert p.phase is Phase.BANKER and p.ctl.state.offer_seat == 6
    p.accept_bank(1000)
    for seat in (1, 2):
        p.bet(seat, "Base", 20)
    p.bet(0, "House wager", 10)
    p.start_game()
    p.until_hands_set()
    assert p.phase is Phase.PLAYERS_SET
    house = p.window.table.panels[0].cards.text()
    assert "&#9646;" in house or "\u25ae" in house  # face down
    bar = p.window.phase_bar
    assert "the house's waits" in bar.instruction.text()
    assert bar.primary.text() == "House Way: seats 1-2"  # not the dealer's hand
    p.next_step()
    p.wait(lambda: p.phase is Phase.BANKER_SET, "the player banker's turn")
    assert 0 not in p.ctl.state.settings
    assert "their hand, then the house's" in bar.instruction.text()
    assert "\u25ae" in p.window.table.panels[0].cards.text() \
        or "&#9646;" in p.window.table.panels[0].cards.text()
    p.next_step()
    p.wait(lambda: p.phase is Phase.SETTLEMENT, "the settlement")
    assert p.ctl.state.set_how[0] == "house_way" and 0 in p.ctl.state.settings
    assert "&#9646;" not in p.window.table.panels[0].cards.text()
    p.play_to_end()
    p.end_game()
    report = audit(p.console.opened.db)  # the order replays and verifies from the log
    assert report.ok, report.problems


def test_the_last_amount_typed_goes_in_with_start_game(play: list[ScreenPlayer],
                                                       tmp_path: Path) -> None:
    """The phase bar's button says the typed amount it places before START GAME; with
    nothing typed it is START GAME alone."""
    p = start(play, "washington-face-up", tmp_path / "t.db")
    p.bet(1, "Base", 25)
    bar = p.window.phase_bar
    assert bar.primary.text() == "START GAME"
    p.seat(2)
    p.type_amount(p.betting.keypad, 30)
    assert bar.primary.text() == "$30.00 and START GAME"
    assert "Seat 2: Base $30.00 typed" in bar.instruction.text()
    p.tap(p.betting.keypad.keys["clear"])
    assert bar.primary.text() == "START GAME"
    p.type_amount(p.betting.keypad, 900)  # above the limit: not offered with START GAME
    assert bar.primary.text() == "START GAME"
    p.type_amount(p.betting.keypad, 30)
    p.start_game()
    assert p.ctl.state.wagers == {(1, "base"): 2500, (2, "base"): 3000}


def test_a_hand_reset_after_a_first_foul_can_be_set_again(play: list[ScreenPlayer],
                                                          tmp_path: Path) -> None:
    """Catfish Bend, "Irregularities": a player's first foul is set the House Way and the
    player may set the hand again; the screen lets the dealer touch that seat again, as the
    round's offers say (never a widget's own check)."""
    p = start(play, "catfish-bend-fortune", tmp_path / "t.db")
    p.open_round()
    p.until_hands_set()
    if p.phase is Phase.BANKER_SET:
        p.next_step()
    p.touch_foul(2)
    p.tap(p.hand_page.own)
    assert p.ctl.state.set_how.get(2) == "foul_reset_house_way"
    hand = p.ctl.state.hands[2]
    fair = next((i, j) for i in range(7) for j in range(i + 1, 7)
                if not p.ctl.preview_setting(2, [hand[i], hand[j]]).foul
                and p.ctl.preview_setting(2, [hand[i], hand[j]]) != p.ctl.state.settings[2])
    p.set_own(2, fair)
    assert p.ctl.state.set_how.get(2) != "foul_reset_house_way"
    assert audit(p.ctl.table.db).ok


def test_a_foul_by_the_last_hand_set_still_gets_its_one_more_try(play: list[ScreenPlayer],
                                                                 tmp_path: Path) -> None:
    """Catfish Bend, "Irregularities": the one more try after a first foul does not hang on
    the order the dealer touched the seats (an outside review found the players' step closed
    at once by a foul of the last hand). The page says why the seat waits; the phase bar's
    House Way keeps the hand the House Way it was reset to."""
    p = start(play, "catfish-bend-fortune", tmp_path / "t.db")
    p.open_round()
    p.until_hands_set()
    if p.phase is Phase.BANKER_SET:
        p.next_step()
    for seat in [s for s in p.ctl.snapshot().round.players_to_set() if s != 2]:
        p.seat(seat)
        p.tap(p.hand_page.house_way)
    p.touch_foul(2)
    p.tap(p.hand_page.own)
    assert p.ctl.state.set_how.get(2) == "foul_reset_house_way"
    assert p.phase is Phase.PLAYERS_SET
    assert "one more try" in p.hand_page.heading.text()
    reset = p.ctl.state.settings[2]
    p.next_step()  # the player keeps it: House Way for seat 2
    assert p.phase is not Phase.PLAYERS_SET
    assert p.ctl.state.settings[2] == reset and p.ctl.state.set_how[2] == "house_way"
    assert audit(p.ctl.table.db).ok

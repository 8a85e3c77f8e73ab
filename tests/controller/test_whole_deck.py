"""The deal holds the whole deck: the seven hands and the four cards left are the 53 cards,
each once (the rules README, "Round procedure": after a card-count misdeal the deck is counted
for 53). An outside review dealt a deck whose four cards left held a second 7 of diamonds (the
7 of clubs gone), and a machine whose own count said 54 and dealt on: both rounds played and
settled, and nothing in the log said which cards were left."""

from __future__ import annotations

import json
import random

import pytest

from dealer_console.audit.verify import audit
from dealer_console.cards import DECK, format_cards, parse_cards
from dealer_console.round import commands as c
from dealer_console.round.state import MisdealReason, Phase
from drivers.shuffler import framer
from tests.controller.conftest import Rig, floor
from tests.controller.test_controller import bet, finish_round, notice_text, start_by_keypad


def events(rig: Rig, kind: str) -> list[dict[str, object]]:
    return [json.loads(p) for (p,) in rig.opened.db.execute(
        "SELECT payload FROM events WHERE kind = ? ORDER BY seq", [kind])]


def dealt_out(rig: Rig) -> None:
    bet(rig)
    start_by_keypad(rig)
    rig.until(lambda: rig.controller.state.phase not in (
        Phase.ACTION, Phase.DEALING, Phase.DEAL_CHECK), "the deal checked")


def test_an_honest_deal_records_which_cards_were_left(rig: Rig) -> None:
    dealt_out(rig)
    shuffler = rig.hardware.shuffler
    assert shuffler is not None and rig.controller.state.phase is Phase.BANKER_SET
    left = shuffler.dealt[rig.controller.device_desk.deal_id or 0].left
    (checked,) = events(rig, "deal_checked")
    assert (checked["remaining"], checked["cards"]) == (4, format_cards(left))
    hands = {card for cards in rig.controller.state.hands.values() for card in cards}
    assert hands | set(left) == set(DECK) and len(hands) == 49
    finish_round(rig)
    assert audit(rig.opened.db).ok


@pytest.mark.parametrize("twice", ["a dealt card", "a card left"])
def test_a_deck_with_a_card_twice_is_a_misdeal_that_names_it(rig: Rig, twice: str) -> None:
    deck = list(DECK)
    random.Random(7).shuffle(deck)
    copied = deck[0] if twice == "a dealt card" else deck[49]
    deck[52] = copied  # the card it replaces is gone from the deck
    shuffler = rig.hardware.shuffler
    assert shuffler is not None
    shuffler.script(deck_order=tuple(deck))
    dealt_out(rig)
    st = rig.controller.state
    assert st.phase is Phase.MISDEAL and st.deck_count_due
    assert st.misdeal_reason == MisdealReason.CARD_COUNT_ERROR.value
    (misdeal,) = events(rig, "misdeal")
    where = (f"{copied} (also in seat " if twice == "a dealt card"
             else f"{copied} (twice among them)")
    assert where in str(misdeal["detail"]) and misdeal["source"] == "device"
    assert events(rig, "deal_checked") == []
    shuffler.script(deck_order=None)  # the deck replaced and counted: play goes on
    rig.controller.supervise(c.DeckCounted(53), floor(rig.controller))
    rig.controller.do(c.Redeal())
    finish_round(rig)
    assert audit(rig.opened.db).ok


@pytest.mark.parametrize("says", [52, 54])
def test_the_machine_s_own_count_not_53_is_a_misdeal_even_when_it_deals_on(
        rig: Rig, says: int) -> None:
    shuffler = rig.hardware.shuffler
    assert shuffler is not None
    shuffler.script(deck_check_says=says)
    dealt_out(rig)
    st = rig.controller.state
    assert st.phase is Phase.MISDEAL and st.deck_count_due and st.hands == {}
    (misdeal,) = events(rig, "misdeal")
    assert misdeal["detail"] == f"the shuffler counted {says} cards"
    shuffler.script(deck_check_says=None)
    rig.controller.supervise(c.DeckCounted(53), floor(rig.controller))
    rig.controller.do(c.Redeal())
    finish_round(rig)
    assert audit(rig.opened.db).ok


def test_a_deal_the_machine_changes_or_adds_to_after_the_check_is_told(rig: Rig) -> None:
    """An outside review's machine sent an eighth hand, another hand 3 and other cards left
    after the deal was checked: the driver counted them as retransmissions, and nothing was
    said. The round keeps the deal as first reported; the dealer is told."""
    dealt_out(rig)
    shuffler = rig.hardware.shuffler
    assert shuffler is not None
    deal = rig.controller.device_desk.deal_id or 0
    hands = dict(rig.controller.state.hands)
    told: list[str] = []
    for message, said in (
            (framer.Hand(deal, 8, parse_cards("As Ks Qs Js Ts 9s JK")),
             "delivered hand 8 after the deal's 7 hands"),
            (framer.Hand(deal, 3, parse_cards("2c 2d 2h 2s 3c 3d 3h")),
             "reported hand 3 of this deal again, saying something else"),
            (framer.Left(deal, parse_cards("Ac Ad")),
             "reported the cards left of this deal again, saying something else")):
        shuffler.report(message)
        rig.until(lambda said=said: said in notice_text(rig), said)  # type: ignore[misc]
        told.append(notice_text(rig))
    assert all("after the deal was checked" in t and "call a supervisor" in t for t in told)
    assert rig.controller.state.hands == hands
    finish_round(rig)
    assert audit(rig.opened.db).ok


def test_a_hand_the_machine_changes_during_the_deal_is_a_misdeal(rig: Rig) -> None:
    shuffler = rig.hardware.shuffler
    assert shuffler is not None
    shuffler.script(deal_button=True)  # the dealer takes each hand: the deal stops between
    bet(rig)
    start_by_keypad(rig)
    ctl = rig.controller
    rig.until(lambda: ctl.state.phase is Phase.DEALING, "the number")
    assert shuffler.press_deal_button()
    rig.until(lambda: len(ctl.state.delivered) == 1, "the first hand")
    deal = ctl.device_desk.deal_id or 0
    first = shuffler.dealt[deal].delivered[1]
    other = tuple(card for card in DECK if card not in first)[:7]
    shuffler.report(framer.Hand(deal, 1, other))
    rig.until(lambda: ctl.state.phase is Phase.MISDEAL, "the misdeal")
    assert ctl.state.misdeal_reason == MisdealReason.CARD_COUNT_ERROR.value
    (misdeal,) = events(rig, "misdeal")
    assert misdeal["detail"] == "the shuffler reported hand 1 of this deal again, saying " \
        "something else"
    assert ctl.state.deck_count_due

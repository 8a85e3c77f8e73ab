"""What the dealer may not do alone once the cards are seen (an outside review of staff
authority), on the real screens: more than three exposed cards, a misdeal that throws the deal
away, is declared on a supervisor's card after a second touch; an Oxford Downs new high card
needs the floor's card, and the log names them."""

from __future__ import annotations

import json
from pathlib import Path

from dealer_console.audit.verify import audit
from dealer_console.round.state import Phase
from ui.dealer.pages import ActionPage
from ui.gallery.player import ScreenPlayer


def payloads(p: ScreenPlayer, kind: str) -> list[dict[str, object]]:
    rows = p.ctl.table.db.execute("SELECT payload FROM events WHERE kind = ? ORDER BY seq",
                                  [kind]).fetchall()
    return [json.loads(r[0]) for r in rows]


def test_four_exposed_cards_need_a_second_touch_and_a_supervisors_card(
        play: list[ScreenPlayer], tmp_path: Path) -> None:
    p = ScreenPlayer.start("washington-face-up", tmp_path / "t.db")
    play.append(p)
    p.tap(p.button("Hands on the deal button", p.world))
    p.open_round()
    p.wait(lambda: p.phase is Phase.DEALING, "the deal")
    deal = p.window.pages[Phase.DEALING]
    p.tap(p.button("4 cards exposed", deal))
    assert p.phase is Phase.DEALING and p.ctl.snapshot().card_wanted is None
    p.tap(p.button("Misdeal, 4 exposed: again", deal))
    assert p.phase is Phase.DEALING  # the dealer alone throws nothing away
    assert "declare a misdeal: 4 cards exposed" in str(p.ctl.snapshot().card_wanted)
    p.swipe("dealer")  # a dealer's card is refused; the prompt waits for the right one
    assert p.phase is Phase.DEALING
    p.swipe("supervisor")
    p.wait(lambda: p.phase is Phase.MISDEAL, "the misdeal")
    assert payloads(p, "misdeal")[-1]["who"] == "Sim Supervisor (SIM-S1)"
    logged = p.ctl.table.db.execute(
        "SELECT employee_id, detail FROM employee_log WHERE action = 'swipe_accepted' "
        "AND detail LIKE '%exposed%'").fetchall()
    assert logged and {r[0] for r in logged} == {"SIM-S1"}


def test_a_few_exposed_cards_are_still_the_dealers_alone(play: list[ScreenPlayer],
                                                         tmp_path: Path) -> None:
    p = ScreenPlayer.start("washington-face-up", tmp_path / "t.db")
    play.append(p)
    p.tap(p.button("Hands on the deal button", p.world))
    p.open_round()
    p.wait(lambda: p.phase is Phase.DEALING, "the deal")
    p.tap(p.button("2 cards exposed", p.window.pages[Phase.DEALING]))
    p.wait(lambda: p.ctl.state.exposed == 2, "the exposed cards counted")
    assert p.ctl.snapshot().card_wanted is None and p.phase is Phase.DEALING


def test_an_oxford_downs_new_high_card_needs_the_floors_card(play: list[ScreenPlayer],
                                                             tmp_path: Path) -> None:
    p = ScreenPlayer.start("oxford-downs-face-up", tmp_path / "t.db")
    play.append(p)
    p.open_round(seats=(2, 3, 4))
    p.until_hands_set()
    p.play_to_end()
    p.end_game()
    if p.phase is Phase.BANKER:
        p.accept_bank(1000)
    banker = p.ctl.state.banker_seat
    for seat in [s for s in (2, 3, 4, 5) if s != banker][:3]:
        p.bet(seat, "Base", 20)
    p.start_game()
    page = p.window.pages[Phase.ACTION]
    assert isinstance(page, ActionPage)
    told = p.window.phase_bar.primary.text()
    seat = next(s for s in (6, 5, 4, 3, 2) if s != banker and str(s) not in told)
    p.tap(page.restart)  # "New high card (floor's permission)"
    p.action(seat=seat, floor=False)
    assert p.phase is Phase.ACTION  # the toggle alone moves nothing
    assert "floor's permission for a new high card" in str(p.ctl.snapshot().card_wanted)
    p.swipe("supervisor")
    p.wait(lambda: p.phase is not Phase.ACTION, "the action set")
    action = payloads(p, "action_set")[-1]
    assert action["action_seat"] == seat and action["floor"] == "Sim Supervisor (SIM-S1)"
    assert not page.restart.isChecked()
    assert audit(p.console.opened.db).ok

"""The supervisor's table actions by touch, on a real console with simulated devices: a void
before START GAME (and refused after, with the reason), a player banker's hand reconstructed,
a deck count after a misdeal; each logged in the round's events with the session's employee."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from dealer_console.audit.verify import audit
from dealer_console.round import commands as c
from dealer_console.round.state import Phase
from dealer_console.setting import Setting, make_setting
from tests.ui.shown_cards import NOTATION, plain, shown_cards, spelled
from ui.gallery.player import ScreenPlayer
from ui.supervisor.area import SupervisorArea
from ui.supervisor.table_actions import TableActions


def start(play: list[ScreenPlayer], profile: str, db: Path) -> ScreenPlayer:
    player = ScreenPlayer.start(profile, db)
    play.append(player)
    return player


def table_screen(p: ScreenPlayer, area: SupervisorArea) -> TableActions:
    p.tap(area.buttons["Table"])
    screen = area.screens["Table"]
    assert isinstance(screen, TableActions)
    return screen


def events(p: ScreenPlayer, kind: str) -> list[dict[str, object]]:
    rows = p.ctl.table.db.execute("SELECT payload FROM events WHERE kind = ? ORDER BY seq",
                                  [kind]).fetchall()
    return [json.loads(payload) for (payload,) in rows]


def test_a_supervisor_voids_a_round_before_start_game(play: list[ScreenPlayer],
                                                      tmp_path: Path) -> None:
    p = start(play, "washington-face-up", tmp_path / "t.db")
    p.bet(2, "Base", 50)
    round_id = p.ctl.state.round_id
    screen = table_screen(p, p.open_supervisor("supervisor"))
    assert not screen.void_button.isEnabled()  # no reason picked yet
    p.tap(screen.reason_buttons["Other reason"])
    screen.reason_keys.type_text("Table closing early")
    p.tap(screen.reason_keys.ok)
    p.tap(screen.void_button)
    status = p.ctl.table.db.execute("SELECT status FROM rounds WHERE round_id = ?",
                                    [round_id]).fetchone()
    assert status == ("voided",)
    assert p.ctl.state.round_id == round_id + 1
    voided = events(p, "round_voided")
    assert [(e["reason"], e["who"]) for e in voided] == [
        ("Table closing early", "Sim Supervisor (SIM-S1)")]
    assert "voided" in screen.message.text()
    # the authorisation in the employee log, committed with the void
    last = p.ctl.table.db.execute("SELECT employee_id, action, detail FROM employee_log "
                                  "ORDER BY entry DESC LIMIT 1").fetchone()
    assert tuple(last) == ("SIM-S1", "swipe_accepted",
                           f"voiding the round in round {round_id}, on the supervisor's screens")
    assert audit(p.console.opened.db).ok


def test_a_void_is_refused_after_start_game_with_the_reason(play: list[ScreenPlayer],
                                                            tmp_path: Path) -> None:
    p = start(play, "washington-face-up", tmp_path / "t.db")
    p.open_round()
    screen = table_screen(p, p.open_supervisor("supervisor"))
    assert not screen.reason_buttons["Dealer's error"].isEnabled()
    assert not screen.void_button.isEnabled()
    why = p.ctl.check(c.VoidRound("Dealer's error", "x"))
    assert why is not None and why in screen.void_why.text()
    assert events(p, "round_voided") == []


def _other_setting(p: ScreenPlayer) -> tuple[tuple[int, int], Setting]:
    """Two cards of the banker's hand for a low hand the round accepts and that differs from
    the setting now: found by asking the round, not written down."""
    st = p.ctl.state
    hand = st.hands[st.banker_seat]
    now = st.banker_setting
    assert now is not None
    for i, j in itertools.combinations(range(len(hand)), 2):
        low = [hand[i], hand[j]]
        setting = make_setting(low, [x for x in hand if x not in low])
        if sorted(setting.low) != sorted(now.low) and p.ctl.check(
                c.ReconstructBankerHand(setting, "x", "a reason")) is None:
            return (i, j), setting
    raise AssertionError("no other setting of the banker's hand is allowed")


def test_a_supervisor_reconstructs_a_player_bankers_hand(play: list[ScreenPlayer],
                                                         tmp_path: Path) -> None:
    p = start(play, "california-face-up", tmp_path / "t.db")
    p.open_round()
    p.until_hands_set()
    assert p.phase is Phase.BANKER_SET
    screen = table_screen(p, p.open_supervisor("supervisor"))
    p.tap(screen.sections["Banker's hand"])
    assert not screen.house_way.isEnabled()  # not set yet: nothing to reconstruct
    banker = p.ctl.state.banker_seat
    why = p.ctl.check(c.ReconstructBankerHand(p.ctl.house_way(banker), "x"))
    assert why is not None and why in screen.banker_why.text()
    p.tap(area_leave(p))
    p.next_step()  # the banker's hand set the House Way
    p.wait(lambda: p.phase is Phase.PLAYERS_SET, "the players' turn")
    screen = table_screen(p, p.open_supervisor("executive"))
    p.tap(screen.sections["Banker's hand"])
    now = p.ctl.state.banker_setting
    assert now is not None
    set_now = screen.banker_detail.text().split("<br>")[0]
    assert set_now.startswith("Set now:")
    assert shown_cards(set_now) == spelled(now)
    assert not NOTATION.search(plain(screen.banker_detail.text()))
    (i, j), wanted = _other_setting(p)
    p.tap(screen.banker_cards.views[i])
    p.tap(screen.banker_cards.views[j])
    assert not screen.as_shown.isEnabled()  # no reason touched yet
    assert "say why" in screen.banker_detail.text()
    p.tap(screen.reconstruct_reasons["Keyed wrongly"])
    p.tap(screen.as_shown)
    got = p.ctl.state.banker_setting
    assert got is not None and sorted(got.low) == sorted(wanted.low)
    assert [(e["who"], e["reason"]) for e in events(p, "banker_reconstructed")] == [
        ("Sim Executive (SIM-X1)", "Keyed wrongly")]
    assert "reconstructed by Sim Executive" in screen.message.text()
    # once a round: the page says so and nothing is live
    assert "already reconstructed this round" in screen.banker_why.text()
    assert not screen.house_way.isEnabled() and not screen.as_shown.isEnabled()
    assert audit(p.console.opened.db).ok


def test_a_face_up_player_bankers_hand_is_not_reconstructed_once_players_set(
        play: list[ScreenPlayer], tmp_path: Path) -> None:
    """An outside review re-set a California player-dealer's hand after every player had set
    against it, picking what paid the banker most. Oxford Downs, "Round of Play": a hand set
    wrong but not foul stays once action has started."""
    p = start(play, "california-face-up", tmp_path / "t.db")
    p.open_round(seats=(2, 3, 4))
    p.until_hands_set()
    p.next_step()  # the banker's hand set the House Way
    p.wait(lambda: p.phase is not Phase.BANKER_SET, "the players' turn")
    if p.phase is not Phase.PLAYERS_SET:
        pytest.skip("an ace-high push: no players' step in this deal")
    p.next_step()  # every player sets against it
    p.wait(lambda: p.phase is Phase.SETTLEMENT, "settlement")
    screen = table_screen(p, p.open_supervisor("supervisor"))
    p.tap(screen.sections["Banker's hand"])
    assert "players have set their hands against the banker" in screen.banker_why.text()
    p.tap(screen.banker_cards.views[0])
    p.tap(screen.banker_cards.views[1])
    assert not any(b.isEnabled() for b in screen.reconstruct_reasons.values())
    assert not screen.house_way.isEnabled() and not screen.as_shown.isEnabled()
    assert events(p, "banker_reconstructed") == []


def area_leave(p: ScreenPlayer) -> object:
    area = p.window.supervisor
    assert area is not None
    return area.leave


def test_a_supervisor_enters_the_deck_count_after_a_misdeal(play: list[ScreenPlayer],
                                                            tmp_path: Path) -> None:
    p = start(play, "washington-face-up", tmp_path / "t.db")
    p.tap(p.button("Next deal: card-count error", p.world))
    p.open_round()
    p.wait(lambda: p.phase is Phase.MISDEAL, "the misdeal")
    p.tap(p.button("Next deal: normal", p.world))
    screen = table_screen(p, p.open_supervisor("supervisor"))
    p.tap(screen.sections["Deck count"])
    assert screen.count_pad.isEnabled()
    p.type_number(screen.count_pad, 52)  # short: play may not resume
    assert p.ctl.state.deck_count_due
    assert "count the deck again" in screen.message.text()
    p.type_number(screen.count_pad, 53)
    assert not p.ctl.state.deck_count_due
    assert not screen.count_pad.isEnabled()  # no count is due any more
    counted = [(e["count"], e.get("who")) for e in events(p, "deck_counted")]
    assert counted == [(52, "Sim Supervisor (SIM-S1)"), (53, "Sim Supervisor (SIM-S1)")]
    assert p.console.opened.db.execute("SELECT deck_counted FROM misdeals").fetchall() == [
        (53,)]
    assert audit(p.console.opened.db).ok  # the supervisor's count replays as it was logged


def test_the_foul_rule_is_the_profiles_and_needs_no_floor_decision(
        play: list[ScreenPlayer], tmp_path: Path) -> None:
    p = start(play, "california-face-up", tmp_path / "t.db")
    screen = table_screen(p, p.open_supervisor("supervisor"))
    p.tap(screen.sections["Fouls"])
    shown = " ".join(w.text() for w in screen.pages.currentWidget().findChildren(
        type(screen.status)))
    assert "a foul hand loses" in shown and "no decision" in shown

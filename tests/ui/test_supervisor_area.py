"""The supervisor's area opens only on a supervisor's or an executive's card, every swipe is
logged with its outcome, and a refused card leaves the prompt waiting for the right one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ui.gallery.player import ScreenPlayer


@pytest.fixture
def player(qtbot: object, tmp_path: Path) -> Iterator[ScreenPlayer]:
    p = ScreenPlayer.start("washington-face-up", tmp_path / "table.db")
    yield p
    p.close()


def _swipes(p: ScreenPlayer) -> list[tuple[str, str | None]]:
    rows = p.ctl.table.db.execute(
        "SELECT action, employee_id FROM employee_log WHERE action LIKE 'swipe_%' "
        "ORDER BY entry").fetchall()
    return [(str(k), e) for k, e in rows]


def test_a_supervisor_card_opens_the_area_and_back(player: ScreenPlayer) -> None:
    area = player.open_supervisor("supervisor")
    assert player.window.areas.currentWidget() is area
    assert area.session.employee.employee_id == "SIM-S1"
    assert player.ctl.snapshot().card_wanted is None
    assert ("swipe_accepted", "SIM-S1") in _swipes(player)
    player.tap(area.leave)
    assert player.window.areas.currentWidget() is player.window.dealer_area
    assert player.window.supervisor is None


@pytest.mark.parametrize(("role", "why"), [("dealer", "needs a supervisor's card"),
                                           ("technician", "needs a supervisor's card"),
                                           ("unknown", "card not recognised")])
def test_a_card_that_may_not_open_it_is_refused_and_the_prompt_stays(
        player: ScreenPlayer, role: str, why: str) -> None:
    player.tap(player.window.supervisor_button)
    assert player.window.card_prompt.isVisible()
    assert "supervisor's card" in player.window.card_prompt.text.text()
    player.swipe(role)
    assert player.window.supervisor is None
    assert why in player.window.phase_bar.message_text()
    assert player.window.card_prompt.isVisible()
    assert _swipes(player)[-1][0] == "swipe_refused"
    player.swipe("executive")  # the right card still opens it
    assert player.window.supervisor is not None


def test_cancel_calls_the_card_off(player: ScreenPlayer) -> None:
    player.tap(player.window.supervisor_button)
    player.tap(player.window.card_prompt.cancel)
    assert player.ctl.snapshot().card_wanted is None
    assert not player.window.card_prompt.isVisible()


def test_a_screen_is_built_when_first_shown_and_kept(player: ScreenPlayer) -> None:
    """Opening the area builds only the screen it shows (it built all ten at every swipe);
    a screen shown again is the same widget, in the same state."""
    area = player.open_supervisor("supervisor")
    first = next(iter(area.screens))
    assert area.screens.built() == [first]
    assert area.stack.currentWidget() is area.screens[first]
    player.tap(area.buttons["Staff"])
    staff = area.stack.currentWidget()
    assert area.screens.built() == [first, "Staff"]
    assert staff is area.screens["Staff"]
    player.tap(area.buttons[first])
    player.tap(area.buttons["Staff"])
    assert area.stack.currentWidget() is staff
    assert area.buttons["Staff"].isChecked() and not area.buttons[first].isChecked()
    assert len(area.screens) == len(area.buttons) and list(area.screens) == list(area.buttons)
    with pytest.raises(KeyError):
        area.screens["No such screen"]

"""The table's side of a link: the profile's ``linked`` key, a linked table's settings, and a
linked hit's swipe refused while the link is down (before the card is read)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_console.config_file import ConfigError
from dealer_console.controller import open_table
from dealer_console.link.health import LinkHealth
from dealer_console.profiles.loader import load_profile
from dealer_console.round import commands as c
from dealer_console.round.jackpot import JackpotRefused
from dealer_link.settings import LinkError
from dealer_link.wiring import start_links
from tests.jackpot.conftest import CARDS, add_staff
from tests.jackpot.swipes import swipe
from tests.link.helpers import linked_table
from tests.round.helpers import deal, hands_with, set_all_house_way

SEVEN_SF = "2c 3c 4c 5c 6c 7c 8c"
WASHINGTON = Path(__file__).parents[2] / "config" / "profiles" / "washington-face-up.toml"


def _profile(tmp_path: Path, mode: str, linked: str) -> Path:
    text = WASHINGTON.read_text().replace('name = "washington-face-up"', 'name = "lt"')
    text = text.replace('mode = "house"', f'mode = "{mode}"\nlinked = {linked}')
    path = tmp_path / "lt.toml"
    path.write_text(text)
    return path


def test_the_profile_names_the_link_and_nothing_else(tmp_path: Path) -> None:
    profile = load_profile(_profile(tmp_path, "progressive", '"pit-1.link"'))
    assert profile.jackpots is not None
    assert [g.linked for g in profile.jackpots.games] == ["pit-1.link"]
    with pytest.raises(ConfigError, match="house jackpot is never linked"):
        load_profile(_profile(tmp_path, "house", '"pit-1"'))
    with pytest.raises(ConfigError, match="not a link name"):
        load_profile(_profile(tmp_path, "progressive", '"host=db password=x"'))


def test_a_linked_table_needs_its_address_without_a_password_and_its_own_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    profile = load_profile(_profile(tmp_path, "progressive", '"pit-1"'))
    monkeypatch.delenv("DEALER_CONSOLE_LINK_DSN", raising=False)
    monkeypatch.delenv("DEALER_CONSOLE_TABLE_ID", raising=False)
    with pytest.raises(LinkError, match="DEALER_CONSOLE_LINK_DSN"):
        open_table(tmp_path / "t.db", profile, actor="test", links=start_links)
    monkeypatch.setenv("DEALER_CONSOLE_LINK_DSN", "host=/x user=t password=hunter2")
    with pytest.raises(LinkError, match="pgpass"):
        open_table(tmp_path / "t.db", profile, actor="test", links=start_links)
    monkeypatch.setenv("DEALER_CONSOLE_LINK_DSN", "host=/nowhere port=1 user=t dbname=j")
    with pytest.raises(LinkError, match="DEALER_CONSOLE_TABLE_ID"):
        open_table(tmp_path / "t.db", profile, actor="test", links=start_links)
    monkeypatch.setenv("DEALER_CONSOLE_TABLE_ID", "pit1-t3")
    opened = open_table(tmp_path / "t.db", profile, actor="test", links=start_links)
    try:  # no server there: the table opens, its link is down and says why
        assert opened.jackpot is not None and opened.link is not None
        assert len(opened.link_senders) == 1 and opened.link_senders[0].is_alive()
        assert not opened.link.health.view().up
    finally:
        opened.close()
    assert not opened.link_senders[0].is_alive()


def test_a_linked_hit_is_not_swiped_while_the_link_is_down(tmp_path: Path) -> None:
    health = LinkHealth()
    health.up(0)
    table, system, db = linked_table(tmp_path / "t.db", "t1", health)
    add_staff(db)
    for seat in (1, 2, 3):
        table.handle(c.PlaceWager(seat, "base", 2000))
        table.handle(c.PlaceWager(seat, "jackpot", 100))
    table.handle(c.StartGame())
    table.handle(c.SetActionNumber(2))
    deal(table, hands_with({2: SEVEN_SF}))
    table.handle(c.RemainingCards(4))
    set_all_house_way(table)
    assert [p.mark.seat for p in system.marks(table.state)] == [3]
    swipes = db.execute("SELECT COUNT(*) FROM employee_log").fetchone()[0]
    health.down("the link server stopped answering", 0)
    with pytest.raises(JackpotRefused, match="confirmed only through the link"):
        swipe(system, table, CARDS["executive"])
    assert db.execute("SELECT COUNT(*) FROM employee_log").fetchone()[0] == swipes
    assert db.execute("SELECT COUNT(*) FROM jackpot_hits").fetchone()[0] == 0
    db.close()

"""Rounds refused before settling, with the place named; and the bonus rules that only show
on particular hands (jackpot fall-back lines, the banker never earning envy)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dealer_console.cards import parse_cards
from dealer_console.paytables import get_paytable
from dealer_console.profiles.loader import get_profile
from dealer_console.settlement import RoundError, settle
from dealer_console.settlement.bonuses import jackpot_line
from dealer_console.settlement.round_json import round_from_data

GOLDEN = Path(__file__).parent / "golden"


def data(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((GOLDEN / f"{name}.round.json").read_text())
    return loaded


CASES: list[tuple[str, str, Callable[[dict[str, Any]], None], str, str]] = [
    ("cb05-player-banker", "catfish-bend-fortune",
     lambda d: d["banker"].update(wager=12000), "banker.wager", "must cover every standard"),
    ("cb05-player-banker", "catfish-bend-fortune",
     lambda d: d.pop("house"), "house", "plays against the house hand"),
    ("cb01-commission", "catfish-bend-fortune",
     lambda d: d.update(house={"cards": "Jh Tc 5s 5h 8d 6c 3d", "wager": 500}), "house",
     "only a player banker round"),
    ("cb01-commission", "catfish-bend-fortune",
     lambda d: d["positions"][0]["wagers"].update(base=1200), "positions[0].wagers.base",
     "not a multiple of the $5.00 increment"),
    ("ca01-basic", "california-face-up",
     lambda d: d["banker"].update(fortune=500), "banker.fortune", "only where the house"),
    ("ca01-basic", "california-face-up",
     lambda d: d["banker"].update(wager=0), "banker.wager", "wager is needed"),
    ("ca01-basic", "california-face-up",
     lambda d: d["positions"][0]["wagers"].update(tips=100), "positions[0].wagers.tips",
     "no tip bets"),
    ("ca01-basic", "california-face-up",
     lambda d: d["positions"][0].pop("setting"), "positions[0].setting", "must be set"),
    ("od01-rake-and-tips", "oxford-downs-face-up",
     lambda d: d["positions"][0]["wagers"].update(backline=[{"bettor": "A", "amount": 500}]),
     "positions[0].wagers.backline[0]", "no backline"),
    ("wa01-basic", "washington-face-up",
     lambda d: d["banker"].update(wager=500), "banker.wager", "the house banks"),
    ("wa01-basic", "washington-face-up",
     lambda d: d["positions"][0].update(prior_fouls=-1), "positions[0].prior_fouls",
     "0 or more"),
]


@pytest.mark.parametrize(("golden", "profile", "edit", "place", "says"), CASES)
def test_refused_with_place(golden: str, profile: str, edit: Callable[[dict[str, Any]], None],
                            place: str, says: str) -> None:
    raw = data(golden)
    edit(raw)
    with pytest.raises(RoundError) as info:
        settle(get_profile(profile), round_from_data(raw))
    assert info.value.place == place
    assert says in info.value.reason


def test_no_setting_needed_when_the_banker_is_ace_high() -> None:
    sheet = settle(get_profile("california-face-up"),
                   round_from_data(data("ca05-ace-high-natural")))
    assert all(ln.outcome.value == "push" for ln in sheet.lines if ln.kind.value == "base")


@pytest.mark.parametrize(("table", "cards", "line"), [
    ("fupgpp-wa07", "Ah Kh Qh Jh Th 9h 8h", "royal_flush"),  # natural 7SF, A-high
    ("fupgpp-wa07", "Kh Qh Jh Th 9h 8h 7h", "straight_flush"),
    ("fupgpp-wa03", "As Ks Qs Js Ts Kd Qd", "royal_flush"),  # royal match not listed
    ("fupgpp-wa01", "As Ks Qs Js Ts Kd Qd", "royal_flush_royal_match"),
    ("fupgpp-ml02", "JK Ac Ad Ah As Kd Qd", "five_aces"),
    ("fupgpp-wa01", "Ac Ad Ah Kc Kd 7s 2h", "full_house"),
])
def test_jackpot_line(table: str, cards: str, line: str) -> None:
    found = jackpot_line(get_paytable(table), parse_cards(cards, 7))
    assert found is not None and found.id == line


def test_jackpot_flush_does_not_qualify() -> None:
    assert jackpot_line(get_paytable("fupgpp-wa01"), parse_cards("Ah 9h 7h 5h 2h Kc 3d")) is None


def test_banker_quads_earn_no_envy() -> None:
    raw = data("ca01-basic")
    raw["banker"]["cards"] = "9s 9d 9h 9c 7s 4d 2c"
    raw["banker"]["setting"] = "house way"
    raw["positions"][1]["wagers"]["fortune"] = 500
    sheet = settle(get_profile("california-face-up"), round_from_data(raw))
    assert not [ln for ln in sheet.lines if ln.kind.value == "envy"]


@pytest.mark.parametrize(("area", "wager"), [("ace_high", 500), ("fortune", 500)])
def test_bonus_wager_without_its_paytable_is_refused(area: str, wager: int) -> None:
    """A bonus wager at a table without that bonus's paytable used to pass validation (its
    limit was there) and then vanish from the sheet: neither taken nor paid."""
    from dataclasses import replace

    profile = replace(get_profile("washington-face-up"), **{area: None, "envy": None})
    raw = data("wa01-basic")
    raw["positions"][0]["wagers"] = {"base": 5000, area: wager}
    with pytest.raises(RoundError) as info:
        settle(profile, round_from_data(raw))
    assert info.value.place == f"positions[0].wagers.{area}"
    assert "offers no" in info.value.reason


def test_player_banker_commission_on_winnings_when_not_on_net() -> None:
    """With player_banker_pays_on_net = false the PB used to pay no commission at all. In
    cb05 the PB wins the house's $20 and P3's $60 and pays P2's $50: 5% of $80 is $4.00
    (on the net, $30, it is $1.50)."""
    from dataclasses import replace

    profile = get_profile("catfish-bend-fortune")
    assert profile.commission is not None
    gross = replace(profile, commission=replace(profile.commission,
                                                player_banker_pays_on_net=False))
    rnd = round_from_data(data("cb05-player-banker"))
    for prof, due in ((profile, 150), (gross, 400)):
        charges = [ln for ln in settle(prof, rnd).lines if ln.kind.value == "commission"]
        assert [(ln.party, ln.due) for ln in charges] == [("banker", due)]

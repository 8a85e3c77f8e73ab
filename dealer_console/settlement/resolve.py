"""Turning each hand's choice into the setting that is compared: the House Way when asked,
and the profile's foul consequence (rules README, "Setting and comparing hands": ``loses``,
``reset_house_way``, ``reset_once_then_dead``; the banker's hand is never foul)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from dealer_console import house_ways
from dealer_console.cards import Card, format_cards
from dealer_console.profiles.model import Foul, Profile
from dealer_console.setting import Setting, is_foul
from dealer_console.settlement.model import HandChoice, RoundError, SetBy


@dataclass(frozen=True, slots=True)
class ResolvedHand:
    setting: Setting | None  # None: never set (or a dead hand)
    dead: bool = False  # a foul that loses
    note: str = ""


def house_way(profile: Profile, cards: tuple[Card, ...], place: str) -> Setting:
    try:
        return house_ways.set_house_way(profile.house_way, cards, profile.hand_rules)
    except ImportError:
        raise RoundError(place, f"the House Way chart {profile.house_way!r} is not available; "
                                "give the setting explicitly") from None


def check_setting_cards(setting: Setting, cards: tuple[Card, ...], place: str) -> None:
    if Counter(setting.cards) != Counter(cards):
        raise RoundError(place, f"the setting {setting} does not use exactly the cards dealt "
                                f"to this hand ({format_cards(cards)})")


def resolve_player(profile: Profile, choice: HandChoice, cards: tuple[Card, ...],
                   prior_fouls: int, place: str) -> ResolvedHand:
    if choice is None:
        return ResolvedHand(None)
    if choice is SetBy.HOUSE_WAY:
        return ResolvedHand(house_way(profile, cards, place), note="set the House Way")
    check_setting_cards(choice, cards, place)
    if not is_foul(choice, profile.hand_rules):
        return ResolvedHand(choice)
    if profile.foul is Foul.LOSES:
        return ResolvedHand(None, dead=True, note="foul: the hand loses")
    if profile.foul is Foul.RESET_ONCE_THEN_DEAD and prior_fouls > 0:
        return ResolvedHand(None, dead=True, note="second foul: a dead hand that loses")
    reset = house_way(profile, cards, place)
    return ResolvedHand(reset, note=f"foul ({choice}) reset the House Way")


def resolve_banker(profile: Profile, choice: HandChoice, cards: tuple[Card, ...],
                   place: str, *, house: bool = False) -> tuple[Setting, str]:
    """The banker's setting (``house``: the house's hand against a player banker): as given
    unless foul or asked for, then the House Way; the note says whose hand was reset."""
    if isinstance(choice, Setting):
        check_setting_cards(choice, cards, place)
        if not is_foul(choice, profile.hand_rules):
            return choice, ""
        whose = "the house's hand: foul" if house else "banker's foul"
        return house_way(profile, cards, place), f"{whose} ({choice}) reset the House Way"
    return house_way(profile, cards, place), "set the House Way"


def same_split(a: Setting, b: Setting) -> bool:
    """The same two hands, whatever the order of the cards within each."""
    return sorted(a.low) == sorted(b.low) and sorted(a.high) == sorted(b.high)

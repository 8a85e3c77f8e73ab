"""Questions a screen asks before the dealer touches anything, answered from the round's rules
so that no widget holds a game rule: the House Way of a seat's hand, what a player's own
setting would do (a foul and the profile's consequence), which hands must stay face down, and
a wager's limits in the profile's words."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dealer_console.cards import Card
from dealer_console.money import format_cents
from dealer_console.round.decide_setting import house_hand_last
from dealer_console.round.rules import Foul, RoundRules
from dealer_console.round.state import Phase, RoundState
from dealer_console.setting import Setting, is_foul, make_setting
from dealer_console.seven import ace_high_status

CONSEQUENCE = {
    Foul.LOSES: "a foul hand loses",
    Foul.RESET_HOUSE_WAY: "a foul hand is set again the House Way",
    Foul.RESET_ONCE_THEN_DEAD: "a first foul is set again the House Way and the player may "
                               "try once more; a second foul is a dead hand that loses",
}
"""What a foul costs at each profile (rules README, "Setting and comparing hands")."""


@dataclass(frozen=True, slots=True)
class SettingPreview:
    setting: Setting
    foul: bool
    consequence: str
    """What the profile does with it when foul, in plain words ("" when not foul)."""


def preview(rules: RoundRules, hand: Sequence[Card], low: Sequence[Card]) -> SettingPreview:
    """The setting with ``low`` as the two-card hand and the rest high."""
    if len(low) != 2:
        raise ValueError("the low hand is two cards")
    high = list(hand)
    for card in low:
        high.remove(card)
    setting = make_setting(list(low), high)
    foul = is_foul(setting, rules.hand_rules)
    return SettingPreview(setting, foul, CONSEQUENCE[rules.foul] if foul else "")


def hidden_seats(rules: RoundRules, state: RoundState) -> frozenset[int]:
    """Seats whose cards a screen shows face down now. Fortune Pai Gow keeps its order: the
    banker's hand is exposed only when every player's hand is set (Catfish Bend, "Card
    Placement"); at Face Up tables it is exposed first, as soon as the deal is checked. The
    house's hand against a player banker is turned over only after theirs is set (Catfish
    Bend, "Player Banker")."""
    early = (Phase.ACTION, Phase.DEALING, Phase.DEAL_CHECK, Phase.MISDEAL)
    hidden: set[int] = set()
    if state.phase in early or (not rules.face_up and state.phase is Phase.PLAYERS_SET):
        hidden.add(state.banker_seat)
    if (house_hand_last(state, rules) and 0 not in state.settings
            and state.phase in (*early, Phase.PLAYERS_SET, Phase.BANKER_SET)):
        hidden.add(0)  # the house's hand waits for the player banker's (Catfish Bend)
    return frozenset(hidden)


def wager_hint(rules: RoundRules, kind: str) -> str:
    """A wager's limits in the profile's amounts, for the amount keypad."""
    fixed = rules.jackpot_wager(kind)
    if fixed is not None:
        return f"fixed at {format_cents(fixed)}"
    limit = rules.banker_limit if kind == "bank" else rules.limit(kind)
    if limit is None:
        return ""
    return (f"{format_cents(limit.minimum)} to {format_cents(limit.maximum)}, in steps of "
            f"{format_cents(limit.increment)}")


def banker_pai_gow(rules: RoundRules, state: RoundState) -> bool:
    """The exposed banker's hand is an ace-high pai gow, which pushes every base wager at a
    Face Up table (rules README, "Face Up"): the dealer announces it before setting it."""
    hand = state.hands.get(state.banker_seat)
    if not rules.face_up or hand is None or state.phase is not Phase.BANKER_SET:
        return False
    return ace_high_status(hand) is not None


def sets_own_hand(state: RoundState, seat: int) -> bool:
    """Whether ``seat``'s hand may be set otherwise than the House Way: every player's, and a
    player banker's; never the house's (rules README, "Setting and comparing hands")."""
    return not (seat == state.banker_seat and state.banker_kind == "house")

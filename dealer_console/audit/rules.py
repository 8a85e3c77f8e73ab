"""The audit's second opinion on every round: each event the rules compute is computed again.

The round procedure writes events that follow from the state alone: the fees at START GAME, the
action seat from its number, every settlement line (the settlement engine's plan, once the
hands are final), each seat's paid lines, the returned wagers of a voided round and the next
banker. Replaying a round, the audit asks the same code (``decide`` and the planner, with the
profile's House Way) for those events again, before applying each logged one, and compares:
a line rewritten in the log (a lost wager made a win, a fee lowered) is reported even when the
hash chain was recomputed after it. Settings are held to the rules too: the house's hand and
every hand the log says was set the House Way must be the House Way of its cards (rules README,
"Setting and comparing hands"), and no card may be dealt twice in a deal.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from dealer_console.cards import format_cards, parse_cards
from dealer_console.money import format_cents
from dealer_console.round import commands as c
from dealer_console.round.decide_setting import hit_out_of_turn, plan_event
from dealer_console.round.jackpot import wager_only_planner
from dealer_console.round.machine import (
    Refused,
    Services,
    decide,
    line_from,
    setting_from,
)
from dealer_console.round.rules import ActionSeatMethod, RoundRules
from dealer_console.round.settle import SettlementMismatch
from dealer_console.round.state import RoundState
from dealer_console.round.table import default_services
from dealer_console.setting import Setting, is_foul
from dealer_console.seven import ace_high_status
from dealer_console.storage.eventlog import canonical_json

Payload = dict[str, Any]
_HOUSE_WAY = ("house_way", "foul_reset_house_way")


class RoundRulesCheck:
    """Checks one event against the round's state just before it (see the module doc)."""

    def __init__(self, rules: RoundRules) -> None:
        self.rules = rules
        self.notes: list[str] = []
        """What the audit found that is no tampering (a round settled by an earlier
        console's reading), for the report's notes."""
        self._tips_recorded: int | None = None
        """The first round whose plan recorded its tip reading: every later plan must."""
        self._services = default_services(rules)
        self._jackpot_services = replace(self._services,
                                         planner=wager_only_planner(self._services.planner))

    def before(self, state: RoundState, seq: int, kind: str, p: Payload,
               owns_awards: bool) -> list[str]:
        """Problems with event ``seq`` (``kind``, payload ``p``) given ``state`` before it.
        ``owns_awards``: a jackpot system paid this round's awards (its planner takes only the
        jackpot wagers, as the round's did)."""
        services = self._jackpot_services if owns_awards else self._services
        where = f"round {state.round_id} event {seq} ({kind})"
        try:
            return [f"{where}: {problem}" for problem in self._check(state, kind, p, services)]
        except (ValueError, KeyError, TypeError, IndexError, SettlementMismatch) as exc:
            return [f"{where}: cannot be checked against the rules ({exc})"]

    def _check(self, state: RoundState, kind: str, p: Payload, services: Services
               ) -> list[str]:
        recompute = _RECOMPUTED.get(kind)
        if recompute is not None:
            return self._again(state, recompute(state, self.rules, p), kind, p, services)
        if kind == "settlement_planned":
            return self._plan(state, p, services)
        if kind == "hand_dealt":
            return _fresh_cards(state, p)
        if kind == "banker_set":
            return self._banker_set(state, p, services)
        if kind == "banker_reconstructed" and state.banker_kind == "house":
            return self._house_way(state.hands[state.banker_seat], setting_from(p), services,
                                   "the house's hand")
        if kind == "player_set":
            return self._player_set(state, p, services)
        if kind == "jackpot_hit":
            return _jackpot_hit(state, p)
        return []

    def _again(self, state: RoundState, cmd: c.Command, kind: str, p: Payload,
               services: Services) -> list[str]:
        try:
            events = decide(state, self.rules, cmd, services)
        except Refused as exc:
            return [f"the rules refuse it here: {exc}"]
        if not events or events[0][0] != kind:
            got = events[0][0] if events else "nothing"
            return [f"the rules give {got} here, not {kind}"]
        return _differences(events[0][1], p)

    def _limits_unsaid(self, round_id: int, computed: list[Any], logged: list[Any]
                       ) -> list[Any]:
        """``computed`` as a console before stop 50 noted it, where the logged lines are
        exactly that: the same money, the words of a cut or a commission not yet said."""
        if any(x.limits for x in logged) or not any(x.limits for x in computed):
            return computed
        earlier = [_without_limits(x) for x in computed]
        if earlier != logged:
            return computed
        self.notes.append(f"round {round_id}: its settlement lines do not say what cut or "
                          "added to their money (the aggregate limit, the banker's coverage, "
                          "commission): settled by a console before stop 50")
        return earlier

    def _plan(self, state: RoundState, p: Payload, services: Services) -> list[str]:
        try:
            _kind, again = plan_event(state, self.rules, services, [])
        except Refused as exc:
            return [f"the settlement cannot be recomputed from the cards ({exc})"]
        logged = [line_from(x) for x in p["lines"]]
        computed = [line_from(x) for x in again["lines"]]
        if self.rules.profile.tip_bets and "tips" in p and self._tips_recorded is None:
            self._tips_recorded = state.round_id
        if self.rules.profile.tip_bets and "tips" not in p:  # settled before stop 39
            if self._tips_recorded is not None:
                # an outside review dropped the key from a round this console played, and its
                # winning tips' returns moved to the toke box passed as the earlier reading
                # a second review: a rollback to a console from before stop 39 writes such
                # plans honestly; the release log says whether the table was rolled back
                return [f"the plan does not say how its tip bets were settled, but round "
                        f"{self._tips_recorded}'s did: the key was dropped, unless a console "
                        "from before stop 39 played this round after a rollback (see the "
                        "table's release log)"]
            earlier = [_tip_whole_to_dealer(x) for x in computed]
            if earlier == logged:
                self.notes += [
                    f"round {state.round_id}: seat {x.seat}'s winning tip bet gave the toke "
                    f"box {format_cents(x.returned)} the bank did not match (settled by a "
                    "console before stop 39; the rules README returns it to the player)"
                    for x, before in zip(computed, earlier, strict=True) if x != before]
            computed = earlier
        computed = self._limits_unsaid(state.round_id, computed, logged)
        out = []
        for i in range(max(len(logged), len(computed))):
            have = logged[i] if i < len(logged) else None
            want = computed[i] if i < len(computed) else None
            if have != want:
                out.append(f"settlement line {i + 1}: the log has {_line_text(have)}; "
                           f"recomputed from the cards, settings and wagers: "
                           f"{_line_text(want)}")
        if list(p["seats"]) != list(again["seats"]):
            out.append(f"settlement order {p['seats']}, but the rules give {again['seats']}")
        return out

    def _banker_set(self, state: RoundState, p: Payload, services: Services) -> list[str]:
        hand = state.hands[state.banker_seat]
        out: list[str] = []
        setting = setting_from(p)
        if state.banker_kind == "house" or p.get("how") in _HOUSE_WAY:
            whose = "the house's hand" if state.banker_kind == "house" else "the banker's hand"
            out += self._house_way(hand, setting, services, whose)
        else:
            out += _own_setting(hand, setting, self.rules, "the banker's hand")
        status = ace_high_status(hand)
        expected = status.value if status else None
        if p.get("ace_high") != expected:
            out.append(f"ace-high status {p.get('ace_high')!r}; the cards give {expected!r}")
        if bool(p.get("ace_high_push")) != bool(self.rules.face_up and status is not None):
            out.append("the ace-high push does not follow from the banker's cards")
        return out

    def _player_set(self, state: RoundState, p: Payload, services: Services) -> list[str]:
        seat = int(p["seat"])
        hand = state.hands[seat]
        setting = setting_from(p)
        if seat == 0 or p.get("how") in _HOUSE_WAY:
            whose = "the house's hand" if seat == 0 else f"seat {seat}'s hand"
            return self._house_way(hand, setting, services, whose)
        if p.get("how") == "player":
            return _own_setting(hand, setting, self.rules, f"seat {seat}'s hand")
        return []

    @staticmethod
    def _house_way(hand: tuple[Any, ...], setting: Setting, services: Services,
                   whose: str) -> list[str]:
        wanted = services.house_way(hand)
        if sorted(setting.low) == sorted(wanted.low) and sorted(setting.high) == sorted(
                wanted.high):
            return []
        return [f"{whose} is set {setting}, but the House Way of {format_cards(hand)} is "
                f"{wanted}"]


def _own_setting(hand: tuple[Any, ...], setting: Setting, rules: RoundRules, whose: str
                 ) -> list[str]:
    if sorted(setting.cards) != sorted(hand):
        return [f"{whose} is set {setting}, which is not the cards dealt "
                f"({format_cards(hand)})"]
    if is_foul(setting, rules.hand_rules):
        return [f"{whose} is set {setting}, a foul the log does not call one"]
    return []


def _jackpot_hit(state: RoundState, p: Payload) -> list[str]:
    """What the round's own step checks of a hit's turn (``decide_setting.hit_out_of_turn``),
    again, and that it names the seat's dealt cards: a hit appended to a finished round, on
    cards the seat was never dealt, or a second one on the same seat and spot is reported
    though its amount is right for the line it names."""
    seat, spot = int(p["seat"]), int(p.get("spot", 1))
    refused = hit_out_of_turn(state, seat, spot)
    out = [refused] if refused else []
    held = state.hands.get(seat)
    cards = p.get("cards")
    if held is None:
        out.append(f"seat {seat} was dealt no hand this round")
    elif cards is not None and sorted(parse_cards(str(cards))) != sorted(held):
        out.append(f"the hit is on {cards}, but seat {seat} was dealt {format_cards(held)}")
    return out


def _without_limits(line: Any) -> Any:
    """A plan's line as a console before stop 50 noted it: the reason alone, without the
    words of what cut or added to its money (``state.with_limits``)."""
    return replace(line, note=line.note.rsplit(" [", 1)[0]) if line.limits else line


def _tip_whole_to_dealer(line: Any) -> Any:
    """A plan's line as a console before stop 39 settled it: a winning tip bet's stake went to
    the toke box whole, the part the bank did not match too (``round-format.md``)."""
    if line.kind.split("#")[0] != "tips" or line.outcome != "win" or not line.returned:
        return line
    return replace(line, returned=0, house_delta=line.house_delta + line.returned)


def _fresh_cards(state: RoundState, p: Payload) -> list[str]:
    cards = parse_cards(p["cards"])
    seen = {card for held in state.hands.values() for card in held}
    again = sorted({str(x) for x in cards if x in seen or cards.count(x) > 1})
    if again:
        return [f"seat {p['seat']} is dealt {' '.join(again)}, already dealt in this deal"]
    return []


def _differences(computed: Payload, logged: Payload) -> list[str]:
    """Keys whose logged value is not what the rules compute (a device's key aside). A key
    the logged event lacks is one an older console did not record: it is not compared."""
    want = json.loads(canonical_json(computed))
    out = []
    for key in sorted(logged):
        if key == "device_fact":
            continue
        if key not in want or not _agrees(want[key], logged[key]):
            out.append(f"{key} is {json.dumps(logged[key])} in the log, but the rules give "
                       f"{json.dumps(want.get(key))}")
    return out


def _agrees(want: Any, have: Any) -> bool:
    if isinstance(want, dict) and isinstance(have, dict):
        return set(have) <= set(want) and all(_agrees(want[k], have[k]) for k in have)
    return bool(want == have)


def _line_text(line: Any) -> str:
    if line is None:
        return "no line"
    return (f"seat {line.seat} {line.kind} {line.outcome}: staked {line.staked}, returned "
            f"{line.returned}, banker {line.banker_delta}, house {line.house_delta}")


def _action(state: RoundState, rules: RoundRules, p: Payload) -> c.Command:
    if rules.action_method is ActionSeatMethod.HIGH_CARD:
        # the floor's name where the log has it; a console before the floor's card was asked
        # for a new high card logged none, and its rounds stand as that console took them
        floor = str(p.get("floor") or EARLIER_FLOOR)
        return c.SetActionSeat(int(p["action_seat"]), restart=True, who=floor)
    return c.SetActionNumber(int(p["number"]))


EARLIER_FLOOR = "the floor (not named by an earlier console)"
"""The name the audit gives a new high card logged with no ``floor`` key."""


_RECOMPUTED: dict[str, Callable[[RoundState, RoundRules, Payload], c.Command]] = {
    "game_started": lambda _s, _r, _p: c.StartGame(),
    "action_set": _action,
    "seat_settled": lambda _s, _r, _p: c.SettleNext(),
    "round_voided": lambda _s, _r, p: c.VoidRound(str(p["reason"]), str(p["who"])),
    "game_ended": lambda _s, _r, _p: c.EndGame(),
}
"""Events that follow from the state alone: the command that makes each one again."""

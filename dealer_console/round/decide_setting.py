"""The setting and settling decisions (banker's and players' hands, the reconstruction,
settlement, jackpot hits, END GAME)."""

from __future__ import annotations

from typing import Any

from dealer_console.cards import Card, format_cards
from dealer_console.round import commands as c
from dealer_console.round.events import EventKind as E
from dealer_console.round.evolve import clone, evolve
from dealer_console.round.jackpot_kinds import JACKPOT_KINDS
from dealer_console.round.phases import not_accepted
from dealer_console.round.rotation import next_banker
from dealer_console.round.rules import (
    Foul,
    RoundRules,
)
from dealer_console.round.seats import (
    settlement_order,
)
from dealer_console.round.state import Phase, RoundState
from dealer_console.round.values import (
    EventTuple,
    Handler,
    Refused,
    Services,
    line_json,
    need_phase,
    setting_json,
)
from dealer_console.setting import Setting, is_foul
from dealer_console.seven import ace_high_status


def house_hand_last(state: RoundState, rules: RoundRules) -> bool:
    """Whether the house's hand stays face down until the player banker has set theirs: the
    house plays against a player banker in a game that is not Face Up (Catfish Bend, "Player
    Banker": the players set, then the player banker, then the dealer sets the house hand;
    "Card Placement": the dealer's cards are turned over only after the players' are set)."""
    return (not rules.face_up and rules.house_hand and state.banker_kind == "player"
            and 0 in state.seats_with_base())


def _check_same_cards(seat: int, hand: tuple[Card, ...], setting: Setting) -> None:
    if sorted(setting.cards) != sorted(hand):
        raise Refused(f"seat {seat}: the set hand {setting} is not the seven cards dealt "
                      f"({format_cards(hand)})")


def _banker_setting(state: RoundState, rules: RoundRules, setting: Setting | None,
                    services: Services) -> tuple[Setting, str]:
    hand = state.hands[state.banker_seat]
    if setting is None:
        return services.house_way(hand), "house_way"
    if state.banker_kind == "house":
        raise Refused("the house's hand is always set the House Way")
    _check_same_cards(state.banker_seat, hand, setting)
    if is_foul(setting, rules.hand_rules):
        # The banker never plays a foul hand: it is reset the House Way (Catfish Bend, "Player
        # Banker"; rules README, "Setting and comparing hands").
        return services.house_way(hand), FOUL_RESET
    return setting, "banker"


def _set_banker(state: RoundState, rules: RoundRules, cmd: c.Command, services: Services
                ) -> list[EventTuple]:
    assert isinstance(cmd, c.SetBankerHand)
    need_phase(state, cmd)
    setting, how = _banker_setting(state, rules, cmd.setting, services)
    hand = state.hands[state.banker_seat]
    status = ace_high_status(hand)
    push = bool(rules.face_up and status is not None)
    events: list[EventTuple] = [(E.BANKER_SET, {
        **setting_json(setting), "how": how, "ace_high": status.value if status else None,
        "ace_high_push": push})]
    if house_hand_last(state, rules) and 0 not in state.settings:
        # the dealer turns the house's hand over and sets it the House Way only now
        events.append((E.PLAYER_SET, {"seat": 0, **setting_json(services.house_way(
            state.hands[0])), "how": "house_way", "fouls": 0, "dead": False}))
    if push or not rules.face_up:
        events.append(plan_event(state, rules, services, events))
    return events


def _set_player(state: RoundState, rules: RoundRules, cmd: c.Command, services: Services
                ) -> list[EventTuple]:
    assert isinstance(cmd, c.SetPlayerHand)
    need_phase(state, cmd)
    seat = cmd.seat
    if seat == state.banker_seat:
        raise Refused(f"seat {seat} is the banker")
    if seat not in state.seats_with_base():
        raise Refused(f"seat {seat} has no base wager; its hand went to the discard rack")
    if seat == 0 and cmd.setting is not None:
        raise Refused("the house's hand is always set the House Way")
    if seat == 0 and house_hand_last(state, rules):
        raise Refused("the house's hand stays face down until the player banker has set "
                      "theirs; it is set the House Way after it")
    hand = state.hands[seat]
    again = seat in second_chances(state, rules)
    if seat in state.settings and not again:
        raise Refused(f"seat {seat} has already set its hand")
    fouls = state.fouls.get(seat, 0)
    dead = False
    if cmd.setting is None:
        setting, how = services.house_way(hand), "house_way"
    else:
        _check_same_cards(seat, hand, cmd.setting)
        setting, how = cmd.setting, "player"
        if is_foul(setting, rules.hand_rules):
            fouls += 1
            if rules.foul is Foul.LOSES:
                how, dead = "foul", True
            elif rules.foul is Foul.RESET_ONCE_THEN_DEAD and fouls >= 2:
                how, dead = "foul", True  # the second foul: a dead hand that loses
            else:
                setting, how = services.house_way(hand), FOUL_RESET
    events: list[EventTuple] = [(E.PLAYER_SET, {"seat": seat, **setting_json(setting),
                                                "how": how, "fouls": fouls, "dead": dead})]
    remaining = [s for s in players_to_set(state, rules) if s != seat]
    if how == FOUL_RESET and rules.foul is Foul.RESET_ONCE_THEN_DEAD:
        remaining.append(seat)  # its first foul: the player's one more try waits
    if not remaining:
        if rules.face_up:
            events.append(plan_event(state, rules, services, events))
        else:
            events.append((E.PLAYERS_DONE, {}))
    return events


def players_to_set(state: RoundState, rules: RoundRules) -> list[int]:
    """The hands the players' step still sets: every base wager's but the banker's, and not
    the house's while it waits for a player banker's (see :func:`house_hand_last`); then the
    hands waiting for their second chance (:func:`second_chances`)."""
    later = {0} if house_hand_last(state, rules) else set()
    return [s for s in state.seats_with_base() if s != state.banker_seat
            and s not in state.settings and s not in later] + second_chances(state, rules)


FOUL_RESET = "foul_reset_house_way"
"""How a foul hand reset the House Way is recorded (``set_how``)."""


def second_chances(state: RoundState, rules: RoundRules) -> list[int]:
    """Catfish Bend ("Irregularities"; ``reset_once_then_dead``): a player's first foul is
    reset the House Way and the player gets one more try. The players' step waits for it:
    the hand set again, or kept the House Way (``SetPlayerHand`` with no setting). An outside
    review found the try given only while another hand was still unset, so whether a player
    had it hung on the order the dealer touched the seats."""
    if rules.foul is not Foul.RESET_ONCE_THEN_DEAD:
        return []
    return [s for s, how in sorted(state.set_how.items())
            if how == FOUL_RESET and state.fouls.get(s) == 1 and s != state.banker_seat]


TIPS_PAST_THE_BANK = "returned"
"""How a winning tip bet the designated player's bank cannot match is settled, written in each
plan of a table that takes tip bets: the unmatched part goes back to the bettor (since stop
39, ``settlement/settle.py``). A plan without it was settled by an earlier console, which
gave the dealer the whole tip (``audit/rules.py`` judges it so, and notes the difference)."""


def plan_event(state: RoundState, rules: RoundRules, services: Services,
                pending: list[EventTuple]) -> EventTuple:
    """Every settlement line, computed once all hands are final and stored in the log, so a
    replay never recomputes money."""
    trial = clone(state)
    for event in pending:
        evolve(trial, event)
    try:
        lines = services.planner(trial, rules)
    except ValueError as exc:  # the engine's RoundError: inputs it cannot settle
        raise Refused(f"settlement refused the round: {exc}") from None
    assert trial.action_seat is not None
    order = settlement_order(rules, trial.banker_seat, trial.action_seat)
    seats = [s for s in order if any(x.seat == s for x in lines)]
    seats += sorted({x.seat for x in lines} - set(seats))
    planned: dict[str, Any] = {"lines": [line_json(x) for x in lines], "seats": seats}
    if rules.profile.tip_bets:
        planned["tips"] = TIPS_PAST_THE_BANK  # the reading this console settles tips by
    return (E.SETTLEMENT_PLANNED, planned)


def _reconstruct(state: RoundState, rules: RoundRules, cmd: c.Command, services: Services
                 ) -> list[EventTuple]:
    assert isinstance(cmd, c.ReconstructBankerHand)
    need_phase(state, cmd)
    if not cmd.who.strip():
        raise Refused("a supervisor must be named to reconstruct the banker's hand")
    problem = reconstruct_problem(state, rules)
    if problem:
        raise Refused(problem)
    hand = state.hands[state.banker_seat]
    _check_same_cards(state.banker_seat, hand, cmd.setting)
    if is_foul(cmd.setting, rules.hand_rules):
        raise Refused(f"the banker's hand cannot be set foul: {cmd.setting}")
    if state.banker_kind == "house" and not _same_split(cmd.setting, services.house_way(hand)):
        # Only a player banker sets their own hand (Catfish Bend, "Irregularities"); the
        # house's is the House Way and nothing else (rules README, "Setting and comparing").
        raise Refused("the house's hand is always set the House Way; a reconstruction cannot "
                      "set it otherwise")
    if state.banker_setting is not None and _same_split(cmd.setting, state.banker_setting):
        raise Refused("the banker's hand is already set that way: nothing to reconstruct")
    if not cmd.reason.strip():
        raise Refused("say why the banker's hand is reconstructed: the reason is recorded "
                      "with it")
    events: list[EventTuple] = [(E.BANKER_RECONSTRUCTED, {
        **setting_json(cmd.setting), "who": cmd.who, "reason": cmd.reason.strip()})]
    if state.phase is Phase.SETTLEMENT:
        events.append(plan_event(state, rules, services, events))
    return events


def reconstruct_problem(state: RoundState, rules: RoundRules) -> str | None:
    """Why the banker's hand may not be reconstructed now, whatever the setting, or None: its
    phase, not set yet, a seat already settled, reconstructed once already (it stays as the
    supervisor set it), or :func:`reconstruction_closed`."""
    problem = not_accepted(state.phase, c.ReconstructBankerHand)
    if problem:
        return problem
    if state.banker_setting is None:
        return "the banker's hand is not set yet"
    if state.settled_seats:
        return "seats are already settled; once settled, hands are not reconstructed"
    if state.reconstructed:
        return (f"the banker's hand was already reconstructed this round (by "
                f"{state.reconstructed}); it stays as it is now")
    return reconstruction_closed(state, rules)


def reconstruction_closed(state: RoundState, rules: RoundRules) -> str | None:
    """Why a player banker's hand may no longer be reconstructed at a Face Up table, or None.
    There the players set their hands against the banker's, shown first, so changing it once
    any of them has set moves money between them and the banker: the Oxford Downs document
    ("Round of Play") keeps a Designated Player's hand set wrong but not foul as it is once
    action has started (a foul hand the console resets the House Way itself, as that section
    asks), and the California document ("Dealing Procedures & Round of Play") has the
    player-dealer's hand set before the players set theirs and gives no reconstruction after.
    Where the players set first (Catfish Bend, "Player Banker") the supervisor reconstructs
    it midway through the round ("Irregularities"). An outside review found a supervisor
    could pick the banker's setting after seeing every hand, as often as they liked."""
    if state.banker_kind != "player" or not rules.face_up:
        return None
    if any(seat != state.banker_seat for seat in state.settings):
        return ("the players have set their hands against the banker's hand as it was shown, "
                "so it stays as set (a hand set wrong is kept once action has started; a foul "
                "one the console already reset the House Way)")
    return None


def _same_split(a: Setting, b: Setting) -> bool:
    return sorted(a.low) == sorted(b.low) and sorted(a.high) == sorted(b.high)


def _settle_next(state: RoundState, rules: RoundRules, cmd: c.Command, _s: Services
                 ) -> list[EventTuple]:
    need_phase(state, cmd)
    seats: list[int] = state.opening.get("plan_seats", [])
    todo = [s for s in seats if s not in state.settled_seats]
    if not todo:
        raise Refused("every seat is settled")
    seat = todo[0]
    lines = [line_json(x) for x in state.plan if x.seat == seat]
    return [(E.SEAT_SETTLED, {"seat": seat, "lines": lines, "last": len(todo) == 1})]


def hit_out_of_turn(state: RoundState, seat: int, spot: int) -> str | None:
    """Why the round takes no jackpot hit on ``seat``'s game ``spot`` at this point of the
    round, or None: its phase, or a hit there already. The round's step asks here, and the
    audit's replay of a logged hit (``audit/rules.py``; the table's games are the jackpot's
    rebuild's to judge)."""
    problem = not_accepted(state.phase, c.JackpotHit)
    if problem:
        return problem
    if any(h[0] == seat and h[4] == spot for h in state.jackpot_hits):
        return f"seat {seat} already has a jackpot hit on spot {spot} this round"
    return None


def hit_refused(state: RoundState, rules: RoundRules, seat: int, spot: int) -> str | None:
    """Why the round takes no jackpot hit on ``seat``'s game ``spot`` now, or None."""
    problem = hit_out_of_turn(state, seat, spot)
    if problem:
        return problem
    if rules.profile.jackpot is None:
        return "this table has no jackpot"
    kind = JACKPOT_KINDS.get(spot)
    if kind is None or kind not in rules.wager_kinds:
        games = [s for s, k in JACKPOT_KINDS.items() if k in rules.wager_kinds]
        return (f"this table has no jackpot game on sensor spot {spot} "
                f"(its games: spot {', '.join(map(str, games))})")
    if (seat, kind) not in state.wagers:
        return f"seat {seat} has no jackpot wager on spot {spot}"
    return None


def _jackpot_hit(state: RoundState, rules: RoundRules, cmd: c.Command, _s: Services
                 ) -> list[EventTuple]:
    assert isinstance(cmd, c.JackpotHit)
    refused = hit_refused(state, rules, cmd.seat, cmd.spot)
    if refused:
        raise Refused(refused)
    if not cmd.confirmer.enabled:
        raise Refused(f"{cmd.confirmer.name}'s card is withdrawn: a jackpot hit needs the "
                      "card of a supervisor or executive in service")
    # The jackpot hook computes the award inside the same transaction and replaces
    # "confirmer" (the employee's id) by who confirmed and what was paid.
    payload: dict[str, Any] = {"seat": cmd.seat, "hand_line": cmd.hand_line, "spot": cmd.spot,
                               "confirmer": cmd.confirmer.employee_id,
                               "cards": format_cards(state.hands[cmd.seat])}
    if cmd.second is not None:
        payload["second_confirmer"] = cmd.second.employee_id
    if cmd.paid is not None or cmd.tray_report:  # for the hook only, never logged
        payload["link_pay"] = (cmd.paid, cmd.tray_report)
    return [(E.JACKPOT_HIT, payload)]


def _end_game(state: RoundState, rules: RoundRules, cmd: c.Command, _s: Services
              ) -> list[EventTuple]:
    if state.phase is not Phase.END:
        raise Refused(f"END GAME is refused in phase {state.phase.value}: settle every seat "
                      "first")
    return [(E.GAME_ENDED, {"next": next_banker(state, rules)})]


HANDLERS: dict[type[c.Command], Handler] = {
    c.SetBankerHand: _set_banker,
    c.SetPlayerHand: _set_player,
    c.ReconstructBankerHand: _reconstruct,
    c.SettleNext: _settle_next,
    c.JackpotHit: _jackpot_hit,
    c.EndGame: _end_game,
}

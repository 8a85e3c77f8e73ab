"""The steps of an ordinary round that a dealer takes for many seats at once: last round's
wagers again, the seat before's wagers at a new seat, every hand left set the House Way,
every seat settled as shown. Each is the
seat-by-seat command applied in turn on a copy of the round, so it is checked by the same
rules and records the same events a dealer would have caused seat by seat; one refused step
refuses the whole command."""

from __future__ import annotations

from collections.abc import Callable

from dealer_console.round import commands as c
from dealer_console.round.decide_betting import HANDLERS as BETTING
from dealer_console.round.decide_setting import HANDLERS as SETTING
from dealer_console.round.decide_setting import players_to_set
from dealer_console.round.evolve import clone, evolve
from dealer_console.round.rotation import copied_wagers, last_wagers
from dealer_console.round.rules import RoundRules
from dealer_console.round.state import Phase, RoundState
from dealer_console.round.values import EventTuple, Handler, Refused, Services, need_phase


def _in_turn(state: RoundState, rules: RoundRules, services: Services,
             steps: list[c.Command], more: Callable[[RoundState], c.Command | None]
             ) -> list[EventTuple]:
    """The events of ``steps`` (then of ``more(trial)`` while it names one), each decided on
    the round as the steps before it left it."""
    trial = clone(state)
    events: list[EventTuple] = []

    def take(cmd: c.Command) -> None:
        handlers = {**BETTING, **SETTING}
        for event in handlers[type(cmd)](trial, rules, cmd, services):
            evolve(trial, event)
            events.append(event)

    for cmd in steps:
        take(cmd)
    following = more(trial)
    while following is not None:
        take(following)
        following = more(trial)
    return events


def repeat_seats(state: RoundState) -> list[int]:
    """The seats the table's "same wagers as last round" would bet for: those that played
    last round, have no wager yet and do not bank this round."""
    banker = state.banker_seat if state.banker_kind == "player" else None
    taken = {s for (s, _k) in state.wagers}
    return sorted({s for s, _k, _a in last_wagers(state)} - taken - {banker})


def _repeat_wagers(state: RoundState, rules: RoundRules, cmd: c.Command, services: Services
                   ) -> list[EventTuple]:
    assert isinstance(cmd, c.RepeatWagers)
    need_phase(state, cmd)
    last = last_wagers(state)
    if cmd.seat is None:
        seats = repeat_seats(state)
        if not seats:
            raise Refused("no seat to bet as last round: every seat that played last round "
                          "has its wagers or banks" if last else "no wagers last round")
    else:
        seats = [cmd.seat]
        if not any(s == cmd.seat for s, _k, _a in last):
            raise Refused(f"seat {cmd.seat} had no wager last round")
        if any(s == cmd.seat for (s, _k) in state.wagers):
            raise Refused(f"seat {cmd.seat} has wagers already: take them back first")
    # the base wager first: a bonus wager rides on it
    wanted = sorted((w for w in last if w[0] in seats), key=lambda w: (w[0], w[1] != "base"))
    return _in_turn(state, rules, services,
                    [c.PlaceWager(s, k, a) for s, k, a in wanted], lambda _t: None)


def copy_source(state: RoundState, rules: RoundRules, seat: int) -> int | None:
    """The seat whose wagers "same as the seat before" copies to ``seat``: the nearest player
    seat before it holding wagers a copy places, never a player banker (its own wager while
    banking is no player's); None when ``seat`` has wagers or no seat before it has any."""
    banker = state.banker_seat if state.banker_kind == "player" else None
    if seat == banker or any(s == seat for (s, _k) in state.wagers):
        return None
    before = [s for s in rules.player_seats
              if s < seat and s != banker and copied_wagers(state.wagers, s)]
    return before[-1] if before else None


def _copy_wagers(state: RoundState, rules: RoundRules, cmd: c.Command, services: Services
                 ) -> list[EventTuple]:
    assert isinstance(cmd, c.CopyWagers)
    need_phase(state, cmd)
    if cmd.seat == cmd.from_seat:
        raise Refused(f"seat {cmd.seat} cannot take its own wagers again")
    if state.banker_kind == "player" and state.banker_seat in (cmd.seat, cmd.from_seat):
        raise Refused(f"seat {state.banker_seat} banks this round: its wagers are not copied "
                      "and it takes none")
    if any(s == cmd.seat for (s, _k) in state.wagers):
        raise Refused(f"seat {cmd.seat} has wagers already: take them back first")
    wanted = copied_wagers(state.wagers, cmd.from_seat)
    if not wanted:
        raise Refused(f"seat {cmd.from_seat} has no wagers to place again")
    return _in_turn(state, rules, services,
                    [c.PlaceWager(cmd.seat, k, a) for k, a in wanted], lambda _t: None)


def _set_hands_house_way(state: RoundState, rules: RoundRules, cmd: c.Command,
                         services: Services) -> list[EventTuple]:
    need_phase(state, cmd)
    todo = players_to_set(state, rules)
    if not todo:
        raise Refused("every player's hand is set")
    return _in_turn(state, rules, services, [c.SetPlayerHand(s) for s in todo],
                    lambda _t: None)


def _settle_all(state: RoundState, rules: RoundRules, cmd: c.Command, services: Services
                ) -> list[EventTuple]:
    assert isinstance(cmd, c.SettleAll)
    need_phase(state, cmd)
    if cmd.end_game and rules.profile.jackpot is not None:
        # the jackpot keypad's END GAME resets the bet sensors, and a hit is marked before it
        raise Refused("END GAME is pressed on its own at a jackpot table, after any jackpot "
                      "hit is marked")

    def more(t: RoundState) -> c.Command | None:
        if t.phase is Phase.SETTLEMENT:
            return c.SettleNext()
        return c.EndGame() if cmd.end_game and t.phase is Phase.END else None

    return _in_turn(state, rules, services, [c.SettleNext()], more)


HANDLERS: dict[type[c.Command], Handler] = {
    c.RepeatWagers: _repeat_wagers,
    c.CopyWagers: _copy_wagers,
    c.SetHandsHouseWay: _set_hands_house_way,
    c.SettleAll: _settle_all,
}

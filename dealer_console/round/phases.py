"""Which commands each phase of a round accepts: one table that the state machine enforces and
the screens ask (a button is live only when its command is accepted now).

A command accepted by its phase may still be refused by the rules (a wager above the limit,
END GAME with a seat unsettled); :meth:`dealer_console.controller.TableController.check` asks
the machine itself for that, without changing anything.
"""

from __future__ import annotations

from collections.abc import Mapping

from dealer_console.round import commands as c
from dealer_console.round.state import Phase

Kind = type[c.Command]

ACCEPTS: Mapping[Phase, frozenset[Kind]] = {
    Phase.BANKER: frozenset({c.AcceptBank, c.DeclineBank, c.VoidRound}),
    Phase.BETTING: frozenset({c.PlaceWager, c.RepeatWagers, c.CopyWagers, c.RemoveWager,
                               c.ChangeWager, c.StartGame, c.VoidRound}),
    Phase.ACTION: frozenset({c.SetActionNumber, c.SetActionSeat, c.ShufflerCountError}),
    Phase.DEALING: frozenset({c.DealHand, c.CardsExposed, c.ShufflerCountError, c.DeclareMisdeal,
                              c.CorrectFirstHand, c.RemainingCards}),
    Phase.DEAL_CHECK: frozenset({c.RemainingCards, c.CorrectFirstHand, c.CardsExposed,
                                 c.ShufflerCountError, c.DeclareMisdeal}),
    Phase.MISDEAL: frozenset({c.DeckCounted, c.Redeal}),
    Phase.BANKER_SET: frozenset({c.SetBankerHand}),
    Phase.PLAYERS_SET: frozenset({c.SetPlayerHand, c.SetHandsHouseWay,
                                  c.ReconstructBankerHand}),
    Phase.SETTLEMENT: frozenset({c.SettleNext, c.SettleAll, c.JackpotHit,
                                 c.ReconstructBankerHand}),
    Phase.END: frozenset({c.EndGame, c.JackpotHit}),
    Phase.COMPLETE: frozenset(),
    Phase.VOIDED: frozenset(),
}

WHAT: Mapping[Kind, str] = {
    c.AcceptBank: "accepting the bank",
    c.DeclineBank: "declining the bank",
    c.PlaceWager: "placing a wager",
    c.RepeatWagers: "repeating last round's wagers",
    c.CopyWagers: "placing another seat's wagers",
    c.RemoveWager: "removing a wager",
    c.ChangeWager: "changing a wager",
    c.StartGame: "START GAME",
    c.VoidRound: "voiding the round",
    c.SetActionNumber: "setting the action",
    c.SetActionSeat: "setting the action",
    c.DealHand: "dealing a hand",
    c.CorrectFirstHand: "moving the hands",
    c.RemainingCards: "counting the remaining cards",
    c.ShufflerCountError: "a card-count error",
    c.CardsExposed: "reporting exposed cards",
    c.DeclareMisdeal: "declaring a misdeal",
    c.DeckCounted: "counting the deck",
    c.Redeal: "redealing",
    c.SetBankerHand: "setting the banker's hand",
    c.SetPlayerHand: "setting a player's hand",
    c.SetHandsHouseWay: "setting the hands the House Way",
    c.ReconstructBankerHand: "reconstructing the banker's hand",
    c.SettleNext: "settling",
    c.SettleAll: "settling",
    c.JackpotHit: "a jackpot hit",
    c.EndGame: "END GAME",
}


def accepts(phase: Phase, kind: Kind) -> bool:
    return kind in ACCEPTS[phase]


def phases_accepting(kind: Kind) -> list[Phase]:
    return [phase for phase, kinds in ACCEPTS.items() if kind in kinds]


def not_accepted(phase: Phase, kind: Kind) -> str | None:
    """Why ``kind`` is refused in ``phase`` by this table, or None when it is accepted."""
    if accepts(phase, kind):
        return None
    allowed = " or ".join(p.value for p in phases_accepting(kind))
    return f"{WHAT[kind]} is not allowed in phase {phase.value} (only {allowed})"

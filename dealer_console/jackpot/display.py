"""What the table-mounted jackpot monitor shows, as plain data the UI draws.

Washington document, "Face Up Pai Gow Poker Jackpot": the display is a monitor with no
intelligence of its own; it shows each game's jackpot amounts (pays scaled to the fixed wager,
"Paytables" closing note) and the console adds the last confirmed hit.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlite_utils import Database

from dealer_console.jackpot.games import game_config, spots
from dealer_console.jackpot.history import hit_history
from dealer_console.jackpot_values.meters import MICRO
from dealer_console.jackpot_values.paytable import FixedPay


@dataclass(frozen=True, slots=True)
class LevelAmount:
    level: str
    cents: int


@dataclass(frozen=True, slots=True)
class LineShown:
    """A paytable line as shown: a meter level's percentage or the fixed pay in cents."""

    label: str
    pay: str
    fixed_cents: int | None


@dataclass(frozen=True, slots=True)
class GameShown:
    spot: int
    paytable: str
    mode: str
    wager_cents: int
    meters: tuple[LevelAmount, ...]
    lines: tuple[LineShown, ...]
    linked: str | None = None
    """The link whose shared meters this game plays (``docs/link.md``; set by
    ``link.display.with_linked_meters``, the table database does not hold it); None: its own."""


@dataclass(frozen=True, slots=True)
class LastHit:
    spot: int
    seat: int
    line_label: str
    amount_cents: int
    confirmed_at: str


@dataclass(frozen=True, slots=True)
class MeterDisplay:
    games: tuple[GameShown, ...]
    last_hit: LastHit | None


def meter_display(db: Database) -> MeterDisplay:
    games = []
    for spot in spots(db):
        game = game_config(db, spot)
        levels = db.execute(
            "SELECT level, meter_micro FROM jackpot_levels WHERE spot = ? ORDER BY position",
            [spot],
        ).fetchall()
        games.append(GameShown(
            spot=spot, paytable=game.paytable.name, mode=game.mode.value,
            wager_cents=game.wager_cents,
            meters=tuple(LevelAmount(str(lv), int(m) // MICRO) for lv, m in levels),
            lines=tuple(
                LineShown(line.label, str(line.pay),
                          game.fixed_amount(line.pay) if isinstance(line.pay, FixedPay)
                          else None)
                for line in game.paytable.lines
            ),
        ))
    hits = hit_history(db, include_backed_out=False)
    last = None
    if hits:
        h = hits[-1]
        last = LastHit(h.spot, h.seat, h.line_label, h.amount_cents, h.confirmed_at)
    return MeterDisplay(tuple(games), last)

"""A table's jackpot games, their meters and the wagers that feed them, in the table database.

Every change of a meter is a row of ``jackpot_ledger`` (append-only) written in the same
transaction as the current value in ``jackpot_levels`` and the fact that caused it: a wager taken
at START GAME (``jackpot_wagers``) here, a confirmed hit (``hits.py``), a manual back-out
(``back_outs.py``). Functions take the database and wrap their writes in
``Database.atomic()``, which is a savepoint inside a caller's transaction: the round procedure can
take the jackpot wagers inside the transaction that locks its round.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlite_utils import Database

from dealer_console import clock
from dealer_console.employees import registry
from dealer_console.errors import Refusal, RefusalCode
from dealer_console.jackpot.schema import GAME_INSTALLED, MIGRATIONS
from dealer_console.jackpot_values import meters
from dealer_console.jackpot_values.config import GameConfig, JackpotMode, LevelConfig
from dealer_console.jackpot_values.meters import MICRO, Award, MeterState
from dealer_console.jackpot_values.paytable import JackpotPaytable, load
from dealer_console.storage import eventlog


class JackpotError(Refusal, ValueError):
    """A jackpot action refused: no wager, a hit already confirmed, an unknown game. A
    :class:`~dealer_console.errors.Refusal` with its own code, so it goes through the round
    and the controller as it is raised, never re-wrapped."""

    code_default = RefusalCode.JACKPOT


def apply_migrations(db: Database) -> None:
    """Create or upgrade the jackpot's and the employee registry's tables."""
    registry.apply_migrations(db)
    MIGRATIONS.apply(db)


# -- games ------------------------------------------------------------------------------------


def install_game(db: Database, game: GameConfig, *, actor: str) -> None:
    """Put a jackpot game on a sensor spot with its meters at their seeds.

    The set-up is written to the table's event log too (``jackpot_game_installed``, in the same
    transaction), so ``audit verify`` can rebuild ``jackpot_games`` and the meters from the log
    and a changed set-up (a raised executive threshold) is caught.
    """
    with db.atomic():
        if db.execute("SELECT 1 FROM jackpot_games WHERE spot = ?", [game.spot]).fetchone():
            raise JackpotError(f"sensor spot {game.spot} already has a jackpot game")
        modes = {r[0] for r in db.execute("SELECT mode FROM jackpot_games").fetchall()}
        if modes and modes != {game.mode.value}:
            raise JackpotError(
                "all jackpots on a table are of one type: house and progressive cannot mix"
            )
        at = clock.stamp()
        if eventlog.has_log(db):
            eventlog.append(db, GAME_INSTALLED, setup_payload(game, actor), round_id=None,
                            recorded_at=at)
        write_game(db, game, installed_at=at, installed_by=actor)


def setup_payload(game: GameConfig, actor: str) -> dict[str, object]:
    """A game's set-up as the event log holds it."""
    return {
        "spot": game.spot, "paytable": game.paytable.name, "mode": game.mode.value,
        "wager_cents": game.wager_cents, "fixed_from_meter": game.fixed_from_meter,
        "executive_threshold_cents": game.executive_threshold_cents,
        "levels": [{"level": lv.name, "seed_cents": lv.seed_cents,
                    "contribution_ppm": lv.contribution_ppm, "reserve_ppm": lv.reserve_ppm}
                   for lv in game.levels],
        "installed_by": actor,
        "pin_required": game.pin_required, "linked": game.linked,
    } | ({} if game.two_person_above_cents is None
         else {"two_person_above_cents": game.two_person_above_cents})


def game_from_payload(p: dict[str, Any]) -> GameConfig:
    """The :class:`GameConfig` a ``jackpot_game_installed`` event describes."""
    return GameConfig(
        spot=int(p["spot"]), paytable=load(str(p["paytable"])), mode=JackpotMode(p["mode"]),
        levels=tuple(LevelConfig(str(lv["level"]), int(lv["seed_cents"]),
                                 int(lv["contribution_ppm"]), int(lv["reserve_ppm"]))
                     for lv in p["levels"]),
        wager_cents=int(p["wager_cents"]), fixed_from_meter=bool(p["fixed_from_meter"]),
        executive_threshold_cents=int(p["executive_threshold_cents"]),
        two_person_above_cents=None if p.get("two_person_above_cents") is None
        else int(p["two_person_above_cents"]),
        pin_required=bool(p.get("pin_required", False)),
        linked=None if p.get("linked") is None else str(p["linked"]),
    )


def write_game(db: Database, game: GameConfig, *, installed_at: str, installed_by: str,
               pin_and_link: bool = True) -> None:
    """The tables of an installed game (the console, and the audit's rebuild from the log);
    ``pin_and_link`` False: the set-up did not record them (an older console's event)."""
    db.execute(
        "INSERT INTO jackpot_games (spot, paytable, mode, wager_cents, fixed_from_meter, "
        "executive_threshold_cents, installed_at, installed_by, two_person_above_cents, "
        "pin_required, linked) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [game.spot, game.paytable.name, game.mode.value, game.wager_cents,
         int(game.fixed_from_meter), game.executive_threshold_cents, installed_at,
         installed_by, game.two_person_above_cents,
         int(game.pin_required) if pin_and_link else None,
         game.linked if pin_and_link else None],
    )
    for position, lv in enumerate(game.levels):
        db.execute(
            "INSERT INTO jackpot_levels VALUES (?, ?, ?, ?, ?, ?, 0, 0)",
            [game.spot, lv.name, position, lv.seed_cents, lv.contribution_ppm,
             lv.reserve_ppm],
        )
        ledger(db, game.spot, lv.name, "seed", lv.seed_cents * MICRO, 0)


def game_config(db: Database, spot: int, paytable: JackpotPaytable | None = None) -> GameConfig:
    row = db.execute(
        "SELECT paytable, mode, wager_cents, fixed_from_meter, executive_threshold_cents, "
        "two_person_above_cents FROM jackpot_games WHERE spot = ?", [spot],
    ).fetchone()
    if row is None:
        raise JackpotError(f"no jackpot game on sensor spot {spot}")
    name, mode, wager, from_meter, threshold, two_person = row
    levels = tuple(
        LevelConfig(str(r[0]), int(r[1]), int(r[2]), int(r[3]))
        for r in db.execute(
            "SELECT level, seed_cents, contribution_ppm, reserve_ppm FROM jackpot_levels "
            "WHERE spot = ? ORDER BY position", [spot],
        ).fetchall()
    )
    return GameConfig(
        spot=spot, paytable=paytable or load(str(name)), mode=JackpotMode(mode),
        levels=levels, wager_cents=int(wager), fixed_from_meter=bool(from_meter),
        executive_threshold_cents=int(threshold),
        two_person_above_cents=None if two_person is None else int(two_person),
    )


def pin_and_link(db: Database, spot: int) -> tuple[bool, str | None] | None:
    """Whether game ``spot``'s confirmations ask for a PIN and the link it plays, as
    installed; None: installed before they were kept (``schema.py``, 0005)."""
    row = db.execute("SELECT pin_required, linked FROM jackpot_games WHERE spot = ?",
                     [spot]).fetchone()
    if row is None or row[0] is None:
        return None
    return bool(row[0]), None if row[1] is None else str(row[1])


def record_pin_and_link(db: Database, spot: int, pin_required: bool, linked: str | None) -> None:
    """Keep the two facts with a game that was installed without them (the console, from its
    profile, and the audit's rebuild from the event)."""
    db.execute("UPDATE jackpot_games SET pin_required = ?, linked = ? WHERE spot = ? AND "
               "pin_required IS NULL", [int(pin_required), linked, spot])


def pins_in_force(db: Database) -> bool:
    """Whether a jackpot game installed here asks for the confirmer's PIN (``pin_required``
    as installed, or not recorded yet): the command line's staff changes then ask the
    executive's PIN too, as the console's card prompt does (``controller/card_desk.py``)."""
    if db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = "
                  "'jackpot_games'").fetchone() is None:
        return False
    # NULL: a game installed before the column (a database upgraded, the console not started
    # since to record it): taken as asking, so no card does alone what the profile may not let
    # it (a second outside review)
    return db.execute("SELECT 1 FROM jackpot_games WHERE pin_required IS NOT 0 LIMIT 1"
                      ).fetchone() is not None


def spots(db: Database) -> list[int]:
    return [int(r[0]) for r in db.execute("SELECT spot FROM jackpot_games ORDER BY spot")]


def meter_states(db: Database, spot: int) -> dict[str, MeterState]:
    return {
        str(level): MeterState(int(m), int(r))
        for level, m, r in db.execute(
            "SELECT level, meter_micro, reserve_micro FROM jackpot_levels WHERE spot = ? "
            "ORDER BY position", [spot],
        ).fetchall()
    }


def ledger(
    db: Database, spot: int, level: str, kind: str, meter_delta: int, reserve_delta: int, *,
    round_id: int | None = None, seat: int | None = None, hit_id: int | None = None,
    adjustment_id: int | None = None,
) -> MeterState:
    row = db.execute(
        "SELECT meter_micro, reserve_micro FROM jackpot_levels WHERE spot = ? AND level = ?",
        [spot, level],
    ).fetchone()
    meter_after = int(row[0]) + meter_delta
    reserve_after = int(row[1]) + reserve_delta
    if meter_after < 0 or reserve_after < 0:
        raise JackpotError(
            f"meter {level} of game {spot} would go below zero: {kind} refused"
        )
    db.execute(
        "UPDATE jackpot_levels SET meter_micro = ?, reserve_micro = ? "
        "WHERE spot = ? AND level = ?", [meter_after, reserve_after, spot, level],
    )
    db.execute(
        "INSERT INTO jackpot_ledger (recorded_at, spot, level, kind, round_id, seat, hit_id, "
        "adjustment_id, meter_delta_micro, reserve_delta_micro, meter_after_micro, "
        "reserve_after_micro) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [clock.stamp(), spot, level, kind, round_id, seat, hit_id, adjustment_id,
         meter_delta, reserve_delta, meter_after, reserve_after],
    )
    return MeterState(meter_after, reserve_after)


# -- START GAME -------------------------------------------------------------------------------


def take_wagers(db: Database, round_id: int, spot: int, seats: Iterable[int]) -> list[int]:
    """START GAME: record each sensed seat's fixed wager and add its share to every meter.

    A seat already taken for this round is refused, so a replayed lock cannot contribute twice.
    Returns the seats taken, in order.
    """
    game = game_config(db, spot)
    taken = sorted(set(seats))
    with db.atomic():
        for seat in taken:
            if not 1 <= seat <= 7:
                raise JackpotError(f"seat {seat} is not 1-7")
            if db.execute(
                "SELECT 1 FROM jackpot_wagers WHERE round_id = ? AND spot = ? AND seat = ?",
                [round_id, spot, seat],
            ).fetchone():
                raise JackpotError(
                    f"round {round_id}: seat {seat}'s jackpot wager on game {spot} is "
                    "already taken"
                )
            db.execute(
                "INSERT INTO jackpot_wagers VALUES (?, ?, ?, ?, ?)",
                [round_id, spot, seat, game.wager_cents, clock.stamp()],
            )
            for lv in game.levels:
                ledger(
                    db, spot, lv.name, "contribution",
                    game.wager_cents * lv.contribution_ppm, game.wager_cents * lv.reserve_ppm,
                    round_id=round_id, seat=seat,
                )
    return taken


def wagered_seats(db: Database, round_id: int, spot: int) -> frozenset[int]:
    return frozenset(
        int(r[0]) for r in db.execute(
            "SELECT seat FROM jackpot_wagers WHERE round_id = ? AND spot = ?", [round_id, spot]
        )
    )


def quote(db: Database, spot: int, line_no: int,
          states: dict[str, MeterState] | None = None) -> Award:
    """What line ``line_no`` would pay now, on the meters as they stand (``states``: a linked
    game's shared meters as its server last told them, instead of the table's own)."""
    game = game_config(db, spot)
    return meters.award(game, game.paytable.line(line_no),
                        meter_states(db, spot) if states is None else states)


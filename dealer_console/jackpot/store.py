"""The jackpot's tables in the table database, and the transactions that change them.

Every change of a meter is a row of ``jackpot_ledger`` (append-only) written in the same
transaction as the current value in ``jackpot_levels`` and the fact that caused it: a wager taken
at START GAME (``jackpot_wagers``), a confirmed hit with who confirmed it (``jackpot_hits``), a
manual back-out (``jackpot_adjustments``). Functions take the database and wrap their writes in
``Database.atomic()``, which is a savepoint inside a caller's transaction: the round procedure can
take the jackpot wagers inside the transaction that locks its round.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sqlite_utils import Database

from dealer_console.award_words import BackOutFacts, confirmers
from dealer_console.cards import Card, format_cards
from dealer_console.employees import registry
from dealer_console.employees.authorize import Refused as SwipeRefused
from dealer_console.employees.authorize import (
    authorise,
    log_accepted,
    permits,
    required_role,
)
from dealer_console.employees.registry import Employee, Role
from dealer_console.errors import ConsoleError
from dealer_console.jackpot import meters
from dealer_console.jackpot.config import GameConfig, JackpotMode, LevelConfig
from dealer_console.jackpot.meters import MICRO, Award, MeterState
from dealer_console.jackpot.paytable import JackpotLine, JackpotPaytable, load
from dealer_console.jackpot.schema import BACKED_OUT, GAME_INSTALLED, MIGRATIONS
from dealer_console.link.records import LinkedHit
from dealer_console.money import format_cents
from dealer_console.storage import eventlog


class JackpotError(ConsoleError, ValueError):
    """A jackpot action refused: no wager, a hit already confirmed, an unknown game."""


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
        at = registry.now()
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
    )


def write_game(db: Database, game: GameConfig, *, installed_at: str, installed_by: str) -> None:
    """The tables of an installed game (the console, and the audit's rebuild from the log)."""
    db.execute(
        "INSERT INTO jackpot_games (spot, paytable, mode, wager_cents, fixed_from_meter, "
        "executive_threshold_cents, installed_at, installed_by, two_person_above_cents) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [game.spot, game.paytable.name, game.mode.value, game.wager_cents,
         int(game.fixed_from_meter), game.executive_threshold_cents, installed_at,
         installed_by, game.two_person_above_cents],
    )
    for position, lv in enumerate(game.levels):
        db.execute(
            "INSERT INTO jackpot_levels VALUES (?, ?, ?, ?, ?, ?, 0, 0)",
            [game.spot, lv.name, position, lv.seed_cents, lv.contribution_ppm,
             lv.reserve_ppm],
        )
        _ledger(db, game.spot, lv.name, "seed", lv.seed_cents * MICRO, 0)


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


def _ledger(
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
        [registry.now(), spot, level, kind, round_id, seat, hit_id, adjustment_id,
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
                [round_id, spot, seat, game.wager_cents, registry.now()],
            )
            for lv in game.levels:
                _ledger(
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


# -- hits -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HitRecord:
    """A confirmed award as stored: what the win page and the hit history show."""

    hit_id: int
    round_id: int
    spot: int
    seat: int
    paytable: str
    line_no: int
    line_label: str
    pay: str
    level: str | None
    cards: str | None
    detected_line_no: int | None
    wager_cents: int
    amount_cents: int
    from_meter_cents: int
    from_tray_cents: int
    meter_before_micro: int | None
    meter_after_micro: int | None
    employee_id: str
    employee_name: str
    employee_role: str
    confirmed_at: str
    second_employee_id: str | None
    """Where the award needed two people: the second to confirm (the first is above)."""
    second_employee_name: str | None
    second_employee_role: str | None
    link: str | None
    """The link whose shared meter paid this award (its server decided the amount), or None."""
    link_hit_id: int | None
    """The award's number on the link's server."""
    backed_out: bool
    back_out: BackOutFacts | None = None
    """Who backed the award out, when and why (``award_words``), when it was."""

    @property
    def confirmers(self) -> str:
        """Both people where two were needed, each with id and role (reports, pages)."""
        return confirmers(self.employee_name, self.employee_id, self.employee_role,
                          self.second_employee_name, self.second_employee_id,
                          self.second_employee_role)

    @property
    def confirmed_by(self) -> str:
        """Who confirmed, in words: one name, or both where two were needed."""
        first = f"{self.employee_name} ({self.employee_role})"
        if self.second_employee_id is None:
            return first
        return f"{first} and {self.second_employee_name} ({self.second_employee_role})"


_HIT_COLUMNS = (
    "h.hit_id, h.round_id, h.spot, h.seat, h.paytable, h.line_no, h.line_label, h.pay, "
    "h.level, h.cards, h.detected_line_no, h.wager_cents, h.amount_cents, h.from_meter_cents, "
    "h.from_tray_cents, "
    "h.meter_before_micro, h.meter_after_micro, h.employee_id, h.employee_name, "
    "h.employee_role, h.confirmed_at, h.second_employee_id, h.second_employee_name, "
    "h.second_employee_role, h.link, h.link_hit_id, a.adjustment_id IS NOT NULL, "
    "a.adjustment_id, a.reason, a.employee_id, a.employee_name, a.recorded_at"
)
_HIT_FROM = "jackpot_hits h LEFT JOIN jackpot_adjustments a ON a.hit_id = h.hit_id"


def _hit(row: Sequence[object]) -> HitRecord:
    values = list(row[:-5])
    values[-1] = bool(values[-1])
    hit = HitRecord(*values)  # type: ignore[arg-type]
    adjustment, reason, employee_id, name, at = row[-5:]
    if adjustment is None:
        return hit
    return replace(hit, back_out=BackOutFacts(
        hit.hit_id, int(str(adjustment)), hit.amount_cents, str(reason), str(employee_id),
        str(name), str(at)))


def get_hit(db: Database, hit_id: int) -> HitRecord:
    row = db.execute(
        f"SELECT {_HIT_COLUMNS} FROM {_HIT_FROM} WHERE h.hit_id = ?", [hit_id]
    ).fetchone()
    if row is None:
        raise JackpotError(f"no jackpot hit {hit_id}")
    return _hit(row)


def hit_for(db: Database, round_id: int, spot: int, seat: int) -> HitRecord | None:
    row = db.execute(
        f"SELECT {_HIT_COLUMNS} FROM {_HIT_FROM} "
        "WHERE h.round_id = ? AND h.spot = ? AND h.seat = ?", [round_id, spot, seat],
    ).fetchone()
    return None if row is None else _hit(row)


def quote(db: Database, spot: int, line_no: int,
          states: dict[str, MeterState] | None = None) -> Award:
    """What line ``line_no`` would pay now, on the meters as they stand (``states``: a linked
    game's shared meters as its server last told them, instead of the table's own)."""
    game = game_config(db, spot)
    return meters.award(game, game.paytable.line(line_no),
                        meter_states(db, spot) if states is None else states)


def hit_action(db: Database, round_id: int, spot: int, seat: int, line_no: int,
               states: dict[str, MeterState] | None = None) -> tuple[Role, str]:
    """Whose card a hit needs now and how the swipe log names the action; refuses a hit that
    cannot be confirmed (no wager, already confirmed). ``states`` as for :func:`quote`."""
    game = game_config(db, spot)
    line = game.paytable.line(line_no)
    if seat not in wagered_seats(db, round_id, spot):
        raise JackpotError(f"round {round_id}: seat {seat} placed no wager on jackpot game {spot}")
    if hit_for(db, round_id, spot, seat) is not None:
        raise JackpotError(f"round {round_id}: seat {seat}'s jackpot hit is already confirmed")
    quoted = meters.award(game, line, meter_states(db, spot) if states is None else states)
    action = (f"confirm jackpot game {spot} round {round_id} seat {seat}: {line.label} "
              f"{format_cents(quoted.amount_cents)}")
    return required_role(quoted.amount_cents, game.executive_threshold_cents), action


def confirm_hit_by_card(
    db: Database, *, round_id: int, spot: int, seat: int, line_no: int, track: str,
    cards: Sequence[Card] | None = None, detected_line_no: int | None = None,
) -> HitRecord:
    """A swipe confirms a hit: authorised once (a refusal is logged, committed on its own, and
    raised as :class:`~dealer_console.employees.authorize.Refused`), then recorded."""
    role, action = hit_action(db, round_id, spot, seat, line_no)
    employee = authorise(db, track, role, action)
    return confirm_hit(db, round_id=round_id, spot=spot, seat=seat, line_no=line_no,
                       employee_id=employee.employee_id, cards=cards,
                       detected_line_no=detected_line_no)


def confirm_hit(
    db: Database, *, round_id: int, spot: int, seat: int, line_no: int, employee_id: str,
    cards: Sequence[Card] | None = None, detected_line_no: int | None = None,
    second_employee_id: str | None = None, linked: LinkedHit | None = None,
) -> HitRecord:
    """Record a hit confirmed by ``employee_id``, whose swipe was already authorised.

    The award, the meter change (and a 100% award's reset) and who confirmed it are written in
    one transaction. The employee is checked again against the amount (a withdrawn card or a
    role too low is refused, nothing written), never by their card a second time.

    ``linked``: the link's server paid this hit from the shared meter (``jackpot/linked.py``);
    its answer is the award, and the table's own meter does not move.
    """
    role, action = hit_action(db, round_id, spot, seat, line_no)
    game = game_config(db, spot)
    line = game.paytable.line(line_no)
    quoted = (meters.award(game, line, meter_states(db, spot)) if linked is None
              else linked_award(line, linked))
    if linked is not None:
        role = required_role(quoted.amount_cents, game.executive_threshold_cents)
    if game.needs_two(quoted.amount_cents):
        role = Role.SUPERVISOR  # the pair holds an executive: either may come first
    allowed = permits(registry.get(db, employee_id), role)
    if isinstance(allowed, SwipeRefused):
        raise allowed
    employee = allowed
    second = None
    if game.needs_two(quoted.amount_cents):
        if second_employee_id is None:
            raise JackpotError(
                f"{format_cents(quoted.amount_cents)} needs two people: a supervisor's "
                "and an executive's card")
        second = second_person(db, employee, second_employee_id)
    with db.atomic():
        result = quoted
        if linked is None:
            result = meters.award(game, line, meter_states(db, spot))
            if result != quoted:
                raise JackpotError("the meter changed while the swipe was checked; swipe again")
        hit_id = write_hit(db, game, Confirmation(
            round_id=round_id, spot=spot, seat=seat, line_no=line_no,
            cards=format_cards(cards) if cards is not None else None,
            detected_line_no=detected_line_no, employee_id=employee.employee_id,
            employee_name=employee.name, employee_role=employee.role.value,
            confirmed_at=registry.now(),
            second=None if second is None else (second.employee_id, second.name,
                                                second.role.value)), result, linked)
        if second is None:
            log_accepted(db, employee, f"{action} (hit {hit_id})")
        else:  # the first's swipe was logged when it was held, at its own time (issue 23:
            # logging it again here gave one swipe two entries, the second at the second's time)
            log_accepted(db, second, f"{action} (hit {hit_id}, the second of two, after "
                                     f"{employee.name} ({employee.employee_id}))")
    return get_hit(db, hit_id)


def linked_award(line: JackpotLine, hit: LinkedHit) -> Award:
    """The award the link's server paid for ``hit``, as the table records it: the server's
    amounts and its shared meter before and after (reserves stay on the server)."""
    def state(micro: int | None) -> MeterState | None:
        return None if micro is None else MeterState(micro)

    return Award(line, hit.level, hit.amount_cents, hit.from_meter_cents, hit.from_tray_cents,
                 state(hit.meter_before_micro), None, state(hit.meter_after_micro))


def second_person(db: Database, first: Employee, second_id: str) -> Employee:
    """The second of two confirmers: a different person, in service, of the other role (a
    supervisor and an executive); a refusal says which card is wanted instead."""
    if second_id == first.employee_id:
        raise JackpotError("the same person cannot confirm twice: this award needs a "
                           "second person's card")
    second = registry.get(db, second_id)
    allowed = permits(second, Role.SUPERVISOR)
    if isinstance(allowed, SwipeRefused):
        raise JackpotError(str(allowed))
    if second.role is first.role:
        other = "a supervisor's" if first.role is Role.EXECUTIVE else "an executive's"
        raise JackpotError(f"this award needs {other} card after the {first.role.value}'s")
    return second


@dataclass(frozen=True, slots=True)
class Confirmation:
    """Who confirmed which hand line of which seat, and when: the facts of a hit beside the
    award the meters give (the round's ``jackpot_hit`` event holds them all)."""

    round_id: int
    spot: int
    seat: int
    line_no: int
    cards: str | None
    detected_line_no: int | None
    employee_id: str
    employee_name: str
    employee_role: str
    confirmed_at: str
    hit_id: int | None = None
    second: tuple[str, str, str] | None = None
    """The second confirmer (id, name, role) of an award that needed two people."""


def write_hit(db: Database, game: GameConfig, c: Confirmation, result: Award,
              linked: LinkedHit | None = None) -> int:
    """The hit's row and its meter entries (a 100% award's reset too); returns the hit id.
    A linked hit (paid by the link's server, ``result`` its answer) names the link and moves
    no meter of the table's own.

    The console and the audit's rebuild from the event log both write hits here."""
    line = game.paytable.line(c.line_no)
    cursor = db.execute(
        "INSERT INTO jackpot_hits (hit_id, round_id, spot, seat, paytable, line_no, line_label, "
        "pay, level, cards, detected_line_no, wager_cents, amount_cents, from_meter_cents, "
        "from_tray_cents, meter_before_micro, meter_after_micro, employee_id, "
        "employee_name, employee_role, confirmed_at, second_employee_id, second_employee_name, "
        "second_employee_role, link, link_hit_id) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [c.hit_id, c.round_id, c.spot, c.seat, game.paytable.name, c.line_no, line.label,
         str(line.pay), result.level, c.cards, c.detected_line_no, game.wager_cents,
         result.amount_cents, result.from_meter_cents, result.from_tray_cents,
         result.before.meter_micro if result.before else None,
         result.after.meter_micro if result.after else None,
         c.employee_id, c.employee_name, c.employee_role, c.confirmed_at,
         *(c.second or (None, None, None)), linked.link if linked else None,
         linked.hit_id if linked else None],
    )
    hit_id = int(cursor.lastrowid or 0)
    if linked is None and result.level is not None and result.after_award is not None:
        _ledger(db, c.spot, result.level, "award", -result.from_meter_cents * MICRO, 0,
                round_id=c.round_id, seat=c.seat, hit_id=hit_id)
        if result.resets:
            _ledger(db, c.spot, result.level, "reset", result.reset_micro,
                    -result.after_award.reserve_micro,
                    round_id=c.round_id, seat=c.seat, hit_id=hit_id)
    return hit_id


def back_out(db: Database, *, hit_id: int, reason: str, track: str) -> int:
    """Manually back a confirmed award out of the meter on an executive's swipe (checked here,
    logged with the back-out in its transaction), with a reason. See :func:`back_out_by`."""
    hit = _backable(db, hit_id, reason)
    action = f"back out jackpot hit {hit_id}: {reason.strip()}"
    employee = authorise(db, track, Role.EXECUTIVE, action)
    return _back_out(db, hit, reason, employee, log_swipe=action)


def back_out_by(db: Database, *, hit_id: int, reason: str, employee_id: str) -> int:
    """Back a confirmed award out for ``employee_id``, whose executive's swipe was already
    authorised and logged (the console's card prompt): the employee is checked again (a
    withdrawn card or a lower role is refused, nothing written), never by their card.

    The meter entries of the hit are reversed exactly (the award returns to the meter; a 100%
    award's reset is taken back and the reserve restored). The hit itself stays on record; the
    adjustment refers to it and names who backed it out and why. Returns the adjustment's id.
    """
    hit = _backable(db, hit_id, reason)
    allowed = permits(registry.get(db, employee_id), Role.EXECUTIVE)
    if isinstance(allowed, SwipeRefused):
        raise allowed
    return _back_out(db, hit, reason, allowed, log_swipe=None)


def back_out_problem(db: Database, hit_id: int, reason: str) -> str | None:
    """Why award ``hit_id`` cannot be backed out with ``reason`` now, or None (nothing is
    written): a screen asks before it wants the executive's card."""
    try:
        _backable(db, hit_id, reason)
    except JackpotError as exc:
        return str(exc)
    return None


def _backable(db: Database, hit_id: int, reason: str) -> HitRecord:
    if not reason.strip():
        raise JackpotError("a back-out needs a reason")
    hit = get_hit(db, hit_id)
    if hit.backed_out:
        raise JackpotError(f"jackpot hit {hit_id} is already backed out")
    if hit.link is not None:  # the shared meter is the link server's, not this table's
        raise JackpotError(f"jackpot hit {hit_id} was paid from the shared meter of link "
                           f"{hit.link} (its hit {hit.link_hit_id}): a back-out is made on the "
                           "link's server by its operator, not at a table")
    return hit


def _back_out(db: Database, hit: HitRecord, reason: str, employee: registry.Employee, *,
              log_swipe: str | None) -> int:
    with db.atomic():
        at = registry.now()
        adjustment_id = 1 + int(db.execute(
            "SELECT COALESCE(MAX(adjustment_id), 0) FROM jackpot_adjustments").fetchone()[0])
        fact = {"hit_id": hit.hit_id, "adjustment_id": adjustment_id,
                "reason": reason.strip(), "employee_id": employee.employee_id,
                "employee_name": employee.name}
        if eventlog.has_log(db):
            eventlog.append(db, BACKED_OUT, fact, round_id=None, recorded_at=at)
        write_back_out(db, hit, fact, recorded_at=at)
        if log_swipe is not None:
            log_accepted(db, employee, f"{log_swipe} (adjustment {adjustment_id})")
    return adjustment_id


def write_back_out(db: Database, hit: HitRecord, fact: dict[str, Any], *,
                   recorded_at: str) -> None:
    """The adjustment's row and the reversed meter entries (console and audit rebuild)."""
    db.execute(
        "INSERT INTO jackpot_adjustments (adjustment_id, hit_id, reason, employee_id, "
        "employee_name, recorded_at) VALUES (?, ?, ?, ?, ?, ?)",
        [fact["adjustment_id"], hit.hit_id, fact["reason"], fact["employee_id"],
         fact["employee_name"], recorded_at],
    )
    entries = db.execute(
        "SELECT level, SUM(meter_delta_micro), SUM(reserve_delta_micro) FROM jackpot_ledger "
        "WHERE hit_id = ? GROUP BY level ORDER BY level", [hit.hit_id],
    ).fetchall()
    for level, meter_delta, reserve_delta in entries:
        _ledger(db, hit.spot, str(level), "adjustment", -int(meter_delta),
                -int(reserve_delta), round_id=hit.round_id, seat=hit.seat,
                hit_id=hit.hit_id, adjustment_id=int(fact["adjustment_id"]))

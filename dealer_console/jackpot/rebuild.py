"""The jackpot's tables rebuilt from the table's event log, for ``audit verify``.

Every fact behind the jackpot tables is in the log: a game's set-up (``jackpot_game_installed``),
the wagers taken at START GAME (the round's ``game_started``), each confirmed hit with who
confirmed it (``jackpot_hit``) and each back-out (``jackpot_backed_out``). Replaying them in
order through the same writers the console uses gives ``jackpot_games``, ``jackpot_levels``
(meters), ``jackpot_wagers``, ``jackpot_hits``, ``jackpot_adjustments`` and ``jackpot_ledger``
as they must be; the audit compares those with the stored tables row by row.

Each award is not copied from the log but recomputed from the paytable line and the meters as
the replay has them (Washington document, "Face Up Pai Gow Poker Jackpot Rules of Play" item 9:
a percentage of the meter as it stands, fixed pays from the tray; a linked game's award on the
shared meter as the link's server logged it before the hit: ``jackpot/linked.py``), and the
confirmer's role is held to the game's executive threshold: a logged award that the rules do
not give is reported.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import Any

from sqlite_utils import Database

from dealer_console.cards import parse_cards
from dealer_console.employees.authorize import required_role
from dealer_console.jackpot import back_outs, games, hits
from dealer_console.jackpot.games import JackpotError
from dealer_console.jackpot.hits import Confirmation
from dealer_console.jackpot.qualify import why_not
from dealer_console.jackpot.schema import BACKED_OUT, GAME_INSTALLED, PIN_AND_LINK_RECORDED
from dealer_console.jackpot_values import meters
from dealer_console.jackpot_values.config import GameConfig, JackpotConfigError
from dealer_console.jackpot_values.link_records import LinkedHit
from dealer_console.jackpot_values.meters import MeterState
from dealer_console.jackpot_values.paytable import JackpotLine
from dealer_console.round.jackpot import sensed_wagers
from dealer_console.storage.eventlog import Event

_CONFIRMERS = {"supervisor": 1, "executive": 2}
_HIT_FACTS = ("employee_name", "confirmed_at", "detected_line_no")
"""Facts of a hit that a ``jackpot_hit`` event of an older console did not record."""


class JackpotRebuild:
    """Replays the log's jackpot facts into ``shadow`` (a database with the jackpot tables)."""

    def __init__(self, shadow: Database) -> None:
        self.shadow = shadow
        self.problems: list[str] = []
        self.outside = 0
        """Hits of a jackpot system that keeps no tables here: their awards stand as logged."""
        self.unrecorded: set[tuple[str, tuple[Any, ...], str]] = set()
        """``(table, key, column)`` the log holds no fact for (an older console's event)."""
        self._link_hits: dict[tuple[str, int], int] = {}
        """Each linked hit's ``(link, the server's hit id)``: the event that logged it."""
        self._claimed: dict[int, dict[str, int]] = {}
        """Links that hits logged on a game whose link was not yet recorded: spot -> link ->
        the first such event (held to the link once it is recorded)."""

    def start(self, events: Iterable[Event]) -> None:
        """Install the games whose set-up an upgrade wrote to the log after the fact
        (``backfilled``): they were installed before the rounds that used them."""
        for event in events:
            if event.kind == GAME_INSTALLED and event.payload.get("backfilled"):
                self._install(event, str(event.payload.get("installed_at", "")))

    def apply(self, event: Event, round_id: int | None) -> None:
        """One event of the log, in order (``round_id`` is the event's round, or None)."""
        p = event.payload
        try:
            if event.kind == GAME_INSTALLED and not p.get("backfilled"):
                self._install(event, event.recorded_at)
            elif event.kind == BACKED_OUT:
                self._back_out(event)
            elif event.kind == PIN_AND_LINK_RECORDED:
                linked = None if p["linked"] is None else str(p["linked"])
                games.record_pin_and_link(self.shadow, int(p["spot"]), bool(p["pin_required"]),
                                          linked)
                self._held_to_link(int(p["spot"]), linked)
            elif event.kind == "game_started" and round_id is not None:
                self._take_wagers(round_id, p)
            elif event.kind == "jackpot_hit" and round_id is not None:
                self._hit(event, round_id)
        except (JackpotError, JackpotConfigError, KeyError, TypeError, ValueError,
                sqlite3.Error) as exc:
            self.problems.append(f"event {event.seq} ({event.kind}): its jackpot facts cannot "
                                 f"be replayed ({exc})")

    @property
    def owns_awards(self) -> bool:
        """Whether a jackpot system is installed now (it then pays every award itself)."""
        return bool(games.spots(self.shadow))

    # -- the facts --------------------------------------------------------------------------

    def _install(self, event: Event, installed_at: str) -> None:
        game = games.game_from_payload(event.payload)
        if game.spot in games.spots(self.shadow):
            raise JackpotError(f"sensor spot {game.spot} already has a jackpot game")
        games.write_game(self.shadow, game, installed_at=installed_at,
                         installed_by=str(event.payload["installed_by"]),
                         pin_and_link="pin_required" in event.payload)

    def _back_out(self, event: Event) -> None:
        hit = hits.get_hit(self.shadow, int(event.payload["hit_id"]))
        back_outs.write_back_out(self.shadow, hit, event.payload, recorded_at=event.recorded_at)

    def _take_wagers(self, round_id: int, p: dict[str, Any]) -> None:
        installed = games.spots(self.shadow)
        if not installed:
            return  # a table without a jackpot system
        for spot, seats in sorted(sensed_wagers(p["wagers"]).items()):
            if spot not in installed:
                self.problems.append(f"round {round_id}: jackpot wagers on sensor spot {spot}, "
                                     "where the log installs no jackpot game")
                continue
            fixed = games.game_config(self.shadow, spot).wager_cents
            for seat, cents in sorted(seats.items()):
                if cents != fixed:
                    self.problems.append(f"round {round_id} seat {seat}: a jackpot wager of "
                                         f"{cents} cents on game {spot}, which takes {fixed}")
            games.take_wagers(self.shadow, round_id, spot, seats)

    def _hit(self, event: Event, round_id: int) -> None:
        p = event.payload
        spot, seat, line_no = int(p.get("spot", 1)), int(p["seat"]), int(p["hand_line"])
        where = f"round {round_id} seat {seat} jackpot game {spot} (event {event.seq})"
        if not self.owns_awards:
            self.outside += 1  # another jackpot system behind the round's hook
            return
        game = games.game_config(self.shadow, spot)
        line = game.paytable.line(line_no)
        if seat not in games.wagered_seats(self.shadow, round_id, spot):
            self.problems.append(f"{where}: a hit confirmed on a seat without a jackpot wager")
        paid = self._link_of(_linked(p, round_id, spot, seat, line_no, line.label), spot,
                             where, event.seq)
        if paid is None:
            result = meters.award(game, line, games.meter_states(self.shadow, spot))
        else:  # the link's server paid it off the shared meter as it stood there (logged)
            result = meters.award(game, line, _shared_before(game, line, paid))
        logged = (int(p["award_cents"]), p.get("from_meter_cents"), p.get("from_tray_cents"))
        if logged != (result.amount_cents, result.from_meter_cents, result.from_tray_cents):
            self.problems.append(
                f"{where}: the log pays {logged[0]} cents (meter {logged[1]}, tray {logged[2]})"
                f" but {line.label} on the meters as they stood pays {result.amount_cents} "
                f"(meter {result.from_meter_cents}, tray {result.from_tray_cents})")
        role = str(p.get("employee_role", ""))
        needed = required_role(result.amount_cents, game.executive_threshold_cents)
        two = game.needs_two(result.amount_cents)  # then the pair is checked below
        if not two and _CONFIRMERS.get(role, 0) < _CONFIRMERS[needed.value]:
            article = "an" if needed.value[0] in "aeiou" else "a"
            self.problems.append(f"{where}: confirmed by a {role or 'nobody'}'s card; "
                                 f"{result.amount_cents} cents needs {article} "
                                 f"{needed.value}'s")
        second = p.get("second_employee_id")
        if two and (
                second is None or second == p.get("employee_id")
                or {role, p.get("second_employee_role")} != {"supervisor", "executive"}):
            self.problems.append(f"{where}: {result.amount_cents} cents needs two people, a "
                                 "supervisor and an executive; the log does not name both")
        cards = p.get("cards")
        refused = why_not(game.paytable, None if cards is None else parse_cards(str(cards), 7),
                          line, seat)
        if refused is not None:
            self.problems.append(f"{where}: {line.label} paid, but {refused}")
        hit_id = int(p["hit_id"])
        for column in _HIT_FACTS:
            if column not in p:
                self.unrecorded.add(("jackpot_hits", (hit_id,), column))
        hits.write_hit(self.shadow, game, Confirmation(
            round_id=round_id, spot=spot, seat=seat, line_no=line_no,
            cards=None if cards is None else str(cards),
            detected_line_no=p.get("detected_line_no"), employee_id=str(p["employee_id"]),
            employee_name=str(p.get("employee_name", "")), employee_role=role,
            confirmed_at=str(p.get("confirmed_at", "")), hit_id=hit_id,
            second=None if second is None else (
                str(second), str(p.get("second_employee_name", "")),
                str(p.get("second_employee_role", "")))),
            result if paid is None else hits.linked_award(line, paid), paid)

    def _link_of(self, paid: LinkedHit | None, spot: int, where: str, seq: int
                 ) -> LinkedHit | None:
        """A hit the log says a link's server paid is taken as the link's only when the game
        on its spot plays that link, and each of the server's hits is paid once. An outside
        review wrote a link and any shared meter into a hit of a local game, and its award of
        $100,000 passed: the award is then held to the table's own meters."""
        if paid is None:
            return None
        first = self._link_hits.setdefault((paid.link, paid.hit_id), seq)
        if first != seq:
            self.problems.append(f"{where}: the link {paid.link}'s hit {paid.hit_id} is paid "
                                 f"again (first at event {first})")
        recorded = games.pin_and_link(self.shadow, spot)
        if recorded is None:  # an older console's game: held to its link once recorded
            self._claimed.setdefault(spot, {}).setdefault(paid.link, seq)
            return paid
        if recorded[1] != paid.link:
            plays = ("plays no link" if recorded[1] is None
                     else f"plays the link {recorded[1]}")
            self.problems.append(f"{where}: said paid by the link {paid.link}, but the game "
                                 f"{plays}")
            return None
        return paid

    def _held_to_link(self, spot: int, linked: str | None) -> None:
        """The link recorded for an older console's game: the hits logged before it as paid
        by another link (or by a link at all) are reported."""
        for link, seq in sorted(self._claimed.pop(spot, {}).items()):
            if link != linked:
                plays = "plays no link" if linked is None else f"plays the link {linked}"
                self.problems.append(f"event {seq}: a hit on jackpot game {spot} said paid by "
                                     f"the link {link}, but the game {plays}")


def _linked(p: dict[str, Any], round_id: int, spot: int, seat: int, line_no: int,
            label: str) -> LinkedHit | None:
    """A linked hit's answer from the link's server as the event logged it, or None."""
    if not p.get("link"):
        return None

    def micro(key: str) -> int | None:
        return None if p.get(key) is None else int(p[key])

    return LinkedHit(
        int(p["link_hit_id"]), "", round_id, spot, seat, line_no, label, p.get("level"),
        int(p["award_cents"]), int(p["from_meter_cents"]), int(p["from_tray_cents"]),
        micro("meter_before_micro"), micro("meter_after_micro"), str(p["employee_id"]),
        str(p.get("confirmed_at", "")), str(p["link"]))


def _shared_before(game: GameConfig, line: JackpotLine, paid: LinkedHit
                   ) -> dict[str, MeterState]:
    """The shared meter the award came off, as the server logged it (the award is recomputed
    on it: a percentage of it, or a fixed pay it covered); a pay from the tray alone reads no
    meter."""
    level = paid.level or game.paytable.levels[-1]
    return {level: MeterState(paid.meter_before_micro or 0)} | {
        lv: MeterState(0) for lv in game.paytable.levels if lv != level}


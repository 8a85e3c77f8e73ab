"""One table's round procedure bound to its database: commands in, events and state out.

Every transition is one transaction holding its events, their state changes and any jackpot
hook work. On start the table resumes an unfinished round by replaying its events, so it
continues in the exact phase with every wager, hand and settled seat; a device event carries
the device's own sequence number and is applied at most once (a unique index in the log).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import replace
from typing import Any

from sqlite_utils import Database

from dealer_console.cards import Card
from dealer_console.errors import ConsoleError
from dealer_console.house_ways import set_house_way
from dealer_console.round import commands as c
from dealer_console.round.events import EventKind as E
from dealer_console.round.jackpot import (
    JackpotHook,
    NoJackpot,
    sensed_wagers,
    wager_only_planner,
)
from dealer_console.round.machine import (
    EventTuple,
    Refused,
    Services,
    clone,
    decide,
    evolve,
    new_state,
    opening,
    replay,
)
from dealer_console.round.projection import note_device, project
from dealer_console.round.rules import RoundRules
from dealer_console.round.settle import plan_settlement
from dealer_console.round.state import RoundState
from dealer_console.setting import Setting
from dealer_console.storage import eventlog


def default_services(rules: RoundRules) -> Services:
    def house_way(cards: Sequence[Card]) -> Setting:
        return set_house_way(rules.profile.house_way, cards, rules.hand_rules)

    return Services(house_way=house_way, planner=plan_settlement)


class TableMismatch(ConsoleError, ValueError):
    """A database opened with another profile than the one its rounds were played under."""


class Table:
    """The round procedure of one table. Build it with :meth:`open`."""

    def __init__(self, db: Database, rules: RoundRules, state: RoundState,
                 services: Services, jackpot: JackpotHook) -> None:
        self.db = db
        self.rules = rules
        self.state = state
        self.services = services
        self.jackpot = jackpot

    @classmethod
    def open(cls, db: Database, rules: RoundRules, services: Services | None = None,
             jackpot: JackpotHook | None = None) -> Table:
        """Resume the unfinished round, or open the next one."""
        services = services or default_services(rules)
        jackpot = jackpot or NoJackpot()
        if "jackpot_2" in rules.wager_kinds and not jackpot.owns_awards:
            raise ValueError("a second jackpot game is settled and paid only by the jackpot "
                             "system: open the table with it")
        if jackpot.owns_awards:
            services = replace(services, planner=wager_only_planner(services.planner))
        row = db.execute("SELECT profile FROM rounds ORDER BY round_id DESC LIMIT 1").fetchone()
        if row is not None and row[0] != rules.name:
            raise TableMismatch(f"this database holds a {row[0]!r} table, not {rules.name!r}")
        state = load_open_round(db, rules)
        table = cls(db, rules, state or _placeholder(rules), services, jackpot)
        if state is None:
            table._open_next()
        return table

    # -- commands ------------------------------------------------------------------------

    def handle(self, cmd: c.Command, *, device: str | None = None,
               device_seq: int | None = None, fact: Hashable | None = None,
               also: Callable[[Database], object] | None = None
               ) -> list[eventlog.Event]:
        """Apply ``cmd``; raise :class:`Refused` (nothing changed) when it is not allowed.

        A device event is keyed either by ``fact``, the fact it reports (the event's ``key``:
        the shuffler's deal id and delivery index, the bet sensors' lock id and spot), or by a
        ``device_seq`` that never repeats for the device. Use ``fact`` for a driver's events:
        its own ``seq`` starts again at 1 whenever the driver restarts. A fact already applied
        in this round, or a number already applied, returns ``[]`` and changes nothing.

        ``also`` writes the caller's own record of the step in the same transaction, before its
        events (a supervisor's authorisation in the employee log, with what it authorised).
        """
        fact_key = self._fact_key(device, device_seq, fact)
        if self._applied(device, device_seq, fact_key):
            return []
        planned = decide(self.state, self.rules, cmd, self.services)
        new = clone(self.state)
        written: list[eventlog.Event] = []
        with self.db.atomic():
            if also is not None and planned:  # the caller's own record of the step
                also(self.db)
            self._write(new, planned, device, device_seq, fact_key, written)
            following = self._following(new, written)
        self.state = following or new
        return written

    def handle_facts(self, steps: Sequence[tuple[c.Command, Hashable]], device: str,
                     left_out: Callable[[c.Command, Refused], bool]
                     ) -> list[eventlog.Event]:
        """Several facts of one device report (``(command, fact)`` in order) as one
        transaction: all of them are saved, or none. Each is decided on the round as the ones
        before it left it; one the round refuses is left out when ``left_out`` says so (it is
        told there), else its refusal refuses them all. The sensors' lock is such a report:
        its chips' wagers then START GAME. Each in a transaction of its own, a power cut
        between them left chips as wagers of a round not started, there for good even when the
        player took the chip back before START GAME was pressed again."""
        new = clone(self.state)
        written: list[eventlog.Event] = []
        with self.db.atomic():
            for cmd, fact in steps:
                fact_key = self._fact_key(device, None, fact)
                if self._applied(device, None, fact_key, new.round_id):
                    continue
                try:
                    planned = decide(new, self.rules, cmd, self.services)
                except Refused as exc:
                    if left_out(cmd, exc):
                        continue
                    raise
                self._write(new, planned, device, None, fact_key, written)
            following = self._following(new, written)
        self.state = following or new
        return written

    def handle_run(self, steps: Sequence[tuple[Callable[[RoundState], c.Command | None],
                                               Hashable]], device: str
                   ) -> tuple[list[eventlog.Event], int]:
        """Reports of one device that waited together (a deal's hands), each a step of its
        own, in one transaction: the group commit a burst of them gets. Each ``(command for
        the round as it stands, fact)`` is decided on the round as the ones before it left it;
        the run stops before a step with no command, before one the round refuses (it is
        handled alone next, and told), and once the phase or the deal changed (what follows
        a transition runs between it and the next). The first step's refusal is raised.
        Returns the events and how many steps were taken; the caller keeps the rest."""
        new = clone(self.state)
        start = (new.phase, new.deal_no)
        written: list[eventlog.Event] = []
        taken = 0
        with self.db.atomic():
            for command_for, fact in steps:
                moved_on = taken > 0 and (new.phase, new.deal_no) != start
                cmd = None if moved_on else command_for(new)
                if cmd is None:
                    break
                fact_key = self._fact_key(device, None, fact)
                if not self._applied(device, None, fact_key, new.round_id):
                    try:
                        planned = decide(new, self.rules, cmd, self.services)
                    except Refused:
                        if taken == 0:
                            raise
                        break
                    self._write(new, planned, device, None, fact_key, written)
                taken += 1
            following = self._following(new, written)
        self.state = following or new
        return written, taken

    @staticmethod
    def _fact_key(device: str | None, device_seq: int | None, fact: Hashable | None
                  ) -> str | None:
        if fact is None:
            if device is not None and device_seq is None:
                raise ValueError("a device event needs its sequence number or its fact")
            return None
        if device is None or device_seq is not None:
            raise ValueError("a device fact needs its device and no sequence number")
        return fact_text(fact)

    def _applied(self, device: str | None, device_seq: int | None, fact_key: str | None,
                 round_id: int | None = None) -> bool:
        """A device fact already applied in this round, or a number already applied: the
        step changes nothing."""
        if fact_key is not None and device is not None:
            rid = self.state.round_id if round_id is None else round_id
            return eventlog.device_fact_applied(self.db, rid, device, fact_key)
        if device is not None and device_seq is not None:
            return eventlog.device_event_applied(self.db, device, device_seq)
        return False

    def _write(self, new: RoundState, planned: list[EventTuple], device: str | None,
               device_seq: int | None, fact_key: str | None,
               written: list[eventlog.Event]) -> None:
        """One step's events, inside the caller's transaction: each through the jackpot's
        hook, appended, evolved into ``new`` and projected."""
        if fact_key is not None and planned:
            kind, payload = planned[0]
            planned[0] = (kind, {**payload, "device_fact": {"device": device, "fact": fact_key}})
            device = None  # the fact is the key; the driver's own numbers may repeat
        for i, (kind, payload) in enumerate(planned):
            payload = self._hook(new, kind, payload)
            tag = (device, device_seq) if i == 0 else (None, None)
            event = eventlog.append(self.db, kind, payload, round_id=new.round_id,
                                    device=tag[0], device_seq=tag[1])
            # Evolve from the payload as stored, exactly what a replay will see.
            evolve(new, (kind, event.payload))
            new.last_seq = event.seq
            project(self.db, new, kind, event.payload, event.seq)
            if tag[0] is not None and tag[1] is not None:
                note_device(self.db, tag[0], tag[1], event.seq)
            written.append(event)

    def _following(self, new: RoundState, written: list[eventlog.Event]) -> RoundState | None:
        """The next round, opened in the same transaction when ``new`` finished it."""
        if not new.finished:
            return None
        state, event = self._opening_after(new)
        written.append(event)
        return state

    def _hook(self, state: RoundState, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
        """The jackpot's part of a transition; its refusal goes through as it is raised (the
        one :class:`~dealer_console.errors.Refusal`, its code kept)."""
        if kind == E.GAME_STARTED:
            self.jackpot.start_game(self.db, state.round_id, sensed_wagers(payload["wagers"]))
        elif kind == E.JACKPOT_HIT:
            payload = dict(payload)
            employee_id = str(payload.pop("confirmer"))  # already authorised
            second = payload.pop("second_confirmer", None)
            extra: dict[str, Any] = {} if second is None else {"second_id": str(second)}
            if "link_pay" in payload:  # a linked hit's payment, carried by the command
                extra["paid"], extra["tray_report"] = payload.pop("link_pay")
            hit = self.jackpot.award(self.db, state.round_id, payload["spot"],
                                     payload["seat"], payload["hand_line"],
                                     state.hands[payload["seat"]], employee_id, **extra)
            payload.update(hit.detail)
            payload.update(award_cents=int(hit.award_cents), who=hit.who)
        elif kind == E.GAME_ENDED:
            self.jackpot.end_game(self.db, state.round_id)
        return payload

    # -- rounds ------------------------------------------------------------------------

    def _opening_after(self, finished: RoundState) -> tuple[RoundState, eventlog.Event]:
        return self._append_opening(finished.round_id + 1, left_for_next(finished))

    def _open_next(self) -> None:
        row = self.db.execute(
            "SELECT round_id FROM rounds ORDER BY round_id DESC LIMIT 1").fetchone()
        previous: dict[str, Any] | None = None
        round_id = 1
        if row is not None:
            last = load_round(self.db, self.rules, int(row[0]))
            round_id = last.round_id + 1
            previous = last.opening.get("next") or {
                k: last.opening[k] for k in _OPENING_KEYS if k in last.opening}
        with self.db.atomic():
            state, _event = self._append_opening(round_id, previous)
        self.state = state

    def _append_opening(self, round_id: int, previous: dict[str, Any] | None
                        ) -> tuple[RoundState, eventlog.Event]:
        kind, payload = opening(self.rules, round_id, previous)
        event = eventlog.append(self.db, kind, payload, round_id=round_id)
        state = new_state(event.payload, event.seq, self.rules.face_up)
        project(self.db, state, kind, event.payload, event.seq)
        return state, event


def left_for_next(finished: RoundState) -> dict[str, Any] | None:
    """What ``finished`` leaves the next round to open with (``rotation.opening``): its
    ``next`` block when it was played out, its own opening when it was voided (the same
    banker again); None opens the next round as a table's first."""
    previous = finished.opening.get("next") if finished.phase.value == "complete" else None
    if previous is None and finished.phase.value == "voided":
        previous = {k: finished.opening[k] for k in _OPENING_KEYS if k in finished.opening}
    return previous


def fact_text(key: Hashable) -> str:
    """A device event's key as stored text: tuple parts joined by ``/`` (the device, what,
    then its numbers), anything else by its ``repr`` (a bet spot)."""
    if isinstance(key, tuple):
        return "/".join(fact_text(part) for part in key)
    if isinstance(key, str | int):
        return str(key)
    return repr(key)


_OPENING_KEYS = ("phase", "banker_seat", "banker_kind", "offer_seat", "offer_start",
                 "rotation_seat", "prev_banker", "prev_consecutive", "consecutive",
                 "prev_action_seat", "last_wagers", "last_banks")


def _placeholder(rules: RoundRules) -> RoundState:
    _kind, payload = opening(rules, 0, None)
    return new_state(payload, 0, rules.face_up)


def load_round(db: Database, rules: RoundRules, round_id: int) -> RoundState:
    """Rebuild one round from the event log alone."""
    rows: list[tuple[int, str, dict[str, Any]]] = [
        (e.seq, e.kind, e.payload) for e in eventlog.events(db, round_id=round_id)]
    return replay(rows, rules.face_up)


class RecordsDisagree(ConsoleError, ValueError):
    """The rounds table and the event log disagree on which round is unfinished: the file was
    changed outside the console."""


def load_open_round(db: Database, rules: RoundRules) -> RoundState | None:
    """The unfinished round, rebuilt from its events, or None.

    Which round is unfinished is the log's answer (its last round, if its events do not finish
    it), and the rounds table must say the same. An outside review marked a round in play
    ``complete`` in the rounds table with one UPDATE: the table, which then asked only that
    table, opened the next round and the first one's locked wagers were never settled. Now
    such a file is refused, with the evidence left as it is (resuming would overwrite the
    changed row)."""
    row = db.execute("SELECT MAX(round_id) FROM events").fetchone()
    state = None if row is None or row[0] is None else load_round(db, rules, int(row[0]))
    unfinished = [] if state is None or state.finished else [state.round_id]
    stored = [int(r[0]) for r in db.execute(
        "SELECT round_id FROM rounds WHERE status = 'open' ORDER BY round_id")]
    if stored != unfinished:
        said = (f"round {', '.join(map(str, stored))} is open" if stored
                else "no round is open")
        told = (f"round {state.round_id} is still being played (phase {state.phase.value})"
                if state is not None and unfinished else "no round is open")
        raise RecordsDisagree(
            f"the table's records disagree: the rounds table says {said}, but the event log "
            f"says {told}. The database was changed outside the console: do not play on it; "
            "run 'dealer-console audit verify' on it and call the technician")
    return None if state is None or state.finished else state


__all__ = ["EventTuple", "RecordsDisagree", "Refused", "Table", "fact_text", "left_for_next",
           "load_open_round", "load_round"]

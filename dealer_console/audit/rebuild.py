"""Every table derived from the event log, rebuilt from the log alone and compared row by row.

The whole log is replayed into an empty database through the code that wrote the tables in the
first place: the round's projection (rounds, wagers, fees, hands, settlement lines, misdeals,
interventions, banker rotation, devices, device facts) and the jackpot's writers (games and
their set-up, meters, wagers, hits, back-outs, ledger; ``dealer_console/jackpot/rebuild.py``)
and the technician's service (test-mode sessions, device set-ups; ``storage/service_log.py``).
On the way each round is held to the rules (``rules.py``). Then each stored table is
compared with its rebuilt twin by primary key, and every difference is reported with the
table, the row's key and both values.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlite_utils import Database

from dealer_console.audit.rules import RoundRulesCheck
from dealer_console.jackpot.rebuild import JackpotRebuild
from dealer_console.round.machine import evolve, new_state, opening
from dealer_console.round.projection import note_device, project
from dealer_console.round.rules import RoundRules
from dealer_console.round.state import Phase, RoundState
from dealer_console.round.table import left_for_next
from dealer_console.storage import eventlog, service_log

RulesFor = Callable[[str], RoundRules]
"""The round rules of a profile named in the log (KeyError or ValueError when unknown)."""

ROUND_TABLES = ("rounds", "wagers", "fees", "hands", "settlement_lines", "misdeals",
                "interventions", "banker_rotation", "devices", "device_facts")
"""The tables the round procedure writes beside its log."""
JACKPOT_TABLES = ("jackpot_games", "jackpot_levels", "jackpot_wagers", "jackpot_hits",
                  "jackpot_adjustments", "jackpot_ledger")
"""The jackpot's tables, every fact of which is in the log too."""

_NOT_COMPARED = {"jackpot_wagers": ("recorded_at",), "jackpot_ledger": ("entry", "recorded_at")}
"""Times the jackpot stamps a moment before its round's event (a replay stamps its own: they
are held to their events' times by ``jackpot.audit.verify_times``), and the ledger's entry
number (compared per meter instead)."""

_SHOWN = 5
"""Differences printed per table (a count says how many more)."""


@dataclass
class Rebuild:
    shadow: Database
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    unrecorded: set[tuple[str, tuple[Any, ...], str]] = field(default_factory=set)


def rebuild(db: Database, rules_for: RulesFor) -> Rebuild:
    """Replay the whole log of ``db`` into a new in-memory database (see the module doc)."""
    from dealer_console.jackpot.games import apply_migrations as jackpot_migrations
    from dealer_console.storage.schema import MIGRATIONS

    shadow = Database(memory=True)
    MIGRATIONS.apply(shadow)
    service_log.MIGRATIONS.apply(shadow)
    jackpot_migrations(shadow)
    out = Rebuild(shadow)
    jackpot = JackpotRebuild(shadow)
    checks: dict[str, RoundRulesCheck] = {}
    states: dict[int, RoundState] = {}
    newest: int | None = None
    try:
        with shadow.atomic():
            jackpot.start(eventlog.events(db))
            for event in eventlog.events(db):
                rid = event.round_id
                p = event.payload
                if rid is None:
                    if event.kind in service_log.KINDS:  # test mode, device set-ups
                        service_log.project(shadow, event.kind, p)
                    jackpot.apply(event, None)
                    continue
                if event.kind == "round_opened":
                    profile = str(p["profile"])
                    if profile not in checks:
                        checks[profile] = RoundRulesCheck(rules_for(profile))
                    if newest is not None and rid != newest + 1:
                        out.problems.append(f"round {rid} event {event.seq} (round_opened): "
                                            f"opened after round {newest}: the rounds between "
                                            "are missing")
                    elif newest is not None:
                        out.problems += _opened_as_left(states[newest], checks[profile].rules,
                                                        p, event.seq)
                    state = new_state(p, event.seq, checks[profile].rules.face_up)
                    states[rid] = state
                    newest = rid
                else:
                    state = states[rid]
                    out.problems += _out_of_turn(state, rid, newest, event.seq, event.kind)
                    out.problems += checks[state.profile].before(
                        state, event.seq, event.kind, p, jackpot.owns_awards)
                    evolve(state, (event.kind, p))
                    state.last_seq = event.seq
                jackpot.apply(event, rid)
                project(shadow, state, event.kind, p, event.seq)
                if event.device is not None and event.device_seq is not None:
                    note_device(shadow, event.device, event.device_seq, event.seq)
    except (ValueError, KeyError, TypeError, LookupError, sqlite3.Error) as exc:
        out.problems.append(f"the event log cannot be replayed into the tables ({exc})")
    out.problems += jackpot.problems
    for check in checks.values():
        out.notes += dict.fromkeys(check.notes)  # a round planned twice is noted once
    if jackpot.outside:
        out.notes.append(f"{jackpot.outside} jackpot hits were paid by a jackpot system that "
                         "keeps no tables in this database: their awards stand as logged")
    out.unrecorded |= jackpot.unrecorded
    return out


def _opened_as_left(before: RoundState, rules: RoundRules, p: dict[str, Any], seq: int
                    ) -> list[str]:
    """A round opens as the round before it left the table: who banks, who is offered the
    bank, the rotation and the last wagers (``rotation.opening``), every value of it: a
    console copies the whole block the round before left, whichever console wrote it. An
    outside review noted the opening was never held to it: a rewritten opening (a player made
    the banker, the chain recomputed) was replayed as logged; a second review dropped a value
    the check then passed over."""
    rid = int(p["round_id"])
    where = f"round {rid} event {seq} (round_opened)"
    if before.phase not in (Phase.COMPLETE, Phase.VOIDED):
        return [f"{where}: opened while round {before.round_id} was still in play"]
    _kind, want = opening(rules, rid, left_for_next(before))
    return [f"{where}: {key} is {_shown(p, key)} in the log, but round {before.round_id} "
            f"left {_shown(want, key)}"
            for key in sorted(set(want) | set(p)) if want.get(key, ...) != p.get(key, ...)]


def _shown(payload: dict[str, Any], key: str) -> str:
    return json.dumps(payload[key]) if key in payload else "nothing"


def _out_of_turn(state: RoundState, rid: int, newest: int | None, seq: int, kind: str
                 ) -> list[str]:
    """A round's event after its end, or after the next round opened: the console writes a
    round's events only while it is the round in play (``round/table.py``), so such an event
    was added to the log afterwards."""
    where = f"round {rid} event {seq} ({kind})"
    if rid != newest:
        return [f"{where}: written after round {newest} had opened"]
    if state.phase in (Phase.COMPLETE, Phase.VOIDED):
        return [f"{where}: written after the round had ended"]
    return []


def compare(db: Database, built: Rebuild) -> list[str]:
    """Each stored table against its rebuilt twin: rows only stored, rows only in the log, and
    columns that differ (table, key, both values)."""
    problems: list[str] = []
    for table in (*ROUND_TABLES, *JACKPOT_TABLES, *service_log.TABLES):
        if table not in db.table_names():
            if table in ROUND_TABLES or _has_rows(built.shadow, table):
                problems.append(f"{table}: the table is missing")
            continue
        stored = _keyed(db, table)
        rebuilt = _keyed(built.shadow, table)
        found: list[str] = []
        for key in sorted(stored.keys() - rebuilt.keys(), key=repr):
            found.append(f"{table} ({_key_text(key)}): stored, but not in the event log")
        for key in sorted(rebuilt.keys() - stored.keys(), key=repr):
            found.append(f"{table} ({_key_text(key)}): in the event log, but not stored")
        for key in sorted(stored.keys() & rebuilt.keys(), key=repr):
            have, want = stored[key], rebuilt[key]
            for column in have:
                if have[column] != want.get(column) and (
                        (table, _bare(key), column) not in built.unrecorded):
                    found.append(f"{table} ({_key_text(key)}): {column} is {have[column]!r} "
                                 f"stored, {want.get(column)!r} by the event log")
        problems += found[:_SHOWN]
        if len(found) > _SHOWN:
            problems.append(f"{table}: {len(found) - _SHOWN} more differences")
    return problems


Key = tuple[tuple[str, Any], ...]


def _keyed(db: Database, table: str) -> dict[Key, dict[str, Any]]:
    """The rows of ``table`` by primary key (the ledger: by meter and place on that meter)."""
    columns = [str(r[1]) for r in db.execute(f"PRAGMA table_info([{table}])")]
    pk = [str(r[1]) for r in sorted(db.execute(f"PRAGMA table_info([{table}])"),
                                    key=lambda r: int(r[5])) if int(r[5])]
    skip = set(_NOT_COMPARED.get(table, ()))
    order = "ORDER BY entry" if table == "jackpot_ledger" else ""
    out: dict[Key, dict[str, Any]] = {}
    counts: dict[tuple[Any, Any], int] = {}
    for row in db.execute(f"SELECT * FROM [{table}] {order}"):
        values = dict(zip(columns, row, strict=True))
        if table == "jackpot_ledger":
            meter = (values["spot"], values["level"])
            counts[meter] = counts.get(meter, 0) + 1
            key: Key = (("spot", meter[0]), ("level", meter[1]), ("nth", counts[meter]))
        else:
            key = tuple((c, values[c]) for c in pk)
        out[key] = {c: v for c, v in values.items() if c not in skip}
    return out


def _bare(key: Key) -> tuple[Any, ...]:
    return tuple(v for _c, v in key)


def _key_text(key: Key) -> str:
    return ", ".join(f"{c}={v!r}" if isinstance(v, str) else f"{c}={v}" for c, v in key)


def _has_rows(db: Database, table: str) -> bool:
    return db.execute(f"SELECT 1 FROM [{table}] LIMIT 1").fetchone() is not None

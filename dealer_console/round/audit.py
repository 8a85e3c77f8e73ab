"""Checks an auditor runs over a table database (``dealer-console audit verify``).

- the hash chain of the event log is unbroken;
- every settlement line conserves money (staked = returned + banker's gain + house's gain), so
  every round does too;
- every wager of a completed round is settled exactly once, and nothing is settled twice;
- every round is complete or voided, except the one in play (the newest);
- the state tables agree with the event log: each round rebuilt from its events gives the same
  status, wagers and settlement lines as stored, and replaying the whole log into an empty
  database gives every state table (hands, fees, misdeals, interventions, ...) row for row;
- jackpot meters equal their history (the jackpot system's own check, when the table has one);
- the staff list and its log equal their events (``dealer_console/employees/audit.py``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from sqlite_utils import Database

from dealer_console.employees.audit import verify_staff
from dealer_console.profiles.loader import get_profile
from dealer_console.round.machine import evolve, new_state, replay
from dealer_console.round.projection import note_device, project
from dealer_console.round.rules import base_kind
from dealer_console.round.state import Line, Phase, RoundState
from dealer_console.storage import eventlog

SETTLED_KINDS = ("base", "fortune", "ace_high", "jackpot", "jackpot_2", "house_wager", "tips",
                 "backline")
"""Wager kinds that each get exactly one settlement line in a completed round."""


def _settled_kind(kind: str) -> bool:
    return base_kind(kind) in SETTLED_KINDS


@dataclass
class AuditReport:
    events: int = 0
    rounds: int = 0
    lines: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def audit(db: Database) -> AuditReport:
    report = AuditReport()
    report.events = int(db.execute("SELECT COUNT(*) FROM events").fetchone()[0])
    report.problems.extend(eventlog.verify_chain(db))
    _lines_conserve(db, report)
    _rounds(db, report)
    _tables_against_log(db, report)
    # The jackpot system's meters against their ledger (nothing when the table has none).
    from dealer_console.jackpot.audit import verify_meters

    report.problems.extend(verify_meters(db))
    report.problems.extend(verify_staff(db))  # the staff list against its events
    return report


def _lines_conserve(db: Database, report: AuditReport) -> None:
    rows = db.execute(
        "SELECT round_id, line_no, seat, kind, staked_cents, returned_cents,"
        " banker_delta_cents, house_delta_cents FROM settlement_lines ORDER BY round_id, line_no"
    ).fetchall()
    report.lines = len(rows)
    for rid, no, seat, kind, staked, returned, banker, house in rows:
        if staked != returned + banker + house:
            report.problems.append(
                f"round {rid} line {no} (seat {seat} {kind}): money not conserved: staked "
                f"{staked} != returned {returned} + banker {banker} + house {house}")
    twice = db.execute("SELECT round_id, seat, kind, COUNT(*) FROM settlement_lines"
                       " GROUP BY round_id, seat, kind HAVING COUNT(*) > 1").fetchall()
    for rid, seat, kind, n in twice:
        report.problems.append(f"round {rid}: seat {seat} {kind} settled {n} times")


def _rounds(db: Database, report: AuditReport) -> None:
    rows = db.execute("SELECT round_id, profile, status FROM rounds ORDER BY round_id").fetchall()
    report.rounds = len(rows)
    newest = rows[-1][0] if rows else None
    logged = {int(r[0]) for r in db.execute(
        "SELECT DISTINCT round_id FROM events WHERE round_id IS NOT NULL")}
    for missing in sorted(logged - {int(r[0]) for r in rows}):
        report.problems.append(f"round {missing} is in the event log but not in the rounds table")
    profiles: dict[str, bool] = {}
    for rid, profile, status in rows:
        if status == "open" and rid != newest:
            report.problems.append(f"round {rid} is neither complete nor voided, and a later "
                                   "round was opened")
        if profile not in profiles:
            try:
                profiles[profile] = get_profile(profile).game.value == "face_up"
            except (KeyError, ValueError) as exc:
                report.problems.append(f"round {rid}: unknown profile {profile!r} ({exc})")
                continue
        _round_against_log(db, report, int(rid), status, profiles[profile])


def _round_against_log(db: Database, report: AuditReport, rid: int, status: str,
                       face_up: bool) -> None:
    events = [(e.seq, e.kind, e.payload) for e in eventlog.events(db, round_id=rid)]
    try:
        state = replay(events, face_up)
    except (ValueError, KeyError, TypeError) as exc:
        report.problems.append(f"round {rid}: its events cannot be replayed ({exc})")
        return
    expected_status = {Phase.COMPLETE: "complete", Phase.VOIDED: "voided"}.get(state.phase,
                                                                               "open")
    if expected_status != status:
        report.problems.append(f"round {rid}: stored status {status!r} but its events say "
                               f"{expected_status!r}")
    stored_wagers = {(int(s), str(k)): int(a) for s, k, a in db.execute(
        "SELECT seat, kind, amount_cents FROM wagers WHERE round_id = ?", [rid])}
    if stored_wagers != state.wagers:
        report.problems.append(f"round {rid}: wagers table differs from the event log")
    stored_lines = [Line(int(s), k, o, st, rt, b, h, n) for s, k, o, st, rt, b, h, n in db.execute(
        "SELECT seat, kind, outcome, staked_cents, returned_cents, banker_delta_cents,"
        " house_delta_cents, note FROM settlement_lines WHERE round_id = ? ORDER BY line_no",
        [rid])]
    if stored_lines != state.lines:
        report.problems.append(f"round {rid}: settlement lines differ from the event log")
    if state.phase is Phase.COMPLETE or state.phase is Phase.VOIDED:
        settled = Counter((ln.seat, ln.kind) for ln in state.lines)
        for (seat, kind) in state.wagers:
            if _settled_kind(kind) and settled[(seat, kind)] != 1:
                report.problems.append(f"round {rid}: seat {seat} {kind} wager settled "
                                       f"{settled[(seat, kind)]} times (expected once)")
        staked = sum(ln.staked for ln in state.lines if _settled_kind(ln.kind))
        wagered = sum(a for (_s, k), a in state.wagers.items() if _settled_kind(k))
        if staked != wagered:
            report.problems.append(f"round {rid}: {wagered} cents wagered but {staked} cents "
                                   "settled")
    if state.phase is Phase.COMPLETE:
        net = sum(ln.returned + ln.banker_delta + ln.house_delta - ln.staked
                  for ln in state.lines)
        if net:
            report.problems.append(f"round {rid}: money not conserved over the round ({net})")


STATE_TABLES = ("rounds", "wagers", "fees", "hands", "settlement_lines", "misdeals",
                "interventions", "banker_rotation", "devices", "device_facts")
"""Every table the round procedure writes beside its log; each must equal the log's replay."""

_SHOWN = 5
"""Differing rows printed per table (the count says how many more)."""


def _tables_against_log(db: Database, report: AuditReport) -> None:
    """Replay every event through the same projection the console used, into an empty
    database, and compare each state table row for row: a hand, fee, misdeal or intervention
    changed after the fact shows up here even though the log is intact."""
    from dealer_console.storage.schema import MIGRATIONS

    shadow = Database(memory=True)
    MIGRATIONS.apply(shadow)
    face_up: dict[str, bool] = {}
    states: dict[int, RoundState] = {}
    try:
        with shadow.atomic():
            for event in eventlog.events(db):
                if event.round_id is None:
                    continue
                p = event.payload
                if event.kind == "round_opened":
                    profile = str(p["profile"])
                    if profile not in face_up:
                        face_up[profile] = get_profile(profile).game.value == "face_up"
                    state = new_state(p, event.seq, face_up[profile])
                    states[event.round_id] = state
                else:
                    state = states[event.round_id]
                    evolve(state, (event.kind, p))
                    state.last_seq = event.seq
                project(shadow, state, event.kind, p, event.seq)
                if event.device is not None and event.device_seq is not None:
                    note_device(shadow, event.device, event.device_seq, event.seq)
    except (ValueError, KeyError, TypeError, LookupError) as exc:
        report.problems.append(f"the event log cannot be replayed into the tables ({exc})")
        return
    for table in STATE_TABLES:
        stored = _rows(db, table)
        replayed = _rows(shadow, table)
        if stored is None or replayed is None:
            continue
        extra = sorted(stored - replayed, key=repr)
        missing = sorted(replayed - stored, key=repr)
        for label, rows in (("stored but not in the event log", extra),
                            ("in the event log but not stored", missing)):
            for row in rows[:_SHOWN]:
                report.problems.append(f"{table}: row {row} {label}")
            if len(rows) > _SHOWN:
                report.problems.append(f"{table}: {len(rows) - _SHOWN} more rows {label}")


def _rows(db: Database, table: str) -> set[tuple[object, ...]] | None:
    if table not in db.table_names():
        return None
    return {tuple(r) for r in db.execute(f"SELECT * FROM [{table}]")}

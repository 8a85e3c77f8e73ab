"""Checks an auditor runs over a table database (``dealer-console audit verify``).

- the tables, indexes and triggers are those the migrations make, and no other trigger is
  there (``storage/schema_check.py``: a dropped guard, a table rewritten without its checks);
- the hash chain of the event log is unbroken, and matches its checkpoints outside the file
  (a journal, a digest from the shift report) and their keyed MACs (``storage/anchor.py``);
- every settlement line conserves money (staked = returned + banker's gain + house's gain), so
  every round does too;
- every wager of a completed round is settled exactly once, and nothing is settled twice;
- every round is complete or voided, except the one in play (the newest);
- every round follows the rules as the log replays it: fees, action seat, the House Way of the
  house's hand, every settlement line recomputed from the cards, settings and wagers by the
  settlement engine, each seat's paid lines, the next banker (``rules.py``);
- every table derived from the log (the round's and the jackpot's) equals its rebuild from the
  log, row by row, and each jackpot award is recomputed from its paytable and meters
  (``rebuild.py``, ``dealer_console/jackpot/rebuild.py``);
- jackpot meters equal their ledger (the jackpot system's own check);
- every print of a win page names an award of the table, belongs to no round, and has the
  next number of its award's prints; each outcome (printed or refused) is the one outcome of
  the print just made, a finish naming the printer or the file the console writes; a print
  never finished is a note (``dealer_console/jackpot/win_print_audit.py``);
- the staff list and its log equal their events (``dealer_console/employees/audit.py``);
- every warning kept for the dealer belongs to no round, is of a kind the console keeps, and
  names the round in play where it stands in the log (``dealer_console/round/notices.py``).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from sqlite_utils import Database

from dealer_console.audit.link_owed import link_owed_problems
from dealer_console.audit.rebuild import compare, rebuild
from dealer_console.employees.audit import verify_staff
from dealer_console.jackpot.win_print_audit import print_notes, print_problems
from dealer_console.profiles.loader import get_profile
from dealer_console.profiles.model import Profile
from dealer_console.round.machine import replay
from dealer_console.round.notices import notice_problems
from dealer_console.round.rules import RoundRules, base_kind, round_rules
from dealer_console.round.state import Line, Phase
from dealer_console.storage import anchor, eventlog
from dealer_console.storage.schema_check import schema_differences
from dealer_console.table_db import SCHEMA

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
    notes: list[str] = field(default_factory=list)
    """What the audit could not prove, and how far the chain is anchored."""

    @property
    def ok(self) -> bool:
        return not self.problems


def audit(db: Database, *, checkpoints: Iterable[anchor.Checkpoint] = (),
          key: bytes | None = None, profiles: Iterable[Profile] = ()) -> AuditReport:
    """Every check above. ``checkpoints`` anchor the chain (none: a truncated or recomputed
    log cannot be told, which the notes say); ``key`` checks their MACs; ``profiles`` are
    casino profiles (from TOML files) the log names besides the shipped ones."""
    report = AuditReport()
    report.events = int(db.execute("SELECT COUNT(*) FROM events").fetchone()[0])
    report.problems.extend(f"schema: {p}" for p in schema_differences(db, SCHEMA))
    report.problems.extend(eventlog.verify_chain(db))
    rules_for = _rules_source(profiles)
    _lines_conserve(db, report)
    _rounds(db, report, rules_for)
    if _log_profiles_known(db, rules_for):
        built = rebuild(db, rules_for)
        report.problems.extend(built.problems)
        report.notes.extend(built.notes)
        report.problems.extend(compare(db, built))
    else:  # every row of those rounds would be "stored, but not in the event log"
        report.notes.append("the tables were not rebuilt from the log: rounds played on a "
                            "profile this console does not have cannot be replayed")
    # The jackpot system's meters against their ledger (nothing when the table has none).
    from dealer_console.jackpot.audit import verify_in_the_log, verify_meters, verify_times

    report.problems.extend(verify_meters(db))
    report.problems.extend(verify_in_the_log(db))  # the self-test's part of the rebuild's
    report.problems.extend(verify_times(db))  # the times the meter history shows
    report.problems.extend(print_problems(db))  # each win page printed, numbered in order
    report.notes.extend(print_notes(db))  # a print recorded and never finished
    report.problems.extend(verify_staff(db))  # the staff list against its events
    report.problems.extend(link_owed_problems(db))  # what is owed to the links, by the log
    report.problems.extend(notice_problems(db))  # the dealer's warnings, each in its round
    marks = list(checkpoints)
    if marks:
        anchored = anchor.check(db, marks, key)
        report.problems.extend(anchored.problems)
        report.notes.extend(anchored.notes)
    else:
        report.notes.append("no checkpoint given: erased last rounds, or a log rewritten and "
                            "its chain recomputed, cannot be told from this file alone")
    return report


def _rules_source(profiles: Iterable[Profile]) -> Callable[[str], RoundRules]:
    extra = {p.name: p for p in profiles}
    cache: dict[str, RoundRules] = {}

    def rules_for(name: str) -> RoundRules:
        if name not in cache:
            cache[name] = round_rules(extra[name] if name in extra else get_profile(name))
        return cache[name]

    return rules_for


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


def _log_profiles_known(db: Database, rules_for: Callable[[str], RoundRules]) -> bool:
    """Whether every profile the log's rounds were opened under is known, so the rebuild can
    replay them (the log's names, not the rounds table's: a name changed there is the
    rebuild's to find)."""
    names = {str(json.loads(p).get("profile")) for p, in db.execute(
        "SELECT payload FROM events WHERE kind = 'round_opened'")}
    for name in names:
        try:
            rules_for(name)
        except (KeyError, ValueError):
            return False
    return True


def _rounds(db: Database, report: AuditReport, rules_for: Callable[[str], RoundRules]
            ) -> None:
    """Each round held to its events; a profile this console does not have is said once,
    with its rounds."""
    rows = db.execute("SELECT round_id, profile, status FROM rounds ORDER BY round_id").fetchall()
    report.rounds = len(rows)
    newest = rows[-1][0] if rows else None
    logged = {int(r[0]) for r in db.execute(
        "SELECT DISTINCT round_id FROM events WHERE round_id IS NOT NULL")}
    for missing in sorted(logged - {int(r[0]) for r in rows}):
        report.problems.append(f"round {missing} is in the event log but not in the rounds table")
    profiles: dict[str, bool] = {}
    unknown: dict[str, tuple[str, list[int]]] = {}  # a profile's why, and its rounds
    for rid, profile, status in rows:
        if status == "open" and rid != newest:
            report.problems.append(f"round {rid} is neither complete nor voided, and a later "
                                   "round was opened")
        if profile not in profiles and profile not in unknown:
            try:
                profiles[profile] = rules_for(profile).face_up
            except (KeyError, ValueError) as exc:
                unknown[profile] = (str(exc), [])
        if profile in unknown:
            unknown[profile][1].append(int(rid))
            continue
        _round_against_log(db, report, int(rid), status, profiles[profile])
    for profile, (why, rids) in unknown.items():
        # once a profile, not once a round: a table played on a casino's own profile file
        # gave hundreds of lines, none saying what to do
        which = f"round {rids[0]}" if len(rids) == 1 else (
            f"rounds {rids[0]} to {rids[-1]} ({len(rids)})")
        report.problems.append(
            f"{which}: played on profile {profile!r}, "
            f"which this console does not have ({why}): give the profile's file with "
            "--profile FILE; those rounds were not checked")


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

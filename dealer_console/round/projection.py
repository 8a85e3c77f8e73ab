"""Writes what each round event changes into the state tables (rounds, wagers, fees, hands,
settlement lines, misdeals, interventions, banker rotation, devices).

Runs inside the transaction that appends the event, so the tables and the log never disagree.
The tables are a convenience for recall and audit: the event log alone rebuilds a round.
"""

from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from dealer_console.cards import format_cards
from dealer_console.round.events import EventKind as E
from dealer_console.round.state import Line, RoundState

Payload = dict[str, Any]


DEALER = "dealer"
"""Who an intervention the dealer made is recorded as (their own correction of the deal)."""


def project(db: Database, state: RoundState, kind: str, p: Payload, seq: int) -> None:
    """Apply one event (already evolved into ``state``) to the tables."""
    rid = state.round_id
    if kind == E.ROUND_OPENED:
        db.execute(
            "INSERT INTO rounds (round_id, profile, phase, status, banker_seat, banker_kind,"
            " first_seq, last_seq) VALUES (?, ?, ?, 'open', ?, ?, ?, ?)",
            [rid, state.profile, state.phase.value, state.banker_seat, state.banker_kind, seq,
             seq],
        )
        return
    fact = p.get("device_fact")
    if fact is not None:
        db.execute("INSERT INTO device_facts (round_id, device, fact, seq) VALUES (?, ?, ?, ?)",
                   [rid, fact["device"], fact["fact"], seq])
    if kind == E.WAGER_PLACED:
        db.execute("INSERT INTO wagers (round_id, seat, kind, amount_cents, envy_button)"
                   " VALUES (?, ?, ?, ?, ?)", [rid, p["seat"], p["kind"], p["cents"],
                                               int(p["envy"])])
    elif kind == E.WAGER_REMOVED:
        db.execute("DELETE FROM wagers WHERE round_id = ? AND seat = ? AND kind = ?",
                   [rid, p["seat"], p["kind"]])
    elif kind == E.GAME_STARTED:
        for seat, fee_kind, cents in p.get("fees", []):
            db.execute("INSERT INTO fees (round_id, seat, kind, amount_cents) VALUES (?,?,?,?)",
                       [rid, seat, fee_kind, cents])
    elif kind == E.HAND_DEALT:
        db.execute("INSERT INTO hands (round_id, deal_no, seat, delivery, cards)"
                   " VALUES (?, ?, ?, ?, ?)",
                   [rid, state.deal_no, p["seat"], p["delivery"], p["cards"]])
    elif kind == E.FIRST_HAND_CORRECTED:
        db.execute("DELETE FROM hands WHERE round_id = ? AND deal_no = ?", [rid, state.deal_no])
        for delivery, seat in enumerate(state.delivered, 1):
            db.execute("INSERT INTO hands (round_id, deal_no, seat, delivery, cards)"
                       " VALUES (?, ?, ?, ?, ?)",
                       [rid, state.deal_no, seat, delivery, format_cards(state.hands[seat])])
        _intervention(db, seq, rid, "first_hand_moved", DEALER, str(p["moves"]))
    elif kind == E.MISDEAL:
        db.execute("INSERT INTO misdeals (round_id, deal_no, reason, detail, source,"
                   " deck_count_due) VALUES (?, ?, ?, ?, ?, ?)",
                   [rid, state.deal_no, p["reason"], p["detail"], p["source"],
                    int(p["deck_count_due"])])
        db.execute("UPDATE hands SET void = 1 WHERE round_id = ? AND deal_no = ?",
                   [rid, state.deal_no])
    elif kind == E.DECK_COUNTED:
        db.execute("UPDATE misdeals SET deck_counted = ? WHERE round_id = ? AND deal_no = ?",
                   [p["count"], rid, state.deal_no])
    elif kind in (E.BANKER_SET, E.BANKER_RECONSTRUCTED):
        how = p.get("how", "supervisor")
        db.execute("UPDATE hands SET low = ?, high = ?, set_how = ? WHERE round_id = ?"
                   " AND deal_no = ? AND seat = ?",
                   [p["low"], p["high"], how, rid, state.deal_no, state.banker_seat])
        if kind == E.BANKER_RECONSTRUCTED:
            why = f" ({p['reason']})" if p.get("reason") else ""  # older logs have none
            _intervention(db, seq, rid, "banker_hand_reconstructed", p["who"],
                          f"{p['low']} | {p['high']}{why}")
    elif kind == E.PLAYER_SET:
        db.execute("UPDATE hands SET low = ?, high = ?, set_how = ?, foul_count = ?, dead = ?"
                   " WHERE round_id = ? AND deal_no = ? AND seat = ?",
                   [p["low"], p["high"], p["how"], p["fouls"], int(p["dead"]), rid,
                    state.deal_no, p["seat"]])
    elif kind in (E.SEAT_SETTLED, E.ROUND_VOIDED):
        _lines(db, rid, state.lines[len(state.lines) - len(p["lines"]):])
        if kind == E.ROUND_VOIDED:
            _intervention(db, seq, rid, "round_voided", p["who"], p["reason"])
    elif kind == E.JACKPOT_HIT:
        _lines(db, rid, state.lines[-1:])
        _intervention(db, seq, rid, "jackpot_confirmed", p["who"],
                      f"seat {p['seat']} line {p['hand_line']}: {p.get('award_cents', 0)} cents")
    elif kind == E.GAME_ENDED:
        nxt = p["next"]
        db.execute("INSERT INTO banker_rotation (round_id, banker_seat, banker_kind,"
                   " consecutive, next_offer_seat) VALUES (?, ?, ?, ?, ?)",
                   [rid, state.banker_seat, state.banker_kind, state.consecutive,
                    nxt["offer_seat"]])
    _sync_round(db, state, seq)


def _lines(db: Database, rid: int, lines: list[Line]) -> None:
    row = db.execute("SELECT COALESCE(MAX(line_no), 0) FROM settlement_lines WHERE round_id = ?",
                     [rid]).fetchone()
    n = int(row[0])
    for line in lines:
        n += 1
        db.execute(
            "INSERT INTO settlement_lines (round_id, line_no, seat, kind, outcome, staked_cents,"
            " returned_cents, banker_delta_cents, house_delta_cents, note)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [rid, n, line.seat, line.kind, line.outcome, line.staked, line.returned,
             line.banker_delta, line.house_delta, line.note],
        )


def _intervention(db: Database, seq: int, rid: int, kind: str, who: str, detail: str) -> None:
    db.execute("INSERT INTO interventions (seq, round_id, kind, who, detail) VALUES (?,?,?,?,?)",
               [seq, rid, kind, who, detail])


def _sync_round(db: Database, state: RoundState, seq: int) -> None:
    status = {"complete": "complete", "voided": "voided"}.get(state.phase.value, "open")
    db.execute(
        "UPDATE rounds SET phase = ?, status = ?, banker_seat = ?, banker_kind = ?,"
        " action_seat = ?, deal_no = ?, deck_count_due = ?, banker_wager_cents = ?,"
        " ace_high_push = ?, last_seq = ? WHERE round_id = ?",
        [state.phase.value, status, state.banker_seat, state.banker_kind, state.action_seat,
         state.deal_no, int(state.deck_count_due), state.banker_wager,
         int(state.ace_high_push), seq, state.round_id],
    )


def note_device(db: Database, device: str, device_seq: int, seq: int) -> None:
    db.execute(
        "INSERT INTO devices (device, last_device_seq, last_event_seq) VALUES (?, ?, ?)"
        " ON CONFLICT (device) DO UPDATE SET last_device_seq = excluded.last_device_seq,"
        " last_event_seq = excluded.last_event_seq",
        [device, device_seq, seq],
    )

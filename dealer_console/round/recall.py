"""Game recall: the last rounds with every hand, setting and payout, as regulators ask (at least
the last ten), read from the state tables, and the warnings the dealer was given about each
round's evidence, read from the log (``notices.py``)."""

from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from dealer_console.award_words import back_outs, confirmers
from dealer_console.money import dollars_in_text, format_cents
from dealer_console.round.notices import notice_words, notices_of
from dealer_console.round.state import limits_in


def recall(db: Database, last: int = 10) -> list[dict[str, Any]]:
    """The newest ``last`` rounds, oldest first, as plain data (JSON-ready)."""
    return recall_page(db, count=last)


def recall_page(db: Database, *, before: int | None = None,
                count: int = 10) -> list[dict[str, Any]]:
    """``count`` rounds numbered below ``before`` (the newest when None), oldest first: a
    page of recall, and the page before it is ``before=page[0]["round"]``."""
    ids = [r[0] for r in db.execute(
        "SELECT round_id FROM rounds WHERE round_id < ? ORDER BY round_id DESC LIMIT ?",
        [before if before is not None else 2**63 - 1, count])]
    return recall_rounds(db, sorted(ids))


def recall_between(db: Database, start: str, end: str,
                   limit: int = 200) -> list[dict[str, Any]]:
    """Rounds ended from ``start`` up to (not including) ``end``, and the round still open
    then, as the shift report counts them (``reports/shift.py``); ISO-8601 UTC times as the
    event log writes them, oldest first, at most ``limit`` (the earliest ones)."""
    ids = [r[0] for r in db.execute(rounds_in_range_sql("r.round_id") + " LIMIT ?",
                                    [start, end, end, limit])]
    return recall_rounds(db, ids)


def rounds_in_range_sql(columns: str) -> str:
    """The rounds of a range ``[?, ?)`` (its start and end, then its end again), by number:
    each ended round by its last event (END GAME, or the void), and the round still open when
    it opened before the end."""
    return (f"SELECT {columns} FROM rounds r JOIN events e ON e.seq = CASE r.status WHEN "
            "'open' THEN r.first_seq ELSE r.last_seq END WHERE (r.status != 'open' AND "
            "e.recorded_at >= ? AND e.recorded_at < ?) OR (r.status = 'open' AND "
            "e.recorded_at < ?) ORDER BY r.round_id")


def round_numbers(db: Database) -> tuple[int, int] | None:
    """The first and last round numbers the table holds, or None before its first round."""
    row = db.execute("SELECT MIN(round_id), MAX(round_id) FROM rounds").fetchone()
    return None if row is None or row[0] is None else (int(row[0]), int(row[1]))


def recall_rounds(db: Database, round_ids: list[int]) -> list[dict[str, Any]]:
    """The rounds numbered ``round_ids`` (those that exist), in that order, as plain data."""
    jackpots = _has_table(db, "jackpot_hits")
    out = []
    for wanted in round_ids:
        row = db.execute(
            "SELECT round_id, profile, status, phase, banker_seat, banker_kind, action_seat,"
            " deal_no, banker_wager_cents, ace_high_push FROM rounds WHERE round_id = ?",
            [wanted]).fetchone()
        if row is None:
            continue
        (rid, profile, status, phase, banker, kind, action, deal_no, bwager, push) = row
        at = db.execute("SELECT MIN(recorded_at), MAX(recorded_at) FROM events"
                        " WHERE round_id = ?", [rid]).fetchone()
        out.append({
            "round": rid, "profile": profile, "status": status, "phase": phase,
            "started": at[0], "ended": at[1] if status != "open" else None,
            "banker": {"seat": banker, "kind": kind, "wager_cents": bwager},
            "action_seat": action, "deals": deal_no + 1, "ace_high_push": bool(push),
            "wagers": [dict(zip(("seat", "kind", "cents", "envy"), r, strict=True))
                       for r in db.execute(
                           "SELECT seat, kind, amount_cents, envy_button FROM wagers"
                           " WHERE round_id = ? ORDER BY seat, kind", [rid])],
            "fees": [dict(zip(("seat", "kind", "cents"), r, strict=True)) for r in db.execute(
                "SELECT seat, kind, amount_cents FROM fees WHERE round_id = ? ORDER BY seat",
                [rid])],
            "hands": [dict(zip(("deal", "seat", "cards", "low", "high", "set_how", "fouls",
                                "dead", "void"), r, strict=True)) for r in db.execute(
                "SELECT deal_no, seat, cards, low, high, set_how, foul_count, dead, void"
                " FROM hands WHERE round_id = ? ORDER BY deal_no, delivery", [rid])],
            "misdeals": [dict(zip(("deal", "reason", "detail", "source", "deck_count_due",
                                   "deck_counted"), r, strict=True)) for r in db.execute(
                "SELECT deal_no, reason, detail, source, deck_count_due, deck_counted"
                " FROM misdeals WHERE round_id = ? ORDER BY deal_no", [rid])],
            "lines": [dict(zip(("seat", "kind", "outcome", "staked", "returned",
                                "banker_delta", "house_delta", "note"), r, strict=True))
                      for r in db.execute(
                          "SELECT seat, kind, outcome, staked_cents, returned_cents,"
                          " banker_delta_cents, house_delta_cents, note FROM settlement_lines"
                          " WHERE round_id = ? ORDER BY line_no", [rid])],
            "interventions": [dict(zip(("kind", "who", "detail"), r, strict=True))
                              for r in db.execute(
                                  "SELECT kind, who, detail FROM interventions"
                                  " WHERE round_id = ? ORDER BY seq", [rid])],
            "jackpots": _jackpots(db, rid) if jackpots else [],
            "notices": notices_of(db, rid),
        })
    return out


def _jackpots(db: Database, round_id: int) -> list[dict[str, Any]]:
    """The round's awards: both confirmers where two were needed, and a back-out as its own
    fact with who, when and why (issue 23: a backed-out award still read "paid")."""
    out = []
    for row in db.execute(
            "SELECT h.hit_id, h.spot, h.seat, h.line_label, h.level, h.amount_cents,"
            " h.employee_name, h.employee_id, h.employee_role, h.second_employee_name,"
            " h.second_employee_id, h.second_employee_role, h.confirmed_at"
            " FROM jackpot_hits h WHERE h.round_id = ? ORDER BY h.hit_id", [round_id]):
        (hit_id, game, seat, line, level, cents, *who, at) = row
        out.append({"hit": hit_id, "game": game, "seat": seat, "line": line, "level": level,
                    "cents": cents, "confirmed_by": confirmers(*who), "confirmed_at": at,
                    "role": who[2], "backed_out": None})
    if out:
        outs = back_outs(db, hit_ids=[j["hit"] for j in out])
        for j in out:
            done = outs.get(j["hit"])
            j["backed_out"] = None if done is None else done.words()
    return out


def _has_table(db: Database, name: str) -> bool:
    return db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                      [name]).fetchone() is not None


def _seat(seat: int) -> str:
    return "dealer" if seat == 0 else f"seat {seat}"


def format_round(r: dict[str, Any]) -> str:
    """A round as a dealer or regulator reads it."""
    b = r["banker"]
    banker = ("house" if b["kind"] == "house"
              else f"{_seat(b['seat'])} (bank {format_cents(b['wager_cents'])})")
    head = (f"Round {r['round']}  {r['profile']}  {r['status'].upper()}  banker {banker}"
            f"  action {_seat(r['action_seat']) if r['action_seat'] is not None else '-'}")
    out = [head, f"  started {r['started']}" + (f"  ended {r['ended']}" if r["ended"] else "")]
    for m in r["misdeals"]:
        count = f", deck counted {m['deck_counted']}" if m["deck_counted"] is not None else ""
        out.append(f"  misdeal (deal {m['deal'] + 1}): {m['reason']} - {m['detail']}"
                   f" [{m['source']}]{count}")
    if r["ace_high_push"]:
        out.append("  banker's ace-high pai gow: every base wager pushed")
    for h in r["hands"]:
        if h["void"]:
            continue
        setting = f"{h['low']} | {h['high']}  ({h['set_how']})" if h["low"] else "not set"
        dead = "  DEAD" if h["dead"] else ""
        out.append(f"  {_seat(h['seat']):8} {h['cards']:22} -> {setting}{dead}")
    for w in r["wagers"]:
        envy = " +envy" if w["envy"] else ""
        out.append(f"  wager {_seat(w['seat']):8} {w['kind']:12} {format_cents(w['cents'])}"
                   f"{envy}")
    for f in r["fees"]:
        out.append(f"  fee   {_seat(f['seat']):8} {f['kind']:12} {format_cents(f['cents'])}")
    for ln in r["lines"]:
        net = ln["returned"] - ln["staked"]
        limits = limits_in(ln["note"])
        out.append(f"  paid  {_seat(ln['seat']):8} {ln['kind']:12} {ln['outcome']:7}"
                   f" staked {format_cents(ln['staked'])} returned "
                   f"{format_cents(ln['returned'])} ({format_cents(net, sign=True)})"
                   + (f" [{limits}]" if limits else ""))
    for i in r["interventions"]:
        out.append(f"  {i['kind']} by {i['who']}: {dollars_in_text(i['detail'])}")
    for j in r.get("jackpots", ()):
        level = f" ({j['level']})" if j["level"] else ""
        out.append(f"  jackpot game {j['game']} {_seat(j['seat'])}: {j['line']}{level}"
                   f" {format_cents(j['cents'])}, confirmed by {j['confirmed_by']}")
        if j.get("backed_out"):
            out.append(f"    award {j['hit']} {j['backed_out']}")
        # the prints of its win page, when the record has them (``reports/recall_prints.py``)
        out += [f"    {p['words']}" for p in j.get("prints", ())]
        if j.get("prints_todo"):
            out.append(f"    award {j['hit']}: {j['prints_todo']}")
    out += [f"  {notice_words(n)}" for n in r.get("notices", ())]
    return "\n".join(out)

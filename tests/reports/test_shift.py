"""The shift report over a simulated shift agrees with sums taken independently from the event
log (each seat's settled lines, the fees taken at START GAME, the jackpot hits and the card
swipes as they were logged), over a range that cuts rounds off at both ends."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from dealer_console.cli import main
from dealer_console.reports.shift import ShiftReport, percent, shift_report
from dealer_console.reports.shift_pdf import write_shift_pdf
from dealer_console.storage.connection import TableDatabase
from dealer_console.table_db import open_for_reading
from tests.jackpot.test_winpage_and_crash import pdf_text

PROFILES = ("washington-face-up", "california-face-up", "catfish-bend-fortune")


def _simulate(path: Path, profile: str, rounds: int = 40) -> None:
    with redirect_stdout(io.StringIO()):
        assert main(["simulate", "--devices", "in-process", "--rounds", str(rounds),
                     "--profile", profile, "--faults", "all", "--seed", "5",
                     "--db", str(path)]) == 0


@pytest.fixture(scope="module", params=PROFILES)
def shift(request: pytest.FixtureRequest,
          tmp_path_factory: pytest.TempPathFactory) -> Iterator[TableDatabase]:
    path = tmp_path_factory.mktemp("shift") / "table.db"
    _simulate(path, request.param)
    db = open_for_reading(path)
    yield db
    db.close()


def _events(db: TableDatabase, kind: str) -> list[tuple[int | None, str, dict[str, object]]]:
    return [(rid, at, json.loads(payload)) for rid, at, payload in db.execute(
        "SELECT round_id, recorded_at, payload FROM events WHERE kind = ? ORDER BY seq",
        [kind])]


def _window(db: TableDatabase) -> tuple[str, str]:
    """From the opening of round 6 to the opening of round 31: rounds cut off both ends."""
    opened = {rid: at for rid, at, _ in _events(db, "round_opened")}
    return opened[6], opened[31]


def _expected(db: TableDatabase, start: str, end: str) -> dict[str, int]:
    """The figures summed straight from the event log's payloads."""
    rounds = {rid for rid, at, _ in _events(db, "round_opened") if start <= at < end}
    done = {rid for rid, _at, _ in _events(db, "game_ended") if rid in rounds}
    out = dict.fromkeys(("drop", "paid", "commission", "fees", "misdeals", "jackpots",
                         "jackpot_cents", "swipes", "rounds"), 0)
    out["rounds"] = len(done)
    for rid, _at, p in _events(db, "seat_settled"):
        if rid not in done:
            continue
        for line in p["lines"]:  # type: ignore[attr-defined]
            if line["kind"].split("#")[0] in ("house_wager", "tips"):
                continue  # the house playing, the dealers' tips: neither is drop
            if line["outcome"] == "charge":
                out["commission"] += line["staked"]
            else:
                out["drop"] += line["staked"]
                out["paid"] += line["returned"]
    for rid, _at, p in _events(db, "game_started"):
        if rid in done:
            out["fees"] += sum(cents for _seat, _kind, cents in p["fees"])  # type: ignore[attr-defined]
    for rid, _at, p in _events(db, "jackpot_hit"):
        if rid in done:
            out["jackpots"] += 1
            out["jackpot_cents"] += int(p["award_cents"])  # type: ignore[call-overload]
            out["paid"] += int(p["award_cents"])  # type: ignore[call-overload]
    out["misdeals"] = sum(1 for rid, _at, _p in _events(db, "misdeal") if rid in rounds)
    for kind in ("swipe_accepted", "swipe_refused"):
        out["swipes"] += sum(1 for _r, _at, p in _events(db, kind)
                             if start <= p["log"]["recorded_at"] < end)  # type: ignore[index]
    return out


def house_by_what_the_others_lost(db: TableDatabase, rounds: set[int]) -> int:
    """The house's result from everyone else's (not from the lines' house column): every cent
    the players and a player banker lost went to the house or, for a won tip bet, to the
    toke box: its stake the bank matched (what did not go back to the bettor) and the win paid
    on it (by a player banker, what its bank covered; by the house, even money)."""
    others = toke_box = 0
    for rid in rounds:
        [(banker_kind,)] = db.execute("SELECT banker_kind FROM rounds WHERE round_id = ?", [rid])
        for kind, outcome, staked, returned, banker in db.execute(
                "SELECT kind, outcome, staked_cents, returned_cents, banker_delta_cents"
                " FROM settlement_lines WHERE round_id = ?", [rid]):
            if kind.split("#")[0] != "house_wager":  # that line's bettor is the house
                others += returned - staked
            others += banker  # the banker's side of the line
            if kind.split("#")[0] == "tips" and outcome == "win":
                toke_box += staked - returned + (-banker if banker_kind == "player"
                                                  else staked)
    return -others - toke_box


def _figures(report: ShiftReport) -> dict[str, int]:
    return {"drop": report.drop_cents, "paid": report.paid_cents,
            "commission": report.commission_cents, "fees": report.fees_cents,
            "misdeals": report.misdeal_count, "jackpots": len(report.jackpots),
            "jackpot_cents": report.jackpot_cents, "swipes": len(report.swipes),
            "rounds": report.rounds_played}


def test_the_report_agrees_with_the_event_log(shift: TableDatabase) -> None:
    start, end = _window(shift)
    report = shift_report(shift, start, end)
    assert _figures(report) == _expected(shift, start, end)
    assert report.first_round == 6 and report.last_round == 30
    played = set(range(6, 31)) - set(report.rounds_open)
    played = {r for r in played if shift.execute("SELECT status FROM rounds WHERE round_id = ?",
                                                 [r]).fetchone()[0] == "complete"}
    assert report.house_result_cents - report.backed_out_cents == \
        house_by_what_the_others_lost(shift, played)
    assert report.hold_cents == report.drop_cents - report.paid_cents
    assert all(isinstance(v, int) for v in (*report.drop.values(), *report.paid.values()))


def test_the_whole_shift_covers_what_its_two_halves_do(shift: TableDatabase) -> None:
    start, end = _window(shift)
    opened = {rid: at for rid, at, _ in _events(shift, "round_opened")}
    whole = shift_report(shift, start, end)
    first, second = shift_report(shift, start, opened[18]), shift_report(shift, opened[18], end)
    assert whole.rounds_played == first.rounds_played + second.rounds_played
    assert whole.drop_cents == first.drop_cents + second.drop_cents
    assert whole.paid_cents == first.paid_cents + second.paid_cents
    assert whole.fees_cents == first.fees_cents + second.fees_cents


def test_something_happened_in_the_shift(shift: TableDatabase) -> None:
    """The simulated shift holds what the report must count (or the test above proves
    little)."""
    report = shift_report(shift, *_window(shift))
    assert report.rounds_played >= 20 and report.drop_cents > 0 and report.paid_cents > 0
    assert report.misdeal_count > 0 and report.interventions


def test_hold_as_a_percentage_of_the_drop() -> None:
    report = ShiftReport("a", "b", 1, 0, (), 1, 1, {"base": 3000}, {"base": 2000}, 0, {}, 0,
                         {}, (), (), ())
    assert report.hold_cents == 1000
    assert report.hold_basis_points == 3333 and percent(report.hold_basis_points) == "33.33%"
    losing = ShiftReport("a", "b", 1, 0, (), 1, 1, {"base": 3000}, {"base": 5000}, 0, {}, 0,
                         {}, (), (), ())
    assert percent(losing.hold_basis_points) == "-66.67%"


def test_a_range_without_a_zone_or_backwards_is_refused(shift: TableDatabase) -> None:
    with pytest.raises(ValueError, match="time zone"):
        shift_report(shift, "2026-01-01T00:00", "2027-01-01T00:00+00:00")
    with pytest.raises(ValueError, match="before or when it starts"):
        shift_report(shift, "2027-01-01T00:00+00:00", "2026-01-01T00:00+00:00")


def test_the_pdf_and_the_command_hold_the_totals(shift: TableDatabase, tmp_path: Path) -> None:
    start, end = _window(shift)
    expected = _expected(shift, start, end)
    report = shift_report(shift, start, end)
    text = pdf_text(write_shift_pdf(report, "T7", tmp_path / "direct.pdf"))
    from dealer_console.money import format_cents

    for cents in (expected["drop"], expected["paid"], expected["drop"] - expected["paid"]):
        assert format_cents(abs(cents)) in text
    pdf = tmp_path / "shift.pdf"
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["report", "--db", shift.file, "--from", start, "--to", end,
                     "--pdf", str(pdf), "--json"]) == 0
    printed = json.loads(out.getvalue())
    assert printed["drop_cents"] == expected["drop"]
    assert printed["paid_cents"] == expected["paid"]
    assert printed["fees_cents"] == expected["fees"]
    assert format_cents(expected["drop"]) in pdf_text(pdf)

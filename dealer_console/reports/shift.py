"""The shift report's figures over any time range, all in integer cents.

A round belongs to the range in which it ended (END GAME, or its void), the same rule recall's
time search uses, so a round is never split between two shifts, and reports printed at the
end of each shift add up to the table's. Only completed rounds count towards the money; voided
rounds are counted apart, and the round still open that opened before the range's end is named
so it is not missed: the next shift's report counts it. (An outside review: a round was dated
by its opening, which is the END GAME of the round before: the round waiting at a shift change,
played in the next shift, was in no printed report, and a table's first round of the evening
fell on the day before.)

Where each figure comes from (``docs/reports.md`` says the same for a supervisor):
- drop by wager kind: what players staked on each settled wager (settlement lines that are
  not a charge); a player banker's coverage is not drop;
- paid out: what went back to the players on those lines (stakes returned and winnings,
  jackpot awards included); hold is drop minus paid out, kept by the house and a player
  banker together;
- commission: the charge lines of settlement; fees: the collection fees and rake taken at
  START GAME (the ``fees`` table);
- the house's result: what the house won or lost on the settlement lines. Two kinds of line
  are apart (an outside review found both in the figures): a dealer tip bet (Oxford Downs) is
  the dealers' money, so not drop, and what a won one puts in the toke box is not the
  house's; the house's own wager against a player banker (Catfish Bend) is the house playing,
  so not drop or paid out, and its result is the house's;
- misdeals, interventions (as the round recorded them), the card swipes with what each was
  for (``employee_log``) and the confirmed jackpot hits of the range's rounds;
- every win page printed in the range, whichever shift paid its award, an award whose page
  has copies said plainly, a print never finished named with what to do
  (``shift_prints.py``);
- a jackpot award backed out in the range is its own line (who, when, why): the meter took
  the award back, so it comes off "paid out" and adds to hold and the house's result in the
  shift it was backed out in, whichever shift paid the award (issue 23: it stayed counted as
  paid).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from fractions import Fraction

from sqlite_utils import Database

from dealer_console.award_words import (
    BackOutFacts,
    back_outs,
    confirmers,
    local_time,
    returned_words,
)
from dealer_console.money import dollars_in_text, format_cents
from dealer_console.reports.shift_prints import AwardPrints, award_prints, print_lines, print_rows
from dealer_console.round.projection import DEALER
from dealer_console.round.recall import rounds_in_range_sql

JACKPOT_AWARD = "jackpot_award"
"""Settlement lines ``jackpot_award_N`` (one per award) are shown as one kind."""


@dataclass(frozen=True, slots=True)
class Swipe:
    at: str
    employee_id: str | None
    accepted: bool
    detail: str


@dataclass(frozen=True, slots=True)
class Intervention:
    round_id: int
    kind: str
    who: str
    detail: str


@dataclass(frozen=True, slots=True)
class JackpotAward:
    round_id: int
    game: int
    seat: int
    line: str
    cents: int
    confirmed_by: str
    hit_id: int
    """The award's number, which its back-out names."""


@dataclass(frozen=True, slots=True)
class ShiftReport:
    start: str
    end: str
    rounds_played: int
    rounds_voided: int
    rounds_open: tuple[int, ...]
    first_round: int | None
    last_round: int | None
    drop: dict[str, int]
    paid: dict[str, int]
    commission_cents: int
    fees: dict[str, int]
    house_result_cents: int
    misdeals: dict[str, int]
    interventions: tuple[Intervention, ...]
    swipes: tuple[Swipe, ...]
    jackpots: tuple[JackpotAward, ...]
    back_outs: tuple[BackOutFacts, ...] = ()
    notes: tuple[str, ...] = field(default=())
    tip_bets_cents: int = 0
    """Dealer tip bets (Oxford Downs): the dealers' money once won, so not in the drop."""
    tokes_cents: int = 0
    """What the won tip bets put in the toke box: the part of each stake the banker matched
    and the win on it."""
    house_wagers_cents: int = 0
    """The house's result on its own wagers against a player banker (Catfish Bend)."""
    win_pages: tuple[AwardPrints, ...] = ()
    """The awards with a win page printed in the range, whichever shift paid them: each
    print, the copies (``shift_prints.py``)."""

    @property
    def backed_out(self) -> int:
        return len(self.back_outs)

    @property
    def backed_out_cents(self) -> int:
        return sum(b.amount_cents for b in self.back_outs)

    @property
    def drop_cents(self) -> int:
        return sum(self.drop.values())

    @property
    def paid_cents(self) -> int:
        """What went back to the players, less the awards backed out in the range."""
        return sum(self.paid.values()) - self.backed_out_cents

    @property
    def hold_cents(self) -> int:
        return self.drop_cents - self.paid_cents

    @property
    def hold_basis_points(self) -> int | None:
        """Hold as hundredths of a percent of the drop (None with no drop), rounded half up."""
        if self.drop_cents == 0:
            return None
        exact = Fraction(self.hold_cents * 10_000, self.drop_cents)
        return int(exact + Fraction(1, 2)) if exact >= 0 else -int(-exact + Fraction(1, 2))

    @property
    def fees_cents(self) -> int:
        return sum(self.fees.values())

    @property
    def misdeal_count(self) -> int:
        return sum(self.misdeals.values())

    @property
    def jackpot_cents(self) -> int:
        return sum(j.cents for j in self.jackpots)


HOUSE_WAGER = "house_wager"
TIPS = "tips"


def tokes_of(outcome: str, staked: int, house_delta: int, player_banked: bool) -> int:
    """What a dealer tip bet put in the toke box (Oxford Downs, "Dealer Tip Bets"): when its
    hand won, its matched stake and the even-money win the banker paid on it; else nothing. A
    settlement line keeps in its house column everything that is neither the bettor's nor
    the banker's: under a player banker that is the toke box alone (the part of the stake the
    bank matched and the win paid on it, maybe less than all of it: the rest of the stake had
    no action and went back to the bettor); under the house, the house's payment nets out of
    it, and the house pays the whole win."""
    if outcome != "win":
        return 0
    return house_delta if player_banked else 2 * staked


def kind_group(kind: str) -> str:
    """A settlement line's kind as the report groups it: a second line of a kind (``base#2``)
    with the first, every backline bettor as backline, every jackpot award as one."""
    kind = kind.split("#", 1)[0]
    if kind.startswith("backline:"):
        return "backline"
    if kind.startswith(JACKPOT_AWARD):
        return JACKPOT_AWARD
    return kind


def check_range(start: str, end: str) -> tuple[str, str]:
    """The range as the event log's ISO-8601 UTC text; raises ``ValueError`` (one line) when
    a bound is not a time with a zone or the range is empty or backwards."""
    bounds = []
    for name, text in (("from", start), ("to", end)):
        try:
            moment = datetime.fromisoformat(text)
        except ValueError:
            raise ValueError(f"{name} {text[:40]!r} is not a date and time like "
                             "2026-11-23T18:00+00:00") from None
        if moment.tzinfo is None:
            raise ValueError(f"{name} {text[:40]!r} has no time zone (add +00:00 for UTC)")
        bounds.append(moment)
    if bounds[1] <= bounds[0]:
        raise ValueError(f"the range ends ({end}) before or when it starts ({start})")
    first, last = (b.astimezone(UTC).isoformat(timespec="microseconds") for b in bounds)
    return first, last


def shift_report(db: Database, start: str, end: str) -> ShiftReport:
    """The report of rounds ended from ``start`` up to (not including) ``end``, and the
    round still open then."""
    start, end = check_range(start, end)
    rounds = db.execute(rounds_in_range_sql("r.round_id, r.status, r.banker_kind"),
                        [start, end, end]).fetchall()
    status = {int(rid): str(st) for rid, st, _kind in rounds}
    player_banked = {int(rid) for rid, _st, kind in rounds if kind == "player"}
    done = [rid for rid, st in status.items() if st == "complete"]
    drop: Counter[str] = Counter()
    paid: Counter[str] = Counter()
    commission = house = tip_bets = tokes = house_wagers = 0
    fees: Counter[str] = Counter()
    misdeals: Counter[str] = Counter()
    interventions: list[Intervention] = []
    jackpots: list[JackpotAward] = []
    for rid in done:
        for kind, outcome, staked, returned, house_delta in db.execute(
                "SELECT kind, outcome, staked_cents, returned_cents, house_delta_cents"
                " FROM settlement_lines WHERE round_id = ? ORDER BY line_no", [rid]):
            group = kind_group(kind)
            if group == HOUSE_WAGER:  # the house is the player here: its money, not a drop
                house_wagers += returned - staked
                house += house_delta + returned - staked
                continue
            if group == TIPS:  # the toke box's money once won, never the house's
                toke = tokes_of(outcome, staked, house_delta, rid in player_banked)
                tip_bets += staked
                tokes += toke
                house += house_delta - toke  # the line keeps the toke box with the house
                continue
            house += house_delta
            if outcome == "charge":
                commission += staked
                continue
            if staked:
                drop[group] += staked
            if returned:
                paid[group] += returned
        for kind, cents in db.execute(
                "SELECT kind, amount_cents FROM fees WHERE round_id = ?", [rid]):
            fees[kind] += cents
    for rid in status:
        for (reason,) in db.execute("SELECT reason FROM misdeals WHERE round_id = ?", [rid]):
            misdeals[reason] += 1
        interventions.extend(Intervention(rid, k, w, d) for k, w, d in db.execute(
            "SELECT kind, who, detail FROM interventions WHERE round_id = ? ORDER BY seq",
            [rid]))
    outs: tuple[BackOutFacts, ...] = ()
    if _has_table(db, "jackpot_hits"):
        for rid in done:
            jackpots.extend(JackpotAward(rid, g, s, ln, c, confirmers(*who), int(hit))
                            for hit, g, s, ln, c, *who in db.execute(
                                "SELECT hit_id, spot, seat, line_label, amount_cents,"
                                " employee_name, employee_id, employee_role,"
                                " second_employee_name, second_employee_id,"
                                " second_employee_role FROM jackpot_hits"
                                " WHERE round_id = ? ORDER BY hit_id", [rid]))
        # a back-out in the range takes off an award this report counts (its round done
        # here) or an earlier report did; one made while its round was still open counts
        # where the round ends, as its award does
        outs = tuple(b for b in back_outs(db, until=end).values()
                     if start <= max(b.recorded_at, _ended(db, b.round_id)) < end)
    swipes = tuple(Swipe(at, who, action == "swipe_accepted", detail)
                   for at, who, action, detail in db.execute(
                       "SELECT recorded_at, employee_id, action, detail FROM employee_log"
                       " WHERE action IN ('swipe_accepted', 'swipe_refused')"
                       " AND recorded_at >= ? AND recorded_at < ? ORDER BY entry",
                       [start, end])) if _has_table(db, "employee_log") else ()
    return ShiftReport(
        start=start, end=end, rounds_played=len(done),
        rounds_voided=sum(1 for st in status.values() if st == "voided"),
        rounds_open=tuple(rid for rid, st in status.items() if st == "open"),
        first_round=min(status) if status else None,
        last_round=max(status) if status else None,
        drop=dict(sorted(drop.items())), paid=dict(sorted(paid.items())),
        commission_cents=commission, fees=dict(sorted(fees.items())),
        house_result_cents=house + sum(b.amount_cents for b in outs),
        misdeals=dict(sorted(misdeals.items())),
        interventions=tuple(interventions), swipes=swipes, jackpots=tuple(jackpots),
        back_outs=outs, tip_bets_cents=tip_bets, tokes_cents=tokes,
        house_wagers_cents=house_wagers, win_pages=award_prints(db, start, end))


def _ended(db: Database, round_id: int) -> str:
    """When round ``round_id`` ended (its END GAME), or a time after any range while open."""
    row = db.execute("SELECT e.recorded_at FROM rounds r JOIN events e ON e.seq = r.last_seq"
                     " WHERE r.round_id = ? AND r.status = 'complete'", [round_id]).fetchone()
    return "9999" if row is None else str(row[0])


def _has_table(db: Database, name: str) -> bool:
    return db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                      [name]).fetchone() is not None


def percent(basis_points: int | None) -> str:
    """Hundredths of a percent as text: ``1234`` is ``12.34%``."""
    if basis_points is None:
        return "-"
    sign = "-" if basis_points < 0 else ""
    whole, part = divmod(abs(basis_points), 100)
    return f"{sign}{whole}.{part:02d}%"


KIND_NAMES = {"base": "Base", "ace_high": "Ace-High", "fortune": "Fortune", "envy": "Envy",
              "jackpot": "Jackpot wager", JACKPOT_AWARD: "Jackpot awards",
              "backline": "Backline", "tips": "Dealer tips", "house_wager": "House wager"}


def kind_title(kind: str) -> str:
    return KIND_NAMES.get(kind, kind.replace("_", " ").capitalize())


def summary_lines(report: ShiftReport) -> list[tuple[str, str]]:
    """The report's figures as (label, value) rows, the same on screen, on paper and in the
    command's output."""
    rounds = "-" if report.first_round is None else f"{report.first_round} to {report.last_round}"
    rows = [
        ("Rounds played", str(report.rounds_played)),
        ("Round numbers", rounds),
        ("Rounds voided", str(report.rounds_voided)),
    ]
    if report.rounds_open:
        # round numbers, not a count: "4" next to "Rounds played 3" read as four rounds
        numbers = ", ".join(str(r) for r in report.rounds_open)
        rows.append(("Still open, not counted",
                     f"round{'s' if len(report.rounds_open) > 1 else ''} {numbers}"))
    rows += [(f"Drop: {kind_title(k)}", format_cents(v)) for k, v in report.drop.items()]
    rows += [
        ("Drop in all", format_cents(report.drop_cents)),
        *((f"Paid: {kind_title(k)}", format_cents(v)) for k, v in report.paid.items()),
        *((("Backed out: Jackpot awards", format_cents(-report.backed_out_cents, sign=True)),)
          if report.back_outs else ()),
        ("Paid out in all", format_cents(report.paid_cents)),
        ("Hold (drop minus paid out)", format_cents(report.hold_cents, sign=True)),
        ("Hold as a share of the drop", percent(report.hold_basis_points)),
        ("Commission", format_cents(report.commission_cents)),
        *((f"Fees: {kind_title(k)}", format_cents(v)) for k, v in report.fees.items()),
        ("Fees in all", format_cents(report.fees_cents)),
        *((("Dealer tip bets (not in the drop)", format_cents(report.tip_bets_cents)),
           ("To the toke box", format_cents(report.tokes_cents)))
          if report.tip_bets_cents else ()),
        *((("House's own wagers against a player banker",
            format_cents(report.house_wagers_cents, sign=True)),)
          if report.house_wagers_cents else ()),
        ("House's result", format_cents(report.house_result_cents, sign=True)),
        ("Misdeals", str(report.misdeal_count) + (
            " (" + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in report.misdeals.items())
            + ")" if report.misdeals else "")),
        ("Supervisor interventions", _interventions_words(report.interventions)),
        ("Card swipes", f"{sum(s.accepted for s in report.swipes)} accepted, "
                        f"{sum(not s.accepted for s in report.swipes)} refused"),
        ("Jackpot hits", f"{len(report.jackpots)}, awards {format_cents(report.jackpot_cents)}"),
    ]
    if report.back_outs:
        rows.append(("Jackpot awards backed out",
                     f"{report.backed_out}, "
                     + returned_words(sum(b.from_meter_cents for b in report.back_outs),
                                      sum(b.from_tray_cents for b in report.back_outs),
                                      short=True)))
    return rows + print_rows(report.win_pages)


def _interventions_words(interventions: tuple[Intervention, ...]) -> str:
    """The supervisors' count, and the dealer's own corrections (the first hand moved) apart:
    an outside review found 8 of 11 "supervisor interventions" the dealer's."""
    dealers = sum(i.who == DEALER for i in interventions)
    return str(len(interventions) - dealers) + (
        f" (and {dealers} correction{'s' * (dealers != 1)} by the dealer)" if dealers else "")


def detail_lines(report: ShiftReport) -> list[str]:
    """Each intervention, swipe and jackpot hit on its own line, in the order recorded."""
    out = [f"Round {i.round_id}: {i.kind.replace('_', ' ')} by {i.who}: "
           f"{dollars_in_text(i.detail)}"
           for i in report.interventions]
    out += [f"{local_time(s.at)} card {s.employee_id or 'unknown'} "
            f"{'accepted' if s.accepted else 'refused'}: {s.detail}" for s in report.swipes]
    # each award by its number, which its back-out names (an outside review could not tell
    # which of two equal awards a back-out took back)
    backed = {b.hit_id for b in report.back_outs}
    out += [f"Round {j.round_id}: jackpot award {j.hit_id}, game {j.game} seat {j.seat} "
            f"{j.line} {format_cents(j.cents)}, confirmed by {j.confirmed_by}"
            + (" (backed out, below)" if j.hit_id in backed else "") for j in report.jackpots]
    out += [f"Jackpot award {b.hit_id} of round {b.round_id} {b.words()}"
            for b in report.back_outs]
    return out + print_lines(report.win_pages)

"""``dealer-console math``: exact figures of the bonus paytables and a base-game simulation.

``fortune``, ``envy``, ``ace-high`` and ``jackpot`` are exact (fractions, printed to four
decimals; ``--json`` gives the fraction too); ``base`` is a seeded simulation. Methods:
``docs/math.md``. A long run draws a progress bar on a terminal (never with ``--json``) and
stops cleanly on Ctrl-C with status 130, printing what it had.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from dealer_console.cli import CommandError
from dealer_console.cli.checks import SQLITE_MAX_INT, label, profile_ref, whole_number

if TYPE_CHECKING:
    from dealer_console.math.returns import PaytableFigures
    from dealer_console.paytables import Paytable

Answer = dict[str, Any]
INTERRUPTED = 130
MAX_ROUNDS = 1_000_000_000  # some three months of computing: anything above is a typo
RED = "\033[31m"
RESET = "\033[0m"


def register(subparsers: Any) -> None:
    """Add ``math`` and its subcommands (cheap: the mathematics is imported when run)."""
    parser = subparsers.add_parser(
        "math",
        help="exact returns of the bonus paytables; base game simulation",
        description="Exact hit counts, returns and house edges, computed (docs/math.md).",
    )
    sub = parser.add_subparsers(dest="figure", metavar="FIGURE", required=True)

    def common(p: argparse.ArgumentParser, func: Callable[[argparse.Namespace], int]) -> None:
        p.add_argument("--json", action="store_true", help="answer as one JSON object")
        p.set_defaults(func=func)

    def paytables(p: argparse.ArgumentParser, kind: str) -> None:
        p.add_argument("--paytable", nargs="+", action="extend", metavar="NAME", type=label(64),
                       help=f"{kind} paytable(s) to figure (default: every shipped one)")

    p = sub.add_parser("fortune", help="Fortune class counts; return of each Fortune paytable")
    paytables(p, "Fortune")
    common(p, run_fortune)

    p = sub.add_parser("envy", help="chance of an envy hand; envy return of each envy table")
    p.add_argument("--players", type=whole_number(1, 8), default=6,
                   help="Fortune hands at the table, the holder's own included (default 6)")
    paytables(p, "Fortune")
    common(p, run_envy)

    p = sub.add_parser("ace-high", help="ace-high pai gow chances; return of Ace-High paytables")
    paytables(p, "Ace-High")
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                   help="red flag for a return above 100%% (default: on a terminal)")
    common(p, run_ace_high)

    p = sub.add_parser("jackpot", help="return of a jackpot paytable at a meter; break-even")
    p.add_argument("--paytable", required=True, metavar="NAME", type=label(64),
                   help="jackpot paytable (WA01, fupgpp-wa01, ...)")
    p.add_argument("--meter", action="append", required=True, metavar="[LEVEL=]AMOUNT",
                   help="meter amount in dollars; LEVEL=AMOUNT for each meter of ML02")
    p.add_argument("--contribution", action="append", default=[], metavar="[LEVEL=]RATE",
                   help="share of each wager added to the meter (0.7 or 70%%)")
    p.add_argument("--reserve", action="append", default=[], metavar="[LEVEL=]RATE",
                   help="share of each wager added to the reserve (default 0)")
    p.add_argument("--seed-amount", action="append", default=[], metavar="[LEVEL=]AMOUNT",
                   help="meter seed after a 100%% award, dollars (default $0)")
    p.add_argument("--wager", default="$1", help="the fixed jackpot wager (default $1)")
    p.add_argument("--fixed-from-meter", action="store_true",
                   help="the table takes fixed pays from the meter too")
    common(p, run_jackpot)

    p = sub.add_parser("base", help="seeded simulation of the base game under a profile")
    p.add_argument("--profile", required=True, type=profile_ref, help="table profile name")
    p.add_argument("--rounds", type=whole_number(1, MAX_ROUNDS), default=100_000,
                   help="rounds to play")
    p.add_argument("--seed", type=whole_number(0, SQLITE_MAX_INT), default=1,
                   help="random seed (same seed, same figures)")
    common(p, run_base)


# -- output helpers ---------------------------------------------------------------------------


def _pct(value: Fraction, places: int = 4) -> str:
    from dealer_console.math.returns import percent

    return percent(value, places)


def _exact(value: Fraction, places: int = 4) -> Answer:
    return {"fraction": f"{value.numerator}/{value.denominator}", "percent": _pct(value, places)}


def _emit(args: argparse.Namespace, answer: Answer, text: list[str]) -> None:
    if args.json:
        print(json.dumps(answer, indent=2))
    else:
        print("\n".join(text))


def _tables(names: list[str] | None, kind: str) -> list[Paytable]:
    from dealer_console.paytables import get_paytable, paytable_names

    chosen = names or [n for n in paytable_names() if get_paytable(n).kind.value == kind]
    out = []
    for name in chosen:
        try:
            table = get_paytable(name)
        except KeyError as exc:
            raise CommandError(f"--paytable: {exc.args[0]}") from None
        if table.kind.value != kind:
            raise CommandError(
                f"--paytable {name}: it is a {table.kind.value} table, not a {kind} table"
            )
        out.append(table)
    return out


def _figures_json(f: PaytableFigures) -> Answer:
    from dealer_console.math.verdict import refusal

    return {
        "name": f.name,
        "title": f.title,
        "return": _exact(f.ret),
        "house_edge": _exact(f.house_edge),
        "hit_frequency": _exact(f.hit_frequency),
        "return_above_100": refusal(f.name, f.ret) is not None,
        "refused": refusal(f.name, f.ret),
        "lines": [
            {"id": li.id, "pays": li.pays, "probability": _exact(li.probability, 6),
             "return": _exact(li.contribution, 6)}
            for li in f.lines
        ],
    }


def _figures_text(f: PaytableFigures, red: bool = False) -> list[str]:
    from dealer_console.math.verdict import refusal

    out = [f"{f.name}: {f.title}"]
    for li in f.lines:
        out.append(f"  {li.label:<48} {li.pays:>12}  p {_pct(li.probability, 6):>11}"
                   f"  return {_pct(li.contribution):>9}")
    out.append(f"  return {_pct(f.ret)}   house edge {_pct(f.house_edge)}   "
               f"hit frequency {_pct(f.hit_frequency)}")
    refused = refusal(f.name, f.ret)  # the one verdict (math/verdict.py)
    if refused is not None:
        flag = f"  RETURN ABOVE 100%: {refused}"
        out.append(f"{RED}{flag}{RESET}" if red else flag)
    return out


# -- fortune ----------------------------------------------------------------------------------


def run_fortune(args: argparse.Namespace) -> int:
    from dealer_console.math.fortune_counts import count_fortune
    from dealer_console.math.returns import fortune_figures

    tables = _tables(args.paytable, "fortune")
    tally = count_fortune()
    counts = {(c.value if c else "nothing"): n for c, n in tally.counts.items()}
    figures = [fortune_figures(t, tally) for t in tables]
    text = [f"Fortune classes over all C(53,7) = {tally.total:,} hands"]
    for cls, n in tally.counts.items():
        text.append(f"  {(cls.value if cls else 'nothing'):<36} {n:>13,}  "
                    f"{_pct(Fraction(n, tally.total), 6):>11}")
    for f in figures:
        text += ["", *_figures_text(f)]
    _emit(args, {"hands": tally.total, "counts": counts,
                 "paytables": [_figures_json(f) for f in figures]}, text)
    return 0


# -- envy -------------------------------------------------------------------------------------


def run_envy(args: argparse.Namespace) -> int:
    from dealer_console.math.envy import envy_figures, envy_probability
    from dealer_console.math.returns import decimal_text

    if args.players < 1:
        raise CommandError(f"--players: a table has at least 1 Fortune hand, not {args.players}")
    others = args.players - 1
    tables = [t for t in _tables(args.paytable, "fortune") if t.envy_lines]
    if args.paytable and not tables:
        raise CommandError("--paytable: none of these tables pays envy")
    p = envy_probability()
    text = [f"Chance that another hand holds four of a kind or better: {_pct(p, 5)}",
            f"(unconditional: one hand's own chance; {others} other Fortune hand(s) "
            f"with --players {args.players})"]
    answer: Answer = {"players": args.players, "other_hands": others,
                      "envy_hand_probability": _exact(p, 5), "paytables": []}
    for t in tables:
        f = envy_figures(t)
        per_other = f.per_other_hand_cents / 100
        per_holder = f.per_holder_cents(others) / 100
        text += ["", f"{t.name}: {t.title}"]
        for li in f.lines:
            text.append(f"  {li.label:<48} {li.pays:>10}  p {_pct(li.probability, 6):>11}")
        text.append(f"  envy return per other player ${decimal_text(per_other, 6)}; "
                    f"per envy holder with {others} other(s) ${decimal_text(per_holder, 6)}")
        answer["paytables"].append({
            "name": t.name,
            "per_other_player_dollars": {"fraction": _frac(per_other),
                                         "dollars": decimal_text(per_other, 6)},
            "per_holder_dollars": {"fraction": _frac(per_holder),
                                   "dollars": decimal_text(per_holder, 6)},
        })
    _emit(args, answer, text)
    return 0


def _frac(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


# -- ace-high ---------------------------------------------------------------------------------


def run_ace_high(args: argparse.Namespace) -> int:
    from dealer_console.math.ace_high_counts import count_ace_high
    from dealer_console.math.returns import AceHighOdds, ace_high_figures

    tables = _tables(args.paytable, "ace_high")
    tally = count_ace_high()
    odds = AceHighOdds.from_tally(tally)
    p_nat = Fraction(tally.natural, tally.hands)
    p_jok = Fraction(tally.joker, tally.hands)
    p_both = Fraction(tally.both, tally.pairs)
    figures = [ace_high_figures(t, odds) for t in tables]
    red = args.color == "always" or (
        args.color == "auto" and sys.stdout.isatty() and "NO_COLOR" not in os.environ
    )
    text = [
        f"Banker ace-high pai gow, natural ace: {tally.natural:,} of {tally.hands:,} hands "
        f"({_pct(p_nat)})",
        f"Banker ace-high pai gow with the joker: {tally.joker:,} hands ({_pct(p_jok)})",
        f"Banker and player both ace-high: {tally.both:,} of {tally.pairs:,} ordered pairs "
        f"of disjoint hands ({_pct(p_both)})",
    ]
    for f in figures:
        text += ["", *_figures_text(f, red)]
    answer = {
        "hands": tally.hands,
        "pairs": tally.pairs,
        "counts": {"banker_natural": tally.natural, "banker_joker": tally.joker,
                   "both": tally.both, "both_banker_natural": tally.both_natural,
                   "both_banker_joker": tally.both_joker},
        "probabilities": {"banker_natural": _exact(p_nat, 6), "banker_joker": _exact(p_jok, 6),
                          "both": _exact(p_both, 6)},
        "paytables": [_figures_json(f) for f in figures],
    }
    _emit(args, answer, text)
    return 0


# -- jackpot ----------------------------------------------------------------------------------


def _jackpot_name(name: str) -> str:
    """``WA01`` or ``fupgpp-wa01`` -> the shipped Face Up table name."""
    from dealer_console.paytables import paytable_names

    names = paytable_names()
    low = name.lower()
    for candidate in (low, f"fupgpp-{low}"):
        if candidate in names:
            return candidate
    raise CommandError(f"--paytable: unknown jackpot paytable {name!r}")


def _per_level(values: list[str], levels: tuple[str, ...], option: str,
               parse: Callable[[str, str], Any], default: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for value in values:
        level, sep, amount = value.rpartition("=")
        if not sep:
            if len(levels) != 1:
                raise CommandError(
                    f"{option} {value}: this table has meters {', '.join(levels)}; "
                    f"write LEVEL=VALUE for each"
                )
            level = levels[0]
        if level not in levels:
            raise CommandError(f"{option} {value}: no meter {level!r}; "
                               f"this table has {', '.join(levels)}")
        out[level] = parse(amount, f"{option} {value}")
    for level in levels:
        if level not in out:
            if default is None:
                raise CommandError(f"{option}: no value for meter {level!r}")
            out[level] = default
    return out


def _cents(text: str, where: str) -> int:
    from dealer_console.money import MoneyError, parse_cents

    try:
        return parse_cents(text)
    except MoneyError as exc:
        raise CommandError(f"{where}: {exc}") from None


def _rate(text: str, where: str) -> Fraction:
    from dealer_console.jackpot_values.config import PPM, parse_rate

    return Fraction(parse_rate(text, where), PPM)


def _dollars(cents: Fraction | int) -> str:
    """Nearest cent, printed as the table prints money."""
    from dealer_console.money import format_cents

    value = Fraction(cents)
    rounded = int(abs(value) + Fraction(1, 2))
    return ("-" if value < 0 and rounded else "") + format_cents(rounded)


def run_jackpot(args: argparse.Namespace) -> int:
    from dealer_console.jackpot_values import paytable as jp
    from dealer_console.math.jackpot import jackpot_figures

    name = _jackpot_name(args.paytable)
    try:
        table = jp.load(name)
    except (jp.PaytableError, KeyError) as exc:
        raise CommandError(f"--paytable {args.paytable}: {exc}") from None
    levels = table.levels
    wager = _cents(args.wager, "--wager")
    if wager <= 0:
        raise CommandError("--wager: the fixed wager must be more than $0")
    meters = _per_level(args.meter, levels, "--meter", _cents, None)
    contribution = _per_level(args.contribution, levels, "--contribution", _rate, Fraction(0))
    reserve = _per_level(args.reserve, levels, "--reserve", _rate, Fraction(0))
    seeds = _per_level(args.seed_amount, levels, "--seed-amount", _cents, 0)
    for level in levels:
        if contribution[level] + reserve[level] > 1:
            raise CommandError(f"--contribution/--reserve: meter {level} gets more than the wager")
    f = jackpot_figures(table)
    now = f.return_at(meters, wager)
    long_run = f.long_run_return(contribution, reserve, seeds, wager, args.fixed_from_meter)
    text = [f"{name}: return of a {_dollars(wager)} wager (pays N for 1, wager not returned)"]
    lines_json = []
    for line, p in f.probabilities:
        text.append(f"  {line.label:<48} {line.pay!s:>14}  p {_pct(p, 6):>11}")
        lines_json.append({"label": line.label, "hands": [h.value for h in line.hands],
                           "pays": str(line.pay), "probability": _exact(p, 6)})
    text.append(f"  fixed pays return {_pct(f.fixed_return)}")
    breaks: dict[str, Fraction | None] = {}
    for level in levels:
        be = f.break_even_cents(level, meters, wager)
        breaks[level] = be
        text.append(f"  meter {level} at {_dollars(meters[level])}: "
                    f"break-even meter {_dollars(be) if be is not None else 'none'}"
                    + (" (already there)" if be is not None and be <= meters[level] else ""))
    text.append(f"  return at these meters {_pct(now)}   house edge {_pct(1 - now)}")
    text.append(f"  long-run return {_pct(long_run)} (contribution "
                + ", ".join(f"{_pct(contribution[lv], 2)}" for lv in levels)
                + ", reserve " + ", ".join(f"{_pct(reserve[lv], 2)}" for lv in levels)
                + ", seed " + ", ".join(_dollars(seeds[lv]) for lv in levels)
                + (", fixed pays from the meter" if args.fixed_from_meter else "") + ")")
    if long_run > 1:
        text.append("  long-run return above 100%: the meters receive more than the table keeps"
                    + ("" if args.fixed_from_meter else
                       "; with fixed pays from the tray, lower the contribution or see "
                       "--fixed-from-meter"))
    answer = {
        "paytable": name,
        "wager_cents": wager,
        "lines": lines_json,
        "fixed_return": _exact(f.fixed_return),
        "meters_cents": meters,
        "return_at_meter": _exact(now),
        "house_edge_at_meter": _exact(1 - now),
        "break_even_meter": {
            lv: (None if be is None else {"fraction_cents": _frac(be), "dollars": _dollars(be)})
            for lv, be in breaks.items()
        },
        "long_run_return": _exact(long_run),
        "contribution": {lv: _frac(v) for lv, v in contribution.items()},
        "reserve": {lv: _frac(v) for lv, v in reserve.items()},
        "seed_cents": seeds,
        "fixed_from_meter": args.fixed_from_meter,
    }
    _emit(args, answer, text)
    return 0


# -- base -------------------------------------------------------------------------------------


def run_base(args: argparse.Namespace) -> int:
    from dealer_console.math.base_sim import BaseTally, simulate
    from dealer_console.math.progress import Progress
    from dealer_console.profiles.loader import get_profile

    if args.rounds < 1:
        raise CommandError(f"--rounds: at least 1, not {args.rounds}")
    try:
        profile = get_profile(args.profile)
    except KeyError as exc:
        raise CommandError(f"--profile: {exc.args[0]}") from None
    bar = Progress(args.rounds, f"{profile.name}", enabled=False if args.json else None)
    tally = BaseTally()
    status = 0
    try:
        simulate(profile, args.rounds, args.seed, bar.update, tally)
    except KeyboardInterrupt:
        status = INTERRUPTED
    finally:
        bar.close()
    if status:
        print(f"interrupted after {tally.rounds:,} rounds; figures so far:", file=sys.stderr)
    _emit(args, _base_answer(profile.name, args, tally, status), _base_text(profile.name, tally))
    return status


def _base_answer(name: str, args: argparse.Namespace, t: Any, status: int) -> Answer:
    rates: Mapping[str, int] = {"win": t.wins, "push": t.pushes, "loss": t.losses,
                                "copy": t.copies, "banker_ace_high_push": t.ace_high_pushes}
    return {
        "profile": name, "seed": args.seed, "rounds_asked": args.rounds, "rounds": t.rounds,
        "interrupted": bool(status),
        "counts": dict(rates),
        "rates": {k: _pct(t.rate(v)) for k, v in rates.items()},
        "house_edge": _pct(t.house_edge),
        "confidence_95": [_pct(t.house_edge - t.half_width), _pct(t.house_edge + t.half_width)],
    }


def _base_text(name: str, t: Any) -> list[str]:
    return [
        f"{name}: {t.rounds:,} rounds, one player against the banker, both set the House Way",
        f"  win {_pct(t.rate(t.wins))}  push {_pct(t.rate(t.pushes))}  "
        f"loss {_pct(t.rate(t.losses))}  copy {_pct(t.rate(t.copies))}  "
        f"(banker ace-high push {_pct(t.rate(t.ace_high_pushes))})",
        f"  house edge {_pct(t.house_edge)} +/- {_pct(t.half_width)} (95% confidence)",
    ]

"""How a table's jackpot games are set up: one game per bet sensor, at most two.

Washington document, "House Jackpot and Progressive Jackpots": up to two jackpot games per
layout, one per sensor, each a separate game; every jackpot on a table is of one type (house or
progressive). "Face Up Pai Gow Poker Jackpot Paytables" (closing note): pays are set for a fixed
$1 wager, and another fixed wager multiplies them. "Progressive systems flexibility": each wager
adds a contribution rate to the meter and a reserve rate to the reserve, and a 100% award
restarts the meter at seed plus reserve.

Rates are exact decimals, kept as integer parts per million, so that a contribution in
millionths of a cent (see ``meters.py``) is an exact integer.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from enum import Enum

from dealer_console.errors import ConsoleError
from dealer_console.input_checks import shown
from dealer_console.jackpot_values.paytable import FixedPay, JackpotPaytable

PPM = 1_000_000
"""Rates are held in parts per million: 15% is 150000."""

MAX_GAMES = 2

_RATE_RE = re.compile(r"[0-9]{1,3}(?:\.[0-9]{1,12})?|\.[0-9]{1,12}")


class JackpotConfigError(ConsoleError, ValueError):
    """A jackpot set-up the console refuses, with the place it is wrong."""


class JackpotMode(Enum):
    """House jackpot (WAC 230-15-671) or progressive jackpot (WAC 230-15-680 on)."""

    HOUSE = "house"
    PROGRESSIVE = "progressive"


def parse_rate(text: object, where: str) -> int:
    """``"15%"``, ``"0.15"`` or ``"12.5%"`` -> parts per million; exact, never a float.

    A rate finer than a millionth is refused rather than rounded: the meter must equal its
    history exactly.
    """
    if isinstance(text, float):
        raise JackpotConfigError(f"{where}: write a rate as text like \"15%\", not a float")
    raw = str(text).strip()
    percent = raw.endswith("%")
    number = raw.removesuffix("%").strip()
    # ASCII digits and one point only: Decimal also reads "NaN", exponents and fullwidth digits
    if not _RATE_RE.fullmatch(number):
        raise JackpotConfigError(
            f"{where}: {shown(raw)} is not a rate; write \"15%\" or \"0.15\""
        ) from None
    try:
        value = Decimal(number)
    except InvalidOperation:  # pragma: no cover - the pattern admits only plain decimals
        raise JackpotConfigError(f"{where}: {shown(raw)} is not a rate") from None
    if percent:
        value /= 100
    if not 0 <= value <= 1:
        raise JackpotConfigError(f"{where}: a rate is between 0% and 100%, not {raw}")
    ppm = value * PPM
    if ppm != ppm.to_integral_value():
        raise JackpotConfigError(f"{where}: {raw} is finer than one millionth; round it")
    return int(ppm)


def format_rate(ppm: int) -> str:
    return f"{Decimal(ppm) / (PPM // 100):f}".rstrip("0").rstrip(".") + "%"


@dataclass(frozen=True, slots=True)
class LevelConfig:
    """One meter: where it starts and what each wager adds to it and to its reserve."""

    name: str
    seed_cents: int
    contribution_ppm: int
    reserve_ppm: int

    def __post_init__(self) -> None:
        if isinstance(self.seed_cents, bool) or not isinstance(self.seed_cents, int):
            raise JackpotConfigError(f"meter {self.name}: the seed is integer cents")
        if self.seed_cents < 0:
            raise JackpotConfigError(f"meter {self.name}: a seed cannot be negative")
        for what, ppm in (("contribution", self.contribution_ppm), ("reserve", self.reserve_ppm)):
            if not 0 <= ppm <= PPM:
                raise JackpotConfigError(f"meter {self.name}: the {what} rate is 0-100%")
        if self.contribution_ppm + self.reserve_ppm > PPM:
            raise JackpotConfigError(
                f"meter {self.name}: contribution and reserve rates add up to more than the wager"
            )


@dataclass(frozen=True, slots=True)
class GameConfig:
    """One jackpot game: its sensor spot (1 or 2 at each seat), paytable, mode, wager, meters."""

    spot: int
    paytable: JackpotPaytable
    mode: JackpotMode
    levels: tuple[LevelConfig, ...]
    wager_cents: int = 100
    fixed_from_meter: bool = False
    executive_threshold_cents: int = 1_000_000
    """An award above this needs an executive's card; at or below it a supervisor's will do."""
    linked: str | None = None
    """The link whose shared meters this game plays (``docs/link.md``); None: the table's own."""
    two_person_above_cents: int | None = None
    """Where set, an award above this needs two people, a supervisor and an executive (each
    their own card); None: one card is enough at any amount."""
    pin_required: bool = False
    """Each confirmation's card is followed by the confirmer's PIN (``docs/jackpot.md``)."""

    def __post_init__(self) -> None:
        where = f"jackpot game {self.spot}"
        if not 1 <= self.spot <= MAX_GAMES:
            raise JackpotConfigError(f"{where}: the sensor spot is 1 or 2")
        if isinstance(self.wager_cents, bool) or not isinstance(self.wager_cents, int):
            raise JackpotConfigError(f"{where}: the fixed wager is integer cents")
        if self.wager_cents <= 0:
            raise JackpotConfigError(f"{where}: the fixed wager must be more than $0")
        if self.executive_threshold_cents < 0:
            raise JackpotConfigError(f"{where}: the executive threshold cannot be negative")
        if self.two_person_above_cents is not None and self.two_person_above_cents < 0:
            raise JackpotConfigError(f"{where}: the two-person level cannot be negative")
        names = [lv.name for lv in self.levels]
        if sorted(names) != sorted(self.paytable.levels):
            raise JackpotConfigError(
                f"{where}: paytable {self.paytable.name} has meters "
                f"{', '.join(self.paytable.levels)}; configure exactly those, not "
                f"{', '.join(names) or 'none'}"
            )

    def level(self, name: str) -> LevelConfig:
        for lv in self.levels:
            if lv.name == name:
                return lv
        raise JackpotConfigError(f"jackpot game {self.spot} has no meter {name!r}")

    def needs_two(self, amount_cents: int) -> bool:
        """Whether an award of ``amount_cents`` needs a supervisor and an executive both."""
        level = self.two_person_above_cents
        return level is not None and amount_cents > level

    def fixed_amount(self, pay: FixedPay) -> int:
        """An N-for-1 pay scaled to the fixed wager (closing note of the paytables)."""
        return pay.for_one * self.wager_cents


@dataclass(frozen=True, slots=True)
class TableJackpots:
    """All jackpot games of one table."""

    games: tuple[GameConfig, ...] = field(default=())

    def __post_init__(self) -> None:
        if len(self.games) > MAX_GAMES:
            raise JackpotConfigError(
                f"a layout has at most {MAX_GAMES} jackpot games, not {len(self.games)}"
            )
        spots = [g.spot for g in self.games]
        if len(set(spots)) != len(spots):
            raise JackpotConfigError("one jackpot game per sensor: a sensor spot is named twice")
        if len({g.mode for g in self.games}) > 1:
            raise JackpotConfigError(
                "all jackpots on a table are of one type: house and progressive cannot mix"
            )

    def game(self, spot: int) -> GameConfig:
        for g in self.games:
            if g.spot == spot:
                return g
        raise JackpotConfigError(f"this table has no jackpot game on sensor spot {spot}")


def level_configs(
    paytable: JackpotPaytable, spec: Mapping[str, Mapping[str, object]] | Sequence[LevelConfig]
) -> tuple[LevelConfig, ...]:
    """Levels from a mapping ``{level: {"seed": "$1,000", "contribution": "15%", ...}}``."""
    from dealer_console.money import MoneyError, parse_cents

    if not isinstance(spec, Mapping):
        return tuple(spec)
    out = []
    for name in paytable.levels:
        if name not in spec:
            raise JackpotConfigError(f"paytable {paytable.name}: meter {name!r} is not set up")
        item = spec[name]
        where = f"meter {name}"
        try:
            seed = parse_cents(str(item.get("seed", "$0")))
        except MoneyError as exc:
            raise JackpotConfigError(f"{where}, seed: {exc}") from None
        out.append(
            LevelConfig(
                name=name,
                seed_cents=seed,
                contribution_ppm=parse_rate(item.get("contribution", "0"),
                                            f"{where}, contribution"),
                reserve_ppm=parse_rate(item.get("reserve", "0"), f"{where}, reserve"),
            )
        )
    return tuple(out)

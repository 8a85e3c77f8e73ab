"""Paytables by name, read from ``config/paytables/<name>.toml``.

Three kinds (rules README, "Fortune bonus and Envy", "Face Up", "Jackpot"):

- ``fortune``: lines keyed by :class:`~dealer_console.seven.FortuneClass` id, each paying
  ``odds`` to 1 or ``push``, with the envy amount in cents where the table prints one;
- ``ace_high``: lines ``both``, ``banker_joker``, ``banker_natural`` paying ``odds`` to 1;
- ``jackpot``: lines keyed by Fortune class id paying ``for_one`` (N for 1, the wager is not
  returned) or ``meter_percent`` of the named meter (``main``; ML02 has ``mega``, ``major``,
  ``minor``). Pays are printed for a $1 wager and scale with the table's fixed wager.

A class a table does not list loses. Adding a casino's paytable is a new TOML file; see
``docs/profiles.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cache
from pathlib import Path

from dealer_console.config_file import ConfigError, Section, read_toml
from dealer_console.input_checks import is_plain_name, shown
from dealer_console.seven import FortuneClass

CONFIG_DIR = Path(__file__).resolve().parent.parent / "config"
PAYTABLE_DIR = CONFIG_DIR / "paytables"


class PaytableKind(Enum):
    FORTUNE = "fortune"
    ACE_HIGH = "ace_high"
    JACKPOT = "jackpot"


class AceHighLine(Enum):
    """Ace-High bonus lines (rules README, "Face Up: the dealer's ace-high pai gow")."""

    BOTH = "both"  # player and banker both ace-high pai gow, whatever the joker
    BANKER_JOKER = "banker_joker"  # banker ace-high with the joker as its ace
    BANKER_NATURAL = "banker_natural"  # banker ace-high with a natural ace


FORTUNE_LINE_IDS = tuple(c.value for c in FortuneClass)
ACE_HIGH_LINE_IDS = tuple(c.value for c in AceHighLine)
METERS = ("main", "mega", "major", "minor")


@dataclass(frozen=True, slots=True)
class PayLine:
    """One line of a paytable. Exactly one way of paying is set, according to the kind."""

    id: str
    label: str
    odds: int | None = None  # "N to 1": the wager is kept and N times it paid
    push: bool = False  # the wager is returned (Three Pair on Washington option 1)
    envy_cents: int | None = None  # fixed envy amount paid to each other envy holder
    for_one: int | None = None  # jackpot "N for 1": N times the wager, the wager not returned
    meter_percent: int | None = None  # jackpot: this share of the meter as it stands
    meter: str | None = None  # which meter the percentage comes off

    def describe(self) -> str:
        if self.push:
            return "push"
        if self.odds is not None:
            return f"{self.odds} to 1"
        if self.for_one is not None:
            return f"{self.for_one} for 1"
        return f"{self.meter_percent}% of the {self.meter} meter"


@dataclass(frozen=True, slots=True)
class Paytable:
    name: str
    kind: PaytableKind
    title: str
    source: str  # rule document and section it is printed in
    lines: tuple[PayLine, ...]
    links: tuple[str, ...] = ()  # jackpot tables this one may be linked with

    def line(self, line_id: str) -> PayLine | None:
        """The line for a class id, or None when the table does not pay it (a loss)."""
        for line in self.lines:
            if line.id == line_id:
                return line
        return None

    @property
    def envy_lines(self) -> tuple[PayLine, ...]:
        return tuple(line for line in self.lines if line.envy_cents is not None)

    @property
    def meters(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(line.meter for line in self.lines if line.meter))


def _read_line(section: Section, kind: PaytableKind) -> PayLine:
    ids = {
        PaytableKind.FORTUNE: FORTUNE_LINE_IDS,
        PaytableKind.ACE_HIGH: ACE_HIGH_LINE_IDS,
        PaytableKind.JACKPOT: FORTUNE_LINE_IDS,
    }[kind]
    line_id = section.str_("id", ids)
    label = section.str_("label")
    if kind is PaytableKind.JACKPOT:
        meter_percent = section.opt_int("meter_percent", 1, 100)
        for_one = section.opt_int("for_one", 1)
        if (meter_percent is None) == (for_one is None):
            raise section.error("for_one", "a jackpot line pays either for_one or meter_percent")
        meter = section.opt_str("meter", METERS)
        if meter_percent is not None and meter is None:
            meter = "main"
        section.done()
        if for_one is not None:
            return PayLine(line_id, label, for_one=for_one)
        return PayLine(line_id, label, meter_percent=meter_percent, meter=meter)
    push = False
    odds: int | None = None
    if section.has("pays") and section.data["pays"] == "push":
        if kind is not PaytableKind.FORTUNE:
            raise section.error("pays", "only a Fortune line may push")
        push = True
    else:
        odds = section.int_("pays", 1)
    envy = None
    if kind is PaytableKind.FORTUNE:
        envy = section.opt_money("envy", minimum=1)
        if envy is not None and not FortuneClass(line_id).is_envy_hand:
            raise section.error("envy", "envy is paid only for four of a kind or better")
    section.done()
    return PayLine(line_id, label, odds=odds, push=push, envy_cents=envy)


def load_paytable(path: Path) -> Paytable:
    """Read and check one paytable file; its ``name`` must match the file name."""
    top = Section(str(path), "", read_toml(path))
    name = top.str_("name")
    if name != path.stem:
        raise top.error("name", f"{name!r} must match the file name {path.stem!r}")
    kind = PaytableKind(top.str_("kind", [k.value for k in PaytableKind]))
    title = top.str_("title")
    source = top.str_("source")
    links = tuple(top.str_list("links", [p.stem for p in _files()])) if top.has("links") else ()
    lines = tuple(_read_line(s, kind) for s in top.sections("line"))
    top.done()
    if not lines:
        raise top.error("line", "a paytable needs at least one [[line]]")
    seen: set[str] = set()
    for i, line in enumerate(lines):
        if line.id in seen:
            raise ConfigError(str(path), f"line[{i}].id", f"{line.id!r} is listed twice")
        seen.add(line.id)
    return Paytable(name, kind, title, source, lines, links)


def _files() -> list[Path]:
    return sorted(PAYTABLE_DIR.glob("*.toml"))


def paytable_names() -> tuple[str, ...]:
    return tuple(p.stem for p in _files())


@cache
def get_paytable(name: str) -> Paytable:
    """The shipped paytable called ``name``; an unknown name is a ``KeyError`` listing them."""
    path = PAYTABLE_DIR / f"{name}.toml"
    if not is_plain_name(name) or not path.is_file():
        raise KeyError(f"unknown paytable {shown(name)}; known: {', '.join(paytable_names())}")
    return load_paytable(path)

"""The profile's jackpot set-up: ``[jackpot]`` for one game, ``[[jackpot]]`` for up to two.

Washington document, "House Jackpot and Progressive Jackpots": a layout may carry at most two
jackpot games, each on its own bet sensor and each a game of its own, and one table never mixes
house and progressive jackpots. "Progressive systems flexibility": the casino sets each meter's
contribution and reserve rates and its seed. Reading them here, into the jackpot system's own
:class:`TableJackpots`, means a profile that loads is a set-up the jackpot system accepts; every
refusal names the file and the key.
"""

from __future__ import annotations

from typing import Any

from dealer_console.config_file import Section
from dealer_console.jackpot_values.config import (
    GameConfig,
    JackpotConfigError,
    JackpotMode,
    LevelConfig,
    TableJackpots,
    parse_rate,
)
from dealer_console.jackpot_values.link_names import LinkError, check_link_name
from dealer_console.jackpot_values.paytable import JackpotPaytable, from_paytable
from dealer_console.paytables import Paytable

DEFAULT_WAGER = 100
DEFAULT_EXECUTIVE_ABOVE = 1_000_000


def read_jackpots(top: Section, paytable_of: Any) -> TableJackpots | None:
    """The games of the ``jackpot`` key of ``top``, or None when the table has no jackpot.

    ``paytable_of(section, key)`` reads and checks a jackpot paytable name (the loader's)."""
    if not top.has("jackpot"):
        return None
    value = top.data["jackpot"]
    if isinstance(value, dict):
        section = top.section("jackpot")
        assert section is not None
        games = [_game(section, paytable_of, default_spot=1)]
    else:
        sections = top.sections("jackpot")
        if not sections:
            raise top.error("jackpot", "an empty list; give one [[jackpot]] per game, or none")
        games = [_game(s, paytable_of, default_spot=None) for s in sections]
    try:
        return TableJackpots(tuple(games))
    except JackpotConfigError as exc:
        raise top.error("jackpot", str(exc)) from None


def _game(section: Section, paytable_of: Any, default_spot: int | None) -> GameConfig:
    spot = (section.int_("spot", 1, 2) if default_spot is None
            else section.int_("spot", 1, 2, default=default_spot))
    printed: Paytable = paytable_of(section, "paytable")
    paytable = from_paytable(printed)
    wager = section.money("wager", default=DEFAULT_WAGER, minimum=1)
    mode = JackpotMode(section.str_("mode", [m.value for m in JackpotMode],
                                    default=JackpotMode.HOUSE.value))
    fixed_from_meter = section.bool_("fixed_from_meter", default=False)
    executive_above = section.money("executive_above", default=DEFAULT_EXECUTIVE_ABOVE)
    two_person_above = section.opt_money("two_person_above", 0)
    pin_required = section.bool_("pin_required", default=False)
    levels = _levels(section, paytable)
    linked = _linked(section, mode)
    section.done()
    try:
        return GameConfig(spot=spot, paytable=paytable, mode=mode, levels=levels,
                          wager_cents=wager, fixed_from_meter=fixed_from_meter,
                          executive_threshold_cents=executive_above, linked=linked,
                          two_person_above_cents=two_person_above,
                          pin_required=pin_required)
    except JackpotConfigError as exc:
        raise section.error("paytable", str(exc)) from None


def _linked(section: Section, mode: JackpotMode) -> str | None:
    """The link this game's meters are shared on (``docs/link.md``), or None. Washington
    document, "Linked Paytables": only progressive jackpots are linked, never house ones."""
    name = section.opt_str("linked")
    if name is None:
        return None
    try:
        check_link_name(name)
    except LinkError as exc:
        raise section.error("linked", str(exc)) from None
    if mode is not JackpotMode.PROGRESSIVE:
        raise section.error("linked", "a house jackpot is never linked; set mode = "
                                      "\"progressive\" to share meters across tables")
    return name


def _levels(section: Section, paytable: JackpotPaytable) -> tuple[LevelConfig, ...]:
    wanted = ", ".join(paytable.levels)
    meters = section.section("meters", optional=True)
    if meters is None:
        raise section.error("meters", f"missing; paytable {paytable.name} has the meters "
                                      f"{wanted}: give each a seed, contribution and reserve")
    out = []
    for name in paytable.levels:
        meter = meters.section(name, optional=True)
        if meter is None:
            raise meters.error(name, f"missing; paytable {paytable.name} has the meters {wanted}")
        seed = meter.money("seed")
        rates = []
        for key in ("contribution", "reserve"):
            text = meter.str_(key, default="0%")
            try:
                rates.append(parse_rate(text, meter.key(key)))
            except JackpotConfigError as exc:
                raise meter.error(key, str(exc).split(": ", 1)[-1]) from None
        meter.done()
        try:
            out.append(LevelConfig(name, seed, rates[0], rates[1]))
        except JackpotConfigError as exc:
            raise meters.error(name, str(exc)) from None
    meters.done()
    return tuple(out)


def largest_fixed_award(game: GameConfig) -> int:
    """Cents of the biggest fixed pay at this game's wager (0 when it has none)."""
    from dealer_console.jackpot_values.paytable import FixedPay

    return max((game.fixed_amount(line.pay) for line in game.paytable.lines
                if isinstance(line.pay, FixedPay)), default=0)

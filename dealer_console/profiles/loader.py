"""Finding, reading and checking table profiles.

Shipped profiles live in ``config/profiles/<name>.toml`` beside the package (the repository
root is the parent of ``dealer_console/``), so they are found from a checkout and from an
editable install alike; ``load_profile`` takes any path so an operator can check a new file.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from dealer_console import house_ways
from dealer_console.config_file import ConfigError, Section, read_toml
from dealer_console.hands import JokerInFlush, Wheel
from dealer_console.input_checks import is_plain_name, shown
from dealer_console.money import format_cents
from dealer_console.paytables import CONFIG_DIR, Paytable, PaytableKind, get_paytable
from dealer_console.profiles.jackpot_section import read_jackpots
from dealer_console.profiles.model import (
    ActionSeatMethod,
    AggregateLimit,
    AggregateScope,
    Area,
    BankerRotation,
    Banking,
    Commission,
    DealMethod,
    Direction,
    Envy,
    FeePayer,
    FeeRate,
    Fees,
    Foul,
    Game,
    JackpotGame,
    Limit,
    Profile,
    SettleFrom,
)

PROFILE_DIR = CONFIG_DIR / "profiles"
MAX_FEE_RATES = 5  # California, "Collection Procedures": at most five collection rates


def _values(enum: type[Game] | type[Banking] | type[Direction] | type[SettleFrom] | type[Foul]
            | type[BankerRotation] | type[Wheel] | type[JokerInFlush] | type[FeePayer]
            | type[AggregateScope] | type[ActionSeatMethod] | type[DealMethod]) -> list[str]:
    return [str(member.value) for member in enum]


def _paytable(section: Section, key: str, kind: PaytableKind) -> Paytable:
    name = section.str_(key)
    try:
        table = get_paytable(name)
    except KeyError as exc:
        raise section.error(key, str(exc.args[0])) from None
    if table.kind is not kind:
        raise section.error(key, f"{name!r} is a {table.kind.value} paytable; "
                                 f"expected a {kind.value} paytable")
    return table


def _limit(section: Section) -> Limit:
    minimum = section.money("minimum", minimum=1)
    maximum = section.money("maximum", minimum=1)
    increment = section.money("increment", default=100, minimum=1)
    section.done()
    if maximum < minimum:
        raise section.error("maximum", f"{format_cents(maximum)} is below the minimum "
                                       f"{format_cents(minimum)}; the maximum must be at least it")
    if minimum % increment or maximum % increment:
        raise section.error("increment", f"{format_cents(increment)} must divide the minimum "
                                         "and the maximum")
    return Limit(minimum, maximum, increment)


def _fees(section: Section) -> Fees:
    payer = FeePayer(section.str_("payer", _values(FeePayer)))
    rates: list[FeeRate] = []
    for rate in section.sections("rate"):
        up_to = rate.opt_money("up_to", minimum=1)
        fee = rate.money("fee", minimum=1)
        rate.done()
        if rates and (rates[-1].up_to is None or (up_to is not None and up_to <= rates[-1].up_to)):
            raise rate.error("up_to", "rates must rise, and only the last may omit up_to")
        rates.append(FeeRate(up_to, fee))
    section.done()
    if not rates:
        raise section.error("rate", "at least one [[fees.rate]] is needed")
    if len(rates) > MAX_FEE_RATES:
        raise section.error("rate", f"{len(rates)} rates; at most {MAX_FEE_RATES} are allowed "
                                    "per table (California, Collection Procedures)")
    return Fees(payer, tuple(rates))


def load_profile(path: Path) -> Profile:
    """Read and check one profile file. Every problem is a :class:`ConfigError` naming the
    file, the key and what is allowed there."""
    top = Section(str(path), "", read_toml(path))
    name = top.str_("name")
    if not is_plain_name(name):
        raise top.error("name", f"{shown(name)} is not a profile name: 1-64 ASCII letters, "
                                "digits, '-', '_' or '.' (it is stored with every round)")
    title = top.str_("title")
    source = top.str_("source")
    game = Game(top.str_("game", _values(Game)))
    banking = Banking(top.str_("banking", _values(Banking)))
    positions = top.int_("positions", 2, 8)
    direction = Direction(top.str_("direction", _values(Direction)))
    settle_from = SettleFrom(top.str_("settle_from", _values(SettleFrom)))
    house_way = top.str_("house_way", house_ways.NAMES)
    wheel = Wheel(top.str_("wheel", _values(Wheel)))
    joker_in_flush = JokerInFlush(top.str_("joker_in_flush", _values(JokerInFlush)))
    foul = Foul(top.str_("foul", _values(Foul)))
    action = tuple(ActionSeatMethod(v) for v in top.str_list("action_seat_methods",
                                                              _values(ActionSeatMethod)))
    deal = tuple(DealMethod(v) for v in top.str_list("deal_methods", _values(DealMethod)))
    rotation = BankerRotation(top.str_("banker_rotation", _values(BankerRotation)))
    backline = top.bool_("backline", default=False)
    tip_bets = top.bool_("tip_bets", default=False)
    house_covers_bonuses = top.bool_("house_covers_bonuses", default=False)

    limits_section = top.need_section("limits")
    limits: dict[Area, Limit] = {}
    for area in Area:
        sub = limits_section.section(area.value, optional=True)
        if sub is not None:
            limits[area] = _limit(sub)
    limits_section.done()

    fortune_section = top.section("fortune", optional=True)
    fortune = None
    if fortune_section is not None:
        fortune = _paytable(fortune_section, "paytable", PaytableKind.FORTUNE)
        fortune_section.done()
    envy_section = top.section("envy", optional=True)
    envy = None
    if envy_section is not None:
        envy = Envy(envy_section.money("threshold", minimum=1),
                    envy_section.bool_("needs_fortune_on_hand", default=True))
        envy_section.done()
        if fortune is None:
            raise envy_section.error(
                "threshold",
                "envy is earned by a Fortune wager: add a [fortune] table with a paytable, "
                "or remove [envy]",
            )
        if not fortune.envy_lines:
            raise envy_section.error("threshold", f"the Fortune paytable {fortune.name!r} has no "
                                                  "envy amounts; choose one that prints them")
    ace_section = top.section("ace_high", optional=True)
    ace_high = None
    if ace_section is not None:
        ace_high = _paytable(ace_section, "paytable", PaytableKind.ACE_HIGH)
        ace_section.done()
        if game is not Game.FACE_UP:
            raise ace_section.error("paytable", "the Ace-High bonus needs a face up game "
                                                "(game = \"face_up\")")
    commission_section = top.section("commission", optional=True)
    commission = None
    if commission_section is not None:
        commission = Commission(
            commission_section.int_("basis_points", 1, 10_000),
            commission_section.opt_money("waived_by_fortune", minimum=1),
            commission_section.bool_("player_banker_pays_on_net", default=True),
        )
        commission_section.done()
        if commission.waived_by_fortune is not None and fortune is None:
            raise commission_section.error("waived_by_fortune", "a waiver by Fortune wager needs "
                                                                "a [fortune] table")
    fees_section = top.section("fees", optional=True)
    fees = _fees(fees_section) if fees_section is not None else None
    aggregate_section = top.section("aggregate_limit", optional=True)
    aggregate = None
    if aggregate_section is not None:
        aggregate = AggregateLimit(
            aggregate_section.money("amount", minimum=1),
            AggregateScope(aggregate_section.str_("scope", _values(AggregateScope),
                                                  default="table")),
        )
        aggregate_section.done()
    jackpots = read_jackpots(
        top, lambda section, key: _paytable(section, key, PaytableKind.JACKPOT))
    jackpot = None
    if jackpots is not None:
        if 1 not in [g.spot for g in jackpots.games]:
            raise ConfigError(str(path), "jackpot", "the first jackpot game takes sensor spot 1"
                                                    " (a second one, spot 2)")
        first = jackpots.game(1)
        jackpot = JackpotGame(get_paytable(first.paytable.name), first.wager_cents)
    top.done()

    def need_limit(area: Area, why: str) -> None:
        if area not in limits:
            raise ConfigError(str(path), f"limits.{area.value}", f"missing; {why}")

    need_limit(Area.BASE, "every table posts its base wager limits")
    # An area is limited exactly when the table offers it: a limit for an area nobody can bet
    # would let a wager through validation that settlement then has no paytable or rule for.
    offered = {
        Area.FORTUNE: (fortune is not None, "the table offers the Fortune bonus",
                       "add a [fortune] table with a paytable, or remove this limit"),
        Area.ACE_HIGH: (ace_high is not None, "the table offers the Ace-High bonus",
                        "add an [ace_high] table with a paytable, or remove this limit"),
        Area.BACKLINE: (backline, "the table takes backline wagers (backline = true)",
                        "set backline = true, or remove this limit"),
        Area.TIPS: (tip_bets, "the table takes dealer tip bets (tip_bets = true)",
                    "set tip_bets = true, or remove this limit"),
        Area.BANKER: (banking.covered, "a player banks, and their wager is bounded by the "
                                       "table limits",
                      "only banking player_dealer or designated_player limits the banker's "
                      "wager; remove this limit"),
        Area.HOUSE_WAGER: (banking is Banking.HOUSE_OR_PLAYER_BANKER,
                           "the house wagers against a player banker",
                           "only banking house_or_player_banker has a house wager; remove "
                           "this limit"),
    }
    for area, (is_offered, why, fix) in offered.items():
        if is_offered:
            need_limit(area, why)
        elif area in limits:
            raise ConfigError(str(path), f"limits.{area.value}",
                              f"this table does not offer the {area.value} area; {fix}")
    fortune_limit = limits.get(Area.FORTUNE)
    if envy is not None and fortune_limit is not None and envy.threshold > fortune_limit.maximum:
        raise ConfigError(str(path), "envy.threshold",
                          f"{format_cents(envy.threshold)} is above the Fortune maximum "
                          f"{format_cents(fortune_limit.maximum)}: no wager could earn envy; "
                          "lower it or raise limits.fortune.maximum")
    if (commission is not None and commission.waived_by_fortune is not None
            and fortune_limit is not None
            and commission.waived_by_fortune > fortune_limit.maximum):
        raise ConfigError(str(path), "commission.waived_by_fortune",
                          f"{format_cents(commission.waived_by_fortune)} is above the Fortune "
                          f"maximum {format_cents(fortune_limit.maximum)}: no wager could waive "
                          "commission; lower it or raise limits.fortune.maximum")
    if fees is not None and fees.payer is FeePayer.BANKER and not banking.covered:
        raise ConfigError(str(path), "fees.payer", "a rake paid by the banker needs a player "
                                                   "banker (banking player_dealer or "
                                                   "designated_player)")
    if house_covers_bonuses and banking is not Banking.HOUSE_OR_PLAYER_BANKER:
        raise ConfigError(str(path), "house_covers_bonuses", "only meaningful where a player may "
                                                             "bank against the house")
    return Profile(
        name=name, title=title, source=source, game=game, banking=banking,
        positions=positions, direction=direction, settle_from=settle_from,
        house_way=house_way, wheel=wheel, joker_in_flush=joker_in_flush, foul=foul,
        action_seat_methods=action, deal_methods=deal, banker_rotation=rotation,
        backline=backline, tip_bets=tip_bets, limits=limits, fortune=fortune, envy=envy,
        ace_high=ace_high, commission=commission, fees=fees, aggregate_limit=aggregate,
        jackpot=jackpot, house_covers_bonuses=house_covers_bonuses, jackpots=jackpots,
    )


def profile_names() -> tuple[str, ...]:
    return tuple(p.stem for p in sorted(PROFILE_DIR.glob("*.toml")))


@cache
def get_profile(name: str) -> Profile:
    """The shipped profile ``name``; an unknown name is a ``KeyError`` listing the known ones."""
    path = PROFILE_DIR / f"{name}.toml"
    if not is_plain_name(name) or not path.is_file():
        raise KeyError(f"unknown profile {shown(name)}; known: {', '.join(profile_names())}")
    profile = load_profile(path)
    if profile.name != name:
        raise ConfigError(str(path), "name", f"{profile.name!r} must match the file name")
    return profile


def find_profile(text: str) -> Profile:
    """A shipped profile by name, or a casino's profile by the path of its TOML file (so it can
    be tried headless before it goes on a table). Errors as :func:`get_profile` and
    :func:`load_profile` raise them."""
    if text.endswith(".toml") or "/" in text:
        return load_profile(Path(text))
    return get_profile(text)

"""``dealer-console sim shuffler|bet-sensors``: serve a simulated device on a pseudo-terminal.

Prints the device path to open (a technician points a profile or a second console at it),
then runs until Ctrl-C or ``--duration``. Scenario options script the double; ``--fault``
injects faults at random on its output, e.g. ``--fault corrupt=0.1 --fault split=0.5``.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from typing import Any

from dealer_console.cli import CommandError
from dealer_console.cli.checks import (
    SQLITE_MAX_INT,
    decimal,
    file_path,
    seconds,
    whole_number,
)
from dealer_console.input_checks import shown

# What the real machines can report (docs/protocols/shuffler.md): the first-position number
# is drawn from 1-7 and a deal has seven deliveries, numbered 1-7; the deck count is a byte.
FIRST_POSITION = whole_number(1, 7)
DELIVERY = whole_number(1, 7)
DECK_COUNT = whole_number(0, 255)
MAX_RUN_SECONDS = 30 * 24 * 3600.0
PROBABILITY = decimal(0.0, 1.0, "a probability")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("sim", help="serve a simulated serial device on a pty")
    devices = parser.add_subparsers(dest="device", metavar="DEVICE", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--link", type=file_path,
                        help="also serve the device under this path (a symlink)")
    common.add_argument(
        "--fault",
        action="append",
        default=[],
        metavar="KIND=P",
        help="fault probability per frame: split, merge, corrupt, drop, garbage",
    )
    common.add_argument("--seed", type=whole_number(0, SQLITE_MAX_INT), default=1,
                        help="seed of shuffles and faults")
    common.add_argument("--duration", type=seconds(0.0, MAX_RUN_SECONDS),
                        help="stop after this many seconds")

    shuffler = devices.add_parser("shuffler", parents=[common], help="the shuffler")
    shuffler.add_argument(
        "--deck-count",
        type=DECK_COUNT,
        default=53,
        help="cards found at the deck check (not 53: card-count error)",
    )
    shuffler.add_argument("--random-number", type=FIRST_POSITION,
                          help="fixed first-position number (1-7)")
    shuffler.add_argument(
        "--missing-hand",
        type=DELIVERY,
        action="append",
        default=[],
        metavar="INDEX",
        help="delivery index to skip",
    )
    shuffler.add_argument(
        "--short-hand",
        type=DELIVERY,
        action="append",
        default=[],
        metavar="INDEX",
        help="delivery index delivered with six cards",
    )
    shuffler.add_argument("--jam-after", type=DELIVERY, metavar="INDEX",
                          help="jam after this hand")
    shuffler.add_argument(
        "--hand-interval", type=seconds(0.0, 60.0), default=0.5,
        help="seconds between hands (default 0.5)"
    )
    shuffler.set_defaults(func=run_shuffler)

    bets = devices.add_parser("bet-sensors", parents=[common], help="the bet-sensor bus")
    bets.add_argument("--seats", default="1-7", help="seats with a node, e.g. 1-7 or 1,3,5")
    bets.add_argument(
        "--chip",
        action="append",
        default=[],
        metavar="SEAT.SPOT",
        help="a chip on this spot from the start",
    )
    bets.add_argument(
        "--late-bet",
        action="append",
        default=[],
        metavar="SEAT.SPOT",
        help="a chip placed on this spot --late-after seconds after a lock",
    )
    bets.add_argument("--late-after", type=seconds(0.0, 3600.0), default=1.0,
                      help="seconds after a lock that --late-bet chips arrive (default 1)")
    bets.set_defaults(func=run_bet_sensors)


def _faults(args: argparse.Namespace) -> Any:
    from drivers.sim.faults import Fault, FaultInjector, FaultPlan

    probabilities: dict[str, float] = {}
    kinds = {f.value for f in Fault}
    for item in args.fault:
        name, _, value = item.partition("=")
        if name not in kinds:
            raise CommandError(
                f"--fault {shown(item)}: the kind must be one of {', '.join(sorted(kinds))}"
            )
        try:
            probabilities[name] = PROBABILITY(value)
        except argparse.ArgumentTypeError:
            raise CommandError(f"--fault {shown(item)}: the probability is not within 0..1 "
                               "(write a decimal like 0.1)") from None
    try:
        return FaultInjector(FaultPlan(seed=args.seed, **probabilities))
    except ValueError as exc:
        raise CommandError(f"--fault: {exc}") from None


def _spot(text: str, option: str) -> tuple[int, int]:
    from dealer_console.devices.bet_sensors import Spot

    seat, _, spot = text.partition(".")
    try:
        if not (seat.isascii() and spot.isascii()):
            raise ValueError("digits 0-9 only")
        parsed = Spot(int(seat), int(spot))
    except ValueError as exc:
        raise CommandError(f"{option} {shown(text)}: expected SEAT.SPOT like 3.1 ({exc})") from None
    return parsed.seat, parsed.spot


def _seats(text: str) -> list[int]:
    seats: set[int] = set()
    try:
        if not text.isascii() or len(text) > 40:
            raise ValueError(text)
        for part in text.split(","):
            low, _, high = part.partition("-")
            first, last = int(low), int(high or low)
            if not 1 <= first <= last <= 7:
                raise CommandError(f"--seats {shown(text)}: seats are 1-7, low to high")
            seats.update(range(first, last + 1))
    except ValueError:
        raise CommandError(f"--seats {shown(text)}: expected a list like 1-7 or 1,3,5") from None
    if not seats or not seats <= set(range(1, 8)):
        raise CommandError(f"--seats {shown(text)}: seats are 1-7")
    return sorted(seats)


def _serve(double: Any, args: argparse.Namespace, tick: Any = None) -> int:
    from drivers.sim.pty import PtyServer

    server = PtyServer(double, link=args.link, faults=_faults(args))
    try:
        server.start()
    except OSError as exc:
        raise CommandError(f"cannot serve on a pseudo-terminal: {exc}", 1) from None
    print(server.path, flush=True)
    deadline = None if args.duration is None else time.monotonic() + args.duration
    stop = threading.Event()
    try:
        while deadline is None or time.monotonic() < deadline:
            if tick is not None:
                tick()
            stop.wait(0.05)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0


def run_shuffler(args: argparse.Namespace) -> int:
    from drivers.sim.shuffler import ShufflerDouble, ShufflerScenario

    scenario = ShufflerScenario(
        seed=args.seed,
        deck_count=args.deck_count,
        random_number=args.random_number,
        missing_hands=frozenset(args.missing_hand),
        short_hands=frozenset(args.short_hand),
        jam_after=args.jam_after,
        hand_interval=args.hand_interval,
    )
    return _serve(ShufflerDouble(scenario), args)


def run_bet_sensors(args: argparse.Namespace) -> int:
    from drivers.sim.bet_sensors import BetSensorBusDouble

    seats = _seats(args.seats)
    chips = [_spot(t, "--chip") for t in args.chip]
    late = [_spot(t, "--late-bet") for t in args.late_bet]
    for seat, _ in chips + late:
        if seat not in seats:
            raise CommandError(f"seat {seat} has no node (--seats {args.seats})")
    bus = BetSensorBusDouble(seats)
    for seat, spot in chips:
        bus.place(seat, spot)
    locked_at: list[float] = []

    def tick() -> None:
        if late and not locked_at and any(n.lock_id for n in bus.nodes.values()):
            locked_at.append(time.monotonic())
        if late and locked_at and time.monotonic() - locked_at[0] >= args.late_after:
            for seat, spot in late:
                bus.place(seat, spot)
            late.clear()

    print(f"bet-sensor nodes at seats {','.join(map(str, seats))}", file=sys.stderr)
    return _serve(bus, args, tick)

"""``dealer-console simulate``: open the table through the controller's composition root, start
the simulated world, let the random dealer play, print the summary."""

from __future__ import annotations

import argparse
import json
import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from sqlite_utils import Database, Migrations

from dealer_console.cli import CommandError
from dealer_console.controller import OpenTable, TableController, open_table
from dealer_console.errors import ConsoleError
from dealer_console.round.state import Phase
from dealer_link.pit.table_side import Reporting, start_reporting
from dealer_link.settings import LinkError
from dealer_link.wiring import start_links
from drivers.sim.table.dealer import FAULTS, RandomDealer, SimError, install_sim_staff
from drivers.sim.table.summary import format_summary, summary
from drivers.sim.table.world import World

LINKS = {"drivers": "pty", "in-process": "in-process"}
"""``--devices``: the doubles behind the real drivers over pseudo-terminals, or over the
in-process transport pair (the same drivers, no kernel in between)."""

META = Migrations("simulate")


@META(name="0001_sim_runs")
def _sim_runs(db: Database) -> None:
    db.execute("CREATE TABLE sim_runs (key TEXT PRIMARY KEY, value TEXT NOT NULL)")


@dataclass
class Sim:
    opened: OpenTable
    controller: TableController
    world: World
    dealer: RandomDealer


def parse_holds(texts: Iterable[str]) -> dict[Phase, float]:
    """``--hold PHASE=SECONDS`` options as a phase to its pause."""
    phases = {p.value: p for p in Phase if p not in (Phase.COMPLETE, Phase.VOIDED)}
    holds: dict[Phase, float] = {}
    for text in texts:
        name, sep, seconds = text.partition("=")
        if name.strip() not in phases or not sep:
            raise CommandError(f"--hold {text!r}: write PHASE=SECONDS with PHASE one of "
                               f"{', '.join(phases)}")
        try:
            pause = float(seconds)
        except ValueError:
            pause = -1.0
        if not 0 <= pause <= 3600:  # also refuses nan
            raise CommandError(f"--hold {text!r}: SECONDS must be a number from 0 to 3600")
        holds[phases[name.strip()]] = pause
    return holds


def parse_faults(text: str) -> frozenset[str]:
    names = {x.strip() for x in text.split(",") if x.strip()}
    if "all" in names:
        return frozenset(FAULTS)
    unknown = names - set(FAULTS)
    if unknown:
        raise CommandError(f"--faults: unknown {', '.join(sorted(unknown))}; known: "
                           f"{', '.join(FAULTS)}, all")
    return frozenset(names)


@contextmanager
def open_sim(db_path: Path, profile: str, seed: int, devices: str, faults: frozenset[str],
             resume: bool, deal: str | None = None, hold_before_end: float = 0.0,
             holds: Mapping[Phase, float] | None = None,
             audit_key: str | None = None) -> Iterator[Sim]:
    """Yield a ready simulated table; closes the devices and database afterwards."""
    from dealer_console.profiles.loader import find_profile

    if db_path.exists() and not resume:
        raise CommandError(f"{db_path} exists: pass --resume to continue it, or a new --db")
    if resume and not db_path.exists():
        raise CommandError(f"{db_path}: nothing to resume")
    if devices not in LINKS:
        raise CommandError(f"--devices must be one of {', '.join(LINKS)}, not {devices!r}")
    if resume:
        _compare_meta(_stored_meta(db_path), profile, seed, faults)
    try:
        prof = find_profile(profile)
        opened = open_table(db_path, prof, actor="simulate", deal=deal, audit_key=audit_key,
                            links=start_links)
    except KeyError as exc:
        raise CommandError(str(exc.args[0])) from None
    except ConsoleError as exc:
        raise CommandError(str(exc)) from None
    world: World | None = None
    reporting: Reporting | None = None
    try:
        _check_meta(opened.db, profile, seed, faults)
        try:  # every table: a supervisor's card reconstructs a banker's hand on any
            install_sim_staff(opened.db)
        except ConsoleError as exc:
            raise CommandError(str(exc)) from None
        spots = (tuple(g.spot for g in prof.jackpots.games)
                 if prof.jackpot is not None and prof.jackpots else ())
        world = World(seed, opened.rules.player_seats, spots, LINKS[devices],
                      "wire" in faults)
        controller = TableController(opened, world.hardware.table_devices)
        try:  # a table with a login on the link reports to the pit (docs/pit.md)
            reporting = start_reporting(controller, opened, staff=False)
        except LinkError as exc:
            raise CommandError(str(exc)) from None
        dealer = RandomDealer(controller, world, seed, faults, hold_before_end, holds)
        dealer.resume()
        yield Sim(opened, controller, world, dealer)
    finally:
        if reporting is not None:
            reporting.stop()
        if world is not None:
            world.close()
        opened.close()


def _stored_meta(db_path: Path) -> dict[str, str]:
    """The settings a run began with, read before the table is opened (so a resume with
    another profile is refused by name, before the profile's set-up is compared)."""
    try:
        conn = sqlite3.connect(f"{db_path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            return {str(k): str(v) for k, v in conn.execute("SELECT key, value FROM sim_runs")}
        finally:
            conn.close()
    except sqlite3.Error:
        return {}  # not a simulated table (yet): opening it says what is wrong


def _compare_meta(stored: Mapping[str, str], profile: str, seed: int,
                  faults: frozenset[str]) -> dict[str, str]:
    """A resumed run must use the settings it began with, or its totals would mean nothing."""
    wanted = {"profile": profile, "seed": str(seed), "faults": ",".join(sorted(faults))}
    for key, value in wanted.items():
        if key in stored and stored[key] != value:
            raise CommandError(f"this database was simulated with --{key} {stored[key]!r}, "
                               f"not {value!r}")
    return wanted


def _check_meta(db: Database, profile: str, seed: int, faults: frozenset[str]) -> None:
    META.apply(db)
    stored = {str(k): str(v) for k, v in db.execute("SELECT key, value FROM sim_runs")}
    wanted = _compare_meta(stored, profile, seed, faults)
    with db.atomic():
        for key, value in wanted.items():
            db.execute("INSERT OR IGNORE INTO sim_runs (key, value) VALUES (?, ?)", [key, value])


def run_simulate(args: argparse.Namespace) -> int:
    if args.rounds < 1:
        raise CommandError(f"--rounds must be 1 or more, not {args.rounds}")
    faults = parse_faults(args.faults)
    holds = parse_holds(args.hold)
    if not 0 <= args.hold_before_end <= 3600:  # also refuses nan
        raise CommandError(f"--hold-before-end must be a number from 0 to 3600, not "
                           f"{args.hold_before_end}")
    with open_sim(args.db, args.profile, args.seed, args.devices, faults, args.resume,
                  args.deal, args.hold_before_end, holds, args.audit_key) as sim:
        before = sim.dealer.finished_rounds()
        started = time.perf_counter()
        try:
            sim.dealer.run(args.rounds)
        except SimError as exc:
            raise CommandError(str(exc), 1) from None
        seconds = time.perf_counter() - started
        played = sim.dealer.finished_rounds() - before
        result = summary(sim.opened.db, sim.opened.rules.name)
    timing = {"rounds": float(played), "seconds": seconds,
              "rounds_per_second": played / seconds if seconds > 0 else 0.0}
    if args.json:
        print(json.dumps({"summary": result, "timing": timing}, indent=2))
    else:
        print(format_summary(result, timing))
    return 0

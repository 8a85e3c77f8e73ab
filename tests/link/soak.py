"""The link soak: simulated tables (``dealer-console simulate`` processes, devices in-process,
jackpot hands forced) play on one PostgreSQL link while tables are SIGKILLed and resumed, the
server is restarted once (immediate mode: a crash), every table's connections are cut once and
one table's are cut for a while. At the end every
table's outbox is drained through the sender and everything is checked: ``link audit``,
every table's ``audit verify``, and each table's jackpot wagers against the server's
contributions, to the cent. The suite runs a short form (``test_soak.py``); the benchmark
(``benchmarks/link_soak.py``) the full one."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
from psycopg.conninfo import make_conninfo

from dealer_console.profiles.loader import load_profile
from dealer_link import server
from dealer_link.audit import verify
from dealer_link.sender import OutboxSender
from tests.link.pg_server import PgServer

LINK = "soak-link"
CLI = [sys.executable, "-m", "dealer_console.cli"]


def linked_profile(folder: Path) -> Path:
    """The shipped Washington profile with its jackpot made progressive and linked."""
    root = Path(__file__).resolve().parents[2]
    text = (root / "config/profiles/washington-face-up.toml").read_text()
    text = text.replace('mode = "house"', f'mode = "progressive"\nlinked = "{LINK}"')
    text = text.replace('name = "washington-face-up"', 'name = "linked-soak"')
    path = folder / "linked-soak.toml"
    path.write_text(text)
    return path


HitFacts = tuple[int, int, int, int, int, int, int, int, int | None, int | None]
"""(link hit id, round, spot, seat, line, amount, from meter, from tray, meter before,
meter after), the last two in millionths of a cent."""


@dataclass
class SoakResult:
    tables: int
    runs: int = 0
    kills: int = 0
    restarted: bool = False
    cut_all: int = 0
    """Connections of every table the server ended at once."""
    cuts: int = 0
    """Connections of the cut table the server ended while it was cut."""
    seconds: float = 0.0
    link_problems: list[str] = field(default_factory=list)
    table_problems: list[str] = field(default_factory=list)
    wagers_tables: dict[str, int] = field(default_factory=dict)
    wagers_server: dict[str, int] = field(default_factory=dict)
    hits_tables: dict[str, list[HitFacts]] = field(default_factory=dict)
    """Each table's linked hits as its own database records them."""
    hits_server: dict[str, list[HitFacts]] = field(default_factory=dict)
    """Each table's hits as the link's server ordered and paid them."""
    unlinked_hits: int = 0
    """Hits of the linked game a table paid from its own meter (must be none)."""
    trays_tables: dict[str, list[tuple[int, int, int, int]]] = field(default_factory=dict)
    """Tray pays each table paid itself while the link was down: (round, spot, seat, cents)."""
    trays_server: dict[str, list[tuple[int, int, int, int]]] = field(default_factory=dict)
    """The same pays as the server recorded them once reported (must equal the tables')."""
    owed_at_exit: dict[str, int] = field(default_factory=dict)
    """What each table still owed the link when its last ``simulate`` exited (must be none:
    a closing table drains its outbox first)."""


def _env(dsn: str, table: str) -> dict[str, str]:
    return dict(os.environ, DEALER_CONSOLE_LINK_DSN=dsn, DEALER_CONSOLE_TABLE_ID=table,
                PYTHONUNBUFFERED="1")


def run_soak(pg: PgServer, folder: Path, *, tables: int, runs_each: int, rounds: int,
             kills: int, seed: int = 17, cut_s: float = 2.0) -> SoakResult:
    rng = random.Random(seed)
    with psycopg.connect(pg.dsn(), autocommit=True) as admin:
        admin.execute(b"DROP DATABASE IF EXISTS soak")
        admin.execute(b"CREATE DATABASE soak")
    dsn = pg.dsn("soak")
    profile = linked_profile(folder)
    subprocess.run([*CLI, "link", "init", "--dsn", dsn, "--profile", str(profile)],
                   check=True, capture_output=True, timeout=60)
    names = [f"t{i:02d}" for i in range(1, tables + 1)]
    for employee_id, name, role in (("SIM-S1", "Sim Supervisor", "supervisor"),
                                    ("SIM-X1", "Sim Executive", "executive")):
        subprocess.run([*CLI, "link", "add-confirmer", employee_id, "--name", name, "--role",
                        role, "--reason", "the simulated tables' staff", "--dsn", dsn],
                       check=True, capture_output=True, timeout=60)
    table_dsns = {name: add_table(dsn, folder, name) for name in names}
    runs_left = dict.fromkeys(names, runs_each)
    started: dict[str, int] = dict.fromkeys(names, 0)
    procs: dict[str, subprocess.Popen[bytes]] = {}
    result = SoakResult(tables)
    kill_plan = sorted(rng.uniform(0.5, 1.0) for _ in range(kills))
    newest_launch = 0.0
    restart_done = cut_done = False
    cut_table, cut_until = names[-1], 0.0
    t0 = time.monotonic()

    def launch(name: str) -> None:
        nonlocal newest_launch
        newest_launch = time.monotonic()
        db = folder / f"{name}.db"
        # --rounds is the table's total: each run (a killed one resumed included) plays its
        # own ``rounds`` more, so a second run is as long as the first and can be killed too
        total = rounds * (runs_each - runs_left[name] + 1)
        argv = [*CLI, "simulate", "--profile", str(profile), "--devices", "in-process",
                "--faults", "jackpot-hands", "--rounds", str(total), "--db", str(db),
                "--seed", str(int(name[1:]))]
        if db.exists():
            argv.append("--resume")
        started[name] += 1
        result.runs += 1
        procs[name] = subprocess.Popen(argv, env=_env(table_dsns[name], name),
                                       stdout=subprocess.DEVNULL,
                                       stderr=subprocess.PIPE)

    for name in names:
        launch(name)
    expected_runs = tables * runs_each
    while procs:
        now = time.monotonic() - t0
        done = result.runs - len(procs)
        progress = done / expected_runs
        # A kill still planned once every table plays its last run is made 0.3 s after the
        # newest start: the planned moment counts runs finished, and when the last runs all
        # end between two looks (a loaded machine), that moment never came with a table alive.
        overdue = (all(left <= 1 for left in runs_left.values())
                   and time.monotonic() - newest_launch >= 0.3)
        if kill_plan and (progress >= kill_plan[0] * 0.8 or overdue):
            kill_plan.pop(0)
            victim = rng.choice(sorted(procs))
            procs[victim].send_signal(signal.SIGKILL)
            procs[victim].wait()
            del procs[victim]
            result.kills += 1
            launch(victim)  # the killed table resumes (its run does not count as one done)
            continue
        if result.cut_all == 0 and procs and progress >= 0.2:
            # every table's connections cut once, early (on until one lands), before the
            # restart (after which the senders reconnect on their own growing pause)
            with psycopg.connect(pg.dsn("soak"), autocommit=True) as admin:
                ended = admin.execute(
                    "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM "
                    "pg_stat_activity WHERE application_name LIKE 'dealer-console %') x"
                ).fetchone()
            result.cut_all = int(str(ended[0])) if ended else 0
        if not restart_done and progress >= 0.4 and result.cut_all:
            restart_done = True
            pg.stop("immediate")  # a crash, not a tidy shutdown
            pg.start()
            result.restarted = True
        if not cut_done and procs:  # at once: before the restart every sender is connected
            # a table still playing; cut for cut_s, and on until one connection was ended
            cut_done, cut_until = True, now + cut_s
            cut_table = rng.choice(sorted(procs))
        if cut_done and (now < cut_until or (result.cuts == 0 and procs)):
            with psycopg.connect(pg.dsn("soak"), autocommit=True) as admin:
                if result.cuts == 0:  # the table chosen may have no connection open now:
                    # cut one that has (a table still playing), so the cut always lands
                    open_now = sorted(
                        str(row[0]).removeprefix("dealer-console ") for row in admin.execute(
                            "SELECT application_name FROM pg_stat_activity "
                            "WHERE application_name LIKE 'dealer-console %'").fetchall())
                    playing = [t for t in open_now if t in procs]
                    if playing and cut_table not in playing:
                        cut_table = rng.choice(playing)
                ended = admin.execute(
                    "SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM "
                    "pg_stat_activity WHERE application_name = %s) x",
                    [f"dealer-console {cut_table}"]).fetchone()
                result.cuts += int(str(ended[0])) if ended else 0
        for name, proc in list(procs.items()):
            code = proc.poll()
            if code is None:
                continue
            del procs[name]
            if code != 0:
                err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
                result.table_problems.append(f"{name}: simulate exited {code}: {err[-500:]}")
                continue
            runs_left[name] -= 1
            if runs_left[name] > 0:
                launch(name)
        time.sleep(0.05)
    result.seconds = time.monotonic() - t0
    _finish(folder, dsn, table_dsns, profile, result)
    return result


def add_table(dsn: str, folder: Path, name: str) -> str:
    """``link add-table``: the table's own login and credentials file; its address."""
    credentials = folder / f"{name}.pgpass"
    subprocess.run([*CLI, "link", "add-table", name, "--link", LINK, "--credentials",
                    str(credentials), "--reason", "a soak table", "--dsn", dsn],
                   check=True, capture_output=True, timeout=60)
    return make_conninfo(dsn, user=f"table-{name}", passfile=str(credentials))


def _finish(folder: Path, dsn: str, table_dsns: dict[str, str], profile: Path,
            result: SoakResult) -> None:
    names = list(table_dsns)
    jackpots = load_profile(profile).jackpots
    assert jackpots is not None
    game = next(g for g in jackpots.games if g.linked)
    for name in names:
        db = folder / f"{name}.db"
        sender = OutboxSender(db, link=LINK, table_id=name, dsn=table_dsns[name], game=game)
        result.owed_at_exit[name] = sender.owed()
        try:
            while sender.drain_once():
                pass
        finally:
            sender._close()
        audit = subprocess.run([*CLI, "audit", "verify", "--db", str(db), "--profile",
                                str(profile)], capture_output=True,
                               text=True, timeout=300)
        if audit.returncode != 0:
            result.table_problems.append(f"{name}: audit verify: {audit.stdout[-400:]}"
                                         f"{audit.stderr[-400:]}")
        conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
        try:
            row = conn.execute("SELECT COALESCE(SUM(wager_cents), 0) FROM jackpot_wagers "
                               "WHERE spot = ?", [game.spot]).fetchone()
            result.hits_tables[name] = [tuple(r) for r in conn.execute(  # type: ignore[misc]
                "SELECT link_hit_id, round_id, spot, seat, line_no, amount_cents, "
                "from_meter_cents, from_tray_cents, meter_before_micro, meter_after_micro "
                "FROM jackpot_hits WHERE link = ? ORDER BY link_hit_id", [LINK]).fetchall()]
            # a tray pay paid here while the link was down (reported later) is not a hit
            # paid from the table's own meter
            result.trays_tables[name] = sorted(
                (int(r[0]), int(r[1]), int(r[2]), int(r[3])) for r in conn.execute(
                    "SELECT round_id, spot, seat, amount_cents FROM link_tray_owed WHERE "
                    "link = ?", [LINK]))
            result.unlinked_hits += int(conn.execute(
                "SELECT COUNT(*) FROM jackpot_hits h WHERE spot = ? AND link IS NULL AND NOT "
                "EXISTS (SELECT 1 FROM link_tray_owed t WHERE (t.round_id, t.spot, t.seat) = "
                "(h.round_id, h.spot, h.seat) AND t.link = ?)", [game.spot, LINK]).fetchone()[0])
        finally:
            conn.close()
        result.wagers_tables[name] = int(row[0])
    link = server.connect(dsn)
    try:
        result.link_problems = verify(link)
        with link.cursor() as cur:
            cur.execute("SELECT table_id, SUM(wager_cents) FROM link_contributions "
                        "WHERE link = %s GROUP BY table_id", [LINK])
            result.wagers_server = {str(r[0]): int(str(r[1])) for r in cur.fetchall()}
        result.hits_server = {name: [] for name in names}
        result.trays_server = {name: [] for name in names}
        for hit in server.hits(link, LINK):
            tray = (hit.round_id, hit.spot, hit.seat, hit.amount_cents)
            if tray in result.trays_tables.get(hit.table_id, ()) and not hit.from_meter_cents:
                result.trays_server.setdefault(hit.table_id, []).append(tray)
                continue
            result.hits_server.setdefault(hit.table_id, []).append(
                (hit.hit_id, hit.round_id, hit.spot, hit.seat, hit.line_no, hit.amount_cents,
                 hit.from_meter_cents, hit.from_tray_cents, hit.meter_before_micro,
                 hit.meter_after_micro))
        result.trays_server = {n: sorted(t) for n, t in result.trays_server.items()}
    finally:
        link.close()

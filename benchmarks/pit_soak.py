"""The pit under a floor of tables, on a PostgreSQL of the benchmark's own (initdb + pg_ctl in
a temporary folder, fsync on, as the link's soak):

- ``--tables`` simulated tables (40) in a process of their own, each a reporter thread with
  its own login (``link add-table``'s function) and connection, as a table's console runs it:
  every one to three seconds a table changes (a new phase or round; now and then a jackpot
  waiting, a device down, its link down), and between changes its heartbeat goes on;
- the pit's real window (``ui/pit``, offscreen at 1280x800) with its reader thread and the
  pit's own login, as ``dealer-console pit`` runs it.

Figures: the time from a change offered at a table (its wall clock, written into the report)
to the pit's window drawing it, median, p95 and max (aim: p95 within 1 s), and the pit's
event-loop stalls: a 2 ms precise timer on the GUI thread, a stall being the gap between two
ticks beyond the 2 ms (aim: p99 <= 16 ms).

Run: ``.venv/bin/python benchmarks/pit_soak.py`` (``--seconds S``, ``--tables N``,
``--quick`` for the suite's short form).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.gui_console import percentile, verdict  # noqa: E402
from dealer_link.pit.report import DeviceState, TableReport  # noqa: E402
from dealer_link.pit.reporter import PitReporter  # noqa: E402

PHASES = ("betting", "action", "dealing", "players_set", "settlement", "end")
MARK = " @"


class Ticks:
    """The gaps between a precise timer's ticks on the GUI thread: a gap beyond the interval
    is the time the event loop was busy (a stall), as ``gui_console.py`` measures it."""

    def __init__(self) -> None:
        self.gaps: list[float] = []
        self._last = 0.0

    def __call__(self) -> None:
        at = time.perf_counter()
        if self._last:
            self.gaps.append(at - self._last)
        self._last = at


# -- the tables (a child process) -------------------------------------------------------------


def run_tables(logins_file: Path, seconds: float) -> int:
    """Every table a reporter thread; each changes every 1-3 s until ``seconds`` pass."""
    logins = json.loads(logins_file.read_text())
    halt = threading.Event()
    offered = [0]

    def table(table_id: str, dsn: str, seed: int) -> None:
        rng = random.Random(seed)
        reporter = PitReporter(dsn, table_id)
        base = TableReport(table_id, "betting", 1, "", True, "passed",
                           (DeviceState("Shuffler", True), DeviceState("Bet sensors", True)),
                           "up", 0, 0, 0, ())
        reporter.start()
        step = 0
        while not halt.wait(rng.uniform(1.0, 3.0)):
            step += 1
            trouble = rng.random()
            report = replace(
                base, phase=PHASES[step % len(PHASES)], round_id=1 + step // len(PHASES),
                round_text=f"seats 1, 3 in play{MARK}{time.time():.6f}",
                jackpots_waiting=1 if trouble < 0.05 else 0,
                devices=(DeviceState("Shuffler", trouble >= 0.1 or trouble < 0.05,
                                     "" if trouble >= 0.1 else "no answer"),
                         base.devices[1]),
                link_state="up" if trouble < 0.9 or trouble >= 0.93 else "did not answer",
                drop_cents=step * 2_500, hold_cents=step * 600)
            reporter.offer(report)
            offered[0] += 1
        reporter.stop()

    threads = [threading.Thread(target=table, args=(t, d, i), daemon=True)
               for i, (t, d) in enumerate(logins)]
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    halt.set()
    for thread in threads:
        thread.join(10)
    print(json.dumps({"offered": offered[0]}), flush=True)
    return 0


# -- the pit (this process) -------------------------------------------------------------------


def run(tables: int, seconds: float) -> int:
    from PySide6.QtCore import Qt, QTimer

    from dealer_link import server as link_server
    from tests.link.helpers import table_dsn
    from tests.link.pg_server import PgServer, find_bin
    from tests.pit.helpers import init_pit, pit_dsn
    from ui.application import application
    from ui.pit.app import open_pit
    from ui.pit.window import PitWindow
    from ui.theme import apply_theme

    drawing: list[float] = []
    draw = PitWindow.show_rows

    def timed(self: PitWindow, rows: list[Any]) -> None:
        began = time.perf_counter()
        draw(self, rows)
        drawing.append((time.perf_counter() - began) * 1000)

    PitWindow.show_rows = timed  # type: ignore[method-assign]

    bindir = find_bin()
    if bindir is None:
        print("PostgreSQL is not installed (installers/setup-dev.sh installs it)")
        return 2
    pg = PgServer(bindir, durable=True)
    child: subprocess.Popen[str] | None = None
    try:
        with link_server.connect(pg.dsn(), timeout_s=10) as conn:
            conn.execute(b"CREATE DATABASE pit_soak")
        dsn = pg.dsn("pit_soak")
        init_pit(dsn).close()
        logins = [(f"t{i:02d}", table_dsn(dsn, f"t{i:02d}")) for i in range(1, tables + 1)]
        app = application()
        apply_theme(app)
        window, reader = open_pit(pit_dsn(dsn))
        window.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen, True)
        window.resize(1280, 800)
        window.show()
        latencies: list[float] = []

        def shown(row: object) -> None:
            text = getattr(getattr(row, "report", None), "round_text", "")
            if MARK in text:
                latencies.append(time.time() - float(text.rsplit(MARK, 1)[1]))

        window.shown_at = shown
        ticks = Ticks()
        timer = QTimer()
        timer.setTimerType(Qt.TimerType.PreciseTimer)
        timer.setInterval(2)
        timer.timeout.connect(ticks)
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(logins, f)
        child = subprocess.Popen([sys.executable, __file__, "--child-tables", f.name,
                                  "--seconds", str(seconds)], stdout=subprocess.PIPE,
                                 text=True)
        running = child

        def done() -> None:
            if running.poll() is not None:
                app.quit()

        poller = QTimer()
        poller.timeout.connect(done)
        poller.start(100)
        started = time.perf_counter()
        timer.start()
        app.exec()  # the pit's real event loop until the tables stop
        timer.stop()
        poller.stop()
        wall = time.perf_counter() - started
        out = child.stdout.read() if child.stdout else ""
        offered = json.loads(out.strip().splitlines()[-1])["offered"] if out.strip() else 0
        reader.stop()
        window.close()
        Path(f.name).unlink()
    finally:
        if child is not None and child.poll() is None:
            child.kill()
        pg.destroy()
    ms = [x * 1000 for x in latencies]
    gaps = ticks.gaps
    stalls = [max(0.0, g - 0.002) * 1000 for g in gaps]
    p95 = percentile(ms, 0.95) if ms else 0.0
    p99 = percentile(stalls, 0.99) if stalls else 0.0
    print(f"{tables} tables for {wall:.1f} s: {offered} changes offered, {len(ms)} drawn on the "
          "pit (a change overtaken by the next before the pit read it is not drawn)")
    if ms:
        print(f"  change to pit   median {statistics.median(ms):6.0f} ms   p95 {p95:6.0f} ms   "
              f"max {max(ms):6.0f} ms   aim p95 <= 1000 ms: {verdict(p95, 1000)}")
    print(f"  event-loop stall beyond a 2 ms tick ({len(gaps)} ticks)   median "
          f"{statistics.median(stalls) if stalls else 0:5.2f} ms   p99 {p99:5.2f} ms   max "
          f"{max(stalls) if stalls else 0:6.2f} ms   aim p99 <= 16 ms: {verdict(p99, 16)}")
    if drawing:
        print(f"  the pit's drawing of one read ({len(drawing)} reads)   median "
              f"{statistics.median(drawing):5.2f} ms   p99 {percentile(drawing, 0.99):5.2f} ms   "
              f"max {max(drawing):6.2f} ms")
    return 0 if ms else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--quick", action="store_true", help="the suite's short form")
    parser.add_argument("--child-tables", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_tables is not None:
        return run_tables(args.child_tables, args.seconds)
    if args.quick:
        args.tables, args.seconds = 6, 5.0
    return run(args.tables, args.seconds)


if __name__ == "__main__":
    raise SystemExit(main())

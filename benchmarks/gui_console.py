"""The dealer's console as the dealer feels it: the real window (offscreen), the table
controller, the real drivers and the simulated devices on pseudo-terminals (``link="pty"``,
the path a real serial shuffler takes), every round played by clicks on the screens.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/gui_console.py [--rounds 200] [--quick]

1. Hands to screen: from the shuffler double's last HAND frame of a deal written into its
   pseudo-terminal (the server's write is wrapped) to the window showing all seven hands:
   ``show_view`` has run for a view holding them (a slot connected after the window's own to
   the bridge's ``changed``), then the window's next repaint has been drawn (its
   ``UpdateRequest``, which paints every changed widget into the backing store, has been
   handled). Median and p99 over ``--rounds`` deals; aim p99 <= 25 ms (issue 24).
2. Event-loop stalls: a precise 2 ms timer on the GUI thread while ``--stall-rounds`` rounds
   are played by clicks (``ScreenPlayer``); a stall is the gap between two of its ticks
   beyond the interval. p99 and max; aim p99 <= 16 ms, max <= 100 ms.
3. Cold start: a fresh process (this script with ``--child-cold-start``) from its start, as
   the parent saw it, to an interactive table: the window shown and painted, every device
   connected, the phase bar's primary button saying START GAME. Best and median; aim <= 0.8 s.
   The modules' bytecode is compiled first, as in a release. A second line times the same
   start after the power-on self-test that ``dealer-console gui`` runs first (``run_app``;
   the paytables' exact counts and the database's checks, on a fresh database): what a
   dealer waits at power-on. The aim is the first line's (issue 24's measure).
4. The supervisor's area: from a supervisor's card swiped on the keypad's reader to the area
   on screen and painted, ``--opens`` times (each closed by its Back button); the first open
   (its modules imported) and the median and max of the others. No aim: what a supervisor
   waits at every swipe (306 ms a swipe before each screen was built when first shown).

The player waits in a real Qt event loop (as the console's ``app.exec``), never by sleeping
the GUI thread, so a device event reaches the screens as fast as it would at the table.
Stalls include the player's own click code (finding a button, ``QTest.mouseClick``), so they
are an upper bound on what the console alone costs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from dealer_console.controller import TableSnapshot
    from ui.gallery.player import ScreenPlayer

PROFILE = "washington-face-up"
SEATS = (2, 3, 5)
"""Seats with a base wager each round (the others' hands go to the discard rack)."""


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def figures(samples: list[float]) -> str:
    ms = [s * 1000 for s in samples]
    return (f"median {statistics.median(ms):6.2f} ms   p99 {percentile(ms, 0.99):6.2f} ms   "
            f"max {max(ms):6.2f} ms   (n={len(ms)})")


def verdict(value: float, aim: float) -> str:
    return "met" if value <= aim else "MISSED"


def quiet_offscreen() -> None:
    """Drop the offscreen platform's note that it cannot pass size hints to a window
    manager (it has none), printed at every window shown; every other message goes on."""
    from PySide6.QtCore import QMessageLogContext, QtMsgType, qInstallMessageHandler

    def handler(kind: QtMsgType, context: QMessageLogContext, message: str) -> None:
        if "propagateSizeHints" not in message:
            print(message, file=sys.stderr)

    qInstallMessageHandler(handler)


def watch_repaints(window: QWidget, painted: Callable[[], None]) -> None:
    """Call ``painted`` each time the window has redrawn: its ``UpdateRequest`` (which paints
    every changed widget into the window's backing store and flushes it) is handled here, then
    the callback runs."""
    from PySide6.QtCore import QEvent, QObject

    class Repainted(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() != QEvent.Type.UpdateRequest:
                return False
            window.event(event)
            painted()
            return True

    window.installEventFilter(Repainted(window))  # the window keeps its filter alive


# -- playing rounds by clicks -----------------------------------------------------------------


def loop_player(db: Path) -> ScreenPlayer:
    """A ScreenPlayer whose waits run the Qt event loop (woken by the drivers' queued
    signals) instead of polling with sleeps."""
    from PySide6.QtCore import QEventLoop, Qt, QTimer
    from PySide6.QtWidgets import QApplication

    from ui.gallery.player import ScreenPlayer

    class LoopPlayer(ScreenPlayer):
        def wait(self, want: Callable[[], bool], what: str, timeout: float = 15.0) -> None:
            def done() -> bool:
                return want() and self.drawn()

            deadline = time.monotonic() + timeout
            loop = QEventLoop()
            timer = QTimer()
            timer.setTimerType(Qt.TimerType.PreciseTimer)
            timer.setInterval(1)
            timer.timeout.connect(
                lambda: loop.quit() if done() or time.monotonic() > deadline else None)
            # the events processed once the loop has quit may bring a new change to draw:
            # the wait ends only when it is done after them
            while True:
                QApplication.processEvents()  # the screens drawn from the view just reached
                if done():
                    return
                if time.monotonic() > deadline:
                    raise TimeoutError(f"no {what} within {timeout:.0f} s (phase "
                                       f"{self.phase.value}, bar: "
                                       f"{self.window.phase_bar.message_text()!r})")
                timer.start()
                loop.exec()
                timer.stop()

    return LoopPlayer.start(PROFILE, db, link="pty")


def play_round(p: ScreenPlayer) -> None:
    """One whole round by touch: the bank where offered, base wagers, START GAME, the action
    on the pad, the deal, every hand set and settled by the phase bar, END GAME."""
    from dealer_console.round.state import Phase

    p.open_round(SEATS, chip=False)
    p.until_hands_set()
    if p.phase is Phase.MISDEAL:
        raise RuntimeError("the simulated deal was a misdeal: the benchmark plays clean deals")
    p.play_to_end()
    p.end_game()


# -- 1. hands to screen -----------------------------------------------------------------------


class HandsProbe:
    """Times each deal from the last HAND frame written into the pseudo-terminal to the
    window's repaint after it showed all seven hands."""

    def __init__(self, p: ScreenPlayer) -> None:
        from dealer_console.controller.controller import deal_id_for
        from drivers.shuffler import framer as sf

        self.written: dict[int, float] = {}
        self.shown: dict[int, float] = {}
        self.painted: dict[int, float] = {}
        self._armed: int | None = None
        server = p.hardware.servers[0]  # the shuffler's (the first serial device)
        assert server.double is p.hardware.shuffler
        write = server._write
        framer = sf.ShufflerFramer()

        def timed_write(fd: int, data: bytes) -> None:
            write(fd, data)
            now = time.perf_counter()
            for frame in framer.feed(data):
                hand = frame.message
                if isinstance(hand, sf.Hand) and hand.index == 7:
                    self.written.setdefault(hand.deal_id, now)

        server._write = timed_write  # type: ignore[method-assign]

        def on_changed(view: TableSnapshot) -> None:
            r = view.round
            if len(r.delivered) == 7:
                deal = deal_id_for(r.round_id, r.deal_no)
                if deal not in self.shown:
                    self.shown[deal] = time.perf_counter()
                    self._armed = deal

        def on_painted() -> None:
            if self._armed is not None:
                self.painted[self._armed] = time.perf_counter()
                self._armed = None

        # connected after the window's show_view: Qt calls slots in the order connected
        p.console.bridge.changed.connect(on_changed)
        watch_repaints(p.window, on_painted)

    def samples(self) -> tuple[list[float], list[float]]:
        """(frame written -> show_view done, frame written -> repaint done) per deal."""
        deals = [d for d in self.painted if d in self.written and d in self.shown]
        return ([self.shown[d] - self.written[d] for d in deals],
                [self.painted[d] - self.written[d] for d in deals])


def bench_hands_to_screen(rounds: int, workdir: Path) -> None:
    p = loop_player(workdir / "hands.db")
    try:
        probe = HandsProbe(p)
        started = time.perf_counter()
        for _ in range(rounds):
            play_round(p)
        seconds = time.perf_counter() - started
    finally:
        p.close()
    shown, painted = probe.samples()
    print(f"{rounds} rounds by clicks in {seconds:.1f} s ({rounds / seconds:.2f} rounds/s)")
    print(f"  last HAND frame -> show_view done   {figures(shown)}")
    p99 = percentile(painted, 0.99) * 1000
    print(f"  last HAND frame -> window repainted {figures(painted)}   "
          f"aim p99 <= 25 ms: {verdict(p99, 25)}")


# -- 2. event-loop stalls ---------------------------------------------------------------------


def bench_stalls(rounds: int, workdir: Path) -> None:
    from PySide6.QtCore import Qt, QTimer

    p = loop_player(workdir / "stalls.db")
    interval_ms = 2
    gaps: list[float] = []
    last = [0.0]

    def tick() -> None:
        now = time.perf_counter()
        if last[0]:
            gaps.append(now - last[0])
        last[0] = now

    timer = QTimer()
    timer.setTimerType(Qt.TimerType.PreciseTimer)
    timer.setInterval(interval_ms)
    timer.timeout.connect(tick)
    try:
        timer.start()
        started = time.perf_counter()
        for _ in range(rounds):
            play_round(p)
        seconds = time.perf_counter() - started
        timer.stop()
    finally:
        p.close()
    stalls = [max(0.0, g - interval_ms / 1000) for g in gaps]
    ms = [s * 1000 for s in stalls]
    p99, worst = percentile(ms, 0.99), max(ms)
    print(f"{rounds} rounds by clicks in {seconds:.1f} s, a {interval_ms} ms timer ticking "
          f"on the GUI thread ({len(gaps)} ticks)")
    print(f"  stall beyond the tick   median {statistics.median(ms):6.2f} ms   "
          f"p99 {p99:6.2f} ms   max {worst:6.2f} ms   "
          f"aim p99 <= 16 ms: {verdict(p99, 16)}, max <= 100 ms: {verdict(worst, 100)}")
    over = sorted(ms, reverse=True)
    long = sum(1 for x in ms if x > 16)
    print(f"  stalls over 16 ms: {long} ({long / rounds:.1f} a round); longest five: "
          + ", ".join(f"{x:.1f} ms" for x in over[:5]))


# -- 4. the supervisor's area ------------------------------------------------------------------


def bench_supervisor_opens(opens: int, workdir: Path) -> None:
    p = loop_player(workdir / "supervisor.db")
    painted = [0]
    watch_repaints(p.window, lambda: painted.__setitem__(0, painted[0] + 1))
    times = []
    try:
        for _ in range(opens):
            p.tap(p.window.supervisor_button)
            seen = painted[0]
            started = time.perf_counter()
            p.swipe("supervisor")
            p.wait(lambda s=seen: p.window.supervisor is not None  # type: ignore[misc]
                   and p.window.supervisor.isVisible() and painted[0] > s, "the area painted")
            times.append(time.perf_counter() - started)
            area = p.window.supervisor
            assert area is not None
            p.tap(area.leave)
    finally:
        p.close()
    rest = [t * 1000 for t in times[1:]] or [times[0] * 1000]
    print(f"supervisor's card to its area painted, {opens} opens: first {times[0] * 1000:.0f} ms"
          f"   then median {statistics.median(rest):.0f} ms   max {max(rest):.0f} ms")


# -- 3. cold start ----------------------------------------------------------------------------


def child_cold_start(db: str, self_test: bool = False) -> int:
    """Start the console as ``dealer-console gui --simulated`` does (with its power-on
    self-test first when ``self_test``) and print, on the shared monotonic clock, when it is
    ready for the dealer; then close it."""
    from ui.app_cmd import import_core_before_qt

    import_core_before_qt(simulated=True)  # as the command does
    from PySide6.QtCore import QTimer

    from dealer_console.profiles.loader import get_profile
    from ui.app import start_console
    from ui.application import application
    from ui.power_on import power_on_check

    app = application()
    quiet_offscreen()
    profile = get_profile(PROFILE)
    if self_test:
        report = power_on_check(profile, db, None, simulated=True, environ={})
        if not report.ok:
            raise RuntimeError("the power-on self-test failed: " + "; ".join(report.lines()))
    console = start_console(profile, db, simulated=True)
    painted = [False]
    watch_repaints(console.window, lambda: painted.__setitem__(0, True))
    console.window.resize(1280, 800)
    console.window.show()
    if console.world is not None:
        console.world.show()  # type: ignore[attr-defined]
    bar = console.window.phase_bar

    def ready() -> None:
        devices = console.controller.snapshot().devices
        if (painted[0] and console.window.isVisible() and all(d.connected for d in devices)
                and bar.primary.isVisible() and bar.primary.text() == "START GAME"):
            print(f"ready {time.monotonic():.6f}", flush=True)
            app.quit()

    poll = QTimer()
    poll.setInterval(1)
    poll.timeout.connect(ready)
    poll.start()
    QTimer.singleShot(30_000, app.quit)
    try:
        app.exec()
    finally:
        console.window.close()
        if console.world is not None:
            console.world.close()  # type: ignore[attr-defined]
        console.close()
    return 0


def bench_cold_start(runs: int, workdir: Path) -> None:
    """A table's release carries its modules compiled (``installers/linux/build.sh``), so the
    starts read bytecode: a first, uncounted start writes it to a cache of this run's own,
    whether or not this shell lets Python write bytecode."""
    env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"),
               PYTHONPYCACHEPREFIX=str(workdir / "bytecode"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([sys.executable, __file__, "--child-cold-start", str(workdir / "warm.db"),
                    "--with-self-test"], capture_output=True, env=env, check=True)
    for label, extra in (("", []), (", after the power-on self-test", ["--with-self-test"])):
        times = []
        for i in range(runs):
            db = workdir / f"cold-{len(extra)}-{i}.db"
            started = time.monotonic()
            out = subprocess.run([sys.executable, __file__, "--child-cold-start", str(db),
                                  *extra], capture_output=True, text=True, env=env,
                                 check=True).stdout
            ready = [line for line in out.splitlines() if line.startswith("ready ")]
            if not ready:
                raise RuntimeError(f"the console did not become ready: {out!r}")
            times.append(float(ready[0].split()[1]) - started)
        best, median = min(times), statistics.median(times)
        aim = "" if extra else f"   aim <= 0.8 s: {verdict(median, 0.8)}"
        print(f"cold start to an interactive table{label}, {runs} fresh "
              f"process{'es' if runs > 1 else ''}: best {best:.3f} s   "
              f"median {median:.3f} s{aim}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200,
                        help="deals timed from the shuffler to the screen (default 200)")
    parser.add_argument("--stall-rounds", type=int, default=100,
                        help="rounds played while the event loop is watched (default 100)")
    parser.add_argument("--starts", type=int, default=5, help="cold starts (default 5)")
    parser.add_argument("--opens", type=int, default=20,
                        help="supervisor's areas opened by a card (default 20)")
    parser.add_argument("--quick", action="store_true",
                        help="a short run: 20 deals, 10 rounds watched, 3 cold starts, "
                        "5 opens")
    parser.add_argument("--smoke", action="store_true",
                        help="the short form the test suite runs: 3 deals, 2 rounds, 1 start, "
                        "2 opens")
    parser.add_argument("--child-cold-start", metavar="DB", help=argparse.SUPPRESS)
    parser.add_argument("--with-self-test", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child_cold_start:
        return child_cold_start(args.child_cold_start, args.with_self_test)
    if args.quick:
        args.rounds, args.stall_rounds, args.starts, args.opens = 20, 10, 3, 5
    if args.smoke:
        args.rounds, args.stall_rounds, args.starts, args.opens = 3, 2, 1, 2
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from ui.application import application
    from ui.theme import apply_theme

    app = application()
    apply_theme(app)
    quiet_offscreen()
    print(f"dealer console, {PROFILE}, simulated devices on pseudo-terminals, "
          f"Qt platform {QApplication.platformName()}, load average "
          + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        bench_hands_to_screen(args.rounds, work)
        bench_stalls(args.stall_rounds, work)
        bench_cold_start(args.starts, work)
        bench_supervisor_opens(args.opens, work)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

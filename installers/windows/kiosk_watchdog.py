"""The Windows kiosk's keeper, in place of systemd's ``Restart=always`` and ``WatchdogSec``:
starts the console, starts it again 3 s after it ends (at most 10 starts in 10 minutes, as
the Linux unit), and kills and restarts it when it stops answering for 30 s. Past the limit
it stops, logs why and shows it on the screen, and exits 1 (the console cannot start: a
technician must look). Every start, end, hang and the giving up is a line in ``--log``.

    dealer-console-watchdog.exe --log FILE -- dealer-console-kiosk.exe gui ...

"Not answering" is asked of the system: on Windows, ``IsHungAppWindow`` on the program's
top-level windows (its window has not taken its messages for 5 s); elsewhere, the process
stopped (state ``T`` in ``/proc``, the test's stand-in for a frozen program). Exit status: 1
when it gave up, 2 on bad usage; it never ends otherwise.
"""

from __future__ import annotations

import argparse
import collections
import ctypes
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path


def hung_windows(pid: int) -> bool:  # pragma: no cover (Windows only; not run here)
    """A top-level window of ``pid`` that Windows says is not answering."""
    user32 = ctypes.windll.user32  # type: ignore[attr-defined]
    found: list[bool] = []
    proc = ctypes.WINFUNCTYPE(ctypes.c_bool, ctypes.c_void_p, ctypes.c_void_p)  # type: ignore[attr-defined]

    def each(hwnd: int, _: int) -> bool:
        owner = ctypes.c_ulong()
        user32.GetWindowThreadProcessId(hwnd, ctypes.byref(owner))
        if owner.value == pid and user32.IsWindowVisible(hwnd) and user32.IsHungAppWindow(hwnd):
            found.append(True)
        return True

    user32.EnumWindows(proc(each), 0)
    return bool(found)


def hung_posix(pid: int) -> bool:
    """The process is stopped (``T``): it runs no code, as a frozen window takes no messages."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] in ("T", "t")


def show(reason: str) -> None:
    """The reason on the screen (a message box on Windows) and on standard error."""
    print(reason, file=sys.stderr, flush=True)
    if sys.platform == "win32":  # pragma: no cover
        ctypes.windll.user32.MessageBoxW(None, reason, "Dealer Console", 0x10)  # type: ignore[attr-defined]


class Watchdog:
    def __init__(self, command: Sequence[str], log: Path, *, limit: int = 10,
                 window: float = 600.0, delay: float = 3.0, hang: float = 30.0,
                 is_hung: Callable[[int], bool] | None = None) -> None:
        self.command, self.log_path = list(command), log
        self.limit, self.window, self.delay, self.hang = limit, window, delay, hang
        self.is_hung = is_hung or (hung_windows if sys.platform == "win32" else hung_posix)
        self.starts: collections.deque[float] = collections.deque()

    def log(self, text: str) -> None:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("a", encoding="utf-8") as out:
            out.write(f"{datetime.now(UTC):%Y-%m-%dT%H:%M:%SZ} {text}\n")

    def run(self) -> int:
        while True:
            now = time.monotonic()
            while self.starts and now - self.starts[0] > self.window:
                self.starts.popleft()
            if len(self.starts) >= self.limit:
                reason = (f"Table closed: the console was started {self.limit} times in "
                          f"{self.window:g} s and keeps ending; see {self.log_path}")
                self.log("GAVE UP: " + reason)
                show(reason)
                return 1
            self.starts.append(now)
            self.log(f"START {subprocess.list2cmdline(self.command)}")
            self.log(self.keep(subprocess.Popen(self.command)))
            time.sleep(self.delay)

    def keep(self, child: subprocess.Popen[bytes]) -> str:
        """Wait for ``child`` to end, killing it once it has not answered for ``hang`` s."""
        since: float | None = None
        while child.poll() is None:
            if self.is_hung(child.pid):
                since = since if since is not None else time.monotonic()
                if time.monotonic() - since >= self.hang:
                    child.kill()
                    child.wait()
                    return f"HUNG: killed pid {child.pid} after {self.hang:g} s not answering"
            else:
                since = None
            time.sleep(0.2)
        return f"ENDED: pid {child.pid} exit code {child.returncode}"


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="dealer-console-watchdog")
    parser.add_argument("--log", type=Path, required=True)
    parser.add_argument("--limit", type=int, default=10)
    parser.add_argument("--window", type=float, default=600.0)
    parser.add_argument("--delay", type=float, default=3.0)
    parser.add_argument("--hang", type=float, default=30.0)
    parser.add_argument("command", nargs="+")
    args = parser.parse_args(argv)
    if args.limit < 1 or min(args.window, args.delay, args.hang) < 0:
        parser.error("--limit must be at least 1 and the times not negative")
    return Watchdog(args.command, args.log, limit=args.limit, window=args.window,
                    delay=args.delay, hang=args.hang).run()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

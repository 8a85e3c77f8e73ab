"""The installed console starts full screen under the kiosk set-up, as the systemd unit starts
it, minus systemd itself (a container has no systemd as PID 1): the unit's service user, sway
with the installed ``sway.conf``, the installed kiosk script, the environment of the installed
``console.env``, and a ``NOTIFY_SOCKET`` the test reads in place of systemd's.

Proven: ``READY=1`` after the power-on self-test, then ``WATCHDOG=1`` pings from the GUI
thread's timer; the "Dealer Console" window full screen on the dealer's output (sway's tree);
a second output plugged in (the table's monitor) gets the meter display full screen while the
dealer's window stays full screen on its own; and when the console dies, sway exits, so the
unit's ``Restart=always`` starts it all again.

What differs from a table PC, each substituted in a copy the test makes: sway runs headless
(``WLR_BACKENDS=headless``, no screen here) with output names ``HEADLESS-1``/``-2`` for the
table's ``HDMI-A-1``/``-2``; paths point into the throwaway root (the package installed
there by dpkg), the launcher started by its interpreter (its first line names ``/opt``);
and the console is started
with ``--simulated`` devices instead of ``--devices /etc/dealer-console/devices.toml`` (no
shuffler is wired to this machine; the self-test with the real file is tested in
``test_linux_install.py``)."""

from __future__ import annotations

import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.installers.conftest import dpkg, launch, new_root

USER = "dc-kiosk-test"

# one system user for the module's kiosks, made and removed by each test: one worker runs them
pytestmark = pytest.mark.xdist_group("kiosk-user")
WATCHDOG_USEC = 2_000_000
"""A short watchdog, so a ping shows within a second (the unit says 30 s)."""


def _missing() -> str | None:
    for tool in ("sway", "swaymsg", "runuser", "useradd", "dpkg-deb"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (installers/setup-dev.sh installs sway)"
    if os.geteuid() != 0:
        return "creating the kiosk's service user needs root (CI runs as root)"
    return None


@pytest.fixture
def service_user() -> Iterator[pwd.struct_passwd]:
    """An unprivileged user like the unit's ``dealer-console`` (sway refuses root)."""
    why = _missing()
    if why is not None:
        pytest.skip(why)
    made = False
    try:
        pwd.getpwnam(USER)
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "--shell",
                        "/usr/sbin/nologin", USER], check=True, timeout=30)
        made = True
    try:
        yield pwd.getpwnam(USER)
    finally:
        subprocess.run(["pkill", "-KILL", "-u", USER], timeout=30, check=False)
        if made:
            subprocess.run(["userdel", USER], timeout=30, check=False)


def _rerooted(text: str, root: Path) -> str:
    for path in ("/opt/dealer-console", "/etc/dealer-console", "/var/lib/dealer-console",
                 "/var/log/dealer-console"):
        text = text.replace(path, f"{root}{path}")
    return text


def _console_env(root: Path) -> dict[str, str]:
    out = {}
    for line in (root / "etc/dealer-console/console.env").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            key, _, value = line.partition("=")
            out[key.strip()] = _rerooted(value.strip(), root)
    return out


def _datagrams(sock: socket.socket, until: str, timeout: float,
               alive: subprocess.Popen[bytes]) -> list[str]:
    """What the console told the notify socket, until ``until`` (or the time is up, or the
    process ``alive`` ended)."""
    got: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        sock.settimeout(1.0)
        try:
            got.append(sock.recv(4096).decode())
        except TimeoutError:
            if alive.poll() is not None:
                break
            continue
        if any(until in g for g in got):
            break
    return got


def _tree(ipc: Path) -> dict[str, object]:
    """sway's tree of outputs and windows, asked as the service user over its socket."""
    tree: dict[str, object] = json.loads(subprocess.run(
        ["swaymsg", "-s", str(ipc), "-t", "get_tree", "-r"], capture_output=True, text=True,
        check=True, timeout=30, user=USER).stdout)
    return tree


def _windows(tree: dict[str, object]) -> Iterator[tuple[str, dict[str, object]]]:
    """(output name, node) of every window in sway's tree."""
    def walk(node: dict[str, object], output: str) -> Iterator[tuple[str, dict[str, object]]]:
        if node.get("type") == "output":
            output = str(node.get("name"))
        if node.get("pid") is not None:
            yield output, node
        for key in ("nodes", "floating_nodes"):
            for child in node.get(key, []) or []:  # type: ignore[attr-defined]
                yield from walk(child, output)
    yield from walk(tree, "")


def _kiosk(work: Path, deb: Path, service_user: pwd.struct_passwd,
           environ: dict[str, str | None] | None = None,
           tamper: Callable[[Path], object] | None = None
           ) -> tuple[Path, socket.socket, subprocess.Popen[bytes]]:
    """The package installed by dpkg in ``work/root`` as on a table PC, and sway started as
    the unit would start it (``environ`` changes the unit's environment; ``tamper`` is done
    to the installed root first): the runtime folder, the notify socket and sway."""
    root = new_root(work / "root")
    root.chmod(0o755)
    dpkg(root, "-i", str(deb))
    # the table's database started by an executive (docs/install.md, step 6): here the
    # simulated table's executive, whose card (public test data) then puts on file the
    # rest of the simulated staff the --simulated console expects
    subprocess.run([*launch(root / "opt/dealer-console/current/bin/dealer-console", root),
                    "table-db", "new", "--db", str(root / "var/lib/dealer-console/table.db"),
                    "--anchor", str(root / "etc/dealer-console/table-db.anchor"), "SIM-X1",
                    "Sim Executive"], input=";5000200000001=2912?\n", text=True,
                   check=True, capture_output=True, timeout=120)
    # the package's install step again, as on an update, with the service user (a live
    # install's own): the backup and the migrations run as that user, who then owns the data
    subprocess.run(["bash", str(root / "usr/share/dealer-console/install.sh"), "--root",
                    str(root), "--as-user", USER], check=True, capture_output=True, timeout=300)
    uid, gid = service_user.pw_uid, service_user.pw_gid
    if tamper is not None:
        tamper(root)
    runtime = work / "run"
    runtime.mkdir(mode=0o700)
    os.chown(runtime, uid, gid)
    kiosk = work / "dealer-console-kiosk"
    installed = (root / "opt/dealer-console/current/bin/dealer-console-kiosk").read_text()
    assert '--devices /etc/dealer-console/devices.toml' in installed
    current = root / "opt/dealer-console/current/bin"
    kiosk.write_text(_rerooted(installed.replace(
        "--devices /etc/dealer-console/devices.toml", "--simulated"), root).replace(
        f"{current}/dealer-console gui",  # the launcher's first line names /opt
        f"{current}/python -BIS {current}/dealer-console gui"))
    kiosk.chmod(0o755)
    conf = (root / "etc/dealer-console/sway.conf").read_text()
    assert "set $dealer HDMI-A-1" in conf and "exec /opt/dealer-console/current/bin/" \
        "dealer-console-kiosk" in conf
    conf = conf.replace("HDMI-A-1", "HEADLESS-1").replace("HDMI-A-2", "HEADLESS-2")
    conf = conf.replace("exec /opt/dealer-console/current/bin/dealer-console-kiosk",
                        f"exec {kiosk}")
    (work / "sway.conf").write_text("output HEADLESS-1 resolution 1280x800\n" + conf)
    notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify.bind(str(work / "notify"))
    (work / "notify").chmod(0o777)
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(work),
           "XDG_RUNTIME_DIR": str(runtime), "WLR_BACKENDS": "headless",
           "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman",
           "NOTIFY_SOCKET": str(work / "notify"), "WATCHDOG_USEC": str(WATCHDOG_USEC),
           # as the unit's Environment= line
           "XDG_SESSION_TYPE": "wayland", "QT_QPA_PLATFORM": "wayland",
           **_console_env(root)}
    merged: dict[str, str | None] = {**env, **(environ or {})}
    sway = subprocess.Popen(
        ["runuser", "-u", USER, "--", "env", "-i",
         *(f"{k}={v}" for k, v in merged.items() if v is not None), "sway", "--config",
         str(work / "sway.conf")], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        start_new_session=True)
    return runtime, notify, sway


def test_the_installed_console_starts_full_screen_under_the_kiosk(
        deb: Path, service_user: pwd.struct_passwd) -> None:
    work = Path(tempfile.mkdtemp(prefix="kiosk-"))  # the service user must reach it
    work.chmod(0o755)
    sway = None
    try:
        runtime, notify, sway = _kiosk(work, deb, service_user)
        # the install step's backup was written by the service user, not root
        [backup] = (work / "root/var/lib/dealer-console/backups").glob("table-before-*.db")
        assert backup.stat().st_uid == service_user.pw_uid
        told = _datagrams(notify, "READY=1", 120, sway)
        assert any("READY=1" in t for t in told), (told, _stderr(sway))
        ready = next(t for t in told if "READY=1" in t)
        assert "STATUS=table open: washington-face-up" in ready
        # pings keep coming from the timer (every WATCHDOG_USEC / 2), not one message only
        for _ping in range(2):
            pings = _datagrams(notify, "WATCHDOG=1", 10, sway)
            assert any("WATCHDOG=1" in t for t in pings), (pings, _stderr(sway))

        ipc = next(runtime.glob("sway-ipc.*.sock"))
        tree = _tree(ipc)
        dealer = [(out, node) for out, node in _windows(tree)
                  if str(node.get("name", "")).startswith("Dealer Console")]
        assert len(dealer) == 1, [n.get("name") for _o, n in _windows(tree)]
        output, node = dealer[0]
        assert output == "HEADLESS-1"
        assert node.get("fullscreen_mode") == 1
        rect = node["rect"]
        assert isinstance(rect, dict) and (rect["width"], rect["height"]) == (1280, 800)
        _picture(ipc)
        # the table's monitor plugged in: the meter display goes full screen on it
        subprocess.run(["swaymsg", "-s", str(ipc), "create_output"], check=True, timeout=30,
                       user=USER, capture_output=True)
        deadline = time.monotonic() + 30
        while not any(out == "HEADLESS-2" and node.get("fullscreen_mode") == 1
                      and str(node.get("name", "")).startswith("Jackpot meters")
                      for out, node in _windows(_tree(ipc))):
            assert time.monotonic() < deadline, [
                (o, n.get("name"), n.get("fullscreen_mode")) for o, n in _windows(_tree(ipc))]
            time.sleep(0.2)
        assert [n.get("fullscreen_mode") for _o, n in _windows(_tree(ipc))
                if str(n.get("name", "")).startswith("Dealer Console")] == [1]

        # the console dies: the kiosk script ends sway, and the unit would start again
        console_pid = int(str(node["pid"]))
        os.kill(console_pid, signal.SIGKILL)
        assert sway.wait(timeout=30) is not None
    finally:
        if sway is not None and sway.poll() is None:
            os.killpg(sway.pid, signal.SIGKILL)
            sway.wait(timeout=30)
        shutil.rmtree(work, ignore_errors=True)


def _stderr(proc: subprocess.Popen[bytes]) -> str:
    if proc.poll() is None or proc.stderr is None:
        return "(sway still running)"
    return proc.stderr.read().decode(errors="replace")[-6000:]


def _picture(ipc: Path) -> None:
    """The headless output as the dealer would see it (grim, where installed), kept with the
    other pictures."""
    if shutil.which("grim") is None:
        return
    shot = ipc.parent / "kiosk.png"  # the service user's own runtime folder
    done = subprocess.run(["grim", "-o", "HEADLESS-1", str(shot)], capture_output=True,
                          timeout=30, user=USER, cwd=ipc.parent,
                          env={"XDG_RUNTIME_DIR": str(ipc.parent), "WAYLAND_DISPLAY":
                               _wayland_display(ipc.parent)})
    if done.returncode == 0 and shot.exists():
        target = Path(__file__).resolve().parents[2] / "docs/screenshots"
        shutil.copyfile(shot, target / "kiosk-headless-1280x800.png")


def _wayland_display(runtime: Path) -> str:
    return next(p.name for p in runtime.glob("wayland-*") if not p.name.endswith(".lock"))


def _swaynag(until: float) -> str:
    """The service user's swaynag command lines, once one runs (or the time is up). The kiosk
    starts it in the background just before it tells systemd, so on a loaded machine the first
    ping can come before swaynag has started."""
    while True:
        nag = subprocess.run(["pgrep", "-u", USER, "-a", "swaynag"], capture_output=True,
                             text=True, timeout=30)
        if nag.stdout or time.monotonic() > until:
            return nag.stdout
        time.sleep(0.2)


def _plant(marks: Path) -> Callable[[Path], object]:
    """A module dropped into the release where an import finds it (sqlite-utils imports
    ``sqlite_dump`` when it is there), which would leave a mark and remove itself."""
    def plant(root: Path) -> None:
        site = next((root / "opt/dealer-console/releases").glob("*/lib/python3.11/site-packages"))
        (site / "sqlite_dump.py").write_text(
            f"import os, pathlib\npathlib.Path({str(marks / 'ran')!r}).write_text('ran')\n"
            "os.remove(__file__)\niterdump = None\n")
    return plant


@pytest.mark.parametrize(("profile", "reason"), [
    ("washington-face-upp", "unknown profile 'washington-face-upp'"),
    (None, "DEALER_CONSOLE_PROFILE is not set"),
])
def test_a_console_that_cannot_start_shows_why_and_is_not_restarted(
        deb: Path, service_user: pwd.struct_passwd, profile: str | None, reason: str) -> None:
    """A profile typo, or no profile at all: the reason on the screen (swaynag over the
    kiosk), told to systemd as the unit's status, and the kiosk kept up answering the
    watchdog, so the unit does not restart it every few seconds on a black screen."""
    work = Path(tempfile.mkdtemp(prefix="kiosk-"))
    work.chmod(0o755)
    sway = None
    try:
        _runtime, notify, sway = _kiosk(work, deb, service_user,
                                        {"DEALER_CONSOLE_PROFILE": profile})
        told = _datagrams(notify, "READY=1", 120, sway)
        ready = [t for t in told if "READY=1" in t]
        assert ready, (told, _stderr(sway))
        assert "STATUS=table closed: " in ready[0] and reason in ready[0]
        pings = _datagrams(notify, "WATCHDOG=1", 30, sway)
        assert any("WATCHDOG=1" in t for t in pings), (pings, _stderr(sway))
        assert sway.poll() is None  # the kiosk stays up: no restart
        shown = _swaynag(until=time.monotonic() + 30)
        assert "Table closed: the console cannot start: " in shown
        assert reason in shown
    finally:
        if sway is not None and sway.poll() is None:
            os.killpg(sway.pid, signal.SIGKILL)
            sway.wait(timeout=30)
        shutil.rmtree(work, ignore_errors=True)


def test_code_dropped_into_the_release_never_runs_and_the_table_stays_closed(
        deb: Path, service_user: pwd.struct_passwd) -> None:
    """The launcher holds the release to its manifest before any of its packages is on the
    path: the dropped module never runs (it would have removed itself before the self-test
    looked), the screen and systemd say why, and the self-test log keeps it."""
    work = Path(tempfile.mkdtemp(prefix="kiosk-"))
    work.chmod(0o755)
    marks = work / "marks"
    marks.mkdir(mode=0o777)
    marks.chmod(0o777)  # the service user's module could write here
    sway = None
    try:
        _runtime, notify, sway = _kiosk(work, deb, service_user, tamper=_plant(marks))
        told = _datagrams(notify, "READY=1", 120, sway)
        ready = [t for t in told if "READY=1" in t]
        assert ready, (told, _stderr(sway))
        reason = "program: not in the manifest: lib/python3.11/site-packages/sqlite_dump.py"
        assert "STATUS=table closed: self-test failed, table not opened: " + reason in ready[0]
        assert reason in _swaynag(until=time.monotonic() + 30)
        assert not (marks / "ran").exists()
        log = work / "root/var/log/dealer-console/self-test.log"
        assert "FAIL  program: not in the manifest: lib/python3.11/site-packages/" \
            "sqlite_dump.py" in log.read_text()
    finally:
        if sway is not None and sway.poll() is None:
            os.killpg(sway.pid, signal.SIGKILL)
            sway.wait(timeout=30)
        shutil.rmtree(work, ignore_errors=True)

"""The system files the installer puts on a table PC, each checked by the tool that reads
it where that tool is here: the unit by ``systemd-analyze verify``, the kiosk's sway config by
``sway --validate``, the udev rules by a parser of their syntax (and ``udevadm verify`` where
a udev new enough to have it is installed)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import tomllib
from pathlib import Path

import pytest

from tests.installers.conftest import LINUX

FILES = LINUX / "files"
SERVICE_USER = "dealer-console"


def _verify(unit: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True,
                          text=True, timeout=120)


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not installed here (it comes with systemd)")
def test_the_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    if not Path("/usr/bin/sway").exists():
        pytest.skip("sway is not installed (installers/setup-dev.sh installs it); verify "
                    "needs the program the unit starts")
    unit = FILES / "dealer-console.service"
    done = _verify(unit)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    # the same check does catch a mistake: a mistyped service type is reported
    broken = tmp_path / "dealer-console.service"
    broken.write_text(unit.read_text().replace("Type=notify", "Type=notfy"))
    assert "Failed to parse service type" in _verify(broken).stderr


def test_the_unit_restarts_pings_and_keeps_the_screen_its_own() -> None:
    settings = dict(line.split("=", 1) for line in
                    (FILES / "dealer-console.service").read_text().splitlines()
                    if "=" in line and not line.startswith("#"))
    assert settings["Type"] == "notify" and settings["NotifyAccess"] == "all"
    assert settings["Restart"] == "always"
    assert int(settings["WatchdogSec"].rstrip("s")) >= 10
    assert settings["User"] == SERVICE_USER
    assert settings["ExecStart"].startswith("/usr/bin/sway --config /etc/dealer-console/")


def _as_unprivileged() -> list[str]:
    """sway refuses to run as root: the check runs as nobody then."""
    if os.geteuid() != 0:
        return []
    return ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]


@pytest.mark.skipif(shutil.which("sway") is None,
                    reason="sway is not installed (installers/setup-dev.sh installs it)")
def test_the_kiosk_config_passes_sway_validate() -> None:
    # a folder the unprivileged user can reach (pytest's own are the owner's only)
    with tempfile.TemporaryDirectory(prefix="sway-check-") as folder:
        _validate_in(Path(folder))


def _validate_in(tmp_path: Path) -> None:
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    config = tmp_path / "sway.conf"
    shutil.copy(FILES / "sway.conf", config)
    bad = tmp_path / "bad.conf"
    bad.write_text(config.read_text() + "output * blank_never yes\n")
    if os.geteuid() == 0:
        os.chown(runtime, 65534, -1)
        tmp_path.chmod(0o755)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_RUNTIME_DIR": str(runtime),
           "WLR_BACKENDS": "headless", "WLR_LIBINPUT_NO_DEVICES": "1",
           "WLR_RENDERER": "pixman"}

    def validate(path: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*_as_unprivileged(), "sway", "--validate", "--config",
                               str(path)], capture_output=True, text=True, timeout=60, env=env)

    done = validate(config)
    assert done.returncode == 0, done.stderr
    assert validate(bad).returncode != 0  # an unknown setting is caught


# -- udev ---------------------------------------------------------------------------------------

_PAIR = re.compile(r'\s*([A-Za-z_]+(?:\{[^}]+\})?)\s*(==|!=|\+=|-=|:=|=)\s*"([^"]*)"\s*(?:,|$)')
_MATCH_KEYS = {"SUBSYSTEM", "KERNEL", "ACTION", "DRIVERS", "SUBSYSTEMS"}
_ASSIGN_KEYS = {"SYMLINK", "OWNER", "GROUP", "MODE", "TAG", "RUN"}


def parse_rules(text: str) -> list[list[tuple[str, str, str]]]:
    """Each rule as ``(key, operator, value)``; a line that is not valid udev syntax, a match
    with ``=`` or an assignment with ``==`` is an AssertionError naming the line."""
    rules = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        pairs: list[tuple[str, str, str]] = []
        pos = 0
        while pos < len(line):
            found = _PAIR.match(line, pos)
            assert found, f"line {n}: not udev syntax at {line[pos:]!r}"
            key, op, value = found.groups()
            base = key.split("{")[0]
            if base in _MATCH_KEYS or (base in {"ENV", "ATTR", "ATTRS"} and op in ("==", "!=")):
                assert op in ("==", "!="), f"line {n}: {key} is a match, use =="
            elif base in _ASSIGN_KEYS:
                assert op in ("=", "+=", ":="), f"line {n}: {key} is an assignment"
            pairs.append((key, op, value))
            pos = found.end()
        rules.append(pairs)
    return rules


def test_the_udev_rules_name_each_device_for_the_service_user_only() -> None:
    rules = parse_rules((FILES / "70-dealer-console.rules").read_text())
    by_link = {dict((k, v) for k, _op, v in rule)["SYMLINK"]: dict((k, v) for k, _op, v in rule)
               for rule in rules}
    assert set(by_link) == {"dealer-console/shuffler", "dealer-console/bet-sensors",
                            "dealer-console/keypad"}
    for link, rule in by_link.items():
        assert rule["OWNER"] == SERVICE_USER and rule["GROUP"] == SERVICE_USER, link
        assert rule["MODE"] == "0600", link
        ids = [k for k in rule if "VENDOR" in k.upper() or "idVendor" in k]
        serials = [k for k in rule if "SERIAL" in k.upper() or k == "ATTR{serial}"]
        assert ids and serials, f"{link}: matched by vendor and serial number"
    # devices.toml uses the names the rules make
    devices = tomllib.loads((FILES / "devices.toml").read_text())
    assert devices["shuffler"]["port"] == "/dev/dealer-console/shuffler"
    assert devices["bet_sensors"]["port"] == "/dev/dealer-console/bet-sensors"
    vendor = f"{devices['keypad']['vendor_id']:04x}"
    assert by_link["dealer-console/keypad"]["ATTR{idVendor}"] == vendor


def test_the_udev_parser_catches_a_broken_rule() -> None:
    with pytest.raises(AssertionError, match="line 1"):
        parse_rules('SUBSYSTEM="tty", SYMLINK+="x"\n')
    with pytest.raises(AssertionError, match="not udev syntax"):
        parse_rules('SUBSYSTEM=="tty" SYMLINK+="x" oops\n')


def _udevadm_has_verify() -> bool:
    """``udevadm verify`` came with systemd 253; Debian 12's udev (252) lacks it, so its
    presence is asked of the tool rather than assumed from ``udevadm`` being installed."""
    if shutil.which("udevadm") is None:
        return False
    done = subprocess.run(["udevadm", "--help"], capture_output=True, text=True, timeout=60)
    return re.search(r"^\s*verify\b", done.stdout, re.MULTILINE) is not None


@pytest.mark.skipif(not _udevadm_has_verify(),
                    reason="udevadm with 'verify' (systemd 253 or newer) is not installed here")
def test_the_udev_rules_pass_udevadm_verify() -> None:
    done = subprocess.run(["udevadm", "verify", str(FILES / "70-dealer-console.rules")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def test_no_key_leaves_the_kiosk_and_no_login_console_runs() -> None:
    """Ctrl+Alt+F1-F12 stay plain F-keys (xkb's ``srvrkeys:none``: the F-keys' types lose the
    levels that switch virtual terminals), the kiosk binds no key, logind starts no getty and
    ignores the power, suspend and reboot keys."""
    sway = (FILES / "sway.conf").read_text()
    assert "input type:keyboard xkb_options srvrkeys:none" in sway
    rules = Path("/usr/share/X11/xkb/rules/evdev")
    if rules.exists():  # the option is xkb's, and it maps the F-keys to plain F-keys
        assert "srvrkeys:none\t\t=\t+srvr_ctrl(no_srvr_keys)" in rules.read_text()
        symbols = Path("/usr/share/X11/xkb/symbols/srvr_ctrl").read_text()
        plain = symbols.split('xkb_symbols "no_srvr_keys"', 1)[1].split("};\n};", 1)[0]
        for n in range(1, 13):
            assert f"key <FK{n:02d}> {{ [ F{n}, F{n} ]" in plain
    lines = [x.strip() for x in sway.splitlines() if x.strip() and not x.startswith("#")]
    assert not [x for x in lines if x.split()[0] in ("bindsym", "bindcode", "bindswitch",
                                                       "mode", "bar", "swaynag_command")]
    logind = (FILES / "logind.conf").read_text()
    for setting in ("NAutoVTs=0", "ReserveVT=0", "HandlePowerKey=ignore",
                    "HandleRebootKey=ignore", "HandleSuspendKey=ignore"):
        assert setting in logind.splitlines()


def test_the_clock_keeps_to_the_casinos_time_servers_only() -> None:
    timesync = (FILES / "timesyncd.conf").read_text().splitlines()
    assert "FallbackNTP=" in timesync  # no public pool behind the casino's servers
    assert any(x.startswith("NTP=") and len(x) > 4 for x in timesync)
    unit = (FILES / "dealer-console.service").read_text()
    assert "After=" in unit and "time-sync.target" in unit
    install = (FILES.parent / "install.sh").read_text()
    assert "systemctl enable systemd-time-wait-sync.service" in install


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not installed here (it comes with systemd)")
def test_the_units_sandbox_rates_3_or_lower() -> None:
    """``systemd-analyze security`` on the unit file (offline: no systemd running here). What
    the sandbox does to the kiosk on a real boot is not run here (a container has no systemd
    as its first process)."""
    done = subprocess.run(["systemd-analyze", "security", "--offline=true",
                           str(FILES / "dealer-console.service")], capture_output=True,
                          text=True, timeout=120)
    found = re.search(r"Overall exposure level for dealer-console.service: (\d+\.\d)",
                      done.stdout + done.stderr)
    assert found, done.stdout + done.stderr
    assert float(found.group(1)) <= 3.0
    assert "CapabilityBoundingSet=\n" in (FILES / "dealer-console.service").read_text()
    install = (FILES.parent / "install.sh").read_text()
    assert "for group in input video render; do" in install  # no dialout, no plugdev


def test_console_env_takes_the_tables_own_settings_and_nothing_else(tmp_path: Path) -> None:
    """A linked table names itself and its link in console.env (docs/link.md), a casino sets
    its idle lock and printer: those pass the self-test's system-files item; a variable that
    could load other code, or a setting with a value that is not plain, fails it."""
    from dealer_console.selftest.system_files import _differs, _env

    shipped = LINUX / "files" / "console.env"
    table = tmp_path / "console.env"
    base = shipped.read_text("utf-8").replace("DEALER_CONSOLE_PROFILE=washington-face-up",
                                             "DEALER_CONSOLE_PROFILE=washington-linked")
    table.write_text(base + 'DEALER_CONSOLE_TABLE_ID=pit1-t3\nDEALER_CONSOLE_LINK_DSN="host='
                     'jackpot-db.cardroom port=5432 dbname=jackpot user=table-pit1-t3 passfile'
                     '=/etc/dealer-console/link.pgpass sslmode=verify-full"\n'
                     "DEALER_CONSOLE_IDLE_LOCK=180\nDEALER_CONSOLE_PRINTER=pit-1\n"
                     "DEALER_CONSOLE_AUDIT_EVERY_MINUTES=30\n", "utf-8")
    assert _differs(table, shipped, _env, subset=False) is None
    for bad in ("LD_PRELOAD=/tmp/x.so", "PYTHONPATH=/tmp", "DEALER_CONSOLE_TABLE_ID=a;b",
                'DEALER_CONSOLE_LINK_DSN="host=x" LD_PRELOAD=/tmp/x.so'):
        table.write_text(base + bad + "\n", "utf-8")
        found = _differs(table, shipped, _env, subset=False)
        assert found is not None and "is not in the shipped file" in found, bad

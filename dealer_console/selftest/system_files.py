"""The system files that start and configure the console on a table PC, held to the copies
the release carries (``<release>/system``, themselves in the manifest):

- the unit: the package's own in ``/usr/lib/systemd/system``; any override in ``/etc`` or
  ``/run`` (a unit file or a drop-in) could start something else, so it is a failure;
- ``/etc/dealer-console/sway.conf``: as shipped but for the two output names and ``output``
  settings (resolution, rotation); a key binding or an ``exec`` is a way out of the kiosk;
- the udev rules: as shipped but for each device's USB ids and serial number (a device's
  rule may be left out); a ``RUN`` or ``PROGRAM`` would run a program as root;
- ``/etc/dealer-console/console.env``: as shipped but for the profile's name and the
  table's own settings the console reads (its name on the links, the link's address, the
  idle lock, the printer, the audit's interval), each with a plain value; any other added
  variable (``LD_PRELOAD``, ``PYTHONPATH``) could load other code.

These are the files a technician edits, so they cannot be held to one digest: each is held
to its shipped form with only the table's own values free."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from dealer_console.selftest.report import Report

_NAME = r"[A-Za-z0-9_.:-]+"
_SWAY_SET = re.compile(rf"^set \$(dealer|meters) {_NAME}$")
_SWAY_OUTPUT = re.compile(r"^output [A-Za-z0-9*_.-]+( [A-Za-z0-9#@._+-]+)+$")
_UDEV_VALUE = re.compile(r'(ENV\{ID_VENDOR_ID\}|ENV\{ID_MODEL_ID\}|ENV\{ID_SERIAL_SHORT\}|'
                         r'ATTR\{idVendor\}|ATTR\{idProduct\}|ATTR\{serial\})=="[A-Za-z0-9_.:-]*"')
_PROFILE = re.compile(r"^DEALER_CONSOLE_PROFILE=([A-Za-z0-9_.-]{1,64}|/[A-Za-z0-9_./-]+\.toml)$")
UNIT = "dealer-console.service"


def _lines(text: str) -> list[tuple[int, str]]:
    return [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1)
            if line.strip() and not line.lstrip().startswith("#")]


def _sway(line: str) -> str | None:
    """The line with the table's own values taken out (None: an output setting, free)."""
    if _SWAY_OUTPUT.match(line):
        return None
    match = _SWAY_SET.match(line)
    return f"set ${match.group(1)} *" if match else line


def _udev(line: str) -> str:
    return _UDEV_VALUE.sub(r'\1=="*"', line)


_TABLE_SETTINGS = re.compile(
    r'^DEALER_CONSOLE_(TABLE_ID=[A-Za-z0-9_.-]{1,64}'
    r'|LINK_DSN="?[A-Za-z0-9 =._:/@,-]{1,400}"?'
    r'|IDLE_LOCK=[0-9]{1,4}|AUDIT_EVERY_MINUTES=[0-9]{1,5}|STAFF=casino'
    r'|PRINTER="?[A-Za-z0-9 _.-]{1,64}"?)$')
"""Settings a table adds to its console.env (``docs/link.md``, ``docs/supervisor.md``,
``docs/jackpot.md``, ``docs/pit.md``): plain values only, no way to name code to load."""


def _env(line: str) -> str | None:
    """The line with the table's own values taken out (None: a table's setting, free)."""
    if _TABLE_SETTINGS.match(line):
        return None
    return "DEALER_CONSOLE_PROFILE=*" if _PROFILE.match(line) else line


def _differs(installed: Path, shipped: Path, norm: Callable[[str], str | None], *,
             subset: bool) -> str | None:
    """Where ``installed`` departs from ``shipped`` with the free values taken out: its
    first line that is not shipped, or the first shipped line it lacks; None if it holds."""
    try:
        have = [(n, norm(line)) for n, line in _lines(installed.read_text("utf-8"))]
    except (OSError, UnicodeDecodeError) as exc:
        return f"{installed}: cannot be read ({exc})"
    want = [w for w in (norm(line) for _n, line in _lines(shipped.read_text("utf-8")))
            if w is not None]
    kept = [(n, h) for n, h in have if h is not None]
    for n, line in kept:
        if line not in want:
            original = installed.read_text("utf-8").splitlines()[n - 1].strip()
            return f"{installed} line {n}: {original[:80]!r} is not in the shipped file"
    if not subset and [h for _n, h in kept] != want:
        lacking = next((w for w in want if w not in [h for _n, h in kept]), None)
        return (f"{installed}: lacks the shipped line {lacking!r}" if lacking else
                f"{installed}: its lines are not in the shipped order")
    return None


def check_system_files(report: Report, root: Path, release_dir: Path) -> None:
    """Add the ``system files`` item (an installed table PC only)."""
    shipped = release_dir / "system"
    problems: list[str] = []
    for folder in ("etc/systemd/system", "run/systemd/system"):
        for override in (root / folder / UNIT, root / folder / f"{UNIT}.d"):
            if override.exists() or override.is_symlink():
                problems.append(f"/{folder}/{override.name} overrides the package's unit")
    etc = root / "etc"
    for installed, reference, norm, subset in (
            (etc / "dealer-console/sway.conf", shipped / "sway.conf", _sway, False),
            (etc / "udev/rules.d/70-dealer-console.rules", shipped / "70-dealer-console.rules",
             _udev, True),
            (etc / "dealer-console/console.env", shipped / "console.env", _env, False)):
        if not installed.is_file():
            problems.append(f"{installed}: missing (reinstall the package)")
            continue
        found = _differs(installed, reference, norm, subset=subset)
        if found is not None:
            problems.append(found)
    if problems:
        report.add("system files", False, "; ".join(problems))
    else:
        report.add("system files", True, "the unit as shipped; sway.conf, the udev rules and "
                                         "console.env as shipped but for the table's own values")

"""Running every item of the self-test in order. The devices are checked by a probe the
caller passes in (``drivers.selftest_probe``): this package never imports the drivers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from dealer_console import program_info
from dealer_console.devices.config import DevicesConfig
from dealer_console.selftest.clock import clock_note
from dealer_console.selftest.configuration import (
    check_devices_file,
    check_paytables,
    check_profile,
)
from dealer_console.selftest.database import check_database
from dealer_console.selftest.integrity import check_program
from dealer_console.selftest.program_files import release_dir_of, system_root_of
from dealer_console.selftest.report import Report
from dealer_console.selftest.system_files import check_system_files
from dealer_console.selftest.table_anchor import TableAnchorError, current, problem

DeviceProbe = Callable[[DevicesConfig], list[tuple[str, bool, str]]]
"""Starts each configured device's driver and returns ``(device, answered, detail)`` each."""


@dataclass(frozen=True, slots=True)
class SelfTestInput:
    profile: str
    db: Path
    devices: Path | None = None
    require_manifest: bool = False
    audit_key: bytes | None = None
    program_dir: Path = program_info.PROGRAM_DIR
    manifest: Path | None = None
    table_anchor: Path | None = None
    """The table database's anchor (``DEALER_CONSOLE_TABLE_ANCHOR``); None: not checked."""


def run_self_test(given: SelfTestInput, probe: DeviceProbe | None) -> Report:
    """Every item, each a pass/fail line; ``probe`` None leaves the devices unchecked (the
    simulated table starts its own doubles afterwards)."""
    report = Report()
    report.notes.append(f"dealer-console {program_info.version()}")
    manifest = check_program(report, given.program_dir,
                             given.manifest or program_info.manifest_path(),
                             require_manifest=given.require_manifest)
    release = release_dir_of(given.program_dir)
    root = system_root_of(release) if manifest is not None else None
    if root is not None:
        check_system_files(report, root, release)
        report.notes.append(clock_note())
    profile = check_profile(report, given.profile)
    if profile is not None:
        check_paytables(report, profile)
    devices = check_devices_file(report, given.devices)
    if given.table_anchor is not None:
        check_table_database(report, given.table_anchor, given.db)
    _unless_it_stops(report, "database", check_database, report, given.db, profile,
                     given.audit_key)
    if devices is not None and probe is not None:
        for name, answered, detail in probe(devices):
            report.add(f"device {name}", answered, detail)
    return report


def _unless_it_stops(report: Report, item: str, check: Callable[..., object],
                     *args: object) -> None:
    """Run ``check``; if it stops on something it did not expect, that is the item's failure,
    named, rather than a traceback. The checks read files anyone who can write the table's
    folder can shape: an outside review wrote one journal line that stopped the self-test
    with a traceback, which left no line in the self-test log and no screen saying why."""
    try:
        check(*args)
    except Exception as exc:  # any fault of a check is this item's failure
        report.add(item, False, f"the check stopped ({type(exc).__name__}: {exc}): keep the "
                                "table closed, run `dealer-console audit verify` and call "
                                "the technician")


def check_table_database(report: Report, anchor: Path, db: Path) -> None:
    """The ``table database`` item: the database is the one the anchor names."""
    try:
        found = problem(anchor, db)
        held = current(anchor)
    except TableAnchorError as exc:
        report.add("table database", False, str(exc))
        return
    if found is not None or held is None:
        report.add("table database", False, found or f"{anchor}: no anchor")
        return
    report.add("table database", True, f"the table's own ({held.act} {held.at} by {held.by})")

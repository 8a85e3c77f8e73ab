"""The self-test's result: one line per item checked, and how it is written to a log."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from dealer_console import clock
from dealer_console.storage.log_files import append_line


@dataclass(frozen=True, slots=True)
class Check:
    """One item: ``ok`` or not, and what was found (one line a technician can act on)."""

    item: str
    ok: bool
    detail: str

    def line(self) -> str:
        return f"{'PASS' if self.ok else 'FAIL'}  {self.item}: {self.detail}"


@dataclass(slots=True)
class Report:
    checks: list[Check] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(self, item: str, ok: bool, detail: str) -> Check:
        check = Check(item, ok, detail)
        self.checks.append(check)
        return check

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    @property
    def failures(self) -> list[Check]:
        return [c for c in self.checks if not c.ok]

    def lines(self) -> list[str]:
        verdict = ("SELF-TEST PASSED" if self.ok
                   else f"SELF-TEST FAILED ({len(self.failures)} of {len(self.checks)} items)")
        return [c.line() for c in self.checks] + [f"NOTE  {n}" for n in self.notes] + [verdict]

    def append_to_log(self, log: Path) -> None:
        """Add this result to the self-test log with the time (UTC) and force it to disk: a
        failed start must leave its reason behind even if the machine is switched off."""
        stamp = clock.stamp("seconds")
        append_line(log, "".join(f"{stamp} {line}\n" for line in self.lines()))

"""What a table tells the pit: one frozen value, sent whole on every change and as its
heartbeat (``reporter.py``), kept by the server as the table's one row."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class DeviceState:
    """One device as the pit needs it: its title, whether it works, what is wrong."""

    title: str
    ok: bool
    fault: str = ""

    def as_json(self) -> dict[str, object]:
        return {"title": self.title, "ok": self.ok, "fault": self.fault}

    @classmethod
    def from_json(cls, value: object) -> DeviceState:
        d = value if isinstance(value, dict) else {}
        return cls(str(d.get("title", "?")), bool(d.get("ok", False)), str(d.get("fault", "")))


@dataclass(frozen=True, slots=True)
class TableReport:
    """A table as it stands. Money in cents; ``table_id`` is filled in by the pit from the
    server's row (the server takes it from the table's login, never from the report)."""

    table_id: str
    phase: str
    round_id: int | None
    round_text: str
    """The round in a few words: the seats in play, the hands, what the dealer waits for."""
    table_open: bool
    """False: the table is closed (its self-test failed, or it was closed for play)."""
    self_test: str
    """``passed``, or what failed in the power-on self-test, in words."""
    devices: tuple[DeviceState, ...]
    link_state: str
    """``up``, ``none`` (the table plays no linked game), or why the link is down."""
    jackpots_waiting: int
    """Jackpot hands marked and waiting for a supervisor's or an executive's card."""
    drop_cents: int
    hold_cents: int
    events: tuple[str, ...] = ()
    """The table's recent events, newest first, in words (at most 20)."""

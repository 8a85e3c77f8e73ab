"""Who opened the supervisor's screens: the employee whose card was accepted, and when.

Every change made from these screens is logged with this employee (the swipe that opened the
area is in the swipe log); an action that needs a higher role asks for that card again."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from dealer_console.employees.registry import Employee


@dataclass(frozen=True, slots=True)
class Session:
    employee: Employee
    opened: float = field(default_factory=time.monotonic)

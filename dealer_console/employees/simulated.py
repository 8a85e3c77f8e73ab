"""The staff of a simulated table (``dealer-console simulate``), put on file the ordinary way.

The simulated table's cards are public test data, so its executive's card authorises the rest
of its staff through the same paths as at a real table: the one-time set-up makes the
executive, then each other employee is added on that executive's swipe. Nothing here bypasses
the authorisation, and the audit checks these staff events like any others.

Only for a simulated table's own database: on a table database whose first executive was set
up otherwise, the set-up refuses (and a real table must never hold a card whose data is public).
Not on the command line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sqlite_utils import Database

from dealer_console.employees import changes, pins
from dealer_console.employees.cardhash import DEFAULT_KDF, KdfParams
from dealer_console.employees.registry import RegistryError, Role, find

StaffCard = tuple[str, str, str, str]
"""``(employee id, name, role, track 2 data)``"""


def install_simulated_staff(db: Database, staff: Sequence[StaffCard], *, actor: str,
                            kdf: KdfParams = DEFAULT_KDF,
                            test_pins: Mapping[str, str] | None = None) -> None:
    """Put on file whoever of ``staff`` is missing (nothing when all are), and give each
    employee of ``test_pins`` who has no PIN yet theirs; one transaction.

    ``staff`` holds exactly one executive, whose card authorises the others."""
    executives = [s for s in staff if s[2] == Role.EXECUTIVE.value]
    if len(executives) != 1:
        raise RegistryError("a simulated table's staff needs exactly one executive")
    exec_id, exec_name, _role, exec_track = executives[0]
    with db.atomic():
        if find(db, exec_id) is None:
            changes.setup(db, exec_id, exec_name, exec_track, actor=actor, kdf=kdf)
        for emp_id, name, role, track in staff:
            if find(db, emp_id) is None:
                changes.add(db, exec_track, emp_id, name, Role(role), track, kdf=kdf)
        for emp_id, pin in (test_pins or {}).items():
            if not pins.has_pin(db, emp_id):
                pins.set_pin(db, exec_track, emp_id, pin, kdf=kdf)

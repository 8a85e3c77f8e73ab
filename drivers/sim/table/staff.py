"""The simulated table's staff: who they are on file, their test cards and PINs."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlite_utils import Database

from dealer_console.employees.cardhash import KdfParams
from dealer_console.employees.simulated import install_simulated_staff
from drivers.sim.table.choices import SIM_PINS, SIM_STAFF


def install_sim_staff(db: Database) -> None:
    """The simulated table's staff and their public test cards, put on file through the
    ordinary set-up and an executive's swipe (a cheaper key derivation than a real table's:
    these cards are test data), each with a test PIN for a profile with ``pin_required``."""
    install_simulated_staff(db, SIM_STAFF, actor="simulate", kdf=KdfParams(n=2**10),
                            test_pins=SIM_PINS)


def _cards() -> dict[str, str]:
    return {role: track for _id, _name, role, track in SIM_STAFF}


def _pins() -> dict[str, str]:
    return {track: SIM_PINS[emp_id] for emp_id, _name, _role, track in SIM_STAFF}


@dataclass(frozen=True)
class StaffCards:
    """Each role's card (its track) and each card's PIN."""

    cards: dict[str, str] = field(default_factory=_cards)
    pins: dict[str, str] = field(default_factory=_pins)

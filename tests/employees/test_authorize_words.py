"""Refusals read as English (issue 23: "is a executive")."""

from __future__ import annotations

from dealer_console.employees.authorize import Refused, a_role, permits
from dealer_console.employees.registry import Employee, Role


def test_each_role_takes_its_article() -> None:
    assert [a_role(r) for r in (Role.SUPERVISOR, Role.EXECUTIVE, Role.TECHNICIAN)] == [
        "a supervisor", "an executive", "a technician"]


def test_an_executive_refused_test_mode_reads_right() -> None:
    refused = permits(Employee("X1", "Ella Exec", Role.EXECUTIVE, True), Role.TECHNICIAN,
                      "test mode is the technician's")
    assert isinstance(refused, Refused)
    assert str(refused) == ("Ella Exec is an executive; this needs a technician's card: "
                            "test mode is the technician's")

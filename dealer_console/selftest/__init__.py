"""The power-on self-test: the checks a regulator's lab expects before a table opens
(program integrity, configuration, database, devices), one pass/fail line each.

The console runs it at every start and refuses to open the table on a failure; a technician
runs it alone with ``dealer-console self-test`` (docs/install.md explains every line)."""

from dealer_console.selftest.report import Check, Report
from dealer_console.selftest.run import SelfTestInput, run_self_test

__all__ = ["Check", "Report", "SelfTestInput", "run_self_test"]

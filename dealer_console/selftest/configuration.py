"""Configuration: the profile reads and checks, its bonus paytables return at most 100% to
the player (an operator must not offer one that returns more), and the devices file is valid.

A jackpot paytable's return depends on where its meter stands (a progressive may pass 100% at
a high meter by design), so it is not held to 100% here; ``dealer-console math jackpot`` gives
its break-even."""

from __future__ import annotations

from pathlib import Path

from dealer_console.config_file import ConfigError
from dealer_console.devices.config import DeviceConfigError, DevicesConfig, load_devices
from dealer_console.math.returns import percent
from dealer_console.math.verdict import bonus_verdicts
from dealer_console.profiles.loader import find_profile
from dealer_console.profiles.model import Profile
from dealer_console.selftest.report import Report


def check_profile(report: Report, profile: str) -> Profile | None:
    """The ``profile`` item: a shipped profile's name or a profile file."""
    try:
        loaded = find_profile(profile)  # as the console reads it (a path without .toml too)
    except KeyError as exc:
        report.add("profile", False, str(exc.args[0]))
        return None
    except ConfigError as exc:
        report.add("profile", False, str(exc))
        return None
    report.add("profile", True, f"{loaded.name} ({loaded.title})")
    return loaded


def check_paytables(report: Report, profile: Profile) -> None:
    """The ``paytables`` item: each bonus paytable's exact return at or under 100% (the one
    verdict, ``math/verdict.py``)."""
    returns = []
    over = []
    for verdict in bonus_verdicts(profile):
        returns.append(f"{verdict.name} {percent(verdict.ret, 2)}")
        if verdict.refused is not None:
            over.append(f"{verdict.key} paytable {verdict.refused}")
    if over:
        report.add("paytables", False, "; ".join(over) + ": the table must not be offered")
    elif returns:
        report.add("paytables", True, "returns " + ", ".join(returns))
    else:
        report.add("paytables", True, "no bonus paytable in this profile")


def check_devices_file(report: Report, devices: Path | None) -> DevicesConfig | None:
    """The ``devices.toml`` item; no file means a table without devices (said so)."""
    if devices is None:
        report.add("devices.toml", True, "none given: the table runs without devices")
        return None
    try:
        config = load_devices(devices)
    except DeviceConfigError as exc:
        report.add("devices.toml", False, str(exc))
        return None
    named = [kind.attr for kind, _settings in config.configured()]
    report.add("devices.toml", True, f"{devices}: {', '.join(named) or 'no devices'}")
    return config

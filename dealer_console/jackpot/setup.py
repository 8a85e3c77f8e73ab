"""A table database's jackpot games come from its profile, and stay as the profile says.

On first use the profile's games are installed with their meters at seed; never again once
the ledger or the log shows a game was (its games deleted outside the console). Afterwards a
profile that says something else (another paytable, wager, mode, seed, rate or threshold,
the PIN asked or not, another link or none, a game added or taken away) is refused with every
difference listed: the meters of a live jackpot belong to its players, and changing its set-up is a
regulated procedure, not a side effect of editing a file (Washington document, "House Jackpot
and Progressive Jackpots" and "Progressive systems flexibility"; see ``docs/jackpot.md``).
"""

from __future__ import annotations

from sqlite_utils import Database

from dealer_console.errors import ConsoleError
from dealer_console.jackpot import games
from dealer_console.jackpot.schema import PIN_AND_LINK_RECORDED
from dealer_console.jackpot_values.config import GameConfig, TableJackpots
from dealer_console.storage import eventlog


class JackpotSetupMismatch(ConsoleError, ValueError):
    """The table database's jackpot games differ from the profile's."""


def install_from_profile(db: Database, setup: TableJackpots | None, *, actor: str) -> None:
    """Install ``setup`` in an empty table, or check that the installed games equal it."""
    installed = games.spots(db)
    wanted = setup.games if setup is not None else ()
    if not installed and _ever_installed(db):
        # an outside review deleted the games and their meters with SQL: the console
        # installed the profile's again, every meter back at its seed, the players' money gone
        raise JackpotSetupMismatch(
            "the table database's jackpot games are gone, but its meters' ledger shows them "
            "installed: the database was changed outside the console. Do not play on it: "
            "run 'dealer-console audit verify' and restore the table's last good backup")
    if not installed:
        with db.atomic():
            for game in wanted:
                games.install_game(db, game, actor=actor)
        return
    differences = differences_from(db, wanted)
    if differences:
        raise JackpotSetupMismatch(
            "the table database's jackpot games differ from the profile: "
            + "; ".join(differences)
            + ". Keep the profile's jackpot set-up as installed, or start a new table database"
              " (changing a live jackpot is a regulated procedure)")
    _record_pin_and_link(db, wanted)


def _record_pin_and_link(db: Database, wanted: tuple[GameConfig, ...]) -> None:
    """A game installed before the PIN and the link were kept with it gets them from the
    profile once, with an event, so the audit rebuilds them and every later start holds the
    profile to them."""
    missing = [g for g in wanted if games.pin_and_link(db, g.spot) is None]
    if not missing:
        return
    with db.atomic():
        for game in missing:
            if eventlog.has_log(db):
                eventlog.append(db, PIN_AND_LINK_RECORDED, {
                    "spot": game.spot, "pin_required": game.pin_required,
                    "linked": game.linked}, round_id=None)
            games.record_pin_and_link(db, game.spot, game.pin_required, game.linked)


def _ever_installed(db: Database) -> bool:
    """A game was installed here once: the ledger has a line, or the log an installation."""
    return (db.execute("SELECT 1 FROM jackpot_ledger LIMIT 1").fetchone() is not None
            or (eventlog.has_log(db) and db.execute(
                "SELECT 1 FROM events WHERE kind = 'jackpot_game_installed' LIMIT 1"
            ).fetchone() is not None))


def differences_from(db: Database, wanted: tuple[GameConfig, ...]) -> list[str]:
    """What the installed games and ``wanted`` disagree on, in words (empty: the same)."""
    out: list[str] = []
    by_spot = {g.spot: g for g in wanted}
    installed = games.spots(db)
    for spot in sorted(set(installed) | set(by_spot)):
        if spot not in by_spot:
            out.append(f"spot {spot} has a game the profile does not list")
            continue
        if spot not in installed:
            out.append(f"the profile adds a game on spot {spot}")
            continue
        have, want = games.game_config(db, spot), by_spot[spot]
        for what, a, b in (
            ("paytable", have.paytable.name, want.paytable.name),
            ("mode", have.mode.value, want.mode.value),
            ("wager (cents)", have.wager_cents, want.wager_cents),
            ("fixed_from_meter", have.fixed_from_meter, want.fixed_from_meter),
            ("executive_above (cents)", have.executive_threshold_cents,
             want.executive_threshold_cents),
            ("two_person_above (cents)", have.two_person_above_cents,
             want.two_person_above_cents),
            ("meters", _levels(have), _levels(want)),
            *_pin_and_link_differences(db, spot, want),
        ):
            if a != b:
                out.append(f"spot {spot} {what}: installed {a}, profile {b}")
    return out


def _pin_and_link_differences(db: Database, spot: int, want: GameConfig
                              ) -> list[tuple[str, object, object]]:
    kept = games.pin_and_link(db, spot)
    if kept is None:
        return []  # not kept yet: recorded from this profile (``_record_pin_and_link``)
    pin, link = kept
    return [("pin_required", pin, want.pin_required),
            ("linked", link or "none (the table's own meters)",
             want.linked or "none (the table's own meters)")]


def _levels(game: GameConfig) -> str:
    return ", ".join(f"{lv.name} seed {lv.seed_cents} contribution {lv.contribution_ppm} ppm"
                     f" reserve {lv.reserve_ppm} ppm" for lv in game.levels)

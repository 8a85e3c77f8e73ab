"""The composition root: a table opened once, the same way for the console, ``simulate`` and a
table PC's hardware set-up (database, profile, the profile's jackpot games, the jackpot
system, the round resumed where it stopped)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from sqlite_utils import Database

from dealer_console.errors import ConsoleError
from dealer_console.jackpot.setup import install_from_profile
from dealer_console.jackpot.system import JackpotSystem
from dealer_console.jackpot_values.config import TableJackpots
from dealer_console.link.hook import LinkHook
from dealer_console.profiles.model import DealMethod, Profile
from dealer_console.round.rules import RoundRules, round_rules
from dealer_console.round.table import Table
from dealer_console.selftest.table_anchor import Anchor, TableAnchorError, current
from dealer_console.storage.anchor import Journal, journal_for, key_path, load_key
from dealer_console.table_db import open_table_db


class LinkSender(Protocol):
    """What the table needs of a link's sender thread (``dealer_link.sender.OutboxSender``):
    its address, and to stop it before the database closes."""

    @property
    def dsn(self) -> str: ...

    def stop(self) -> None: ...


LinkStarter = Callable[[Path, TableJackpots | None],
                       tuple[LinkHook | None, Sequence[LinkSender]]]
"""Starts a table's links (``dealer_link.wiring.start_links``): the composition root hands it
to :func:`open_table`, so the core never imports the PostgreSQL client nor starts its
threads itself."""


@dataclass
class OpenTable:
    """An open table; :meth:`close` closes its database."""

    db: Database
    db_path: Path
    profile: Profile
    rules: RoundRules
    table: Table
    jackpot: JackpotSystem | None
    journal: Journal
    """Where a checkpoint of the chain's head goes once each round is finished (keyed with
    the audit key when the table has one: ``docs/storage.md``, "Anchoring the chain")."""

    link_senders: Sequence[LinkSender] = field(default_factory=list)
    """Linked jackpots' sender threads (``docs/link.md``), stopped before the database closes."""
    link: LinkHook | None = None
    """The linked games' hook (their health and the asker's thread), which the jackpot reaches
    through its port; None when nothing is linked."""

    def close(self) -> None:
        for sender in self.link_senders:
            sender.stop()
        if self.link is not None:
            self.link.close()
        self.db.close()


def default_deal(profile: Profile) -> str:
    """The console deals from the shuffler wherever the profile allows it (the hands reach the
    round as the machine reports them); a hand-dealt-only profile deals by hand."""
    if DealMethod.SHUFFLER in profile.deal_methods:
        return DealMethod.SHUFFLER.value
    return profile.deal_methods[0].value


def open_table(db_path: str | Path, profile: Profile, *, actor: str, links: LinkStarter,
               deal: str | None = None, action: str | None = None,
               audit_key: str | Path | None = None,
               table_anchor: Path | None = None) -> OpenTable:
    """Open (creating if needed) the table database at ``db_path`` for ``profile``.

    The profile's jackpot games are installed on first use and held to afterwards (a differing
    profile is refused with every difference: ``JackpotSetupMismatch``); a database holding
    another profile's rounds is refused (``TableMismatch``). ``audit_key`` (else
    ``$DEALER_CONSOLE_AUDIT_KEY``) keys the checkpoints written after each round. ``links``
starts the linked games' hook and senders (the caller's, as the devices are).

    ``table_anchor`` (a table PC's ``DEALER_CONSOLE_TABLE_ANCHOR``): the database opened must
    be the one the anchor names, checked on the connection the table then uses, and none is
    made where the table has had one. An outside review moved the table's files aside just
    after the power-on self-test had passed them: the console opened a fresh database, its
    meters at their seeds, and the rounds played on it vanished when the files came back.
    """
    rules = round_rules(profile, action, deal or default_deal(profile))
    path = Path(db_path)
    key_file = key_path(audit_key)
    journal = Journal(journal_for(path), load_key(key_file) if key_file is not None else None)
    anchored = anchored_database(table_anchor)
    db = open_table_db(path, create=anchored is None)  # a new table's commands create it
    senders: Sequence[LinkSender] = []
    try:
        if anchored is not None and table_anchor is not None:
            _the_anchored_one(db, path, anchored, table_anchor)
        install_from_profile(db, profile.jackpots, actor=actor)
        link, senders = links(path, profile.jackpots)  # linked games only
        pin_spots = frozenset(g.spot for g in (profile.jackpots.games if profile.jackpots
                                                 else ()) if g.pin_required)
        system = JackpotSystem(db, link, pin_spots) if profile.jackpot is not None else None
        table = Table.open(db, rules, jackpot=system)
    except BaseException:
        for sender in senders:
            sender.stop()
        db.close()
        raise
    return OpenTable(db, path, profile, rules, table, system, journal, senders, link)


class NotTheAnchoredDatabase(ConsoleError):
    """The database at the table's path is not the one its anchor names."""


def anchored_database(table_anchor: Path | None) -> Anchor | None:
    """The database the table's anchor names now, or None (no anchor, or none yet)."""
    if table_anchor is None:
        return None
    try:
        return current(table_anchor)
    except TableAnchorError as exc:
        raise NotTheAnchoredDatabase(str(exc)) from None


def _the_anchored_one(db: Database, path: Path, anchored: Anchor, table_anchor: Path) -> None:
    row = db.execute("SELECT hash FROM events ORDER BY seq LIMIT 1").fetchone()
    found = None if row is None else str(row[0])
    if found != anchored.first_event:
        raise NotTheAnchoredDatabase(
            f"{path}: not this table's database (its first event is {(found or 'none')[:16]}, "
            f"the anchor's in {table_anchor} {anchored.first_event[:16]}): the files changed "
            "after the power-on self-test; restore the table's own database, then restart")

"""The table database's anchor: a file kept outside the database's folder (on a table PC
``/etc/dealer-console/table-db.anchor``, root's, named by ``DEALER_CONSOLE_TABLE_ANCHOR``)
saying which database this table keeps: the hash of its first event, when and by whom it
was started. A table that has had a database then refuses to start without it, or on another
one, instead of opening on a fresh file with its history and meters gone.

The file is a history, one JSON object a line, the last the one in force: each new table
database (``dealer-console table-db new``, on an executive's card) and each anchoring of an
existing one (``table-db anchor``) adds a line, so a replaced database leaves its trace."""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path

from dealer_console import clock

ANCHOR_ENV = "DEALER_CONSOLE_TABLE_ANCHOR"


class TableAnchorError(ValueError):
    """The anchor file cannot be read or written (the message says which and why)."""


@dataclass(frozen=True, slots=True)
class Anchor:
    database: str
    first_event: str
    """The hash of the database's first event: unique to that database."""
    act: str
    """``new`` (a new table database on an executive's card), ``anchored`` (an existing
    one, at an update) or ``restored`` (its backup put back, on an executive's card)."""
    by: str
    at: str


def anchor_path(environ: Mapping[str, str] = os.environ) -> Path | None:
    """The anchor file the table uses, or None where none is set (a development copy)."""
    value = environ.get(ANCHOR_ENV, "").strip()
    return Path(value) if value else None


def read_anchors(path: Path) -> list[Anchor]:
    """Every line of the history, oldest first; a damaged line is a ``TableAnchorError``."""
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError) as exc:
        raise TableAnchorError(f"{path}: cannot read the table's anchor ({exc})") from None
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            fields = json.loads(line)
            out.append(Anchor(**{k: str(fields[k]) for k in Anchor.__slots__}))
        except (ValueError, KeyError, TypeError):
            raise TableAnchorError(f"{path} line {n}: not an anchor line; the file is "
                                   "damaged") from None
    return out


def current(path: Path) -> Anchor | None:
    anchors = read_anchors(path)
    return anchors[-1] if anchors else None


def first_event_hash(db_path: Path) -> str | None:
    """The hash of the database's first event (read-only), or None when it has none."""
    uri = f"{db_path.resolve().as_uri()}?mode=ro"
    try:
        conn = sqlite3.connect(uri, uri=True)
        try:
            row = conn.execute("SELECT hash FROM events ORDER BY seq LIMIT 1").fetchone()
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise TableAnchorError(f"{db_path}: cannot read its first event ({exc})") from None
    return None if row is None else str(row[0])


def add(path: Path, db_path: Path, act: str, by: str) -> Anchor:
    """Append an anchor for ``db_path`` to the history, forced to disk."""
    first = first_event_hash(db_path)
    if first is None:
        raise TableAnchorError(f"{db_path}: has no event yet, so it cannot be told from a "
                               "fresh file; start the table database with `dealer-console "
                               "table-db new` instead")
    if path.resolve().parent == db_path.resolve().parent:
        raise TableAnchorError(f"{path}: the anchor must be kept outside the database's "
                               f"folder ({db_path.parent})")
    anchor = Anchor(str(db_path), first, act, by,
                    clock.stamp("seconds"))
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a", encoding="utf-8") as out:
        out.write(json.dumps(asdict(anchor), sort_keys=True) + "\n")
        out.flush()
        os.fsync(out.fileno())
    os.chmod(path, 0o644)
    return anchor


def problem(path: Path, db_path: Path) -> str | None:
    """Why the table must not open on ``db_path`` under the anchor at ``path``; None if it
    may. No anchor and no database: a new table that has never had one (started with
    ``table-db new``); no anchor and a database: an update from before anchors (the install
    step anchors it)."""
    anchor = current(path)
    exists = db_path.exists()
    if anchor is None:
        if not exists:
            return (f"{db_path}: this table has no database yet; an executive starts one with "
                    "`dealer-console table-db new` (docs/install.md)")
        return (f"{db_path}: not anchored ({path} holds no anchor); anchor it with "
                "`dealer-console table-db anchor` (the package's install step does)")
    if not exists:
        return (f"{db_path}: missing, and this table has had a database (started {anchor.at} "
                f"by {anchor.by}): restore it from its backup (`dealer-console table-db "
                "restore`); a new table database is an executive's act (`dealer-console "
                "table-db new`)")
    found = first_event_hash(db_path)
    if found != anchor.first_event:
        return (f"{db_path}: not this table's database (its first event is "
                f"{(found or 'none')[:16]}, the anchor's {anchor.first_event[:16]}): restore "
                "the table's own database (`dealer-console table-db restore`)")
    return None

"""Anchoring the event log's hash chain outside the database file.

The chain alone proves that no event was changed *unless the chain was recomputed*, and says
nothing when the newest events are simply gone. Two things outside the file close that gap:

- **Checkpoints** of the chain's head (the newest event's ``seq`` and ``hash``) written
  elsewhere: a journal file beside the database (``table.db.checkpoints``, one line per
  round), and a short digest line an operator writes on the shift report. An audit that finds
  the database ending before a checkpoint's ``seq`` says it is behind (erased rounds, or a copy
  made without its ``-wal`` file); one that finds another hash at that ``seq`` says the log was
  rewritten there or before.
- A **keyed MAC** (HMAC-SHA256) of each checkpoint, with a key kept outside the database (a
  key file made once by ``dealer-console audit init-key``). Whoever rewrites the chain cannot
  write a matching checkpoint without the key.

See ``docs/storage.md`` for what each catches and what it cannot.
"""

from __future__ import annotations

import errno
import hmac
import os
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from hashlib import sha256
from pathlib import Path

from sqlite_utils import Database

from dealer_console import clock
from dealer_console.errors import ConsoleError
from dealer_console.storage import os_files
from dealer_console.storage.eventlog import GENESIS, last_event
from dealer_console.storage.log_files import open_own_file

KEY_ENV = "DEALER_CONSOLE_AUDIT_KEY"
"""The environment variable naming the key file (the ``--key`` option wins)."""
JOURNAL_SUFFIX = ".checkpoints"
DIGEST_TAG = "DC-CHECKPOINT"
DIGEST_HEX = 16
"""Hex digits of the head and the MAC on a digest line (64 bits each): short enough to write
by hand, long enough that neither can be guessed or searched for."""
_KEY_BYTES = 32
_HEX = re.compile(r"^[0-9a-f]+$")


class AnchorError(ConsoleError, ValueError):
    """A key file or checkpoint that cannot be used; the message says which and why."""


# -- the key ------------------------------------------------------------------------------------


def key_path(option: str | os.PathLike[str] | None) -> Path | None:
    """The key file: the option given, else ``$DEALER_CONSOLE_AUDIT_KEY``, else none."""
    chosen = option if option is not None else os.environ.get(KEY_ENV) or None
    return Path(chosen) if chosen is not None else None


def create_key(path: Path) -> None:
    """The one-time set-up step: 32 random bytes as hex, readable by the owner only. An
    existing file is never overwritten (a new key would orphan every checkpoint made)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise AnchorError(f"{path}: a key file is already there; it is never replaced") from None
    except OSError as exc:
        raise AnchorError(f"{path}: cannot create the key file: {exc.strerror}") from None
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(secrets.token_hex(_KEY_BYTES) + "\n")
        out.flush()
        os.fsync(out.fileno())


def load_key(path: Path) -> bytes:
    """The key from ``path``; refused when others may read it or it is not a key file."""
    from dealer_console.storage import key_access

    try:
        text = path.read_text("ascii").strip()
        exposed = key_access.problem(path)  # permission bits, or Windows' access list
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "not a key file"
        raise AnchorError(f"{path}: cannot read the audit key: {reason}") from None
    if exposed is not None:
        raise AnchorError(f"{path}: {exposed}")
    if len(text) != 2 * _KEY_BYTES or not _HEX.match(text):
        raise AnchorError(f"{path}: not an audit key (64 hex digits, made by audit init-key)")
    return bytes.fromhex(text)


def head_mac(key: bytes, seq: int, head: str) -> str:
    """HMAC-SHA256 of the chain head ``(seq, hash)``."""
    return hmac.new(key, f"dealer-console chain head {seq} {head}".encode("ascii"),
                    sha256).hexdigest()


# -- checkpoints --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """The chain's head at one moment: ``head`` may be a prefix (a digest line's), ``mac`` is
    None when no key was used."""

    seq: int
    head: str
    mac: str | None
    rounds: int | None = None
    at: str = ""
    source: str = ""

    def line(self) -> str:
        """Its line in the journal (full hash and MAC)."""
        rounds = "" if self.rounds is None else f" rounds {self.rounds}"
        return f"seq {self.seq} head {self.head} mac {self.mac or '-'}{rounds} at {self.at}"

    def digest(self) -> str:
        """The short line an operator writes on the shift report."""
        mac = (self.mac or "-")[:DIGEST_HEX]
        return f"{DIGEST_TAG} seq {self.seq} head {self.head[:DIGEST_HEX]} mac {mac}"


MAX_SEQ = 2**63 - 1
"""The largest event number SQLite can hold: a checkpoint past it names no event, and asking
the log for it stopped the audit and the self-test with a traceback (an outside review wrote
one such line into a journal)."""


_FINISHED_AFTER = ("SELECT COUNT(*), MAX(round_id) FROM rounds"
                   " WHERE status IN ('complete', 'voided') AND round_id > ?")


def finished_rounds(db: Database) -> int:
    """How many rounds of ``db`` are complete or voided."""
    return int(db.execute(_FINISHED_AFTER, [0]).fetchone()[0])


class FinishedRounds:
    """:func:`finished_rounds` for one table's writer, counted on from the newest round it
    counted before: a round once finished stays so, and rounds finish in order. Counting all
    of them at each round's end took longer every round of the table's life (4 ms at 180,000
    rounds, on the GUI thread)."""

    def __init__(self) -> None:
        self._newest = 0
        self._count = 0

    def count(self, db: Database) -> int:
        new, newest = db.execute(_FINISHED_AFTER, [self._newest]).fetchone()
        if newest is not None:
            self._newest = int(newest)
            self._count += int(new)
        return self._count


def take(db: Database, key: bytes | None, rounds: int | None = None) -> Checkpoint:
    """The checkpoint of ``db``'s chain as it stands; ``rounds`` finished, when the caller
    has counted them (else they are counted here)."""
    seq, head = last_event(db)
    if rounds is None:
        rounds = finished_rounds(db)
    return Checkpoint(seq, head, head_mac(key, seq, head) if key is not None else None, rounds,
                      clock.stamp("seconds"))


def parse(text: str, source: str) -> Checkpoint:
    """A journal line or a digest line (``seq N head HEX mac HEX|-``, the tag optional)."""
    tokens = text.split()
    if tokens and tokens[0] == DIGEST_TAG:
        tokens = tokens[1:]
    if len(tokens) % 2:
        raise AnchorError(f"{source}: expected 'seq N head HEX mac HEX', got {text.strip()!r}")
    fields = dict(zip(tokens[::2], tokens[1::2], strict=True))
    try:
        seq = int(fields["seq"])
        head = fields["head"].lower()
        mac = fields["mac"].lower()
    except (KeyError, ValueError):
        raise AnchorError(f"{source}: expected 'seq N head HEX mac HEX', got "
                          f"{text.strip()!r}") from None
    for name, value in (("head", head), ("mac", mac)):
        if value == "-" and name == "mac":
            continue
        if not (DIGEST_HEX <= len(value) <= 64 and _HEX.match(value)):
            raise AnchorError(f"{source}: {name} must be {DIGEST_HEX} to 64 hex digits")
    if not 0 <= seq <= MAX_SEQ:
        raise AnchorError(f"{source}: seq must be 0 to {MAX_SEQ} (an event's number in the "
                          f"log), not {seq}")
    rounds = fields.get("rounds")
    return Checkpoint(seq, head, None if mac == "-" else mac,
                      int(rounds) if rounds and rounds.isdigit() else None,
                      fields.get("at", ""), source)


def journal_for(db_path: str | os.PathLike[str]) -> Path:
    """The checkpoint journal beside a database: ``table.db.checkpoints``, beside the file
    itself when it is reached through a symbolic link (as SQLite keeps its ``-wal`` there), so
    every name of the table's database finds the same journal."""
    return Path(f"{os.path.realpath(db_path)}{JOURNAL_SUFFIX}")


class JournalRefused(OSError):
    """The journal's name leads to something that is not a plain file of its own: nothing is
    written there."""


def append(journal: Path, checkpoint: Checkpoint) -> None:
    """Add one checkpoint to the journal and force it to disk. A line torn by a power cut
    (no newline yet) is cut off first, so the new line starts on a line of its own.

    Never through a symbolic link or into a second name of another file, as the log files
    (``log_files.py``): the journal lies in the console user's folder, where root adds a
    checkpoint too (``audit checkpoint`` at a shift change). A link planted there would make
    root append to the file it leads to, and cut that file's last line when it ended without
    a newline."""
    fd = open_own_file(journal, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644, _refused)
    try:
        info = os.fstat(fd)
        start = max(0, info.st_size - 4096)  # a line is far shorter
        tail = os_files.read_at(fd, info.st_size - start, start)
        if tail and not tail.endswith(b"\n"):
            os.ftruncate(fd, start + tail.rfind(b"\n") + 1)
        data = (checkpoint.line() + "\n").encode("ascii")
        while data:
            data = data[os.write(fd, data):]
        os.fsync(fd)
    finally:
        os.close(fd)


def _refused(linked: bool) -> JournalRefused:
    what = ("a symbolic link" if linked else "not a plain file of its own (a device, or a "
            "second name of another file)")
    return JournalRefused(errno.ELOOP if linked else errno.EPERM,
                          f"the checkpoint journal is {what}: nothing was written to it (a "
                          "journal is never written through a link); remove it and put back "
                          "the table's own journal")


def read_journal(journal: Path) -> list[Checkpoint]:
    """The journal's checkpoints. A last line without its newline was cut short by a power
    cut while it was written (the round it follows is committed, its checkpoint is not): it is
    left out, as if never written."""
    try:
        text = journal.read_text("ascii")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) else "not a checkpoint journal"
        raise AnchorError(f"{journal}: cannot read the checkpoint journal: {reason}") from None
    lines = text.split("\n")
    complete = lines[:-1]  # the piece after the last newline is empty, or a torn line
    return [parse(line, f"{journal.name} line {n}")
            for n, line in enumerate(complete, 1)
            if line.strip() and not line.startswith("#")]


class Journal:
    """Writes a checkpoint after each round of a table (the round procedure's caller calls
    :meth:`write` once a round's last transaction is committed)."""

    def __init__(self, path: Path, key: bytes | None) -> None:
        self.path = path
        self.key = key
        self._finished = FinishedRounds()

    def write(self, db: Database) -> Checkpoint:
        checkpoint = take(db, self.key, self._finished.count(db))
        append(self.path, checkpoint)
        return checkpoint


# -- the check ----------------------------------------------------------------------------------


@dataclass
class AnchorReport:
    problems: list[str]
    notes: list[str]


def check(db: Database, checkpoints: Iterable[Checkpoint], key: bytes | None) -> AnchorReport:
    """Hold ``db``'s chain to each checkpoint (and each MAC to the key, when given)."""
    report = AnchorReport([], [])
    last_seq, _head = last_event(db)
    stored_rounds = finished_rounds(db)
    behind: list[Checkpoint] = []
    anchored = 0
    unchecked_macs = unsigned = 0
    for cp in checkpoints:
        stored = _stored_hash(db, cp.seq)
        full = cp.head if len(cp.head) == 64 else (
            stored if stored is not None and stored.startswith(cp.head) else None)
        if cp.mac is None and key is not None:
            report.problems.append(
                f"{cp.source}: it carries no MAC, but this table's checkpoints are keyed (a "
                "MAC stripped, or a line written without the key)")
        elif cp.mac is None:
            unsigned += 1
        elif key is None:
            unchecked_macs += 1
        elif full is not None and not hmac.compare_digest(
                head_mac(key, cp.seq, full)[:len(cp.mac)], cp.mac):
            report.problems.append(
                f"{cp.source}: its MAC does not match (a checkpoint written without the key, "
                "a chain recomputed after the fact, or another table's key)")
        if stored is None and cp.seq > last_seq:
            behind.append(cp)
        elif stored is None:
            report.problems.append(f"{cp.source}: event {cp.seq} is missing from the log")
        elif not stored.startswith(cp.head):
            report.problems.append(
                f"{cp.source}: event {cp.seq} has hash {stored[:DIGEST_HEX]}..., the checkpoint "
                f"recorded {cp.head[:DIGEST_HEX]}...: the log was rewritten at or before event "
                f"{cp.seq}")
        else:
            anchored = max(anchored, cp.seq)
    if behind:
        first = min(behind, key=lambda cp: cp.seq)
        newest = max(behind, key=lambda cp: cp.seq)
        rounds = (f" ({newest.rounds} rounds finished then, {stored_rounds} here)"
                  if newest.rounds is not None else "")
        report.problems.append(
            f"{first.source}: the table had reached event {newest.seq}{rounds}, but this "
            f"database ends at event {last_seq}: it is BEHIND ({len(behind)} checkpoints "
            "beyond its end): its last events were erased, or it is a copy made without its "
            "-wal file (copy a live table with `dealer-console backup`)")
    if unchecked_macs:
        report.notes.append(f"{unchecked_macs} checkpoint MACs not checked: no audit key given "
                            "(--key or $DEALER_CONSOLE_AUDIT_KEY)")
    if unsigned:
        report.notes.append(f"{unsigned} checkpoints carry no MAC (written without a key)")
    if anchored:
        report.notes.append(f"the chain matches its checkpoints up to event {anchored}; "
                            f"{last_seq - anchored} events after that are not anchored yet")
    return report


def _stored_hash(db: Database, seq: int) -> str | None:
    """The hash of event ``seq`` (the chain's start for 0), or None past the log's end."""
    if seq == 0:
        return GENESIS
    row = db.execute("SELECT hash FROM events WHERE seq = ?", [seq]).fetchone()
    return None if row is None else str(row[0])

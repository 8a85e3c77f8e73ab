"""The warnings the console gave the dealer about the round's evidence, kept in the table's
hash-chained event log.

A warning such as "the shuffler reported hand 3 of this deal again, saying something else,
after the deal was checked: call a supervisor before paying" lived only on the screen: after
a dispute nobody could show the dealer had been warned. Each warning about what the devices
reported for the round (a deal reported otherwise, a deal number refused, a deal cut short, a
press or swipe the keypad kept, a chip late, taken off or not taken) is now an event of the
log, ``dealer_notice``, written by the controller's thread in a transaction of its own as it
is told (``dealer_console/controller/notice_keeper.py``). A refusal of a mistyped step is not
kept: it is no fact about the round.

Why an event of no round (``round_id`` NULL, the round in play in its payload): the round's
replay (``evolve`` refuses a kind it does not know), its check against the rules and every
reader of a round's own events (its times, its last event, the shift report's attribution)
stay as they were, and a console released before this one, which passes over events of no
round it does not know, still reads and audits the file. The chain covers each notice as it
covers a round's events (an edit, a deletion, a notice moved); :func:`notice_problems` holds
each to the round in play where it stands in the log; game recall lists a round's notices
with the time each was told (:func:`notices_of`). No table is written from them, so nothing
else is there to rebuild or to fall out of step.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, Final

from sqlite_utils import Database

from dealer_console.round.events import EventKind
from dealer_console.storage import eventlog

NOTICE: Final = "dealer_notice"
"""The event kind of a notice kept."""

LEVELS: Final = ("warning", "refused", "info")
"""The levels a notice is told at (``controller.view.Level``'s values)."""


class NoticeAbout(StrEnum):
    """What a kept notice is about: the console's own reason for it, for a program to sort
    by (the words are the dealer's)."""

    DEAL_NOT_AS_REPORTED = "deal_not_as_reported"
    """After the deal was checked, the shuffler said a fact of it again with other contents,
    or more hands than a deal holds: the round keeps the first report."""
    DEAL_REFUSED = "deal_refused"
    """The shuffler would not take the deal's number (it dealt it before)."""
    DEAL_SHORT = "deal_short"
    """The shuffler finished the deal, but not all of it reached the console."""
    KEPT_ON_KEYPAD = "kept_on_keypad"
    """A press or swipe made while the console could not read the keypad: told, not used."""
    LATE_CHIP = "late_chip"
    """A chip on a jackpot sensor that was not taken at START GAME: no wager."""
    CHIP_REMOVED = "chip_removed"
    """A jackpot chip taken off its sensor after START GAME: the wager stands."""
    CHIP_NOT_TAKEN = "chip_not_taken"
    """A chip on a sensor at START GAME that the round refused as a wager."""
    WAGER_TAKEN_BACK = "wager_taken_back"
    """A jackpot wager saved before START GAME whose chip was not on its sensor then."""


@dataclass(frozen=True, slots=True)
class KeptNotice:
    """One notice as it was told, before it is written."""

    round_id: int
    """The round in play when it was told."""
    about: NoticeAbout
    level: str
    what: str
    todo: str
    told_at: str
    """When the dealer was told (ISO 8601 UTC, as the log writes times)."""
    device: str | None = None
    fact: str | None = None
    """The device's report it is about, as its fact key's text (``table.fact_text``)."""


def record(db: Database, notice: KeptNotice, in_play: int) -> eventlog.Event:
    """Append ``notice`` to the log in a transaction of its own. ``in_play`` is the round in
    play now: a notice the disk refused when it was told, written after its round ended,
    belongs to the round in play now and says which round it was told in."""
    payload: dict[str, Any] = {
        "round": in_play, "about": notice.about.value, "level": notice.level,
        "what": notice.what, "todo": notice.todo, "told_at": notice.told_at,
        "device": notice.device}
    if notice.fact is not None:
        payload["fact"] = notice.fact
    if notice.round_id != in_play:
        payload["told_in_round"] = notice.round_id
    with db.atomic():
        return eventlog.append(db, NOTICE, payload, round_id=None)


def notices_of(db: Database, round_id: int) -> list[dict[str, Any]]:
    """The notices kept while round ``round_id`` was in play (between its opening and the
    next round's, the index of the log by kind finding them), oldest first, as recall shows
    them. A payload that is not as the console writes it is shown as it is, never dropped:
    the audit names what is wrong with it."""
    bounds = db.execute(
        "SELECT r.first_seq, (SELECT n.first_seq FROM rounds n WHERE n.round_id = r.round_id"
        " + 1) FROM rounds r WHERE r.round_id = ?", [round_id]).fetchone()
    if bounds is None:
        return []
    first, following = bounds
    rows = db.execute("SELECT seq, recorded_at, payload FROM events WHERE kind = ? AND seq > ?"
                      " AND seq < ? ORDER BY seq",
                      [NOTICE, first, following if following is not None else 2**63 - 1])
    return [_shown(int(seq), str(at), str(text)) for seq, at, text in rows]


def _shown(seq: int, recorded_at: str, text: str) -> dict[str, Any]:
    try:
        p = json.loads(text)
    except ValueError:
        p = None
    if not isinstance(p, dict):
        return {"seq": seq, "at": recorded_at, "saved_at": recorded_at, "about": "",
                "level": "", "what": text, "todo": "", "device": None, "told_in_round": None}
    told = p.get("told_at")
    return {"seq": seq, "at": told if isinstance(told, str) else recorded_at,
            "saved_at": recorded_at, "about": _text(p.get("about")),
            "level": _text(p.get("level")), "what": _text(p.get("what")),
            "todo": _text(p.get("todo")), "device": p.get("device"),
            "told_in_round": p.get("told_in_round")}


def _text(value: object) -> str:
    return value if isinstance(value, str) else ("" if value is None else json.dumps(value))


def notice_words(n: dict[str, Any]) -> str:
    """A kept notice in one line, as recall prints it: when, how, what, what to do."""
    late = (f" (told in round {n['told_in_round']}, saved at {n['saved_at']})"
            if n.get("told_in_round") is not None else "")
    todo = f"; {n['todo']}" if n["todo"] else ""
    return f"told the dealer at {n['at']} ({n['level'] or 'notice'}){late}: {n['what']}{todo}"


def notice_problems(db: Database) -> list[str]:
    """Every kept notice that does not stand as the console writes one: not round-less, not
    of a known kind and level, without its words, naming another round than the one in play
    where it stands in the log, or told after it was saved."""
    if not eventlog.has_log(db):
        return []
    problems: list[str] = []
    rows = db.execute("SELECT seq, round_id, payload, recorded_at FROM events WHERE kind = ?"
                      " ORDER BY seq", [NOTICE]).fetchall()
    for seq, round_id, text, at in rows:
        where = f"event {seq} ({NOTICE})"
        if round_id is not None:
            problems.append(f"{where}: a notice belongs to no round, but this one names round "
                            f"{round_id}")
        opened = db.execute("SELECT round_id FROM events WHERE kind = ? AND seq < ? ORDER BY"
                            " seq DESC LIMIT 1", [EventKind.ROUND_OPENED, seq]).fetchone()
        in_play = None if opened is None else int(opened[0])
        try:
            p = json.loads(text)
        except ValueError:
            continue  # the chain's check says so
        problems += [f"{where}: {why}" for why in _payload_problems(p, str(at), in_play)]
    return problems


def _payload_problems(p: object, recorded_at: str, in_play: int | None) -> list[str]:
    if not isinstance(p, dict):
        return ["its payload is not an object"]
    out = []
    if p.get("about") not in {a.value for a in NoticeAbout}:
        out.append(f"about {p.get('about')!r} is no notice the console keeps")
    if p.get("level") not in LEVELS:
        out.append(f"level {p.get('level')!r} is none of {', '.join(LEVELS)}")
    if not isinstance(p.get("what"), str) or not p["what"].strip():
        out.append("it says nothing (no 'what')")
    if not isinstance(p.get("todo"), str):
        out.append("its 'todo' is not text")
    for key in ("device", "fact"):
        if p.get(key) is not None and not isinstance(p[key], str):
            out.append(f"its {key!r} is not text")
    named = p.get("round")
    if not _whole(named) or named != in_play:
        out.append(f"it names round {named!r}, but round {in_play} was in play where it "
                   "stands in the log")
    told_in = p.get("told_in_round")
    if told_in is not None and (not _whole(told_in) or not _whole(named)
                                or not 0 < told_in < named):
        out.append(f"told in round {told_in!r}, which is not a round before round {named!r}")
    out += _times_problems(p.get("told_at"), recorded_at)
    return out


def _times_problems(told_at: object, recorded_at: str) -> list[str]:
    try:
        told = datetime.fromisoformat(str(told_at)) if isinstance(told_at, str) else None
        saved = datetime.fromisoformat(recorded_at)
    except ValueError:
        told = saved = None
    if told is None or saved is None or told.tzinfo is None:
        return [f"its time told {told_at!r} is not a time as the log writes them"]
    if told > saved:
        return [f"told at {told_at}, after it was saved at {recorded_at}"]
    return []


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)

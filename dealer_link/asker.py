"""Asking the link's server to pay a confirmed hit, on a thread of its own.

A linked hit is paid from the shared meter, so only the server can say what it pays
(``server.confirm_hit`` orders hits across tables). The owner thread (the console's GUI
thread) never waits for the network: it hands a :class:`HitAsk` to the asker and goes on; the
answer comes back through the ``reply`` callback, called on the asker's thread, which queues
it for the owner thread (the controller's ``deliver``, as a device event).

Where the link reads the confirmers' cards itself (``server_cards.py``), the asker hands the
server each card swiped before it asks, and asks with the passes it gets back; the cards live
in the ask, in memory, and nowhere else.

An answer is one of three: the hit the server paid (the table records exactly that), a refusal
(the server answered and wrote nothing: the mark may be changed), or a failure (no answer: the
server may have paid it, so the table keeps the mark and the next swipe asks again; the server
answers a repeated ask with the hit it already paid, never a second one).
"""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Callable

import psycopg

from dealer_console.jackpot_values.link_records import HitAnswer, HitAsk
from dealer_link import server
from dealer_link.settings import ASK_TIMEOUT_S, LinkError, LinkRefused

Reply = Callable[[HitAnswer], object]

__all__ = ["ASK_TIMEOUT_S", "HitAsker"]


class HitAsker:
    """One table's asks, one at a time, on its own connection and thread."""

    def __init__(self, dsn: str, table_id: str) -> None:
        self.dsn, self.table_id = dsn, table_id
        self._asks: queue.SimpleQueue[tuple[HitAsk, Reply] | None] = queue.SimpleQueue()
        self._conn: server.Connection | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def ask(self, ask: HitAsk, reply: Reply) -> None:
        """Queue ``ask``; ``reply`` gets its answer on the asker's thread."""
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, daemon=True,
                                                name=f"link-asker-{self.table_id}")
                self._thread.start()
        self._asks.put((ask, reply))

    def stop(self, timeout_s: float = 10.0) -> None:
        with self._lock:
            thread, self._thread = self._thread, None
        if thread is not None:
            self._asks.put(None)
            thread.join(timeout_s)

    def answer(self, ask: HitAsk) -> HitAnswer:
        """Ask the server now, on the calling thread (the asker's own, or a test's)."""
        try:
            if self._conn is None or self._conn.closed:
                self._conn = server.connect(self.dsn, who=self.table_id)
                self._conn.execute(f"SET statement_timeout = '{ASK_TIMEOUT_S}s'".encode())
            passes = self._passes(self._conn, ask)
            hit = server.confirm_hit(
                self._conn, ask.link, self.table_id, round_id=ask.round_id, spot=ask.spot,
                seat=ask.seat, line_no=ask.line_no, employee_id=ask.employee_id,
                most_cents=ask.most_cents, second_employee_id=ask.second_employee_id,
                passes=passes)
        except LinkRefused as exc:
            return HitAnswer(ask, refused=str(exc))
        except (LinkError, psycopg.Error) as exc:
            if isinstance(exc, psycopg.errors.QueryCanceled) and self._conn is not None:
                # timed out waiting: a table's connection may hold the meters (the next
                # swipe asks again, and is not kept waiting by it)
                with contextlib.suppress(LinkError, psycopg.Error):
                    server.end_stuck(self._conn, ask.link)
            self._close()
            first = str(exc).strip().splitlines()
            return HitAnswer(ask, failed=first[0] if first else type(exc).__name__)
        return HitAnswer(ask, hit=hit)

    def _passes(self, conn: server.Connection, ask: HitAsk) -> tuple[str | None, str | None]:
        """The server's pass for each card swiped, where the link reads the cards itself
        (``dealer_link/server_cards.py``); none where it does not, or on a server from before
        it. A card the server reads as someone else's than the table did is refused here."""
        if not ask.cards or not server.reads_cards(conn, ask.link):
            return None, None
        who = (ask.employee_id, ask.second_employee_id)
        passes: list[str | None] = [None, None]
        for n, track in enumerate(ask.cards[:2]):
            card = server.present_card(conn, ask.link, self.table_id, track)
            if card.passed is None:  # the link takes the ids: no card needed
                return None, None
            if card.employee_id != who[n]:
                raise LinkRefused(f"the server reads the card swiped as employee "
                                  f"{card.employee_id}'s, where this table read {who[n]}'s: "
                                  "the table's staff list differs from the casino's")
            passes[n] = card.passed
        return passes[0], passes[1]

    def _run(self) -> None:
        try:
            while (item := self._asks.get()) is not None:
                ask, reply = item
                reply(self.answer(ask))
        finally:
            self._close()

    def _close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

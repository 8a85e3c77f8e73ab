"""The I/O thread every driver runs on, its event queue, its reconnection and its counters.

One thread owns a device's port: it opens it, reads, writes, runs the framer and the protocol,
and reconnects with backoff when the port breaks or the device falls silent. Other threads
never touch the port: they call the driver's public methods, which queue a closure for the I/O
thread (:meth:`DeviceThread.submit`). Events leave through a ``queue.Queue`` (:meth:`get_event`)
and through callbacks (:meth:`subscribe`), neither of which knows anything of Qt; a
subscriber that is the only reader (the console's) stops the queue.

A subclass implements four hooks, all called on the I/O thread: :meth:`_on_open` (the port
just opened), :meth:`_on_data` (bytes arrived), :meth:`_on_tick` (timers: retransmission,
polling, heartbeat) and :meth:`_on_close` (the port is gone). It calls :meth:`_mark_alive`
when the device proves it is there, :meth:`_link_lost` when it decides it is not,
:meth:`_write` to send, and :meth:`_emit` to publish an event.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import enum
import functools
import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from dealer_console.devices.diagnostics import DiagnosticsSnapshot, FrameTap, RawFrame
from dealer_console.devices.events import (
    ConnectionState,
    DeviceConnected,
    DeviceDisconnected,
    DeviceEvent,
    EventSink,
)
from drivers.backoff import Backoff
from drivers.clock import REAL_CLOCK, Clock
from drivers.transport import Transport, TransportError

log = logging.getLogger(__name__)

E = TypeVar("E", bound=DeviceEvent)
TransportFactory = Callable[[], Transport]
"""Opens the port; raises :class:`TransportError` when it cannot."""

RAW_FRAMES_KEPT = 16
EVENT_BACKLOG = 10_000
"""Events kept for :meth:`DeviceThread.get_event` when no one reads them (a day of heartbeats
is far less; a reader that keeps up never gets near it)."""


Redactor = Callable[[bytes], str]
"""Turns one raw frame into the hex the technician screen may show (hiding secrets in it)."""


Describer = Callable[[bytes], str]
"""Reads one raw frame for the technician's live view ("STATUS READY", "bad CRC")."""


def plain_hex(raw: bytes) -> str:
    return raw.hex(" ")


def no_description(raw: bytes) -> str:
    return ""


def message_words(message: object) -> str:
    """A decoded message as a technician reads it: its kind and its fields, enums by name and
    cards as notation (``Status state=READY deal_id=0 firmware=SIM-3.8``)."""
    if not dataclasses.is_dataclass(message):
        return _shown(message)
    parts = [type(message).__name__]
    for f in dataclasses.fields(message):
        parts.append(f"{f.name}={_shown(getattr(message, f.name))}")
    return " ".join(parts)


def _shown(value: object) -> str:
    """A field's value by the protocol's names at any depth: an enum by its name (never
    ``LightColour.RED``), a list item by item, a nested value as its own fields."""
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, tuple | list):
        return " ".join(_shown(v) for v in value)
    if (dataclasses.is_dataclass(value) and not isinstance(value, type)
            and type(value).__str__ is object.__str__):  # a card keeps its own "Ad"
        inner = ",".join(_shown(getattr(value, f.name)) for f in dataclasses.fields(value))
        return f"{type(value).__name__}({inner})"
    return str(value)


def _read(describe: Describer, raw: bytes, prefix: str) -> str:
    return prefix + describe_safely(describe, raw)


def describe_safely(describe: Describer, raw: bytes) -> str:
    """A describer's reading, or why it could not read the frame (it must never break I/O)."""
    try:
        return describe(raw)
    except Exception as exc:  # a frame no one foresaw is shown, not fatal
        return f"unreadable: {exc}"


class Diagnostics:
    """Mutable counters behind a lock; :meth:`snapshot` gives the screen a frozen copy.

    ``redact`` renders each raw frame kept in ``last_rx`` / ``last_tx``: plain hex by default;
    a device whose frames carry a secret (the keypad's card track data) passes its own, so no
    subclass needs to reach into the lock.
    """

    def __init__(self, device: str, redact: Redactor = plain_hex,
                 describe: Describer = no_description) -> None:
        self._lock = threading.Lock()
        self._redact = redact
        self._describe = describe
        self.tap = FrameTap()
        self.device = device
        self.state = ConnectionState.STOPPED
        self.port = ""
        self.firmware = ""
        self.serial_number = ""
        self.counters: collections.Counter[str] = collections.Counter()
        self.last_error = ""
        self.last_rx: collections.deque[str] = collections.deque(maxlen=RAW_FRAMES_KEPT)
        self.last_tx: collections.deque[str] = collections.deque(maxlen=RAW_FRAMES_KEPT)
        self.extra: dict[str, str] = {}

    def _reading(self, raw: bytes, prefix: str = "") -> str | Callable[[], str]:
        """The frame in words for the tap: read when the technician's view asks for it, but
        at once where the hex hides a secret (the card's track data is not kept raw)."""
        if self._redact is not plain_hex:
            return prefix + describe_safely(self._describe, raw)
        return functools.partial(_read, self._describe, raw, prefix)

    def count(self, name: str, amount: int = 1) -> None:
        with self._lock:
            self.counters[name] += amount

    def update(self, **fields: Any) -> None:
        with self._lock:
            for name, value in fields.items():
                if not hasattr(self, name):
                    raise AttributeError(f"diagnostics have no field {name!r}")
                setattr(self, name, value)

    def set_extra(self, name: str, value: str) -> None:
        with self._lock:
            self.extra[name] = value

    def rx_frame(self, raw: bytes, good: bool) -> None:
        self.rx_chunk(raw, good=int(good), bad=int(not good))

    def rx_chunk(self, raw: bytes, good: int, bad: int) -> None:
        """Bytes that held ``good`` good frames and ``bad`` bad ones (a USB transfer may hold
        several reports): counted, and kept as one line of hex."""
        shown = self._redact(raw)
        self.tap.add("in", shown, self._reading(raw), good=not bad)
        with self._lock:
            self.counters["frames_good"] += good
            self.counters["frames_bad"] += bad
            self.last_rx.append(shown)

    def tx_frame(self, raw: bytes, retransmission: bool = False) -> None:
        shown = self._redact(raw)
        self.tap.add("out", shown, self._reading(raw, "resent: " if retransmission else ""))
        with self._lock:
            if retransmission:
                self.counters["frames_retransmitted"] += 1
            self.last_tx.append(shown)

    def snapshot(self) -> DiagnosticsSnapshot:
        with self._lock:
            c = self.counters
            return DiagnosticsSnapshot(
                device=self.device,
                state=self.state,
                port=self.port,
                firmware=self.firmware,
                serial_number=self.serial_number,
                frames_good=c["frames_good"],
                frames_bad=c["frames_bad"],
                frames_retransmitted=c["frames_retransmitted"],
                duplicates_dropped=c["duplicates_dropped"],
                bytes_in=c["bytes_in"],
                bytes_out=c["bytes_out"],
                connects=c["connects"],
                disconnects=c["disconnects"],
                events_unread_dropped=c["events_unread_dropped"],
                internal_errors=c["internal_errors"],
                loop_restarts=c["loop_restarts"],
                last_error=self.last_error,
                last_rx=tuple(self.last_rx),
                last_tx=tuple(self.last_tx),
                extra=dict(self.extra),
            )


class DeviceThread:
    """Base of every driver: the I/O thread, connection state, events and diagnostics.

    ``silence_timeout``: with the port open, no sign of life for this long means the device is
    gone (powered off behind a live USB adapter); the port is closed and reopened with backoff.
    """

    def __init__(
        self,
        name: str,
        open_transport: TransportFactory,
        *,
        backoff: Backoff | None = None,
        silence_timeout: float = 3.0,
        redact: Redactor = plain_hex,
        describe: Describer = no_description,
        clock: Clock = REAL_CLOCK,
    ) -> None:
        self._name = name
        self._open_transport = open_transport
        self._backoff = backoff or Backoff()
        self._clock = clock
        self._silence_timeout = silence_timeout
        self._events: queue.Queue[DeviceEvent] = queue.Queue(maxsize=EVENT_BACKLOG)
        self._sinks: list[EventSink] = []
        self._kept_for_readers = True  # until a subscriber is the only reader
        self._sinks_lock = threading.Lock()
        self._commands: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._event_seq = 0
        self._unread_dropped = 0
        self._transport: Transport | None = None
        self._alive = False
        self._last_heard = 0.0
        self._lost_reason = ""
        self._reported_down = False
        self.diag = Diagnostics(name, redact, describe)

    # ----------------------------------------------------------------- public, any thread
    @property
    def name(self) -> str:
        return self._name

    @property
    def state(self) -> ConnectionState:
        return self.diag.state

    def start(self) -> None:
        if self._thread is not None:
            raise RuntimeError(f"driver {self._name} is already started")
        self._stop.clear()
        self._alive = False  # a driver started again (device set-up) reports its connection
        self.diag.update(state=ConnectionState.CONNECTING)
        self._thread = threading.Thread(target=self._run, name=f"io-{self._name}", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        thread = self._thread
        if thread is None:
            return
        self._stop.set()
        thread.join(timeout)
        if thread.is_alive():
            raise RuntimeError(f"driver {self._name}: I/O thread did not stop in {timeout} s")
        self._thread = None
        self.diag.update(state=ConnectionState.STOPPED)

    def __enter__(self) -> DeviceThread:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def subscribe(self, sink: EventSink, *, only_reader: bool = False,
                  unread: EventSink | None = None) -> None:
        """Deliver every event to ``sink`` too. ``only_reader``: ``sink`` is the driver's
        only reader, so nothing is kept for :meth:`get_event` from now on. The console reads
        by subscription alone: the backlog filled in a day of play, and the technician's
        screen then counted every later event as dropped, none of which was.

        The only reader is given the events no one has read first, in order (to ``unread``
        when given): they were thrown away, and an outside review lost the shuffler's
        door-open status at a start (the fault never shown) and hands a restart's driver had
        acknowledged. Given under the lock, so an event the I/O thread emits meanwhile follows
        them."""
        with self._sinks_lock:
            self._sinks.append(sink)
            if only_reader:
                self._kept_for_readers = False
                waiting: list[DeviceEvent] = []
                with contextlib.suppress(queue.Empty):
                    while True:
                        waiting.append(self._events.get_nowait())
                for event in waiting:
                    self._give(unread or sink, event)

    def get_event(self, timeout: float | None = None) -> DeviceEvent | None:
        try:
            return self._events.get(timeout=timeout)
        except queue.Empty:
            return None

    def wait_for(self, kind: type[E], timeout: float = 5.0) -> E:
        """The next event of class ``kind`` (others before it are dropped): for tests, the CLI
        and technician actions. Raises TimeoutError naming what was awaited."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            event = self.get_event(max(left, 0.0)) if left > 0 else None
            if event is None:
                raise TimeoutError(f"{self._name}: no {kind.__name__} within {timeout} s")
            if isinstance(event, kind):
                return event

    def diagnostics(self) -> DiagnosticsSnapshot:
        return self.diag.snapshot()

    def frames(self, after: int = 0) -> tuple[RawFrame, ...]:
        return self.diag.tap.since(after)

    def submit(self, action: Callable[[], None]) -> None:
        """Run ``action`` on the I/O thread at its next turn (within one poll interval; at
        once where the transport can cut its wait short, as the in-process link can)."""
        self._commands.put(action)
        transport = self._transport  # the I/O thread may drop it meanwhile
        if transport is not None:
            transport.interrupt()

    # ----------------------------------------------------------------- for subclasses
    def _on_open(self) -> None:
        """The port opened: say hello, restart timers."""

    def _on_data(self, data: bytes) -> None:
        raise NotImplementedError

    def _on_tick(self, now: float) -> None:
        """Called every loop turn (at least once per poll interval)."""

    def _on_close(self) -> None:
        """The port is gone: forget partial frames (the device keeps its unacknowledged
        messages and resends them)."""

    def _emit(self, factory: Callable[..., E], **fields: Any) -> E:
        self._event_seq += 1
        event = factory(device=self._name, seq=self._event_seq, **fields)
        with self._sinks_lock:
            sinks = list(self._sinks)
            if self._kept_for_readers:  # kept under the lock: an only reader subscribing
                self._keep_for_readers(event)  # now is given it, or it is not kept
        for sink in sinks:
            self._give(sink, event)
        return event

    def _give(self, sink: EventSink, event: DeviceEvent) -> None:
        try:
            sink(event)
        except Exception:  # a faulty subscriber must not kill the device thread
            log.exception("%s: event subscriber failed on %r", self._name, event)

    def _keep_for_readers(self, event: DeviceEvent) -> None:
        """Keep ``event`` for :meth:`get_event`; when nobody has read the last
        ``EVENT_BACKLOG`` events (a screen that only subscribes), drop the oldest unread one,
        count it and log it, rather than grow without end all day."""
        while True:
            try:
                self._events.put_nowait(event)
                return
            except queue.Full:
                try:
                    dropped = self._events.get_nowait()
                except queue.Empty:
                    continue
                self.diag.count("events_unread_dropped")
                self._unread_dropped += 1
                if self._unread_dropped % 1000 == 1:  # the first, then one line per thousand
                    log.warning("%s: %d events unread; dropped the oldest (%d so far): %r",
                                self._name, EVENT_BACKLOG, self._unread_dropped, dropped)

    def _write(self, frame: bytes, retransmission: bool = False) -> None:
        """Send one frame now (I/O thread only); a dead port is handled by the loop."""
        if self._transport is None:
            return
        try:
            self._transport.write(frame)
        except TransportError as exc:
            self._link_lost(str(exc))
            return
        self.diag.count("bytes_out", len(frame))
        self.diag.tx_frame(frame, retransmission)

    def _now(self) -> float:
        """The I/O thread's time (the driver's clock; a test's may skip its waits)."""
        return self._clock.monotonic()

    def _mark_alive(self, firmware: str | None = None, serial_number: str | None = None) -> None:
        """The device answered: connected (once per connection), backoff reset."""
        self._last_heard = self._now()
        if firmware is not None:
            self.diag.update(firmware=firmware)
        if serial_number is not None:
            self.diag.update(serial_number=serial_number)
        if not self._alive:
            self._alive = True
            self._backoff.reset()
            self.diag.update(state=ConnectionState.CONNECTED)
            self.diag.count("connects")
            self._emit(
                DeviceConnected,
                firmware=self.diag.firmware,
                serial_number=self.diag.serial_number,
            )

    def _link_lost(self, reason: str) -> None:
        """Close the port; the loop reports it and reconnects with backoff."""
        if not self._lost_reason:
            self._lost_reason = reason

    # ----------------------------------------------------------------- the I/O thread
    def _run(self) -> None:
        """The thread's whole life: the loop, restarted after anything it did not foresee.

        A driver must outlive any bug in itself or in a library below it (issue 22): a thread
        that died left the device "not connected" until the console restarted, and a pending
        jackpot could then never be confirmed. An unexpected exception is logged, counted,
        reported to the round as the device going down, and the loop starts again with a
        fresh port after the usual backoff.
        """
        self._reported_down = False
        while not self._stop.is_set():
            try:
                self._loop()
            except Exception as exc:
                log.exception("%s: I/O loop failed; restarting it", self._name)
                self.diag.count("internal_errors")
                self.diag.count("loop_restarts")
                reason = f"internal error in {self._name} driver, restarted: {exc!r}"
                self._abandon_transport()
                self.diag.update(last_error=reason)
                if not self._reported_down or self._alive:
                    self._report_down(reason)
                self._reported_down = True
                self._alive = False
                self._lost_reason = ""
                self._wait_before_retry()
            else:
                break
        self._abandon_transport()
        self._run_commands()

    def _wait_before_retry(self) -> None:
        """Wait the backoff's delay; a backoff that fails (a subclass's own, say) must not
        take the thread down with it, so its cap, or one second, is waited instead."""
        try:
            delay = self._backoff.next_delay()
        except Exception:
            log.exception("%s: backoff failed; waiting its cap", self._name)
            delay = getattr(self._backoff, "maximum", 1.0)
        self._clock.wait(self._stop, delay)

    def _loop(self) -> None:
        """Open, read, tick, reconnect, until stopped; returns only when stopped."""
        while not self._stop.is_set():
            if self._transport is None:
                try:
                    self._transport = self._open_transport()
                except TransportError as exc:
                    self.diag.update(last_error=str(exc))
                    if not self._reported_down:
                        self._reported_down = True
                        self._report_down(str(exc))
                    self._run_commands()
                    self._wait_before_retry()
                    continue
                self.diag.update(port=self._transport.port, state=ConnectionState.CONNECTING)
                self._last_heard = self._now()
                self._lost_reason = ""
                self._guarded(self._on_open)
            if self._run_commands() and not self._lost_reason:
                # what the commands queued goes on the wire now, not after the read's wait
                # (a serial read waits its whole timeout when the device is quiet)
                self._guarded(self._on_tick, self._now())
            try:
                data = self._transport.read() if not self._lost_reason else b""
            except TransportError as exc:
                self._link_lost(str(exc))
                data = b""
            if data:
                self.diag.count("bytes_in", len(data))
                self._guarded(self._on_data, data)
            now = self._now()
            if not self._lost_reason and now - self._last_heard > self._silence_timeout:
                self._link_lost(f"no answer for {self._silence_timeout:g} s")
            if not self._lost_reason:
                self._guarded(self._on_tick, now)
            if self._lost_reason:
                reason = self._lost_reason
                self._close_transport()
                self.diag.update(last_error=reason)
                if not self._reported_down or self._alive:
                    self._report_down(reason)
                self._reported_down = True
                self._alive = False
                self._wait_before_retry()
            elif self._alive:
                self._reported_down = False

    def _abandon_transport(self) -> None:
        """Close the port whatever state the failed loop left it in (closing may fail too)."""
        try:
            self._close_transport()
        except Exception:
            log.exception("%s: closing the port after a failure failed", self._name)
            self._transport = None

    def _guarded(self, hook: Callable[..., None], *args: Any) -> None:
        """Run a protocol hook; a bug in it (or a message no one foresaw) must not kill the
        I/O thread silently, leaving the device shown as connected and deaf. It is logged,
        shown to the technician, and handled like a broken link: the port is reopened and
        the protocol starts again from its kept state."""
        try:
            hook(*args)
        except Exception as exc:
            log.exception("%s: %s failed", self._name, getattr(hook, "__name__", "hook"))
            self.diag.count("internal_errors")
            self._link_lost(f"internal error in {self._name} driver: {exc!r}")

    def _report_down(self, reason: str) -> None:
        self.diag.update(state=ConnectionState.DISCONNECTED)
        self.diag.count("disconnects")
        self._emit(DeviceDisconnected, reason=reason)

    def _close_transport(self) -> None:
        if self._transport is not None:
            self._transport.close()
            self._transport = None
            self._on_close()

    def _run_commands(self) -> int:
        """Run the queued commands; returns how many ran."""
        ran = 0
        while True:
            try:
                action = self._commands.get_nowait()
            except queue.Empty:
                return ran
            ran += 1
            try:
                action()
            except Exception:
                log.exception("%s: command failed", self._name)

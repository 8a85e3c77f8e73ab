"""Transport: a byte pipe that may break.

The device layer only sees :class:`Transport`; a lost cable, a closed pseudo-terminal or a USB
error all become :class:`TransportError`, which the I/O thread answers by reconnecting. Serial
ports are opened with ``serial.serial_for_url``, so a profile names its port as a string: a
device node, a ``/dev/serial/by-id`` link, ``spy://`` for a traffic dump, ``socket://`` or
``loop://``.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from typing import Protocol


def _termios_errors() -> tuple[type[BaseException], ...]:
    """``termios.error`` (not an ``OSError``): pyserial's flush raises it on a pseudo-terminal
    whose other end vanished (the shuffler's cable pulled mid-write)."""
    if sys.platform == "win32":  # no termios there
        return ()
    import termios

    return (termios.error,)


class TransportError(Exception):
    """The byte pipe is gone or could not be opened; the message names the port."""


class Transport(Protocol):
    @property
    def port(self) -> str:
        """What the technician screen shows as the port (a path, URL or USB id)."""

    def read(self) -> bytes:
        """What arrived, waiting at most the transport's poll interval; b"" if nothing."""

    def write(self, data: bytes) -> None: ...

    def interrupt(self) -> None:
        """Cut a read's wait short (any thread): a command is waiting to go out."""

    def close(self) -> None: ...


class SerialTransport:
    """A serial port (8N1) opened by URL."""

    def __init__(self, url: str, baudrate: int = 115200, poll_interval: float = 0.02) -> None:
        import serial  # heavy-ish and only needed once a port is really opened

        self._url = url
        try:
            self._serial = serial.serial_for_url(
                url,
                baudrate=baudrate,
                bytesize=serial.EIGHTBITS,
                parity=serial.PARITY_NONE,
                stopbits=serial.STOPBITS_ONE,
                timeout=poll_interval,
                write_timeout=1.0,
            )
        except (serial.SerialException, OSError, ValueError) as exc:
            raise TransportError(f"cannot open serial port {url}: {exc}") from exc
        self._errors: tuple[type[BaseException], ...] = (serial.SerialException, OSError,
                                                         *_termios_errors())
        self._open_lock = threading.Lock()  # interrupt (any thread) never races the close

    @property
    def port(self) -> str:
        return self._url

    def read(self) -> bytes:
        try:
            data: bytes = self._serial.read(1)
            if data:
                waiting = self._serial.in_waiting
                if waiting:
                    data += self._serial.read(waiting)
        except self._errors as exc:
            raise TransportError(f"serial port {self._url} failed on read: {exc}") from exc
        except TypeError as exc:  # pyserial on a pty that vanished mid-call
            raise TransportError(f"serial port {self._url} vanished: {exc}") from exc
        return data

    def write(self, data: bytes) -> None:
        try:
            self._serial.write(data)
            self._serial.flush()
        except self._errors as exc:
            raise TransportError(f"serial port {self._url} failed on write: {exc}") from exc

    def interrupt(self) -> None:
        """Cut the read's wait short (any thread): a command of the driver's is waiting to go
        out. A port type without it (a URL's) keeps its poll interval's delay."""
        with self._open_lock:
            if not self._serial.is_open:
                return
            cancel = getattr(self._serial, "cancel_read", None)
            if cancel is not None:
                with contextlib.suppress(*self._errors, NotImplementedError):
                    cancel()

    def close(self) -> None:
        with self._open_lock, contextlib.suppress(*self._errors):
            self._serial.close()

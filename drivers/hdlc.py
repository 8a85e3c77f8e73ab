"""Byte framing shared by the serial devices: HDLC-style flags, byte stuffing and CRC-16.

On the wire a frame is ``7E`` + stuffed(body + CRC-16 of body, big-endian) + ``7E``; inside,
``7E`` is sent as ``7D 5E`` and ``7D`` as ``7D 5D``. Because a flag can never occur inside a
frame, a receiver that lost its place (garbage, a dropped byte, a device plugged in mid-frame)
is back in step at the next flag, and each frame both opens and closes with one, so line noise
before a frame ends at its opening flag instead of spoiling it. Empty frames (two flags in a
row) are idle filler and are ignored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from drivers.crc import crc16

FLAG: Final = 0x7E
ESCAPE: Final = 0x7D
MAX_BODY: Final = 250
"""Longest body (unstuffed, without CRC) either side may send; longer input is garbage."""

_ESCAPED = re.compile(rb"\x7d(.)", re.DOTALL)


def _unescape(match: re.Match[bytes]) -> bytes:
    return bytes((match.group(1)[0] ^ 0x20,))


def encode(body: bytes) -> bytes:
    """One frame, flags included."""
    if not 1 <= len(body) <= MAX_BODY:
        raise ValueError(f"frame body of {len(body)} bytes: it must hold 1 to {MAX_BODY}")
    payload = body + crc16(body).to_bytes(2, "big")
    stuffed = payload.replace(b"\x7d", b"\x7d\x5d").replace(b"\x7e", b"\x7d\x5e")
    return b"\x7e" + stuffed + b"\x7e"


@dataclass(frozen=True, slots=True)
class Received:
    """One chunk between flags: ``body`` is None when it was not a good frame."""

    raw: bytes
    body: bytes | None
    error: str = ""


class Deframer:
    """Feed it bytes as they arrive; it returns every complete chunk between two flags."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._overflow = False

    def reset(self) -> None:
        """Forget a partial frame (the port was closed)."""
        self._buffer.clear()
        self._overflow = False

    def feed(self, data: bytes) -> list[Received]:
        out: list[Received] = []
        start = 0
        while True:
            flag = data.find(b"\x7e", start)
            if flag < 0:
                self._buffer += data[start:]
                if len(self._buffer) > 2 * (MAX_BODY + 2) + 2:
                    self._overflow = True
                    self._buffer.clear()
                return out
            self._buffer += data[start:flag]
            start = flag + 1
            if self._overflow:
                self._overflow = False
                self._buffer.clear()
                out.append(Received(b"", None, "frame longer than the maximum"))
                continue
            if not self._buffer:
                continue
            chunk = bytes(self._buffer)
            self._buffer.clear()
            out.append(self._check(chunk))

    @staticmethod
    def _check(chunk: bytes) -> Received:
        raw = b"\x7e" + chunk + b"\x7e"
        payload = _ESCAPED.sub(_unescape, chunk) if b"\x7d" in chunk else chunk
        if len(payload) < 3:
            return Received(raw, None, "frame too short")
        if len(payload) > MAX_BODY + 2:
            return Received(raw, None, "frame longer than the maximum")
        body, check = payload[:-2], payload[-2:]
        if crc16(body) != int.from_bytes(check, "big"):
            return Received(raw, None, "bad CRC")
        return Received(raw, body)

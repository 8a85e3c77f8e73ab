"""Stop-and-wait delivery with sequence numbers, acknowledgement, retransmission and
duplicate detection, sans I/O: both the shuffler driver and its double run it.

A packet body is ``SEQ KIND PAYLOAD``. Data packets are numbered 0, 1, 2, ... 255, 1, 2, ...:
0 only opens a session (the first packet a side sends after it starts is its HELLO), so a side
that restarted is heard even if its new sequence number equals the last one seen. The receiver
acknowledges every good data packet (``ACK`` carrying its sequence) and delivers it unless its
sequence equals the last one delivered: then it is a retransmission whose ACK was lost, and is
acknowledged again but not delivered twice. The sender keeps one packet in flight and resends
it when no ACK came within ``ack_timeout``, at once on a ``NAK`` (the peer saw a damaged
frame), and at once after the port reopens. Nothing is ever given up: an unacknowledged packet
is kept until the peer takes it.
"""

from __future__ import annotations

import collections
from dataclasses import dataclass
from typing import Final

from drivers import hdlc

ACK: Final = 0x06
NAK: Final = 0x15


class PacketError(ValueError):
    """A frame that passed its CRC but does not hold a packet."""


@dataclass(frozen=True, slots=True)
class Packet:
    seq: int
    kind: int
    payload: bytes = b""

    def body(self) -> bytes:
        return bytes((self.seq, self.kind)) + self.payload

    @classmethod
    def parse(cls, body: bytes) -> Packet:
        if len(body) < 2:
            raise PacketError(f"packet of {len(body)} bytes: a sequence and a kind are needed")
        return cls(body[0], body[1], bytes(body[2:]))

    def wire(self) -> bytes:
        return hdlc.encode(self.body())


@dataclass(frozen=True, slots=True)
class Out:
    """A frame to write; ``retransmission`` feeds the diagnostics counter."""

    frame: bytes
    retransmission: bool = False


def next_seq(seq: int) -> int:
    return 1 if seq >= 255 else seq + 1


class StopAndWait:
    def __init__(self, ack_timeout: float = 0.2) -> None:
        self.ack_timeout = ack_timeout
        self._queue: collections.deque[tuple[int, bytes]] = collections.deque()
        self._in_flight: Packet | None = None
        self._sent_at = 0.0
        self._next = 0
        self._last_delivered: int | None = None
        self.duplicates = 0

    @property
    def idle(self) -> bool:
        """Nothing in flight and nothing waiting."""
        return self._in_flight is None and not self._queue

    @property
    def pending(self) -> int:
        return len(self._queue) + (self._in_flight is not None)

    def send(self, kind: int, payload: bytes = b"") -> None:
        """Queue a data packet; :meth:`poll` puts it on the wire when its turn comes."""
        if kind in (ACK, NAK):
            raise ValueError("ACK and NAK are link packets, not data")
        self._queue.append((kind, payload))

    def receive(self, packet: Packet, now: float) -> tuple[Packet | None, list[Out]]:
        """Handle one good packet: the data packet to deliver (or None) and frames to write."""
        if packet.kind == ACK:
            if self._in_flight is not None and packet.seq == self._in_flight.seq:
                self._in_flight = None
            return None, self.poll(now)
        if packet.kind == NAK:
            return None, self._resend(now)
        ack = Out(Packet(packet.seq, ACK).wire())
        if packet.seq != 0 and packet.seq == self._last_delivered:
            self.duplicates += 1
            return None, [ack]
        self._last_delivered = packet.seq
        return packet, [ack]

    def damaged(self) -> list[Out]:
        """A frame failed its check: ask the peer to resend what it has in flight."""
        return [Out(Packet(0, NAK).wire())]

    def poll(self, now: float) -> list[Out]:
        """Send the next packet when the line is free; resend the one in flight when late."""
        if self._in_flight is not None:
            if now - self._sent_at >= self.ack_timeout:
                return self._resend(now)
            return []
        if not self._queue:
            return []
        kind, payload = self._queue.popleft()
        self._in_flight = Packet(self._next, kind, payload)
        self._next = next_seq(self._next)
        self._sent_at = now
        return [Out(self._in_flight.wire())]

    def reopened(self, now: float) -> list[Out]:
        """The port came back: resend at once what the peer may not have."""
        return self._resend(now) if self._in_flight is not None else self.poll(now)

    def _resend(self, now: float) -> list[Out]:
        if self._in_flight is None:
            return []
        self._sent_at = now
        return [Out(self._in_flight.wire(), retransmission=True)]

"""Bet-sensor bus messages and their bytes (docs/protocols/bet-sensors.md).

The bus is half duplex with the console as its only master: it sends a request to one node
and that node answers with the same sequence byte, or nobody speaks. A frame's body is
``ADDR SEQ KIND PAYLOAD`` inside the HDLC-style framing of ``drivers.hdlc``; ``ADDR`` is the
node (1-7, its seat) with bit 7 set on answers.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar, Final

from dealer_console.devices.bet_sensors import SPOTS_PER_SEAT, LightColour, LightMode, Spot
from drivers import hdlc
from drivers.base import message_words

REPLY: Final = 0x80


class MessageError(ValueError):
    """A frame that passed its CRC but does not hold a valid message."""


class Kind(enum.IntEnum):
    POLL = 0x01
    SET_LIGHT = 0x02
    LOCK = 0x03
    UNLOCK = 0x04
    IDENTIFY = 0x05
    STATE = 0x81
    IDENTITY = 0x85


def spots_of(seat: int, bits: int) -> frozenset[Spot]:
    return frozenset(Spot(seat, s) for s in range(1, SPOTS_PER_SEAT + 1) if bits >> (s - 1) & 1)


def bit(spot: int) -> int:
    return 1 << (spot - 1)


@dataclass(frozen=True, slots=True)
class Poll:
    KIND: ClassVar = Kind.POLL

    def payload(self) -> bytes:
        return b""


@dataclass(frozen=True, slots=True)
class SetLight:
    KIND: ClassVar = Kind.SET_LIGHT
    spot: int
    mode: LightMode
    colour: LightColour

    def payload(self) -> bytes:
        return bytes((self.spot, self.mode, self.colour))


@dataclass(frozen=True, slots=True)
class Lock:
    KIND: ClassVar = Kind.LOCK
    lock_id: int

    def payload(self) -> bytes:
        return self.lock_id.to_bytes(2, "big")


@dataclass(frozen=True, slots=True)
class Unlock:
    KIND: ClassVar = Kind.UNLOCK
    lock_id: int

    def payload(self) -> bytes:
        return self.lock_id.to_bytes(2, "big")


@dataclass(frozen=True, slots=True)
class Identify:
    KIND: ClassVar = Kind.IDENTIFY

    def payload(self) -> bytes:
        return b""


@dataclass(frozen=True, slots=True)
class State:
    """A node's whole state: bit ``s - 1`` of each bitmap is spot ``s``."""

    KIND: ClassVar = Kind.STATE
    spots: int
    present: int
    lock_id: int
    wagered: int
    late: int
    removed: int
    lights: tuple[tuple[LightMode, LightColour], ...]

    def payload(self) -> bytes:
        head = bytes((self.spots, self.present)) + self.lock_id.to_bytes(2, "big")
        lights = b"".join(bytes((m, c)) for m, c in self.lights)
        return head + bytes((self.wagered, self.late, self.removed)) + lights


@dataclass(frozen=True, slots=True)
class Identity:
    KIND: ClassVar = Kind.IDENTITY
    spots: int
    firmware: str
    serial_number: str

    def payload(self) -> bytes:
        fw, sn = self.firmware.encode("ascii"), self.serial_number.encode("ascii")
        return bytes((self.spots, len(fw))) + fw + bytes((len(sn),)) + sn


Request = Poll | SetLight | Lock | Unlock | Identify
Reply = State | Identity
Message = Request | Reply


@dataclass(frozen=True, slots=True)
class BusFrame:
    """A good frame: the node address (1-7), whether it is an answer, the sequence, the message."""

    address: int
    reply: bool
    seq: int
    message: Message

    def wire(self) -> bytes:
        addr = self.address | (REPLY if self.reply else 0)
        return hdlc.encode(bytes((addr, self.seq, self.message.KIND)) + self.message.payload())


def _need(payload: bytes, n: int, kind: Kind) -> None:
    if len(payload) < n:
        raise MessageError(f"{kind.name}: {len(payload)} payload bytes, at least {n} needed")


def decode(body: bytes) -> BusFrame:
    if len(body) < 3:
        raise MessageError(f"bus frame of {len(body)} bytes: address, sequence, kind needed")
    addr, seq, code, payload = body[0], body[1], body[2], body[3:]
    address, reply = addr & 0x7F, bool(addr & REPLY)
    if not 1 <= address <= 7:
        raise MessageError(f"node address {address} is outside 1-7")
    try:
        kind = Kind(code)
    except ValueError:
        raise MessageError(f"unknown message kind 0x{code:02x}") from None
    if reply != (kind >= REPLY):
        raise MessageError(f"{kind.name} travels the other way")
    message: Message
    if kind in (Kind.POLL, Kind.IDENTIFY):
        message = Poll() if kind is Kind.POLL else Identify()
        size = 0
    elif kind is Kind.SET_LIGHT:
        _need(payload, 3, kind)
        size = 3
        if not 1 <= payload[0] <= SPOTS_PER_SEAT:
            raise MessageError(f"SET_LIGHT: spot {payload[0]} is outside 1-{SPOTS_PER_SEAT}")
        try:
            message = SetLight(payload[0], LightMode(payload[1]), LightColour(payload[2]))
        except ValueError as exc:
            raise MessageError(f"SET_LIGHT: {exc}") from None
    elif kind in (Kind.LOCK, Kind.UNLOCK):
        _need(payload, 2, kind)
        size = 2
        lock_id = int.from_bytes(payload[:2], "big")
        message = Lock(lock_id) if kind is Kind.LOCK else Unlock(lock_id)
    elif kind is Kind.STATE:
        _need(payload, 7, kind)
        spots = payload[0]
        if not 1 <= spots <= SPOTS_PER_SEAT:
            raise MessageError(f"STATE: {spots} spots fitted, 1-{SPOTS_PER_SEAT} possible")
        size = 7 + 2 * spots
        _need(payload, size, kind)
        try:
            lights = tuple(
                (LightMode(payload[7 + 2 * i]), LightColour(payload[8 + 2 * i]))
                for i in range(spots)
            )
        except ValueError as exc:
            raise MessageError(f"STATE: {exc}") from None
        mask = (1 << spots) - 1
        bitmaps = (payload[1], payload[4], payload[5], payload[6])
        if any(b & ~mask for b in bitmaps):
            raise MessageError(f"STATE: a bitmap names a spot beyond the {spots} fitted")
        message = State(
            spots, payload[1], int.from_bytes(payload[2:4], "big"), *bitmaps[1:], lights
        )
    else:
        _need(payload, 2, kind)
        spots, fw_len = payload[0], payload[1]
        if not 1 <= spots <= SPOTS_PER_SEAT:  # as STATE: 0 would silence the node's lights
            raise MessageError(f"IDENTITY: {spots} spots fitted, 1-{SPOTS_PER_SEAT} possible")
        _need(payload, 3 + fw_len, kind)
        sn_len = payload[2 + fw_len]
        size = 3 + fw_len + sn_len
        _need(payload, size, kind)
        try:
            fw = payload[2 : 2 + fw_len].decode("ascii")
            sn = payload[3 + fw_len : size].decode("ascii")
        except UnicodeDecodeError:
            raise MessageError("IDENTITY: firmware or serial number is not ASCII") from None
        message = Identity(spots, fw, sn)
    if len(payload) != size:
        raise MessageError(f"{kind.name}: {len(payload) - size} unexpected bytes at the end")
    return BusFrame(address, reply, seq, message)


@dataclass(frozen=True, slots=True)
class Frame:
    raw: bytes
    frame: BusFrame | None = None
    error: str = ""


class BetSensorFramer:
    """Bytes in, frames out; never raises on any input."""

    def __init__(self) -> None:
        self._deframer = hdlc.Deframer()

    def reset(self) -> None:
        self._deframer.reset()

    def feed(self, data: bytes) -> list[Frame]:
        out: list[Frame] = []
        for chunk in self._deframer.feed(data):
            if chunk.body is None:
                out.append(Frame(chunk.raw, error=chunk.error))
                continue
            try:
                out.append(Frame(chunk.raw, decode(chunk.body)))
            except MessageError as exc:
                out.append(Frame(chunk.raw, error=str(exc)))
        return out


def describe(raw: bytes) -> str:
    """One wire frame in words, for the technician's live view."""
    words = []
    for item in BetSensorFramer().feed(raw):
        if item.frame is None:
            words.append(f"bad frame: {item.error}")
            continue
        frame = item.frame
        who = f"seat {frame.address} {'answers' if frame.reply else 'asked'}"
        words.append(f"{who} #{frame.seq}: {message_words(frame.message)}")
    return "; ".join(words) or "incomplete frame"

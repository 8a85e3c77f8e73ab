"""Shuffler messages and their bytes (docs/protocols/shuffler.md).

Frames are HDLC-style (``drivers.hdlc``), packets are ``SEQ KIND PAYLOAD`` (``drivers.arq``);
this module gives each KIND its payload layout. Decoding refuses anything malformed with a
:class:`MessageError` naming the field, so a frame that passes its CRC but carries nonsense is
counted bad instead of becoming a wrong event.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar, Final

from dealer_console.cards import Card, card_from_index
from dealer_console.devices.shuffler import ShufflerState
from drivers import hdlc
from drivers.arq import Packet, PacketError
from drivers.base import message_words

PROTOCOL_VERSION: Final = 1
DEALS_REMEMBERED: Final = 8
"""The deals a shuffler remembers by id (a START_DEAL repeating one of them is answered with a
status only), and so the deals whose facts the driver remembers: bounded, so that ids may
come round again (docs/protocols/shuffler.md)."""


class MessageError(ValueError):
    """A packet whose payload does not fit its kind."""


class Kind(enum.IntEnum):
    HELLO = 0x10
    STATUS = 0x11
    DECK_CHECK = 0x20
    RANDOM = 0x21
    HAND = 0x22
    CARDS_LEFT = 0x23
    COUNT_ERROR = 0x24
    STATUS_REQUEST = 0x30
    START_DEAL = 0x31
    RESET = 0x32
    DECK_COUNT = 0x33


class _Reader:
    def __init__(self, kind: Kind, payload: bytes) -> None:
        self.kind = kind
        self.data = payload
        self.at = 0

    def take(self, n: int, what: str) -> bytes:
        if self.at + n > len(self.data):
            raise MessageError(f"{self.kind.name}: payload ends before {what}")
        chunk = self.data[self.at : self.at + n]
        self.at += n
        return chunk

    def u8(self, what: str) -> int:
        return self.take(1, what)[0]

    def u16(self, what: str) -> int:
        return int.from_bytes(self.take(2, what), "big")

    def text(self, what: str) -> str:
        raw = self.take(self.u8(f"{what} length"), what)
        try:
            return raw.decode("ascii")
        except UnicodeDecodeError as exc:
            raise MessageError(f"{self.kind.name}: {what} is not ASCII") from exc

    def cards(self, what: str) -> tuple[Card, ...]:
        count = self.u8(f"{what} count")
        raw = self.take(count, what)
        bad = [b for b in raw if b > 52]
        if bad:
            raise MessageError(f"{self.kind.name}: {what} holds card code {bad[0]} (0-52 only)")
        return tuple(card_from_index(b) for b in raw)

    def end(self) -> None:
        if self.at != len(self.data):
            raise MessageError(
                f"{self.kind.name}: {len(self.data) - self.at} unexpected bytes after the payload"
            )


def _text(value: str) -> bytes:
    raw = value.encode("ascii")
    if len(raw) > 32:
        raise ValueError(f"text {value!r} is longer than 32 bytes")
    return bytes((len(raw),)) + raw


def _cards(cards: tuple[Card, ...]) -> bytes:
    return bytes((len(cards), *(c.index for c in cards)))


@dataclass(frozen=True, slots=True)
class Hello:
    """First packet (sequence 0) of each side's session."""

    KIND: ClassVar = Kind.HELLO
    firmware: str
    serial_number: str
    protocol: int = PROTOCOL_VERSION

    def payload(self) -> bytes:
        return bytes((self.protocol,)) + _text(self.firmware) + _text(self.serial_number)


@dataclass(frozen=True, slots=True)
class Status:
    KIND: ClassVar = Kind.STATUS
    state: ShufflerState
    deal_id: int
    firmware: str
    serial_number: str

    def payload(self) -> bytes:
        return (
            bytes((self.state,))
            + self.deal_id.to_bytes(2, "big")
            + _text(self.firmware)
            + _text(self.serial_number)
        )


@dataclass(frozen=True, slots=True)
class DeckCheck:
    KIND: ClassVar = Kind.DECK_CHECK
    deal_id: int
    counted: int

    def payload(self) -> bytes:
        return self.deal_id.to_bytes(2, "big") + bytes((self.counted,))


@dataclass(frozen=True, slots=True)
class RandomDrawn:
    KIND: ClassVar = Kind.RANDOM
    deal_id: int
    number: int

    def payload(self) -> bytes:
        return self.deal_id.to_bytes(2, "big") + bytes((self.number,))


@dataclass(frozen=True, slots=True)
class Hand:
    KIND: ClassVar = Kind.HAND
    deal_id: int
    index: int
    cards: tuple[Card, ...]

    def payload(self) -> bytes:
        return self.deal_id.to_bytes(2, "big") + bytes((self.index,)) + _cards(self.cards)


@dataclass(frozen=True, slots=True)
class Left:
    KIND: ClassVar = Kind.CARDS_LEFT
    deal_id: int
    cards: tuple[Card, ...]

    def payload(self) -> bytes:
        return self.deal_id.to_bytes(2, "big") + _cards(self.cards)


@dataclass(frozen=True, slots=True)
class CountError:
    KIND: ClassVar = Kind.COUNT_ERROR
    deal_id: int
    counted: int

    def payload(self) -> bytes:
        return self.deal_id.to_bytes(2, "big") + bytes((self.counted,))


@dataclass(frozen=True, slots=True)
class StatusRequest:
    KIND: ClassVar = Kind.STATUS_REQUEST

    def payload(self) -> bytes:
        return b""


@dataclass(frozen=True, slots=True)
class StartDeal:
    KIND: ClassVar = Kind.START_DEAL
    deal_id: int
    hands: int

    def payload(self) -> bytes:
        return self.deal_id.to_bytes(2, "big") + bytes((self.hands,))


@dataclass(frozen=True, slots=True)
class Reset:
    KIND: ClassVar = Kind.RESET

    def payload(self) -> bytes:
        return b""


@dataclass(frozen=True, slots=True)
class DeckCount:
    """Technician action: count the deck without dealing (answered by DECK_CHECK, deal 0)."""

    KIND: ClassVar = Kind.DECK_COUNT

    def payload(self) -> bytes:
        return b""


Message = (
    Hello
    | Status
    | DeckCheck
    | RandomDrawn
    | Hand
    | Left
    | CountError
    | StatusRequest
    | StartDeal
    | Reset
    | DeckCount
)


def decode(packet: Packet) -> Message:
    """The message a data packet carries; MessageError if it is not one."""
    try:
        kind = Kind(packet.kind)
    except ValueError:
        raise MessageError(f"unknown message kind 0x{packet.kind:02x}") from None
    r = _Reader(kind, packet.payload)
    message: Message
    if kind is Kind.HELLO:
        message = Hello(
            protocol=r.u8("protocol"),
            firmware=r.text("firmware"),
            serial_number=r.text("serial number"),
        )
    elif kind is Kind.STATUS:
        code = r.u8("state")
        try:
            state = ShufflerState(code)
        except ValueError:
            raise MessageError(f"STATUS: unknown state {code}") from None
        message = Status(state, r.u16("deal id"), r.text("firmware"), r.text("serial number"))
    elif kind is Kind.DECK_CHECK:
        message = DeckCheck(r.u16("deal id"), r.u8("count"))
    elif kind is Kind.RANDOM:
        message = RandomDrawn(r.u16("deal id"), r.u8("number"))
    elif kind is Kind.HAND:
        message = Hand(r.u16("deal id"), r.u8("delivery index"), r.cards("cards"))
    elif kind is Kind.CARDS_LEFT:
        message = Left(r.u16("deal id"), r.cards("cards"))
    elif kind is Kind.COUNT_ERROR:
        message = CountError(r.u16("deal id"), r.u8("count"))
    elif kind is Kind.START_DEAL:
        message = StartDeal(r.u16("deal id"), r.u8("hands"))
    elif kind is Kind.STATUS_REQUEST:
        message = StatusRequest()
    elif kind is Kind.RESET:
        message = Reset()
    else:
        message = DeckCount()
    r.end()
    return message


@dataclass(frozen=True, slots=True)
class Frame:
    """One chunk off the wire: a packet (and its message when it is data) or an error."""

    raw: bytes
    packet: Packet | None = None
    message: Message | None = None
    error: str = ""
    checked: bool = False
    """The frame passed its CRC (a packet or a message that does not read is still counted
    bad, but was not damaged on the wire: asking for it again at once brings the same)."""


class ShufflerFramer:
    """Bytes in, frames out; never raises on any input."""

    def __init__(self) -> None:
        self._deframer = hdlc.Deframer()

    def reset(self) -> None:
        self._deframer.reset()

    def feed(self, data: bytes) -> list[Frame]:
        frames: list[Frame] = []
        for chunk in self._deframer.feed(data):
            if chunk.body is None:
                frames.append(Frame(chunk.raw, error=chunk.error))
                continue
            try:
                packet = Packet.parse(chunk.body)
                message = None if packet.kind in (0x06, 0x15) else decode(packet)
            except (PacketError, MessageError) as exc:
                frames.append(Frame(chunk.raw, error=str(exc), checked=True))
                continue
            frames.append(Frame(chunk.raw, packet, message))
        return frames


def packet_for(message: Message, seq: int) -> Packet:
    return Packet(seq, message.KIND, message.payload())


def describe(raw: bytes) -> str:
    """One wire frame in words, for the technician's live view."""
    words = []
    for frame in ShufflerFramer().feed(raw):
        if frame.packet is None:
            words.append(f"bad frame: {frame.error}")
        elif frame.message is None:
            words.append(f"{'ACK' if frame.packet.kind == 0x06 else 'NAK'} {frame.packet.seq}")
        else:
            words.append(f"#{frame.packet.seq} {message_words(frame.message)}")
    return "; ".join(words) or "incomplete frame"

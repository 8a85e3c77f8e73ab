"""Keypad reports <-> bytes: the framer layer of the keypad (docs/protocols/keypad.md).

A report is ``type, seq, len, payload[len], crc16`` (CRC-16/CCITT-FALSE, big-endian, over all
bytes before it). One USB interrupt transfer holds one or more whole reports; bytes of value 0
after the last report are padding. USB checks each packet already, but the report CRC also
catches a firmware or adapter fault, and it is what the fault-injecting double corrupts.

Decoding never raises: a transfer yields the good reports up to the first bad one and a count
of what it threw away, because after a bad length byte nothing later in the transfer can be
trusted; the sequence numbers make the keypad send the rest again.
"""

from __future__ import annotations

import enum
import struct
from dataclasses import dataclass
from typing import Final

from dealer_console.devices.keypad import (
    TRACK2_CHARS,
    BadReadReason,
    Button,
    LedMode,
    SetLeds,
)
from drivers.crc import crc16

MAX_TRANSFER: Final = 64
"""wMaxPacketSize of both interrupt endpoints: one transfer is one full-speed packet."""
HEADER: Final = 3
TRAILER: Final = 2
MAX_PAYLOAD: Final = MAX_TRANSFER - HEADER - TRAILER
PADDING: Final = 0x00


class ReportType(enum.IntEnum):
    """Report types; IN reports (keypad -> console) below 0x80, OUT reports from 0x80."""

    HELLO = 0x01
    BUTTON = 0x10
    CARD = 0x20
    BAD_READ = 0x21
    LED_ACK = 0x30
    PONG = 0x31
    ACK = 0x81
    SET_LEDS = 0x82
    HELLO_REQUEST = 0x83
    PING = 0x84


SEQUENCED: Final = frozenset({ReportType.BUTTON, ReportType.CARD, ReportType.BAD_READ})
"""IN reports that carry an event: numbered, acknowledged and sent again until acknowledged."""


class DecodeError(ValueError):
    """A report that is well framed but whose payload makes no sense (reported, never raised
    out of :func:`decode_transfer`)."""


@dataclass(frozen=True, slots=True)
class Report:
    """One framed report: its type, sequence number and payload bytes."""

    type: ReportType
    seq: int
    payload: bytes = b""

    def __post_init__(self) -> None:
        if not 0 <= self.seq <= 0xFF:
            raise ValueError(f"sequence number {self.seq} is not 0-255")
        if len(self.payload) > MAX_PAYLOAD:
            raise ValueError(f"payload of {len(self.payload)} bytes exceeds {MAX_PAYLOAD}")

    def encode(self) -> bytes:
        body = bytes((self.type, self.seq, len(self.payload))) + self.payload
        return body + struct.pack(">H", crc16(body))


@dataclass(frozen=True, slots=True)
class DecodedTransfer:
    """What one transfer held: the good reports in order, and how many bytes were rejected."""

    reports: tuple[Report, ...]
    rejected: int
    reason: str = ""


def decode_transfer(data: bytes) -> DecodedTransfer:
    """Split one interrupt transfer into reports; never raises."""
    reports: list[Report] = []
    pos = 0
    end = len(data)
    while pos < end:
        if data[pos] == PADDING:
            if any(data[pos:]):
                return DecodedTransfer(tuple(reports), end - pos, "bytes after padding")
            break
        if end - pos < HEADER + TRAILER:
            return DecodedTransfer(tuple(reports), end - pos, "truncated report")
        length = data[pos + 2]
        stop = pos + HEADER + length + TRAILER
        if length > MAX_PAYLOAD or stop > end:
            return DecodedTransfer(tuple(reports), end - pos, "truncated report")
        body = data[pos : stop - TRAILER]
        (crc,) = struct.unpack_from(">H", data, stop - TRAILER)
        if crc != crc16(body):
            return DecodedTransfer(tuple(reports), end - pos, "bad CRC")
        try:
            kind = ReportType(data[pos])
        except ValueError:
            reason = f"unknown report type {data[pos]:#04x}"
            return DecodedTransfer(tuple(reports), end - pos, reason)
        reports.append(Report(kind, data[pos + 1], bytes(body[HEADER:])))
        pos = stop
    return DecodedTransfer(tuple(reports), 0)


def encode_transfer(reports: list[Report] | tuple[Report, ...]) -> bytes:
    """Pack reports back to back into one transfer; raise ValueError when they do not fit."""
    data = b"".join(r.encode() for r in reports)
    if len(data) > MAX_TRANSFER:
        raise ValueError(f"{len(data)} bytes do not fit one {MAX_TRANSFER}-byte transfer")
    return data


# --- payloads --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hello:
    """The keypad's introduction: who it is and where its event numbering stands."""

    session: int
    first_number: int
    """The number of the first event the keypad sends now: its oldest unacknowledged one, or
    the number its next new event will get when none is waiting."""
    firmware: str
    serial_number: str


HELLO_HEAD: Final = 11


def hello_report(hello: Hello) -> Report:
    major, minor, patch = (int(p) for p in hello.firmware.split("."))
    serial = hello.serial_number.encode("ascii")
    if len(serial) > 16:
        raise ValueError("serial number longer than 16 characters")
    head = struct.pack(">IIBBB", hello.session, hello.first_number, major, minor, patch)
    payload = head + serial
    return Report(ReportType.HELLO, 0, payload)


def parse_hello(report: Report) -> Hello:
    p = report.payload
    if len(p) < HELLO_HEAD or len(p) > HELLO_HEAD + 16:
        raise DecodeError(f"HELLO payload of {len(p)} bytes (11-27 expected)")
    session, first_number, major, minor, patch = struct.unpack_from(">IIBBB", p)
    serial = p[HELLO_HEAD:]
    if not serial.isascii() or not serial.decode("ascii").isprintable():
        raise DecodeError("HELLO serial number is not printable ASCII")
    return Hello(session, first_number, f"{major}.{minor}.{patch}", serial.decode("ascii"))


class ButtonAction(enum.IntEnum):
    RELEASED = 0
    PRESSED = 1


def button_report(seq: int, button: Button, action: ButtonAction) -> Report:
    return Report(ReportType.BUTTON, seq, bytes((button, action)))


def parse_button(report: Report) -> tuple[Button, ButtonAction]:
    p = report.payload
    if len(p) != 2:
        raise DecodeError(f"BUTTON payload of {len(p)} bytes (2 expected)")
    try:
        return Button(p[0]), ButtonAction(p[1])
    except ValueError:
        raise DecodeError(f"BUTTON with unknown code {p[0]:#04x} or action {p[1]}") from None


TRACK_2: Final = 2


def card_report(seq: int, track: str) -> Report:
    return Report(ReportType.CARD, seq, bytes((TRACK_2,)) + track.encode("ascii"))


def parse_card(report: Report) -> str:
    """The track 2 characters of a CARD report (validity checked by ``CardSwiped``)."""
    p = report.payload
    if len(p) < 2 or p[0] != TRACK_2:
        raise DecodeError("CARD report without track 2 data")
    if not all(chr(b) in TRACK2_CHARS for b in p[1:]):
        raise DecodeError("CARD report with a character outside track 2's set")
    return p[1:].decode("ascii")


def bad_read_report(seq: int, reason: BadReadReason) -> Report:
    return Report(ReportType.BAD_READ, seq, bytes((reason,)))


def parse_bad_read(report: Report) -> BadReadReason:
    p = report.payload
    if len(p) != 1:
        raise DecodeError(f"BAD_READ payload of {len(p)} bytes (1 expected)")
    try:
        return BadReadReason(p[0])
    except ValueError:
        return BadReadReason.UNKNOWN


def ack_report(session: int, seq: int) -> Report:
    return Report(ReportType.ACK, seq, struct.pack(">I", session))


def parse_ack(report: Report) -> int:
    """The session an ACK names (its sequence number is ``report.seq``)."""
    if len(report.payload) != 4:
        raise DecodeError(f"ACK payload of {len(report.payload)} bytes (4 expected)")
    (session,) = struct.unpack(">I", report.payload)
    return int(session)


def set_leds_report(seq: int, command: SetLeds) -> Report:
    return Report(ReportType.SET_LEDS, seq, b"".join(bytes((b, m)) for b, m in command.modes))


def parse_set_leds(report: Report) -> SetLeds:
    p = report.payload
    if len(p) % 2:
        raise DecodeError("SET_LEDS payload of odd length")
    try:
        modes = {Button(p[i]): LedMode(p[i + 1]) for i in range(0, len(p), 2)}
    except ValueError:
        raise DecodeError("SET_LEDS with an unknown button or mode") from None
    return SetLeds.of(modes)


def hello_request_report() -> Report:
    return Report(ReportType.HELLO_REQUEST, 0)


def ping_report(seq: int) -> Report:
    return Report(ReportType.PING, seq)


def pong_report(seq: int) -> Report:
    return Report(ReportType.PONG, seq)


def led_ack_report(seq: int) -> Report:
    return Report(ReportType.LED_ACK, seq)


# --- diagnostics -----------------------------------------------------------------------------


def redacted_hex(data: bytes) -> str:
    """Hex of a transfer for the technician screen, with card track data masked.

    In a good CARD report every track character but the last four shows as ``**``. From the
    first report that does not check out on, every byte that could be a track 2 character
    (0x30-0x3f) is masked, so a corrupted swipe cannot leak either.
    """
    cells = [f"{b:02x}" for b in data]
    pos = 0
    while pos + HEADER + TRAILER <= len(data) and data[pos] != PADDING:
        stop = pos + HEADER + data[pos + 2] + TRAILER
        if stop > len(data):
            break
        (crc,) = struct.unpack_from(">H", data, stop - TRAILER)
        if crc != crc16(data[pos : stop - TRAILER]):
            break
        if data[pos] == ReportType.CARD:
            for i in range(pos + HEADER + 1, stop - TRAILER - 4):
                cells[i] = "**"
        pos = stop
    for i in range(pos, len(data)):
        if 0x30 <= data[i] <= 0x3F:
            cells[i] = "**"
    return " ".join(cells)


def describe(data: bytes) -> str:
    """A transfer in words, for the technician's live view: the report types and numbers;
    a card's track data never appears (only that a card was read)."""
    decoded = decode_transfer(data)
    words = []
    for report in decoded.reports:
        word = f"{report.type.name} #{report.seq}"
        if report.type is ReportType.BUTTON:
            try:
                button, action = parse_button(report)
                word += f" {button.name} {action.name}"
            except (DecodeError, ValueError) as exc:
                word += f" ({exc})"
        words.append(word)
    if decoded.rejected:
        words.append(f"{decoded.rejected} bytes rejected: {decoded.reason}")
    return "; ".join(words) or "empty transfer"

"""The keypad report codec: golden bytes of every report, and what a damaged transfer yields."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dealer_console.devices.keypad import TRACK2_MAX, BadReadReason, Button, LedMode
from drivers.keypad import codec
from drivers.keypad.codec import ButtonAction, Report, ReportType

GOLDEN = json.loads((Path(__file__).parent / "reports.golden.json").read_text())


def reference_crc(data: bytes) -> int:
    """CRC-16/CCITT-FALSE bit by bit, as the protocol page states it."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


def test_crc_is_ccitt_false() -> None:
    assert codec.crc16(b"123456789") == 0x29B1  # the catalogue's check value
    assert reference_crc(b"123456789") == 0x29B1


def meaning_of(report: Report) -> dict[str, Any]:
    kind = report.type
    out: dict[str, Any] = {"type": kind.name}
    if kind is ReportType.HELLO:
        hello = codec.parse_hello(report)
        out |= {
            "session": hello.session,
            "first_number": hello.first_number,
            "firmware": hello.firmware,
            "serial_number": hello.serial_number,
        }
        return out
    out["seq"] = report.seq
    if kind is ReportType.BUTTON:
        button, action = codec.parse_button(report)
        out |= {"button": button.name, "action": action.name}
    elif kind is ReportType.CARD:
        out["track"] = codec.parse_card(report)
    elif kind is ReportType.BAD_READ:
        out["reason"] = codec.parse_bad_read(report).name
    elif kind is ReportType.ACK:
        out["session"] = codec.parse_ack(report)
    elif kind is ReportType.SET_LEDS:
        leds = codec.parse_set_leds(report)
        out["leds"] = {b.name: m.name for b, m in leds.modes}
    return out


@pytest.mark.parametrize("case", GOLDEN, ids=[c["name"] for c in GOLDEN])
def test_golden_report_decodes_to_its_meaning(case: dict[str, Any]) -> None:
    raw = bytes.fromhex(case["hex"])
    body, crc = raw[:-2], int.from_bytes(raw[-2:], "big")
    assert reference_crc(body) == crc
    assert raw[2] == len(raw) - 5
    decoded = codec.decode_transfer(raw)
    assert decoded.rejected == 0
    (report,) = decoded.reports
    assert meaning_of(report) == case["meaning"]
    assert report.encode() == raw


def test_golden_file_covers_every_report_type() -> None:
    assert {c["meaning"]["type"] for c in GOLDEN} == {t.name for t in ReportType}


ALL = [bytes.fromhex(c["hex"]) for c in GOLDEN if len(c["hex"]) < 60]


def test_merged_reports_in_one_transfer_all_decode() -> None:
    transfer = b"".join(ALL[:4])
    assert len(transfer) <= codec.MAX_TRANSFER
    decoded = codec.decode_transfer(transfer + b"\x00" * (64 - len(transfer)))
    assert [r.encode() for r in decoded.reports] == ALL[:4]
    assert decoded.rejected == 0


@pytest.mark.parametrize("cut", range(1, 7))
def test_split_report_is_rejected_whole(cut: int) -> None:
    raw = ALL[1]
    for part in (raw[:cut], raw[cut:]):
        decoded = codec.decode_transfer(part)
        assert decoded.reports == ()
        assert decoded.rejected == len(part)


def test_corrupted_report_keeps_the_good_ones_before_it() -> None:
    good, bad = ALL[1], bytearray(ALL[2])
    bad[3] ^= 0x01
    decoded = codec.decode_transfer(good + bytes(bad) + ALL[3])
    assert [r.encode() for r in decoded.reports] == [good]
    assert decoded.reason == "bad CRC"
    assert decoded.rejected == len(bad) + len(ALL[3])


def test_garbage_and_stray_bytes_after_padding_are_rejected() -> None:
    assert codec.decode_transfer(b"\xff\xfe\x07").reports == ()
    decoded = codec.decode_transfer(ALL[1] + b"\x00\x00\x10")
    assert len(decoded.reports) == 1 and decoded.reason == "bytes after padding"
    assert codec.decode_transfer(b"").reports == ()


def test_unknown_type_with_a_good_crc_is_rejected() -> None:
    body = bytes((0x77, 1, 0))
    raw = body + codec.crc16(body).to_bytes(2, "big")
    assert codec.decode_transfer(raw).reason == "unknown report type 0x77"


def test_transfer_too_long_is_refused() -> None:
    reports = [codec.card_report(i, "1" * TRACK2_MAX) for i in range(2)]
    with pytest.raises(ValueError, match="do not fit"):
        codec.encode_transfer(reports)


def test_payload_parsers_name_what_is_wrong() -> None:
    with pytest.raises(codec.DecodeError, match="BUTTON"):
        codec.parse_button(Report(ReportType.BUTTON, 1, b"\x99\x01"))
    with pytest.raises(codec.DecodeError, match="track 2"):
        codec.parse_card(Report(ReportType.CARD, 1, b"\x01123"))
    with pytest.raises(codec.DecodeError, match="outside"):
        codec.parse_card(Report(ReportType.CARD, 1, b"\x02AB"))
    with pytest.raises(codec.DecodeError, match="HELLO"):
        codec.parse_hello(Report(ReportType.HELLO, 0, b"\x00" * 5))
    assert codec.parse_bad_read(Report(ReportType.BAD_READ, 1, b"\x42")) is BadReadReason.UNKNOWN


reports = st.one_of(
    st.builds(
        codec.button_report,
        st.integers(0, 255),
        st.sampled_from(Button),
        st.sampled_from(ButtonAction),
    ),
    st.builds(
        codec.card_report, st.integers(0, 255), st.text("0123456789=", min_size=1, max_size=37)
    ),
    st.builds(codec.bad_read_report, st.integers(0, 255), st.sampled_from(BadReadReason)),
    st.builds(codec.led_ack_report, st.integers(0, 255)),
)


@given(st.binary(max_size=64))
def test_random_bytes_never_raise(data: bytes) -> None:
    decoded = codec.decode_transfer(data)
    assert decoded.rejected <= len(data)
    assert sum(len(r.encode()) for r in decoded.reports) + decoded.rejected <= len(data)
    for report in decoded.reports:  # whatever came out parses or is refused cleanly
        with contextlib.suppress(codec.DecodeError):
            meaning_of(report)


@given(st.lists(reports, min_size=1, max_size=4), st.binary(max_size=20))
def test_good_reports_before_garbage_are_all_delivered(good: list[Report], junk: bytes) -> None:
    head = b"".join(r.encode() for r in good)
    decoded = codec.decode_transfer(head + junk)
    assert list(decoded.reports[: len(good)]) == good
    for report in good:
        assert meaning_of(report)["type"] == report.type.name


@given(st.text("0123456789=", min_size=5, max_size=37), st.integers(0, 255))
def test_diagnostic_hex_never_shows_more_than_four_track_characters(track: str, seq: int) -> None:
    raw = codec.card_report(seq, track).encode()
    cells = codec.redacted_hex(raw).split()
    assert cells.count("**") == len(track) - 4
    shown = bytes.fromhex("".join(c for c in cells[4:-2] if c != "**")).decode()
    assert shown == track[-4:]
    damaged = bytearray(raw)
    damaged[-1] ^= 0xFF  # bad CRC: masked as unframed bytes
    cells = codec.redacted_hex(bytes(damaged)).split()
    assert all(c == "**" for c in cells[4 : 4 + len(track)])


def test_set_leds_names_only_lit_buttons() -> None:
    from dealer_console.devices.keypad import SetLeds

    command = SetLeds.of({Button.CONFIRM: LedMode.ON, Button.CANCEL: LedMode.OFF})
    assert command.modes == ((Button.CONFIRM, LedMode.ON),)
    report = codec.set_leds_report(3, command)
    assert report.payload == bytes((Button.CONFIRM, LedMode.ON))
    assert codec.parse_set_leds(report) == command


def test_a_two_game_keypad_s_game_keys_decode_as_the_protocol_page_gives_them() -> None:
    """docs/protocols/keypad.md: GAME_1 0x41 and GAME_2 0x42 pick the game of sensor spot 1
    or 2 for the seat and hand buttons that follow."""
    crc = codec.crc16(bytes.fromhex("10 07 02 42 01"))
    wire = bytes.fromhex("10 07 02 42 01") + crc.to_bytes(2, "big")
    (report,) = codec.decode_transfer(wire).reports
    button, action = codec.parse_button(report)
    assert (button, action, button.game) == (Button.GAME_2, ButtonAction.PRESSED, 2)
    assert Button.for_game(1) is Button.GAME_1 and Button.GAME_1.game == 1
    assert Button.SEAT_2.game is None and Button.GAME_2.seat is None
    assert Button.GAME_2.hand_line is None
    with pytest.raises(ValueError, match="not 1 or 2"):
        Button.for_game(3)

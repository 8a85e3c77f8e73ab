"""CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor).

Chosen because every microcontroller vendor library has it and it catches every burst error
of up to 16 bits: the check value of ``b"123456789"`` is 0x29B1.
"""

from __future__ import annotations

from typing import Final


def _table() -> tuple[int, ...]:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return tuple(table)


_TABLE: Final = _table()


def crc16(data: bytes, crc: int = 0xFFFF) -> int:
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ _TABLE[((crc >> 8) ^ byte) & 0xFF]
    return crc

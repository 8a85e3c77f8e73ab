"""CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor).

Chosen because every microcontroller vendor library has it and it catches every burst error
of up to 16 bits: the check value of ``b"123456789"`` is 0x29B1.
"""

from __future__ import annotations

import binascii


def crc16(data: bytes, crc: int = 0xFFFF) -> int:
    """The standard library's CRC-CCITT (``binascii.crc_hqx``) is this CRC computed in C:
    the drivers check every frame they read with it, on their I/O threads."""
    return binascii.crc_hqx(data, crc)

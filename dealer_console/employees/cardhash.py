"""Card track data is never stored: only a salted, slow hash of it, and a short lookup tag.

The stored form is ``scrypt$n$r$p$salt$hash`` (hex), one random salt per card, so two cards
with the same data hash differently and a stolen database does not give the cards back cheaply.
Finding the card of a swipe would mean one scrypt per card on file; the ``tag`` (16 bits of an
HMAC keyed by a random per-database secret) narrows that to the few cards sharing the tag
before the real check, and on its own identifies nobody.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

TAG_BYTES = 2


@dataclass(frozen=True, slots=True)
class KdfParams:
    """scrypt cost. The default takes tens of milliseconds, per swipe, on a table PC."""

    n: int = 2**14
    r: int = 8
    p: int = 1


DEFAULT_KDF = KdfParams()


def _scrypt(track: str, salt: bytes, params: KdfParams) -> bytes:
    return hashlib.scrypt(
        track.encode("ascii"), salt=salt, n=params.n, r=params.r, p=params.p,
        maxmem=256 * 1024 * 1024, dklen=32,
    )


def hash_card(track: str, params: KdfParams = DEFAULT_KDF) -> str:
    salt = secrets.token_bytes(16)
    digest = _scrypt(track, salt, params)
    return f"scrypt${params.n}${params.r}${params.p}${salt.hex()}${digest.hex()}"


def card_matches(track: str, stored: str) -> bool:
    try:
        kind, n, r, p, salt, digest = stored.split("$")
        params = KdfParams(int(n), int(r), int(p))
        if kind != "scrypt":
            return False
        return hmac.compare_digest(_scrypt(track, bytes.fromhex(salt), params).hex(), digest)
    except ValueError:
        return False


def card_tag(track: str, secret: bytes) -> str:
    return hmac.new(secret, track.encode("ascii"), hashlib.sha256).digest()[:TAG_BYTES].hex()

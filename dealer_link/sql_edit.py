"""Later versions of the link's released server functions, made from their released text.

A migration that changes what a server function does replaces it whole (``CREATE OR REPLACE
FUNCTION``, the same arguments and result). Writing the new version out in full would keep a
second copy of a long body beside the released one, free to drift from it; a migration
already released is never edited (``server_schema.py``). So a later migration takes the
released text and names each exact piece it changes: an edit whose piece is not there fails
at import, never on a card room's server.
"""

from __future__ import annotations

import re
from collections.abc import Iterable


def released(statements: Iterable[str], head: str) -> str:
    """The one statement of ``statements`` that contains ``head`` (a function's name and the
    start of its arguments)."""
    found = [s for s in statements if head in s]
    if len(found) != 1:
        raise AssertionError(f"{len(found)} released statements hold {head!r}, not one")
    return found[0]


def edited(text: str, *changes: tuple[str, str]) -> str:
    """``text`` (one released ``CREATE FUNCTION``) as a replacement, with each ``(old, new)``
    applied: every occurrence of ``old``, which must be there."""
    out = re.sub(r"CREATE (OR REPLACE )?FUNCTION", "CREATE OR REPLACE FUNCTION", text, count=1)
    for old, new in changes:
        if old not in out:
            raise AssertionError(f"the released function no longer holds {old[:70]!r}")
        out = out.replace(old, new)
    return out

"""A link's name as a profile writes it, and the link's error: below the link, so a profile
names its link without importing the link's client."""

from __future__ import annotations

import re

from dealer_console.errors import ConsoleError

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


class LinkError(ConsoleError):
    """The link refused something, or cannot be reached: the message says which."""


def check_link_name(name: str) -> str:
    """A link's name: 1-64 letters, digits, ``_ . -``, starting with a letter or digit."""
    if not _NAME.fullmatch(name):
        raise LinkError(f"{name[:70]!r} is not a link name (1-64 letters, digits, '_', '.', "
                        "'-')")
    return name

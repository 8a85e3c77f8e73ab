"""Limits on what the console reads from outside: files, their nesting, numbers and names.

An operator's file or argument may be a mistake or an attack; either way it must be refused
with one clear line before a parser recurses itself to death, Python refuses to convert a
number of thousands of digits, or a name of 100,000 characters ends up in every round's row.
The limits are far above anything a real profile, round file or name needs.
"""

from __future__ import annotations

import re
import stat
import unicodedata
from pathlib import Path
from typing import Final

from dealer_console.errors import ConsoleError

MAX_FILE_BYTES: Final = 1 << 20  # a profile or a round file is a few kilobytes
MAX_NESTING: Final = 32  # brackets inside brackets; a profile uses three
MAX_DIGITS: Final = 30  # one number's digits; a 64-bit integer has at most 19
MAX_PATH_CHARS: Final = 4096  # Linux's PATH_MAX
MAX_FILE_NAME_BYTES: Final = 255  # one part of a path, Linux's NAME_MAX
SHOWN: Final = 40  # characters of a refused value echoed in a message


class InputError(ConsoleError, ValueError):
    """Input refused; the message is one line naming what was wrong."""


def clip(text: str) -> str:
    """``text`` for a message, cut short so a huge value cannot flood the terminal."""
    return text if len(text) <= 2 * SHOWN else f"{text[:SHOWN]}... ({len(text):,} characters)"


def shown(text: str) -> str:
    """``text`` quoted for a message, cut short like :func:`clip`."""
    if len(text) <= 2 * SHOWN:
        return repr(text)
    return f"{text[:SHOWN]!r}... ({len(text):,} characters)"


_PLAIN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


def is_plain_name(text: str) -> bool:
    """A profile's or a paytable's name: 1-64 ASCII letters, digits, ``-``, ``_`` or ``.``,
    so it can name a file and be stored with every round."""
    return _PLAIN_NAME.fullmatch(text) is not None


def check_text(value: str, what: str, max_chars: int) -> str:
    """A name or label: 1 to ``max_chars`` characters, no control characters."""
    if not value.strip():
        raise InputError(f"{what}: must not be empty")
    if len(value) > max_chars:
        raise InputError(f"{what}: {len(value):,} characters; at most {max_chars} are allowed")
    for ch in value:
        if unicodedata.category(ch).startswith("C"):
            raise InputError(f"{what}: {shown(value)} holds a control or invisible character "
                             f"(U+{ord(ch):04X})")
    return value


def check_path_text(text: str, what: str) -> str:
    """A path as typed: not empty, not longer than the system allows."""
    if not text:
        raise InputError(f"{what}: an empty path")
    if len(text) > MAX_PATH_CHARS:
        raise InputError(f"{what}: a path of {len(text):,} characters is too long")
    for part in text.split("/"):
        if len(part.encode("utf-8", "surrogateescape")) > MAX_FILE_NAME_BYTES:
            raise InputError(f"{what}: the file name {shown(part)} is too long")
    if "\x00" in text:
        raise InputError(f"{what}: a path cannot hold a NUL character")
    return text


def read_text_file(path: Path, what: str, max_bytes: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of ``path``: refused if it is a folder, missing, too big or not text."""
    check_path_text(str(path), what)
    try:
        info = path.stat()
        if stat.S_ISDIR(info.st_mode):
            raise InputError(f"{path}: is a folder; expected {what}")
        if not stat.S_ISREG(info.st_mode):
            raise InputError(f"{path}: is not a regular file; expected {what}")
        if info.st_size > max_bytes:
            raise InputError(f"{path}: {info.st_size:,} bytes; {what} is at most "
                             f"{max_bytes:,} bytes")
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"{path}: cannot read: no such file") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror}") from None
    return decode_text(data, str(path), max_bytes)


def decode_text(data: bytes, where: str, max_bytes: int = MAX_FILE_BYTES) -> str:
    if len(data) > max_bytes:
        raise InputError(f"{where}: more than {max_bytes:,} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{where}: not UTF-8 text (byte {exc.start})") from None


_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_TOML_STRINGS = (
    ('"""', re.compile(r'"""(?:[^\\]|\\.)*?"{3,5}', re.DOTALL)),
    ("'''", re.compile(r"'''.*?'{3,5}", re.DOTALL)),
    ('"', re.compile(r'"(?:[^"\\\n]|\\.)*"')),
    ("'", re.compile(r"'[^'\n]*'")),
)


def check_structure(text: str, where: str, *, toml: bool) -> None:
    """Refuse JSON (or, with ``toml``, TOML) nested deeper than :data:`MAX_NESTING` or holding
    a number of more than :data:`MAX_DIGITS` digits, before a parser sees it.

    Python's JSON and TOML parsers recurse once per bracket (thousands of ``[`` end in a
    ``RecursionError``) and refuse to convert integers of more than 4,300 digits with a
    ``ValueError``: neither is a message for an operator. Strings and comments are skipped;
    an unterminated one is left for the parser to report."""
    depth = deepest = run = longest = 0
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == '"' or (toml and ch == "'"):
            i = _after_string(text, i, toml)
            run = 0
            continue
        if toml and ch == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
            run = 0
            continue
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_NESTING:
                raise InputError(f"{where}: nested more than {MAX_NESTING} deep (at character "
                                 f"{i + 1})")
        elif ch in "]}":
            depth -= 1
        if "0" <= ch <= "9" or (toml and ch == "_" and run):
            run += 1
            longest = max(longest, run)
            if longest > MAX_DIGITS:
                raise InputError(f"{where}: a number of more than {MAX_DIGITS} digits (at "
                                 f"character {i + 1}); no amount or count is that "
                                 "long")
        else:
            run = 0
        i += 1


def _after_string(text: str, start: int, toml: bool) -> int:
    if not toml:
        match = _JSON_STRING.match(text, start)
        return match.end() if match else len(text)
    for opener, pattern in _TOML_STRINGS:
        if text.startswith(opener, start):
            match = pattern.match(text, start)
            return match.end() if match else len(text)
    return start + 1  # pragma: no cover - every quote has an opener above


def check_ascii_number(text: str, what: str) -> str:
    """Digits of a number as typed must be ASCII: Python's ``int`` and ``Decimal`` read
    fullwidth and other scripts' digits too, and an amount a dealer cannot read at a glance
    is refused."""
    if not text.isascii():
        raise InputError(f"{what}: {shown(text)} holds characters that are not ASCII; write "
                         "numbers with the digits 0-9")
    return text

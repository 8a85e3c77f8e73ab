"""A strict reader for TOML config: every key is checked for type and range, and any key the
reader never asked for is an error that lists the keys allowed there.

An operator edits these files by hand; a typo that silently falls back to a default would
change what the table pays, so nothing is ignored.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from dealer_console.errors import ConsoleError
from dealer_console.input_checks import (
    InputError,
    check_structure,
    check_text,
    clip,
    read_text_file,
)
from dealer_console.money import MoneyError, format_cents, parse_cents

_MISSING: Any = object()
MAX_STRING_CHARS = 500
"""Longest string value in a config file: a title or a source citation is under 150."""


class ConfigError(ConsoleError, ValueError):
    """A config file that cannot be used; names the file, the key and what is allowed."""

    def __init__(self, file: str, key: str, message: str) -> None:
        where = f"{file}: {key}" if key else file
        super().__init__(f"{where}: {message}")
        self.file = file
        self.key = key


def read_toml(path: Path) -> dict[str, Any]:
    """The file's TOML, within the limits of :mod:`dealer_console.input_checks` (size,
    nesting, digits of a number): a folder, a huge or a hostile file is a ConfigError."""
    try:
        text = read_text_file(path, "a TOML file")
        check_structure(text, str(path), toml=True)
        return tomllib.loads(text)
    except InputError as exc:
        raise ConfigError(str(path), "", str(exc).removeprefix(f"{path}: ")) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(str(path), "", f"not valid TOML: {exc}") from None


def _type_name(value: object) -> str:
    return {
        bool: "a true/false", int: "a whole number", float: "a decimal number",
        str: "a string", list: "a list", dict: "a table",
    }.get(type(value), type(value).__name__)


class Section:
    """One TOML table being read. ``done()`` refuses the keys nobody asked for."""

    def __init__(self, file: str, path: str, data: dict[str, Any]) -> None:
        self.file = file
        self.path = path
        self.data = data
        self._asked: list[str] = []

    def key(self, name: str) -> str:
        return f"{self.path}.{name}" if self.path else name

    def error(self, name: str, message: str) -> ConfigError:
        return ConfigError(self.file, self.key(name), message)

    def has(self, name: str) -> bool:
        if name not in self._asked:
            self._asked.append(name)
        return name in self.data

    def _get(self, name: str, default: Any, want: str) -> Any:
        if not self.has(name):
            if default is _MISSING:
                raise self.error(name, f"missing; expected {want}")
            return default
        return self.data[name]

    def _typed(self, name: str, value: Any, kinds: tuple[type, ...], want: str) -> None:
        if not isinstance(value, kinds) or (bool not in kinds and isinstance(value, bool)):
            raise self.error(name, f"expected {want}, got {_type_name(value)} "
                                   f"{clip(repr(value))}")

    def opt_str(self, name: str, choices: Iterable[str] | None = None) -> str | None:
        allowed = tuple(choices) if choices is not None else None
        want = "one of " + ", ".join(repr(c) for c in allowed) if allowed else "a string"
        if not self.has(name):
            return None
        value = self.data[name]
        self._typed(name, value, (str,), want)
        try:
            check_text(value, "the value", MAX_STRING_CHARS)
        except InputError as exc:
            raise self.error(name, str(exc)) from None
        if allowed is not None and value not in allowed:
            raise self.error(name, f"{value!r} is not allowed; expected {want}")
        return str(value)

    def str_(self, name: str, choices: Iterable[str] | None = None, default: Any = _MISSING) -> str:
        allowed = tuple(choices) if choices is not None else None
        value = self.opt_str(name, allowed)
        if value is None:
            if default is _MISSING:
                want = "one of " + ", ".join(repr(c) for c in allowed) if allowed else "a string"
                raise self.error(name, f"missing; expected {want}")
            return str(default)
        return value

    def opt_int(self, name: str, minimum: int | None = None, maximum: int | None = None
                ) -> int | None:
        span = (
            f" from {minimum} to {maximum}" if minimum is not None and maximum is not None
            else f" of at least {minimum}" if minimum is not None else ""
        )
        want = f"a whole number{span}"
        if not self.has(name):
            return None
        value = self.data[name]
        self._typed(name, value, (int,), want)
        if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
            raise self.error(name, f"{value} is out of range; expected {want}")
        return int(value)

    def int_(self, name: str, minimum: int | None = None, maximum: int | None = None,
             default: Any = _MISSING) -> int:
        value = self.opt_int(name, minimum, maximum)
        if value is None:
            if default is _MISSING:
                raise self.error(name, "missing; expected a whole number")
            return int(default)
        return value

    def bool_(self, name: str, default: Any = _MISSING) -> bool:
        value = self._get(name, default, "true or false")
        self._typed(name, value, (bool,), "true or false")
        return bool(value)

    def opt_money(self, name: str, minimum: int = 0) -> int | None:
        """An amount in dollars written as a string (``"$5"``), returned in cents."""
        want = 'an amount in dollars as a string, like "$5" or "$2,500.00"'
        if not self.has(name):
            return None
        value = self.data[name]
        if isinstance(value, int | float) and not isinstance(value, bool):
            raise self.error(name, f"{value} is a bare number; write money as {want[10:]}")
        self._typed(name, value, (str,), want)
        try:
            cents = parse_cents(value)
        except MoneyError as exc:
            raise self.error(name, str(exc)) from None
        if cents < minimum:
            raise self.error(name, f"{value} is below the least allowed, "
                                   f"{format_cents(minimum)}")
        return cents

    def money(self, name: str, default: Any = _MISSING, minimum: int = 0) -> int:
        value = self.opt_money(name, minimum)
        if value is None:
            if default is _MISSING:
                raise self.error(name, 'missing; expected an amount in dollars like "$5"')
            return int(default)
        return value

    def str_list(self, name: str, choices: Iterable[str], default: Any = _MISSING) -> list[str]:
        allowed = tuple(choices)
        want = "a list of " + ", ".join(repr(c) for c in allowed)
        value = self._get(name, default, want)
        self._typed(name, value, (list,), want)
        for item in value:
            if item not in allowed:
                raise self.error(name, f"{clip(repr(item))} is not allowed; "
                                       f"expected {want}")
        if not value:
            raise self.error(name, f"must not be empty; expected {want}")
        return [str(v) for v in value]

    def section(self, name: str, optional: bool = False) -> Section | None:
        if not self.has(name):
            if optional:
                return None
            raise self.error(name, "missing table")
        value = self.data[name]
        self._typed(name, value, (dict,), "a table")
        return Section(self.file, self.key(name), value)

    def need_section(self, name: str) -> Section:
        found = self.section(name)
        assert found is not None
        return found

    def sections(self, name: str) -> list[Section]:
        """An array of tables (``[[name]]``)."""
        value = self._get(name, [], "an array of tables")
        self._typed(name, value, (list,), "an array of tables")
        out = []
        for i, item in enumerate(value):
            if not isinstance(item, dict):
                raise self.error(f"{name}[{i}]", f"expected a table, got {_type_name(item)}")
            out.append(Section(self.file, f"{self.key(name)}[{i}]", item))
        return out

    def done(self) -> None:
        """Refuse keys that were never asked for, naming the ones allowed here."""
        for name in self.data:
            if name not in self._asked:
                allowed = ", ".join(self._asked) or "none"
                raise ConfigError(self.file, self.key(clip(name)),
                                  f"unknown key; allowed here: {allowed}")

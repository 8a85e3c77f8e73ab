"""The one root of the core's expected failures, so a screen or the command line catches one
class and shows its message.

:class:`ConsoleError` is anything the core refuses or cannot do for a reason a person can act
on (a bad profile, a card that does not authorise, a database that is not ours);
:class:`Refusal` is the narrower case of a command that is not allowed *now*: nothing was
changed, and :attr:`Refusal.why` says why in plain words a dealer can read. A bug is none of
these: it stays an ordinary exception and is never shown as a refusal.
"""

from __future__ import annotations


class ConsoleError(Exception):
    """An expected failure; its message is written for the person at the table."""


class Refusal(ConsoleError):
    """A command not allowed now; nothing changed. ``why`` is the reason in plain words."""

    @property
    def why(self) -> str:
        return str(self.args[0]) if self.args else "not allowed now"

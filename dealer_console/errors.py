"""The one root of the core's expected failures, so a screen or the command line catches one
class and shows its message.

:class:`ConsoleError` is anything the core refuses or cannot do for a reason a person can act
on (a bad profile, a card that does not authorise, a database that is not ours);
:class:`Refusal` is the narrower case of a command that is not allowed *now*: nothing was
changed, and :attr:`Refusal.why` says why in plain words a dealer can read. A bug is none of
these: it stays an ordinary exception and is never shown as a refusal.
"""

from __future__ import annotations

from enum import StrEnum


class ConsoleError(Exception):
    """An expected failure; its message is written for the person at the table."""


class RefusalCode(StrEnum):
    """What kind of refusal it is, for a program to act on (the simulated dealer, a screen
    that offers the next step): stable, never reworded; ``why`` is for people."""

    NOT_NOW = "not_now"
    """The round's rules or the table's state refuse it now (the default)."""
    IN_TEST_MODE = "in_test_mode"
    DEVICE_MISSING = "device_missing"
    """A device the step needs is not connected: it goes on when the device is back."""
    LINK_DOWN = "link_down"
    """A linked jackpot's link cannot be reached: no linked wager or hit until it is back."""
    LINK_UNANSWERED = "link_unanswered"
    """The link's server did not answer a hit asked: it may have paid it; swipe again (a
    warning rather than a refusal: nothing is wrong with the hit)."""
    JACKPOT = "jackpot"
    """The jackpot's own tables refuse it: no wager, a hit already confirmed or backed out, an
    unknown game, a meter that would go below zero."""
    JACKPOT_MARK = "jackpot_mark"
    """A jackpot hand button or confirmation the round's marks cannot take now: no seat
    selected, a seat without a wager, a hit confirmed or sent to the link, out of order."""
    STAFF = "staff"
    """The staff registry's checks refuse a change."""
    NOT_SAVED = "not_saved"
    """The table PC's disk would not save the step: a device's report is kept and saved by
    itself once the disk takes writes (a hit the link paid among them), a person's press or
    swipe is done again. Not a refusal of the step itself: nothing is wrong with it."""


class Refusal(ConsoleError):
    """A command not allowed now; nothing changed. ``why`` is the reason in plain words,
    ``code`` the kind of refusal (:class:`RefusalCode`). The one class of refusal: the
    round's, the jackpot's and the staff desk's are this one under their old names."""

    code_default = RefusalCode.NOT_NOW
    """The code of a refusal raised without one (a subclass may name its own)."""

    def __init__(self, why: str = "not allowed now", code: RefusalCode | None = None) -> None:
        super().__init__(why)
        self.code = code if code is not None else self.code_default

    @property
    def why(self) -> str:
        return str(self.args[0]) if self.args else "not allowed now"

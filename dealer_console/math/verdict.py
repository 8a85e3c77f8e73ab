"""The one verdict on a table's bonus paytables: each one's exact return, and a table that
returns more than 100% refused (the operator must not offer it). The power-on self-test,
``profile check``, ``dealer-console math``, the supervisor's profile screen and the
technician's banner all ask here, so they cannot disagree on the same paytable.

A jackpot paytable is not judged here: its return depends on where its meter stands (a
progressive may pass 100% at a high meter by design); ``dealer-console math jackpot`` gives its
break-even."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from dealer_console.math.returns import ace_high_return, fortune_return, percent
from dealer_console.profiles.model import Profile


def refusal(name: str, ret: Fraction) -> str | None:
    """Why paytable ``name`` returning ``ret`` must not be offered, or None."""
    if ret <= 1:
        return None
    return (f"{name} returns {percent(ret)} to the player (over 100%): the operator must not "
            "offer it")


@dataclass(frozen=True, slots=True)
class Verdict:
    """One bonus paytable of a profile judged: where the profile names it, its exact return
    and the refusal, if any."""

    key: str
    """The profile's key: ``fortune`` or ``ace_high``."""
    name: str
    ret: Fraction

    @property
    def refused(self) -> str | None:
        return refusal(self.name, self.ret)


def bonus_verdicts(profile: Profile) -> tuple[Verdict, ...]:
    """The verdict on each bonus paytable ``profile`` offers (Fortune, then Ace-High)."""
    out = []
    if profile.fortune is not None:
        out.append(Verdict("fortune", profile.fortune.name, fortune_return(profile.fortune)))
    if profile.ace_high is not None:
        out.append(Verdict("ace_high", profile.ace_high.name,
                           ace_high_return(profile.ace_high)))
    return tuple(out)

"""What a screen draws: a frozen picture of the table, built by the controller after every
change. Screens read this and send commands; they never reach into the round or a driver."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from dealer_console.errors import RefusalCode
from dealer_console.profiles.model import Profile
from dealer_console.round import commands as c
from dealer_console.round.snapshot import RoundSnapshot


class Level(Enum):
    INFO = "info"
    WARNING = "warning"
    REFUSED = "refused"


@dataclass(frozen=True, slots=True)
class Notice:
    """Something the dealer should read now: a refusal, a late bet, a card not read. ``what``
    says what happened and ``todo`` what to do, both in plain words."""

    level: Level
    what: str
    todo: str = ""
    number: int = 0
    """Counts up with every notice, so a screen can tell a new one from the one it shows."""
    code: RefusalCode | None = None
    """A refusal's code (:class:`~dealer_console.errors.RefusalCode`), for a program to act
    on; None for a notice that is no refusal."""


@dataclass(frozen=True, slots=True)
class DeviceView:
    """One device as the dealer and the technician see it."""

    name: str
    title: str
    connected: bool
    state: str
    fault: str | None
    """What is wrong, in plain words, or None."""
    todo: str = ""
    """What to do about the fault."""
    detail: str = ""
    """The driver's own words for the last loss of the link (for the technician)."""


@dataclass(frozen=True, slots=True)
class PendingHit:
    """A jackpot hand waiting for its confirmation, in the order it will be confirmed."""

    spot: int
    seat: int
    line_no: int
    label: str
    amount_cents: int
    needs: str
    """Whose card confirms it: ``supervisor``, ``executive`` or ``two people`` (a supervisor
    and an executive, where the game's two-person level is passed)."""
    level: str | None = None
    """The meter the award comes off, or None for a pay from the tray alone."""
    meter_before_cents: int | None = None
    """That meter once the hits listed before this one are paid (jackpot/projection.py)."""
    meter_after_cents: int | None = None
    meters_after: tuple[tuple[str, int], ...] = ()
    """Every meter of the hit's game, in cents, as it will be after this hit."""


@dataclass(frozen=True, slots=True)
class ConfirmedHit:
    """The last jackpot hit confirmed this round, as the dealer's panel shows it."""

    spot: int
    seat: int
    label: str
    amount_cents: int
    who: str
    level: str | None
    meter_before_cents: int | None
    meter_after_cents: int | None
    link: str | None = None
    """The link whose shared meter paid it (the meters above are the link's), or None."""
    hit_id: int | None = None
    backed_out: bool = False
    """Backed out since (by an executive): the award and the meter's move no longer stand."""


@dataclass(frozen=True, slots=True)
class WinPageRequest:
    """The money bag was pressed (on the keypad or on a screen): the window prints award
    ``hit_id``'s win page and shows it. ``number`` counts up with every press, so a window
    tells a new press (a reprint of the same award) from the one it has printed; ``copy`` is
    the print's number on the page (1: the original), recorded before it is printed
    (``dealer_console/jackpot/win_prints.py``)."""

    hit_id: int
    number: int
    copy: int = 1


@dataclass(frozen=True, slots=True)
class TestResult:
    """One of the technician's tests: ``passed`` None while it waits for the technician or
    the device, then True or False; ``detail`` says what was seen or what to do."""

    device: str
    name: str
    passed: bool | None
    detail: str


@dataclass(frozen=True, slots=True)
class BenchView:
    """The technician's tests as they stand (test mode only)."""

    technician: str
    seconds: int
    """How long the table has been in test mode."""
    results: tuple[TestResult, ...]
    hands: tuple[str, ...] = ()
    """The test deal's hands, as dealt (they never reach a round)."""
    chips: frozenset[object] = frozenset()
    """The sensor spots holding a chip now."""
    nodes: Mapping[int, bool] = field(default_factory=dict)
    buttons: frozenset[str] = frozenset()
    last_button: str = ""
    card: str = ""
    """The last card swiped: its holder's role only, never its number."""

    def result(self, device: str, name: str) -> TestResult:
        for r in self.results:
            if r.device == device and r.name == name:
                return r
        raise KeyError(f"no test {name!r} of the {device}")


@dataclass(frozen=True, slots=True)
class TableAbout:
    """What stays the same while the table is open, for the screens' titles and their own
    readers: the profile, the table's file, the jackpot links."""

    profile: Profile
    db_path: Path
    links: Mapping[int, str] = field(default_factory=dict)
    """Each linked game's link, by sensor spot (empty: nothing linked)."""
    link_table_id: str = ""
    link_dsn: str | None = None
    """Where the first link's server is, for a reader of the shared meters, or None."""
    db_file: str | None = None
    """The database file as its connection names it, for a reader's own connection (None:
    the table's database is not a file)."""

    @property
    def title(self) -> str:
        return self.profile.title


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    title: str
    profile: str
    round: RoundSnapshot
    accepts: frozenset[type[c.Command]]
    """The commands the round's phase accepts now (the rules may still refuse one: ask the
    controller's ``check``)."""
    waiting_for: str | None
    """A device step the table is waiting on (the sensors' lock, the shuffler's hands), or
    None."""
    devices: tuple[DeviceView, ...]
    jackpot_pending: tuple[PendingHit, ...]
    jackpot_game: int
    """The sensor spot whose game the seat and hand buttons act on."""
    jackpot_armed: bool
    """CONFIRM was pressed: the next card swipe confirms the first pending hit."""
    notice: Notice | None
    hidden_seats: frozenset[int] = frozenset()
    """Seats whose cards are shown face down now (the banker's, until its turn)."""
    banker_pai_gow: bool = False
    """The exposed banker's hand is an ace-high pai gow (every base wager pushes)."""
    test_mode: bool = False
    """A technician is testing the devices: no round can start (``bench`` holds the tests)."""
    bench: BenchView | None = None
    card_wanted: str | None = None
    """A card the table waits for, as the prompt says it ("Swipe a supervisor's card to
    ..."), or None."""
    card_pin: bool = False
    """The prompt asks for the PIN of the executive whose card it accepted (``card_wanted``
    says whose): the prompt shows a masked pad."""
    win_page: WinPageRequest | None = None
    """The newest money-bag press, or None."""
    jackpot_games: tuple[int, ...] = ()
    """The sensor spots of the table's jackpot games (two: the dealer picks one per hit)."""
    jackpot_wagered: frozenset[tuple[int, int]] = frozenset()
    """``(spot, seat)`` of every jackpot wager this round: the seats a hand button can mark."""
    jackpot_selected: int | None = None
    """The seat selected for a hand button on the chosen game, or None."""
    jackpot_lines: tuple[str, ...] = ()
    """The chosen game's hand buttons, top line first (button 1)."""
    jackpot_marked: frozenset[tuple[int, int, int]] = frozenset()
    """``(spot, seat, line_no)`` of every mark this round, confirmed or not."""
    jackpot_last: ConfirmedHit | None = None
    jackpot_held: str | None = None
    """Who gave the first of two confirmations of the next hit (nothing paid yet), or None."""
    jackpot_pin_for: str | None = None
    """Whose PIN the next hit waits for, their card accepted ("Ann Lee (supervisor)"), or
    None: the dealer's panel then shows the masked number pad (``pin_required``)."""
    jackpot_asking: str | None = None
    """A linked hit the link's server is being asked to pay, in words ("seat 3's hit on the
    jackpot link floor-1"), or None: the panel says to wait, and a swipe is refused meanwhile."""
    has_jackpot: bool = False
    """The table plays a jackpot game (the dealer's panel is shown)."""
    offers: tuple[tuple[c.Command, str | None], ...] = ()
    """The commands the buttons of this phase send, each with why the round refuses it now
    (or None), answered once for this view (``controller/offers.py``)."""
    start_game_problem: str | None = None
    """Why START GAME cannot be taken now (the round's rules, or a device it needs), or
    None."""
    void_problem: str | None = None
    """Why a supervisor cannot void the round now, or None."""
    deck_count_problem: str | None = None
    """Why a supervisor cannot enter a deck count now, or None."""

    @property
    def faults(self) -> tuple[DeviceView, ...]:
        return tuple(d for d in self.devices if d.fault is not None)

    def accepts_now(self, kind: type[c.Command]) -> bool:
        return kind in self.accepts

    def why_not(self, cmd: c.Command) -> str | None:
        """Why the round refuses ``cmd`` now (None: it is taken), as answered for this view;
        a command the phase does not offer is refused in words."""
        for offer, why in self.offers:
            if offer == cmd:
                return why
        if type(cmd) not in self.accepts:
            return f"{type(cmd).__name__} is not taken in phase {self.round.phase.value}"
        return f"{type(cmd).__name__} is not offered now"

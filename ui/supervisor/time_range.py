"""A date and time range picked by touch: each end shown in large type with buttons a day,
an hour or ten minutes earlier or later, and quick ranges (the last hour, the last eight
hours, today). No keyboard: a supervisor at the table has only fingers."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from dealer_console import clock
from ui import theme
from ui.widgets.touch import ButtonRole, TouchButton

STEPS = (("day", timedelta(days=1)), ("hour", timedelta(hours=1)),
         ("10 min", timedelta(minutes=10)))


def shown_time(moment: datetime, zone: bool = True) -> str:
    """A moment as the supervisor reads it: the console's local time, to the second, with its
    zone (the hour the clocks go back is there twice: an outside review); a picker's large
    figures go without it, which the smallest screen has no room for."""
    return moment.astimezone().strftime("%a %d %b %Y  %H:%M:%S" + (" %Z" if zone else ""))


class TimeField(QWidget):
    """One end of the range."""

    changed = Signal()

    def __init__(self, title: str, moment: datetime) -> None:
        super().__init__()
        self.moment = moment.astimezone(UTC).replace(second=0, microsecond=0)
        self.title = QLabel(title)
        self.title.setProperty("role", "group")
        self.value = QLabel()
        self.value.setStyleSheet(f"font-size: {theme.FONT_HEADING}px; font-weight: bold;")
        self.buttons: dict[str, TouchButton] = {}
        grid = QGridLayout()
        grid.setSpacing(theme.SPACING // 2)
        for column, (name, step) in enumerate(STEPS):
            for side, sign in enumerate((-1, 1)):
                text = f"{'-' if sign < 0 else '+'} {name}"
                button = TouchButton(text, ButtonRole.SECONDARY)
                button.clicked.connect(lambda _=False, d=step * sign: self.shift_by(d))
                grid.addWidget(button, side, column)
                self.buttons[text] = button
        head = QHBoxLayout()
        head.addWidget(self.title)
        head.addWidget(self.value, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(head)
        layout.addLayout(grid)
        self._show()

    def set_moment(self, moment: datetime) -> None:
        """Show and use ``moment`` as given (a round's own time can be set exactly)."""
        self.moment = moment.astimezone(UTC)
        self._show()

    def shift_by(self, step: timedelta) -> None:
        """A day is a calendar day: the same time of day on the day before or after, also
        across a change of the clocks (24 hours from "Today"'s midnight landed at 23:00 or
        01:00 there: an hour of the wrong day in the report); an hour or ten minutes is
        elapsed time."""
        if step.days and not step.seconds:
            wall = self.moment.astimezone().replace(tzinfo=None) + step
            self.set_moment(wall.astimezone())  # the console's zone's offset on that day
        else:
            self.set_moment(self.moment + step)

    def _show(self) -> None:
        self.value.setText(shown_time(self.moment, zone=False))
        self.changed.emit()


class TimeRangePicker(QWidget):
    """From and to, with quick ranges; ``problem()`` says why a range cannot be searched."""

    def __init__(self, now: datetime | None = None) -> None:
        super().__init__()
        now = (now or clock.now()).astimezone(UTC)
        self.start = TimeField("From", now - timedelta(hours=1))
        self.end = TimeField("To", now + timedelta(minutes=1))
        quick = QHBoxLayout()
        self.quick: dict[str, TouchButton] = {}
        for text, hours in (("Last hour", 1), ("Last 8 hours", 8), ("Today", 0)):
            button = TouchButton(text, ButtonRole.SECONDARY)
            button.clicked.connect(lambda _=False, h=hours: self.last(h))
            quick.addWidget(button)
            self.quick[text] = button
        ends = QVBoxLayout()
        ends.setSpacing(theme.SPACING * 2)
        ends.addWidget(self.start)
        ends.addWidget(self.end)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(quick)
        layout.addLayout(ends)

    def last(self, hours: int) -> None:
        """The last ``hours`` hours up to now, or (0) today from local midnight."""
        now = clock.now()
        if hours:
            start = now - timedelta(hours=hours)
        else:  # midnight with its own offset: on a daylight-saving day it is not now's
            # (an outside review: "Today" began an hour early in spring, an hour late in autumn)
            local = now.astimezone()
            start = datetime(local.year, local.month, local.day).astimezone()
        self.start.set_moment(start)
        self.end.set_moment(now + timedelta(minutes=1))

    def set_range(self, start: datetime, end: datetime) -> None:
        self.start.set_moment(start)
        self.end.set_moment(end)

    def bounds(self) -> tuple[str, str]:
        """The range as the event log writes times (ISO 8601, UTC)."""
        return (self.start.moment.isoformat(timespec="microseconds"),
                self.end.moment.isoformat(timespec="microseconds"))

    def problem(self) -> str | None:
        if self.end.moment <= self.start.moment:
            return "The end of the range must be after its start."
        return None

"""The progress bar draws only when asked (a terminal), and ends its line."""

from __future__ import annotations

import io

from dealer_console.math.progress import Progress


def test_bar_draws_when_enabled() -> None:
    stream = io.StringIO()
    bar = Progress(100, "run", enabled=True, stream=stream, every=0)
    bar.update(50)
    bar.update(100)
    bar.close()
    text = stream.getvalue()
    assert "\r" in text and "50/100" in text and "100/100" in text and text.endswith("\n")


def test_bar_is_silent_off_a_terminal() -> None:
    stream = io.StringIO()  # not a tty
    bar = Progress(100, "run", stream=stream)
    bar.update(100)
    bar.close()
    assert stream.getvalue() == ""

"""``dealer-console pit``: the pit's window on a podium PC, fed by its reader thread."""

from __future__ import annotations

from PySide6.QtCore import QTimer

from ui.application import application
from ui.pit.reader import PitReader
from ui.pit.window import PitWindow
from ui.theme import apply_theme


def open_pit(dsn: str) -> tuple[PitWindow, PitReader]:
    """The window and its running reader (the pit's login at ``dsn``), wired by queued
    signals: every read, acknowledgement and clearing happens on the reader's thread."""
    window = PitWindow()
    reader = PitReader(dsn, window)
    reader.read.connect(window.show_rows)
    reader.failed.connect(window.show_problem)
    reader.acked.connect(window.acked)
    window._acknowledge = reader.acknowledge
    window._clear = reader.clear_rewind
    reader.start()
    return window, reader


def run_pit(dsn: str, *, full_screen: bool = False, quit_after: float | None = None) -> int:
    app = application()
    apply_theme(app)
    window, reader = open_pit(dsn)
    app.aboutToQuit.connect(reader.stop)
    if full_screen:
        window.showFullScreen()
    else:
        window.resize(1280, 800)
        window.show()
    if quit_after is not None:
        QTimer.singleShot(int(quit_after * 1000), app.quit)
    return app.exec()

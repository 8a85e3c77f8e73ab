"""The one QApplication a Qt process of the console runs, with Python's cycle collector moved
onto its thread.

Why the collector moves: Python collects reference cycles on whichever thread happens to
allocate when a generation fills up, and in the console that is often a device thread (a
driver decoding a frame). A cycle holding a Qt object (a closed dialog and its slots, a
screen's timer) is then destroyed there: Qt's ``~QObject`` takes the lock of the object's
connections and calls back into PySide, which waits for the interpreter lock; if the GUI thread
holds that lock while it connects or disconnects anything guarded by the same Qt lock (a new
widget inheriting its parent's style), both wait for ever. The test suite hung exactly so (the
device thread in ``gc_collect_main`` -> ``~QObject``, the GUI thread in
``QWidget::setParent`` -> ``QObject::disconnect``); a table could hang the same way mid-round.

So the automatic collection is switched off and the GUI thread collects instead, a generation
at a time on the interpreter's own thresholds, checked a few times a second by a timer on the
event loop: the same amount of collecting, only never on a device or reader thread. Every Qt
process (the console, the pit, the screenshots, the benchmarks) gets its application here.

A full collection of a started console looks at about 60,000 objects, 15-22 ms on the GUI
thread, a stall a dealer could feel in an animation; nearly all of them are the console's own
(modules, classes, windows) and live as long as it does. So the first full collection moves what
survives it out of the collector's sight (``gc.freeze``), and later ones look only at what came
after (under 1 ms)."""

from __future__ import annotations

import gc
import sys

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QApplication

CHECK_MS = 250
"""How often the GUI thread looks whether a generation is due (a look costs microseconds)."""


class GuiThreadCollector(QObject):
    """Collects Python's reference cycles on the thread it lives on (the GUI thread), instead
    of the interpreter doing it on any thread."""

    def __init__(self, app: QApplication) -> None:
        super().__init__(app)
        self.setObjectName("gui-thread-collector")
        self.thresholds = gc.get_threshold()
        self.frozen = False
        gc.disable()
        self._timer = QTimer(self)
        self._timer.timeout.connect(self.collect_due)
        self._timer.start(CHECK_MS)

    def collect_due(self) -> int | None:
        """Collect the oldest generation whose count passed its threshold, as the interpreter
        would have; returns that generation, or None when none was due."""
        counts = gc.get_count()
        if counts[0] <= self.thresholds[0]:
            return None
        generation = 0
        while generation < 2 and counts[generation + 1] > self.thresholds[generation + 1]:
            generation += 1
        gc.collect(generation)
        if generation == 2 and not self.frozen:
            gc.freeze()  # the survivors of the first full collection: the console's own
            self.frozen = True
        return generation


def collector() -> GuiThreadCollector | None:
    """The running application's collector, if it has one."""
    app = QApplication.instance()
    if app is None:
        return None
    return app.findChild(GuiThreadCollector, "gui-thread-collector")


def application() -> QApplication:
    """The running QApplication, or a new one; with the collector on its thread either way."""
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication(sys.argv[:1])
    if collector() is None:
        GuiThreadCollector(app)
    return app

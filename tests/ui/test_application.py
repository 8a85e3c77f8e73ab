"""Python's cycles die on the GUI thread (``ui/application.py``): a cycle holding a Qt object,
left by the GUI thread, is not destroyed by a thread that happens to allocate (a device's), but
by the GUI thread's collector, on the interpreter's own thresholds."""

from __future__ import annotations

import gc
import threading
import weakref

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from ui.application import GuiThreadCollector, application, collector


class _Cyclic(QObject):
    """A Qt object in a reference cycle: only the cycle collector frees it."""

    def __init__(self) -> None:
        super().__init__()
        self.me = self


def _allocate_like_a_driver(kept: list[list[object]]) -> None:
    # far more new containers than a generation holds: the interpreter's own collection
    # would run on this thread, many times over
    kept.extend([] for _ in range(100_000))


def test_a_dead_qt_object_is_destroyed_on_the_gui_thread_not_by_a_device_thread(
        qapp: QApplication, qtbot: QtBot) -> None:
    died_on: list[str] = []
    doomed = _Cyclic()
    weakref.finalize(doomed, lambda: died_on.append(threading.current_thread().name))
    del doomed
    frames: list[list[object]] = []
    device = threading.Thread(target=_allocate_like_a_driver, args=(frames,),
                              name="io-shuffler")
    device.start()
    device.join()
    assert died_on == []  # the device thread allocated past every threshold, collected nothing
    qtbot.waitUntil(lambda: bool(died_on), timeout=5000)  # the collector's next look
    assert died_on == [threading.main_thread().name]


def test_the_application_has_one_collector_and_the_interpreter_none(qapp: QApplication) -> None:
    assert application() is qapp and application() is qapp
    assert len(qapp.findChildren(GuiThreadCollector)) == 1
    assert not gc.isenabled()


def test_a_generation_is_collected_when_its_count_passes_the_threshold(
        qapp: QApplication) -> None:
    found = collector()
    assert found is not None
    gc.collect()
    assert found.collect_due() is None  # nothing new: nothing to do
    young = [[] for _ in range(found.thresholds[0] + 1)]
    assert found.collect_due() == 0
    assert gc.get_count()[0] < found.thresholds[0]
    collected = []
    for _ in range(found.thresholds[1] + 1):  # as many young collections as make an older due
        young.extend([] for _ in range(found.thresholds[0] + 1))
        collected.append(found.collect_due())
    assert collected == [0] * found.thresholds[1] + [1]
    del young


def test_the_first_full_collection_sets_aside_what_survives_it(qapp: QApplication) -> None:
    found = collector()
    assert found is not None
    kept = []
    while not found.frozen:  # young collections until an old one is due, then that one
        kept.extend([] for _ in range(found.thresholds[0] + 1))
        found.collect_due()
    assert gc.get_freeze_count() > len(kept)  # the survivors, these among them
    kept.extend([] for _ in range(found.thresholds[0] + 1))
    found.collect_due()
    assert gc.get_count()[0] < found.thresholds[0]  # and collecting goes on after

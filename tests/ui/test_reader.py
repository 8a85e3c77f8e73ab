"""The one background reader: questions run off the GUI thread, the answer comes back on it;
questions asked while one runs collapse to the newest; a kept thread ends on ``close`` with its
own clean-up run on it; a reader let go while it reads dies on the GUI thread."""

from __future__ import annotations

import gc
import threading
import weakref

from pytestqt.qtbot import QtBot

from ui.widgets.reader import BackgroundReader


def _gate_reader(latest_only: bool) -> tuple[BackgroundReader, threading.Event, list[str],
                                              list[object]]:
    reader = BackgroundReader("test-reader", latest_only=latest_only)
    gate, ran, got = threading.Event(), list[str](), list[object]()
    reader.answered.connect(got.append)
    return reader, gate, ran, got


def _question(name: str, gate: threading.Event, ran: list[str]) -> object:
    ran.append(f"{name} on {threading.current_thread().name}")
    gate.wait(10)
    return name


def test_questions_asked_during_a_read_collapse_to_the_newest(qtbot: QtBot) -> None:
    reader, gate, ran, got = _gate_reader(latest_only=True)
    reader.ask(lambda: _question("first", gate, ran))
    qtbot.waitUntil(lambda: bool(ran), timeout=10_000)  # the first is running
    for name in ("second", "third"):
        reader.ask(lambda n=name: _question(n, gate, ran))
    assert reader.busy
    gate.set()
    qtbot.waitUntil(lambda: not reader.busy, timeout=10_000)
    # the first was running; the second was replaced by the third before it ran
    assert ran == ["first on test-reader", "third on test-reader"]
    assert got == ["third"]  # only the newest question's answer is delivered
    assert threading.current_thread().name != "test-reader"


def test_every_read_is_shown_when_asked_so(qtbot: QtBot) -> None:
    reader, gate, ran, got = _gate_reader(latest_only=False)
    reader.ask(lambda: _question("first", gate, ran))
    qtbot.waitUntil(lambda: bool(ran), timeout=10_000)  # the first is running
    reader.ask(lambda: _question("second", gate, ran))
    gate.set()
    qtbot.waitUntil(lambda: not reader.busy, timeout=10_000)
    assert got == ["first", "second"]


def test_a_failure_is_one_line_and_the_thread_ends_when_idle(qtbot: QtBot) -> None:
    reader = BackgroundReader("test-reader")
    failed: list[str] = []
    reader.failed.connect(failed.append)

    def broken() -> object:
        raise ValueError("no such table")
    reader.ask(broken)
    qtbot.waitUntil(lambda: bool(failed), timeout=10_000)
    assert failed == ["no such table"]
    qtbot.waitUntil(lambda: not reader.running, timeout=10_000)


def test_a_kept_thread_stays_and_closes_on_its_own_thread(qtbot: QtBot) -> None:
    closed_on: list[str] = []
    reader = BackgroundReader("kept-reader", keep=True,
                              closing=lambda: closed_on.append(threading.current_thread().name))
    got: list[object] = []
    reader.answered.connect(got.append)
    reader.ask(lambda: threading.current_thread().name)
    qtbot.waitUntil(lambda: bool(got), timeout=10_000)
    assert got == ["kept-reader"] and reader.running
    reader.close()
    assert not reader.running and closed_on == ["kept-reader"]
    reader.ask(lambda: "after")  # a closed reader asks nothing more
    assert not reader.busy


def test_a_reader_let_go_while_it_reads_dies_on_the_gui_thread(qtbot: QtBot) -> None:
    """A screen closed during a read lets its reader go; the worker thread must not be the one
    to drop the reader's last reference, or the Qt object is destroyed there (the hang of
    ``ui/application.py``)."""
    died_on: list[str] = []
    gate = threading.Event()
    reader = BackgroundReader("let-go-reader")
    weakref.finalize(reader, lambda: died_on.append(threading.current_thread().name))
    reader.ask(lambda: gate.wait(10))
    del reader  # the screen that held it is gone
    gc.collect()
    assert died_on == []  # alive while it reads
    gate.set()
    qtbot.waitUntil(lambda: bool(died_on), timeout=10_000)
    assert died_on == [threading.main_thread().name]

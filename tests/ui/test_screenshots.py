from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QApplication, QLabel, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from ui import theme
from ui.screenshots import (
    DEFAULT_DIR,
    PAGES,
    SIZES,
    fit_problems,
    render,
    render_gallery,
    ui_kit_page,
)
from ui.widgets.amount_keypad import AmountKeypad
from ui.widgets.touch import TouchButton


def test_the_gallery_writes_each_page_at_each_size(themed: QApplication) -> None:
    # into docs/screenshots, as every gallery test writes its pages: the kit's picture there
    # had gone stale since no test drew it
    written = render_gallery(DEFAULT_DIR, {"ui-kit": PAGES["ui-kit"]})
    assert sorted(p.name for p in written) == ["ui-kit-1280x800.png", "ui-kit-1920x1080.png"]
    for path in written:
        image = QImage(str(path))
        width, height = (int(n) for n in path.stem.rsplit("-", 1)[1].split("x"))
        assert (image.width(), image.height()) == (width, height)
        # something was drawn: the dark ground, white card faces and red fault colour
        colours = {image.pixelColor(x, y).name()
                   for x in range(0, width, 7) for y in range(0, height, 7)}
        assert {theme.BACKGROUND, theme.CARD_FACE, theme.FAULT_RED} <= colours


def test_adding_a_page_is_one_entry(themed: QApplication, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    def hello() -> QWidget:
        page = QWidget()
        QVBoxLayout(page).addWidget(QLabel("Hello"))
        return page

    monkeypatch.setitem(PAGES, "hello", hello)
    written = {p.name for p in render_gallery(tmp_path, {k: PAGES[k] for k in ("hello", "ui-kit")})}
    assert {"hello-1280x800.png", "hello-1920x1080.png", "ui-kit-1280x800.png"} <= written


def test_a_page_that_does_not_fit_is_refused(themed: QApplication, tmp_path: Path) -> None:
    page = QWidget()
    QVBoxLayout(page).addWidget(AmountKeypad())
    refused = r"does not fit 400x300: .*AmountKeypad is \d+x\d+ but needs"
    with pytest.raises(ValueError, match=refused):
        render(page, tmp_path / "small.png", (400, 300))
    assert not (tmp_path / "small.png").exists()


def test_every_touch_target_is_big_enough_at_1280x800(themed: QApplication, qtbot: QtBot,
                                                      tmp_path: Path) -> None:
    page = ui_kit_page()
    qtbot.addWidget(page)
    render(page, tmp_path / "kit.png", SIZES[0])
    assert fit_problems(page) == []
    buttons = page.findChildren(TouchButton)
    assert len(buttons) >= 17  # the keypad's 15 keys and the phase bar's buttons
    for button in buttons:
        assert button.width() >= theme.TOUCH_MIN and button.height() >= theme.TOUCH_MIN
    keypad = page.findChild(AmountKeypad)
    assert keypad is not None and len(keypad.keys) == 16  # a second OK shares Cancel's place
    keypad.set_then("OK +\nFortune")
    render(page, tmp_path / "kit-then.png", SIZES[0])
    assert fit_problems(page) == []
    for key in keypad.keys.values():
        assert key.width() >= theme.MONEY_MIN and key.height() >= theme.MONEY_MIN, key.text()


def test_the_command_renders_into_a_folder(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ui.screenshots", "--page", "ui-kit", "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "ui-kit-1280x800.png", "ui-kit-1920x1080.png"]
    assert QImage(str(tmp_path / "ui-kit-1920x1080.png")).width() == 1920
    bad = subprocess.run([sys.executable, "-m", "ui.screenshots", "--page", "nope"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "invalid choice: 'nope'" in bad.stderr


def test_the_galleries_and_the_screen_player_are_not_shipped() -> None:
    """Issue 24: ``ui/gallery`` (the galleries, the screen player) stays out of the package
    the build makes, while ``python -m ui.screenshots`` finds every gallery in a checkout."""
    import tomllib

    from setuptools import find_packages

    from ui.screenshots import PAGES

    root = Path(__file__).resolve().parents[2]
    found = tomllib.loads((root / "pyproject.toml").read_text())[
        "tool"]["setuptools"]["packages"]["find"]
    shipped = set(find_packages(str(root), include=found["include"],
                                exclude=found.get("exclude", ())))
    assert {"ui", "ui.supervisor", "ui.technician", "ui.widgets"} <= shipped
    assert not {p for p in shipped if p.startswith("ui.gallery")}, shipped
    assert {"supervisor-jackpot-awards", "technician-tests", "supervisor-recall",
            "meter-display-last-hit"} <= set(PAGES)
    spec = (root / "installers" / "windows" / "dealer-console.spec").read_text()
    assert '"ui.gallery"' in spec  # the Windows bundle leaves it out too


def test_a_picture_is_written_again_only_when_the_screen_changed(themed: QApplication,
                                                                 qtbot: QtBot,
                                                                 tmp_path: Path) -> None:
    """A run of the tests renders every picture: one whose file already shows it (but for the
    anti-aliasing of glyphs, a few levels of a channel) is left alone, so the run leaves
    ``docs/screenshots`` as it was; a screen that changed is written."""
    page = QWidget()
    qtbot.addWidget(page)
    label = QLabel("Seat 1 settled")
    QVBoxLayout(page).addWidget(label)
    path = render(page, tmp_path / "page.png", (400, 300))
    first = path.read_bytes()
    written = path.stat().st_mtime_ns
    os.utime(path, ns=(written - 10**9, written - 10**9))  # a second older: a rewrite shows
    render(page, path, (400, 300))  # the very same pixels: not written again
    assert path.stat().st_mtime_ns == written - 10**9 and path.read_bytes() == first
    image = QImage(str(path))
    # the same picture with glyph-sized noise, saved as another file's bytes would be
    for x in range(0, 400, 5):
        colour = image.pixelColor(x, 150)
        image.setPixelColor(x, 150, colour.lighter(102) if colour.value() < 250 else colour)
    assert image.save(str(path), "PNG")
    noisy = path.read_bytes()
    assert noisy != first
    render(page, path, (400, 300))
    assert path.read_bytes() == noisy  # left alone
    # and a few pixels of a glyph's edge further apart (seen: 3 pixels by 33 levels)
    image = QImage(str(path))
    for x in (10, 200, 390):
        colour = image.pixelColor(x, 20)
        image.setPixelColor(x, 20, colour.lighter(100 + 33 * 100 // max(colour.value(), 1))
                            if colour.value() < 200 else colour.darker(115))
    assert image.save(str(path), "PNG")
    edged = path.read_bytes()
    render(page, path, (400, 300))
    assert path.read_bytes() == edged  # left alone
    # one pixel far off is a change (a dot of a glyph that is not there)
    image = QImage(str(path))
    image.setPixelColor(200, 150, QColor("white"))
    assert image.save(str(path), "PNG")
    render(page, path, (400, 300))
    assert QImage(str(path)).pixelColor(200, 150) != QColor("white")  # written
    label.setText("Seat 2 settled")
    render(page, path, (400, 300))
    assert path.read_bytes() not in (noisy, first)
    assert QImage(str(path)).size().width() == 400
    render(page, path, (420, 300))  # another size: written
    assert QImage(str(path)).width() == 420


def test_the_galleries_draw_on_a_held_clock(themed: QApplication, tmp_path: Path) -> None:
    """A page that shows the time is drawn the same on every day (``GALLERY_TIME``)."""
    from dealer_console import clock
    from ui.screenshots import GALLERY_TIME

    seen = []

    def dated() -> QWidget:
        seen.append(clock.now())
        page = QWidget()
        QVBoxLayout(page).addWidget(QLabel(f"Shift of {seen[-1]:%d %b %Y}"))
        return page

    render_gallery(tmp_path, {"dated": dated})
    assert seen == [GALLERY_TIME, GALLERY_TIME]  # each size's page built on a new clock
    assert clock.now() != GALLERY_TIME  # and the real one back after

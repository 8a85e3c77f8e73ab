from __future__ import annotations

import tomllib
from collections.abc import Iterator
from fnmatch import fnmatch
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QFontInfo, QRawFont
from PySide6.QtWidgets import QApplication, QScrollBar, QStyleFactory, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from ui import theme
from ui.theme import FONT_DIR, FONT_FAMILY, TouchStyle


def test_the_stylesheet_has_no_hover_rule(themed: QApplication) -> None:
    assert ":hover" not in theme.STYLESHEET.lower()
    assert ":hover" not in themed.styleSheet().lower()
    assert themed.styleSheet() == theme.STYLESHEET


def test_the_application_font_is_the_shipped_family(themed: QApplication) -> None:
    assert themed.font().family() == FONT_FAMILY
    assert QFontInfo(themed.font()).family() == FONT_FAMILY  # what Qt actually resolved
    shipped = QRawFont(str(FONT_DIR / "DejaVuSans.ttf"), 20)
    assert shipped.isValid() and shipped.familyName() == FONT_FAMILY
    # the card suits are in the shipped font, so no machine falls back to another for them
    for symbol in theme.SUIT_SYMBOLS.values():
        assert shipped.supportsCharacter(ord(symbol))


def test_the_fonts_ship_with_their_licence() -> None:
    files = sorted(p.name for p in FONT_DIR.iterdir())
    assert files == ["DejaVuSans-Bold.ttf", "DejaVuSans.ttf", "LICENSE"]
    assert "Bitstream Vera" in (FONT_DIR / "LICENSE").read_text(encoding="utf-8")
    assert sum((FONT_DIR / f).stat().st_size for f in files) < 2_000_000
    # and the package data of a built wheel covers every one of them
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    patterns = tomllib.loads(pyproject.read_text())["tool"]["setuptools"]["package-data"]["ui"]
    for name in files:
        assert any(fnmatch(f"fonts/{name}", pattern) for pattern in patterns), name


def test_a_missing_font_file_is_refused_in_plain_words(
        qapp: QApplication, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(theme, "FONT_DIR", tmp_path)
    with pytest.raises(RuntimeError, match=r"cannot load the console's font .*DejaVuSans\.ttf"):
        theme.load_fonts()


@pytest.fixture
def no_stylesheet(themed: QApplication) -> Iterator[QApplication]:
    """The theme's style on its own, without the stylesheet drawing over it."""
    themed.setStyleSheet("")
    yield themed
    theme.apply_theme(themed, again=True)


def test_the_style_is_fusion_underneath(no_stylesheet: QApplication) -> None:
    style = no_stylesheet.style()
    assert isinstance(style, TouchStyle)
    assert style.baseStyle().name().lower() == "fusion"


def _hover_changes_look(qtbot: QtBot, app: QApplication, no_hover: bool) -> bool:
    app.setStyle(TouchStyle() if no_hover else QStyleFactory.create("Fusion"))
    for other in app.topLevelWidgets():  # a window an earlier test left open takes the pointer
        if other.isVisible():
            other.hide()
    page = QWidget()
    qtbot.addWidget(page)
    bar = QScrollBar(Qt.Orientation.Horizontal)
    bar.setMinimumWidth(200)
    bar.setRange(0, 1)  # the handle fills the bar, so the pointer is over it
    bar.setPageStep(100)
    QVBoxLayout(page).addWidget(bar)
    page.resize(240, 80)
    page.show()
    qtbot.waitExposed(page)
    qtbot.mouseMove(page, QPoint(239, 79))
    before = bar.grab().toImage()
    qtbot.mouseMove(bar, QPoint(bar.width() // 2, bar.height() // 2))
    QApplication.processEvents()
    assert bar.underMouse()
    return bar.grab().toImage() != before


def test_nothing_lights_up_under_a_finger(no_stylesheet: QApplication, qtbot: QtBot) -> None:
    assert _hover_changes_look(qtbot, no_stylesheet, no_hover=False)  # Fusion lights it up
    assert not _hover_changes_look(qtbot, no_stylesheet, no_hover=True)


def _contrast(foreground: str, background: str) -> float:
    def luminance(colour: str) -> float:
        channels = []
        for value in QColor(colour).getRgbF()[:3]:
            channels.append(value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4)
        red, green, blue = channels
        return 0.2126 * red + 0.7152 * green + 0.0722 * blue

    light, dark = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize(("foreground", "background", "least"), [
    (theme.TEXT, theme.BACKGROUND, 7.0),  # WCAG AAA for body text
    (theme.TEXT_MUTED, theme.BACKGROUND, 7.0),
    (theme.TEXT, theme.SURFACE, 7.0),
    (theme.ON_FILL, theme.PRIMARY, 4.5),
    (theme.ON_FILL, theme.SECONDARY, 4.5),
    (theme.ON_FILL, theme.FAULT_RED, 4.5),
    (theme.ON_FILL, theme.OK_GREEN, 4.5),
    (theme.ON_AMBER, theme.WARNING_AMBER, 4.5),
    (theme.DISABLED_TEXT, theme.DISABLED_FILL, 3.0),  # dimmer, still legible
    (theme.JOKER_COLOUR, theme.CARD_FACE, 4.5),
    *[(colour, theme.CARD_FACE, 4.5) for colour in theme.SUIT_COLOURS.values()],
    *[(colour, theme.CARD_FACE, 4.5) for colour in theme.FOUR_COLOUR_SUITS.values()],
])
def test_colours_are_high_contrast(foreground: str, background: str, least: float) -> None:
    assert _contrast(foreground, background) >= least


def test_the_four_colour_deck_gives_each_suit_its_own_colour() -> None:
    assert len(set(theme.FOUR_COLOUR_SUITS.values())) == 4
    assert theme.suit_colour("h") == theme.suit_colour("d")  # two-colour: red and black
    assert theme.suit_colour("d", four_colour=True) != theme.suit_colour("h", four_colour=True)

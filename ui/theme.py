"""The console's look in one place: shipped fonts, Fusion without hover, a high-contrast palette.

A table-side touchscreen is read at arm's length under bright spot lights over a dim room, and
driven only by fingers. So: light text on a near-black ground, large type, touch targets of at
least ``TOUCH_MIN`` pixels (``MONEY_MIN`` for anything that moves money), and no hover effect
anywhere (a finger has no hover; a lifted finger would otherwise leave a button lit). Fonts ship
with the project so every machine and every screenshot draws the same glyphs.

Screens take every size and colour from the constants below instead of writing their own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QFontDatabase, QPalette
from PySide6.QtWidgets import (
    QApplication,
    QProxyStyle,
    QStyleFactory,
    QWidget,
)

FONT_DIR: Final = Path(__file__).with_name("fonts")
FONT_FILES: Final = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
FONT_FAMILY: Final = "DejaVu Sans"

# Sizes in device-independent pixels.
TOUCH_MIN: Final = 48  # smallest touch target of any kind
MONEY_MIN: Final = 72  # buttons that move money or end a step: keypad keys, OK, the next step
SPACING: Final = 12
RADIUS: Final = 10
FONT_SMALL: Final = 18  # nothing the dealer must read is smaller than this
FONT_BODY: Final = 22
FONT_BUTTON: Final = 24
FONT_LABEL: Final = 26  # device names in the fault banner, group titles
FONT_HEADING: Final = 32  # the phase bar's sentence, section titles
FONT_AMOUNT: Final = 48  # an amount being entered or paid
CARD_HEIGHT: Final = 220  # a card's height when the screen has room; rows shrink to fit

# Colours: the ground and the text on it.
BACKGROUND: Final = "#0b0f14"
SURFACE: Final = "#18202a"  # panels and groups on the ground
SURFACE_RAISED: Final = "#243040"
BORDER: Final = "#6b7a8c"
TEXT: Final = "#ffffff"
TEXT_MUTED: Final = "#c9d2dc"  # hints; still over 10:1 against the ground
DISABLED_FILL: Final = "#1f2731"
DISABLED_TEXT: Final = "#7f8b98"
SELECTED: Final = "#00e5ff"  # a card or choice the dealer has picked

# Colours: meanings. Each text colour is the one readable on its fill.
PRIMARY: Final = "#1565c0"
PRIMARY_PRESSED: Final = "#0d47a1"
SECONDARY: Final = "#3a4858"
SECONDARY_PRESSED: Final = "#2a3542"
FAULT_RED: Final = "#c62828"
FAULT_RED_PRESSED: Final = "#8e1c1c"
OK_GREEN: Final = "#2e7d32"
WARNING_AMBER: Final = "#ffb300"
ON_FILL: Final = "#ffffff"  # text on primary, secondary, fault red and ok green
ON_AMBER: Final = "#000000"

# Colours: cards. The two-colour deck is black and red; the four-colour deck (an option for
# dealers who read suits faster by colour) keeps spades black and hearts red and gives diamonds
# blue and clubs green, as four-colour poker decks do.
CARD_FACE: Final = "#ffffff"
CARD_EDGE: Final = "#8a96a3"
CARD_BACK: Final = "#17408b"
CARD_BACK_PATTERN: Final = "#2f66c4"
JOKER_COLOUR: Final = "#6a1b9a"
SUIT_COLOURS: Final = {"s": "#111111", "h": "#d50000", "d": "#d50000", "c": "#111111"}
FOUR_COLOUR_SUITS: Final = {"s": "#111111", "h": "#d50000", "d": "#0d47a1", "c": "#1b7a2a"}
SUIT_SYMBOLS: Final = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}


def suit_colour(suit: str, four_colour: bool = False) -> str:
    """The colour a suit is drawn in, in the two- or four-colour deck."""
    return (FOUR_COLOUR_SUITS if four_colour else SUIT_COLOURS)[suit]


STYLESHEET: Final = f"""
* {{ outline: none; }}
QWidget {{ color: {TEXT}; font-size: {FONT_BODY}px; }}
QMainWindow, QDialog {{ background: {BACKGROUND}; }}
QToolTip {{ color: {TEXT}; background: {SURFACE_RAISED}; border: 1px solid {BORDER}; }}

/* no min-width/min-height here: they would override TouchButton's own minimum size */
QPushButton {{
    padding: 6px 18px;
    font-size: {FONT_BUTTON}px; font-weight: bold; color: {ON_FILL};
    background: {SECONDARY}; border: 2px solid {BORDER}; border-radius: {RADIUS}px;
}}
QPushButton:pressed {{ background: {SECONDARY_PRESSED}; }}
QPushButton[role="primary"] {{ background: {PRIMARY}; border-color: #90caf9; }}
QPushButton:checked {{ background: {PRIMARY}; border: 3px solid {SELECTED}; }}
QPushButton[role="primary"]:pressed {{ background: {PRIMARY_PRESSED}; }}
QPushButton[role="danger"] {{ background: {FAULT_RED}; border-color: #ef9a9a; }}
QPushButton[role="danger"]:pressed {{ background: {FAULT_RED_PRESSED}; }}
QPushButton[big="true"] {{ font-size: {FONT_HEADING}px; }}
QPushButton:disabled, QPushButton[role="primary"]:disabled, QPushButton[role="danger"]:disabled {{
    background: {DISABLED_FILL}; color: {DISABLED_TEXT}; border: 2px dashed {DISABLED_TEXT};
}}

QLabel[role="heading"] {{ font-size: {FONT_HEADING}px; font-weight: bold; }}
QLabel[role="hint"] {{ font-size: {FONT_BODY}px; color: {TEXT_MUTED}; }}
QLabel[role="amount"] {{
    font-size: {FONT_AMOUNT}px; font-weight: bold; background: {SURFACE};
    border: 2px solid {BORDER}; border-radius: {RADIUS}px; padding: 4px 16px;
}}
QLabel[role="amount"][empty="true"] {{ color: {TEXT_MUTED}; }}
QLabel[role="refusal"] {{
    font-size: {FONT_BODY}px; font-weight: bold; color: {ON_FILL}; background: {FAULT_RED};
    border-radius: {RADIUS}px; padding: 8px 14px;
}}
QLabel[role="refusal"][calm="true"] {{ background: {SURFACE_RAISED}; color: {TEXT}; }}
QLabel[role="group"] {{ font-size: {FONT_BODY}px; font-weight: bold; color: {TEXT_MUTED}; }}

QFrame[role="panel"] {{ background: {SURFACE}; border-radius: {RADIUS}px; }}
QFrame[role="panel"][frame="plain"] {{ border: 1px solid {BORDER}; }}
QFrame[role="panel"][frame="dealer"] {{ border: 3px solid {BORDER}; }}
QFrame[role="panel"][frame="offered"] {{ border: 1px solid {WARNING_AMBER}; }}
QFrame[role="panel"][frame="offered-dealer"] {{ border: 3px solid {WARNING_AMBER}; }}
QFrame[role="panel"][frame="focused"] {{ border: 4px solid {SELECTED}; }}
QFrame[role="fault"] {{
    background: {FAULT_RED}; border: 3px solid #ffcdd2; border-radius: {RADIUS}px;
}}
QFrame[role="fault"] QLabel {{
    color: {ON_FILL}; background: transparent; font-size: {FONT_BODY + 2}px;
}}
QFrame[role="card-prompt"] {{
    background: {WARNING_AMBER}; border-radius: {RADIUS}px;
}}
QFrame[role="card-prompt"] > QLabel {{
    color: {ON_AMBER}; background: transparent; font-size: {FONT_HEADING}px; font-weight: bold;
}}
QFrame[role="fault"] QLabel[part="device"] {{ font-size: {FONT_LABEL}px; font-weight: bold; }}
QFrame[role="fault"] QLabel[part="problem"] {{ font-weight: bold; }}

QScrollBar:vertical {{ width: 14px; background: {SURFACE}; }}
QScrollBar:horizontal {{ height: 14px; background: {SURFACE}; }}
QScrollBar::handle {{ background: {BORDER}; border-radius: 6px; min-height: 40px; }}
QScrollBar::add-line, QScrollBar::sub-line {{ width: 0; height: 0; }}
"""


class TouchStyle(QProxyStyle):
    """Fusion with hover turned off: on a touchscreen the last finger position is not a hover,
    and a button must look the same before and after it is touched.

    Fusion asks for hover events (``WA_Hover``) on buttons, scroll bars and the like when it
    polishes a widget; this takes that back, so no widget tracks the pointer and nothing lights
    up. The stylesheet has no ``:hover`` rule for the same reason."""

    def __init__(self) -> None:
        super().__init__(QStyleFactory.create("Fusion"))

    def polish(self, target: QApplication | QWidget | QPalette | Qt.GlobalColor | QColor, /
               ) -> None:
        super().polish(target)
        if isinstance(target, QWidget):
            target.setAttribute(Qt.WidgetAttribute.WA_Hover, False)


def palette() -> QPalette:
    """High contrast: white on near black, with disabled text dimmer but still legible."""
    pal = QPalette()
    roles = QPalette.ColorRole
    colours = {
        roles.Window: BACKGROUND, roles.WindowText: TEXT, roles.Base: SURFACE,
        roles.AlternateBase: SURFACE_RAISED, roles.Text: TEXT, roles.Button: SECONDARY,
        roles.ButtonText: ON_FILL, roles.BrightText: ON_FILL, roles.Highlight: PRIMARY,
        roles.HighlightedText: ON_FILL, roles.ToolTipBase: SURFACE_RAISED,
        roles.ToolTipText: TEXT, roles.PlaceholderText: TEXT_MUTED, roles.Link: "#90caf9",
    }
    for role, colour in colours.items():
        pal.setColor(role, QColor(colour))
    disabled = QPalette.ColorGroup.Disabled
    for role in (roles.WindowText, roles.Text, roles.ButtonText):
        pal.setColor(disabled, role, QColor(DISABLED_TEXT))
    pal.setColor(disabled, roles.Button, QColor(DISABLED_FILL))
    return pal


def load_fonts() -> str:
    """Register the shipped font files and return their family name.

    Raises ``RuntimeError`` naming the file when one is missing or unreadable: a console that
    silently fell back to a system font would look different on every machine."""
    families: set[str] = set()
    for name in FONT_FILES:
        path = FONT_DIR / name
        font_id = QFontDatabase.addApplicationFont(str(path))
        if font_id < 0:
            raise RuntimeError(f"cannot load the console's font {path}: reinstall the console")
        families.update(QFontDatabase.applicationFontFamilies(font_id))
    if families != {FONT_FAMILY}:
        raise RuntimeError(f"the shipped fonts hold {sorted(families)}, expected {FONT_FAMILY}")
    return FONT_FAMILY


def font(size: int = FONT_BODY, bold: bool = False) -> QFont:
    """The shipped family at ``size`` pixels, for widgets that paint their own text."""
    result = QFont(FONT_FAMILY)
    result.setPixelSize(size)
    result.setBold(bold)
    result.setHintingPreference(QFont.HintingPreference.PreferNoHinting)
    return result


_THEMED = "dealer_console_themed"


def apply_theme(app: QApplication, *, again: bool = False) -> None:
    """Give ``app`` the console's fonts, style, palette and stylesheet. Call once, before any
    window is shown; calling again does nothing (a new style re-polishes every widget alive,
    which a process opening many consoles, the screenshots', made take minutes) unless
    ``again`` (a test that took part of the theme away puts it back)."""
    if app.property(_THEMED) and not again:
        return
    app.setProperty(_THEMED, True)
    load_fonts()
    app.setFont(font(FONT_BODY))
    app.setStyle(TouchStyle())
    app.setPalette(palette())
    app.setStyleSheet(STYLESHEET)
    for effect in (Qt.UIEffect.UI_AnimateCombo, Qt.UIEffect.UI_FadeTooltip,
                   Qt.UIEffect.UI_AnimateTooltip, Qt.UIEffect.UI_FadeMenu,
                   Qt.UIEffect.UI_AnimateMenu):
        app.setEffectEnabled(effect, False)

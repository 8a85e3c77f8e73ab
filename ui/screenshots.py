"""Screenshots of the console's screens at the touchscreens' sizes, for the docs and for review.

``python -m ui.screenshots`` renders every page in ``PAGES`` at every size in ``SIZES`` into
``docs/screenshots/NAME-WIDTHxHEIGHT.png``, offscreen and with the shipped fonts, so the
pictures are the same on every machine. A page is a function that builds a widget filled with
sample values; adding a screen is one line in ``PAGES``.

``render`` refuses a widget whose layout cannot fit the size asked for: a screen that does not
fit 1280x800 is a bug to see here, not on the table. It leaves a picture file alone when it
already shows the screen but for anti-aliasing, so running the tests (which render the
pictures) changes only the pictures of screens that changed. The galleries' consoles run on a
held clock (:data:`GALLERY_TIME`), so a screen that shows a date or a time is drawn the same on
every day.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QGridLayout, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from dealer_console import clock
from ui import theme
from ui.application import application
from ui.fit_check import fit_problems
from ui.widgets.amount_keypad import AmountKeypad
from ui.widgets.card import CardRow
from ui.widgets.fault_banner import FaultBanner
from ui.widgets.phase_bar import PhaseBar
from ui.widgets.touch import ButtonRole

__all__ = ["PAGES", "SIZES", "fit_problems", "render", "render_gallery", "ui_kit_page"]

SIZES: tuple[tuple[int, int], ...] = ((1280, 800), (1920, 1080))
DEFAULT_DIR = Path(__file__).resolve().parents[1] / "docs" / "screenshots"
GALLERY_TIME = datetime(2026, 3, 14, 20, 0, tzinfo=UTC)
"""Where the galleries' clock starts (an evening shift), one second on at every reading."""
SETTLE_PASSES = 4
"""Layout passes a render allows before it judges the fit: a label's wrapped words are measured
again at the width the last pass gave it, as a live screen does over its first frames."""


Check = Callable[[QWidget, QSize], list[str]]
"""What keeps a laid-out page from fitting a screen of that size (``fit_check``)."""


def squeezed(widget: QWidget, _screen: QSize) -> list[str]:
    """Parts given less than their minimum size: what every picture is held to."""
    return fit_problems(widget)


def render(widget: QWidget, path: str | Path, size: tuple[int, int] | QSize,
           check: Check = squeezed) -> Path:
    """Lay ``widget`` out at ``size`` offscreen and save what it shows as a PNG at ``path``.

    Raises ``ValueError`` when something on it does not fit that size (``check``: parts
    squeezed; ``fit_check.screen_problems`` adds text cut or elided and buttons too small)."""
    target = size if isinstance(size, QSize) else QSize(*size)
    widget.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen, True)
    widget.setFixedSize(target)
    widget.show()
    layout = widget.layout()
    for _ in range(SETTLE_PASSES):  # wrapped words re-measured at their new widths take a
        if layout is not None:  # pass or two, as on a live screen
            layout.activate()
        QApplication.processEvents()
        problems = check(widget, target)
        if not problems:
            break
    if problems:
        raise ValueError(f"{type(widget).__name__} does not fit {target.width()}x"
                         f"{target.height()}: " + "; ".join(problems[:3]))
    picture = widget.grab()
    out = Path(path)
    if drawn_alike(picture.toImage(), out):
        return out  # the file already shows it: left alone, so a run changes no picture
    out.parent.mkdir(parents=True, exist_ok=True)
    if not picture.save(str(out), "PNG"):
        raise OSError(f"cannot write the screenshot {out}")
    return out


GLYPH_NOISE = 16
"""The most a colour channel of one pixel may differ between two renderings of the same screen:
the same glyphs drawn in two processes come out a few levels apart, depending on what each
drew before (5 seen); anything the dealer could see changed differs by far more."""
GLYPH_OUTLIERS = 16, 64
"""Beyond that, a few pixels of a glyph's edge may differ by more (2-3 pixels by up to 33
levels seen, in text on a card's white): at most this many pixels, by at most this much. A
changed word, digit or colour changes dozens of pixels by far more."""


def drawn_alike(image: QImage, path: Path) -> bool:
    """``path`` holds a picture of the same size that differs from ``image`` by no more than
    anti-aliasing (``GLYPH_NOISE``)."""
    if not path.is_file():
        return False
    old = QImage(str(path))
    if old.isNull() or old.size() != image.size():
        return False
    if old.convertToFormat(image.format()) == image:
        return True  # the same pixels (most runs): no need to weigh the differences
    import numpy as np  # pyqtgraph's dependency; only the pictures need it here

    def channels(picture: QImage) -> np.ndarray:
        rgba = picture.convertToFormat(QImage.Format.Format_RGBA8888)
        rows = np.frombuffer(rgba.constBits(), np.uint8).reshape(rgba.height(),
                                                                  rgba.bytesPerLine())
        return rows[:, :rgba.width() * 4].astype(np.int16)

    apart = np.abs(channels(old) - channels(image)).reshape(image.height(), -1, 4).max(axis=2)
    most = int(apart.max())
    outliers, outlier_most = GLYPH_OUTLIERS
    return most <= GLYPH_NOISE or (
        most <= outlier_most and int((apart > GLYPH_NOISE).sum()) <= outliers)


# -- the pages ---------------------------------------------------------------------------------

def _caption(text: str) -> QLabel:
    label = QLabel(text)
    label.setProperty("role", "hint")
    return label


def _sample_base_wager(cents: int) -> str | None:
    """A sample of what a profile's limits say; the real words come from the profile."""
    if cents < 1_000 or cents > 50_000:
        return "Over the $500 table maximum. Enter $10 to $500."
    if cents % 500:
        return "Base wagers go in $5 steps. Enter a multiple of $5."
    return None


def ui_kit_page() -> QWidget:
    """Every piece of the kit on one page, showing its states."""
    page = QWidget()
    page.setAutoFillBackground(True)

    banner = FaultBanner()
    banner.set_faults([
        ("Shuffler", "Not answering.", "Check its cable and power."),
        ("Bet sensors", "Seat 3: chips moved late.", "Call a supervisor."),
    ])

    two_colour = CardRow("As Kh Qd Jc Td 2s JK 9c", card_height=theme.CARD_HEIGHT)
    two_colour.set_selected([1])
    two_colour.set_dimmed([5])
    two_colour.set_face_down([7])
    four_colour = CardRow("As Kh Qd Jc Td 2s JK 9c", card_height=theme.CARD_HEIGHT,
                          four_colour=True)
    hand = CardRow(card_height=theme.CARD_HEIGHT)
    hand.set_groups([("Low hand", "Kd Jc"), ("High hand", "As Ah 9s 9h JK")])

    cards = QGridLayout()
    cards.setVerticalSpacing(theme.SPACING // 2)
    cards.setHorizontalSpacing(theme.SPACING)
    for row, (caption, card_row) in enumerate((
        ("Two colours: selected, dimmed, face down", two_colour),
        ("Four-colour deck", four_colour),
        ("A hand set low and high", hand),
    )):
        cards.addWidget(_caption(caption), row * 2, 0)
        cards.addWidget(card_row, row * 2 + 1, 0)
        cards.setRowStretch(row * 2 + 1, 1)

    keypad = AmountKeypad(_sample_base_wager, "Base wager $10 to $500 in $5 steps")
    for digit in "512":
        keypad.press(digit)

    bar = PhaseBar()
    bar.set_instruction("Deal the seven hands from the shuffler.")
    bar.set_action("Deal", lambda: None)
    bar.add_secondary("Misdeal", lambda: None, role=ButtonRole.DANGER)
    bar.show_message("Cannot deal yet: seat 3's wager changed after the bets closed.",
                     "Ask a supervisor to confirm seat 3, then press Deal.")

    middle = QHBoxLayout()
    middle.setSpacing(theme.SPACING * 2)
    middle.addLayout(cards, 3)
    middle.addWidget(keypad, 2)

    layout = QVBoxLayout(page)
    layout.setContentsMargins(theme.SPACING, theme.SPACING, theme.SPACING, theme.SPACING)
    layout.setSpacing(theme.SPACING)
    layout.addWidget(banner)
    layout.addLayout(middle, 1)
    layout.addWidget(bar)
    return page


# One line per page: name -> function building the page with sample values.
PAGES: dict[str, Callable[[], QWidget]] = {
    "ui-kit": ui_kit_page,
}


def _gallery_pages() -> None:
    """The dealer's, the meter display's, the supervisor's, recall's, the technician's and
    the pit's screens (real consoles each). ``ui.gallery`` is in a checkout only: an installed
    console has no galleries (issue 24), and this module then renders the kit's own page."""
    try:
        from ui.gallery.dealer import DEALER_PAGES
        from ui.gallery.meter import METER_PAGES
        from ui.gallery.pit import PIT_PAGES
        from ui.gallery.recall import RECALL_PAGES
        from ui.gallery.supervisor import SUPERVISOR_PAGES
        from ui.gallery.technician import TECHNICIAN_PAGES
    except ModuleNotFoundError as exc:
        if exc.name is None or not exc.name.startswith("ui.gallery"):
            raise
        return
    for pages in (DEALER_PAGES, METER_PAGES, SUPERVISOR_PAGES, RECALL_PAGES, TECHNICIAN_PAGES,
                  PIT_PAGES):
        PAGES.update(pages)


_gallery_pages()


def themed_app() -> QApplication:
    """The running application, or a new one; themed either way."""
    app = application()
    theme.apply_theme(app)
    return app


def render_gallery(out_dir: str | Path = DEFAULT_DIR,
                   pages: Mapping[str, Callable[[], QWidget]] | None = None,
                   sizes: Sequence[tuple[int, int]] = SIZES,
                   check: Check = squeezed) -> list[Path]:
    """Render each page at each size as ``out_dir/NAME-WxH.png``; returns the files written."""
    themed_app()
    written = []
    for name, build in (PAGES if pages is None else pages).items():
        for width, height in sizes:
            with clock.held_at(GALLERY_TIME):
                widget = build()
                try:
                    written.append(render(widget, Path(out_dir) / f"{name}-{width}x{height}.png",
                                          (width, height), check))
                finally:
                    widget.close()
                    widget.deleteLater()
    return written


def picture_colours(path: Path, step: int = 9) -> set[str]:
    """The colours a written picture shows (every ``step``-th pixel each way), for a test to
    see that a screen was drawn; ``ValueError`` when its size is not the one its name says
    (``NAME-WIDTHxHEIGHT.png``)."""
    image = QImage(str(path))
    width, height = (int(n) for n in path.stem.rsplit("-", 1)[1].split("x"))
    if (image.width(), image.height()) != (width, height):
        raise ValueError(f"{path.name} is {image.width()}x{image.height()}")
    return {image.pixelColor(x, y).name()
            for x in range(0, width, step) for y in range(0, height, step)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ui.screenshots", description=__doc__)
    parser.add_argument("--out", type=Path, default=DEFAULT_DIR,
                        help="folder for the PNGs (default: docs/screenshots)")
    parser.add_argument("--page", action="append", choices=sorted(PAGES),
                        help="render only this page (repeatable)")
    args = parser.parse_args(argv)
    # offscreen whatever the desktop: no window flashes up and no desktop scaling applies
    if QApplication.instance() is None:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    pages = {name: PAGES[name] for name in args.page} if args.page else PAGES
    try:
        for path in render_gallery(args.out, pages):
            print(path)
    except (ValueError, OSError) as exc:
        print(f"screenshots: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

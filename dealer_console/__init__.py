"""Dealer Console's game and table core.

Everything here is pure Python: cards, hands, House Ways, bonuses, paytables, settlement,
the round procedure, jackpot meters, storage and profiles. It never imports Qt, serial or usb
(the drivers fulfil small interfaces defined here), so it runs and tests without hardware.
"""

__version__ = "0.1.0"


def _import_sqlite_utils_without_numpy() -> None:
    """sqlite-utils registers numpy's number types whenever numpy can be imported (the meter
    chart's pyqtgraph installs it), and importing numpy is a tenth of a second of every
    start; the console stores only integers and text. So sqlite-utils is imported here,
    before any of our modules needs it, with numpy hidden for that one import; numpy itself
    imports as usual afterwards."""
    import sys

    if "sqlite_utils" in sys.modules or "numpy" in sys.modules:
        return
    sys.modules["numpy"] = None  # type: ignore[assignment]  # makes "import numpy" fail
    try:
        import sqlite_utils  # noqa: F401
    finally:
        del sys.modules["numpy"]


_import_sqlite_utils_without_numpy()

"""Dealer Console's game and table core.

Everything here is pure Python: cards, hands, House Ways, bonuses, paytables, settlement,
the round procedure, jackpot meters, storage and profiles. It never imports Qt, serial or usb
(the drivers fulfil small interfaces defined here), so it runs and tests without hardware.
"""

__version__ = "0.1.0"

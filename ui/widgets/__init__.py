"""Touch widgets the dealer's screens are built from.

They know no game state and no rule: they take plain values (text, cents, card text, callables)
and emit signals, so a screen's controller decides and the widget only shows and reports.
"""

from ui.widgets.amount_keypad import AmountKeypad
from ui.widgets.card import CardRow, CardView
from ui.widgets.fault_banner import FaultBanner
from ui.widgets.phase_bar import PhaseBar
from ui.widgets.touch import ButtonRole, TouchButton, kinetic

__all__ = [
    "AmountKeypad",
    "ButtonRole",
    "CardRow",
    "CardView",
    "FaultBanner",
    "PhaseBar",
    "TouchButton",
    "kinetic",
]

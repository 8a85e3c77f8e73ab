"""Touch widgets the dealer's screens are built from.

They know no game state and no rule: they take plain values (text, cents, card text, callables)
and emit signals, so a screen's controller decides and the widget only shows and reports.
"""

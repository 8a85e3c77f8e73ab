"""The meter display: the second window, for the monitor mounted on the table, that shows the
players each jackpot game's meters, its paytable, the last hit and a hit waiting for its card.

Washington document, "Face Up Pai Gow Poker Jackpot": the jackpot display is a monitor with
no intelligence of its own. So this window decides nothing: it draws what the table database
and the controller's view say, and can be closed and opened again at any time."""

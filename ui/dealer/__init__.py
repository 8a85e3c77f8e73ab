"""The dealer's touchscreen: the table as on the felt, the hand in focus drawn large, the page
of the phase's choices, and the phase bar with the one next step. Every screen reads the
controller's frozen view and sends it commands; which buttons are live comes from the round
(``TableController.check`` and the phase table), never from a widget's own reading."""

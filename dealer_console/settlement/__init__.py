"""Settlement of a round to the cent, pure Python.

``model`` (input and sheet values), ``validate`` (refusing a round before settling it),
``resolve`` (House Way and fouls), ``bonuses`` (Fortune, Ace-High, Envy, jackpot),
``limits`` (aggregate limit, coverage walk), ``settle`` (the order and the money),
``round_json`` (the ROUND.json format), ``sheet`` (the dealer's payout sheet).
"""

from dealer_console.settlement.model import RoundError, RoundInput, Sheet
from dealer_console.settlement.settle import settle

__all__ = ["RoundError", "RoundInput", "Sheet", "settle"]

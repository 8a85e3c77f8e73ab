"""The table jackpot of the Washington document: meters, qualifying hands, confirmed awards.

``paytable`` and ``config`` describe a game, ``meters`` does its arithmetic, ``qualify`` reads
a player's seven cards, ``marks`` holds the dealer's hand buttons for a round, ``store`` keeps
it all in the table database, ``audit`` checks the meters against their history.
"""

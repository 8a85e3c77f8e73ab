"""The jackpot's values, below both the jackpot system and its link: a game's set-up
(``config``), its paytable, the meters' arithmetic, and what a table and its link exchange
(``link_records``, ``link_names``). Plain values and pure functions; no database, no network.
A profile holds them, the jackpot records them and the link carries them, so none of those
packages needs another to name them."""

"""What ``dealer-console audit verify`` proves about a table database (``docs/storage.md``):
``verify`` runs every check, ``rules`` replays each round's rules from the log, ``rebuild``
rebuilds every derived table from the log. It sits above the round and the jackpot system
because it checks both."""

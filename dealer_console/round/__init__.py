"""The round procedure: phases, commands, events, storage of each transition, recovery.

``rules`` (the profile as the round sees it), ``seats`` (positions, action seat, deal order),
``commands``, ``state``, ``machine`` (decide / evolve), ``settle`` (the bridge to the settlement
engine), ``jackpot`` (the hook for a jackpot system), ``projection`` (state tables), ``table``
(the service bound to a database). See ``docs/round.md``.
"""

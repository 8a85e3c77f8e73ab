"""Table hardware: the shuffler, the bet sensors and the jackpot keypad with its card reader.

Each device in three layers (transport: a byte pipe; framer: bytes <-> messages; device:
messages <-> events the round understands), with a simulated double of each in ``drivers.sim``.
Imports no Qt; events leave through thread-safe queues or callbacks.
"""

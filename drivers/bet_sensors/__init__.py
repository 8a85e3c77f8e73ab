"""The jackpot bet sensors on their bus: framer (``framer``) and driver (``device``); protocol
in docs/protocols/bet-sensors.md."""

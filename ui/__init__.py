"""PySide6 screens: dealer, supervisor, technician and the meter display.

Views observe models and call services from ``dealer_console``; no game rule lives in a slot.
Only ``ui`` itself and the command entry point import this package.
"""

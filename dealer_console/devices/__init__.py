"""The devices as the round sees them: events, commands and small interfaces.

Pure values and ``typing.Protocol`` classes: the drivers (``drivers``) fulfil these interfaces
and build these events; this package never imports the drivers, serial, usb or Qt.
"""

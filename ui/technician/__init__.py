"""The technician's screens: test mode's banner, the device tests, each device's panel with
its raw frames, and the devices' set-up."""

"""The supervisor's screens, opened from the dealer's window by a supervisor's card: one area
with a button per screen (``screens.SCREENS``) and a way back to the table."""

"""Test mode's banner, on every technician screen: that the table is in test mode, who is
testing, which program runs (version, the installed files' manifest digest) and which profile
with each paytable's return, so a technician can check the console against its approval."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel

from dealer_console import program_info
from dealer_console.math.table_returns import paytable_returns
from dealer_console.profiles.model import Profile
from ui import theme


def manifest_text() -> str:
    digest = program_info.manifest_digest()
    return "no manifest (development copy)" if digest is None else f"manifest {digest}"


class TestModeBanner(QLabel):
    def __init__(self, profile: Profile, technician: str) -> None:
        super().__init__()
        returns = "; ".join(f"{name} {ret}" for name, ret in paytable_returns(profile))
        self.setText(
            f"TEST MODE: no round can start. Technician {technician}, program "
            f"{program_info.version()}, {manifest_text()}\n"
            f"Profile {profile.name}: {returns or 'no paytables'}")
        self.setWordWrap(True)
        self.setStyleSheet(
            f"background: {theme.FAULT_RED}; color: {theme.TEXT}; padding: 8px;"
            f" font-size: {theme.FONT_SMALL}px; font-weight: bold; border-radius: 6px;")

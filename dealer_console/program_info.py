"""What program this is: its version and, for an installed copy, the SHA-256 of the manifest
of its files written when the package was built (``installers/linux/make_manifest.py``).

A technician or a regulator's lab compares that digest with the approved one; the technician's
screen and ``dealer-console self-test`` print it. A development copy has no manifest."""

from __future__ import annotations

import hashlib
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _dist_version
from pathlib import Path

MANIFEST_NAME = "dealer-console.manifest"
"""The manifest's file name, beside the installed packages (in the environment's
site-packages): one line per file, ``<sha256 hex>  <path relative to that folder>``."""

PROGRAM_DIR = Path(__file__).resolve().parent.parent
"""The folder holding the console's packages (site-packages when installed)."""


def version() -> str:
    """The console's version as installed (the package metadata), or ``0+unknown``."""
    try:
        return _dist_version("dealer-console")
    except PackageNotFoundError:
        return "0+unknown"


def manifest_path() -> Path:
    return PROGRAM_DIR / MANIFEST_NAME


def manifest_digest() -> str | None:
    """The installed manifest's SHA-256 (hex), or None for a development copy."""
    try:
        return hashlib.sha256(manifest_path().read_bytes()).hexdigest()
    except FileNotFoundError:
        return None

"""Which program this is: its version and the digest of its installed files' manifest.

A minimal stand-in with the interface the self-test's module keeps (``version()``,
``manifest_digest()``): a development copy has no manifest."""

from __future__ import annotations

from importlib import metadata


def version() -> str:
    try:
        return metadata.version("dealer-console")
    except metadata.PackageNotFoundError:
        return "unknown (not installed)"


def manifest_digest() -> str | None:
    """The digest of the installed files' manifest, or None for a development copy."""
    return None

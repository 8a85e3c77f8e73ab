"""Program integrity: every file the manifest lists has the SHA-256 written at build time,
and no program file was added beside them (a dropped-in module runs as surely as a changed
one)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from dealer_console.selftest.report import Report

PACKAGES = ("dealer_console", "drivers", "ui", "config")
"""The folders the manifest covers, inside the program folder."""
_CHECKED_SUFFIXES = (".py", ".toml", ".json", ".txt", ".ttf")


def read_manifest(path: Path) -> dict[str, str]:
    """``{relative path: sha256 hex}``; a malformed line is a ``ValueError`` naming it."""
    entries: dict[str, str] = {}
    for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        digest, sep, name = line.partition("  ")
        if not sep or len(digest) != 64 or not name:
            raise ValueError(f"{path.name} line {n}: expected '<sha256>  <path>'")
        entries[name] = digest.lower()
    return entries


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as src:
        for block in iter(lambda: src.read(1 << 16), b""):
            digest.update(block)
    return digest.hexdigest()


def check_program(report: Report, program_dir: Path, manifest: Path, *,
                  require_manifest: bool) -> None:
    """Add the ``program`` item: files changed, missing or added, else how many match."""
    if not manifest.is_file():
        if require_manifest:
            report.add("program", False, f"no manifest at {manifest}: this is not an "
                                         "installed copy; reinstall the package")
        else:
            report.notes.append("development copy: no file manifest, program integrity not "
                                "checked (an installed table PC always has one)")
        return
    manifest_hash = file_sha256(manifest)
    try:
        entries = read_manifest(manifest)
    except (ValueError, UnicodeDecodeError) as exc:
        report.add("program", False, f"the manifest is damaged ({exc}); reinstall the package")
        return
    changed: list[str] = []
    missing: list[str] = []
    for name, expected in sorted(entries.items()):
        path = program_dir / name
        if not path.is_file():
            missing.append(name)
        elif file_sha256(path) != expected:
            changed.append(name)
    added = sorted(
        str(p.relative_to(program_dir)) for package in PACKAGES
        for p in (program_dir / package).rglob("*")
        if p.is_file() and p.suffix in _CHECKED_SUFFIXES and "__pycache__" not in p.parts
        and str(p.relative_to(program_dir)) not in entries)
    problems = ([f"changed: {', '.join(changed)}"] if changed else []) + (
        [f"missing: {', '.join(missing)}"] if missing else []) + (
        [f"not in the manifest: {', '.join(added)}"] if added else [])
    if problems:
        report.add("program", False, f"{'; '.join(problems)} (manifest sha256 {manifest_hash})")
    else:
        report.add("program", True, f"{len(entries)} files match the manifest, "
                                    f"manifest sha256 {manifest_hash}")

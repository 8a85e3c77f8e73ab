"""Program integrity: every file of the installed release (the whole environment: the
console, every dependency, ``.pth`` files, compiled modules, bytecode, the launcher and the
kiosk script) and the unit systemd runs has the SHA-256 the manifest gives it, written when
the package was built (``installers/linux/make_manifest.py``), and nothing was added: a
dropped-in ``.pth`` file or a poisoned ``.pyc`` runs as surely as a changed module.

Bytecode is verified rather than avoided: the build compiles every module (hash-checked
``.pyc``) and lists each; the launcher never writes any (``-B``), and the release folder is
root's, so a ``.pyc`` the manifest does not list is a tamper and named as one."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path

from dealer_console.selftest.report import Report

_SHOWN = 5
"""How many names a failure lists of each kind (then how many more)."""


@dataclass(frozen=True, slots=True)
class Manifest:
    header: dict[str, str] = field(default_factory=dict)
    entries: dict[str, str] = field(default_factory=dict)


def read_manifest(path: Path) -> Manifest:
    """The header (``# key value``) and ``{path: sha256 hex}``; a malformed line is a
    ``ValueError`` naming it."""
    header: dict[str, str] = {}
    entries: dict[str, str] = {}
    for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
        if not line.strip():
            continue
        if line.startswith("#"):
            key, _, value = line[1:].strip().partition(" ")
            header[key] = value
            continue
        digest, sep, name = line.partition("  ")
        if not sep or len(digest) != 64 or not name:
            raise ValueError(f"{path.name} line {n}: expected '<sha256>  <path>'")
        entries[name] = digest.lower()
    return Manifest(header, entries)


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as src:
        for block in iter(lambda: src.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def entry_digest(path: Path) -> str:
    """As the build wrote it: a file's SHA-256, a link's of ``symlink:<target>``."""
    if path.is_symlink():
        return hashlib.sha256(b"symlink:" + os.readlink(path).encode()).hexdigest()
    return file_sha256(path)


def release_files(release_dir: Path, skip: Path) -> tuple[dict[str, Path], list[str]]:
    """Every file and link in the release folder, by its path relative to it; and the
    folders that could not be listed. An outside review added a package in a folder of mode
    0711: Python imports from it (it finds a file by its name), but a walk as the service user
    passed it by without a word, and its files were never "not in the manifest"."""
    found: dict[str, Path] = {}
    unread: list[str] = []

    def unreadable(exc: OSError) -> None:
        where = Path(exc.filename) if exc.filename else release_dir
        unread.append(where.relative_to(release_dir).as_posix()
                      if where.is_relative_to(release_dir) else str(where))

    for folder, dirs, files in os.walk(release_dir, onerror=unreadable):
        here = Path(folder)
        for name in files + [d for d in dirs if (here / d).is_symlink()]:
            path = here / name
            if path != skip:
                found[path.relative_to(release_dir).as_posix()] = path
    return found, unread


def release_dir_of(program_dir: Path) -> Path:
    """The release folder holding ``program_dir`` (its ``lib/python3.X/site-packages``), or
    the folder itself when it is not that deep (a development copy)."""
    parents = program_dir.parents
    return parents[2] if len(parents) > 2 else program_dir


def system_root_of(release_dir: Path) -> Path | None:
    """The root the release is installed under (``/`` on a table PC, a folder for an image
    or a test), from its place at ``<root>/opt/dealer-console/releases/<version>``."""
    parts = release_dir.parts
    if len(parts) >= 4 and parts[-4:-1] == ("opt", "dealer-console", "releases"):
        return release_dir.parents[3]
    return None


def _listed(kind: str, names: list[str]) -> str:
    more = f" and {len(names) - _SHOWN} more" if len(names) > _SHOWN else ""
    return f"{kind}: {', '.join(names[:_SHOWN])}{more}"


def check_program(report: Report, program_dir: Path, manifest: Path, *,
                  require_manifest: bool) -> Manifest | None:
    """Add the ``program`` item: files changed, missing or added, else how many match and
    which release (version, build, lock) the manifest's digest names."""
    if not manifest.is_file():
        if require_manifest:
            report.add("program", False, f"no manifest at {manifest}: this is not an "
                                         "installed copy; reinstall the package")
        else:
            report.notes.append("development copy: no file manifest, program integrity not "
                                "checked (an installed table PC always has one)")
        return None
    manifest_hash = file_sha256(manifest)
    try:
        read = read_manifest(manifest)
    except (ValueError, UnicodeDecodeError) as exc:
        report.add("program", False, f"the manifest is damaged ({exc}); reinstall the package")
        return None
    if read.header.get("dealer-console") != "manifest 2":
        _check_bundle(report, program_dir, read, manifest_hash)  # the Windows bundle's
        return read
    release_dir = release_dir_of(program_dir)
    root = system_root_of(release_dir)
    if root is None:
        report.add("program", False, f"{manifest} is not a release manifest for this place "
                                     f"({release_dir}); reinstall the package")
        return None
    on_disk, unread = release_files(release_dir, manifest)
    changed: list[str] = []
    missing: list[str] = []
    for name, expected in sorted(read.entries.items()):
        if name.startswith("/"):
            path = root / name.lstrip("/")
        else:
            path = release_dir / name
            on_disk.pop(name, None)
        if not (path.is_file() or path.is_symlink()):
            missing.append(name)
        elif entry_digest(path) != expected:
            changed.append(name)
    added = sorted(on_disk)
    problems = [_listed(kind, names) for kind, names in
                (("changed", changed), ("missing", missing), ("not in the manifest", added),
                 ("folders it cannot list (they may hide added files)", unread))
                if names]
    what = (f"release {read.header.get('version', '?')} build {read.header.get('build', '?')}"
            f", lock sha256 {read.header.get('lock-sha256', '?')[:12]}")
    if problems:
        report.add("program", False, f"{'; '.join(problems)} (in {release_dir}; manifest "
                                     f"sha256 {manifest_hash})")
    else:
        report.add("program", True, f"{len(read.entries)} files match the manifest ({what}), "
                                    f"manifest sha256 {manifest_hash}")
    return read


BUNDLE_PACKAGES = ("dealer_console", "dealer_link", "drivers", "ui", "config")
"""The folders a Windows bundle's manifest covers (no header: the console's own files only)."""
_BUNDLE_SUFFIXES = (".py", ".toml", ".json", ".txt", ".ttf")


def _check_bundle(report: Report, program_dir: Path, read: Manifest, manifest_hash: str
                  ) -> None:
    """The Windows bundle's manifest (``make_manifest.py --wheel``): the console's own
    files, relative to the bundle's program folder, and no module added among them."""
    changed = [n for n, digest in sorted(read.entries.items())
               if (program_dir / n).is_file() and file_sha256(program_dir / n) != digest]
    missing = [n for n in sorted(read.entries) if not (program_dir / n).is_file()]
    added = sorted(
        str(p.relative_to(program_dir).as_posix()) for package in BUNDLE_PACKAGES
        for p in (program_dir / package).rglob("*")
        if p.is_file() and p.suffix in _BUNDLE_SUFFIXES and "__pycache__" not in p.parts
        and p.relative_to(program_dir).as_posix() not in read.entries)
    problems = [_listed(kind, names) for kind, names in
                (("changed", changed), ("missing", missing), ("not in the manifest", added))
                if names]
    if problems:
        report.add("program", False, f"{'; '.join(problems)} (manifest sha256 {manifest_hash})")
    else:
        report.add("program", True, f"{len(read.entries)} files match the manifest, "
                                    f"manifest sha256 {manifest_hash}")

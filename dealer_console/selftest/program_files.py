"""The release's files held to its manifest, with the standard library only.

Why only the standard library: the installed launcher runs this module before it puts the
release's packages on ``sys.path`` (``installers/linux/build.sh``), so that no module of the
release, nor of a dependency, runs before its file is known to be the built one. An outside
review dropped a ``sqlite_dump.py`` into site-packages (sqlite-utils imports it if it is
there): it ran before the self-test and could hide itself. The launcher loads this file only
when its SHA-256 is the one the build wrote into the launcher, and keeps the result in
:data:`AT_LAUNCH`; the self-test's ``program`` item (:mod:`.integrity`) then uses that result
instead of reading every file twice.

A test (``tests/selftest/test_program_files.py``) holds this module to the standard library.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path

MANIFEST_NAME = "dealer-console.manifest"
"""The manifest's file name, beside the installed packages (the environment's site-packages)."""

FORMAT = "manifest 2"
"""A release manifest's ``# dealer-console`` header line says this (the Windows bundle's older
manifest has no header)."""

SHOWN = 5
"""How many names a failure lists of each kind (then how many more)."""


@dataclass(frozen=True, slots=True)
class Manifest:
    header: dict[str, str] = field(default_factory=dict)
    entries: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ProgramCheck:
    """What the release's files are against the manifest: nothing wrong when every list is
    empty and ``refused`` is empty too."""

    release_dir: Path
    manifest: Path
    manifest_sha256: str = ""
    read: Manifest | None = None
    refused: str = ""
    """Why the files could not be held to the manifest at all (none, damaged, misplaced)."""
    changed: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    added: tuple[str, ...] = ()
    unread: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not (self.refused or self.changed or self.missing or self.added or self.unread)

    def problem(self) -> str:
        """The failure in a technician's words, or ``""``."""
        if self.refused:
            return self.refused
        problems = [listed(kind, names) for kind, names in
                    (("changed", self.changed), ("missing", self.missing),
                     ("not in the manifest", self.added),
                     ("folders it cannot list (they may hide added files)", self.unread))
                    if names]
        if not problems:
            return ""
        return (f"{'; '.join(problems)} (in {self.release_dir}; manifest sha256 "
                f"{self.manifest_sha256})")

    def passed(self) -> str:
        """The passing line: how many files match, and which release the manifest names."""
        assert self.read is not None
        header = self.read.header
        return (f"{len(self.read.entries)} files match the manifest (release "
                f"{header.get('version', '?')} build {header.get('build', '?')}, lock sha256 "
                f"{header.get('lock-sha256', '?')[:12]}), manifest sha256 "
                f"{self.manifest_sha256}")


AT_LAUNCH: ProgramCheck | None = None
"""The launcher's check of this release, made before any of its packages was imported
(None when the program was not started by the installed launcher, or by a command that does
not check: only ``gui`` and ``self-test`` do)."""


def listed(kind: str, names: list[str] | tuple[str, ...]) -> str:
    more = f" and {len(names) - SHOWN} more" if len(names) > SHOWN else ""
    return f"{kind}: {', '.join(shown(n) for n in names[:SHOWN])}{more}"


def shown(name: str) -> str:
    """A file's name as text that can be printed and logged: bytes that are not UTF-8 (a
    name made to break the refusal, an outside review found) as ``\\xff`` escapes."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


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


def _digest_or_none(path: Path) -> str | None:
    """The entry's digest, or None when it is not there (or cannot be read)."""
    if not (path.is_file() or path.is_symlink()):
        return None
    try:
        return entry_digest(path)
    except OSError:
        return "unreadable"


def check_release(release_dir: Path, manifest: Path, read: Manifest | None = None
                  ) -> ProgramCheck:
    """Every entry of ``manifest`` (a release manifest, :data:`FORMAT`) against the files,
    and every file of the release folder against the entries. ``read``: the manifest as the
    caller has read it already (it is not parsed twice)."""
    refused = ProgramCheck(release_dir, manifest)
    if not manifest.is_file():
        return _refused(refused, f"no manifest at {manifest}: this is not an installed copy; "
                                 "reinstall the package")
    manifest_sha256 = file_sha256(manifest)
    if read is None:
        try:
            read = read_manifest(manifest)
        except (ValueError, UnicodeDecodeError) as exc:
            return _refused(refused, f"the manifest is damaged ({exc}); reinstall the "
                                     "package")
    root = system_root_of(release_dir)
    if read.header.get("dealer-console") != FORMAT or root is None:
        return _refused(refused, f"{manifest} is not a release manifest for this place "
                                 f"({release_dir}); reinstall the package")
    on_disk, unread = release_files(release_dir, manifest)
    names = sorted(read.entries)
    paths = []
    for name in names:
        if name.startswith("/"):
            paths.append(root / name.lstrip("/"))
        else:
            paths.append(release_dir / name)
            on_disk.pop(name, None)
    found = [_digest_or_none(path) for path in paths]
    missing = tuple(n for n, digest in zip(names, found, strict=True) if digest is None)
    changed = tuple(n for n, digest in zip(names, found, strict=True)
                    if digest is not None and digest != read.entries[n])
    return ProgramCheck(release_dir, manifest, manifest_sha256, read, "", changed, missing,
                        tuple(sorted(on_disk)), tuple(unread))


def _refused(check: ProgramCheck, why: str) -> ProgramCheck:
    return ProgramCheck(check.release_dir, check.manifest, refused=why)


def at_launch(site: Path) -> ProgramCheck:
    """The launcher's step, before ``site`` (the release's site-packages) is on the path:
    the release's files checked, and the result kept for the self-test."""
    global AT_LAUNCH
    AT_LAUNCH = check_release(release_dir_of(site), site / MANIFEST_NAME)
    return AT_LAUNCH

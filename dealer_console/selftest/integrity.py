"""Program integrity: every file of the installed release (the whole environment: the
console, every dependency, ``.pth`` files, compiled modules, bytecode, the launcher and the
kiosk script) and the unit systemd runs has the SHA-256 the manifest gives it, written when
the package was built (``installers/linux/make_manifest.py``), and nothing was added: a
dropped-in ``.pth`` file or a poisoned ``.pyc`` runs as surely as a changed module.

Bytecode is verified rather than avoided: the build compiles every module (hash-checked
``.pyc``) and lists each; the launcher never writes any (``-B``), and the release folder is
root's, so a ``.pyc`` the manifest does not list is a tamper and named as one."""

from __future__ import annotations

from pathlib import Path

from dealer_console.selftest import program_files
from dealer_console.selftest.program_files import (
    FORMAT,
    Manifest,
    ProgramCheck,
    check_release,
    file_sha256,
    listed,
    read_manifest,
    release_dir_of,
)
from dealer_console.selftest.report import Report


def check_program(report: Report, program_dir: Path, manifest: Path, *,
                  require_manifest: bool) -> Manifest | None:
    """Add the ``program`` item: files changed, missing or added, else how many match and
    which release (version, build, lock) the manifest's digest names. The launcher's own
    check of the same release (:data:`.program_files.AT_LAUNCH`) is used when there is one,
    without reading the manifest or any file again (the table's start waits on this)."""
    release_dir = release_dir_of(program_dir)
    check = program_files.AT_LAUNCH
    if check is not None and (check.release_dir, check.manifest) == (release_dir, manifest):
        return _add(report, check)
    if not manifest.is_file() and not require_manifest:
        report.notes.append("development copy: no file manifest, program integrity not "
                            "checked (an installed table PC always has one)")
        return None
    read = None
    if manifest.is_file():
        try:
            read = read_manifest(manifest)
        except (ValueError, UnicodeDecodeError) as exc:
            report.add("program", False,
                       f"the manifest is damaged ({exc}); reinstall the package")
            return None
        if read.header.get("dealer-console") != FORMAT:
            _check_bundle(report, program_dir, read, file_sha256(manifest))  # Windows'
            return read
    return _add(report, check_release(release_dir, manifest, read))


def _add(report: Report, check: ProgramCheck) -> Manifest | None:
    if check.ok:
        report.add("program", True, check.passed())
    else:
        report.add("program", False, check.problem())
    return check.read


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
    problems = [listed(kind, names) for kind, names in
                (("changed", changed), ("missing", missing), ("not in the manifest", added))
                if names]
    if problems:
        report.add("program", False, f"{'; '.join(problems)} (manifest sha256 {manifest_hash})")
    else:
        report.add("program", True, f"{len(read.entries)} files match the manifest, "
                                    f"manifest sha256 {manifest_hash}")

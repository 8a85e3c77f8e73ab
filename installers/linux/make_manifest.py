"""Write the release's manifest at build time: what the release is (version, build, the
SHA-256 of the locked dependency set) and the SHA-256 of every file that runs or configures
the console: the whole environment (the console's packages, every dependency's files, ``.pth``
files, compiled modules and bytecode, the launcher, the kiosk script, the reference copies of
the system files) and the unit the package installs. ``dealer-console self-test`` holds the
installed table PC to it; the manifest's own SHA-256 is the release's digest a technician
compares with the approved one (docs/install.md).

Lines: ``# key value`` for the header, then ``<sha256>  <path>``: a path relative to the
release folder, or an absolute path for a file outside it. A symbolic link's digest is of
``symlink:`` and its target (a link swapped for another interpreter is a change).

Usage: python make_manifest.py --stage DIR --release /opt/dealer-console/releases/V
       --version V --build ID --lock requirements.lock --out FILE
The Windows bundle (installers/windows/build.ps1), whose environment PyInstaller makes, has
the earlier, narrower manifest: the console's own files from its wheel and the paytables,
``make_manifest.py --wheel WHEEL --config CONFIG_DIR --out FILE`` (no header).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import zipfile
from pathlib import Path

FORMAT = "dealer-console manifest 2"
SYSTEM_FILES = ("/usr/lib/systemd/system/dealer-console.service", "/opt/dealer-console/current")
"""Outside the release folder: the unit systemd runs, and the link that says which release."""


def entry_digest(path: Path) -> str:
    """A file's SHA-256, or for a link the SHA-256 of ``symlink:<target>``."""
    if path.is_symlink():
        return hashlib.sha256(b"symlink:" + os.readlink(path).encode()).hexdigest()
    digest = hashlib.sha256()
    with open(path, "rb") as src:
        for block in iter(lambda: src.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def release_entries(release_dir: Path, skip: Path | None = None) -> dict[str, Path]:
    """``{path relative to the release: path}`` of every file and link in the release."""
    found: dict[str, Path] = {}
    for folder, dirs, files in os.walk(release_dir):
        here = Path(folder)
        for name in files + [d for d in dirs if (here / d).is_symlink()]:
            path = here / name
            if skip is not None and path == skip:
                continue
            found[path.relative_to(release_dir).as_posix()] = path
    return found


def manifest_text(stage: Path, release: str, header: dict[str, str], out: Path) -> str:
    release_dir = stage / release.lstrip("/")
    lines = [f"# {FORMAT}\n"] + [f"# {k} {v}\n" for k, v in header.items()]
    entries = {rel: entry_digest(p) for rel, p in release_entries(release_dir, out).items()}
    for absolute in SYSTEM_FILES:
        entries[absolute] = entry_digest(stage / absolute.lstrip("/"))
    lines += [f"{digest}  {name}\n" for name, digest in sorted(entries.items())]
    return "".join(lines)


def bundle_entries(wheel: Path, config_dir: Path) -> list[tuple[str, str]]:
    """The Windows bundle's: the wheel's packages and the shipped profiles and paytables."""
    out: list[tuple[str, str]] = []
    with zipfile.ZipFile(wheel) as archive:
        for name in archive.namelist():
            if name.startswith(("dealer_console/", "dealer_link/", "drivers/", "ui/")) \
                    and not name.endswith("/"):
                out.append((name, hashlib.sha256(archive.read(name)).hexdigest()))
    for path in sorted(config_dir.rglob("*.toml")):
        rel = "config/" + path.relative_to(config_dir).as_posix()
        out.append((rel, hashlib.sha256(path.read_bytes()).hexdigest()))
    return sorted(out)


def main(argv: list[str]) -> int:
    if argv[:1] == ["--wheel"]:
        bundle = argparse.ArgumentParser(prog="make_manifest.py --wheel")
        for option in ("--wheel", "--config", "--out"):
            bundle.add_argument(option, required=True)
        given = bundle.parse_args(argv)
        lines = [f"{d}  {n}\n" for n, d in bundle_entries(Path(given.wheel), Path(given.config))]
        Path(given.out).write_text("".join(lines), encoding="utf-8")
        print(f"{given.out}: {len(lines)} files")
        return 0
    parser = argparse.ArgumentParser(prog="make_manifest.py")
    for option in ("--stage", "--release", "--version", "--build", "--lock", "--out"):
        parser.add_argument(option, required=True)
    args = parser.parse_args(argv)
    lock = Path(args.lock)
    header = {"version": args.version, "build": args.build, "release": args.release,
              "lock-sha256": hashlib.sha256(lock.read_bytes()).hexdigest()}
    out = Path(args.out)
    text = manifest_text(Path(args.stage), args.release, header, out)
    out.write_text(text, encoding="utf-8")
    files = sum(1 for line in text.splitlines() if not line.startswith("#"))
    print(f"{out.name}: {files} files, sha256 {hashlib.sha256(text.encode()).hexdigest()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

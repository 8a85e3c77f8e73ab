"""Write the console's file manifest at build time: the SHA-256 of every program file the
wheel installs (its packages) and of the shipped profiles and paytables, one line each as
``<sha256>  <path relative to site-packages>``. ``dealer-console self-test`` holds the
installed files to it and prints the manifest's own SHA-256 for comparison with the approved
one (docs/install.md).

Usage: python make_manifest.py WHEEL CONFIG_DIR OUT
"""

from __future__ import annotations

import hashlib
import sys
import zipfile
from pathlib import Path

PACKAGES = ("dealer_console/", "drivers/", "ui/")


def entries(wheel: Path, config_dir: Path) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    with zipfile.ZipFile(wheel) as archive:
        for name in archive.namelist():
            if name.startswith(PACKAGES) and not name.endswith("/"):
                out.append((name, hashlib.sha256(archive.read(name)).hexdigest()))
    for path in sorted(config_dir.rglob("*.toml")):
        rel = "config/" + path.relative_to(config_dir).as_posix()
        out.append((rel, hashlib.sha256(path.read_bytes()).hexdigest()))
    return sorted(out)


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print("usage: make_manifest.py WHEEL CONFIG_DIR OUT", file=sys.stderr)
        return 2
    wheel, config_dir, out = Path(argv[0]), Path(argv[1]), Path(argv[2])
    lines = [f"{digest}  {name}\n" for name, digest in entries(wheel, config_dir)]
    out.write_text("".join(lines), encoding="utf-8")
    print(f"{out}: {len(lines)} files, sha256 {hashlib.sha256(out.read_bytes()).hexdigest()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Write ``requirements.lock``: every package the console runs on (its dependencies and
theirs), pinned to one version with the SHA-256 of the wheel for the table PC (CPython 3.11,
x86-64 Linux), in pip's ``--require-hashes`` format. The release is built from exactly this
file (``build.sh``); run this only to move to new versions, then run the tests.

It asks pip's own resolver (``pip install --dry-run --report``, wheels only) what the
project's requirements resolve to now, and writes pip's answer: the versions and hashes of
the wheels pip chose.

Usage: python make_lock.py PROJECT_WHEEL OUT
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HEADER = """\
# The console's locked dependency set: the release environment is built from exactly these
# wheels (pip --require-hashes), for CPython 3.11 on x86-64 Linux. Written by
# installers/linux/make_lock.py from pip's resolver; edit pyproject.toml, not this file.
"""


def resolve(wheel: Path) -> list[tuple[str, str, str]]:
    """``(name, version, sha256)`` of every dependency pip resolves ``wheel`` to."""
    with tempfile.TemporaryDirectory() as work:
        report = Path(work) / "report.json"
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--dry-run",
                        "--ignore-installed", "--only-binary=:all:", "--report", str(report),
                        str(wheel)], check=True)
        chosen = json.loads(report.read_text("utf-8"))["install"]
    out = []
    for item in chosen:
        name = re.sub(r"[-_.]+", "-", item["metadata"]["name"]).lower()
        if name == "dealer-console":
            continue
        digest = item["download_info"]["archive_info"]["hashes"]["sha256"]
        out.append((name, item["metadata"]["version"], digest))
    return sorted(out)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: make_lock.py PROJECT_WHEEL OUT", file=sys.stderr)
        return 2
    pins = resolve(Path(argv[0]))
    lines = [f"{name}=={version} \\\n    --hash=sha256:{digest}\n"
             for name, version, digest in pins]
    Path(argv[1]).write_text(HEADER + "".join(lines), encoding="utf-8")
    print(f"{argv[1]}: {len(pins)} packages locked")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""How long the power-on self-test's ``program`` item takes: every file of a release held to
the manifest (SHA-256 of each, and a walk for added files), on a release of the installed
size (about 9,300 files and 400 MB for 0.1.0) made of random files in a temporary folder.

    .venv/bin/python benchmarks/selftest_program.py [--files 9300] [--megabytes 400] [--quick]

The figures are with the files in the page cache (they were just written): a cold start on
the table PC reads them from its disk first, which the disk's speed bounds.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from dealer_console.selftest.integrity import check_program
from dealer_console.selftest.program_files import entry_digest, release_files
from dealer_console.selftest.report import Report


def make_release(root: Path, files: int, megabytes: int) -> tuple[Path, Path]:
    release = root / "opt/dealer-console/releases/9.9.9"
    site = release / "lib/python3.11/site-packages"
    size = max(1, megabytes * 1024 * 1024 // files)
    for n in range(files):
        path = site / f"pkg{n % 97}" / f"module_{n}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(os.urandom(size))
    manifest = site / "dealer-console.manifest"
    files, _unread = release_files(release, manifest)
    entries = {rel: entry_digest(p) for rel, p in files.items()}
    manifest.write_text("# dealer-console manifest 2\n# version 9.9.9\n" + "".join(
        f"{digest}  {name}\n" for name, digest in sorted(entries.items())))
    return site, manifest


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=9300)
    parser.add_argument("--megabytes", type=int, default=400)
    parser.add_argument("--quick", action="store_true", help="500 files, 20 MB")
    args = parser.parse_args()
    files, megabytes = (500, 20) if args.quick else (args.files, args.megabytes)
    with tempfile.TemporaryDirectory() as folder:
        site, manifest = make_release(Path(folder), files, megabytes)
        best = float("inf")
        for _run in range(3):
            report = Report()
            started = time.perf_counter()
            check_program(report, site, manifest, require_manifest=True)
            best = min(best, time.perf_counter() - started)
            assert report.ok, report.lines()
    print(f"self-test program item, {files} files, {megabytes} MB (page cache warm), best of 3:")
    print(f"  {best:8.3f} s   {files / best:10,.0f} files/s   {megabytes / best:8.1f} MB/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

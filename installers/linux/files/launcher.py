#!@RELEASE@/bin/python -BIS
"""The Dealer Console's launcher: build.sh writes it into each release as bin/dealer-console,
with the release's path and the digests below filled in.

The interpreter's flags: -I (no PYTHON* variables, no user site), -S (no .pth file runs; the
release's packages are added below), -B (no bytecode written).

For ``gui`` and ``self-test`` every file of the release is first held to its manifest, before
the release's packages are on the path: no module of the release or of a dependency runs
unless it is the file that was built (an outside review's ``sqlite_dump.py`` dropped into
site-packages ran before the self-test and could hide itself). The check is
dealer_console/selftest/program_files.py, standard library only, run only when its SHA-256 is
the one written here. When the check fails, nothing of the release is imported: ``gui`` ends
with status 2 and the reason (the kiosk script shows it), also written to the self-test log;
``self-test`` prints the failed item. Bytecode is then read only from the release's own
bytecode/ folder (in the manifest), never from a __pycache__.
"""

from __future__ import annotations

import hashlib
import os
import sys
import types

TRUSTED = {
    "dealer_console.selftest.program_files": "@PROGRAM_FILES_SHA256@",
    "dealer_console.storage.log_files": "@LOG_FILES_SHA256@",
}
"""The standard-library-only modules the launcher runs before the check has passed."""

release = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
site = os.path.join(release, "lib", "python3.11", "site-packages")


def load(name: str) -> tuple[types.ModuleType | None, str]:
    """The module ``name`` from its file in the release, if its digest is the built one."""
    path = os.path.join(site, *name.split(".")) + ".py"
    try:
        with open(path, "rb") as source:
            code = source.read()
    except OSError as exc:
        return None, f"{path}: cannot be read ({exc.strerror}); reinstall the package"
    if hashlib.sha256(code).hexdigest() != TRUSTED[name]:
        return None, (f"changed: {os.path.relpath(path, release)} (the file check itself); "
                      "reinstall the package")
    module = types.ModuleType(name)
    module.__file__ = path
    module.__package__ = name.rpartition(".")[0]
    sys.modules[name] = module
    exec(compile(code, path, "exec"), module.__dict__)
    return module, ""


def program_problem(command: str) -> str:
    """Why the release's files are not the built ones, or ``""``. When they are, the
    manifest's SHA-256 is said here, before any code of the release runs (on the self-test's
    first line; for ``gui`` to the journal): a module changed together with its line in the
    manifest passes the check, and then whatever the release prints could be its words, but
    this line is not (the digest to hold to the approved one)."""
    from pathlib import Path

    module, problem = load("dealer_console.selftest.program_files")
    if module is None:
        return problem
    check = module.at_launch(Path(site))
    if check.ok:
        said = (f"manifest sha256 {check.manifest_sha256}: every file matches it, checked by "
                "the launcher before any of the release's code ran")
        if command == "self-test":
            print(f"NOTE  {said}", flush=True)
        else:
            print(f"dealer-console {command}: {said}", file=sys.stderr, flush=True)
    return str(check.problem())


def log_path(command: str) -> str | None:
    """Where the result goes: the unit's self-test log for ``gui``, ``--log`` for
    ``self-test``."""
    if command == "gui":
        return os.environ.get("DEALER_CONSOLE_SELFTEST_LOG") or None
    args = sys.argv[2:]
    for n, arg in enumerate(args):
        if arg == "--log" and n + 1 < len(args):
            return args[n + 1]
        if arg.startswith("--log="):
            return arg[len("--log="):]
    return None


def refuse(command: str, problem: str) -> None:
    lines = [f"FAIL  program: {problem}",
             "NOTE  no other item was run: the program's files must match the manifest first",
             "SELF-TEST FAILED (1 of 1 items)"]
    log = log_path(command)
    if log:
        from datetime import UTC, datetime

        stamp = datetime.now(UTC).isoformat(timespec="seconds")  # the log's form
        module, why = load("dealer_console.storage.log_files")
        try:
            if module is None:
                raise OSError(why)
            module.append_line(log, "".join(f"{stamp} {line}\n" for line in lines))
        except (OSError, ValueError) as exc:
            print(f"dealer-console {command}: {log}: the self-test log was not written: {exc}",
                  file=sys.stderr)
    if command == "self-test":
        print("\n".join(lines))
        sys.exit(1)
    print(f"dealer-console gui: self-test failed, table not opened: program: {problem}",
          file=sys.stderr)
    sys.exit(2)


command = sys.argv[1] if len(sys.argv) > 1 else ""
if command in ("gui", "self-test"):
    problem = program_problem(command)
    if problem:
        refuse(command, problem)
sys.pycache_prefix = os.path.join(release, "bytecode")
sys.path.append(site)
from dealer_console.cli import main  # noqa: E402

sys.exit(main())

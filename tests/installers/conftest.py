"""One installed table PC for the installer tests: the .deb built by build-deb.sh (the whole
release environment from requirements.lock) and installed by dpkg itself into a throwaway
root (``dpkg --root --force-script-chrootless``: dpkg's database, conffiles and maintainer
scripts run for real, the postinst told the root through ``DPKG_ROOT``).

The root's dependencies (sway, Qt's system libraries, Python 3.11) are this machine's, so
dpkg is told not to look for them in the empty root (``--force-depends``). A program of the
installed release is run as the kernel would run its launcher: the release's interpreter
with the launcher's own first-line flags (that line names ``/opt/...``, which is inside the
root here).

The package is built once for the whole run, whichever workers run its tests (``deb``): the
first worker to ask builds it under a lock in the run's shared temporary folder, the others
wait for it, so its tests need not wait in line on one worker."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LINUX = REPO / "installers" / "linux"
VERSION = "0.1.0"


@dataclass(frozen=True)
class Installed:
    deb: Path
    root: Path
    install_log: str

    @property
    def release(self) -> Path:
        return self.root / "opt/dealer-console/releases" / VERSION

    @property
    def console(self) -> Path:
        return self.root / "opt/dealer-console/current/bin/dealer-console"

    @property
    def site(self) -> Path:
        return self.release / "lib/python3.11/site-packages"

    @property
    def db(self) -> Path:
        return self.root / "var/lib/dealer-console/table.db"

    def run(self, *args: str, env: dict[str, str] | None = None
            ) -> subprocess.CompletedProcess[str]:
        """A command of the installed console, started as its launcher's first line says."""
        environ = {k: v for k, v in os.environ.items() if not k.startswith("DEALER_CONSOLE")}
        environ.update(env or {})
        return subprocess.run([*launch(self.console, self.root), *args], capture_output=True,
                              text=True, timeout=120, env=environ, cwd=self.root)

    def self_test(self, *args: str) -> subprocess.CompletedProcess[str]:
        return self.run("self-test", "--profile", "washington-face-up", "--db", str(self.db),
                        "--require-manifest", *args)


def launch(script: Path, root: Path) -> list[str]:
    """What the kernel runs for ``script`` installed under ``root``: its first line's
    interpreter (inside the root) and flags, then the script."""
    first = script.read_text().splitlines()[0]
    assert first.startswith("#!/"), first
    interpreter, *flags = first[2:].split(" ", 1)
    return [str(root / interpreter.lstrip("/")), *flags, str(script)]


BUILD = "installer-tests"
"""The build id the tests' packages carry (a build is named by it in its manifest)."""


def run_script(script: Path, *args: str) -> subprocess.CompletedProcess[str]:
    environ = dict(os.environ, PYTHON=sys.executable, DEALER_CONSOLE_BUILD=BUILD)
    done = subprocess.run(["bash", str(script), *args], capture_output=True, text=True,
                          timeout=900, env=environ)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


def dpkg(root: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """dpkg acting on the throwaway root (its own database there)."""
    done = subprocess.run(["dpkg", f"--root={root}", "--force-script-chrootless",
                           "--force-depends", "--force-confold", "--log=/dev/null", *args],
                          capture_output=True, text=True, timeout=600)
    if check:
        assert done.returncode == 0, done.stdout + done.stderr
    return done


def new_root(path: Path) -> Path:
    """An empty root with an empty dpkg database."""
    for folder in ("var/lib/dpkg/updates", "var/lib/dpkg/info"):
        (path / folder).mkdir(parents=True, exist_ok=True)
    (path / "var/lib/dpkg/status").touch()
    return path


@pytest.fixture(scope="session")
def deb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("dpkg-deb") is None or not Path("/usr/bin/python3.11").exists():
        pytest.skip("building the package needs dpkg-deb and /usr/bin/python3.11")
    run = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        run = run.parent  # the workers' folders are in one folder of this run
    out = run / "deb"
    with (run / "deb.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not out.is_dir():
            # built beside, moved in whole: a build that failed leaves nothing to reuse
            building = Path(tempfile.mkdtemp(prefix="deb-", dir=run))
            run_script(LINUX / "build-deb.sh", "--out", str(building), "--quick")
            building.rename(out)
    return next(out.glob("*.deb"))


@pytest.fixture(scope="session")
def installed(deb: Path, tmp_path_factory: pytest.TempPathFactory) -> Installed:
    root = new_root(tmp_path_factory.mktemp("table-pc"))
    done = dpkg(root, "-i", str(deb))
    return Installed(deb, root, done.stdout)

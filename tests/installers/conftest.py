"""One installed table PC for the installer tests: the .deb built by build-deb.sh, unpacked
into a throwaway root with dpkg-deb, and its own install.sh (what the package's postinst
runs) run there with ``--root``.

A fresh virtual environment with PySide6 in every run would take minutes, so the release's
environment reuses this test run's installed dependencies (``--reuse-deps``): the console's
own wheel, configuration, manifest and every script are installed for real.
``installers/linux/ci-full-install.sh`` is the slow step that builds the whole environment."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LINUX = REPO / "installers" / "linux"


@dataclass(frozen=True)
class Installed:
    deb: Path
    root: Path
    install_log: str

    @property
    def console(self) -> Path:
        return self.root / "opt/dealer-console/current/bin/dealer-console"

    @property
    def site(self) -> Path:
        return next((self.root / "opt/dealer-console/current/lib").glob("python3*/site-packages"))

    @property
    def db(self) -> Path:
        return self.root / "var/lib/dealer-console/table.db"

    def run(self, *args: str, env: dict[str, str] | None = None
            ) -> subprocess.CompletedProcess[str]:
        """A command of the installed console (its own launcher, its own site-packages)."""
        environ = {k: v for k, v in os.environ.items() if not k.startswith("DEALER_CONSOLE")}
        environ["PYTHONDONTWRITEBYTECODE"] = "1"
        environ.update(env or {})
        return subprocess.run([str(self.console), *args], capture_output=True, text=True,
                              timeout=120, env=environ, cwd=self.root)

    def self_test(self, *args: str) -> subprocess.CompletedProcess[str]:
        return self.run("self-test", "--profile", "washington-face-up", "--db", str(self.db),
                        "--require-manifest", *args)


def run_script(script: Path, *args: str) -> subprocess.CompletedProcess[str]:
    environ = dict(os.environ, PYTHON=sys.executable)
    done = subprocess.run(["bash", str(script), *args], capture_output=True, text=True,
                          timeout=600, env=environ)
    assert done.returncode == 0, done.stdout + done.stderr
    return done


@pytest.fixture(scope="session")
def deb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("deb")
    built = run_script(LINUX / "build-deb.sh", "--out", str(out))
    return Path(built.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="session")
def installed(deb: Path, tmp_path_factory: pytest.TempPathFactory) -> Installed:
    root = tmp_path_factory.mktemp("table-pc")
    subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True, timeout=120)
    done = run_script(root / "usr/share/dealer-console/install.sh", "--root", str(root),
                      "--reuse-deps", sys.prefix)
    return Installed(deb, root, done.stdout)

"""A real PostgreSQL server of the tests' own: ``initdb`` and ``pg_ctl`` in a temporary folder,
listening only on a Unix socket there (no TCP port, nothing shared with the machine's own)."""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path


def find_bin() -> Path | None:
    """The newest PostgreSQL's programs (Debian keeps them in /usr/lib/postgresql/N/bin)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
                   key=lambda p: int(Path(p).parent.parent.name))
    return Path(found[-1]).parent if found else None


class PgServer:
    """One server; ``dsn(db)`` addresses a database on it."""

    def __init__(self, bindir: Path, *, durable: bool = False) -> None:
        """``durable``: fsync as a real server does (the benchmark); the tests skip it."""
        self.bindir = bindir
        self.durable = durable
        self.root = Path(tempfile.mkdtemp(prefix="dc-link-pg-"))
        self.data = self.root / "data"
        self.user = "postgres"
        # PostgreSQL refuses to run as root: as root, run it as the postgres account
        self.run_as = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if os.geteuid() == 0:
            pw = pwd.getpwnam("postgres")
            os.chown(self.root, pw.pw_uid, pw.pw_gid)
        else:
            self.user = pwd.getpwuid(os.geteuid()).pw_name
        self._run("initdb", "-D", str(self.data), "-U", self.user, "--auth=trust",
                  "-E", "UTF8", "--no-sync")
        self.start()

    def _run(self, program: str, *args: str) -> None:
        subprocess.run([*self.run_as, str(self.bindir / program), *args], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120)

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "log"), "-w", "-o",
                  f"-c listen_addresses='' -c unix_socket_directories='{self.root}' "
                  f"-c fsync={'on' if self.durable else 'off'} -c max_connections=200",
                  "start")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def restart(self) -> None:
        self.stop()
        self.start()

    def dsn(self, dbname: str = "postgres", user: str | None = None) -> str:
        return f"host={self.root} port=5432 user={user or self.user} dbname={dbname}"

    def destroy(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)

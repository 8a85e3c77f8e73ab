"""A real PostgreSQL server of the tests' own: ``initdb`` and ``pg_ctl`` in a temporary folder,
listening only on a Unix socket there (no TCP port, nothing shared with the machine's own).

Every login authenticates with a password (``scram-sha-256`` in its ``pg_hba.conf``, as a card
room's server): a table's login is a real login. The superuser's password is in a libpq
password file of the server's (mode 0600), named in every address :meth:`PgServer.dsn` gives."""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import secrets
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
        self.passfile = self.root / "pgpass"
        password = secrets.token_urlsafe(24)
        pwfile = self.root / "pwfile"
        pwfile.write_text(password + "\n")
        if os.geteuid() == 0:
            os.chown(pwfile, pw.pw_uid, pw.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", self.user, "--auth=scram-sha-256",
                  f"--pwfile={pwfile}", "-E", "UTF8", "--no-sync")
        pwfile.unlink()
        self.add_password(self.user, password)
        self.start()

    def add_password(self, user: str, password: str) -> None:
        """Let the tests log in as ``user`` (the password file libpq reads, mode 0600)."""
        fd = os.open(self.passfile, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        with os.fdopen(fd, "a") as out:
            out.write(f"*:*:*:{user}:{password}\n")

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
        return (f"host={self.root} port=5432 user={user or self.user} dbname={dbname} "
                f"passfile={self.passfile}")

    def destroy(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self.stop("immediate")
        # The suite's server holds a database per test, tens of thousands of files: removing
        # them took the last worker about 5 s at the session's end. A process of its own
        # removes them (``setsid -f``: detached, so nothing waits for it or is left a zombie).
        os.waitpid(os.posix_spawnp("setsid", ["setsid", "-f", "rm", "-rf", "--",
                                              str(self.root)], os.environ), 0)

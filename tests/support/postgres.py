"""A throwaway PostgreSQL cluster (Debian's ``initdb`` / ``pg_ctl``; ``make postgres``).

It lives in a temporary directory, listens on a free loopback port and a unix socket
in that directory, and is stopped at the end.  PostgreSQL refuses to run as root: as
root the cluster runs as the ``postgres`` user the package creates.  Each test gets a
database of its own (:meth:`Cluster.new_database`).
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

RUN = {"check": True, "capture_output": True, "text": True, "timeout": 60}


class Unavailable(Exception):
    """PostgreSQL cannot run here; the message says why (the tests skip)."""


def pg_bin() -> Path | None:
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(candidates[-1]).parent if candidates else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Cluster:
    def __init__(self) -> None:
        self.binaries = pg_bin()
        if self.binaries is None:
            raise Unavailable("PostgreSQL is not installed (`make postgres` installs it)")
        self.user = None
        if os.geteuid() == 0:  # postgres will not run as root
            try:
                pwd.getpwnam("postgres")
            except KeyError:
                raise Unavailable("running as root and there is no `postgres` user") from None
            self.user = "postgres"
        # not under pytest's tmp dir: that is private to root, the postgres user cannot enter it
        self.directory = Path(tempfile.mkdtemp(prefix="knights-pg-"))
        if self.user:
            shutil.chown(self.directory, self.user)
        self.port = _free_port()
        self._names = itertools.count(1)
        data = self.directory / "data"
        self._run("initdb", "-D", str(data), "-U", "knights", "-A", "trust")
        options = f"-h 127.0.0.1 -p {self.port} -k {self.directory} -c fsync=off"
        self._run(
            "pg_ctl",
            "-D",
            str(data),
            "-l",
            str(self.directory / "log"),
            "-o",
            options,
            "-w",
            "start",
        )

    def _run(self, tool: str, *args: str) -> subprocess.CompletedProcess:
        command = [str(self.binaries / tool), *args]
        if self.user:
            command = ["runuser", "-u", self.user, "--", *command]
        return subprocess.run(command, **RUN)

    def new_database(self) -> str:
        """A fresh, empty database: its SQLAlchemy URL."""
        import psycopg

        name = f"knights_{next(self._names)}"
        with psycopg.connect(
            host="127.0.0.1", port=self.port, user="knights", dbname="postgres", autocommit=True
        ) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return f"postgresql+psycopg://knights@127.0.0.1:{self.port}/{name}"

    def load(self, url: str, sql_file: Path) -> None:
        """Run a pg_dump file (psql) into the database at ``url``."""
        name = url.rsplit("/", 1)[1]
        subprocess.run(
            [
                str(self.binaries / "psql"),
                "-h",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-U",
                "knights",
                "-d",
                name,
                "-v",
                "ON_ERROR_STOP=1",
                "-q",
                "-f",
                str(sql_file),
            ],
            **RUN,
        )

    def stop(self) -> None:
        with contextlib.suppress(subprocess.SubprocessError):
            self._run("pg_ctl", "-D", str(self.directory / "data"), "-m", "fast", "-w", "stop")
        shutil.rmtree(self.directory, ignore_errors=True)

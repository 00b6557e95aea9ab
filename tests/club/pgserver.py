"""A real PostgreSQL server for the tests (issue 24): started by the test run itself
in a temporary data directory on a free loopback port, and stopped at its end.

As root (PostgreSQL refuses to run as root) the server runs as the ``postgres``
user through ``runuser``; otherwise as the current user. Each test gets a database
of its own (:meth:`PgServer.database`). If the server cannot be started the tests
that need it fail, saying why: they are never skipped.
"""

from __future__ import annotations

import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

BIN_DIRS = [Path("/usr/lib/postgresql/15/bin"), *sorted(Path("/usr/lib/postgresql").glob(
    "*/bin"), reverse=True)]
INSTALL_HINT = ("install PostgreSQL (Debian: apt-get install -y postgresql; .ci/run does "
                "this on a fresh machine)")


class PgUnavailable(RuntimeError):
    """The test server could not be started; the message says why."""


def _binary(name: str) -> str:
    for folder in BIN_DIRS:
        if (folder / name).is_file():
            return str(folder / name)
    found = shutil.which(name)
    if found is None:
        raise PgUnavailable(f"no {name} found in {BIN_DIRS[0]} or on PATH: {INSTALL_HINT}")
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PgServer:
    """One private server: :meth:`start`, :meth:`database`, :meth:`stop`."""

    def __init__(self, *, durable: bool = False) -> None:
        self.durable = durable
        """Sync to disk as a production server does (``benchmarks/club.py``'s
        store); the tests' server does not (:meth:`resume`)."""
        self.root = Path(tempfile.mkdtemp(prefix="dzpg-"))
        self.data = self.root / "data"
        self.sockets = self.root / "sock"
        self.log = self.root / "server.log"
        self.port = 0
        self._as_root = os.geteuid() == 0
        self._names = itertools.count(1)
        self._shared = False

    def _run(self, *argv: str, timeout: float = 60) -> None:
        cmd = ["runuser", "-u", "postgres", "--", *argv] if self._as_root else list(argv)
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                              check=False)
        if done.returncode != 0:
            tail = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise PgUnavailable(f"{' '.join(argv[:2])} failed ({done.returncode}): "
                                f"{done.stderr.strip() or done.stdout.strip()} {tail}")

    def start(self) -> PgServer:
        initdb = _binary("initdb")
        self.sockets.mkdir()
        if self._as_root:
            shutil.chown(self.root, "postgres")
            shutil.chown(self.sockets, "postgres")
        self._run(initdb, "-D", str(self.data), "-A", "trust", "-U", "postgres",
                  "--no-sync", "-E", "UTF8", "--locale", "C.UTF-8")
        for _ in range(3):  # a port taken between choosing it and binding: choose again
            self.port = free_port()
            try:
                self.resume()
                return self
            except PgUnavailable as exc:
                error = exc
        raise error

    def pause(self) -> None:
        """Stop the server (a database that went away); :meth:`resume` starts it
        again on the same port with the same data."""
        self.pg_ctl("stop", "-m", "fast", "-w")

    def resume(self) -> None:
        """Start the server. Unless :attr:`durable`, it never syncs to disk
        (``fsync=off``, and no full page images for a crash of the machine, issue
        21): a sync only matters when the machine goes down, which no test can make
        happen, while each stop's checkpoint and each new database synced every
        file, seconds a stop on a busy disk. A server stopped or killed still leaves
        all it wrote to the operating system. ``synchronous_commit`` keeps its
        default: the store's own use of it is tested."""
        syncing = "" if self.durable else " -c fsync=off -c full_page_writes=off"
        self.pg_ctl("start", "-w", "-t", "60", "-l", str(self.log),
                    "-o", f"-p {self.port} -k {self.sockets} "
                    f"-c listen_addresses=127.0.0.1 -c max_connections=200{syncing}")

    def pg_ctl(self, *args: str) -> None:
        self._run(_binary("pg_ctl"), "-D", str(self.data), *args)

    def url(self, database: str = "postgres", password: str = "") -> str:
        secret = f":{password}" if password else ""
        return f"postgresql://postgres{secret}@127.0.0.1:{self.port}/{database}"

    def database(self, *, own: bool = False) -> str:
        """The URL of a new, empty store: a schema of its own in a shared database
        (a few ms), or with ``own`` a database of its own (0.5 s: for front-ends
        whose change notices must not meet another test's)."""
        import psycopg

        name = f"t{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            if own:
                conn.execute(f"CREATE DATABASE {name}")
                return self.url(name)
            if not self._shared:
                conn.execute("CREATE DATABASE shared")
                self._shared = True
        with psycopg.connect(self.url("shared"), autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {name}")
        return self.url("shared") + f"?options=-csearch_path%3D{name}"

    def stop(self) -> None:
        try:
            if self.data.exists():
                self.pg_ctl("stop", "-m", "fast", "-w")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

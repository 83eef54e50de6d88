"""Real database servers for the tables tests: a throwaway PostgreSQL cluster, and a store URL per backend.

Tests ask for the fixtures `store_url` (a fresh SQLite file, then a fresh PostgreSQL database) or
`postgres_server` (the session's running cluster); tests/conftest.py marks those tests `postgresql` and
skips them where PostgreSQL is missing and cannot be installed (see tests/helpers/system.py). A plain
script, such as a benchmark, uses the cluster itself:

    with PostgresCluster() as cluster:
        url = cluster.new_database()
"""

from __future__ import annotations

import glob
import itertools
import os
import shlex
import shutil
import subprocess
import tempfile
import urllib.parse
from pathlib import Path

import psycopg
import pytest
import sqlalchemy
from psycopg import sql

from tests.helpers.servers import free_port

PROGRAMS = "/usr/lib/postgresql/*/bin"  # Debian's layout: one folder per major version
USER = "tester"

# fsync=off: fsync only protects against the operating system crashing or the power failing. A killed
# process, client or server, loses nothing the kernel already holds, so the killed-process tests stay
# honest, and the throwaway cluster never waits for the disk.
# synchronous_commit=on: a commit is acknowledged only once its WAL is written out of the server's
# memory; "nothing acknowledged is lost when a process is killed" depends on it.
# max_connections=300: tests and benchmarks race many processes at one table, each with its own pool of
# connections; the default 100 would refuse some of them before the tables code is even reached.
# listen_addresses='': no TCP at all, only the Unix socket in the cluster's own folder.
TEST_SETTINGS = {"fsync": "off", "synchronous_commit": "on", "max_connections": "300", "listen_addresses": "''"}


class PostgresMissing(RuntimeError):
    """PostgreSQL's server programs are not installed on this machine."""


def is_installed(pattern: str = PROGRAMS) -> bool:
    """Are PostgreSQL's server programs installed on this machine?"""
    return bool(glob.glob(f"{pattern}/initdb"))


def server_programs(pattern: str = PROGRAMS) -> Path:
    """Where are the newest PostgreSQL server programs (initdb, pg_ctl)?"""
    found = [Path(initdb).parent for initdb in glob.glob(f"{pattern}/initdb")]
    if not found:
        raise PostgresMissing(
            f"PostgreSQL is not installed (no {pattern}/initdb): run `make postgresql` once "
            "(as root it installs Debian's postgresql package; otherwise it says the command to run)"
        )
    return max(found, key=lambda folder: [int(part) for part in folder.parent.name.split(".")])


def is_root() -> bool:
    """Do we run as root? initdb and the server refuse to, so they run as the `postgres` user."""
    return os.geteuid() == 0


def as_server_user(command: list[str]) -> list[str]:
    """The command, run as the user who owns the cluster's files."""
    return ["runuser", "-u", "postgres", "--", *command] if is_root() else command


class PostgresCluster:
    """A throwaway PostgreSQL server in a temporary folder, reached only through its Unix socket."""

    def __init__(self, programs: str = PROGRAMS, settings: dict[str, str] | None = None):
        self.programs = server_programs(programs)
        self.settings = {**TEST_SETTINGS, **(settings or {})}
        self.folder: Path | None = None
        self.port: int | None = None
        self.numbers = itertools.count(1)

    def __enter__(self) -> PostgresCluster:
        return self.start()

    def __exit__(self, *exception) -> None:
        self.stop()

    @property
    def data(self) -> Path:
        """The cluster's own files."""
        return self.folder / "data"

    def start(self) -> PostgresCluster:
        """Create the cluster in a new temporary folder and start it; return once it answers."""
        self.folder = Path(tempfile.mkdtemp(prefix="colorlab-pg-"))
        self.port = free_port()  # only to name the socket file: the server listens on no TCP port
        try:
            if is_root():
                shutil.chown(self.folder, "postgres", "postgres")
            # UTF8 with the C locale: the same text handling whatever locale this machine has.
            self.run("initdb", "-D", self.data, "-A", "trust", "-U", USER, "-E", "UTF8", "--locale=C", "--no-sync")
            options = " ".join(
                [f"-k {shlex.quote(str(self.folder))} -p {self.port}"]
                + [f"-c {name}={value}" for name, value in self.settings.items()]
            )
            self.run("pg_ctl", "-D", self.data, "-o", options, "-l", self.folder / "log", "-w", "-t", "60", "start")
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        """Stop the server, if it runs, and remove its folder."""
        if self.folder is None:
            return
        try:
            if (self.data / "postmaster.pid").exists():
                self.run("pg_ctl", "-D", self.data, "-m", "fast", "-w", "stop")
        finally:
            # a server that would not stop shuts itself down once it sees its folder gone
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None

    def run(self, program: str, *arguments) -> None:
        """Run one of the server programs; a failure shows what it and the server's log said."""
        command = as_server_user([str(self.programs / program), *map(str, arguments)])
        done = subprocess.run(command, cwd=self.folder, capture_output=True, text=True)
        if done.returncode != 0:
            log = self.folder / "log"
            raise RuntimeError(
                f"{program} failed ({done.returncode}): {done.stdout}{done.stderr}"
                + (log.read_text() if log.exists() else "")
            )

    def url(self, database: str) -> str:
        """The SQLAlchemy URL of one database of this cluster."""
        host = urllib.parse.quote(str(self.folder), safe="/")
        return f"postgresql+psycopg://{USER}@/{database}?host={host}&port={self.port}"

    def connect(self, database: str = "postgres") -> psycopg.Connection:
        """A plain connection, outside any transaction (as CREATE and DROP DATABASE need)."""
        return psycopg.connect(host=str(self.folder), port=self.port, user=USER, dbname=database, autocommit=True)

    def new_database(self) -> str:
        """Create a fresh empty database; give its URL."""
        name = f"test_{next(self.numbers)}"
        with self.connect() as admin:
            admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        return self.url(name)

    def drop_database(self, url: str) -> None:
        """Remove a database made by new_database, even while connections to it are still open."""
        name = sqlalchemy.make_url(url).database
        with self.connect() as admin:
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def cluster_or_fail(programs: str = PROGRAMS) -> PostgresCluster:
    """The cluster to start, or a test failure saying how to install PostgreSQL: never a skip."""
    try:
        return PostgresCluster(programs)
    except PostgresMissing as missing:
        pytest.fail(str(missing), pytrace=False)


@pytest.fixture(scope="session")
def postgres_server():
    """The test session's PostgreSQL server: started on first use, stopped and removed at the end."""
    with cluster_or_fail() as cluster:
        yield cluster


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request, tmp_path):
    """A URL to an empty store: a new SQLite file, then a new PostgreSQL database dropped after the test."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'tables.db'}"
        return
    server = request.getfixturevalue("postgres_server")
    url = server.new_database()
    yield url
    server.drop_database(url)

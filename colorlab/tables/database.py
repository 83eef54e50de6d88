"""Where tables live: one SQLite file, or a PostgreSQL database, through SQLAlchemy.

Both speak the same SQL here; what differs is how a writer gets the table to
itself (SQLite: ``BEGIN IMMEDIATE`` takes the file's write lock; PostgreSQL: the
table's row is locked ``FOR UPDATE``) and where the time comes from (the server's
clock where there is a server). The schema carries a version number, so a store
made by another colorlab is refused with a clear message rather than misread.
"""

from __future__ import annotations

import os
import random
import re
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import sqlalchemy
from sqlalchemy import event, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.pool import ConnectionPoolEntry

T = TypeVar("T")

# 2: a short seat key beside the token, and a count of wrong keys per table
# 3: each table's change mark (`changed`, see CHANGE_MARK), and indexes to find what changed and the open tables
# 4: when each seat's page was last seen (`seen`), so that the teacher sees who is connected
SCHEMA_VERSION = 4
CHANGES_CHANNEL = "colorlab_changes"  # PostgreSQL: each change is announced here (NOTIFY), its payload the table's code
# A school keeps several classes in one database: each class's tables in a schema of its own (PostgreSQL), or a file of
# its own beside the named one (SQLite). A class name is short, lower-case letters, digits and dashes, e.g. "7b".
CLASS_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,23}")

INDEXES = (
    "CREATE INDEX IF NOT EXISTS colorlab_tables_changed ON colorlab_tables (changed)",
    "CREATE INDEX IF NOT EXISTS colorlab_tables_open ON colorlab_tables (closed, created)",
)
SCHEMA = (
    """CREATE TABLE IF NOT EXISTS colorlab_store (
        key VARCHAR(40) PRIMARY KEY,
        value VARCHAR(200) NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS colorlab_tables (
        code VARCHAR(12) PRIMARY KEY,
        game VARCHAR(20) NOT NULL,
        rules TEXT NOT NULL,
        seed BIGINT NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        started DOUBLE PRECISION,
        closed DOUBLE PRECISION,
        since DOUBLE PRECISION NOT NULL,
        steps INTEGER NOT NULL,
        calls INTEGER NOT NULL,
        over INTEGER NOT NULL,
        scores TEXT NOT NULL,
        waiting TEXT NOT NULL,
        wrong_keys INTEGER NOT NULL DEFAULT 0,
        wrong_since DOUBLE PRECISION,
        changed BIGINT NOT NULL DEFAULT 0)""",
    """CREATE TABLE IF NOT EXISTS colorlab_seats (
        code VARCHAR(12) NOT NULL REFERENCES colorlab_tables (code),
        seat INTEGER NOT NULL,
        name VARCHAR(40),
        bot VARCHAR(40),
        token_hash VARCHAR(64),
        key_hash VARCHAR(64),
        joined DOUBLE PRECISION,
        seen DOUBLE PRECISION,
        PRIMARY KEY (code, seat))""",
    """CREATE TABLE IF NOT EXISTS colorlab_actions (
        code VARCHAR(12) NOT NULL REFERENCES colorlab_tables (code),
        step INTEGER NOT NULL,
        seat INTEGER,
        action TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (code, step))""",
    """CREATE TABLE IF NOT EXISTS colorlab_calls (
        code VARCHAR(12) NOT NULL REFERENCES colorlab_tables (code),
        step INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        seconds DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (code, step, seat))""",
    *INDEXES,
)
# What turns a store of an older schema into this one, step by step (none below 2).
UPGRADES = {
    2: ("ALTER TABLE colorlab_tables ADD COLUMN changed BIGINT NOT NULL DEFAULT 0", *INDEXES),
    3: ("ALTER TABLE colorlab_seats ADD COLUMN seen DOUBLE PRECISION",),
}
# A new mark for a table that changes, larger than any before: PostgreSQL draws it from a sequence (no lock shared by
# the tables); SQLite has one writer at a time, so the largest mark so far (found through the index) plus one will do.
POSTGRESQL_SEQUENCE = "CREATE SEQUENCE IF NOT EXISTS colorlab_change_marks"
CHANGE_MARK = {
    "postgresql": "nextval('colorlab_change_marks')",
    "sqlite": "(SELECT COALESCE(MAX(changed), 0) + 1 FROM colorlab_tables)",
}


class StoreError(Exception):
    """A store that cannot be opened or used, with the reason."""


def database_url(where: str | Path) -> str:
    """Which SQLAlchemy URL does a path or URL name? A plain path is a SQLite file."""
    where = str(where)
    if where in ("sqlite://", ":memory:") or ":memory:" in where or "mode=memory" in where:
        raise StoreError(
            "a table store in memory would live only in this kernel: give a file path "
            "or a postgresql:// URL, so that other kernels can sit at its tables"
        )
    if "://" not in where:
        return f"sqlite:///{Path(where).expanduser().resolve()}"
    scheme, rest = where.split("://", 1)
    if scheme in ("postgresql", "postgres"):
        return f"postgresql+psycopg://{rest}"
    if scheme in ("sqlite", "postgresql+psycopg"):
        return where
    raise StoreError(f"a table store is a file path, a sqlite:/// URL or a postgresql:// URL, not {scheme}://")


def check_class_name(name: str) -> str:
    """A class's name as the store keeps it, or a StoreError that says what a name may be.

    >>> from colorlab.tables.database import check_class_name
    >>> check_class_name("7b")
    '7b'
    """
    if not isinstance(name, str) or not CLASS_NAME.fullmatch(name):
        raise StoreError(
            f"a class's name is 1 to 24 lower-case letters, digits and dashes, starting with a letter or digit "
            f"(such as 7b or year-8-maths), not {name!r}"
        )
    return name


def class_schema(name: str) -> str:
    """The PostgreSQL schema that holds one class's tables: ``colorlab_class_`` and the name, dashes as underscores."""
    return "colorlab_class_" + check_class_name(name).replace("-", "_")


def class_url(url: str, name: str | None) -> str:
    """The SQLite file of one class: the named file's stem, a dash and the class (``classroom-7b.db``)."""
    if name is None or not url.startswith("sqlite"):
        return url
    path = Path(url.split(":///", 1)[1])
    return f"sqlite:///{path.with_name(f'{path.stem}-{check_class_name(name)}{path.suffix}')}"


def open_engine(where: str | Path, class_name: str | None = None) -> Engine:
    """Connect to the store's database (created on first use for SQLite), to one class's part of it if named."""
    url = class_url(database_url(where), class_name)
    if url.startswith("sqlite"):
        engine = sqlalchemy.create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})
        event.listen(engine, "connect", _sqlite_connected)
        event.listen(engine, "begin", _sqlite_begin)
    else:
        options = {}
        if class_name is not None:
            # Every connection sees only its class's schema: no query of one class can reach another's tables.
            make_schema(url, class_schema(class_name))
            options = {"options": f"-csearch_path={class_schema(class_name)}"}
        # No ping before each use: after a server restart one request fails (a TableError the widget shows
        # and retries), and every other request saves a round trip.
        engine = sqlalchemy.create_engine(url, connect_args=options)
    return engine


def make_schema(url: str, schema: str) -> None:
    """Create a class's schema in a PostgreSQL database if it is not there yet (one creator at a time)."""
    engine = sqlalchemy.create_engine(url, poolclass=sqlalchemy.pool.NullPool)
    try:
        with engine.connect() as connection, connection.begin():
            connection.execute(text("SELECT pg_advisory_xact_lock(7242016)"))
            connection.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{schema}"'))
    except sqlalchemy.exc.DBAPIError as error:
        raise StoreError(f"cannot open the table store: {error.orig}") from None
    finally:
        engine.dispose()


def changes_channel(class_name: str | None) -> str:
    """Where a class's changes are announced on PostgreSQL (each class has its own channel)."""
    return CHANGES_CHANNEL if class_name is None else f"{CHANGES_CHANNEL}_{class_schema(class_name)}"


LOCKED_PATIENCE = 30.0  # seconds to keep trying when SQLite answers "locked" without waiting itself


def while_locked(attempt: Callable[[], T], is_locked: Callable[[Exception], bool]) -> T:
    """Try again, a little later each time, while SQLite says the file is locked (up to LOCKED_PATIENCE s).

    SQLite's own wait (its busy timeout) does not cover every case: switching a new file to WAL,
    or reading the WAL index while another process builds it, can answer "locked" at once when
    many processes open one new store together.
    """
    deadline = time.monotonic() + LOCKED_PATIENCE
    tries = 0
    while True:
        tries += 1
        try:
            return attempt()
        except Exception as error:
            if not is_locked(error) or time.monotonic() > deadline:
                raise
            time.sleep(min(0.5, 0.01 * tries) * (1 + random.random()))


def _says_locked(error: Exception) -> bool:
    cause = getattr(error, "orig", error)
    return isinstance(cause, sqlite3.OperationalError) and "locked" in str(cause)


def _sqlite_connected(dbapi_connection: sqlite3.Connection, record: ConnectionPoolEntry) -> None:
    # SQLAlchemy then issues BEGIN itself (see _sqlite_begin), so that a writer can take the lock up front.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    # WAL: readers never wait for the writer, across processes.
    while_locked(lambda: cursor.execute("PRAGMA journal_mode=WAL"), _says_locked)
    cursor.execute("PRAGMA synchronous=NORMAL")  # in WAL mode a killed process loses no committed transaction
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    writing = connection.get_execution_options().get("write", False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if writing else "BEGIN")


def file_identity(path: str | Path) -> tuple[int, int] | None:
    """Which file is at `path` now: its device and inode (None: no file there)."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


def is_postgresql(engine: Engine) -> bool:
    return engine.dialect.name == "postgresql"


def server_time(connection: Connection) -> float:
    """What time is it by the table's clock: the database server's, or this machine's for a SQLite file?"""
    if connection.dialect.name == "postgresql":
        return float(connection.execute(text("SELECT EXTRACT(EPOCH FROM clock_timestamp())")).scalar_one())
    return time.time()


def prepare(engine: Engine) -> None:
    """Create the schema on first use; refuse a store made by another version of colorlab."""
    try:
        while_locked(lambda: _prepare(engine), _says_locked)
    except sqlalchemy.exc.DBAPIError as error:
        raise StoreError(f"cannot open the table store: {error.orig}") from None


def _prepare(engine: Engine) -> None:
    with engine.connect().execution_options(write=True) as connection, connection.begin():
        if is_postgresql(engine):
            connection.execute(text("SELECT pg_advisory_xact_lock(7242016)"))  # one creator at a time
        names = set(sqlalchemy.inspect(connection).get_table_names())
        if "colorlab_tables" in names and "colorlab_store" not in names:
            raise StoreError(
                "this database holds colorlab tables without a schema version: "
                "it was not made by this colorlab and is left untouched"
            )
        if "colorlab_store" in names:
            _check_version(connection)
            return
        for statement in SCHEMA:
            connection.execute(text(statement))
        if is_postgresql(engine):
            connection.execute(text(POSTGRESQL_SEQUENCE))
        connection.execute(
            text("INSERT INTO colorlab_store (key, value) VALUES ('schema', :v)"), {"v": str(SCHEMA_VERSION)}
        )


def _check_version(connection: Connection) -> None:
    found = connection.execute(text("SELECT value FROM colorlab_store WHERE key = 'schema'")).scalar_one_or_none()
    if found is None or not found.isdigit():
        raise StoreError("this table store has no readable schema version; it is left untouched")
    version = int(found)
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"this table store was made by a newer colorlab (schema {version}; this colorlab "
            f"reads schema {SCHEMA_VERSION}): update colorlab to use it"
        )
    if version < SCHEMA_VERSION and version not in UPGRADES:
        raise StoreError(
            f"this table store was made by an older colorlab (schema {version}; this colorlab "
            f"reads schema {SCHEMA_VERSION}) and has no upgrade: start a new store"
        )
    for step in range(version, SCHEMA_VERSION):  # in the transaction that checked: all of it, or nothing
        for statement in UPGRADES[step]:
            connection.execute(text(statement))
    if version < SCHEMA_VERSION:
        if connection.dialect.name == "postgresql":
            connection.execute(text(POSTGRESQL_SEQUENCE))
        connection.execute(
            text("UPDATE colorlab_store SET value = :v WHERE key = 'schema'"), {"v": str(SCHEMA_VERSION)}
        )

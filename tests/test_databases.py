"""The database fixtures give real servers: a real SQLite file, a real PostgreSQL reached only by its socket."""

import os
import socket
from pathlib import Path

import psycopg
import pytest
import sqlalchemy

from tests.helpers.databases import PostgresCluster, cluster_or_fail

SCORES = sqlalchemy.Table("scores", sqlalchemy.MetaData(), sqlalchemy.Column("points", sqlalchemy.Integer))


def write_and_read_back(url: str) -> list[int]:
    """Write a row through one engine, then read the table through another."""
    writer = sqlalchemy.create_engine(url)
    SCORES.metadata.create_all(writer)
    with writer.begin() as connection:
        connection.execute(SCORES.insert(), [{"points": 7}])
    writer.dispose()
    reader = sqlalchemy.create_engine(url)
    with reader.connect() as connection:
        points = list(connection.scalars(sqlalchemy.select(SCORES.c.points)))
    reader.dispose()
    return points


def test_store_url_keeps_what_is_written(store_url, request):
    assert sqlalchemy.make_url(store_url).get_backend_name() == request.node.callspec.params["store_url"]
    assert write_and_read_back(store_url) == [7]


@pytest.mark.parametrize("store_url", ["sqlite"], indirect=True)
def test_sqlite_store_is_a_real_file(store_url, tmp_path):
    write_and_read_back(store_url)
    path = sqlalchemy.make_url(store_url).database
    assert os.path.dirname(path) == str(tmp_path)
    with open(path, "rb") as file:
        assert file.read(16) == b"SQLite format 3\x00"


def test_postgresql_url_reaches_postgresql_through_psycopg(postgres_server):
    url = postgres_server.new_database()
    engine = sqlalchemy.create_engine(url)
    with engine.connect() as connection:
        version = connection.scalar(sqlalchemy.text("SELECT version()"))
        database = connection.scalar(sqlalchemy.text("SELECT current_database()"))
    engine.dispose()
    postgres_server.drop_database(url)
    assert engine.dialect.driver == "psycopg"
    assert version.startswith("PostgreSQL ")
    assert database == sqlalchemy.make_url(url).database


def test_fresh_databases_are_separate(postgres_server):
    first, second = postgres_server.new_database(), postgres_server.new_database()
    write_and_read_back(first)
    engine = sqlalchemy.create_engine(second)
    tables_in_second = sqlalchemy.inspect(engine).get_table_names()
    engine.dispose()
    postgres_server.drop_database(first)
    postgres_server.drop_database(second)
    assert first != second
    assert tables_in_second == []


def database_names(server) -> set[str]:
    """Which databases does the server hold?"""
    with server.connect() as admin:
        return {name for (name,) in admin.execute("SELECT datname FROM pg_database")}


def test_drop_database_removes_it_even_while_connected(postgres_server):
    url = postgres_server.new_database()
    name = sqlalchemy.make_url(url).database
    still_open = psycopg.connect(
        host=str(postgres_server.folder), port=postgres_server.port, user="tester", dbname=name
    )
    assert name in database_names(postgres_server)
    postgres_server.drop_database(url)
    still_open.close()
    assert name not in database_names(postgres_server)


def test_server_answers_only_on_its_own_socket(postgres_server):
    assert (postgres_server.folder / f".s.PGSQL.{postgres_server.port}").is_socket()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", postgres_server.port), timeout=2).close()
    with postgres_server.connect() as admin:
        assert admin.execute("SHOW listen_addresses").fetchone() == ("",)
        # a commit is acknowledged only once it is out of the server's memory: killed-process tests rely on it
        assert admin.execute("SHOW synchronous_commit").fetchone() == ("on",)


def is_running(pid: int) -> bool:
    """Is this process alive (not gone, not a zombie waiting to be reaped)?"""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.postgresql
def test_cluster_from_a_plain_script_stops_and_leaves_nothing():
    with PostgresCluster() as cluster:
        url = cluster.new_database()
        assert write_and_read_back(url) == [7]
        folder = cluster.folder
        server_pid = int((cluster.data / "postmaster.pid").read_text().split()[0])
    assert not folder.exists()
    assert not is_running(server_pid)


def test_missing_postgresql_fails_and_says_how_to_install_it():
    with pytest.raises(pytest.fail.Exception, match="make postgresql"):
        cluster_or_fail("/nowhere/*/bin")

"""A school keeps its classes apart in one database: each class sees, joins and hears of its own tables only.

Against a real SQLite file (a file per class beside the named one) and a real PostgreSQL server (a schema per
class in one database, as a school's hub uses it).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
import sqlalchemy

from colorlab import colorfox
from colorlab.classroom.class_store import CLASS_VARIABLE, class_store
from colorlab.tables import TableError, TableStore, UnknownTable
from colorlab.tables.changes import EVERY_TABLE


@pytest.fixture
def school(store_url):
    """Return `store(class_name)`: a store of the test's database for that class (one kernel of it); closed after."""
    opened: list[TableStore] = []

    def store(class_name: str | None) -> TableStore:
        opened.append(TableStore(store_url, class_name))
        return opened[-1]

    yield store
    for one in opened:
        one.changes.close()
        one.engine.dispose()


def test_a_table_of_one_class_is_neither_listed_nor_joined_nor_watched_in_another(school):
    seven, eight = school("7b"), school("8a")
    code = seven.create("colorfox", colorfox.Rules(players=2), seed=3)
    seven.join(code, seat=0, name="Ada")
    assert [entry["code"] for entry in seven.tables()] == [code]
    assert eight.tables() == []
    assert eight.records() == []
    for reach in (lambda: eight.join(code, seat=1, name="Dan"), lambda: eight.watch(code), lambda: eight.look(code)):
        with pytest.raises(UnknownTable):
            reach()
    assert school("7b").seat_names(code) == ["Ada", None]  # another kernel of 7b sees the seat taken


def test_the_same_code_in_two_classes_names_two_tables(school):
    """Codes are drawn per class: were two classes to draw the same one, each would still reach only its own."""
    seven, eight = school("7b"), school("8a")
    code = seven.create("colorfox", colorfox.Rules(players=2), seed=3)
    with seven.engine.connect() as connection:  # make class 8a's next table take the very same code
        row = connection.execute(sqlalchemy.text("SELECT * FROM colorlab_tables")).mappings().one()
    with eight.engine.connect() as connection, connection.begin():
        columns, values = ", ".join(row), ", ".join(f":{column}" for column in row)
        insert = sqlalchemy.text(f"INSERT INTO colorlab_tables ({columns}) VALUES ({values})")
        connection.execute(insert, {**row, "game": "colorfox", "seed": 99})
    assert seven.record(code).seed == 3
    assert eight.record(code).seed == 99


def test_a_change_in_one_class_is_heard_by_its_own_kernels_only(school):
    seven, seven_again, eight = school("7b"), school("7b"), school("8a")
    heard: dict[str, int] = {"7b": 0, "8a": 0}
    seven_again.changes.follow(EVERY_TABLE, lambda changed: heard.__setitem__("7b", heard["7b"] + 1))
    eight.changes.follow(EVERY_TABLE, lambda changed: heard.__setitem__("8a", heard["8a"] + 1))
    seven_again.changes.look(), eight.changes.look()  # the first look says "anything may have changed"
    heard.update({"7b": 0, "8a": 0})
    code = seven.create("colorfox", colorfox.Rules(players=2), seed=3)
    seven.join(code, seat=0, name="Ada")
    assert code in seven_again.changes.look()
    assert eight.changes.look() == frozenset()
    assert heard == {"7b": 1, "8a": 0}


def test_a_store_without_a_class_keeps_the_laptops_tables_apart_from_every_class(school):
    laptop, seven = school(None), school("7b")
    code = laptop.create("colorfox", colorfox.Rules(players=2), seed=3)
    assert seven.tables() == []
    assert [entry["code"] for entry in laptop.tables()] == [code]


@pytest.mark.parametrize("name", ["", "7B", "a b", "x" * 25, "-7b", "7b;drop", "../up", 7])
def test_a_class_name_that_cannot_be_one_is_refused_with_what_a_name_may_be(store_url, name):
    with pytest.raises(TableError, match="lower-case letters, digits and dashes"):
        TableStore(store_url, name)


def test_on_sqlite_each_class_has_a_file_beside_the_named_one(tmp_path):
    named = tmp_path / "school.db"
    store = TableStore(named, "year-8")
    store.create("colorfox", colorfox.Rules(players=2), seed=1)
    store.engine.dispose()
    assert sorted(path.name for path in tmp_path.glob("*.db")) == ["school-year-8.db"]
    with sqlite3.connect(tmp_path / "school-year-8.db") as connection:
        assert connection.execute("SELECT COUNT(*) FROM colorlab_tables").fetchone() == (1,)


def test_on_postgresql_each_class_is_a_schema_of_the_one_database(postgres_server):
    url = postgres_server.new_database()
    try:
        for name in ("7b", "year-8"):
            TableStore(url, name).engine.dispose()
        engine = sqlalchemy.create_engine(url)
        with engine.connect() as connection:
            schemas = connection.execute(
                sqlalchemy.text("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'colorlab%' ORDER BY nspname")
            ).scalars()
            assert list(schemas) == ["colorlab_class_7b", "colorlab_class_year_8"]
        engine.dispose()
    finally:
        postgres_server.drop_database(url)


def test_class_store_takes_the_class_from_the_kernels_environment(tmp_path, monkeypatch):
    monkeypatch.setenv(CLASS_VARIABLE, "7b")
    store = class_store(tmp_path / "classroom.db")
    assert store.class_name == "7b"
    assert Path(str(store.engine.url.database)).name == "classroom-7b.db"
    assert "class_name='7b'" in repr(store)
    store.engine.dispose()

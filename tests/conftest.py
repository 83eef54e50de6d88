"""What every test shares, and the tiers that `make quick` leaves out.

A test that asks for the PostgreSQL server (itself or through store_url's PostgreSQL case) is
marked `postgresql`; one that asks for a fixture starting processes of its own is `processes`.
Tests that start a process themselves, or are slow, carry their mark by hand. Without PostgreSQL
the `postgresql` tests skip only where it cannot be installed (tests/helpers/system.py). A run
fails if a server that a test started, or a kernel of one, still runs at its end.
"""

import logging
from pathlib import Path

import pytest

# Before the helpers are first imported: their asserts (a game's invariants, a quiz's cards) explain failures too.
pytest.register_assert_rewrite("tests.helpers")

from tests.helpers.databases import PROGRAMS as POSTGRESQL_PROGRAMS  # noqa: E402
from tests.helpers.databases import is_installed as postgresql_is_installed  # noqa: E402
from tests.helpers.servers import stop_leftovers  # noqa: E402
from tests.helpers.system import may_skip_without  # noqa: E402

# The real database servers (SQLite files, a throwaway PostgreSQL cluster) for the tables tests.
pytest_plugins = ["tests.helpers.databases"]

# Fixtures that start processes of their own: the spawned workers of the tables' races, the class server.
# The browser tests all start servers; they are a tier of their own, `browser`.
PROCESS_FIXTURES = {"workers", "classroom"}
BROWSER_TESTS = Path(__file__).parent / "browser"
POSTGRESQL_MISSING = f"PostgreSQL is not installed (no {POSTGRESQL_PROGRAMS}/initdb)"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    """Mark `postgresql` and `processes` tests (before -m selects); skip the former without PostgreSQL, if allowed."""
    why = None if postgresql_is_installed() else may_skip_without(POSTGRESQL_MISSING, "sudo apt-get install postgresql")
    for item in items:
        if uses_postgresql(item):
            item.add_marker(pytest.mark.postgresql)
        if PROCESS_FIXTURES & set(getattr(item, "fixturenames", ())) and BROWSER_TESTS not in item.path.parents:
            item.add_marker(pytest.mark.processes)
        if why and item.get_closest_marker("postgresql"):
            item.add_marker(pytest.mark.skip(reason=why))


def uses_postgresql(item) -> bool:
    """Does the test ask for the PostgreSQL server, itself or through store_url's PostgreSQL case?"""
    callspec = getattr(item, "callspec", None)
    return "postgres_server" in getattr(item, "fixturenames", ()) or (
        callspec is not None and callspec.params.get("store_url") == "postgresql"
    )


@pytest.fixture(scope="session", autouse=True)
def no_server_or_kernel_left_running(tmp_path_factory):
    """Fail the run if a server a test started, or a kernel of one, still runs at the end (and stop them)."""
    yield
    leftovers = stop_leftovers(tmp_path_factory.getbasetemp())
    assert not leftovers, f"the tests left these running (stopped now): {leftovers}"


@pytest.fixture(autouse=True)
def traitlets_warnings():
    """Fail the test if ipywidgets swallowed an error in a callback: it only logs it on `traitlets`."""
    records: list[logging.LogRecord] = []
    handler = logging.Handler(level=logging.WARNING)
    handler.emit = records.append
    logger = logging.getLogger("traitlets")
    old_level = logger.level
    logger.addHandler(handler)
    if not logger.isEnabledFor(logging.WARNING):
        logger.setLevel(logging.WARNING)
    yield records
    logger.removeHandler(handler)
    logger.setLevel(old_level)
    assert not records, [record.getMessage() for record in records]

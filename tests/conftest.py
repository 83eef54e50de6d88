"""What every test shares."""

import logging

import pytest

# The real database servers (SQLite files, a throwaway PostgreSQL cluster) for the tables tests.
pytest_plugins = ["tests.databases"]


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

"""What every test shares."""

import logging

import pytest


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

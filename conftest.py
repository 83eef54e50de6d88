"""What a whole test run shares, the notebooks included.

A lesson or page that opens the class's table store (the teacher's page, the lobby) must never
touch the tables of the machine it runs on: the run points COLORLAB_TABLES at a throwaway file.
"""

import os
import shutil
import tempfile
from pathlib import Path

from colorlab.tables.classroom import STORE_VARIABLE


def pytest_configure(config):
    config.colorlab_tables_folder = tempfile.mkdtemp(prefix="colorlab-test-tables-")
    os.environ[STORE_VARIABLE] = str(Path(config.colorlab_tables_folder) / "classroom.db")


def pytest_unconfigure(config):
    shutil.rmtree(getattr(config, "colorlab_tables_folder", ""), ignore_errors=True)

"""What a whole test run shares, the notebooks included.

A lesson or page that opens the class's table store (the teacher's page, the lobby) must never
touch the tables of the machine it runs on: the run points COLORLAB_TABLES at a throwaway file.

The game-AI modules need the optional `ai` extra (`make test` installs it); without it their
doctests are not collected, and their tests say they were skipped.
"""

import importlib.util
import os
import shutil
import tempfile
from pathlib import Path

from colorlab.classroom.class_store import STORE_VARIABLE

AI_MODULES = {"colorlab/openspiel.py": "pyspiel", "colorlab/spiel.py": "pyspiel",
              "colorlab/colorfox/spiel.py": "pyspiel", "colorlab/colorium/spiel.py": "pyspiel",
              "colorlab/pettingzoo.py": "pettingzoo"}
collect_ignore = [path for path, needs in AI_MODULES.items() if importlib.util.find_spec(needs) is None]


def pytest_configure(config):
    config.colorlab_tables_folder = tempfile.mkdtemp(prefix="colorlab-test-tables-")
    os.environ[STORE_VARIABLE] = str(Path(config.colorlab_tables_folder) / "classroom.db")


def pytest_unconfigure(config):
    shutil.rmtree(getattr(config, "colorlab_tables_folder", ""), ignore_errors=True)

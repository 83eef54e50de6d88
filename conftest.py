"""What a whole test run shares, the notebooks included.

A lesson or page that opens the class's table store (the teacher's page, the lobby) must never
touch the tables of the machine it runs on: the run points COLORLAB_TABLES at a throwaway file.

The game-AI modules need the optional `ai` extra (`make test` installs it); without it their
doctests are not collected, and their tests say they were skipped.

The lessons' own checks (every notebook, run by nbmake, and the README's examples) are marked
`notebook`, so that `make quick` can leave them out. `--hypothesis-profile=quick` (what `make quick`
passes) tries a tenth of the examples: see tests/helpers/examples.py.
"""

import importlib.util
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

from colorlab.classroom.class_store import STORE_VARIABLE

AI_MODULES = {
    "colorlab/openspiel.py": "pyspiel",
    "colorlab/spiel.py": "pyspiel",
    "colorlab/colorfox/spiel.py": "pyspiel",
    "colorlab/colorium/spiel.py": "pyspiel",
    "colorlab/pettingzoo": "pettingzoo",
    "colorlab/pettingzoo/learning.py": "sb3_contrib",  # the rl extra
}
collect_ignore = [path for path, needs in AI_MODULES.items() if importlib.util.find_spec(needs) is None]

# Registered here, not in tests/, so that `--hypothesis-profile=quick` works whatever folder a run collects.
settings.register_profile("quick", max_examples=settings.get_profile("default").max_examples // 10)


def pytest_configure(config):
    config.colorlab_tables_folder = tempfile.mkdtemp(prefix="colorlab-test-tables-")
    os.environ[STORE_VARIABLE] = str(Path(config.colorlab_tables_folder) / "classroom.db")


def pytest_unconfigure(config):
    shutil.rmtree(getattr(config, "colorlab_tables_folder", ""), ignore_errors=True)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    """Mark the lessons' own checks `notebook` (before -m selects): the notebooks and the README's examples."""
    for item in items:
        if item.path.suffix == ".ipynb" or item.path.name == "README.md":
            item.add_marker(pytest.mark.notebook)

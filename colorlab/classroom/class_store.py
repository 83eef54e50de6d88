"""Where a class's tables live, and where its teacher key is kept, for every page the classroom server serves.

The server (``make classroom``) tells its kernels where the store is through the
environment: ``COLORLAB_TABLES`` holds a file path or a PostgreSQL URL, and
``COLORLAB_TEACHER_KEY`` the key that opens the teacher's page. Without it
the store is a SQLite file in the user's own colorlab folder, never inside the
folder of lessons that is served to the class, so it can never be downloaded.
"""

from __future__ import annotations

import os
from pathlib import Path

from colorlab.tables.store import TableStore

STORE_VARIABLE = "COLORLAB_TABLES"
TEACHER_KEY_VARIABLE = "COLORLAB_TEACHER_KEY"
CLASS_VARIABLE = "COLORLAB_CLASS"  # on a school's hub: which class's tables the kernels of a class's service use
# Set by the class server for its kernels: the short address learners type (it holds the class key), and the
# projector page's address (shown on the teacher's page, which only the teacher key opens).
CLASS_ADDRESS_VARIABLE = "COLORLAB_CLASS_ADDRESS"
PROJECTOR_ADDRESS_VARIABLE = "COLORLAB_PROJECTOR_ADDRESS"

LOBBY_PAGE = "classroom/lobby.ipynb"  # the class's pages, in the served folder of lessons
TEACHER_PAGE = "classroom/teacher.ipynb"
PROJECTOR_PAGE = "classroom/projector.ipynb"


def default_store_path() -> Path:
    """Where does a class's SQLite store live when nobody says: ~/.colorlab/classroom.db."""
    return Path.home() / ".colorlab" / "classroom.db"


def class_store(where: str | Path | None = None, class_name: str | None = None) -> TableStore:
    """The class's table store: `where`, else $COLORLAB_TABLES, else the default SQLite file; the tables of the class
    `class_name` (else $COLORLAB_CLASS, else the only class there is) in a school's database."""
    where = where or os.environ.get(STORE_VARIABLE) or default_store_path()
    if "://" not in str(where):
        Path(where).expanduser().parent.mkdir(parents=True, exist_ok=True)
    return TableStore(where, class_name or os.environ.get(CLASS_VARIABLE) or None)

"""colorlab: exact models of four colour games, and lessons built on them.

Games and tools are loaded on first use, so that ``import colorlab`` stays quick:

>>> import colorlab
>>> colorlab.colorform.figure("red star")
Figure('red star')
"""

import importlib

__version__ = "0.1.0"

_SUBMODULES = (
    "agents",
    "colorfox",
    "colorform",
    "colorium",
    "colourbrain",
    "games",
    "palette",
    "record",
    "rules",
    "symmetry",
    "widgets",
)

__all__ = list(_SUBMODULES)


def __getattr__(name: str):
    if name in _SUBMODULES:
        return importlib.import_module(f"colorlab.{name}")
    raise AttributeError(f"module 'colorlab' has no attribute {name!r}")


def __dir__():
    return sorted(list(globals()) + list(_SUBMODULES))

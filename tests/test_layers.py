"""The house's floors, read from the code's own imports: each floor imports only the floors below it.

Floors, from the ground up (docs/building.md): the core, which knows no game; the services every game
uses, which name none; the games, each knowing only itself; on top the classroom and the game-AI
bridges, which reach the games only through their declarations. Every import counts, also one made
inside a function, since it is an arrow all the same. No module may import itself round a circle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[1] / "colorlab"
CORE = {"palette", "rules", "games", "state", "record", "archive", "search", "symmetry", "encoding", "spiel", "lessons"}
SERVICES = {"agents", "experiments", "class_games", "tables", "widgets"}
GAMES = {"colorfox", "colorium", "colorform", "colourbrain"}
TOP = {"classroom", "openspiel", "pettingzoo"}
FLOORS = {**dict.fromkeys(CORE, 0), **dict.fromkeys(SERVICES, 1), **dict.fromkeys(GAMES, 2), **dict.fromkeys(TOP, 3)}


def module_name(path: Path) -> str:
    """The dotted name of a module file of the package (a package's __init__ is the package)."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imported(name: str) -> set[str]:
    """Which colorlab modules does this module import, anywhere in it (``from pkg import sub`` is the submodule)?"""
    found = set()
    for node in ast.walk(ast.parse(MODULES[name].read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found |= {
                f"{node.module}.{alias.name}" if f"{node.module}.{alias.name}" in MODULES else node.module
                for alias in node.names
            }
    return {module for module in found if module in MODULES and module != name}


def room(name: str) -> str:
    """The top-level part of colorlab a module belongs to ('tables', 'colorfox', 'record', ...)."""
    return name.split(".")[1] if "." in name else ""


ARROWS = {name: imported(name) for name in MODULES}


def test_every_part_of_the_package_stands_on_a_floor():
    assert {room(name) for name in MODULES} - {""} == set(FLOORS)


@pytest.mark.parametrize("name", [name for name in MODULES if room(name)])
def test_a_module_imports_only_its_own_floor_or_lower_and_no_other_game(name):
    floor = FLOORS[room(name)]
    for other in ARROWS[name]:
        if not room(other):
            continue
        assert FLOORS[room(other)] <= floor, f"{name} (floor {floor}) imports {other}, a floor above it"
        if room(other) in GAMES:
            assert room(other) == room(name), f"{name} imports another game's module, {other}"


def test_the_table_engine_imports_no_widget():
    for name in MODULES:
        if room(name) == "tables":
            assert not {other for other in ARROWS[name] if room(other) == "widgets"}, name


def test_no_module_imports_itself_round_a_circle():
    def circle_from(start: str) -> list[str] | None:
        path, seen = [start], set()

        def walk(name: str) -> list[str] | None:
            for other in sorted(ARROWS[name]):
                if other == start:
                    return [*path, other]
                if other not in seen:
                    seen.add(other)
                    path.append(other)
                    found = walk(other)
                    if found:
                        return found
                    path.pop()
            return None

        return walk(start)

    circles = [found for name in MODULES if room(name) and (found := circle_from(name))]
    assert not circles, " -> ".join(circles[0])

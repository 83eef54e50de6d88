"""Col-Or-Form's cards: 36 figure cards and 30 task cards.

A figure is a shape in a colour. Figures are small integers underneath
(``6 * shape + colour``) so that the solver can compare and hash them quickly,
but they print and parse as words such as ``"red star"``.

The task deck is made by :func:`generate_task_cards`, a seeded generator whose
output is checked into ``data/task_cards.json``; a test makes it again and
compares.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import random
from functools import cache, cached_property
from pathlib import Path

from colorlab.palette import Colour, colour

DATA = Path(__file__).parent / "data"


def _figure_data() -> dict:
    data = json.loads((DATA / "figure_cards.json").read_text(encoding="utf-8"))
    shapes, colours = data["shapes"], data["colours"]
    if len(shapes) != 6 or len(set(colours)) != 6 or set(data["paths"]) != set(shapes):
        raise ValueError("figure_cards.json must name 6 shapes, each with a path, and 6 distinct colours")
    return data


_DATA = _figure_data()

Shape = enum.Enum("Shape", [(name.upper(), name) for name in _DATA["shapes"]])
Shape.__doc__ = "One of the six shapes on Col-Or-Form's figure cards."
Shape.__str__ = lambda self: self.value

SHAPES: tuple[Shape, ...] = tuple(Shape)
COLOURS: tuple[Colour, ...] = tuple(colour(name) for name in _DATA["colours"])
SHAPE_SYMBOLS: dict[Shape, str] = {Shape(name): symbol for name, symbol in _DATA["shapes"].items()}
SHAPE_PATHS: dict[str, str] = dict(_DATA["paths"])


class Figure(int):
    """A shape in a colour: one of the 36 figure cards.

    Examples
    ========

    >>> from colorlab.colorform.components import figure
    >>> star = figure("red star")
    >>> star.shape, star.colour
    (<Shape.STAR: 'star'>, <Colour.RED: 'red'>)
    >>> str(star)
    'red star'
    """

    __slots__ = ()

    @classmethod
    def of(cls, shape: Shape, hue: Colour) -> Figure:
        """Which figure has this shape and this colour?"""
        if hue not in COLOURS:
            raise ValueError(f"{hue} is not a Col-Or-Form colour; choose one of {', '.join(map(str, COLOURS))}")
        return FIGURES[SHAPES.index(shape) * 6 + COLOURS.index(hue)]

    @property
    def shape(self) -> Shape:
        return SHAPES[self // 6]

    @property
    def colour(self) -> Colour:
        return COLOURS[self % 6]

    @property
    def symbol(self) -> str:
        """Which character draws this figure's shape?"""
        return SHAPE_SYMBOLS[self.shape]

    def __str__(self) -> str:
        return f"{self.colour} {self.shape}"

    def __repr__(self) -> str:
        return f"Figure({str(self)!r})"


FIGURES: tuple[Figure, ...] = tuple(Figure(i) for i in range(36))


FIGURES_BY_NAME: dict[str, Figure] = {str(fig): fig for fig in FIGURES}


def figure(text: str | Figure) -> Figure:
    """Which figure does a phrase like ``"red star"`` name?"""
    if isinstance(text, Figure):
        return text
    if isinstance(text, str) and text in FIGURES_BY_NAME:
        return FIGURES_BY_NAME[text]
    return _parse_figure(text)


def _parse_figure(text: str) -> Figure:
    """Read any spelling of a figure (capitals, extra spaces, colour codes), or say what is wrong."""
    if not isinstance(text, str):
        raise ValueError(f"{text!r} is not a figure; write it like 'red star'")
    words = text.lower().split()
    if len(words) != 2:
        raise ValueError(f"{text!r} is not a figure; write a colour and a shape, like 'red star'")
    try:
        shape = Shape(words[1])
    except ValueError:
        raise ValueError(f"{words[1]!r} is not a shape; choose one of {', '.join(map(str, SHAPES))}") from None
    return Figure.of(shape, colour(words[0]))


Grid = tuple  # nine entries, row by row from the top left: a Figure or None (a white cell)


@dataclasses.dataclass(frozen=True)
class TaskCard:
    """A numbered task card: figures on some cells of a 3x3 grid, the rest white."""

    number: int
    cells: Grid

    @cached_property
    def figures(self) -> tuple[tuple[int, Figure], ...]:
        """Which (cell, figure) pairs does the card show?"""
        return tuple((cell, fig) for cell, fig in enumerate(self.cells) if fig is not None)

    @cached_property
    def size(self) -> int:
        """How many figures does the card show (its points)?"""
        return len(self.figures)

    @cached_property
    def images(self) -> dict[tuple[bool, bool], tuple]:
        """For each (rotations, mirrors) rule pair: (rotation, mirrored, (cell, figure) pairs) per allowed turn."""
        return {
            rules: tuple(
                (k, m, tuple((destination[cell], fig) for cell, fig in self.figures)) for k, m, destination in allowed
            )
            for rules, allowed in TRANSFORMS.items()
        }

    @cached_property
    def image_bits(self) -> dict[tuple[bool, bool], tuple]:
        """The same images, each with its pairs as bits: bit ``36 * cell + figure`` (what the solver tests)."""
        return {
            rules: tuple((k, m, placed, sum(1 << (36 * cell + fig) for cell, fig in placed)) for k, m, placed in images)
            for rules, images in self.images.items()
        }

    @cached_property
    def turns(self) -> dict[tuple[bool, bool], tuple]:
        """The same images as ((task, rotation, mirrored, pairs), bits): the first part names a turn for the solver."""
        return {
            rules: tuple(((self, k, m, placed), bits) for k, m, placed, bits in images)
            for rules, images in self.image_bits.items()
        }

    @cached_property
    def turn_bits(self) -> dict[tuple[int, bool], int]:
        """For each (rotation, mirrored): the turned card's (cell, figure) pairs as bits, as in ``image_bits``."""
        return {(k, m): bits for k, m, _, bits in self.image_bits[True, True]}

    def __str__(self) -> str:
        return draw_grid(self.cells)


def draw_grid(cells: Grid) -> str:
    """Draw nine cells as three lines of text, ``.`` for a white cell."""
    names = [str(fig) if fig is not None else "." for fig in cells]
    width = max(map(len, names))
    return "\n".join(
        " | ".join(name.ljust(width) for name in names[row * 3 : row * 3 + 3]).rstrip() for row in range(3)
    )


def quarter_turn(cell: int) -> int:
    """Where does a cell go when its card turns a quarter turn clockwise?"""
    row, col = divmod(cell, 3)
    return col * 3 + (2 - row)


def mirror(cell: int) -> int:
    """Where does a cell go when its card is mirrored left to right?"""
    row, col = divmod(cell, 3)
    return row * 3 + (2 - col)


def turned(cells: Grid, quarter_turns: int = 1, mirrored: bool = False) -> Grid:
    """The grid mirrored (if asked), then turned clockwise `quarter_turns` times."""
    result = list(cells)
    if mirrored:
        result = [result[mirror(cell)] for cell in range(9)]
    for _ in range(quarter_turns % 4):
        turned_once = [None] * 9
        for cell, fig in enumerate(result):
            turned_once[quarter_turn(cell)] = fig
        result = turned_once
    return tuple(result)


def transform_cells(quarter_turns: int, mirrored: bool) -> tuple[int, ...]:
    """Where does each cell of a task card land after `quarter_turns` (after a mirror, if asked)?"""
    destination = []
    for cell in range(9):
        place = mirror(cell) if mirrored else cell
        for _ in range(quarter_turns):
            place = quarter_turn(place)
        destination.append(place)
    return tuple(destination)


DESTINATIONS: dict[tuple[int, bool], tuple[int, ...]] = {
    (k, m): transform_cells(k, m) for k in range(4) for m in (False, True)
}

# For each (rotations allowed, mirrors allowed): the allowed (rotation, mirrored, destination).
TRANSFORMS: dict[tuple[bool, bool], tuple[tuple[int, bool, tuple[int, ...]], ...]] = {
    (rotations, mirrors): tuple(
        (k, m, DESTINATIONS[k, m])
        for m in ((False, True) if mirrors else (False,))
        for k in (range(4) if rotations else (0,))
    )
    for rotations in (False, True)
    for mirrors in (False, True)
}


TASK_SIZES = {2: 6, 3: 10, 4: 8, 5: 6}
TASK_SEED = 20261129


def generate_task_cards(seed: int = TASK_SEED, sizes: dict[int, int] = TASK_SIZES) -> list[TaskCard]:
    """Deal a task deck: `sizes[n]` cards with n distinct figures each, none equal after a turn."""
    rng = random.Random(seed)
    seen: set[Grid] = set()
    cards = []
    for size, count in sorted(sizes.items()):
        made = 0
        while made < count:
            grid = [None] * 9
            for cell, fig in zip(rng.sample(range(9), size), rng.sample(FIGURES, size)):
                grid[cell] = fig
            images = {turned(tuple(grid), k) for k in range(4)}
            if images & seen:
                continue
            seen |= images
            made += 1
            cards.append(TaskCard(len(cards) + 1, tuple(grid)))
    return cards


def task_cards_to_json(cards: list[TaskCard]) -> str:
    """Write task cards as readable JSON: each card's grid as three rows of names."""
    rows = [
        {
            "number": card.number,
            "rows": [[None if fig is None else str(fig) for fig in card.cells[r * 3 : r * 3 + 3]] for r in range(3)],
        }
        for card in cards
    ]
    return json.dumps({"task_cards": rows}, indent=1) + "\n"


def parse_task_cards(text: str) -> list[TaskCard]:
    """Read and check task cards written by :func:`task_cards_to_json`."""
    cards = []
    for entry in json.loads(text)["task_cards"]:
        rows = entry["rows"]
        if len(rows) != 3 or any(len(row) != 3 for row in rows):
            raise ValueError(f"task card {entry['number']} is not a 3x3 grid")
        cells = tuple(None if name is None else figure(name) for row in rows for name in row)
        cards.append(TaskCard(int(entry["number"]), cells))
    numbers = [card.number for card in cards]
    if numbers != list(range(1, len(cards) + 1)):
        raise ValueError("task cards must be numbered 1, 2, 3, ... in order")
    return cards


@cache
def task_cards() -> tuple[TaskCard, ...]:
    """The 30 task cards of the colorlab edition, from the data file."""
    return tuple(parse_task_cards((DATA / "task_cards.json").read_text(encoding="utf-8")))


def task_card(number: int) -> TaskCard:
    """Which task card has this number?"""
    cards = task_cards()
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(cards):
        raise ValueError(f"there is no task card {number!r}; cards are numbered 1 to {len(cards)}")
    return cards[number - 1]

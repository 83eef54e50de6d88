"""Colorium's shapes: the die's six faces, their orientations, where they can rest, and cuts.

A shape is a set of (row, col) cells, row 0 at the top, slid so that its smallest row and
column are 0 (see `colorlab.symmetry.normalise`). The faces of the shape die are data,
drawn as pictures in ``data/shapes.json``: I (four in a line), O (the 2 x 2 square), T, L,
S (the skew tetromino) and V (three cells in an L).

A player may turn a shape and mirror it, so a face stands for all of its *orientations*:
its distinct images under the dihedral group D4, or under the quarter turns C4 alone when
mirror images are not allowed. The square has one orientation, the L all eight.

Where may a shape be drawn? It comes from above the board and must come to rest: at least
one of its cells stands on the bottom row or directly on a filled space. Under the drop
rule "slide" it may move down, left and right through empty spaces on its way (never up,
never turning), so it can slip under an overhang; under "straight" it falls down in one
column position and stops where it first lands.

How the resting places are found
================================

A *position* of an orientation is where the top-left corner of its bounding box stands;
the shape then covers the cells (row + dr, col + dc). Positions are bits, numbered like the
spaces of ``Board.mask`` (bit ``row * width + col``), with a few empty rows on top for the
shape to come in from and a filled row below for the floor. The positions of all
orientations sit side by side in one integer, one block of rows each, so that a single
integer operation works on every position of every orientation at once:

- the positions blocked by filled spaces are the board shifted back by each cell's offset;
- a position is supported when the same position one row lower is blocked;
- moving every position one row down, or one column across, is a shift by the width, or 1;
- the positions reachable from above are a flood fill that fills down, then sideways, then
  down again until no position one step aside is new; each fill moves in doubling steps
  (1, 2, 4, ... rows), so that 8 rows take 4 steps.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Iterator, Sequence
from functools import cached_property, lru_cache
from pathlib import Path

from colorlab.colorium.board import Board
from colorlab.colorium.rules import Rules
from colorlab.symmetry import normalise, render_shape, shape_images

DATA = Path(__file__).parent / "data"
SHAPES_FILE = DATA / "shapes.json"

Cell = tuple[int, int]
Shape = frozenset[Cell]


def read_picture(picture: Sequence[str]) -> Shape:
    """Which cells does a picture show: rows of '#' (a cell) and '.' (a gap), top row first?

    Examples
    ========

    >>> from colorlab.colorium.shapes import read_picture
    >>> sorted(read_picture(["#.", "##"]))
    [(0, 0), (1, 0), (1, 1)]
    """
    if not picture or any(len(row) != len(picture[0]) for row in picture):
        raise ValueError(f"a shape's picture needs rows of one length; got {list(picture)!r}")
    if set("".join(picture)) - set("#."):
        raise ValueError(f"draw a shape with '#' (a cell) and '.' (a gap); got {list(picture)!r}")
    return frozenset((r, c) for r, row in enumerate(picture) for c, char in enumerate(row) if char == "#")


def is_connected(cells: Iterable[Cell]) -> bool:
    """Can every cell be reached from every other by steps across shared edges?

    Examples
    ========

    >>> from colorlab.colorium.shapes import is_connected
    >>> is_connected({(0, 0), (0, 1)}), is_connected({(0, 0), (1, 1)})
    (True, False)
    """
    cells = set(cells)
    if not cells:
        return False
    start = next(iter(cells))
    reached, frontier = {start}, [start]
    while frontier:
        r, c = frontier.pop()
        for neighbour in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if neighbour in cells and neighbour not in reached:
                reached.add(neighbour)
                frontier.append(neighbour)
    return reached == cells


def _load_shapes() -> dict[str, Shape]:
    """Read the die's faces, checking that each is one capital letter and a connected picture."""
    pictures = json.loads(SHAPES_FILE.read_text(encoding="utf-8"))["shapes"]
    shapes = {}
    for letter, picture in pictures.items():
        if len(letter) != 1 or not letter.isupper():
            raise ValueError(f"{SHAPES_FILE.name}: name each shape with one capital letter; got {letter!r}")
        cells = read_picture(picture)
        if not cells or render_shape(cells) != "\n".join(picture):
            raise ValueError(
                f"{SHAPES_FILE.name}: shape {letter} must fill its picture, with no blank row or column at an edge"
            )
        if not is_connected(cells):
            raise ValueError(f"{SHAPES_FILE.name}: the cells of shape {letter} must be connected edge to edge")
        shapes[letter] = cells
    return shapes


SHAPES: dict[str, Shape] = _load_shapes()


def shape_cells(shape: str | Iterable[Cell]) -> Shape:
    """Which normalised cells make this shape, given as a letter of SHAPES or as its cells?

    Examples
    ========

    >>> from colorlab.colorium.shapes import shape_cells
    >>> sorted(shape_cells("V"))
    [(0, 0), (1, 0), (1, 1)]
    >>> sorted(shape_cells({(5, 3), (5, 4)}))
    [(0, 0), (0, 1)]
    """
    if isinstance(shape, str):
        if shape not in SHAPES:
            raise ValueError(f"unknown shape {shape!r}: use one of {', '.join(SHAPES)}, or a set of (row, col) cells")
        return SHAPES[shape]
    cells = frozenset(shape)
    if not is_connected(cells):
        raise ValueError(f"a shape needs at least one cell, all connected edge to edge; got {sorted(cells)}")
    return normalise(cells)


@lru_cache(maxsize=256)
def _orientations(cells: Shape, mirror_images: bool) -> tuple[Shape, ...]:
    """The distinct normalised images of normalised cells, sorted by their sorted cells."""
    return tuple(shape_images(cells, "dihedral" if mirror_images else "rotations"))


def orientations(shape: str | Iterable[Cell], mirror_images: bool = True) -> list[Shape]:
    """List a shape's distinct orientations, turned (and mirrored when allowed), in a fixed order.

    The order is that of `colorlab.symmetry.shape_images`: by the sorted cells. Without
    mirror images the list is a different one, of the quarter turns alone.

    Examples
    ========

    >>> from colorlab.colorium.shapes import SHAPES, orientations
    >>> {letter: len(orientations(letter)) for letter in SHAPES}
    {'I': 2, 'O': 1, 'T': 4, 'L': 8, 'S': 4, 'V': 4}
    >>> len(orientations("L", mirror_images=False)), len(orientations("S", mirror_images=False))
    (4, 2)
    >>> from colorlab.symmetry import render_shape
    >>> [render_shape(image).split() for image in orientations("S")]
    [['##.', '.##'], ['#.', '##', '.#'], ['.##', '##.'], ['.#', '##', '#.']]
    """
    return list(_orientations(shape_cells(shape), mirror_images))


@dataclasses.dataclass(frozen=True)
class Placement:
    """One resting place of a shape on a board: the orientation used and the cells covered.

    `shape` is the shape's letter (or its normalised cells, for a shape given as cells);
    `orientation` indexes `orientations(shape, rules.mirror_images)`; `cells` are board
    cells, row 0 at the top; `mask` is the same cells as bits ``row * width + col``, like
    ``Board.mask``.
    """

    shape: str | Shape
    orientation: int
    cells: Shape
    mask: int

    @cached_property
    def sorted_cells(self) -> tuple[Cell, ...]:
        """The cells in order, as a drawing holds them (kept: the same placement is drawn in many games)."""
        return tuple(sorted(self.cells))

    @cached_property
    def drawings(self) -> dict:
        """The drawings made at this place so far, by (player, die shape, colour, cuts).

        A memo, not game state: a random playout lists every drawing a player may make, and
        the same placements come back game after game, so each drawing is made once.
        """
        return {}


def _doubling_steps(distance: int) -> tuple[int, ...]:
    """Which steps 1, 2, 4, ... add up to at least this distance?"""
    steps, covered = [], 0
    while covered < distance:
        steps.append(1 << len(steps))
        covered += steps[-1]
    return tuple(steps)


@dataclasses.dataclass(frozen=True)
class _Positions:
    """Every position of every orientation of one shape on boards of one size, as bit masks.

    Block k holds orientation k: empty rows on top (as many as the tallest orientation
    needs), then the board's rows, then the floor. In it, bit ``(row + top) * width + col``
    is the position (row, col); row is negative while the shape is still above the board.
    """

    width: int
    top_bits: int  # the empty rows above the board, in bits
    floor: int  # the filled row below the board, in one block
    block: int  # every bit of one block
    copies: int  # a 1 at the start of each block: multiplying by it copies one block into all
    cell_shifts: tuple[tuple[int, int], ...]  # (a cell's offset in bits, the positions of orientations with it)
    free_to_be: int  # positions inside the board's walls and not below its floor
    entry: int  # the positions just above the board, where a shape comes in
    on_board: int  # positions with every cell on the board
    down_steps: tuple[int, ...]  # doubling moves down, in bits
    side_steps: tuple[int, ...]  # doubling moves across, in bits
    not_first_column: int
    not_last_column: int
    found_at: tuple[Placement | None, ...]  # indexed by bit_length() of a position's bit
    bit_at: dict[Shape, int]  # the bit of the position covering these cells

    def blocked(self, filled: int) -> int:
        """Which positions overlap these filled spaces, given as one block?"""
        copies = filled * self.copies
        blocked = 0
        for shift, positions in self.cell_shifts:
            blocked |= (copies >> shift) & positions
        return blocked

    def landings(self, board_mask: int) -> int:
        """Which positions does each orientation land at, falling straight down, wholly on the board?"""
        # A falling shape meets the top filled space of each column first, so the spaces below
        # it may as well be filled: then every position above the first blocked one is free.
        shadow = (board_mask << self.top_bits) | self.floor
        for step in self.down_steps:
            shadow |= shadow << step
        blocked = self.blocked(shadow & self.block)
        return self.on_board & ~blocked & (blocked >> self.width)

    def resting_places(self, board_mask: int) -> int:
        """Which supported positions can a shape reach from above, moving down, left and right?"""
        blocked = self.blocked((board_mask << self.top_bits) | self.floor)
        free = self.free_to_be & ~blocked
        to_right, to_left = free & self.not_first_column, free & self.not_last_column
        downs = _occluded_moves(free, self.down_steps)
        sideways = None
        reached = self.entry
        while True:
            for step, open_positions in downs:
                reached |= (reached << step) & open_positions
            # Closed under one step aside too? Then nothing more is reachable. On most boards the
            # first fill down is already closed, and this test is quicker than a fill sideways.
            if not ((reached << 1) & to_right | (reached >> 1) & to_left) & ~reached:
                return reached & (blocked >> self.width) & self.on_board
            if sideways is None:
                sideways = (
                    _occluded_moves(to_right, self.side_steps),
                    _occluded_moves(to_left, self.side_steps, leftwards=True),
                )
            rights, lefts = sideways
            for step, open_positions in rights:
                reached |= (reached << step) & open_positions
            for step, open_positions in lefts:
                reached |= (reached >> step) & open_positions

    def placements_at(self, positions: int) -> list[Placement]:
        """List the placements at these position bits, lowest bit first."""
        found_at = self.found_at
        found = []
        while positions:
            lowest = positions & -positions
            found.append(found_at[lowest.bit_length()])
            positions ^= lowest
        return found


def _occluded_moves(free: int, steps: tuple[int, ...], leftwards: bool = False) -> list[tuple[int, int]]:
    """Pair each doubling step with the positions it may reach: free, and free all the way back.

    A step of 2 may land on a position only when it and the one before it are free, a step
    of 4 only when the four before are free, and so on ("occluded fill"). Moves go to higher
    bits (down, right), or to lower bits when `leftwards`.
    """
    moves = []
    for step in steps:
        moves.append((step, free))
        free &= (free >> step) if leftwards else (free << step)
    return moves


def _position_bits(rows: range, columns: range, width: int, start: int) -> int:
    """Which bits are the positions in these rows and columns, row 0 starting at bit `start`?"""
    return sum(1 << (start + row * width + col) for row in rows for col in columns)


@lru_cache(maxsize=256)
def _positions(width: int, height: int, mirror_images: bool, shape: str | Shape) -> _Positions:
    """Work out, once per board size, the bit masks of every position of every orientation."""
    images = _orientations(shape_cells(shape), mirror_images)
    top = max(1 + max(r for r, _ in image) for image in images)
    block_bits = (top + height + 1) * width
    first_column = sum(1 << (row * width) for row in range((top + height + 1) * len(images)))
    cell_shifts: dict[int, int] = {}
    free_to_be = entry = on_board = 0
    found_at: list[Placement | None] = [None] * (block_bits * len(images) + 1)
    bit_at: dict[Shape, int] = {}
    for k, image in enumerate(images):
        tall = 1 + max(r for r, _ in image)
        columns = range(width - max(c for _, c in image))
        start = k * block_bits + top * width
        free_to_be |= _position_bits(range(-tall, height - tall + 1), columns, width, start)
        entry |= _position_bits(range(-tall, -tall + 1), columns, width, start)
        on_board |= _position_bits(range(height - tall + 1), columns, width, start)
        near = _position_bits(range(-tall, height - tall + 2), columns, width, start)
        for dr, dc in image:
            shift = dr * width + dc
            cell_shifts[shift] = cell_shifts.get(shift, 0) | near
        for row in range(height - tall + 1):
            for col in columns:
                cells = frozenset((row + dr, col + dc) for dr, dc in image)
                mask = sum(1 << (r * width + c) for r, c in cells)
                bit = k * block_bits + (row + top) * width + col
                found_at[bit + 1] = Placement(shape, k, cells, mask)
                bit_at[cells] = 1 << bit
    return _Positions(
        width=width,
        top_bits=top * width,
        floor=((1 << width) - 1) << ((top + height) * width),
        block=(1 << block_bits) - 1,
        copies=sum(1 << (k * block_bits) for k in range(len(images))),
        cell_shifts=tuple(sorted(cell_shifts.items())),
        free_to_be=free_to_be,
        entry=entry,
        on_board=on_board,
        down_steps=tuple(step * width for step in _doubling_steps(height)),
        side_steps=_doubling_steps(width - 1),
        not_first_column=~first_column,
        not_last_column=~(first_column << (width - 1)),
        found_at=tuple(found_at),
        bit_at=bit_at,
    )


def placements(board: Board, shape: str | Iterable[Cell], rules: Rules = Rules()) -> list[Placement]:
    """List every place where the shape can come to rest on the board, in every allowed orientation.

    Under ``rules.drop == "slide"`` the shape comes in above the board at any column and
    moves down, left and right through empty spaces (never up, never turning); it may
    rest wherever at least one of its cells stands on the bottom row or directly on a
    filled space. Under "straight" it only falls, at each column position, and rests where
    it first lands; it must then lie wholly on the board. The list is sorted by
    orientation, then by cells.

    Examples
    ========

    The square slips under the overhang when it may slide, and only falls beside it
    when it may not:

    >>> from colorlab.colorium import Board, Rules
    >>> from colorlab.colorium.shapes import placements
    >>> board = Board.parse('''
    ...     R...
    ...     RR..
    ...     ....
    ...     ....
    ... ''')
    >>> [sorted(place.cells) for place in placements(board, "O")]
    [[(2, 0), (2, 1), (3, 0), (3, 1)], [(2, 1), (2, 2), (3, 1), (3, 2)], [(2, 2), (2, 3), (3, 2), (3, 3)]]
    >>> print(board.filled(placements(board, "O")[0].cells, "B", "O"))
    R...
    RR..
    BB..
    BB..
    >>> [sorted(place.cells) for place in placements(board, "O", Rules(drop="straight"))]
    [[(2, 2), (2, 3), (3, 2), (3, 3)]]

    On an empty 8 x 8 board the I lies flat at 5 places and stands upright at 8:

    >>> len(placements(Board.empty(), "I"))
    13
    """
    key = shape if isinstance(shape, str) else shape_cells(shape)
    return list(known_placements(board.width, board.height, board.mask, key, rules.mirror_images, rules.drop))


@lru_cache(maxsize=4096)
def known_placements(
    width: int, height: int, mask: int, shape: str | Shape, mirror_images: bool, drop: str
) -> tuple[Placement, ...]:
    """Find the placements of `placements`, once per board: a game asks about one board many times.

    Can each player still draw? Which drawings may it make? Replaying a record asks it all
    again. Kept as objects, so that the drawings made at a place (``Placement.drawings``) are kept
    with it; the search itself is ``resting_places``, which keeps its own answers per board.
    """
    return tuple(resting_places(width, height, mask, shape, mirror_images, drop))


class RestingPlaces(Sequence):
    """The placements of a shape on one board, kept as position bits: each is made only when looked at.

    A random bot looks at one placement, and the model asks whether there is any, or whether a
    drawing covers one: finding the n-th position bit, or testing one, is quicker than listing
    every placement.
    """

    def __init__(self, positions: _Positions, found: int):
        self.positions, self.found, self.length = positions, found, found.bit_count()

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, index: int) -> Placement:
        if not 0 <= index < self.length:
            raise IndexError(f"there are {self.length} placements, not {index + 1}")
        found = self.found
        for _ in range(index):
            found &= found - 1  # drop the lowest position
        return self.positions.found_at[(found & -found).bit_length()]

    def __iter__(self) -> Iterator[Placement]:
        return iter(self.positions.placements_at(self.found))

    def corners(self, first: int = 0) -> dict[int, tuple[int, ...]]:
        """For each orientation that rests somewhere, where the top left corners of its box lie there, as spaces
        ``row * width + col`` (plus `first`), smallest first: read off the position bits, without making the
        placements.

        On an empty 4 x 4 board the I lies flat on the bottom row (its corner on space 12) and stands upright in
        every column; with the bottom row filled it lies on the row above:

        >>> resting_places(4, 4, 0, "I", True, "slide").corners()
        {0: (12,), 1: (0, 1, 2, 3)}
        >>> resting_places(4, 4, 0b1111 << 12, "I", True, "slide").corners()
        {0: (8,)}
        """
        positions = self.positions
        block, top, past = positions.block, positions.top_bits, first - 1  # a bit's length, less one, is its place
        size = block.bit_length()  # one orientation's block of position bits
        found, orientation, corners = self.found, 0, {}
        while found:
            here = (found & block) >> top  # a position's bit, less the empty rows above the board, is its space
            if here:
                spaces = []
                while here:
                    lowest = here & -here
                    spaces.append(lowest.bit_length() + past)
                    here ^= lowest
                corners[orientation] = tuple(spaces)
            found >>= size
            orientation += 1
        return corners

    def covers(self, cells: Shape) -> bool:
        """Does one of these placements cover exactly these cells? (``cells in resting_cells(...)``, quickly.)"""
        return bool(self.found & self.positions.bit_at.get(cells, 0))


@lru_cache(maxsize=4096)
def resting_places(
    width: int, height: int, mask: int, shape: str | Shape, mirror_images: bool, drop: str
) -> RestingPlaces:
    """Find the positions where the shape can rest on this board (see `placements`), once per board."""
    positions = _positions(width, height, mirror_images, shape)
    return RestingPlaces(positions, positions.landings(mask) if drop == "straight" else positions.resting_places(mask))


def placements_lazily(board: Board, shape: str | Iterable[Cell], rules: Rules = Rules()) -> RestingPlaces:
    """The placements of :func:`placements`, in the same order, each made only when it is looked at.

    Examples
    ========

    >>> from colorlab.colorium import Board
    >>> from colorlab.colorium.shapes import placements, placements_lazily
    >>> board = Board.parse('''
    ...     ....
    ...     R...
    ... ''')
    >>> lazy = placements_lazily(board, "V")
    >>> len(lazy), lazy[2] == placements(board, "V")[2], list(lazy) == placements(board, "V")
    (9, True, True)
    """
    key = shape if isinstance(shape, str) else shape_cells(shape)
    return resting_places(board.width, board.height, board.mask, key, rules.mirror_images, rules.drop)


def resting_cells(board: Board, shape: str | Iterable[Cell], rules: Rules = Rules()) -> frozenset[Shape]:
    """Which sets of cells can the shape rest on? (The cells of :func:`placements`.)

    Examples
    ========

    >>> from colorlab.colorium import Board, Rules
    >>> from colorlab.colorium.shapes import placements, resting_cells
    >>> board = Board.parse('''
    ...     R...
    ...     RR..
    ...     ....
    ... ''')
    >>> resting_cells(board, "T") == {place.cells for place in placements(board, "T")}
    True
    >>> frozenset({(2, 2), (2, 3)}) in resting_cells(board, [(0, 0), (0, 1)], Rules(drop="straight"))
    True
    """
    return frozenset(place.cells for place in placements(board, shape, rules))


def scissors(shape: str | Iterable[Cell], cuts: int = 1) -> list[Shape]:
    """List the connected parts that `cuts` straight cuts make of the shape, and fewer cuts cannot.

    The scissors bonus lets a player draw one part of the rolled shape after cutting it
    once along a full grid line between two of its rows or two of its columns. A part is
    offered only when it is connected. With two scissors the part left by the first cut is
    cut again the same way; a part that one cut already gives needs no second cut, so
    ``scissors(shape, 2)`` lists only what one cut cannot make. A part may be drawn in any
    orientation, so parts that are quarter turns of each other are listed once, as their
    first orientation (see :func:`orientations`); the list is smallest first, then by
    sorted cells.

    Examples
    ========

    The square gives two equal dominoes (the same part, listed once), a bar of four
    gives bars of one to three:

    >>> from colorlab.colorium.shapes import scissors
    >>> [sorted(part) for part in scissors("O")]
    [[(0, 0), (0, 1)]]
    >>> [len(part) for part in scissors("I")]
    [1, 2, 3]

    A second cut makes a single space of the square, and a domino of the T:

    >>> [sorted(part) for part in scissors("O", cuts=2)]
    [[(0, 0)]]
    >>> [sorted(part) for part in scissors("T", cuts=2)]
    [[(0, 0), (0, 1)]]

    A cut that leaves two pieces on one side does not give that side:

    >>> from colorlab.symmetry import render_shape
    >>> from colorlab.colorium.shapes import read_picture
    >>> [render_shape(part).split() for part in scissors(read_picture(["#.#", "###"]))]
    [['##'], ['###'], ['##', '#.']]
    """
    if isinstance(cuts, bool) or not isinstance(cuts, int) or cuts < 0:
        raise ValueError(f"cuts must be a whole number from 0 up; got {cuts!r}")
    reached = {_turned_first(shape_cells(shape))}
    newest = set(reached)
    for _ in range(cuts):
        newest = {part for piece in newest for part in _one_cut(piece)} - reached
        reached |= newest
    return sorted(newest, key=lambda part: (len(part), sorted(part)))


@lru_cache(maxsize=256)
def _one_cut(cells: Shape) -> frozenset[Shape]:
    """Which connected parts does one straight cut along a grid line across these cells leave?"""
    cuts = [(axis, line) for axis in (0, 1) for line in range(1, 1 + max(cell[axis] for cell in cells))]
    sides = [
        {cell for cell in cells if (cell[axis] < line) == before} for axis, line in cuts for before in (True, False)
    ]
    return frozenset(_turned_first(normalise(side)) for side in sides if is_connected(side))


def _turned_first(cells: Shape) -> Shape:
    """Which quarter turn of these normalised cells comes first in the order of `orientations`?"""
    return _orientations(cells, False)[0]

"""A player's Colorium board: a grid of coloured spaces, written and read as text.

A board prints as one line per row, top row first, one character per space:
a colour code (R Y G B P O) or ``.`` for an empty space. Row 1 of the rulebook
is the bottom line. Inside, cells are (row, column) with row 0 at the top.

Examples
========

>>> from colorlab.colorium.board import Board
>>> board = Board.parse('''
...     ....
...     .R..
...     RRBB
... ''')
>>> board.width, board.height, board.empty_spaces
(4, 3, 7)
>>> print(board.filled([(0, 0)], "Y"))
Y...
.R..
RRBB
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from functools import cached_property

CODES = "RYGBPO"
EMPTY = "."


@dataclasses.dataclass(frozen=True)
class Board:
    """One player's grid, top row first, and the shapes drawn on it so far."""

    rows: tuple[str, ...]
    drawn: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        rows = tuple(self.rows)
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "drawn", tuple(self.drawn))
        if not rows or not rows[0]:
            raise ValueError("a board needs at least one row and one column")
        if any(len(row) != len(rows[0]) for row in rows):
            raise ValueError("every row of a board must be as long as the first")
        bad = {char for row in rows for char in row} - set(CODES + EMPTY)
        if bad:
            raise ValueError(f"unknown space(s) {''.join(sorted(bad))!r}: use {CODES} or {EMPTY!r}")

    @classmethod
    def parse(cls, text: str, drawn: Iterable[str] = ()) -> Board:
        """Read a board from text: one line per row, top first; blank lines and indents are ignored."""
        rows = tuple(line.strip() for line in text.strip().splitlines() if line.strip())
        return cls(rows, tuple(drawn))

    @classmethod
    def empty(cls, width: int = 8, height: int = 8) -> Board:
        """An empty board of this size."""
        return cls(tuple(EMPTY * width for _ in range(height)))

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def height(self) -> int:
        return len(self.rows)

    def colour(self, row: int, col: int) -> str | None:
        """Which colour code fills this space (None when it is empty)?"""
        char = self.rows[row][col]
        return None if char == EMPTY else char

    @cached_property
    def mask(self) -> int:
        """The filled spaces as one integer: bit ``row * width + col`` is set when filled."""
        width = self.width
        return sum(
            1 << (r * width + c) for r, row in enumerate(self.rows) for c, char in enumerate(row) if char != EMPTY
        )

    @cached_property
    def hues(self) -> dict[str, int]:
        """Each colour on the board, with its spaces as one integer (bit ``row * width + col``), as :attr:`mask`.

        Kept with the board (the missions measure every board a game makes), and not to be changed.

        >>> board = Board(("R.", "RB"))
        >>> {hue: bin(spaces) for hue, spaces in sorted(board.hues.items())}
        {'B': '0b1000', 'R': '0b101'}
        """
        width, hues = self.width, {}
        for r, row in enumerate(self.rows):
            for c, char in enumerate(row):
                if char != EMPTY:
                    hues[char] = hues.get(char, 0) | 1 << (r * width + c)
        return hues

    @property
    def empty_spaces(self) -> int:
        """How many spaces are still empty?"""
        return sum(row.count(EMPTY) for row in self.rows)

    def filled(self, cells: Iterable[tuple[int, int]], colour: str, shape: str | None = None) -> Board:
        """The board with these empty cells coloured (and `shape` added to the drawn shapes)."""
        if len(colour) != 1 or colour not in CODES:
            raise ValueError(f"unknown colour {colour!r}: use one of {CODES}")
        rows, before = list(self.rows), self.mask
        width, height, mask = len(rows[0]), len(rows), before
        for r, c in cells:
            if rows[r][c] != EMPTY:
                raise ValueError(f"space ({r}, {c}) is already filled")
            r, c = r % height, c % width  # a negative index counts from the end, as in indexing
            rows[r] = rows[r][:c] + colour + rows[r][c + 1 :]
            mask |= 1 << (r * width + c)
        # Built without __post_init__'s checks, and with its mask (and colours, when known) worked out from
        # this board's: only empty spaces took one colour code, and a random playout fills many boards.
        board = object.__new__(Board)
        board.__dict__.update(rows=tuple(rows), mask=mask, drawn=self.drawn + ((shape,) if shape else ()))
        hues = self.__dict__.get("hues")
        if hues is not None:
            board.__dict__["hues"] = {**hues, colour: hues.get(colour, 0) | mask ^ before}
        return board

    def full_rows(self) -> list[int]:
        """Which rulebook rows (1 = bottom) have no empty space?"""
        return [self.height - r for r, row in enumerate(self.rows) if EMPTY not in row]

    def full_columns(self) -> list[int]:
        """Which columns (0 = left) have no empty space?"""
        # Every column at once, in a few steps (each round asks it of every board): AND the mask with
        # itself moved up by 1, 2, 4, ... rows, then by the rest (overlapping); a top space still set
        # had every space below it filled.
        width, height, full, span = self.width, self.height, self.mask, 1
        if not full & ((1 << width) - 1):  # the top row is empty: no column is full (half the boards of a game)
            return []
        while 2 * span <= height:
            full &= full >> (span * width)
            span *= 2
        full &= full >> ((height - span) * width)
        return [c for c in range(width) if full >> c & 1]

    def __str__(self) -> str:
        return "\n".join(self.rows)

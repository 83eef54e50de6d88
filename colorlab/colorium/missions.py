"""Colorium's mission cards: what each one asks for, and how it scores every board.

A game uses four missions, one of each type: **lines** (full rows and columns,
diagonals), **colours**, **shapes** and **areas**. A mission is a little data
(an id, its type, a title and a text) plus a **score** function that takes the
boards of all players and gives one score per board. It takes every board
because some missions compare players ("most blue spaces").

The 16 missions of the colorlab edition are written in ``data/missions.json``.
Each entry names a **rule** (one of :data:`RULES`) and the rule's facts, such as
which colours count and for how many points; the rule turns those facts into a
score function. A mission of your own needs no JSON: pass any function from a
list of boards to a list of ints, or wrap a one-board function in :func:`each`.

"Most / next" missions rank players **densely**: everyone tied for the highest
count scores the first value, everyone tied for the next highest count scores
the second, and a count of 0 never scores.

Examples
========

The rulebook's examples: 4 red, 5 yellow and 6 blue spaces score 1 + 1 + 2
points on the red, yellow and blue mission; a purple area of 13 spaces scores
13 // 2 points on the largest-area mission.

>>> from colorlab.colorium.board import Board
>>> from colorlab.colorium.missions import MISSIONS
>>> board = Board.parse('''
...     RRRR....
...     YYYYY...
...     BBBBBB..
... ''')
>>> MISSIONS["colours-1"].score([board])
[4]
>>> purple = Board.parse('''
...     PPPPP...
...     ..P.....
...     PPPPPPP.
... ''')
>>> MISSIONS["areas-2"].score([purple])
[6]

A mission of your own, for the board with the most empty spaces:

>>> from colorlab.colorium.missions import Mission, ranked
>>> def emptiest(boards):
...     return ranked([board.empty_spaces for board in boards], 3, 0)
>>> patience = Mission("mine-1", "areas", "Patience", "Leave the most spaces empty.", emptiest)
>>> patience.score([board, purple])
[0, 3]
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import itertools
import json
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

from colorlab.colorium.board import CODES, EMPTY, Board
from colorlab.colorium.shapes import SHAPES

MISSIONS_FILE = Path(__file__).parent / "data" / "missions.json"

TYPES = ("lines", "colours", "shapes", "areas")
DRAWS = ("random", "first")

Cell = tuple[int, int]
Score = Callable[[Sequence[Board]], list[int]]


@dataclasses.dataclass(frozen=True)
class Mission:
    """A mission card: what it asks for, in words, and how it scores a list of boards."""

    id: str
    type: str
    title: str
    text: str
    score: Score = dataclasses.field(repr=False)

    def __post_init__(self) -> None:
        if not self.id:
            raise ValueError("a mission needs an id")
        if any(mark in self.id for mark in ",;()="):
            raise ValueError(
                f"mission {self.id!r}: an id may not hold any of , ; ( ) =, which separate ids in rules and saved games"
            )
        if self.type not in TYPES:
            raise ValueError(f"mission {self.id}: type {self.type!r} is not one of {', '.join(TYPES)}")
        if not callable(self.score):
            raise TypeError(f"mission {self.id}: score must be a function from boards to scores")


# Shared pieces: the measures that missions count.


def each(points: Callable[[Board], int]) -> Score:
    """Score every board on its own with this one-board function.

    Nothing is kept per board here: the costly measures (areas, rectangles, squares, diagonal runs) are kept per
    colour's spaces, and a board that did not change is measured again from them quickly. (Looking a whole board up
    cost more than that.)

    Examples
    ========

    >>> from colorlab.colorium.board import Board
    >>> from colorlab.colorium.missions import each
    >>> each(lambda board: board.empty_spaces)([Board.parse("R."), Board.parse("..")])
    [1, 2]
    """

    def score(boards: Sequence[Board]) -> list[int]:
        return [points(board) for board in boards]

    return score


def ranked(counts: Sequence[int], first: int, second: int) -> list[int]:
    """Give `first` to every highest count and `second` to every next highest; a count of 0 gets nothing.

    Examples
    ========

    >>> from colorlab.colorium.missions import ranked
    >>> ranked([5, 3, 5, 1], 4, 1)
    [4, 1, 4, 0]
    >>> ranked([2, 0, 0], 4, 1)
    [4, 0, 0]
    """
    top = sorted({count for count in counts if count > 0}, reverse=True)[:2]
    worth = dict(zip(top, (first, second)))
    return [worth.get(count, 0) for count in counts]


def lines(board: Board) -> list[str]:
    """Which rows (top first), then columns (left first), does the board have?

    Examples
    ========

    >>> from colorlab.colorium.board import Board
    >>> from colorlab.colorium.missions import lines
    >>> lines(
    ...     Board.parse('''
    ...     RY
    ...     B.
    ... ''')
    ... )
    ['RY', 'B.', 'RB', 'Y.']
    """
    return list(board.rows) + ["".join(column) for column in zip(*board.rows)]


def diagonal_runs(board: Board) -> list[list[Cell]]:
    """Which maximal single-colour runs lie along a diagonal, in both directions?

    A space may lie in two runs, one in each direction.

    Examples
    ========

    >>> from colorlab.colorium.board import Board
    >>> from colorlab.colorium.missions import diagonal_runs
    >>> runs = diagonal_runs(
    ...     Board.parse('''
    ...     G.G
    ...     .G.
    ...     G.R
    ... ''')
    ... )
    >>> sorted(len(run) for run in runs if len(run) > 1)
    [2, 3]
    """
    rows = board.rows
    runs = []
    for step in (1, -1):
        for line in _diagonals(board.width, board.height, step):
            for hue, run in itertools.groupby(line, key=lambda cell: rows[cell[0]][cell[1]]):
                if hue != EMPTY:
                    runs.append(list(run))
    return runs


def long_diagonal_runs(board: Board, length: int) -> int:
    """How many maximal single-colour diagonal runs of `length` spaces or more has the board?

    The count of :func:`diagonal_runs` at least `length` long.

    Examples
    ========

    >>> from colorlab.colorium.board import Board
    >>> from colorlab.colorium.missions import long_diagonal_runs
    >>> long_diagonal_runs(
    ...     Board.parse('''
    ...     G.G
    ...     .G.
    ...     G.R
    ... '''),
    ...     2,
    ... )
    2
    """
    width, height = board.width, board.height
    return sum([_long_runs(mine, width, height, length) for mine in board.hues.values()])


@functools.lru_cache(maxsize=1 << 12)
def _long_runs(mine: int, width: int, height: int, length: int) -> int:
    """How many maximal diagonal runs of `length` or more has one colour, its spaces given as bits? (Kept per
    colour: a drawing changes one colour of one board, and the others are measured again and again.)"""
    # Each colour's spaces are one integer (bit row * width + col); a run starts on a space whose
    # diagonal neighbour before it has another colour, and is long enough when the next length - 1
    # spaces along the diagonal have its colour: a few shifts per direction.
    not_first, not_last = _column_guards(width, height)
    count = 0
    for step, may_go_on, may_come_from in ((width + 1, not_last, not_first), (width - 1, not_first, not_last)):
        long_enough = mine
        for _ in range(length - 1):
            long_enough = mine & (long_enough >> step) & may_go_on
        starts = mine & ~((mine << step) & may_come_from)
        count += (long_enough & starts).bit_count()
    return count


@functools.lru_cache(maxsize=64)
def _diagonals(width: int, height: int, step: int) -> tuple[tuple[Cell, ...], ...]:
    """Every diagonal going down one row and `step` columns at a time, from its first cell (once per board size)."""
    starts = [(0, c) for c in range(width)] + [(r, 0 if step == 1 else width - 1) for r in range(1, height)]
    diagonals = []
    for r, c in starts:
        line = []
        while 0 <= r < height and 0 <= c < width:
            line.append((r, c))
            r, c = r + 1, c + step
        diagonals.append(tuple(line))
    return tuple(diagonals)


def colour_count(board: Board, colour: str) -> int:
    """How many spaces of this colour does the board have?"""
    return board.hues.get(colour, 0).bit_count()


def largest_rectangle(board: Board) -> int:
    """How many spaces has the largest single-colour rectangle?

    Examples
    ========

    >>> from colorlab.colorium.board import Board
    >>> from colorlab.colorium.missions import largest_rectangle
    >>> largest_rectangle(
    ...     Board.parse('''
    ...     RRR.
    ...     RRRB
    ...     YRRB
    ... ''')
    ... )
    6
    """
    width, height = board.width, board.height
    return max([_largest_rectangle(tops, width, height) for tops in board.hues.values()], default=0)


@functools.lru_cache(maxsize=1 << 12)
def _largest_rectangle(tops: int, width: int, height: int) -> int:
    """The largest rectangle of one colour, its spaces given as bits (kept per colour, as :func:`_long_runs`)."""
    # Measuring every game's rectangles space by space is slow: the colour's spaces are one integer (bit
    # row * width + col). Keeping the spaces with the colour on the next `tall - 1` rows too leaves the tops
    # of columns `tall` high; the widest block of them is how often moving them one column left and keeping
    # the common ones leaves any.
    _, not_last = _column_guards(width, height)
    best = tall = 0
    while tops:
        tall, wide, run = tall + 1, 0, tops
        while run:
            wide, run = wide + 1, run & run >> 1 & not_last
        best = max(best, tall * wide)
        tops &= tops >> width
    return best


def largest_square(board: Board) -> int:
    """How many spaces has the largest single-colour square?

    Examples
    ========

    >>> from colorlab.colorium.board import Board
    >>> from colorlab.colorium.missions import largest_square
    >>> largest_square(
    ...     Board.parse('''
    ...     RRR.
    ...     RRRB
    ...     YRRB
    ... ''')
    ... )
    4
    """
    width, height = board.width, board.height
    return max([_largest_side(corners, width, height) for corners in board.hues.values()], default=0) ** 2


@functools.lru_cache(maxsize=1 << 12)
def _largest_side(corners: int, width: int, height: int) -> int:
    """The side of the largest square of one colour, its spaces given as bits (kept per colour, as
    :func:`_long_runs`)."""
    # As for rectangles, bitwise: a space is the top left corner of a square one side longer when it and
    # its neighbours to the right, below and below right are the corners of squares of the side.
    _, not_last = _column_guards(width, height)
    side = 0
    while corners:
        side += 1
        right = corners >> 1 & not_last
        corners &= right & corners >> width & right >> width
    return side


def areas(board: Board) -> list[set[Cell]]:
    """Which single-colour areas does the board have (spaces joined side to side)?

    Examples
    ========

    >>> from colorlab.colorium.board import Board
    >>> from colorlab.colorium.missions import areas
    >>> sorted(
    ...     len(area)
    ...     for area in areas(
    ...         Board.parse('''
    ...     GG.
    ...     GBG
    ... ''')
    ...     )
    ... )
    [1, 1, 3]
    """
    seen: set[Cell] = set()
    found = []
    for start in itertools.product(range(board.height), range(board.width)):
        if start not in seen and board.colour(*start):
            area = _flood(board.rows, start)
            seen |= area
            found.append(area)
    return found


def area_sizes(board: Board) -> list[int]:
    """How many spaces has each single-colour area of the board (the sizes of :func:`areas`, in some order)?

    Examples
    ========

    >>> from colorlab.colorium.board import Board
    >>> from colorlab.colorium.missions import area_sizes, areas
    >>> board = Board.parse('''
    ...     GG.R
    ...     GBGR
    ...     BBGG
    ... ''')
    >>> sorted(area_sizes(board)), sorted(len(area) for area in areas(board))
    ([2, 3, 3, 3], [2, 3, 3, 3])
    """
    width, height = board.width, board.height
    return [size for left in board.hues.values() for size in _area_sizes(left, width, height)]


@functools.lru_cache(maxsize=1 << 12)
def _area_sizes(left: int, width: int, height: int) -> tuple[int, ...]:
    """The sizes of one colour's areas, its spaces given as bits (kept per colour, as :func:`_long_runs`)."""
    # Scoring every game's areas cell by cell is slow: the colour's spaces are one integer
    # (bit row * width + col), and an area grows from its lowest space by shifts until it stops.
    not_first, not_last = _column_guards(width, height)
    sizes = []
    while left:
        area = left & -left
        while True:
            grown = (area | area << width | area >> width | (area << 1 & not_first) | (area >> 1 & not_last)) & left
            if grown == area:
                break
            area = grown
        sizes.append(area.bit_count())
        left ^= area
    return tuple(sizes)


@functools.lru_cache(maxsize=64)
def _column_bits(width: int, height: int) -> tuple[int, ...]:
    """Each column's spaces as bits (bit ``row * width + col``), once per board size."""
    return tuple(sum(1 << (row * width + col) for row in range(height)) for col in range(width))


@functools.lru_cache(maxsize=64)
def _column_guards(width: int, height: int) -> tuple[int, int]:
    """The spaces outside the first column, and outside the last, as bits (a step across must not wrap)."""
    every = (1 << width * height) - 1
    first = sum(1 << row * width for row in range(height))
    return every & ~first, every & ~(first << width - 1)


def _flood(rows: tuple[str, ...], start: Cell) -> set[Cell]:
    """Which spaces of the start's colour can be reached from it, side to side (rows: the board's)?"""
    height, width = len(rows), len(rows[0])
    hue = rows[start[0]][start[1]]
    area, frontier = {start}, [start]
    while frontier:
        r, c = frontier.pop()
        for row, col in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= row < height and 0 <= col < width and rows[row][col] == hue and (row, col) not in area:
                area.add((row, col))
                frontier.append((row, col))
    return area


# Rules: each turns a mission's facts from the JSON into a score function.


def full_lines(least: int, most: int | None, points: int) -> Score:
    """Score `points` per full row or column with `least` to `most` colours (None: no upper bound)."""
    most = len(CODES) if most is None else most

    def points_for(board: Board) -> int:
        # Most boards have few full lines, and a column is read from the colours' bits only when it is full.
        colours = [len(set(row)) for row in board.rows if EMPTY not in row]
        full = board.full_columns()
        if full:
            columns = _column_bits(board.width, board.height)
            colours += [sum(bool(spaces & columns[c]) for spaces in board.hues.values()) for c in full]
        return points * sum(least <= count <= most for count in colours)

    return each(points_for)


def diagonal_lines(length: int, points: int) -> Score:
    """Score `points` per maximal single-colour diagonal run of at least `length` spaces."""
    return each(lambda board: points * long_diagonal_runs(board, length))


def per_three(colours: str) -> Score:
    """Score a point per three spaces of each of these colours, each colour counted on its own."""
    _check_letters(colours, CODES, "colours")
    return each(lambda board: sum(colour_count(board, hue) // 3 for hue in colours))


def most_colour(colours: str, first: int, second: int) -> Score:
    """For each of these colours, rank the boards by its spaces: `first` for most, `second` for next."""
    _check_letters(colours, CODES, "colours")
    return _most(colours, colour_count, first, second)


def most_shape(shapes: str, first: int, second: int) -> Score:
    """For each of these shapes, rank the boards by how often it is drawn: `first` for most, `second` for next."""
    _check_letters(shapes, "".join(SHAPES), "shapes")
    return _most(shapes, lambda board, shape: board.drawn.count(shape), first, second)


def _most(kinds: str, count: Callable[[Board, str], int], first: int, second: int) -> Score:
    """Rank the boards once per kind by `count`, and add up the ranks' points."""

    def score(boards: Sequence[Board]) -> list[int]:
        points = [0] * len(boards)
        for kind in kinds:
            for p, worth in enumerate(_ranked(tuple([count(board, kind) for board in boards]), first, second)):
                points[p] += worth
        return points

    return score


@functools.lru_cache(maxsize=1 << 12)
def _ranked(counts: tuple[int, ...], first: int, second: int) -> tuple[int, ...]:
    """:func:`ranked`, kept: the same few counts are ranked again and again in a game."""
    return tuple(ranked(counts, first, second))


def per_shape(shapes: str, points: int) -> Score:
    """Score `points` per drawn shape that is one of these."""
    _check_letters(shapes, "".join(SHAPES), "shapes")
    return each(lambda board: points * sum(shape in shapes for shape in board.drawn))


def rectangle_size(points: int, per: int) -> Score:
    """Score `points` per `per` spaces of the largest single-colour rectangle (rounded down)."""
    _check_positive(per, "per")
    return each(lambda board: points * (largest_rectangle(board) // per))


def square_size(points: int, per: int) -> Score:
    """Score `points` per `per` spaces of the largest single-colour square (rounded down)."""
    _check_positive(per, "per")
    return each(lambda board: points * (largest_square(board) // per))


def area_size(points: int, per: int) -> Score:
    """Score `points` per `per` spaces of the largest single-colour area (rounded down)."""
    _check_positive(per, "per")
    return each(lambda board: points * (max(area_sizes(board), default=0) // per))


def area_count(size: int, points: int) -> Score:
    """Score `points` per single-colour area of at least `size` spaces."""
    return each(lambda board: points * sum(area >= size for area in area_sizes(board)))


def _check_positive(number: int, what: str) -> None:
    if number < 1:
        raise ValueError(f"{what} must be at least 1; got {number!r}")


def _check_letters(letters: str, allowed: str, what: str) -> None:
    if not isinstance(letters, str) or not letters or set(letters) - set(allowed):
        raise ValueError(f"{what} must be letters from {allowed}; got {letters!r}")


RULES: dict[str, Callable[..., Score]] = {
    rule.__name__: rule
    for rule in (
        full_lines,
        diagonal_lines,
        per_three,
        most_colour,
        most_shape,
        per_shape,
        rectangle_size,
        square_size,
        area_size,
        area_count,
    )
}


# The edition's cards, read from the JSON.


def mission_from(entry: Mapping) -> Mission:
    """Make the mission that this JSON entry describes, or refuse the entry naming what is wrong."""
    facts = dict(entry)
    card = {key: facts.pop(key, None) for key in ("id", "type", "title", "text", "rule")}
    name = card["id"] or "without an id"
    missing = [key for key, value in card.items() if not value]
    if missing:
        raise ValueError(f"mission {name}: missing {', '.join(missing)}")
    rule = RULES.get(card.pop("rule"))
    if rule is None:
        raise ValueError(f"mission {name}: unknown rule {entry['rule']!r}; choose one of {', '.join(RULES)}")
    numbers = {key: value for key, value in facts.items() if not isinstance(value, str | None)}
    if any(type(value) is not int for value in numbers.values()):
        raise ValueError(f"mission {name}: facts must be text or whole numbers; got {numbers}")
    try:
        inspect.signature(rule).bind(**facts)
        score = rule(**facts)
    except (TypeError, ValueError) as error:
        raise ValueError(f"mission {name}, rule {entry['rule']}: {error}") from None
    return Mission(**card, score=score)


def missions_from(entries: Iterable[Mapping]) -> dict[str, Mission]:
    """Make a mission from every entry, keyed by id; refuse broken entries and ids used twice."""
    missions: dict[str, Mission] = {}
    for entry in entries:
        mission = mission_from(entry)
        if mission.id in missions:
            raise ValueError(f"mission id {mission.id!r} is used twice")
        missions[mission.id] = mission
    return missions


def _edition_missions() -> dict[str, Mission]:
    """Read and check the 16 missions of the colorlab edition, 4 of each type."""
    data = json.loads(MISSIONS_FILE.read_text(encoding="utf-8"))
    missions = missions_from(data["missions"])
    per_type = Counter(mission.type for mission in missions.values())
    if per_type != Counter(dict.fromkeys(TYPES, 4)):
        raise ValueError(f"missions.json needs 4 missions of each type; has {dict(per_type)}")
    return missions


MISSIONS: dict[str, Mission] = _edition_missions()


def draw_missions(
    rng_or_seed: random.Random | int | str, how: str = "random", pool: Mapping[str, Mission] = MISSIONS
) -> list[Mission]:
    """Draw one mission of each type from the pool: at random from the seed, or the first of each type.

    Examples
    ========

    >>> from colorlab.colorium.missions import draw_missions
    >>> [mission.id for mission in draw_missions(0, "first")]
    ['lines-1', 'colours-1', 'shapes-1', 'areas-1']
    >>> draw_missions(7) == draw_missions(7)
    True
    """
    if how not in DRAWS:
        raise ValueError(f"how = {how!r}: choose one of {', '.join(DRAWS)}")
    rng = rng_or_seed if isinstance(rng_or_seed, random.Random) else random.Random(rng_or_seed)
    by_type: dict[str, list[Mission]] = {kind: [] for kind in TYPES}
    for mission in pool.values():
        by_type[mission.type].append(mission)
    drawn = []
    for kind, cards in by_type.items():
        if not cards:
            raise ValueError(f"the pool has no {kind} mission")
        drawn.append(cards[0] if how == "first" else rng.choice(cards))
    return drawn


def add_mission(mission: Mission) -> Mission:
    """Make a mission (a learner's own) playable in games, by its id; edition missions stay as they are."""
    if not isinstance(mission, Mission):
        raise TypeError(f"{mission!r} is not a Mission")
    if mission.id in MISSIONS and MISSIONS[mission.id] is not mission:
        raise ValueError(f"there is already a mission {mission.id!r}; choose another id")
    MISSIONS[mission.id] = mission
    return mission

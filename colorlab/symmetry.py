"""Symmetries of square grids, counting up to symmetry, and polyominoes.

A symmetry of an n x n grid moves its cells about, so it is a permutation of the
cells, numbered 0 .. n*n - 1 row by row from the top-left. The quarter turns form
the cyclic group C4; adding a mirror gives the dihedral group D4 of order 8.

A group sorts the cells into *orbits*: two cells share an orbit when some symmetry
carries one to the other. The symmetries that leave a cell where it is form its
*stabiliser*, and the orbit-stabiliser theorem says |orbit| * |stabiliser| = |group|.

To count colourings "up to symmetry" is to count orbits of colourings. Burnside's
lemma counts them as the average number of colourings each symmetry leaves
unchanged. A permutation with c cycles fixes exactly k**c colourings with k colours,
since each cycle must be painted one colour. Polya's cycle index records every
element's cycle type as a monomial a1**c1 * a2**c2 * ..., averaged over the group;
putting a_i = k in it gives the Burnside count.

A polyomino is a connected shape of unit squares joined edge to edge. Counted up to
translation alone the shapes are *fixed*; up to rotation as well, *one-sided*; up to
rotation and reflection, *free*.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from itertools import product
from numbers import Integral
from typing import TYPE_CHECKING

# sympy is imported by the functions that use it: the shapes need none of it, and a page that shows only shapes
# (the classroom's lobby, a Colorium table) starts about 0.3 s sooner without it.
if TYPE_CHECKING:
    from sympy import Expr, Symbol
    from sympy.combinatorics import Permutation, PermutationGroup

GRID_KINDS = ("rotations", "dihedral")
POLYOMINO_KINDS = {"fixed": "translations", "one-sided": "rotations", "free": "dihedral"}
MAX_BRUTE_FORCE_COLOURINGS = 200_000

Cell = tuple[int, int]  # (row, column)
Shape = frozenset[Cell]  # a polyomino: its cells


def _check_size(name: str, value: object, smallest: int) -> None:
    """Refuse a value that is not an int at least `smallest`."""
    if isinstance(value, bool) or not isinstance(value, Integral) or value < smallest:
        raise ValueError(f"{name} must be an int >= {smallest}; got {value!r}")


def _check_choice(name: str, value: object, choices: Collection[str]) -> None:
    """Refuse a value that is not one of the allowed choices."""
    if value not in choices:
        allowed = ", ".join(repr(choice) for choice in choices)
        raise ValueError(f"{name} must be one of {allowed}; got {value!r}")


def _check_colours(k: object, allow_symbol: bool) -> None:
    """Refuse a number of colours that is not a non-negative int (or a Symbol, if allowed)."""
    from sympy import Symbol

    if allow_symbol and isinstance(k, Symbol):
        return
    if isinstance(k, bool) or not isinstance(k, Integral) or k < 0:
        wanted = "a non-negative int or a sympy Symbol" if allow_symbol else "a non-negative int"
        raise ValueError(f"k (the number of colours) must be {wanted}; got {k!r}")


def quarter_turn(n: int) -> Permutation:
    """Which permutation of an n x n grid's cells is one clockwise quarter turn?

    The cell at row r, column c moves to row c, column n - 1 - r.

    Examples
    ========

    >>> from colorlab.symmetry import quarter_turn
    >>> quarter_turn(2).array_form
    [1, 3, 0, 2]
    >>> quarter_turn(3).cyclic_form
    [[0, 2, 8, 6], [1, 5, 7, 3]]
    """
    _check_size("n", n, 1)
    from sympy.combinatorics import Permutation

    return Permutation([c * n + (n - 1 - r) for r in range(n) for c in range(n)])


def mirror(n: int) -> Permutation:
    """Which permutation of an n x n grid's cells is the left-right mirror?

    The cell at row r, column c moves to row r, column n - 1 - c.

    Examples
    ========

    >>> from colorlab.symmetry import mirror
    >>> mirror(3).cyclic_form
    [[0, 2], [3, 5], [6, 8]]
    """
    _check_size("n", n, 1)
    from sympy.combinatorics import Permutation

    return Permutation([r * n + (n - 1 - c) for r in range(n) for c in range(n)])


def grid_group(n: int, kind: str = "rotations") -> PermutationGroup:
    """Make the group of rotations (C4) or of all symmetries (D4) of an n x n grid.

    Examples
    ========

    >>> from colorlab.symmetry import grid_group
    >>> grid_group(3).order()
    4
    >>> grid_group(3, "dihedral").order()
    8
    >>> grid_group(3).degree
    9
    """
    from sympy.combinatorics import PermutationGroup

    _check_size("n", n, 1)
    _check_choice("kind", kind, GRID_KINDS)
    generators = [quarter_turn(n)]
    if kind == "dihedral":
        generators.append(mirror(n))
    return PermutationGroup(generators)


def cell_orbits(group: PermutationGroup) -> list[tuple[int, ...]]:
    """Into which orbits does the group sort the points it acts on?

    Examples
    ========

    >>> from colorlab.symmetry import cell_orbits, grid_group
    >>> cell_orbits(grid_group(3))
    [(0, 2, 6, 8), (1, 3, 5, 7), (4,)]
    """
    return sorted(tuple(sorted(orbit)) for orbit in group.orbits())


def stabiliser(group: PermutationGroup, cell: int) -> PermutationGroup:
    """Which subgroup leaves the given cell where it is?

    Examples
    ========

    >>> from colorlab.symmetry import grid_group, stabiliser
    >>> stabiliser(grid_group(3, "dihedral"), 0).order()
    2
    >>> stabiliser(grid_group(3, "dihedral"), 4).order()
    8
    """
    if isinstance(cell, bool) or not isinstance(cell, Integral) or not 0 <= int(cell) < group.degree:
        raise ValueError(f"cell must be an int in range({group.degree}); got {cell!r}")
    return group.stabilizer(cell)


def cycle_index(group: PermutationGroup) -> Expr:
    """What is Polya's cycle index of the group, in the symbols a1, a2, ...?

    Each element contributes a1**c1 * a2**c2 * ..., where c_i is its number of
    i-cycles (fixed points are 1-cycles), and the contributions are averaged.

    Examples
    ========

    >>> from colorlab.symmetry import cycle_index, grid_group
    >>> from sympy import symbols
    >>> a1, a2, a4 = symbols("a1 a2 a4")
    >>> cycle_index(grid_group(2)) == a1**4 / 4 + a2**2 / 4 + a4 / 2
    True
    """
    from sympy import Add, Mul, Rational, Symbol

    cycle_types = Counter(tuple(sorted(element.cycle_structure.items())) for element in group.elements)
    order = group.order()
    return Add(
        *(
            Rational(count, order) * Mul(*(Symbol(f"a{length}") ** cycles for length, cycles in cycle_type))
            for cycle_type, count in cycle_types.items()
        )
    )


def count_colourings(group: PermutationGroup, k: int | Symbol) -> int | Expr:
    """How many colourings of the points with k colours are there, up to the group?

    By Burnside's lemma this is the average of k**cycles(g) over the elements g.
    A sympy Symbol for k gives the counting polynomial.

    Examples
    ========

    >>> from colorlab.symmetry import count_colourings, grid_group
    >>> count_colourings(grid_group(3, "rotations"), 2)
    140
    >>> count_colourings(grid_group(3, "dihedral"), 2)
    102
    >>> from sympy import Symbol
    >>> k = Symbol("k")
    >>> count_colourings(grid_group(2), k) == k**4 / 4 + k**2 / 4 + k / 2
    True
    """
    from sympy import Add, Rational, Symbol

    _check_colours(k, allow_symbol=True)
    cycle_counts = Counter(element.cycles for element in group.elements)
    order = group.order()
    if isinstance(k, Symbol):
        return Add(*(Rational(count, order) * k**cycles for cycles, count in cycle_counts.items()))
    return sum(count * int(k) ** cycles for cycles, count in cycle_counts.items()) // order


def count_colourings_brute_force(group: PermutationGroup, k: int) -> int:
    """How many colourings are there up to the group, found by listing them all?

    Every colouring is named by the smallest of its images under the group, and the
    distinct names are counted. Meant as a check on `count_colourings`, so it refuses
    more than MAX_BRUTE_FORCE_COLOURINGS colourings.

    Examples
    ========

    >>> from colorlab.symmetry import count_colourings_brute_force, grid_group
    >>> count_colourings_brute_force(grid_group(3, "rotations"), 2)
    140
    """
    _check_colours(k, allow_symbol=False)
    points = group.degree
    if k**points > MAX_BRUTE_FORCE_COLOURINGS:
        raise ValueError(
            f"k={k} colours on {points} points make {k**points} colourings, "
            f"more than MAX_BRUTE_FORCE_COLOURINGS = {MAX_BRUTE_FORCE_COLOURINGS}"
        )
    moves = [element.array_form for element in group.elements]

    def canonical(colouring: tuple[int, ...]) -> tuple[int, ...]:
        return min(tuple(colouring[point] for point in move) for move in moves)

    return len({canonical(colouring) for colouring in product(range(k), repeat=points)})


def normalise(shape: Collection[Cell]) -> Shape:
    """Slide a shape so that its smallest row and smallest column are both 0.

    Examples
    ========

    >>> from colorlab.symmetry import normalise
    >>> sorted(normalise({(2, 5), (3, 5)}))
    [(0, 0), (1, 0)]
    """
    if not shape:
        raise ValueError("shape must have at least one cell; got an empty shape")
    top = min(r for r, _ in shape)
    left = min(c for _, c in shape)
    return frozenset((r - top, c - left) for r, c in shape)


def _shape_key(shape: Collection[Cell]) -> tuple[Cell, ...]:
    """Order shapes by their sorted cells."""
    return tuple(sorted(shape))


def _turn(shape: Collection[Cell]) -> Shape:
    """Turn a shape a quarter clockwise (up to translation)."""
    return frozenset((c, -r) for r, c in shape)


def _flip(shape: Collection[Cell]) -> Shape:
    """Mirror a shape left to right (up to translation)."""
    return frozenset((r, -c) for r, c in shape)


def _images(shape: Collection[Cell], kind: str) -> set[Shape]:
    """Which normalised shapes does the shape become under the kind's motions?"""
    if kind == "translations":
        return {normalise(shape)}
    starts = [shape, _flip(shape)] if kind == "dihedral" else [shape]
    images = set()
    for image in starts:
        for _ in range(4):
            images.add(normalise(image))
            image = _turn(image)
    return images


def shape_images(shape: Collection[Cell], kind: str) -> list[Shape]:
    """List the distinct normalised images of a shape under "rotations" or "dihedral".

    Examples
    ========

    >>> from colorlab.symmetry import shape_images
    >>> [sorted(image) for image in shape_images({(0, 0), (0, 1)}, "rotations")]
    [[(0, 0), (0, 1)], [(0, 0), (1, 0)]]
    >>> len(shape_images({(0, 0), (1, 0), (2, 0), (2, 1)}, "dihedral"))
    8
    """
    _check_choice("kind", kind, GRID_KINDS)
    return sorted(_images(shape, kind), key=_shape_key)


def _canonical(shape: Collection[Cell], kind: str) -> Shape:
    """Which image of the shape represents it: the one with the smallest sorted cells?"""
    return min(_images(shape, kind), key=_shape_key)


def _neighbours(cell: Cell) -> list[Cell]:
    """Which cells share an edge with this one?"""
    r, c = cell
    return [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]


def polyominoes(n: int, up_to: str = "free") -> list[Shape]:
    """List the polyominoes of n cells, "fixed", "one-sided" or "free".

    Every shape of n cells is a shape of n - 1 cells plus one neighbouring cell, so
    the shapes are grown a cell at a time, keeping one canonical image of each.

    Examples
    ========

    >>> from colorlab.symmetry import polyominoes
    >>> len(polyominoes(4))
    5
    >>> [len(polyominoes(4, kind)) for kind in ("fixed", "one-sided", "free")]
    [19, 7, 5]
    >>> sorted(polyominoes(2)[0])
    [(0, 0), (0, 1)]
    """
    _check_size("n", n, 1)
    _check_choice("up_to", up_to, tuple(POLYOMINO_KINDS))
    kind = POLYOMINO_KINDS[up_to]
    shapes = {frozenset({(0, 0)})}
    for _ in range(n - 1):
        shapes = {
            _canonical(shape | {neighbour}, kind)
            for shape in shapes
            for cell in shape
            for neighbour in _neighbours(cell)
            if neighbour not in shape
        }
    return sorted(shapes, key=_shape_key)


def render_shape(shape: Collection[Cell]) -> str:
    """Draw a shape as rows of '#' (a cell) and '.' (a gap).

    Examples
    ========

    >>> from colorlab.symmetry import render_shape
    >>> print(render_shape({(0, 0), (1, 0), (2, 0), (2, 1)}))
    #.
    #.
    ##
    """
    shape = normalise(shape)
    height = 1 + max(r for r, _ in shape)
    width = 1 + max(c for _, c in shape)
    return "\n".join("".join("#" if (r, c) in shape else "." for c in range(width)) for r in range(height))

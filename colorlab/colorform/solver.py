"""Find every way to solve a Col-Or-Form task card, and explain each one.

A solution turns the task card (and, in the mirror variant, flips it), lays it
over the layout, and covers with hand cards exactly the layout cards that do
not already fit the figure above them. Cards that are not needed stay in hand,
so the solver lists the *minimal* solutions: no hand card lies on a cell that
already fitted. Solutions come fewest hand cards first.

Examples
========

>>> from colorlab.colorform import solve
>>> layout = [
...     "blue star",
...     "red heart",
...     "green moon",
...     "black circle",
...     "purple moon",
...     "yellow square",
...     "red circle",
...     "green heart",
...     "blue circle",
... ]
>>> task = ["red star", None, None, "black triangle", "purple moon", None, None, None, None]
>>> best = solve(layout, [], task)[0]
>>> best.rotation, best.placements
(0, {})
>>> [(m.cell, m.by) for m in best.matches]
[(0, 'shape'), (3, 'colour'), (4, 'both')]
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable, Iterator, Sequence

from colorlab.colorform.components import DESTINATIONS, Figure, TaskCard, figure
from colorlab.colorform.rules import MATCHING, Rules


def _accepts(mode: str, wanted: Figure, card: Figure) -> bool:
    same_shape, same_colour = wanted // 6 == card // 6, wanted % 6 == card % 6
    if mode == "shape or colour":
        return same_shape or same_colour
    if mode == "shape and colour":
        return same_shape and same_colour
    return same_shape if mode == "shape" else same_colour


ACCEPTS: dict[str, tuple[int, ...]] = {
    mode: tuple(sum(1 << card for card in range(36) if _accepts(mode, wanted, card)) for wanted in range(36))
    for mode in MATCHING
}


def match_kind(wanted: Figure, card: Figure) -> str | None:
    """Does `card` fit `wanted` by shape, by colour, by both, or not at all (None)?"""
    same_shape, same_colour = wanted.shape is card.shape, wanted.colour is card.colour
    if same_shape and same_colour:
        return "both"
    return "shape" if same_shape else "colour" if same_colour else None


@dataclasses.dataclass(frozen=True)
class Match:
    """Why one figure of a task card is satisfied: the card under it and how it fits."""

    cell: int
    wanted: Figure
    card: Figure
    by: str
    from_hand: bool

    def __str__(self) -> str:
        source = "your" if self.from_hand else "the layout's"
        return f"cell {self.cell}: {self.wanted} fits {source} {self.card} by {self.by}"


@dataclasses.dataclass(frozen=True)
class Solution:
    """A way to solve a task: a turn (and flip), and hand cards on layout cells.

    ``matches`` says, figure by figure, which card fits it and how.
    """

    rotation: int
    placements: dict[int, Figure]
    mirrored: bool = False
    placed: tuple[tuple[int, Figure], ...] = dataclasses.field(default=(), repr=False, compare=False)
    layout: tuple[Figure, ...] = dataclasses.field(default=(), repr=False, compare=False)

    @property
    def cards_used(self) -> int:
        return len(self.placements)

    @functools.cached_property
    def matches(self) -> tuple[Match, ...]:
        """Which card fits each figure of the task, and by what?"""
        cards = [(cell, want, self.placements.get(cell, self.layout[cell])) for cell, want in sorted(self.placed)]
        return tuple(
            Match(cell, want, card, match_kind(want, card), cell in self.placements) for cell, want, card in cards
        )

    def explain(self) -> str:
        """Say in words why this solution works, figure by figure."""
        turn = f"turn the card {self.rotation} quarter turn(s) clockwise" if self.rotation else "keep the card as it is"
        flip = "mirror it, then " if self.mirrored else ""
        return "\n".join([f"{flip}{turn}"] + [str(m) for m in self.matches])


def as_grid(task: TaskCard | Sequence) -> tuple:
    """Nine cells of a task, as Figures or None, from a TaskCard or a list."""
    if isinstance(task, TaskCard):
        return task.cells
    cells = tuple(task)
    if len(cells) != 9:
        raise ValueError(f"a task has 9 cells, not {len(cells)}")
    return tuple(None if cell is None else figure(cell) for cell in cells)


def as_layout(layout: Sequence) -> tuple[Figure, ...]:
    """Nine layout figures, row by row, from Figures or names."""
    cells = tuple(card if type(card) is Figure else figure(card) for card in layout)
    if len(cells) != 9:
        raise ValueError(f"a layout has 9 cards, not {len(cells)}")
    return cells


def as_task(task: TaskCard | Sequence) -> TaskCard:
    """A task card from a TaskCard or a list of nine cells (figures, names or None)."""
    return task if isinstance(task, TaskCard) else _unnumbered_task(as_grid(task))


@functools.lru_cache(maxsize=1024)
def _unnumbered_task(cells: tuple) -> TaskCard:
    # Cached so that a task given as a list has its turned images worked out once, not at every call.
    return TaskCard(0, cells)


def solve(layout: Sequence, hand: Iterable, task: TaskCard | Sequence, rules: Rules = Rules()) -> list[Solution]:
    """List every minimal solution of `task`, fewest hand cards first."""
    layout = as_layout(layout)
    hand = tuple(card if type(card) is Figure else figure(card) for card in hand)
    task = as_task(task)
    accepts = ACCEPTS[rules.matching]
    found = []
    for rotation, mirrored, placed in task.images[rules.rotations, rules.mirror_images]:
        needs = [(cell, want) for cell, want in placed if not accepts[want] >> layout[cell] & 1]
        if len(needs) <= len(hand):
            for placements in _assignments(needs, hand, accepts, 0):
                found.append(Solution(rotation, placements, mirrored, placed, layout))
    found.sort(key=lambda s: (len(s.placements), s.mirrored, s.rotation))
    return found


def ways(
    layout: Sequence[Figure], hand: Sequence[Figure], task: TaskCard | tuple, rules: Rules, most_cards: int = 9
) -> Iterator[tuple[int, bool, dict[int, Figure]]]:
    """Yield (rotation, mirrored, placements): one fewest-card way for each turn that works."""
    for _, rotation, mirrored, placements in table_ways(layout, hand, [task], rules, most_cards):
        yield rotation, mirrored, placements


def table_ways(
    layout: Sequence[Figure],
    hand: Sequence[Figure],
    tasks: Iterable[TaskCard | tuple],
    rules: Rules,
    most_cards: int = 9,
) -> Iterator[tuple[TaskCard, int, bool, dict[int, Figure]]]:
    """Yield (task, rotation, mirrored, placements): the :func:`ways` of each task, task after task.

    Examples
    ========

    A turn works when :func:`solve` finds a solution for it, and the hand cards go where one of
    its solutions puts them:

    >>> from colorlab.colorform import Rules, figure, solve, task_cards
    >>> from colorlab.colorform.solver import table_ways
    >>> layout = [
    ...     figure(name)
    ...     for name in [
    ...         "blue star",
    ...         "red heart",
    ...         "green moon",
    ...         "black circle",
    ...         "purple moon",
    ...         "yellow square",
    ...         "red circle",
    ...         "green heart",
    ...         "blue circle",
    ...     ]
    ... ]
    >>> hand = [figure("red star"), figure("black triangle")]
    >>> tasks = task_cards()[:12]
    >>> found = {
    ...     (task.number, rotation, mirrored, tuple(sorted(placements.items())))
    ...     for task, rotation, mirrored, placements in table_ways(layout, hand, tasks, Rules())
    ... }
    >>> solved = {
    ...     (task.number, s.rotation, s.mirrored, tuple(sorted(s.placements.items())))
    ...     for task in tasks
    ...     for s in solve(layout, hand, task)
    ... }
    >>> found <= solved and {way[:3] for way in found} == {way[:3] for way in solved}
    True
    """
    for task, rotation, mirrored, placed, _ in hopeful_turns(layout, hand, tasks, rules, most_cards):
        placements = cover(layout, hand, placed, rules)
        if placements is not None:
            yield task, rotation, mirrored, placements


def hopeful_turns(
    layout: Sequence[Figure],
    hand: Sequence[Figure],
    tasks: Iterable[TaskCard | tuple],
    rules: Rules,
    most_cards: int = 9,
) -> Iterator[tuple[TaskCard, int, bool, tuple, int]]:
    """Yield (task, rotation, mirrored, (cell, figure) pairs, cards needed) for each turn that may work.

    A turn may work when it needs at most `most_cards` hand cards and each cell it needs one for
    fits some card of the hand; it works when :func:`cover` finds each such cell its own card.
    """
    cards = [task if isinstance(task, TaskCard) else as_task(task) for task in tasks]
    (turns,) = hopeful_of_hands(fitting_bits(layout, rules.matching), cards, [hand], rules)
    return iter([turn for turn in turns if turn[4] <= most_cards])


def hopeful_of_hands(
    fitting: int, tasks: Iterable[TaskCard], hands: Sequence[Sequence[Figure]], rules: Rules
) -> tuple[tuple[tuple[TaskCard, int, bool, tuple, int], ...], ...]:
    """The :func:`hopeful_turns` of each hand (of any size), the layout given by its :func:`fitting_bits`."""
    # Each turn of a task is tried on all its cells at once, with bits: one bit per (cell, figure) pair,
    # set in `fitting` where the layout's card fits that figure. The pairs a turn needs hand cards for are
    # its bits the layout does not fit, the same for every hand. A turn is hopeful for a hand when none of
    # its pairs is unreachable: fitted neither by the layout nor by a card of the hand.
    unfitting = ~fitting
    turns = [pair for task in tasks for pair in task.turns[rules.rotations, rules.mirror_images]]
    accepts = ACCEPTS[rules.matching]
    found = []
    for hand in hands:
        unreachable = unfitting & ~(_held_accepts(hand, accepts) * EVERY_CELL)
        limit = len(hand)
        found.append(
            tuple(
                [
                    turn + (count,)
                    for turn, bits in turns
                    if not bits & unreachable and (count := (bits & unfitting).bit_count()) <= limit
                ]
            )
        )
    return tuple(found)


def cover(layout: Sequence[Figure], hand: Sequence[Figure], placed: tuple, rules: Rules) -> dict[int, Figure] | None:
    """Give each cell of a turned task whose layout card does not fit its own fitting hand card (None: no way)."""
    accepts = ACCEPTS[rules.matching]
    return assign([(spot, want) for spot, want in placed if not accepts[want] >> layout[spot] & 1], hand, accepts)


def assign(
    needs: list[tuple[int, Figure]], hand: Sequence[Figure], accepts: tuple[int, ...]
) -> dict[int, Figure] | None:
    """Give each needy (cell, figure) pair its own hand card that fits it, the first way found (None: no way)."""
    if not needs:
        return {}
    if len(needs) == 1:  # the usual case: the first fitting card in the hand, as _first_assignment finds it
        spot, want = needs[0]
        fits = accepts[want]
        for card in hand:
            if fits >> card & 1:
                return {spot: card}
        return None
    if len(needs) == 2:  # the next most usual: two distinct cards, tried in the order _first_assignment tries them
        (first_spot, first_want), (second_spot, second_want) = needs
        first_fits, second_fits = accepts[first_want], accepts[second_want]
        for index, card in enumerate(hand):
            if first_fits >> card & 1:
                for other_index, other in enumerate(hand):
                    if other_index != index and second_fits >> other & 1:
                        return {second_spot: other, first_spot: card}
        return None
    return _first_assignment(needs, hand, accepts, 0)


FIGURE_COUNT = 36
FIGURE_MASK = (1 << FIGURE_COUNT) - 1  # the bits of one cell
EVERY_CELL = sum(1 << (FIGURE_COUNT * cell) for cell in range(9))  # times a figure mask: that mask in every cell


def _held_accepts(hand: Sequence[Figure], accepts: tuple[int, ...]) -> int:
    """Which figures would some card of the hand fit (a figure mask)?"""
    found = 0
    for card in hand:
        found |= accepts[card]
    return found


def fitting_bits(layout: Sequence[Figure], matching: str) -> int:
    """Which (cell, figure) pairs does the layout fit: bit ``36 * cell + figure``? (Matching is symmetric.)"""
    accepts = ACCEPTS[matching]
    return sum(accepts[card] << (FIGURE_COUNT * cell) for cell, card in enumerate(layout))


def laid(fitting: int, placements: Iterable[tuple[int, Figure]], matching: str) -> int:
    """The :func:`fitting_bits` of a layout after each (cell, card) of `placements` is laid on it.

    Only the covered cells change, so only their bits are worked out again. Checking a claim with
    these bits is checking each figure of its turned task against the card it lies over: a claim
    fits when none of the turn's bits is missing from them.
    """
    accepts = ACCEPTS[matching]
    for cell, card in placements:
        shift = FIGURE_COUNT * cell
        fitting = fitting & ~(FIGURE_MASK << shift) | accepts[card] << shift
    return fitting


def solvable(layout: Sequence[Figure], hand: Sequence[Figure], task: TaskCard | tuple, rules: Rules) -> bool:
    """Can this hand solve this task at all? (Figures only: a fast yes or no.)"""
    return next(ways(layout, hand, task, rules), None) is not None


def _assignments(needs: list, hand: tuple, accepts: tuple, used: int) -> Iterator[dict[int, Figure]]:
    """Yield every way to give each needy cell its own fitting hand card."""
    if not needs:
        yield {}
        return
    (cell, want), rest = needs[0], needs[1:]
    accepted = accepts[want]
    for index, card in enumerate(hand):
        if not used >> index & 1 and accepted >> card & 1:
            for others in _assignments(rest, hand, accepts, used | 1 << index):
                yield {cell: card, **others}


def _first_assignment(needs: list, hand: tuple, accepts: tuple, used: int) -> dict[int, Figure] | None:
    """Give each needy cell its own fitting hand card, the first way found (None if impossible)."""
    (cell, want), rest = needs[0], needs[1:]
    accepted = accepts[want]
    for index, card in enumerate(hand):
        if not used >> index & 1 and accepted >> card & 1:
            others = _first_assignment(rest, hand, accepts, used | 1 << index) if rest else {}
            if others is not None:
                others[cell] = card
                return others
    return None


def why_not(
    layout: Sequence,
    task: TaskCard | Sequence,
    rotation: int,
    placements: dict,
    mirrored: bool = False,
    rules: Rules = Rules(),
) -> list[str]:
    """Which figures does a claimed solution fail, and why? (Empty when it works.)"""
    layout = as_layout(layout)
    destination = DESTINATIONS[rotation % 4, mirrored]
    accepts = ACCEPTS[rules.matching]
    problems = []
    shown = [(destination[cell], want) for cell, want in enumerate(as_grid(task)) if want is not None]
    for cell, want in sorted(shown):
        card = placements.get(cell, layout[cell])
        if not accepts[want] >> card & 1:
            problems.append(f"cell {cell}: {want} does not fit {card} (matching is '{rules.matching}')")
    return problems

"""How many points is a hand of ColorFox sticks worth?

At the end of a game each player splits its sticks into **sets**: a set holds
sticks of distinct colours, at most ``Rules.max_set_size`` of them, and a set
of n sticks scores ``worth(n)``. By the rulebook the worth is the triangular
number 1 + 2 + ... + n = n(n + 1)/2. A hand scores its best split.

The **layered split** stacks the sticks colour by colour and reads off layers:
set k holds every colour of which the player has at least k sticks. Its set
sizes are the conjugate of the colour counts, and the sizes of any other split
are dominated by them (the Gale-Ryser theorem), so for a convex worth, with
``worth(0) = 0``, no split scores more (Karamata's inequality). For the
triangular worth this gives a closed form: with the counts sorted from most to
fewest, c1 >= c2 >= ..., the score is 1*c1 + 2*c2 + 3*c3 + ...

A layer wider than the largest set allowed must be cut. :func:`best_sets`
then forms each set from the ``max_set_size`` colours with the most sticks
left. With room for every colour the hand holds (as a maximum of 6 always
has) this is exactly the layered split; with less room it is still a best
split for a convex worth (checked against a search over every split, for
every hand of up to 8 sticks a colour). For a worth that is not convex,
:func:`score_sticks` and :func:`best_sets` search every split.

Examples
========

>>> from colorlab.colorfox.scoring import best_sets, score_sticks
>>> counts = {"red": 2, "blue": 1}
>>> best_sets(counts), score_sticks(counts)
([['red', 'blue'], ['red']], 4)
"""

from __future__ import annotations

import functools
import itertools
import numbers
import operator
from collections.abc import Callable, Mapping

from colorlab.colorfox import components
from colorlab.colorfox.rules import Rules
from colorlab.palette import Colour

COLOURS = tuple(colour.value for colour in components.COLOURS)

Worth = Callable[[int], float]

SET_SCORES: dict[str, Worth] = {
    "triangular": lambda n: n * (n + 1) // 2,
    "linear": lambda n: n,
    "square": lambda n: n * n,
}

_DEFAULT_RULES = Rules()

_KNOWN = frozenset(COLOURS)
_PLACES = tuple(range(1, len(COLOURS) + 1))
_TRIANGULAR = SET_SCORES["triangular"]


def worth_of(rules: Rules) -> Worth:
    """Which function gives the points of a set of n sticks under these rules?

    Examples
    ========

    >>> import dataclasses
    >>> from colorlab.colorfox import Rules
    >>> from colorlab.colorfox.scoring import worth_of
    >>> [worth_of(Rules())(n) for n in range(1, 7)]
    [1, 3, 6, 10, 15, 21]
    >>> worth_of(dataclasses.replace(Rules(), set_score="square"))(4)
    16
    """
    return SET_SCORES[rules.set_score]


def most_points(rules: Rules = _DEFAULT_RULES) -> float:
    """A score no player can pass: every stick of the game held, in sets of the largest size.

    A set of n sticks is worth no more per stick than one of the largest size allowed (the worth
    per stick, 1, (n + 1) / 2 or n, grows with n), so no split of all the sticks scores more.

    >>> from colorlab.colorfox import Rules
    >>> from colorlab.colorfox.scoring import most_points
    >>> most_points(Rules())  # 48 sticks, 21 points in each set of 6
    168.0
    """
    largest = rules.max_set_size
    return len(COLOURS) * rules.sticks_per_colour * worth_of(rules)(largest) / largest


def score_sticks(counts: Mapping[str, int], rules: Rules = _DEFAULT_RULES, worth: Worth | None = None) -> int | float:
    """What is the best total over every split of these sticks into sets?

    `counts` maps colour names to numbers of sticks; `worth(n)` gives the
    points of a set of n sticks, by default the set score of `rules`. The
    total is an int when the worth gives ints.

    Examples
    ========

    Ema holds one stick of each colour, one more green and two more red:
    a full set (21), a pair (3) and a single red (1).

    >>> from colorlab.colorfox.scoring import score_sticks
    >>> ema = {"red": 3, "orange": 1, "yellow": 1, "green": 2, "blue": 1, "purple": 1}
    >>> score_sticks(ema)
    25
    >>> score_sticks(ema, worth=lambda n: n * n)
    41
    """
    if worth is None:
        worth = SET_SCORES[rules.set_score]
    largest = rules.max_set_size
    if worth is _TRIANGULAR and largest >= len(COLOURS) and isinstance(counts, dict):
        values = counts.values()
        if counts.keys() <= _KNOWN and all(type(n) is int and n >= 0 for n in values):
            return sum(map(operator.mul, _PLACES, sorted(values, reverse=True)))
    left = _ordered(counts)
    table = _worth_table(worth, largest)
    if _convex(table):
        return sum(table[len(chosen)] for chosen in _greedy_sets(left, largest))
    return _best_total(_state(left), table, largest)


def score_counts(counts: tuple[int, ...], rules: Rules = _DEFAULT_RULES) -> int | float:
    """What is the best total for stick counts given in colour order, as a game state keeps them?

    The same total as :func:`score_sticks` with the set score of `rules`, for counts known to be six
    whole numbers of at least 0: nothing is checked or built on the way (search bots score many).

    Examples
    ========

    >>> from colorlab.colorfox.scoring import score_counts
    >>> score_counts((3, 1, 1, 2, 1, 1))
    25
    """
    if rules.set_score == "triangular" and rules.max_set_size >= len(COLOURS):
        return sum(map(operator.mul, _PLACES, sorted(counts, reverse=True)))
    return score_sticks(dict(zip(COLOURS, counts)), rules)


def best_sets(counts: Mapping[str, int], max_set_size: int = 6, worth: Worth | None = None) -> list[list[str]]:
    """Split these sticks into sets of distinct colours that score the most.

    Sets come largest first, each in the colour order red, orange, yellow,
    green, blue, purple. With the triangular worth (the default) or any other
    convex one, set k of the layered split holds every colour with at least k
    sticks; when a layer is wider than `max_set_size`, each set takes the
    `max_set_size` colours with the most sticks left (ties in colour order).
    For any other `worth` the split comes from a search over every split.

    Examples
    ========

    >>> from colorlab.colorfox.scoring import best_sets
    >>> best_sets({"red": 3, "green": 2, "blue": 1})
    [['red', 'green', 'blue'], ['red', 'green'], ['red']]
    >>> best_sets({"red": 3, "green": 2, "blue": 1}, max_set_size=2)
    [['red', 'green'], ['red', 'green'], ['red', 'blue']]

    A worth that stops growing after 3 sticks is not convex; a set of 4 is
    then better cut into 3 + 1:

    >>> capped = lambda n: min(n, 3) * (min(n, 3) + 1) // 2
    >>> best_sets({"red": 1, "green": 1, "blue": 1, "purple": 1}, worth=capped)
    [['green', 'blue', 'purple'], ['red']]
    """
    if isinstance(max_set_size, bool) or not isinstance(max_set_size, int) or max_set_size < 1:
        raise ValueError(f"max_set_size = {max_set_size!r}: give a whole number of at least 1")
    left = _ordered(counts)
    table = _worth_table(_TRIANGULAR if worth is None else worth, max_set_size)
    if _convex(table):
        return _greedy_sets(left, max_set_size)
    return _searched_sets(left, table, max_set_size)


def _ordered(counts: Mapping[str, int]) -> dict[str, int]:
    """Which colours have sticks, and how many, in colour order? Refuse bad counts."""
    if not isinstance(counts, Mapping):
        raise ValueError(f"counts = {counts!r}: give a mapping of colour names to numbers of sticks")
    named: dict[str, int] = {}
    for key, number in counts.items():
        name = key.value if isinstance(key, Colour) else key
        if name not in _KNOWN:
            raise ValueError(f"{key!r} is not a ColorFox colour; choose from {', '.join(COLOURS)}")
        if isinstance(number, bool) or not isinstance(number, numbers.Integral) or number < 0:
            raise ValueError(f"{name}: {number!r} sticks; give a whole number of at least 0")
        named[name] = named.get(name, 0) + int(number)
    return {colour: named[colour] for colour in COLOURS if named.get(colour)}


def _worth_table(worth: Worth, largest: int) -> tuple:
    """What are the points of an empty set (0) and of each set size up to `largest`?"""
    return (0, *(worth(size) for size in range(1, largest + 1)))


def _convex(table: tuple) -> bool:
    """Does each extra stick in a set add at least as much as the one before it?"""
    steps = [after - before for before, after in itertools.pairwise(table)]
    return all(before <= after for before, after in itertools.pairwise(steps))


def _greedy_sets(left: dict[str, int], largest: int) -> list[list[str]]:
    """Split greedily: each set takes the `largest` colours with the most sticks left."""
    left = dict(left)
    sets = []
    while left:
        chosen = set(sorted(left, key=lambda colour: -left[colour])[:largest])
        sets.append([colour for colour in left if colour in chosen])
        left = {colour: number - (colour in chosen) for colour, number in left.items() if number - (colour in chosen)}
    return sets


def _state(left: dict[str, int]) -> tuple[int, ...]:
    """Which counts remain, from most to fewest? (The search forgets which colour is which.)"""
    return tuple(sorted(left.values(), reverse=True))


@functools.cache
def _moves(state: tuple[int, ...], largest: int) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Which sets may come next, as (positions taken, counts left)?

    Every split has a set holding a stick of the first (most plentiful) colour,
    so the search may take that set first: each move includes position 0.
    Moves that leave the same counts with the same set size are kept once.
    """
    moves = {}
    for size in range(1, min(largest, len(state)) + 1):
        for others in itertools.combinations(range(1, len(state)), size - 1):
            taken = (0, *others)
            rest = [number - (position in taken) for position, number in enumerate(state)]
            key = (size, tuple(sorted((n for n in rest if n), reverse=True)))
            moves.setdefault(key, taken)
    return tuple((taken, rest) for (_, rest), taken in moves.items())


@functools.lru_cache(maxsize=1 << 17)
def _best_total(state: tuple[int, ...], table: tuple, largest: int) -> float:
    """What is the best total for these counts, trying every set that holds the first colour?"""
    if not state:
        return 0
    return max(table[len(taken)] + _best_total(rest, table, largest) for taken, rest in _moves(state, largest))


def _searched_sets(left: dict[str, int], table: tuple, largest: int) -> list[list[str]]:
    """Rebuild a best split by following, set by set, a move that reaches the best total."""
    sets = []
    while left:
        ranked = sorted(left, key=lambda colour: -left[colour])
        state = _state(left)
        goal = _best_total(state, table, largest)
        taken = next(
            taken
            for taken, rest in _moves(state, largest)
            if table[len(taken)] + _best_total(rest, table, largest) == goal
        )
        chosen = {ranked[position] for position in taken}
        sets.append([colour for colour in COLOURS if colour in chosen])
        left = {colour: number - (colour in chosen) for colour, number in left.items() if number - (colour in chosen)}
    return sorted(sets, key=len, reverse=True)

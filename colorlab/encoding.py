"""What every game's encoding shares: blocks of action numbers, and parts of an observation, laid end to end.

Each game's ``encoding.py`` numbers its actions kind by kind (all the passes, then all the
picks, ...). A block is where a kind's numbers start and how many there are.

>>> number_blocks({"pass": 1, "pick": 6, "place": 20})
{'pass': (0, 1), 'pick': (1, 6), 'place': (7, 20)}

An observation is made of named parts, each an array of some shape, flattened and laid end
to end into one array. Every number in it lies from 0 to 1 (as learning libraries expect): a
count or a score is shown as a share of the most it can be (:func:`scaled`).

>>> flat_shape({"board": (3, 3), "to move": (2,)})
(11,)
"""

from __future__ import annotations

import math
import numbers
from itertools import accumulate
from types import ModuleType
from typing import Any


def number_blocks(sizes: dict[str, int]) -> dict[str, tuple[int, int]]:
    """Where does each kind of action start, given how many numbers each kind takes, in order?"""
    starts = accumulate(sizes.values(), initial=0)
    return {kind: (start, size) for (kind, size), start in zip(sizes.items(), starts)}


def number_table(blocks: dict[str, tuple[int, int]]) -> tuple[tuple[str, int], ...]:
    """For each action number in turn, its kind and its place in that kind's block (a look-up for decoding).

    >>> number_table({"pass": (0, 1), "pick": (1, 2)})
    (('pass', 0), ('pick', 0), ('pick', 1))
    """
    return tuple((kind, offset) for kind, (_, size) in blocks.items() for offset in range(size))


def block_of(number: Any, table: tuple[tuple[str, int], ...]) -> tuple[str, int]:
    """Which kind of action is this number, and where in its block does it lie (`table`: :func:`number_table`'s)?
    Refuse anything that is not one of the numbers.

    >>> block_of(2, (("pass", 0), ("pick", 0), ("pick", 1)))
    ('pick', 1)
    """
    whole = type(number) is int or (not isinstance(number, bool) and isinstance(number, numbers.Integral))
    if not whole or not 0 <= number < len(table):
        raise ValueError(f"{number!r} is not an action number: they run from 0 to {len(table) - 1}")
    return table[number]


def part_slices(layout: dict[str, tuple[int, ...]]) -> dict[str, slice]:
    """Where each part of an observation (name -> shape, in order) lies in the flat array.

    >>> part_slices({"board": (3, 3), "to move": (2,)})
    {'board': slice(0, 9, None), 'to move': slice(9, 11, None)}
    """
    places, start = {}, 0
    for name, shape in layout.items():
        places[name], start = slice(start, start + math.prod(shape)), start + math.prod(shape)
    return places


def part_views(flat: Any, layout: dict[str, tuple[int, ...]], slices: dict[str, slice] | None = None) -> dict:
    """Views of a flat observation array, one per part of `layout`, in its shape (`slices`: the parts' places,
    when the caller keeps them)."""
    slices = slices or part_slices(layout)
    return {name: flat[slices[name]].reshape(shape) for name, shape in layout.items()}


RESULTS = ("win", "score")  # what a game gives its players at the end, for game-AI libraries


def results(encoding: ModuleType, state: Any, kind: str = "win") -> list[float]:
    """What each player gets at the end, from a game's encoding: its share of the win ("win"; a solo game, which has
    no win to share, gives its score), or its score from 0 to 1 ("score")."""
    if kind not in RESULTS:
        raise ValueError(f"returns = {kind!r} is not allowed: choose one of {', '.join(map(repr, RESULTS))}")
    if kind == "score" or state.rules.players == 1:
        return [float(value) for value in encoding.scores(state)]
    return [float(value) for value in encoding.returns(state)]


def scaled(value: float, most: float) -> float:
    """A count or score shown from 0 to 1: `value` out of `most`, anything beyond shown as 1.

    >>> scaled(3, 12), scaled(30, 12)
    (0.25, 1.0)
    """
    return min(max(value / most, 0.0), 1.0)


def flat_shape(parts: dict[str, tuple[int, ...]]) -> tuple[int]:
    """What shape is the flat array that lays these parts (name -> shape) end to end?"""
    return (sum(math.prod(shape) for shape in parts.values()),)

"""What every game's state shares: a frozen dataclass, copied with some fields changed.

A game's ``State`` is a frozen dataclass, and a move makes a new state from the last with a
few fields changed. ``dataclasses.replace`` would do, but it runs ``__init__`` again over
every field, and a search bot makes thousands of these copies for each move it chooses. The
fields were set when the game was dealt and change only by the game's own rules, so
:func:`evolve` copies the state's ``__dict__`` instead, without ``__init__``.

A state is looked at again and again before the next move (the bots, the legal moves, an
observation for each player), and a move changes few of its fields: the others are the same
objects in the new state. :func:`keep_last` keeps a function's last answer for the very same
arguments.

Examples
========

>>> import dataclasses
>>> from colorlab.state import evolve
>>> @dataclasses.dataclass(frozen=True)
... class Race:
...     leader: int
...     laps: int = 0
>>> start = Race(leader=0)
>>> evolve(start, laps=1)
Race(leader=0, laps=1)
>>> start
Race(leader=0, laps=0)
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from typing import Any, TypeVar

AnyState = TypeVar("AnyState")
Answer = TypeVar("Answer")


def evolve(state: AnyState, **changes: Any) -> AnyState:
    """Copy a frozen state with some fields changed (``dataclasses.replace`` without ``__init__``)."""
    return evolve_with(state, changes)


def evolve_with(state: AnyState, changes: dict) -> AnyState:
    """Copy a frozen state with the fields in `changes` changed: :func:`evolve` for changes gathered in a dict."""
    new = object.__new__(type(state))
    object.__setattr__(new, "__dict__", state.__dict__ | changes)  # quicker than filling the new, empty __dict__
    return new


def keep_last(function: Callable[..., Answer]) -> Callable[..., Answer]:
    """`function`, keeping its answer for the last arguments it was asked about: asked again about the very same
    objects (``is``, not ``==``: a state and its fields never change), it answers at once. Only for functions of
    unchanging values whose answer is not changed by the caller. (One answer is kept, with its arguments, which
    it therefore keeps alive: their identities cannot be reused by other objects.)

    >>> calls = []
    >>> @keep_last
    ... def total(cells):
    ...     calls.append(cells)
    ...     return sum(cells)
    >>> cells = (1, 2, 3)
    >>> total(cells), total(cells), total((4,)), total(cells), len(calls)
    (6, 6, 4, 6, 3)
    """
    kept: tuple = ((object(),), None)

    @functools.wraps(function)
    def keeping(*args: Any) -> Answer:
        nonlocal kept
        asked, answer = kept
        if len(args) != len(asked) or not all(map(operator.is_, args, asked)):
            answer = function(*args)
            kept = (args, answer)
        return answer

    return keeping

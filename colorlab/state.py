"""What every game's state shares: a frozen dataclass, copied with some fields changed.

A game's ``State`` is a frozen dataclass, and a move makes a new state from the last with a
few fields changed. ``dataclasses.replace`` would do, but it runs ``__init__`` again over
every field, and a search bot makes thousands of these copies for each move it chooses. The
fields were set when the game was dealt and change only by the game's own rules, so
:func:`evolve` copies the state's ``__dict__`` instead, without ``__init__``.

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

from typing import Any, TypeVar

AnyState = TypeVar("AnyState")


def evolve(state: AnyState, **changes: Any) -> AnyState:
    """Copy a frozen state with some fields changed (``dataclasses.replace`` without ``__init__``)."""
    return evolve_with(state, changes)


def evolve_with(state: AnyState, changes: dict) -> AnyState:
    """Copy a frozen state with the fields in `changes` changed: :func:`evolve` for changes gathered in a dict."""
    new = object.__new__(type(state))
    object.__setattr__(new, "__dict__", state.__dict__ | changes)  # quicker than filling the new, empty __dict__
    return new

"""Helpers shared by every lesson: exercises that check the learner's answer.

A lesson computes each answer itself and hands it to :func:`checker`; the answer
is never written into the notebook, so reading the code does not give it away.

Examples
========

>>> from fractions import Fraction
>>> from colorlab.lessons import checker
>>> check = checker(Fraction(1, 3), "count the cases, then divide")
>>> check(Fraction(2, 6))
Right!
True
>>> check(0.3333333333333333)
Right!
True
>>> check(0.33)
Not yet — hint: count the cases, then divide
False
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any


def same_answer(answer: Any, expected: Any) -> bool:
    """Is the learner's answer the expected one (a float close enough to a Fraction counts)?

    A ``True`` or ``False`` is not accepted for a number, although Python counts
    ``True == 1``.

    Examples
    ========

    >>> from fractions import Fraction
    >>> from colorlab.lessons import same_answer
    >>> same_answer(0.25, Fraction(1, 4)), same_answer(0.2500001, Fraction(1, 4))
    (True, False)
    >>> same_answer(True, 1), same_answer(4.0, 4)
    (False, True)
    """
    if isinstance(answer, bool) != isinstance(expected, bool):
        return False
    if isinstance(answer, float) and isinstance(expected, Fraction):
        return math.isclose(answer, float(expected), rel_tol=1e-9)
    return bool(answer == expected)


def checker(expected: Any, hint: str, same: Callable[[Any, Any], bool] | None = None) -> Callable[[Any], bool]:
    """Make a check(answer) that prints "Right!" or a hint, and returns whether it was right.

    `same(answer, expected)` decides whether an answer is right; by default
    :func:`same_answer`. An answer that `same` cannot even compare (it raises a
    TypeError, ValueError or AttributeError) is simply not right yet.

    Examples
    ========

    >>> from colorlab.lessons import checker
    >>> check = checker(4, "count the corners")
    >>> check(4)
    Right!
    True
    >>> check(None)
    Not yet — hint: count the corners
    False
    >>> check_set = checker({0, 2, 6, 8}, "the corners", same=lambda answer, expected: set(answer) == expected)
    >>> check_set([8, 6, 2, 0])
    Right!
    True
    >>> check_set(7)
    Not yet — hint: the corners
    False
    """
    same = same or same_answer

    def check(answer: Any) -> bool:
        """Is this the right answer? Say so, or give the hint."""
        try:
            right = bool(same(answer, expected))
        except (TypeError, ValueError, AttributeError):
            right = False
        print("Right!" if right else f"Not yet — hint: {hint}")
        return right

    return check

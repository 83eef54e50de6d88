"""Exact chances in Col-Or-Form, found by counting layouts with ``Fraction``.

A layout is nine distinct figure cards dealt in order from the shuffled 36. So
for any n chosen cells, every way to put n distinct cards on them is equally
likely, with probability 1 / (36 * 35 * ... * (36 - n + 1)); the other cells do
not matter. A task fits the layout *with no hand cards* when, for some allowed
turn, each of its figures lies on a layout card that it accepts.

The turns overlap (a layout can fit two turns at once), so the chance that *some*
turn fits comes from inclusion-exclusion: add the chance that one given turn
fits, subtract the chance that two given turns both fit, and so on. "Every turn
in S fits" asks each covered cell for a card that all the figures landing on it
accept, so it is again a count of ways to fill cells with distinct cards from
allowed sets.

Examples
========

>>> from colorlab.colorform import Rules
>>> from colorlab.colorform.probability import chance_layout_fits
>>> star_in_the_middle = [None] * 4 + ["red star"] + [None] * 4
>>> chance_layout_fits(star_in_the_middle)
Fraction(11, 36)

Side by side, a red star and a blue moon each accept 11 cards; of the 11 * 11
pairs, 2 would need one card twice (the red moon or the blue star), so 119 of
the 36 * 35 ordered pairs fit:

>>> chance_layout_fits(["red star", "blue moon"] + [None] * 7, Rules(rotations=False))
Fraction(17, 180)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations
from math import perm

from colorlab.colorform.components import FIGURES, TRANSFORMS, TaskCard, task_cards
from colorlab.colorform.rules import Rules
from colorlab.colorform.solver import ACCEPTS, as_grid

EVERY_CARD = (1 << len(FIGURES)) - 1


def count_fillings(allowed: Sequence[int]) -> int:
    """In how many ways can each cell get its own card, chosen from the cell's allowed set?

    Each allowed set is a bit mask over the cards (bit i stands for card i).
    Cards are offered one at a time; a card either stays out or fills one empty
    cell that allows it, and the count is kept per set of filled cells.

    Examples
    ========

    >>> from colorlab.colorform.probability import count_fillings
    >>> count_fillings([0b011, 0b011])
    2
    >>> count_fillings([0b001, 0b001])
    0
    >>> count_fillings([0b111, 0b111, 0b111])
    6
    """
    cells_allowing = [
        [cell for cell, cards in enumerate(allowed) if cards >> card & 1]
        for card in range(max(allowed, default=0).bit_length())
    ]
    counts = {0: 1}
    for cells in filter(None, cells_allowing):
        step = dict(counts)
        for filled, count in counts.items():
            for cell in cells:
                if not filled >> cell & 1:
                    step[filled | 1 << cell] = step.get(filled | 1 << cell, 0) + count
        counts = step
    return counts.get((1 << len(allowed)) - 1, 0)


def chance_all_fit(
    task: TaskCard | Sequence, destinations: Sequence[tuple[int, ...]], rules: Rules = Rules()
) -> Fraction:
    """What is the chance that a random layout fits `task` laid in each of these ways at once?

    A way of laying the card is given by its destinations: where each of its nine
    cells lands on the layout.

    Examples
    ========

    A red star in a corner, kept as dealt and given a half turn, asks two
    opposite corners for two different cards out of the 11 it accepts:

    >>> from colorlab.colorform.probability import chance_all_fit
    >>> kept, half_turn = (0, 1, 2, 3, 4, 5, 6, 7, 8), (8, 7, 6, 5, 4, 3, 2, 1, 0)
    >>> chance_all_fit(["red star"] + [None] * 8, [kept, half_turn])
    Fraction(11, 126)
    """
    accepts = ACCEPTS[rules.matching]
    shown = [(cell, wanted) for cell, wanted in enumerate(as_grid(task)) if wanted is not None]
    allowed: dict[int, int] = {}
    for destination in destinations:
        for cell, wanted in shown:
            spot = destination[cell]
            allowed[spot] = allowed.get(spot, EVERY_CARD) & accepts[wanted]
    return Fraction(count_fillings(list(allowed.values())), perm(len(FIGURES), len(allowed)))


def chance_layout_fits(task: TaskCard | Sequence, rules: Rules = Rules()) -> Fraction:
    """What is the chance that a random layout fits `task` in some allowed turn, with no hand cards?"""
    destinations = [destination for _, _, destination in TRANSFORMS[rules.rotations, rules.mirror_images]]
    return sum(
        (
            Fraction((-1) ** (size + 1)) * chance_all_fit(task, chosen, rules)
            for size in range(1, len(destinations) + 1)
            for chosen in combinations(destinations, size)
        ),
        Fraction(0),
    )


def chance_random_task_fits(rules: Rules = Rules()) -> Fraction:
    """What is the chance that a random layout fits a task card drawn at random from those in play?"""
    in_play = [card for card in task_cards() if card.size <= rules.largest_task]
    return sum((chance_layout_fits(card, rules) for card in in_play), Fraction(0)) / len(in_play)

"""What every game's encoding shares: blocks of action numbers laid end to end.

Each game's ``encoding.py`` numbers its actions kind by kind (all the passes, then all the
picks, ...). A block is where a kind's numbers start and how many there are.

>>> number_blocks({"pass": 1, "pick": 6, "place": 20})
{'pass': (0, 1), 'pick': (1, 6), 'place': (7, 20)}
"""

from __future__ import annotations

from itertools import accumulate


def number_blocks(sizes: dict[str, int]) -> dict[str, tuple[int, int]]:
    """Where does each kind of action start, given how many numbers each kind takes, in order?"""
    starts = accumulate(sizes.values(), initial=0)
    return {kind: (start, size) for (kind, size), start in zip(sizes.items(), starts)}

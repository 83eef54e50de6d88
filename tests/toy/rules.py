"""The toy game's rules: how many players, how big the pile, how many counters a move may take."""

from __future__ import annotations

import dataclasses

from colorlab.rules import RulesBase, rule


@dataclasses.dataclass(frozen=True)
class Rules(RulesBase):
    """The rules of one game of taking counters."""

    players: int = rule(2, "Players", "How many people (or bots) take turns.", low=2, high=4)
    pile: int = rule(15, "Pile", "How many counters lie in the pile at the start.", low=1, high=99)
    most: int = rule(3, "Most a move", "The most counters one move may take.", low=1, high=9)

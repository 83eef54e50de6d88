"""Col-Or-Form's rules: one frozen dataclass, one field per rule or edition decision."""

from __future__ import annotations

import dataclasses

from colorlab.colorform.components import task_cards
from colorlab.rules import RuleError, RulesBase, rule

MATCHING = ("shape or colour", "shape and colour", "shape", "colour")
VARIANTS = ("base", "junior")


@dataclasses.dataclass(frozen=True)
class Rules(RulesBase):
    """The rules of one game of Col-Or-Form (the colorlab edition by default).

    ``Rules.junior()`` gives the FIKOLO JUNIOR defaults: hands of 3, a personal
    pile of 4 task cards, and no task card with 5 figures.

    ``unsolvable_rounds`` is colorlab's own end for a table that can make no
    progress: the rulebook has none. A round counts towards it only when the
    solver proves, as its task cards are revealed, that no player can solve any
    of them (junior: that no active player can solve the card it turns up).
    Such rounds change neither the layout nor the hands; they only send the
    same task cards round again. In 15 of them every card still in play has
    come up (base: at most 30 cards, at least two a round; junior: a personal
    pile of at most 6, one a round) and none could be solved, so the default
    ends a game only when it could never go on. A base round cannot be given
    up while anyone can solve a revealed task, and passing (junior) on a card
    the active player can solve never counts; a change of rules starts the
    count again. Lower values end such tables sooner; a rule-variant experiment
    can compare them.
    """

    variant: str = rule(
        "base",
        "Game",
        "base: everyone plays at once and calls STOP; junior (FIKOLO "
        "JUNIOR): players take turns, each working through a personal pile of task cards.",
        choices=VARIANTS,
    )
    players: int = rule(2, "Players", "How many people (or bots) play.", low=2, high=6)
    hand_size: int = rule(
        4,
        "Hand size",
        "How many figure cards each player holds; hands are refilled to "
        "this size (base game: at a new round; junior: after each turn).",
        low=1,
        high=6,
    )
    tasks_per_player: int = rule(
        2,
        "Task cards per player",
        "Base game: task cards revealed in front of each player "
        "every round. Junior: the size of each player's personal pile.",
        low=1,
        high=6,
    )
    matching: str = rule(
        "shape or colour",
        "Matching",
        "When a figure on a task card fits the layout card "
        "under it: same shape or same colour (the rulebook), both at once, or only one "
        "of the two.",
        choices=MATCHING,
        live=True,
    )
    rotations: bool = rule(
        True,
        "Turn task cards",
        "May a task card be turned by quarter turns in the mind before it is laid over the layout?",
        live=True,
    )
    mirror_images: bool = rule(
        False,
        "Mirror task cards",
        "Variant: may a task card also be read mirrored, as if seen from behind? The rulebook only turns cards.",
        live=True,
    )
    largest_task: int = rule(
        5,
        "Largest task",
        "Task cards with more figures than this are left in the box. "
        "The rulebook suggests 3 for first games; junior leaves out the 5-figure cards.",
        low=2,
        high=5,
    )
    seconds_to_show: float = rule(
        10.0,
        "Seconds to show",
        "After calling STOP, the time to lay out the solution; a solution shown later counts as wrong.",
        low=1.0,
        high=120.0,
        live=True,
    )
    stop_window: float = rule(
        0.5,
        "Same-moment window",
        "The rulebook leaves 'almost the same moment' open: "
        "STOP calls within this many seconds of the first one are resolved together, "
        "in time order.",
        low=0.0,
        high=5.0,
        live=True,
    )

    unsolvable_rounds: int = rule(
        15,
        "Rounds nobody can solve",
        "The rulebook ends the game only after the round in "
        "which the task pile runs out, but a table where nothing fits any more would go round for "
        "ever. So the game also ends after this many rounds in a row in which nobody can solve any "
        "revealed task card: the solver checks every hand. (A round never ends while anyone can still "
        "solve a revealed task.) "
        "With 15 or more, every task card still in play has come up in those rounds, so the game "
        "ends this way only when it could never go on.",
        low=1,
        high=30,
        live=True,
    )

    def __post_init__(self) -> None:
        super().__post_init__()
        spare = 36 - 9 - self.players * self.hand_size
        if spare < 0:
            raise RuleError(
                "hand_size",
                self.hand_size,
                f"with {self.players} players and a 9-card layout, at most {27 // self.players} cards a hand",
            )
        available = sum(card.size <= self.largest_task for card in task_cards())
        if self.variant == "junior" and self.players * self.tasks_per_player > available:
            raise RuleError(
                "tasks_per_player",
                self.tasks_per_player,
                f"only {available} task cards have at most {self.largest_task} "
                f"figures: at most {available // self.players} per player",
            )

    @classmethod
    def junior(cls, **changes) -> Rules:
        """The FIKOLO JUNIOR rules, with any further changes."""
        defaults = {"variant": "junior", "hand_size": 3, "tasks_per_player": 4, "largest_task": 4}
        return cls(**{**defaults, **changes})

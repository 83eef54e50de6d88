"""Col-Or-Form: match task cards to a 3x3 layout of figures by shape or colour.

The public face of the game: its rules, cards, solver, model and bots.
"""

from colorlab.colorform.agents import ReactionBot, next_action
from colorlab.colorform.components import (
    Figure,
    Shape,
    TaskCard,
    figure,
    task_card,
    task_cards,
)
from colorlab.colorform.model import (
    ChangeRules,
    Claim,
    Pass,
    State,
    Stop,
    new_game,
    observation,
    play,
    ranking,
    scores,
    winners,
)
from colorlab.colorform.playout import play_game
from colorlab.colorform.rules import Rules
from colorlab.colorform.solver import Match, Solution, solvable, solve, why_not

__all__ = [
    "ChangeRules",
    "Claim",
    "Figure",
    "Match",
    "Pass",
    "ReactionBot",
    "Rules",
    "Shape",
    "Solution",
    "State",
    "Stop",
    "TaskCard",
    "figure",
    "new_game",
    "next_action",
    "observation",
    "play",
    "play_game",
    "ranking",
    "scores",
    "solvable",
    "solve",
    "task_card",
    "task_cards",
    "why_not",
    "winners",
]

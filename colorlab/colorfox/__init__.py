"""ColorFox: place cards so that coloured half-matches connect; score sets of sticks.

The public face of the game: its rules, cards, scoring, model and bots. The
widget lives in ``colorlab.colorfox.view`` (imported on demand).
"""

from colorlab.colorfox.agents import GreedyBot, RandomBot, SearchBot, SetBuilder, next_action, play_game
from colorlab.colorfox.components import Card, card, cards
from colorlab.colorfox.model import (
    Done,
    Exchange,
    HandBack,
    Offer,
    Pass,
    Place,
    State,
    legal_actions,
    legal_places,
    new_game,
    observation,
    play,
    rematch_due,
    scores,
    to_move,
    winners,
)
from colorlab.colorfox.rules import Rules
from colorlab.colorfox.scoring import best_sets, score_sticks

__all__ = [
    "Card",
    "Done",
    "Exchange",
    "GreedyBot",
    "HandBack",
    "Offer",
    "Pass",
    "Place",
    "RandomBot",
    "Rules",
    "SearchBot",
    "SetBuilder",
    "State",
    "best_sets",
    "card",
    "cards",
    "legal_actions",
    "legal_places",
    "new_game",
    "next_action",
    "observation",
    "play",
    "play_game",
    "rematch_due",
    "score_sticks",
    "scores",
    "to_move",
    "winners",
]

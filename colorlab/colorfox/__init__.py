"""ColorFox: place cards so that coloured half-matches connect; score sets of sticks."""

from colorlab.colorfox.rules import Rules
from colorlab.colorfox.scoring import best_sets, score_sticks

__all__ = ["Rules", "best_sets", "score_sticks"]

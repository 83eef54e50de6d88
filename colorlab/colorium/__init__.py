"""Colorium: draft shape and colour dice, and draw polyominoes that drop onto your board.

The public face of the game: its rules, board, shapes and drop rules, missions,
model and bots.
"""

from colorlab.colorium.agents import GreedyBot, MissionBot, RandomBot, SearchBot, next_action, play_game
from colorlab.colorium.board import Board
from colorlab.colorium.missions import MISSIONS, Mission, add_mission, draw_missions
from colorlab.colorium.model import (
    Draw,
    Pick,
    PlayerOut,
    State,
    Wild,
    legal_draws,
    legal_wilds,
    new_game,
    play,
    score_parts,
    scores,
    winners,
)
from colorlab.colorium.rules import Rules
from colorlab.colorium.shapes import SHAPES, orientations, placements

__all__ = [
    "MISSIONS",
    "SHAPES",
    "Board",
    "Draw",
    "GreedyBot",
    "Mission",
    "MissionBot",
    "Pick",
    "PlayerOut",
    "RandomBot",
    "Rules",
    "SearchBot",
    "State",
    "Wild",
    "add_mission",
    "draw_missions",
    "legal_draws",
    "legal_wilds",
    "new_game",
    "next_action",
    "orientations",
    "placements",
    "play",
    "play_game",
    "score_parts",
    "scores",
    "winners",
]

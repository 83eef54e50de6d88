"""Colorium: draft shape and colour dice, and draw polyominoes that drop onto your board."""

from colorlab.colorium.board import Board
from colorlab.colorium.rules import Rules

__all__ = ["Board", "Rules"]

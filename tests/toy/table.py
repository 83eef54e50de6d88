"""The toy game at a shared table: one seat moves at a time, and everything lies open."""

from __future__ import annotations

import dataclasses

from colorlab.tables.games import TableGame
from tests.toy.model import State, scores


def view(state: State, seat: int | None) -> dict:
    """Everything: the pile, whose turn it is and the winner (the game hides nothing)."""
    return {
        "pile": state.pile,
        "to_move": state.to_move,
        "winner": state.winner,
        "over": state.over,
        "you": seat,
        "rules": dataclasses.asdict(state.rules),
    }


TABLE = TableGame(
    name="toy",
    seat_of=lambda action: getattr(action, "player", None),
    waiting_for=lambda state: [] if state.over else [state.to_move],
    view=view,
    scores=scores,
)

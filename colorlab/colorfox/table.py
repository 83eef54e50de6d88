"""ColorFox at a shared table: whose decision it is, what each seat sees, which bots may sit."""

from __future__ import annotations

from colorlab.colorfox.model import State, observation, scores, to_move
from colorlab.tables.games import TableGame


def waiting_for(state: State) -> list[int]:
    """Which seat's decision does the game wait for (the opponent's, when an offer waits)?"""
    return [] if state.over else [to_move(state)]


def view(state: State, seat: int | None) -> dict:
    """What a seat sees: its own hand, every other hand as a number of cards (the room sees no hand)."""
    if seat is None:
        return {**observation(state, 0), "you": None, "hand": []}
    return observation(state, seat)


TABLE = TableGame(
    name="colorfox",
    seat_of=lambda action: getattr(action, "player", None),
    waiting_for=waiting_for,
    view=view,
    scores=scores,
)

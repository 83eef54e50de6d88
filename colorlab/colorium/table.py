"""Colorium at a shared table: picks in turn, drawings at the same time, bots that may sit."""

from __future__ import annotations

from colorlab.colorium.model import State, observation, scores
from colorlab.tables.games import TableGame


def waiting_for(state: State) -> list[int]:
    """Which seats may act now: the next to pick, or everyone still in who has not drawn?"""
    if state.over:
        return []
    if state.phase == "draft":
        return [state.order[0]]
    return [p for p in range(state.players) if not state.drawn[p] and not state.out[p]]


def moment(state: State, seat: int | None) -> tuple:
    """A pick changes the pool for everyone; a drawing changes only the drawer's own board."""
    return (state.round, state.phase, len(state.pool))


TABLE = TableGame(
    name="colorium",
    seat_of=lambda action: getattr(action, "player", None),
    waiting_for=waiting_for,
    view=observation,
    scores=scores,
    moment=moment,
)

"""What a shared table needs to know about a game, beyond its record.

Each game describes its table once, in its own ``table.py``, with a :class:`TableGame`
that its declaration (:mod:`colorlab.games`) names; this module never imports a game.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable, Mapping
from typing import Any

from colorlab.agents import Agent
from colorlab.games import find_game


def bots_move(state: Any, bots: Mapping[int, Agent], waiting_for: Callable[[Any], list[int]]) -> Any | None:
    """The first move a bot wants to make among the seats the game waits for (None if no bot may move)."""
    for seat in waiting_for(state):
        if seat in bots:
            action = bots[seat].act(state, seat)
            if action is not None:
                return action
    return None


@dataclasses.dataclass(frozen=True)
class Call:
    """A real-time call (Col-Or-Form's STOP) waiting for its same-moment window to close.

    `seconds` is when it reached the table, counted by the table's clock from the
    moment the table last changed.
    """

    seat: int
    action: Any
    seconds: float


@dataclasses.dataclass(frozen=True)
class TableGame:
    """One game as a table plays it.

    - `seat_of(action)`: the seat an action acts for (None: no seat may send it);
    - `waiting_for(state)`: the seats whose move the game waits for now;
    - `view(state, seat)`: what that seat (None: the room) may see, as plain JSON values;
    - `scores(state)`: points per seat;
    - `moment(state, seat)`: the decision a seat faces; a move chosen for an older moment is stale;
    - `next_auto(state, bots, calls, seconds)`: the next action that needs no learner: a bot's
      move, or (real-time games) the resolution of calls whose window has closed;
    - `due(state, bots, calls)`: (real-time games) when, on the table's clock, `next_auto` may next have
      something to play although nobody moves (None: not before a move); those who follow the table look again then;
    - `is_call(state, action)`: is this action a real-time call, collected before it is played?
    - `call_action(state, calls)`: which action do these calls, made at the same moment, become?
    - `table_rules(rules)`: refuse (ValueError) rules that work in one kernel but not at a shared table;
    - `room_actions`: the kinds of action that belong to no seat but to the room (Colourbrain's quiz
      master's Next), played through ``TableStore.advance`` by whoever runs the room (the teacher).
    """

    name: str
    seat_of: Callable[[Any], int | None]
    waiting_for: Callable[[Any], list[int]]
    view: Callable[[Any, int | None], dict]
    scores: Callable[[Any], list[int]]
    moment: Callable[[Any, int | None], Hashable] | None = None
    next_auto: Callable[[Any, Mapping[int, Agent], list[Call], float], Any | None] | None = None
    due: Callable[[Any, Mapping[int, Agent], list[Call]], float | None] | None = None
    is_call: Callable[[Any, Any], bool] = lambda state, action: False
    call_action: Callable[[Any, list[Call]], Any] | None = None
    table_rules: Callable[[Any], None] = lambda rules: None
    room_actions: tuple[type, ...] = ()

    def auto_action(self, state: Any, bots: Mapping[int, Agent], calls: list[Call], seconds: float) -> Any | None:
        """What happens next without any learner, `seconds` after the table last changed?"""
        if state.over:
            return None
        if self.next_auto is not None:
            return self.next_auto(state, bots, calls, seconds)
        return bots_move(state, bots, self.waiting_for)

    def moment_of(self, state: Any, seat: int | None, step: int) -> Hashable:
        """Which decision does `seat` (None: the room) face at `step`? (By default every step is a new one.)"""
        return step if self.moment is None else self.moment(state, seat)


def table_game(name: str) -> TableGame:
    """How is this game played at a table (LookupError in plain words if it is no game, or none for tables)?"""
    game = find_game(name)
    table = game.part("table")
    if table is None:
        raise LookupError(f"{game.title} cannot be played at a table")
    return table

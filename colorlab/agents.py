"""The one protocol every bot of every game follows.

An agent looks at a state from one player's seat and proposes an action, or
``None`` when it has nothing to do. Agents draw their own chance from a seeded
``random.Random``, so that a game played by bots is reproducible from the
seeds alone.
"""

from __future__ import annotations

import random
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Agent(Protocol):
    """Anything that can choose an action for a player."""

    name: str

    def act(self, state: Any, player: int) -> Any | None:
        """Which action does this agent take for `player` in `state`, if any?"""


class SeededAgent:
    """A bot with a name, a skill level and its own seeded source of chance."""

    levels: tuple[str, ...] = ("easy", "medium", "hard")

    def __init__(self, level: str = "medium", seed: int = 0, name: str | None = None):
        if level not in self.levels:
            raise ValueError(f"level {level!r} is unknown; choose one of {', '.join(self.levels)}")
        self.level = level
        self.rng = random.Random(seed)
        self.name = name or f"{type(self).__name__} ({level})"

    def __repr__(self) -> str:
        return f"{type(self).__name__}(level={self.level!r})"


def play_out(game: str, rules: Any, agents: list, seed: int, next_action, max_actions: int):
    """Play one whole game of `game` between agents and return its record.

    `next_action(state, agents)` says what happens next at the table; the game
    must end within `max_actions` actions.
    """
    from colorlab.record import GameRecord, game_spec

    if len(agents) != rules.players:
        raise ValueError(f"{rules.players} players need {rules.players} agents, not {len(agents)}")
    spec = game_spec(game)
    state, actions = spec.new_game(rules, seed), []
    while not state.over:
        if len(actions) >= max_actions:
            raise RuntimeError(f"{game} game {seed} did not end within {max_actions} actions")
        action = next_action(state, agents)
        state = spec.play(state, action)
        actions.append(action)
    return GameRecord(game, rules, seed, tuple(actions), final=state)

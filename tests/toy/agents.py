"""The toy game's bots: one takes at random, one leaves the pile a multiple of (most + 1) when it can."""

from __future__ import annotations

from colorlab.agents import SeededAgent, play_out, seated_bots
from tests.toy.model import State, Take, legal_counts
from tests.toy.rules import Rules


class RandomBot(SeededAgent):
    """Take a random legal count."""

    def act(self, state: State, player: int) -> Take | None:
        if state.over or player != state.to_move:
            return None
        return Take(player, self.rng.choice(legal_counts(state)))


class CleverBot(RandomBot):
    """Leave the pile a multiple of most + 1 (a winning position), else take at random."""

    def act(self, state: State, player: int) -> Take | None:
        move = super().act(state, player)
        best = state.pile % (state.rules.most + 1)
        return Take(player, best) if move is not None and best in legal_counts(state) else move


def play_game(rules: Rules = Rules(), agents: list | None = None, seed: int = 0, max_actions: int = 1000):
    """Play a whole game between bots and return its record."""
    agents = agents or seated_bots([RandomBot] * rules.players, seed)
    return play_out(
        "toy", rules, agents, seed, lambda state, bots: bots[state.to_move].act(state, state.to_move), max_actions
    )

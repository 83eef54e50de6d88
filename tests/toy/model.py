"""The toy game's states and its one action: a pure `play` that refuses an illegal take and changes nothing."""

from __future__ import annotations

import dataclasses

from colorlab.record import read_action
from colorlab.rules import GameOver, IllegalAction, NotYourTurn, check_seat
from tests.toy.rules import Rules


class BadTake(IllegalAction):
    """A take of no counters, of too many, or of more than the pile holds."""


@dataclasses.dataclass(frozen=True)
class Take:
    """A player takes some counters from the pile."""

    player: int
    count: int


@dataclasses.dataclass(frozen=True)
class State:
    """The pile, whose turn it is and who took the last counter."""

    rules: Rules
    pile: int
    to_move: int
    winner: int | None = None

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def players(self) -> int:
        return self.rules.players


def new_game(rules: Rules = Rules(), seed: int = 0) -> State:
    """A new game: the whole pile, player 0 to move (nothing is left to chance, so the seed changes nothing)."""
    return State(rules, rules.pile, 0)


def legal_counts(state: State) -> list[int]:
    """How many counters may the player to move take?"""
    return [] if state.over else list(range(1, min(state.rules.most, state.pile) + 1))


def play(state: State, action: Take) -> State:
    """The state after a take; refuse a take out of turn, of a wrong count, or after the end."""
    if state.over:
        raise GameOver("the game is over")
    player = check_seat(action.player, state.players, NotYourTurn)
    if player != state.to_move:
        raise NotYourTurn(f"it is player {state.to_move}'s turn, not player {player}'s")
    if action.count not in legal_counts(state):
        raise BadTake(f"take 1 to {min(state.rules.most, state.pile)} counters, not {action.count}")
    pile = state.pile - action.count
    return dataclasses.replace(
        state, pile=pile, to_move=(player + 1) % state.players, winner=player if pile == 0 else None
    )


def scores(state: State) -> list[int]:
    """One point for whoever took the last counter."""
    return [int(player == state.winner) for player in range(state.players)]


def outcome(final: State, actions: int, record=None) -> dict:
    """The numbers an experiment keeps about one finished game."""
    return {"scores": scores(final), "winners": [final.winner], "rounds": actions, "actions": actions}


def action_to_dict(action: Take) -> dict:
    return {"type": "take", "player": action.player, "count": action.count}


def action_from_dict(data: dict) -> Take:
    """Read a take written by :func:`action_to_dict`."""
    kind, values = read_action(data, {"take": (Take, {"player": int, "count": int})})
    return kind(**values)

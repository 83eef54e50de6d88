"""ColorFox bots, and a loop that plays bots against each other.

- :class:`RandomBot` places a random fitting card and makes random exchanges.
- :class:`GreedyBot` takes the placement that raises its own score most now (then
  the most sticks), and only exchanges when that raises its score.
- :class:`SetBuilder` places like the greedy bot but exchanges with care: it takes
  the colour that completes its sets and gives what helps the leader least.

When the rules let the opponent pick the stick it hands over, the loop asks the
opponent's bot (:meth:`stick_to_give`).
"""

from __future__ import annotations

import dataclasses

from colorlab.agents import SeededAgent, play_out
from colorlab.colorfox.model import (COLOUR_NAMES, Done, Exchange, Pass, Place, State, connections,
                                     legal_places, legal_spots, scores, stick_counts)
from colorlab.colorfox.rules import Rules
from colorlab.colorfox.scoring import score_sticks
from colorlab.record import GameRecord


def exchanges(state: State) -> list[Exchange]:
    """Which exchanges may the active player make now?"""
    me = state.active
    mine = state.sticks[me]
    return [Exchange(me, other, give, take)
            for other in range(state.players) if other != me
            for give, have in zip(COLOUR_NAMES, mine) if have
            for take, theirs in zip(COLOUR_NAMES, state.sticks[other]) if theirs and take != give]


def gain(state: State, player: int, more: dict[str, int]) -> int:
    """How much would a player's score change if its sticks changed by `more`?"""
    counts = stick_counts(state, player)
    after = {name: counts[name] + more.get(name, 0) for name in counts}
    return score_sticks(after, state.rules) - score_sticks(counts, state.rules)


def place_value(state: State, place: Place) -> tuple[int, int]:
    """What does a placement bring now: (score gained, sticks gained)?"""
    more: dict[str, int] = {}
    supply = dict(zip(COLOUR_NAMES, state.supply))
    for name in connections(state, (place.x, place.y)):
        if supply[name] > more.get(name, 0):
            more[name] = more.get(name, 0) + 1
    return gain(state, place.player, more), sum(more.values())


class RandomBot(SeededAgent):
    """Plays any fitting card and any exchange, at random."""

    def act(self, state: State, player: int):
        if state.exchanges_left:
            options = exchanges(state)
            return self.rng.choice(options) if options and self.rng.random() < 0.5 else Done(player)
        spots = legal_spots(state, player)
        return Place(player, *self.rng.choice(spots)) if spots else Pass(player)

    def stick_to_give(self, state: State, me: int, to: int, not_colour: str) -> str | None:
        """Which of my sticks do I hand over when an opponent exchanges with me?"""
        held = [name for name, n in stick_counts(state, me).items() if n and name != not_colour]
        return self.rng.choice(held) if held else None


class GreedyBot(RandomBot):
    """Takes what scores most now."""

    def act(self, state: State, player: int):
        if state.exchanges_left:
            return self.best_exchange(state) or Done(player)
        places = legal_places(state, player)
        if not places:
            return Pass(player)
        best = max(place_value(state, place) for place in places)
        return self.rng.choice([place for place in places if place_value(state, place) == best])

    def exchange_value(self, state: State, exchange: Exchange) -> float:
        """How good is this exchange for me?"""
        return gain(state, exchange.player, {exchange.give: -1, exchange.take: 1})

    def best_exchange(self, state: State) -> Exchange | None:
        """Which exchange helps most, if any helps at all?"""
        options = [(self.exchange_value(state, e), e) for e in exchanges(state)]
        if not options:
            return None
        value, best = max(options, key=lambda pair: pair[0])
        return best if value > 0 else None

    def stick_to_give(self, state: State, me: int, to: int, not_colour: str) -> str | None:
        held = [name for name, n in stick_counts(state, me).items() if n and name != not_colour]
        return max(held, key=lambda name: gain(state, me, {name: -1}), default=None)


class SetBuilder(GreedyBot):
    """Exchanges to complete its own sets while feeding the leader as little as possible."""

    def exchange_value(self, state: State, exchange: Exchange) -> float:
        mine = gain(state, exchange.player, {exchange.give: -1, exchange.take: 1})
        theirs = gain(state, exchange.opponent, {exchange.give: 1, exchange.take: -1})
        points = scores(state)
        leader = max(range(state.players), key=lambda p: (points[p], p != exchange.player))
        return mine - theirs * (1.0 if exchange.opponent == leader else 0.5)


def next_action(state: State, agents: list):
    """What happens next at a table of bots (the opponent choosing a stick when the rules say so)?"""
    action = agents[state.active].act(state, state.active)
    if isinstance(action, Exchange) and state.rules.exchange_pick == "opponent":
        take = agents[action.opponent].stick_to_give(state, action.opponent, state.active, action.give)
        return dataclasses.replace(action, take=take) if take else Done(state.active)
    return action


def play_game(rules: Rules = Rules(), agents: list | None = None, seed: int = 0,
              max_actions: int = 2_000) -> GameRecord:
    """Play a whole game between bots and return its record."""
    agents = agents or [GreedyBot(seed=seed * 31 + seat) for seat in range(rules.players)]
    return play_out("colorfox", rules, agents, seed, next_action, max_actions)

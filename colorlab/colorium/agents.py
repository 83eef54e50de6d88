"""Colorium bots, and a loop that plays bots against each other.

- :class:`RandomBot` picks any die it may take, and draws anywhere it may or fills
  a wild space, all with the same chance.
- :class:`GreedyBot` keeps its board healthy: it draws low, leaves few covered
  holes, finishes rows and uses new shapes and colours; in the draft it takes the
  die that allows its best drawing.
- :class:`MissionBot` adds what each drawing does to its score in the missions
  on the table.
"""

from __future__ import annotations

from colorlab.agents import SeededAgent, play_out
from colorlab.colorium.board import EMPTY, Board
from colorlab.colorium.missions import MISSIONS
from colorlab.colorium.model import Draw, Pick, State, legal_draws, legal_wilds
from colorlab.colorium.rules import Rules
from colorlab.colorium.shapes import placements
from colorlab.record import GameRecord


def legal_picks(state: State, player: int) -> list[Pick]:
    """Which dice may this player take from the pool now?"""
    shape, colour = state.picks[player]
    return [Pick(player, index) for index, (kind, _) in enumerate(state.pool)
            if (kind == "shape" and not shape) or (kind == "colour" and not colour)]


def holes(board: Board) -> int:
    """How many empty spaces lie under a filled space in their column?"""
    count = 0
    for c in range(board.width):
        covered = False
        for row in board.rows:
            if row[c] != EMPTY:
                covered = True
            elif covered:
                count += 1
    return count


def health(state: State, player: int, draw: Draw) -> float:
    """How good is a drawing for the board itself (low, few holes, rows finished, variety)?"""
    before = state.boards[player]
    after = before.filled(draw.cells, draw.colour, draw.shape)
    rows = len(after.full_rows()) - len(before.full_rows())
    height = sum(r for r, _ in draw.cells) / len(draw.cells)
    fresh = (draw.shape not in state.used_shapes[player]) + (draw.colour not in state.used_colours[player])
    return 3.0 * rows + 0.5 * height - 2.0 * (holes(after) - holes(before)) + 1.5 * fresh - 2.0 * draw.cuts


class RandomBot(SeededAgent):
    """Takes any die, and draws anywhere or fills any wild space, at random."""

    def act(self, state: State, player: int):
        if state.phase == "draft":
            return self.rng.choice(legal_picks(state, player))
        return self.rng.choice(legal_draws(state, player) + legal_wilds(state, player))


class GreedyBot(RandomBot):
    """Draws where its board stays healthiest, and drafts for its best drawing."""

    def values(self, state: State, player: int, options: list[Draw]) -> list[float]:
        """How good is each of these drawings?"""
        return [health(state, player, draw) for draw in options]

    def act(self, state: State, player: int):
        if state.phase == "draft":
            return max(legal_picks(state, player), key=lambda pick: self.pick_value(state, pick))
        options = legal_draws(state, player)
        values = self.values(state, player, options)
        best = max(values)
        return self.rng.choice([d for d, v in zip(options, values) if v == best])

    def pick_value(self, state: State, pick: Pick) -> float:
        """How many resting places would this die's shape have (colour dice: does it add variety)?"""
        kind, face = state.pool[pick.die]
        if kind == "colour":
            return 0.5 + (face not in state.used_colours[pick.player])
        return len(placements(state.boards[pick.player], face, state.rules)) / 10 + \
            (face not in state.used_shapes[pick.player])


class MissionBot(GreedyBot):
    """Also weighs what a drawing does to its own mission points."""

    def values(self, state: State, player: int, options: list[Draw]) -> list[float]:
        missions = [MISSIONS[m] for m in state.missions]
        boards = list(state.boards)
        before = sum(m.score(boards)[player] for m in missions)
        found = []
        for draw in options:
            boards[player] = state.boards[player].filled(draw.cells, draw.colour, draw.shape)
            after = sum(m.score(boards)[player] for m in missions)
            found.append(health(state, player, draw) + 1.5 * (after - before))
        return found


def next_action(state: State, agents: list):
    """What happens next at a table of bots: the next pick, or the next player's drawing?"""
    if state.phase == "draft":
        seat = state.order[0]
    else:
        seat = next(p for p in range(state.players) if not state.drawn[p])
    return agents[seat].act(state, seat)


def play_game(rules: Rules = Rules(), agents: list | None = None, seed: int = 0,
              max_actions: int = 2_000) -> GameRecord:
    """Play a whole game between bots and return its record."""
    agents = agents or [GreedyBot(seed=seed * 31 + seat) for seat in range(rules.players)]
    return play_out("colorium", rules, agents, seed, next_action, max_actions)

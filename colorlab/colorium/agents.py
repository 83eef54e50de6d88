"""Colorium bots, and a loop that plays bots against each other.

- :class:`RandomBot` picks any die it may take, and draws anywhere it may or fills
  a wild space, all with the same chance.
- :class:`GreedyBot` keeps its board healthy: it draws low, leaves few covered
  holes, finishes rows and uses new shapes and colours; in the draft it takes the
  die that allows its best drawing.
- :class:`MissionBot` adds what each drawing does to its score in the missions
  on the table.
- :class:`SearchBot` searches ahead (information-set MCTS, ``colorlab.search``) over
  many rolls of the dice to come, the only thing a player cannot see.
"""

from __future__ import annotations

import dataclasses
import math
import random

from colorlab.agents import SeededAgent, play_out, seated_bots
from colorlab.colorium.board import EMPTY, Board
from colorlab.colorium.missions import MISSIONS
from colorlab.colorium.model import (
    Draw,
    Pick,
    State,
    acting,
    legal_choices,
    legal_draws,
    legal_wilds,
    observation,
    pick_of,
    play,
    scores,
    winners,
)
from colorlab.colorium.rules import Rules
from colorlab.colorium.shapes import placements
from colorlab.record import GameRecord
from colorlab.search import SearchAgent, SearchGame, Tuning


def legal_picks(state: State, player: int) -> list[Pick]:
    """Which dice may this player take from the pool now?"""
    return [pick_of(player, die) for die in takeable_dice(state, player)]


def takeable_dice(state: State, player: int) -> list[int]:
    """Which dice (their places in the pool) may this player take now?"""
    shape, colour = state.picks[player]
    return [
        index
        for index, (kind, _) in enumerate(state.pool)
        if (kind == "shape" and not shape) or (kind == "colour" and not colour)
    ]


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
        # random.choice looks only at the length and the item chosen: choosing the die, or from
        # lazy choices, draws the same random number as choosing from the listed actions did.
        if state.phase == "draft":
            return pick_of(player, self.rng.choice(takeable_dice(state, player)))
        return self.rng.choice(legal_choices(state, player))


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
        return len(placements(state.boards[pick.player], face, state.rules)) / 10 + (
            face not in state.used_shapes[pick.player]
        )


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
    seat = to_move(state)
    return agents[seat].act(state, seat)


def play_game(
    rules: Rules = Rules(), agents: list | None = None, seed: int = 0, max_actions: int = 2_000
) -> GameRecord:
    """Play a whole game between bots (by default a GreedyBot at every seat) and return its record."""
    agents = agents or seated_bots([GreedyBot] * rules.players, seed)
    return play_out("colorium", rules, agents, seed, next_action, max_actions)


def to_move(state: State) -> int:
    """Who decides now: the next picker in the draft, else the first player still to draw?"""
    if state.phase == "draft":
        return state.order[0]
    return state.drawn.index(False)


def search_actions(state: State) -> list:
    """The moves of the player to decide, quickly ranked: drawings lowest on the board first, wild spaces last."""
    player = to_move(state)
    if state.phase == "draft":
        return legal_picks(state, player)
    return sorted(legal_draws(state, player), key=lowness, reverse=True) + legal_wilds(state, player)


def root_actions(state: State, player: int) -> list:
    """The search bot's own moves, best first by the mission bot's measures (wild spaces last)."""
    if state.phase == "draft":
        return sorted(legal_picks(state, player), key=lambda pick: MISSION_BOT.pick_value(state, pick), reverse=True)
    draws = legal_draws(state, player)
    values = MISSION_BOT.values(state, player, draws)
    ranked = sorted(range(len(draws)), key=lambda i: values[i], reverse=True)
    return [draws[i] for i in ranked] + legal_wilds(state, player)


def lowness(draw: Draw) -> float:
    """How low on the board does a drawing lie (its mean row, row 0 at the top)?"""
    return sum(row for row, _ in draw.cells) / len(draw.cells)


def move_key(state: State, action):
    """Name a pick by its die's face (pools are sorted, but a future pool differs between deals)."""
    return (action.player, state.pool[action.die]) if isinstance(action, Pick) else action


def determinise(state: State, player: int, rng: random.Random) -> State:
    """Roll the future dice again: a new seed for the rounds to come (everything else is on the table)."""
    return dataclasses.replace(state, seed=rng.getrandbits(64))


def result(state: State) -> list[float]:
    """Each player's result between 0 and 1.

    At the end: mostly a share of the win, a little the lead in points. Before the end
    (a playout stopped at the horizon): the lead in points, less two points for every
    covered hole, a space the board can no longer fill (the greedy bot's worry).
    """
    if not state.over:
        return _lead([points - HOLE_POINTS * holes(board) for points, board in zip(scores(state), state.boards)])
    best = winners(state)
    return [
        WIN_WEIGHT * (p in best) / len(best) + (1 - WIN_WEIGHT) * lead for p, lead in enumerate(_lead(scores(state)))
    ]


def _lead(points: list[float]) -> list[float]:
    """Each player's lead over the best other player, squeezed between 0 and 1 (0.5: level; alone: over 0)."""
    others = [max(points[:p] + points[p + 1 :], default=0) for p in range(len(points))]
    return [0.5 + 0.5 * math.tanh((mine - other) / MARGIN_SCALE) for mine, other in zip(points, others)]


def playout_action(state: State, rng: random.Random):
    """The playout policy: a random die, and a drawing as low on the board as it goes (quick to judge)."""
    player = to_move(state)
    if state.phase == "draft":
        return rng.choice(legal_picks(state, player))
    return max(legal_draws(state, player), key=lambda draw: (lowness(draw), rng.random()))


MISSION_BOT = MissionBot()
WIN_WEIGHT = 0.8
MARGIN_SCALE = 10.0
HOLE_POINTS = 2.0
HORIZON = 8  # moves a playout plays before it is judged: a round of two players and more
SEARCH_GAME = SearchGame(
    to_move=to_move,
    actions=search_actions,
    root_actions=root_actions,
    acting=acting,
    play=play,
    is_over=lambda state: state.over,
    reward=result,
    determinise=determinise,
    playout_action=playout_action,
    key=move_key,
    horizon=HORIZON,
)


class SearchBot(SearchAgent):
    """Searches ahead over many possible rolls of the dice to come (information-set MCTS)."""

    game = SEARCH_GAME
    playouts_per_move = 1500
    tuning = Tuning(widening=1.0, bias=0.5)

    def sight(self, state: State, player: int) -> dict:
        return observation(state, player)

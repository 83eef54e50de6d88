"""Information-set Monte Carlo tree search: one search for every game with hidden information.

A bot cannot see everything (the other hands, the order of the deck, the dice
still to roll), so it cannot search the true state. Each playout therefore
starts from a **determinisation**: a state that agrees with everything the bot
sees, with the rest dealt again at random. All playouts share one tree whose
nodes are sequences of moves, not states (single-observer information-set
MCTS, Cowling, Powley and Whitehouse 2012): a move is judged over many possible
worlds at once.

One playout (one iteration of the search):

1. deal a determinisation of the root;
2. walk down the tree, choosing among the moves legal in this world by UCB1,
   where a move's count of chances is how often it was legal (its
   *availability*), not how often its parent was visited, and (if tuned so) a
   progressive bias towards the moves the game ranks first;
3. add one untried move as a new node (with progressive widening, only the
   first few moves of the game's best-first list are tried until the node has
   been visited often enough to deserve more);
4. finish the game, or play a fixed number of moves, with the game's playout
   policy, and score the state reached with the game's reward (each player's
   result between 0 and 1);
5. add each node's mover's reward to that node on the way back.

The bot then plays the root move tried most often. The budget is a number of
playouts (reproducible) or a number of seconds (not reproducible). The search
draws all its chance from the `random.Random` it is given.

The search knows no game: a game hands it a :class:`SearchGame` of plain
functions.

Examples
========
>>> import random
>>> from colorlab.search import SearchGame, search
>>> # Take 1 or 2 counters from 5; whoever takes the last counter wins.
>>> take = SearchGame(
...     to_move=lambda s: s[1],
...     actions=lambda s: [n for n in (1, 2) if n <= s[0]],
...     play=lambda s, n: (s[0] - n, 1 - s[1]),
...     is_over=lambda s: s[0] == 0,
...     reward=lambda s: [float(s[1] != p) for p in (0, 1)],
...     determinise=lambda s, player, rng: s,
... )
>>> search(take, (5, 0), 0, random.Random(0), playouts=500)
2
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import random
import time
from collections.abc import Callable, Hashable, Sequence
from typing import Any

EXPLORATION = 0.7  # UCB1's constant; rewards lie in [0, 1], so sqrt(2)/2 is the textbook value


def same(state: Any, action: Any) -> Hashable:
    """An action that is its own key in the tree."""
    return action


@dataclasses.dataclass(frozen=True)
class SearchGame:
    """What the search needs to know about one game, as plain functions.

    - ``to_move(state)``: who decides now.
    - ``actions(state)``: the moves of that player; best first when the search widens progressively.
    - ``root_actions(state, player)``: the moves of `player` for the bot's own decision, asked once
      per search, so it may rank them with more care (None: ``actions``). A player's own moves are
      the same in every determinisation, so one list serves every playout.
    - ``acting(state)``: every player who may decide now, where several act at once (Colorium's
      drawings); the bot then decides for any of them, not only for ``to_move`` (None: ``to_move``
      alone). Such a game gives ``root_actions``.
    - ``play(state, action)``: the state after a move (it is never given an illegal one).
    - ``is_over(state)``: has the game ended?
    - ``reward(state)``: each player's result between 0 and 1, of a finished game or of a
      playout stopped early (then an estimate).
    - ``determinise(state, player, rng)``: a state that agrees with everything `player` sees,
      the rest dealt at random from `rng`.
    - ``playout_action(state, rng)``: the playout policy's move (None: any legal move, at random).
    - ``key(state, action)``: what names a move in the tree, so that the same move in two
      determinisations meets the same node.
    - ``horizon``: playouts stop after this many moves and are scored by ``reward`` (None: play to the end).
    """

    to_move: Callable[[Any], int]
    actions: Callable[[Any], list]
    play: Callable[[Any, Any], Any]
    is_over: Callable[[Any], bool]
    reward: Callable[[Any], Sequence[float]]
    determinise: Callable[[Any, int, random.Random], Any]
    root_actions: Callable[[Any, int], list] | None = None
    acting: Callable[[Any], Sequence[int]] | None = None
    playout_action: Callable[[Any, random.Random], Any] | None = None
    key: Callable[[Any, Any], Hashable] = same
    horizon: int | None = None


class Node:
    """A sequence of moves from the root: how often it was tried, was legal, and what it earned its mover."""

    __slots__ = ("available", "children", "mover", "total", "visits")

    def __init__(self, mover: int):
        self.mover = mover
        self.visits = 0
        self.available = 0
        self.total = 0.0
        self.children: dict[Hashable, Node] = {}


def check_budget(playouts: int | None, seconds: float | None) -> None:
    """Refuse a budget that is not a positive whole number of playouts or a positive number of seconds."""
    if (playouts is None) == (seconds is None):
        raise ValueError("give the search one budget: a number of playouts or a number of seconds")
    if playouts is not None and (isinstance(playouts, bool) or not isinstance(playouts, int) or playouts < 1):
        raise ValueError(f"playouts must be a whole number of at least 1, not {playouts!r}")
    if seconds is not None and (
        isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not seconds > 0 or math.isinf(seconds)
    ):
        raise ValueError(f"seconds must be a positive number, not {seconds!r}")


@dataclasses.dataclass(frozen=True)
class Tuning:
    """How a search spends its playouts.

    - ``exploration``: UCB1's constant.
    - ``widening`` (None: off): a node tries its first ``ceil(widening * sqrt(visits + 1))``
      moves only, in the order ``game.actions`` gives them, and adds them in that order;
      without it, untried moves are added in random order.
    - ``bias``: progressive bias (Chaslot and others, 2008): the move ranked r-th (from 0)
      gets ``bias / (r + 1) / visits`` more, so that a few playouts follow the ranking and
      many playouts overrule it.
    """

    exploration: float = EXPLORATION
    widening: float | None = None
    bias: float = 0.0


def search(
    game: SearchGame,
    state: Any,
    player: int,
    rng: random.Random,
    playouts: int | None = None,
    seconds: float | None = None,
    tuning: Tuning = Tuning(),
) -> Any:
    """Which move should `player` make in `state`, after searching within the budget?

    Ties in the final count of playouts go to the move ranked first.
    """
    check_budget(playouts, seconds)
    moves = game.root_actions(state, player) if game.root_actions else game.actions(state)
    if len(moves) == 1:
        return moves[0]
    by_key = {game.key(state, move): move for move in moves}
    root = grow(game, state, player, rng, by_key, Budget(playouts, seconds), tuning)
    return by_key[max(by_key, key=lambda k: root.children[k].visits if k in root.children else -1)]


@dataclasses.dataclass(frozen=True)
class Budget:
    """How long one search may go on: a number of playouts, or of seconds."""

    playouts: int | None
    seconds: float | None

    def left(self, done: int, deadline: float) -> bool:
        """May the search play another playout, after `done` of them?"""
        if self.playouts is not None:
            return done < self.playouts
        return time.perf_counter() < deadline


def grow(
    game: SearchGame, state: Any, player: int, rng: random.Random, root_moves: dict, budget: Budget, tuning: Tuning
) -> Node:
    """Run the playouts of one search and return the root of the tree they grew."""
    root = Node(player)
    deadline = time.perf_counter() + (budget.seconds or 0.0)
    done = 0
    while budget.left(done, deadline):
        iterate(game, root, root_moves, game.determinise(state, player, rng), rng, tuning)
        done += 1
    return root


def iterate(game: SearchGame, root: Node, root_moves: dict, state: Any, rng: random.Random, tuning: Tuning) -> None:
    """One playout: select and expand in the tree, play on, and back up the rewards."""
    node, path = root, [root]
    while not game.is_over(state):
        moves = root_moves if node is root else {game.key(state, move): move for move in game.actions(state)}
        if tuning.widening is not None:
            allowed = math.ceil(tuning.widening * math.sqrt(node.visits + 1))
            moves = dict(list(moves.items())[:allowed])
        for k in moves:
            if k in node.children:
                node.children[k].available += 1
        untried = [k for k in moves if k not in node.children]
        rank = {k: i for i, k in enumerate(moves)}
        if untried:
            k = untried[0] if tuning.widening is not None else rng.choice(untried)
            child = node.children[k] = Node(game.to_move(state))
            child.available = 1
            path.append(child)
            state = game.play(state, moves[k])
            break
        k = max(moves, key=lambda k: promise(node.children[k], rank[k], tuning))
        node = node.children[k]
        path.append(node)
        state = game.play(state, moves[k])
    rewards = game.reward(roll_out(game, state, rng))
    for node in path[1:]:
        node.visits += 1
        node.total += rewards[node.mover]
    root.visits += 1


def promise(node: Node, rank: int, tuning: Tuning) -> float:
    """How promising is this move: its mean reward, a bonus for being tried rarely (UCB1), and its rank's bias?"""
    return (
        node.total / node.visits
        + tuning.exploration * math.sqrt(math.log(node.available) / node.visits)
        + tuning.bias / (rank + 1) / node.visits
    )


def roll_out(game: SearchGame, state: Any, rng: random.Random) -> Any:
    """Play on with the playout policy to the end, or to the horizon."""
    steps = 0
    while not game.is_over(state) and (game.horizon is None or steps < game.horizon):
        if game.playout_action is None:
            state = game.play(state, rng.choice(game.actions(state)))
        else:
            state = game.play(state, game.playout_action(state, rng))
        steps += 1
    return state


class SearchAgent:
    """A bot that searches: subclasses name their game, its view of a player and a default budget.

    Each move's chance comes from ``random.Random`` seeded with the bot's seed and
    what the player sees, so the same seed in the same position makes the same
    move, whatever the bot played before, and whatever it cannot see.
    """

    game: SearchGame
    playouts_per_move: int = 1000
    tuning: Tuning = Tuning()

    def __init__(
        self, seed: int = 0, playouts: int | None = None, seconds: float | None = None, name: str | None = None
    ):
        if playouts is None and seconds is None:
            playouts = self.playouts_per_move
        check_budget(playouts, seconds)
        self.seed, self.playouts, self.seconds = seed, playouts, seconds
        budget = f"{playouts} playouts" if playouts is not None else f"{seconds} s"
        self.name = name or f"{type(self).__name__} ({budget})"

    @classmethod
    def quick(cls, seed: int = 0) -> SearchAgent:
        """A search bot with half the default playouts (a fraction of a second a move), to play against people."""
        return cls(seed=seed, playouts=max(1, cls.playouts_per_move // 2))

    def __repr__(self) -> str:
        budget = f"playouts={self.playouts}" if self.playouts is not None else f"seconds={self.seconds}"
        return f"{type(self).__name__}(seed={self.seed}, {budget})"

    def sight(self, state: Any, player: int) -> Any:
        """What does `player` see (plain JSON values)? Each game's bot says."""
        raise NotImplementedError

    def act(self, state: Any, player: int) -> Any:
        """Which move does the search choose for `player` (None when it is not `player`'s decision)?"""
        game = self.game
        if game.is_over(state) or player not in (game.acting(state) if game.acting else (game.to_move(state),)):
            return None
        seen = json.dumps(self.sight(state, player), sort_keys=True, default=str)
        rng = random.Random(f"{self.seed}/{hashlib.sha256(seen.encode()).hexdigest()}")
        return search(self.game, state, player, rng, self.playouts, self.seconds, self.tuning)

"""One seat of a colorlab game as a Gymnasium environment, every other seat played by a bot: for single-agent learners.

Single-agent learning libraries (Stable-Baselines3, and sb3-contrib's ``MaskablePPO`` with its
action masks) learn in a Gymnasium environment. ``versus(game)`` seats the learner at one seat
of the game's AEC environment and plays every other seat itself, with a bot:

- ``opponent="random"`` (the default) picks uniformly among the legal action numbers, as a
  random player does; any other name is one of the game's own bots (``"GreedyBot"``,
  ``"SearchBot"``, ...), which decide from what their seat may see at the table.
- The learner's seat is drawn afresh at each ``reset`` (from the reset's seed), so that it
  learns every seat; ``seat=`` fixes it.
- ``step(action)`` plays the learner's number, then the other seats until the learner acts
  again or the game is over. The reward is 0 until the end, then the learner's share of the
  win (``returns="win"``) or its score from 0 to 1 (``returns="score"``), as in the AEC
  environment. A move of two steps (a ColorFox card, then its cell) is two ``step`` calls.
- ``action_masks()`` is the learner's mask now (as booleans), which ``MaskablePPO`` asks for
  (``action_space.sample()`` with no mask draws a legal number, as in the AEC environment);
  an action outside it is refused with the game's reason and changes nothing (or, with
  ``illegal="lose"``, ends the game with reward -1).
- ``info["seat"]`` says which seat the learner has.

:func:`share_won` plays a policy against a bot over fresh seeds, every seat equally often, and
gives its share of the wins with a 95% interval.

Examples
========

>>> from colorlab.pettingzoo.versus import versus
>>> board = versus("colorium")
>>> observation, info = board.reset(seed=4)
>>> observation.shape, int(board.action_space.n), info["seat"] in (0, 1)
((1071,), 436, True)
>>> number = int(board.action_masks().nonzero()[0][0])
>>> observation, reward, terminated, truncated, info = board.step(number)
>>> reward, terminated
(0.0, False)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, ClassVar

import gymnasium
import numpy

from colorlab.experiments import interval
from colorlab.pettingzoo import LegalActions, TurnEnv, agent_name, raw_env

RANDOM = "random"

Policy = Callable[[numpy.ndarray, numpy.ndarray], int]  # (observation, boolean mask) -> action number


class Versus(gymnasium.Env):
    """A colorlab game from one seat, the other seats played by a bot (see the module's description)."""

    metadata: ClassVar[dict] = {"render_modes": ["ansi", "human"]}

    def __init__(
        self,
        game: str,
        opponent: str = RANDOM,
        rules: Any = None,
        seat: int | None = None,
        returns: str = "win",
        **options: Any,
    ):
        self.table: TurnEnv = raw_env(game, rules, returns=returns, **options)
        self.render_mode = self.table.render_mode
        self.game = self.table.match.game
        players = self.table.match.rules.players
        if opponent != RANDOM and opponent not in self.game.bots:
            bots = ", ".join(repr(name) for name in (RANDOM, *self.game.bots))
            raise ValueError(f"opponent = {opponent!r} is not one of {self.game.name}'s players: choose {bots}")
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players):
            raise ValueError(f"seat = {seat!r} is not a seat of this game: its seats are 0 to {players - 1}")
        self.opponent, self.fixed_seat = opponent, seat
        first = self.table.possible_agents[0]
        self.observation_space = self.table.observation_space(first)["observation"]
        self.action_space = LegalActions(self.table.match.action_count, lambda: self.action_masks().astype(numpy.int8))
        self.seat, self.bots, self.plans = 0, {}, {}
        self.seeds: list[int] = []  # the seed of each game started, in order (the model's new_game seeds)

    @property
    def me(self) -> str:
        return agent_name(self.seat)

    def reset(self, seed: int | None = None, options: dict | None = None) -> tuple[numpy.ndarray, dict]:
        super().reset(seed=seed)
        players = self.table.match.rules.players
        self.seat = self.fixed_seat if self.fixed_seat is not None else int(self.np_random.integers(players))
        self.seeds.append(int(self.np_random.integers(2**31)))
        self.table.reset(seed=self.seeds[-1])
        if self.opponent != RANDOM:
            seeds = self.np_random.integers(2**31, size=players)
            self.bots = {p: self.game.make_bot(self.opponent, int(seeds[p])) for p in range(players) if p != self.seat}
        self.plans = {}
        self.others_play()
        return self.table.observe(self.me)["observation"], {"seat": self.seat}

    def step(self, action: Any) -> tuple[numpy.ndarray, float, bool, bool, dict]:
        if not hasattr(self.table, "agent_selection"):
            raise RuntimeError("no game yet: call reset() to start one")
        if self.table.agent_selection != self.me or self.over:
            raise RuntimeError("the game is over: call reset() to start the next one")
        self.table.step(action)
        self.others_play()
        info = {"seat": self.seat, **self.table.infos.get(self.me, {})}
        reward = float(self.table.rewards.get(self.me, 0.0)) if self.over else 0.0
        terminated = all(self.table.terminations.values())
        return self.table.observe(self.me)["observation"], reward, terminated, self.truncated, info

    @property
    def over(self) -> bool:
        return all(self.table.terminations.values()) or self.truncated

    @property
    def truncated(self) -> bool:
        return bool(self.table.truncations) and all(self.table.truncations.values())

    def others_play(self) -> None:
        """Play the other seats until the learner acts or the game is over."""
        while not self.over and self.table.agent_selection != self.me:
            agent = self.table.agent_selection
            self.table.step(self.opponent_number(self.table.possible_agents.index(agent)))

    def opponent_number(self, player: int) -> int:
        """The number the bot at `player` plays now: a random legal one, or the next of its bot's chosen move."""
        match = self.table.match
        if self.opponent == RANDOM:
            return int(self.np_random.choice(numpy.flatnonzero(match.mask(player, True))))
        chosen = match.part(player)
        plan = self.plans.get(player, ())
        if not chosen:
            action = self.bots[player].act(match.view(player), player)
            plan = self.plans[player] = match.encoding.numbers_of(action, match.state)
        return plan[len(chosen)]

    def action_masks(self) -> numpy.ndarray:
        """Which action numbers may the learner play now (all False once the game is over)?"""
        live = self.table.agent_selection == self.me and not self.over
        return self.table.match.mask(self.seat, live).astype(bool)

    def render(self) -> str | None:
        return self.table.render()


def versus(game: str, opponent: str = RANDOM, rules: Any = None, **options: Any) -> Versus:
    """One seat of `game` as a Gymnasium environment, every other seat played by `opponent` ("random", or one of the
    game's bots by name). Options: ``seat``, ``returns`` and those of :func:`colorlab.pettingzoo.raw_env`."""
    return Versus(game, opponent, rules, **options)


@dataclasses.dataclass(frozen=True)
class Won:
    """A policy's mean share of the wins over some games, with its 95% interval, and the games' seeds."""

    share: float
    low: float
    high: float
    games: int
    seeds: tuple[int, ...]

    def __str__(self) -> str:
        return f"{self.share:.0%} of {self.games} games won (95% interval {self.low:.0%} to {self.high:.0%})"


def share_won(
    policy: Policy, game: str, games: int = 200, opponent: str = RANDOM, rules: Any = None, seed: int = 10_000
) -> Won:
    """Play `policy` against `opponent` for `games` games (drawn from `seed`, every seat equally often): its mean
    share of the wins, with a 95% interval."""
    board = versus(game, opponent, rules)
    players = board.table.match.rules.players
    shares = []
    for number in range(games):
        board.fixed_seat = number % players
        observation, _ = board.reset(seed=seed + number)
        reward, done = 0.0, False
        while not done:
            observation, reward, terminated, truncated, _ = board.step(policy(observation, board.action_masks()))
            done = terminated or truncated
        shares.append(reward)
    low, share, high = interval(shares)
    return Won(share, max(low, 0.0), min(high, 1.0), games, tuple(board.seeds))


def random_policy(seed: int = 0) -> Policy:
    """A policy that picks uniformly among the legal numbers (a yardstick for :func:`share_won`)."""
    rng = numpy.random.default_rng(seed)
    return lambda observation, mask: int(rng.choice(numpy.flatnonzero(mask)))

"""colorlab's games as PettingZoo environments, for reinforcement-learning libraries.

``env(game)`` is an AEC environment (players act one at a time) with action masks;
``parallel_env(game)`` is a parallel environment (every player acts at once), for a game
whose declaration says it is ``simultaneous``. Both are built on the game's ``encoding``
part (action numbers and observation arrays) and on its model, which checks every action:
nothing here knows a game's rules.

A game has environments when its declaration gives an encoding: a module with
``action_count``, ``acting``, ``legal_numbers``, ``action_of``, ``observation``,
``observation_shape`` and ``returns``; where the game needs them, also
``observation_bounds``, ``MAX_ACTIONS`` (the cap of a game that may never end) and
``table_move(state)`` (what the table plays when no player has anything to do).

- Agents are ``player_0``, ``player_1``, ... (a Colourbrain team is a player).
- An observation is ``{"observation": float32 array, "action_mask": int8 array}``; the mask
  marks the legal action numbers of the player whose turn it is (all zeros for the others).
- Rewards come only at the end: with ``returns="win"`` (the default) the encoding's
  ``returns`` (1 for a sole win, a shared win split evenly, 0 otherwise); with
  ``returns="score"`` each player's score from 0 to 1 (the encoding's ``scores``). A solo game
  has no win to share and always gives its score. A game ends with termination for everyone.
- ``reset(seed=s)`` starts ``new_game(rules, s)``, so equal seeds give equal games; a reset
  without a seed draws the next seed from the last one given.
- Players who act at once in the real game (Colorium's drawings, Colourbrain's answers and
  copies) take turns in an AEC environment, but until the last of them has acted each one
  sees the table as it was when they all began, plus its own moves: acting later never shows
  what the others did meanwhile.
- An action that is not in the mask is refused with the game's own reason (a ValueError)
  and changes nothing, or, with ``illegal="lose"``, ends the game with reward -1 for the
  player who tried it (PettingZoo's classic convention, for learners that ignore the mask).
- A game without an encoding has no environment, and asking for one says why (the
  declaration's ``why_no_encoding``).
- PettingZoo's conventions: ``env(game)`` is wrapped as PettingZoo's own environments are
  (``OrderEnforcingWrapper``: a step before ``reset`` is refused with PettingZoo's error),
  ``raw_env(game)`` is the bare environment; ``render_mode`` is ``"ansi"`` (``render()``
  returns the last events in words) or ``"human"`` (prints them); ``max_cycles`` cuts a
  game short (truncation) once a player has acted that many times (in a parallel
  environment, after that many steps); environments pickle and deep-copy. Versioned
  modules follow PettingZoo's naming: ``from colorlab.pettingzoo import colorfox_v0`` and
  ``colorfox_v0.env()`` (also ``colorium_v0`` and ``colourbrain_v0``, with ``parallel_env``).

Examples
========

>>> from colorlab.pettingzoo import env
>>> game = env("colourbrain")
>>> game.reset(seed=1)
>>> observation, reward, terminated, truncated, info = game.last()
>>> int(observation["action_mask"].sum()) > 0, reward, terminated
(True, 0.0, False)
"""

from __future__ import annotations

import functools
import random
from functools import cached_property
from typing import Any

import numpy
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from colorlab.encoding import RESULTS, results
from colorlab.games import Game, all_games, find_game
from colorlab.record import GameRecord
from colorlab.rules import IllegalAction, NotYourTurn, RuleError, RulesBase

ILLEGAL = ("raise", "lose")
RENDER_MODES = ("ansi", "human")
LOSS = -1.0


def agent_name(player: int) -> str:
    """What is this player called in PettingZoo: player_0, player_1, ...?"""
    return f"player_{player}"


def names(games: list[Game]) -> str:
    """The games' names, for a message."""
    return ", ".join(game.name for game in games)


def games_with_environments() -> list[Game]:
    """Which games have environments: those whose declaration gives an encoding."""
    return [game for game in all_games() if game.has("encoding")]


def checked_game(name: str) -> Game:
    """The declared game of this name; refuse one that has no environment, saying why or which games do."""
    try:
        game = find_game(name)
    except LookupError:
        raise ValueError(f"there is no game {name!r} here; choose one of {names(games_with_environments())}") from None
    if not game.has("encoding"):
        reason = game.why_no_encoding or "it declares no encoding of its actions and observations"
        raise ValueError(f"{game.title} has no environment: {reason}")
    return game


def checked_simultaneous(name: str) -> Game:
    """The declared game of this name; refuse one played in turns, saying which games a parallel environment plays."""
    game = checked_game(name)
    if not game.simultaneous:
        together = [other for other in games_with_environments() if other.simultaneous]
        raise ValueError(
            f"{name} is played in turns: use env({name!r}); parallel environments are for {names(together)}"
        )
    return game


def checked_rules(game: Game, rules: Any) -> RulesBase:
    """The game's rules: its default edition for None, a Rules object, or a dict of rule values."""
    if rules is None:
        return game.rules_type()
    if isinstance(rules, dict):
        return game.rules_type.from_dict(rules)
    if not isinstance(rules, game.rules_type):
        raise RuleError("rules", rules, f"give {game.name}.Rules(...) or a dict of {game.name}'s rule values")
    return rules


def checked_choice(name: str, value: Any, choices: tuple) -> Any:
    """Refuse an option value that is not one of its choices."""
    if value not in choices:
        raise ValueError(f"{name} = {value!r} is not allowed: choose one of {', '.join(map(repr, choices))}")
    return value


FEW = 32  # a mask of up to this many legal numbers is marked afresh; one of more is kept (see mask_of)


@functools.lru_cache(maxsize=1024)
def mask_of(legal: tuple[int, ...], size: int) -> numpy.ndarray:
    """The action mask marking these numbers (kept: a quiz's answers, say, recur at question after question, and
    marking hundreds of numbers takes longer than finding the kept mask). Copy it before changing it."""
    mask = numpy.zeros(size, dtype=numpy.int8)
    mask[list(legal)] = 1
    return mask


class Match:
    """One game played through action numbers: the true state, and what each player may see of it.

    While several players act at once, each sees the state from when they began, with only its
    own moves of this stretch played on it (those never depend on the others' moves). A stretch
    ends when a player acts again after it was done, or when the decision an acting player faces
    has changed (the game's table `moment`: Colorium's round and phase, say): a player who ended
    the draw phase with its drawing and picks first in the next draft begins a new stretch.
    """

    def __init__(self, game: Game, rules: Any, returns: str = "win"):
        self.attach(game)
        self.rules = checked_rules(game, rules)
        self.kind = checked_choice("returns", returns, RESULTS)
        self.start(0)

    def attach(self, game: Game) -> None:
        """Take the game's parts: its declaration, its encoding and its table's moment (a module's, not data)."""
        self.game = game
        self.encoding = game.part("encoding")
        table = game.part("table") if game.has("table") else None
        self.moment = None if table is None else table.moment

    def __getstate__(self) -> dict:
        """Everything but the game's parts (modules and functions), which a copy finds again by the game's name."""
        parts = ("game", "encoding", "moment", "kept_legal", "kept_acting")
        kept = {name: value for name, value in self.__dict__.items() if name not in parts}
        kept["game"] = self.game.name
        kept.pop("action_count", None)
        return kept

    def __setstate__(self, kept: dict) -> None:
        name = kept.pop("game")
        self.__dict__.update(kept)
        self.attach(find_game(name))

    @cached_property
    def action_count(self) -> int:
        return self.encoding.action_count(self.rules)

    def start(self, seed: int) -> None:
        """Start a new game from this seed."""
        self.state = self.game.new_game(self.rules, seed)
        self.seed = seed
        self.played: list = []
        self.actions = 0
        self.chosen: tuple[int, ...] = ()  # the numbers of a move begun and not finished (a card, before its cell)
        self.chooser: int | None = None
        self.begin_stretch()

    def part(self, player: int) -> tuple[int, ...]:
        """The numbers of the move this player has begun and not finished (seen by that player alone)."""
        return self.chosen if player == self.chooser else ()

    def begin_stretch(self) -> None:
        """Note who acts from now on, and the state they all see until the last of them is done."""
        self.shared = self.state
        self.together = set(self.acting())
        self.done: set[int] = set()
        self.own: dict[int, list] = {}
        self.views: dict[int, Any] = {}

    def acting(self) -> list[int]:
        """Which players may act now? Only the player who has begun a move, until it is finished. (Found once a state:
        every step asks several times.)"""
        if self.chosen:
            return [self.chooser]
        kept = getattr(self, "kept_acting", None)
        if kept is None or kept[0] is not self.state:
            kept = self.kept_acting = (self.state, self.encoding.acting(self.state))
        return kept[1]

    def view(self, player: int) -> Any:
        """The state as this player may see it now."""
        if len(self.together) < 2:
            return self.state
        if player not in self.views:
            state = self.shared
            for action in self.own.get(player, ()):
                state = self.game.play(state, action)
            self.views[player] = state
        return self.views[player]

    def legal(self, player: int) -> list[int]:
        """The player's legal numbers now (found once a moment for each player: the mask and the action's check both
        ask, and a parallel environment asks for every player's mask before it checks their actions)."""
        kept = getattr(self, "kept_legal", None)
        if kept is None or kept[0] is not self.state:
            kept = self.kept_legal = (self.state, {})
        part = self.part(player)
        found = kept[1].get((player, part))
        if found is None:
            found = kept[1][player, part] = self.encoding.legal_numbers(self.state, player, part)
        return found

    def mask(self, player: int, may_act: bool, size: int | None = None) -> numpy.ndarray:
        """The player's action mask (all zeros unless it may act now), `size` long (the action count, unless given)."""
        size = self.action_count if size is None else size
        if not may_act:
            return numpy.zeros(size, dtype=numpy.int8)
        legal = self.legal(player)
        if len(legal) > FEW:
            return mask_of(tuple(legal), size).copy()
        mask = numpy.zeros(size, dtype=numpy.int8)
        mask[legal] = 1
        return mask

    def observation(self, player: int, may_act: bool, size: int | None = None) -> dict:
        """The player's observation and action mask (all zeros unless it may act now; `size` long, if given)."""
        return {
            "observation": self.encoding.observation(self.view(player), player, self.part(player)),
            "action_mask": self.mask(player, may_act, size),
        }

    def action(self, player: int, number: Any) -> Any:
        """Which action does this number finish for this player now (None: it begins a move that waits for more)?
        Refuse it with the game's reason if illegal."""
        if isinstance(number, numpy.ndarray) and number.shape == ():
            number = number.item()
        if isinstance(number, (numpy.integer, numpy.bool_)):
            number = number.item()
        chosen = self.part(player)
        if self.chosen and player != self.chooser:
            raise NotYourTurn(f"{agent_name(player)} cannot act: {agent_name(self.chooser)} has a move to finish")
        legal = self.legal(player)
        if number not in legal:
            try:
                self.encoding.action_of(number, self.state, player, chosen)
            except ValueError as error:
                raise type(error)(f"{agent_name(player)} cannot play {number!r}: {error}") from None
            raise IllegalAction(f"{agent_name(player)} cannot play {number!r} now")
        return self.encoding.action_of(number, self.state, player, chosen, legal)

    def choose(self, player: int, number: Any) -> Any:
        """Take this player's number (checked): the action it finishes, or None when the move waits for more."""
        action = self.action(player, number)
        if action is None:
            self.chosen, self.chooser = self.part(player) + (int(number),), player
        else:
            self.chosen, self.chooser = (), None
        return action

    def play(self, player: int, action: Any) -> None:
        """Play this player's (checked) action, then the table's own moves until a player acts."""
        self.state = self.game.play(self.state, action)
        self.played.append(action)
        self.actions += 1
        self.own.setdefault(player, []).append(action)
        self.views.pop(player, None)
        if player not in self.acting():
            self.done.add(player)
        now = self.table_moves()
        if not now or now & self.done or not now <= self.together or self.moved_on(now):
            self.begin_stretch()

    def play_together(self, moves: list[tuple[int, Any]]) -> None:
        """Play these (player, checked action) moves, made at once by every player who acts now, then the table's own
        moves until a player acts. Everyone then sees the outcome: a new stretch begins."""
        for _, action in moves:
            self.state = self.game.play(self.state, action)
            self.played.append(action)
            self.actions += 1
        self.table_moves()
        self.begin_stretch()

    def table_moves(self) -> set[int]:
        """Play the table's own moves while nobody has anything to do (and the game goes on): who acts then?"""
        now = set(self.acting())
        while not now and not self.state.over:
            table_move = self.encoding.table_move(self.state)
            self.state = self.game.play(self.state, table_move)
            self.played.append(table_move)
            now = set(self.acting())
        return now

    def moved_on(self, acting: set[int]) -> bool:
        """Does any of these players face another decision than when the stretch began?"""
        moment = self.moment
        return moment is not None and any(moment(self.state, p) != moment(self.shared, p) for p in acting)

    @property
    def over(self) -> bool:
        return self.state.over

    def returns(self) -> list[float]:
        """What each player gets at the end: its share of the win, or its score from 0 to 1."""
        return results(self.encoding, self.state, self.kind)

    def record(self) -> GameRecord:
        """The game so far as a colorlab record (rules, seed, actions): it replays, saves and opens in a widget."""
        return GameRecord(self.game.name, self.rules, self.seed, tuple(self.played))

    def text(self) -> str:
        """What happened last, in words (the game's events)."""
        return "\n".join(self.state.events)


class LegalActions(spaces.Discrete):
    """A player's action numbers; ``sample()`` with no mask draws one legal now (a random player's move), so that code
    that samples the space, as PettingZoo's own tests do, plays the game instead of breaking its rules."""

    def __init__(self, count: int, legal_now):
        super().__init__(count)
        self.legal_now = legal_now  # () -> the player's action mask now

    def sample(self, mask=None, probability=None):
        if mask is None and probability is None:
            now = self.legal_now()
            mask = now if now.any() else None
        return super().sample(mask=mask, probability=probability)


class Spaces:
    """The spaces and seeds both kinds of environment share."""

    def make_spaces(self, actions: int) -> None:
        low, high = getattr(self.match.encoding, "observation_bounds", lambda rules: (-numpy.inf, numpy.inf))(
            self.match.rules
        )
        shape = self.match.encoding.observation_shape(self.match.rules)
        observation = spaces.Dict(
            {
                "observation": spaces.Box(low, high, shape, numpy.float32),
                "action_mask": spaces.Box(0, 1, (actions,), numpy.int8),
            }
        )
        self.possible_agents = [agent_name(p) for p in range(self.match.rules.players)]
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation)
        self.action_spaces = {
            agent: LegalActions(actions, functools.partial(self.legal_mask, player))
            for player, agent in enumerate(self.possible_agents)
        }
        self.seeds = random.Random()

    def action_cap(self, max_actions: int | None) -> int | None:
        """After how many actions is a game cut short: `max_actions`, or the encoding's cap of an endless game?"""
        return max_actions if max_actions is not None else getattr(self.match.encoding, "MAX_ACTIONS", None)

    def options(self, render_mode: str | None, illegal: str, max_actions: int | None, max_cycles: int | None) -> None:
        """Check and keep the options both kinds of environment take."""
        self.render_mode = checked_choice("render_mode", render_mode, (None, *RENDER_MODES))
        self.illegal = checked_choice("illegal", illegal, ILLEGAL)
        self.max_actions = self.action_cap(max_actions)
        if max_cycles is not None and (
            isinstance(max_cycles, bool) or not isinstance(max_cycles, int) or max_cycles < 1
        ):
            raise ValueError(f"max_cycles = {max_cycles!r} is not allowed: give a whole number from 1, or None")
        self.max_cycles = max_cycles

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def next_seed(self, seed: int | None) -> int:
        """Which game comes next: the seed given, or one drawn from the last seed given."""
        if seed is not None:
            self.seeds = random.Random(seed)
            return seed
        return self.seeds.randrange(2**32)

    def render(self) -> str | None:
        """The last events of the game, in words: returned (render_mode "ansi") or printed ("human")."""
        if self.render_mode == "human":
            print(self.match.text())
            return None
        return self.match.text() if self.render_mode == "ansi" else None

    def record(self) -> GameRecord:
        """The game played so far, as a colorlab game record."""
        return self.match.record()

    def close(self) -> None:
        """Nothing to free: a game is plain Python values."""


class TurnEnv(Spaces, AECEnv):
    """A colorlab game as a PettingZoo AEC environment: one player acts at each step."""

    def __init__(
        self,
        game: str,
        rules: Any = None,
        render_mode: str | None = None,
        illegal: str = "raise",
        max_actions: int | None = None,
        max_cycles: int | None = None,
        returns: str = "win",
    ):
        super().__init__()
        self.match = Match(checked_game(game), rules, returns)
        self.metadata = {"name": f"colorlab_{game}_v0", "render_modes": list(RENDER_MODES), "is_parallelizable": False}
        self.options(render_mode, illegal, max_actions, max_cycles)
        self.make_spaces(self.match.action_count)

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.match.start(self.next_seed(seed))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.turns = dict.fromkeys(self.agents, 0)
        self.agent_selection = self.possible_agents[self.match.acting()[0]]

    def observe(self, agent: str) -> dict:
        return self.match.observation(
            self.possible_agents.index(agent), agent == self.agent_selection and not self.terminations[agent]
        )

    def legal_mask(self, player: int) -> numpy.ndarray:
        """The player's action mask now (all zeros before a reset, or when it is not the player's turn)."""
        agent = self.possible_agents[player]
        live = getattr(self, "agent_selection", None) == agent and not self.terminations[agent]
        return self.match.mask(player, live)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        player = self.possible_agents.index(agent)
        try:
            move = self.match.choose(player, action)
        except ValueError as error:
            if self.illegal == "raise":
                raise
            self.end({other: LOSS if other == agent else 0.0 for other in self.agents}, {agent: str(error)})
            return
        self._cumulative_rewards[agent] = 0.0
        if move is not None:
            self.match.play(player, move)
        self.turns[agent] += 1
        if self.match.over:
            self.end(dict(zip(self.possible_agents, self.match.returns())), {})
            return
        # The game goes on, so no one is rewarded this step: the rewards are the zeros set at the reset (only the
        # game's end gives any), and there is nothing to add to the cumulative rewards.
        cycles_done = self.max_cycles is not None and max(self.turns.values()) >= self.max_cycles
        if cycles_done or (self.max_actions is not None and self.match.actions >= self.max_actions):
            self.truncations = dict.fromkeys(self.agents, True)
        self.agent_selection = self.possible_agents[self.match.acting()[0]]

    def end(self, rewards: dict, refused: dict) -> None:
        """End the game for everyone with these rewards (and say why an action was refused)."""
        self.rewards = rewards
        self.terminations = dict.fromkeys(self.agents, True)
        for agent, reason in refused.items():
            self.infos[agent] = {"illegal": reason}
        self._cumulative_rewards[self.agent_selection] = 0.0
        self._accumulate_rewards()


class TogetherEnv(Spaces, ParallelEnv):
    """A colorlab game as a PettingZoo parallel environment: every player acts at each step.

    A player with nothing to do this step (a Colourbrain team without a copier to replace,
    while others copy) sends the last action number, "wait", the only one its mask allows.
    """

    def __init__(
        self,
        game: str,
        rules: Any = None,
        render_mode: str | None = None,
        illegal: str = "raise",
        max_actions: int | None = None,
        max_cycles: int | None = None,
        returns: str = "win",
    ):
        self.match = Match(checked_simultaneous(game), rules, returns)
        self.metadata = {"name": f"colorlab_{game}_parallel_v0", "render_modes": list(RENDER_MODES)}
        self.options(render_mode, illegal, max_actions, max_cycles)
        self.wait = self.match.action_count
        self.make_spaces(self.wait + 1)

    def reset(self, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        self.match.start(self.next_seed(seed))
        self.agents = self.possible_agents[:]
        self.steps = 0
        return self.observations(), {agent: {} for agent in self.agents}

    def legal_mask(self, player: int) -> numpy.ndarray:
        """The player's action mask now, "wait" last (only "wait" for a player with nothing to do)."""
        acting = player in self.match.acting()
        mask = self.match.mask(player, acting, self.wait + 1)
        mask[self.wait] = not acting and not self.match.over
        return mask

    def observations(self) -> dict:
        """Every player's observation, with "wait" as the only legal number of players with nothing to do."""
        acting = set(self.match.acting())
        seen = {}
        for player, agent in enumerate(self.possible_agents):
            observation = seen[agent] = self.match.observation(player, player in acting, self.wait + 1)
            observation["action_mask"][self.wait] = player not in acting and not self.match.over
        return seen

    def step(self, actions: dict) -> tuple[dict, dict, dict, dict, dict]:
        missing = [agent for agent in self.agents if agent not in actions]
        if missing:
            raise ValueError(f"every player acts at each step: no action for {', '.join(missing)}")
        acting, moves, refused = set(self.match.acting()), [], {}
        for player, agent in enumerate(self.possible_agents):
            try:
                move = self.checked_move(player, actions[agent], player in acting)
            except ValueError as error:
                if self.illegal == "raise":
                    raise
                refused[agent] = {"illegal": str(error)}
                continue
            if move is not None:
                moves.append((player, move))
        if refused:
            return self.finish(
                {agent: LOSS if agent in refused else 0.0 for agent in self.agents}, True, False, refused
            )
        self.match.play_together(moves)
        rewards = (
            dict(zip(self.possible_agents, self.match.returns()))
            if self.match.over
            else dict.fromkeys(self.agents, 0.0)
        )
        self.steps += 1
        truncated = (self.max_actions is not None and self.match.actions >= self.max_actions) or (
            self.max_cycles is not None and self.steps >= self.max_cycles
        )
        return self.finish(rewards, self.match.over, truncated, {})

    def checked_move(self, player: int, number: Any, acting: bool) -> Any:
        """This player's move, checked (None: it waits); a player with nothing to do may only wait."""
        if type(number) is int:  # most learners give plain numbers
            waits = number == self.wait
        else:
            waits = (
                not isinstance(number, bool)
                and isinstance(number, (int, numpy.integer, numpy.ndarray))
                and numpy.ndim(number) == 0
                and int(number) == self.wait
            )
        if acting and waits:
            raise IllegalAction(f"{agent_name(player)} has something to do now: only a player with nothing to do waits")
        return None if waits else self.match.action(player, number)

    def finish(self, rewards: dict, over: bool, truncated: bool, infos: dict) -> tuple[dict, dict, dict, dict, dict]:
        """The step's five dicts; players leave once the game is over or cut short."""
        seen = self.observations()
        agents = self.agents
        terminations = dict.fromkeys(agents, over)
        truncations = dict.fromkeys(agents, truncated and not over)
        if over or truncated:
            self.agents = []
        return (
            {agent: seen[agent] for agent in agents},
            rewards,
            terminations,
            truncations,
            {agent: infos.get(agent, {}) for agent in agents},
        )


def _field_of_env(name: str) -> property:
    """A wrapper's property that reads the wrapped environment's field `name` in one step, and refuses it before
    ``reset`` (its AttributeError sends the look-up on to the wrapper's ``__getattr__``, which says why)."""

    def read(wrapper: OrderEnforcing) -> Any:
        if not wrapper._has_reset:
            raise AttributeError(name)
        return getattr(wrapper.env, name)

    return property(read, doc=f"The environment's ``{name}`` (refused before ``reset``).")


class OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper``, with the fields a loop reads at every turn (``last()``, the agent
    iterator, a check of the terminations) read from the environment in one step each. The wrapper finds any other
    attribute by its ``__getattr__``, which runs two checks at each look-up; these fields are read about eight
    times a turn. Before ``reset`` they are refused with the wrapper's own error, as before."""

    agents = _field_of_env("agents")
    agent_selection = _field_of_env("agent_selection")
    terminations = _field_of_env("terminations")
    truncations = _field_of_env("truncations")
    rewards = _field_of_env("rewards")
    infos = _field_of_env("infos")
    _cumulative_rewards = _field_of_env("_cumulative_rewards")


def raw_env(
    game: str,
    rules: Any = None,
    render_mode: str | None = None,
    illegal: str = "raise",
    max_actions: int | None = None,
    max_cycles: int | None = None,
    returns: str = "win",
) -> TurnEnv:
    """A PettingZoo AEC environment of this game (any game with an encoding), with action masks, unwrapped."""
    return TurnEnv(game, rules, render_mode, illegal, max_actions, max_cycles, returns)


def env(game: str, rules: Any = None, **options: Any) -> AECEnv:
    """A PettingZoo AEC environment of this game (any game with an encoding), with action masks, wrapped as
    PettingZoo's own are (an ``OrderEnforcingWrapper``; ``.unwrapped`` is the bare environment). The options are
    :func:`raw_env`'s: ``render_mode``, ``illegal``, ``max_actions``, ``max_cycles`` and ``returns``."""
    return OrderEnforcing(raw_env(game, rules, **options))


def parallel_env(game: str, rules: Any = None, **options: Any) -> TogetherEnv:
    """A PettingZoo parallel environment of a game whose players act at once (a simultaneous game). The options are
    :func:`raw_env`'s."""
    return TogetherEnv(game, rules, **options)

"""The one protocol every bot of every game follows, and the one rule that seeds every bot colorlab seats.

An agent looks at a state from one player's seat and proposes an action, or
``None`` when it has nothing to do. Agents draw their own chance from a seeded
``random.Random``, so that a game played by bots is reproducible from the
seeds alone.

Wherever colorlab seats a bot (``play_game``, experiments, widgets, shared tables,
lessons), one rule seeds it (:func:`seat_bot`): the bot at `seat` of the game dealt with
`seed` draws the chance of its move at step k (the game's k-th action, counting from 0)
afresh from (`seed`, `seat`, k) alone, through its seat's :class:`SeatChance`. So the same
game seed and seat give the same bot wherever it plays, and a bot's move never depends on
how often, or in which kernel, it was asked before. Whoever asks a seated bot to move first
moves its chance to the step (:func:`ready`). A bot made with a seed of its own
(``GreedyBot(seed=5)``) keeps its ``random.Random``, draw after draw.
"""

from __future__ import annotations

import functools
import hashlib
import random
from collections.abc import Callable, Iterable
from math import cos, log, sqrt, tau
from typing import Any, Protocol, runtime_checkable

from colorlab.record import OLD_WIDGET_SEEDING, SEEDING, GameRecord, game_spec

BITS = 64
MASK = (1 << BITS) - 1
WYP0, WYP1 = 0xA0761D6478BD642F, 0xE7037ED1A0B428DB  # wyrand's step along its stream (odd) and its mixing constant
STEP_DRAWS = 1 << 32  # the draws each step of a game has to itself in a seat's stream
STEP_PLACES = STEP_DRAWS * WYP0 & MASK  # how far along the stream one step moves


@runtime_checkable
class Agent(Protocol):
    """Anything that can choose an action for a player."""

    name: str

    def act(self, state: Any, player: int) -> Any | None:
        """Which action does this agent take for `player` in `state`, if any?"""


class SeededAgent:
    """A bot with a name, a skill level and its own source of chance: a seed, or a ``random.Random`` to draw from."""

    levels: tuple[str, ...] = ("easy", "medium", "hard")

    def __init__(self, level: str = "medium", seed: int | random.Random = 0, name: str | None = None):
        if level not in self.levels:
            raise ValueError(f"level {level!r} is unknown; choose one of {', '.join(self.levels)}")
        self.level = level
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.name = name or f"{type(self).__name__} ({level})"

    def __repr__(self) -> str:
        return f"{type(self).__name__}(level={self.level!r})"


class SeatChance(random.Random):
    """The chance of the bot at one seat of one game: a ``random.Random`` that starts afresh at every step.

    The seat's stream is wyrand (Wang Yi's generator: a number's place along a Weyl sequence,
    mixed by one 128-bit multiplication), keyed by the first 64 bits of SHA-256 of
    ``"seed/seat"``. Draw j of step k is the stream's number at place ``k * 2**32 + j + 1``,
    a pure function of (seed, seat, k, j): :meth:`at` moves to a step at no cost, where
    seeding a Mersenne Twister afresh would cost more than a random move. ``random()``,
    ``getrandbits()`` and ``gauss()`` read the stream; ``choice``, ``shuffle``, ``sample`` and
    the rest are ``random.Random``'s own, built on them.

    Examples
    ========
    >>> from colorlab.agents import SeatChance
    >>> chance = SeatChance(seed=7, seat=1)
    >>> chance.at(3)
    >>> first = chance.random(), chance.choice("abc")
    >>> chance.at(4)
    >>> _ = chance.random()
    >>> chance.at(3)
    >>> (chance.random(), chance.choice("abc")) == first
    True
    """

    __slots__ = ("key", "place", "step")  # read at every draw: slots are quicker to reach than a dict

    def __init__(self, seed: int = 0, seat: int = 0):
        digest = hashlib.sha256(f"{seed}/{seat}".encode()).digest()
        super().__init__(int.from_bytes(digest[:8], "big"))

    def seed(self, a: Any = 0, version: int = 2) -> None:
        """Key the stream with a 64-bit number and stand at step 0 (``random.Random.__init__`` calls this)."""
        self.key = a & MASK
        self.at(0)

    def at(self, step: int) -> None:
        """Stand at the first draw of `step`."""
        self.step = step
        self.place = (self.key + step * STEP_PLACES) & MASK

    def random(self) -> float:
        """A float in [0, 1), from the top 53 of the next 64 bits."""
        # wyrand's draw, written out here and in each method below that draws: a call to a shared helper would
        # cost as much again, and bots draw at every move
        place = self.place = (self.place + WYP0) & MASK
        mixed = place * (place ^ WYP1)
        return (((mixed >> BITS ^ mixed) & MASK) >> 11) * (1.0 / (1 << 53))

    def getrandbits(self, k: int) -> int:
        """A whole number of `k` random bits (the top bits of the next 64, or of as many 64 as it takes)."""
        if not 0 < k <= BITS:
            return self._wide_bits(k)
        place = self.place = (self.place + WYP0) & MASK
        mixed = place * (place ^ WYP1)
        return ((mixed >> BITS ^ mixed) & MASK) >> BITS - k

    def choice(self, seq: Any) -> Any:
        """A random item of a non-empty sequence: the one ``random.Random.choice`` picks, without two inner calls."""
        count = len(seq)
        if not count:
            raise IndexError("Cannot choose from an empty sequence")
        shift = BITS - count.bit_length()
        while True:  # as random.Random does: the top bits that cover `count`, again until they fall below it
            place = self.place = (self.place + WYP0) & MASK
            mixed = place * (place ^ WYP1)
            index = ((mixed >> BITS ^ mixed) & MASK) >> shift
            if index < count:
                return seq[index]

    def _wide_bits(self, k: int) -> int:
        """`k` random bits, 64 at a time (none for 0)."""
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        words, rest = divmod(k, BITS)
        bits = 0
        for _ in range(words):
            bits = bits << BITS | self.getrandbits(BITS)
        return bits << rest | self.getrandbits(rest) if rest else bits

    def gauss(self, mu: float = 0.0, sigma: float = 1.0) -> float:
        """A normal number, by Box and Muller's method on the two halves of the next 64 bits (one draw a call)."""
        place = self.place = (self.place + WYP0) & MASK
        mixed = place * (place ^ WYP1)
        word = (mixed >> BITS ^ mixed) & MASK
        return mu + sigma * sqrt(-2.0 * log(((word >> 32) + 1) * 2.0**-32)) * cos(tau * (word & 0xFFFFFFFF) * 2.0**-32)

    def getstate(self) -> tuple[int, int, int]:
        return self.key, self.step, self.place

    def setstate(self, state: tuple[int, ...]) -> None:
        self.key, self.step, self.place = state


def bot_seed(seed: int, seat: int, step: int) -> int:
    """Which seed does a bot made afresh for each move get at `step`? The first 63 bits its seat draws there."""
    chance = SeatChance(seed, seat)
    chance.at(step)
    return chance.getrandbits(63)


class FreshBot:
    """A bot that keeps no ``random.Random`` of its own (a search bot, a lesson's own class), seated by the rule.

    Each move is made by a bot made afresh with :func:`bot_seed` of the step: the first 63
    bits its seat's chance (`rng`) draws there.
    """

    def __init__(self, make: Callable[..., Any], rng: SeatChance):
        self.make, self.rng = make, rng
        self.name = make(seed=0).name

    def __repr__(self) -> str:
        return f"FreshBot({self.name!r})"

    def act(self, state: Any, player: int) -> Any | None:
        self.rng.at(self.rng.step)  # asked twice at one step, the same bot answers
        return self.make(seed=self.rng.getrandbits(63)).act(state, player)


def makes_seeded_agents(make: Callable[..., Any]) -> bool:
    """Does `make` (a class, or a partial of one) make a :class:`SeededAgent`, which may be given its generator?"""
    while isinstance(make, functools.partial):
        make = make.func
    return isinstance(make, type) and issubclass(make, SeededAgent)


def seat_bot(make: Callable[..., Any], seed: int, seat: int) -> Any:
    """The bot `make` makes (given ``seed=``), at `seat` of the game dealt with `seed`, seeded by the rule.

    Examples
    ========
    >>> from colorlab import colorium
    >>> from colorlab.agents import ready, seat_bot
    >>> state = colorium.new_game(colorium.Rules(), seed=3)
    >>> here, elsewhere = seat_bot(colorium.RandomBot, 3, 0), seat_bot(colorium.RandomBot, 3, 0)
    >>> ready(here, 0).act(state, 0) == ready(elsewhere, 0).act(state, 0)
    True
    """
    chance = SeatChance(seed, seat)
    return make(seed=chance) if makes_seeded_agents(make) else FreshBot(make, chance)


def seated_bots(makers: Iterable[Callable[..., Any]], seed: int) -> list:
    """One bot at each seat of the game dealt with `seed`, in seat order, each seeded by the rule."""
    return [seat_bot(make, seed, seat) for seat, make in enumerate(makers)]


def seat_bots(make: Callable[..., Any], seed: int, seats: Iterable[int], seeding: str = SEEDING) -> dict[int, Any]:
    """A bot of one kind at each of `seats`, seeded as `seeding` (a record's own) says.

    Before the rule (:data:`~colorlab.record.OLD_WIDGET_SEEDING`) a widget seeded each bot
    once, with ``seed * 7 + seat``, when a game began or was loaded: a game saved then goes on so.
    """
    if seeding == SEEDING:
        return {seat: seat_bot(make, seed, seat) for seat in seats}
    if seeding == OLD_WIDGET_SEEDING:
        return {seat: make(seed=seed * 7 + seat) for seat in seats}
    raise ValueError(f"seeding is {SEEDING!r} or {OLD_WIDGET_SEEDING!r}, not {seeding!r}")


def seat_chances(agents: Iterable[Any]) -> list[SeatChance]:
    """The chances of those agents the rule seated, to move to each step before the agents are asked."""
    return [agent.rng for agent in agents if isinstance(getattr(agent, "rng", None), SeatChance)]


def ready(agent: Any, step: int) -> Any:
    """The agent, ready to move at `step`: seated by the rule, it draws afresh; with a seed of its own, it runs on."""
    if isinstance(getattr(agent, "rng", None), SeatChance):
        agent.rng.at(step)
    return agent


def play_out(
    game: str, rules: Any, agents: list, seed: int, next_action: Callable[[Any, list], Any], max_actions: int
) -> GameRecord:
    """Play one whole game of `game` between agents and return its record.

    `next_action(state, agents)` says what happens next at the table; the game
    must end within `max_actions` actions.
    """
    if len(agents) != rules.players:
        raise ValueError(f"{rules.players} players need {rules.players} agents, not {len(agents)}")
    spec = game_spec(game)
    state = spec.new_game(rules, seed)
    actions: list[Any] = []
    chances = seat_chances(agents)
    while not state.over:
        if len(actions) >= max_actions:
            raise RuntimeError(f"{game} game {seed} did not end within {max_actions} actions")
        for chance in chances:
            chance.at(len(actions))
        action = next_action(state, agents)
        state = spec.play(state, action)
        actions.append(action)
    return GameRecord(game, rules, seed, tuple(actions), final=state)

"""Col-Or-Form bots with a reaction-time model, and a loop that plays bots against each other.

A bot looks at every revealed task, finds its quickest way to solve one, and
calls STOP after a delay that grows with the figures to check, the quarter
turns to imagine and the hand cards to place, times seeded noise. Its level
sets its speed, how many hand cards it juggles with ease (each card more takes
it much longer, but it gets there: a bot never gives up on a task it can
solve), and how often it calls STOP on a wrong solution.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
from collections.abc import Callable

from colorlab.agents import SeededAgent
from colorlab.colorform.components import TaskCard
from colorlab.colorform.model import Claim, Pass, State, Stop, can_solve
from colorlab.colorform.solver import cover
from colorlab.rules import GameOver


@dataclasses.dataclass(frozen=True)
class Level:
    """How quick, how deep and how careless a bot is.

    `most_cards` hand cards are juggled with ease. Only when no way needs so few
    does the bot dig deeper, and each card more costs ``EXTRA_CARD_SECONDS``.
    """

    speed: float
    most_cards: int
    blunders: float


LEVELS = {
    "easy": Level(speed=1.8, most_cards=1, blunders=0.08),
    "medium": Level(speed=1.2, most_cards=2, blunders=0.03),
    "hard": Level(speed=0.8, most_cards=6, blunders=0.0),
}


EXTRA_CARD_SECONDS = 6.0

# How long a player takes to lay out a solution of so many hand cards, after calling STOP.
SHOWING = tuple(round(1.0 + cards * 1.5, 2) for cards in range(10))


def reaction_seconds(figures: int, quarter_turns: int, cards: int, mirrored: bool = False) -> float:
    """How long does an average player need to see a solution of this difficulty?"""
    turns = min(quarter_turns, 4 - quarter_turns)
    return 1.0 + 0.5 * figures + 0.8 * turns + 1.5 * cards + (1.0 if mirrored else 0.0)


@functools.cache
def seconds_table(seconds_of: Callable, ease: int) -> dict[tuple[int, int, int, bool], float]:
    """How long does a bot that juggles `ease` hand cards with ease need for each (figures, quarter turns,
    cards, mirrored) of a task's way, with `seconds_of` (such as :func:`reaction_seconds`) as its eye?"""
    # Made once per reaction-time model and level, not once per way of every move: a bot weighs them all.
    table = {}
    for figures, quarter_turns, cards, mirrored in itertools.product(range(10), range(4), range(10), (False, True)):
        seconds = seconds_of(figures, quarter_turns, cards, mirrored)
        if cards > ease:
            seconds += EXTRA_CARD_SECONDS * (cards - ease)
        table[figures, quarter_turns, cards, mirrored] = seconds
    return table


class ReactionBot(SeededAgent):
    """A bot that claims the task it can see quickest, after a human-like delay."""

    levels = tuple(LEVELS)

    def act(self, state: State, player: int) -> Claim | Pass | None:
        """Which claim does this bot make (or, in junior, does it pass)?"""
        if state.over:
            return None
        if state.junior and player != state.active:
            return None
        best = self._quickest(state, player)
        if best is None:
            return Pass(player) if state.junior else self.guess(player, state.revealed_tasks())
        return self.claim(player, best)

    def claim(self, player: int, way: tuple) -> Claim:
        """The claim on a way (seconds, task, rotation, mirrored, placements), made as :meth:`call` says."""
        return claim_on(player, way, *self.call(way))

    def call(self, way: tuple) -> tuple[float, dict]:
        """When does this bot call STOP on a way, and with which hand cards? After its delay, and now and
        then, as its level blunders, with the last card forgotten."""
        level, placements = LEVELS[self.level], way[4]
        if self.rng.random() < level.blunders:
            placements = dict(list(placements.items())[:-1])
        return self._delay(way[0], level), placements

    def guess(self, player: int, tasks: list[TaskCard]) -> Claim | None:
        """With no way to solve a task: does this bot still call on one, as its level blunders (a wrong claim)?"""
        if tasks and self.rng.random() < LEVELS[self.level].blunders:
            task = self.rng.choice(tasks)
            return Claim(player, task.number, time=self._delay(reaction_seconds(task.size, 0, 0), LEVELS[self.level]))
        return None

    def _quickest(self, state: State, player: int) -> tuple | None:
        """The quickest way to solve a revealed task, or None: ways with at most the cards the bot juggles
        with ease come first, then (only when none of those works) the ways with more cards."""
        ease = LEVELS[self.level].most_cards
        seconds = seconds_table(reaction_seconds, ease)
        # Sorted by (hard, seconds, order): every easy way comes before any hard one, the earlier on a tie.
        ways = [
            (cards > ease, seconds[task.size, rotation, cards, mirrored], order)
            for order, (task, rotation, mirrored, _, cards) in enumerate(state.hopeful[player])
        ]
        if not ways:
            return None
        # Only the ways tried get their hand cards found; the quickest usually works, so it is tried before sorting.
        quickest = min(ways)
        found = self._covered(state, player, *quickest)
        if found is not None:
            return found
        ways.remove(quickest)
        return next(filter(None, (self._covered(state, player, *way) for way in sorted(ways))), None)

    def _covered(self, state: State, player: int, _hard: bool, seconds: float, order: int) -> tuple | None:
        """(seconds, task, rotation, mirrored, placements) of a hopeful way the hand covers, else None."""
        task, rotation, mirrored, placed, cards = state.hopeful[player][order]
        # A hopeful way needing no hand card is covered by the layout alone.
        placements = cover(state.tops, state.hands[player], placed, state.rules) if cards else {}
        return None if placements is None else (seconds, task, rotation, mirrored, placements)

    def _delay(self, seconds: float, level: Level) -> float:
        return round(seconds * level.speed * math.exp(self.rng.gauss(0.0, 0.25)), 3)


def claim_on(player: int, way: tuple, time: float, placements: dict) -> Claim:
    """The claim a player calls at `time` on a way, with these hand cards (they take a moment each to show)."""
    _, task, rotation, mirrored, _ = way
    return Claim.of_figures(player, task.number, rotation, placements, mirrored, time, SHOWING[len(placements)])


class MissedSolution(RuntimeError):
    """No agent calls STOP although one of them can solve a revealed task."""


def next_action(state: State, agents: list) -> Claim | Stop | Pass:
    """What happens next at a table of bots: the earliest STOP calls, or (junior) a pass?

    A base round goes on while anyone can solve a revealed task, so some agent
    must call STOP: ReactionBots always do. An agent that misses a solution
    that exists raises :class:`MissedSolution`.
    """
    if state.junior:
        return agents[state.active].act(state, state.active) or Pass(state.active)
    claims = [claim for seat, agent in enumerate(agents) if (claim := agent.act(state, seat))]
    if not claims:
        raise _no_claim(state, agents)
    return Stop.of_claims(tuple(earliest(claims, state.rules.stop_window)))


def earliest(claims: list[Claim], window: float) -> list[Claim]:
    """Which claims make one STOP: those called within `window` seconds of the first, in seat order."""
    first = min(claim.time for claim in claims)
    return [claim for claim in claims if claim.time - first <= window]


def _no_claim(state: State, agents: list) -> Exception:
    """Why is a table where nobody calls STOP stuck: an agent missed a solution, or the state was not played?"""
    if state.over:
        return GameOver(f"the game is over ({state.end_reason})")
    able = [seat for seat in range(state.players) if can_solve(state, seat)]
    if not able:
        return ValueError(
            "nobody can solve a revealed task, so play would already have ended this round: "
            "this state was not reached by play"
        )
    names = ", ".join(f"player {seat} ({agents[seat].name})" for seat in able)
    return MissedSolution(
        f"no agent calls STOP, but {names} can solve a revealed task: an agent missed a solution that exists"
    )

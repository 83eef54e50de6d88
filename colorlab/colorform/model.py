"""Col-Or-Form as a state and pure transitions.

``new_game(rules, seed)`` deals a game; ``play(state, action)`` returns the next
state or raises an :class:`~colorlab.rules.IllegalAction` subclass that names
the broken rule, leaving the state as it was. All chance comes from the seed.

The base game has one action of its own, :class:`Stop`: one or more STOP calls
made at almost the same moment (within ``rules.stop_window`` seconds), each a
:class:`Claim` with its time; they are checked in time order (ties by seat).
Nobody can end a round by hand. A round ends by itself when every revealed task
is taken, or when the solver proves, over every player's hand, that nobody can
solve any revealed task; while one of them can still be solved, the round goes
on. (Older saves may hold a "give up" action that ended a round early; they are
refused with a message that says so.)

The game ends, as the rulebook says, after the round in which the task pile
runs out.

FIKOLO JUNIOR is played in turns: the active player either claims the task card
on top of its own pile (:class:`Claim`) or passes (:class:`Pass`).

Two points the rulebook leaves open are settled here. A claim on a task that an
earlier claim of the same STOP already took is void (no penalty). And a table
where nothing fits any more would go round for ever, so the game also ends
after ``rules.unsolvable_rounds`` rounds in a row in which the solver proves, as
the task cards are revealed, that nobody can solve any of them (junior: that no
active player can solve its card); in junior the winners are then the players
with the fewest task cards left.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Iterable

from colorlab.colorform.components import (
    DESTINATIONS,
    FIGURES,
    Figure,
    TaskCard,
    figure,
    task_cards,
)
from colorlab.colorform.rules import Rules
from colorlab.colorform.solver import cover, fitting_bits, hopeful_of_hands, laid, solvable, why_not
from colorlab.rules import ChangeRules, GameOver, IllegalAction, NotYourTurn, check_seat
from colorlab.state import evolve_with


class UnknownPlayer(IllegalAction):
    """A seat number that is not in the game."""


class UnknownCard(IllegalAction):
    """A figure or task card that does not exist."""


class CardNotInHand(IllegalAction):
    """A figure card the claimant does not hold, or holds once but uses twice."""


class CellTaken(IllegalAction):
    """Two hand cards put on the same layout cell."""


class OffLayout(IllegalAction):
    """A cell number that is not one of the layout's nine cells."""


class BlankCell(IllegalAction):
    """A hand card put where the task card shows no figure."""


class TaskNotAvailable(IllegalAction):
    """A task card that is not revealed on the table (already taken, or never dealt)."""


class TurnNotAllowed(IllegalAction):
    """A turn or mirror image of the task card that the rules do not allow."""


class BadStop(IllegalAction):
    """A STOP call that is malformed: no claims, a player twice, or calls too far apart."""


@dataclasses.dataclass(frozen=True)
class Claim:
    """A player's claimed solution: a task, its turn, and hand cards on layout cells."""

    player: int
    task: int
    rotation: int = 0
    placements: tuple[tuple[int, Figure], ...] = ()
    mirrored: bool = False
    time: float = 0.0
    seconds_shown: float = 0.0

    def __post_init__(self) -> None:
        pairs = self.placements.items() if isinstance(self.placements, dict) else self.placements
        object.__setattr__(self, "placements", tuple((cell, _figure(card)) for cell, card in pairs))

    @classmethod
    def of_figures(
        cls,
        player: int,
        task: int,
        rotation: int,
        placements: dict[int, Figure],
        mirrored: bool,
        time: float,
        seconds_shown: float,
    ) -> Claim:
        """A claim whose cards are Figures already, made without reading each card again (bots make one every move)."""
        claim = object.__new__(cls)
        claim.__dict__.update(
            player=player,
            task=task,
            rotation=rotation,
            placements=tuple(placements.items()),
            mirrored=mirrored,
            time=time,
            seconds_shown=seconds_shown,
        )
        return claim


@dataclasses.dataclass(frozen=True)
class Stop:
    """STOP calls made at almost the same moment, resolved in time order."""

    claims: tuple[Claim, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "claims", tuple(self.claims))

    @classmethod
    def of_claims(cls, claims: tuple[Claim, ...]) -> Stop:
        """A STOP of these claims, a tuple already, made without copying it (bots make one every move)."""
        stop = object.__new__(cls)
        stop.__dict__["claims"] = claims
        return stop


@dataclasses.dataclass(frozen=True)
class Pass:
    """Junior: the active player cannot solve its task card; it goes to the bottom."""

    player: int


Action = Claim | Stop | Pass | ChangeRules
Stack = tuple[Figure, ...]


class kept:
    """A value a state works out from its fields the first time it is asked for, then keeps (in its ``__dict__``).

    Like ``functools.cached_property``, whose lock (Python 3.11) costs more than working out most of these
    values: every move makes a new state and asks for them. Two threads asking at once would both work out
    the same value.
    """

    def __init__(self, work_out):
        self.work_out = work_out
        self.__doc__ = work_out.__doc__

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    def __get__(self, state, owner=None):
        if state is None:
            return self
        value = state.__dict__[self.name] = self.work_out(state)
        return value


@dataclasses.dataclass(frozen=True)
class State:
    """Everything on the table, in the piles and in the hands at one moment."""

    rules: Rules
    seed: int
    layout: tuple[Stack, ...]
    figure_pile: tuple[Figure, ...]
    hands: tuple[tuple[Figure, ...], ...]
    task_pile: tuple[TaskCard, ...]
    revealed: tuple[tuple[TaskCard, ...], ...]
    own_piles: tuple[tuple[TaskCard, ...], ...]
    won: tuple[tuple[tuple[TaskCard, bool], ...], ...]
    box: tuple[TaskCard, ...]
    round: int = 1
    active: int = 0
    last_round: bool = False
    finished: tuple[int, ...] = ()
    shuffles: int = 0
    solvable_round: int = 0
    over: bool = False
    end_reason: str = ""
    events: tuple[str, ...] = ()

    @kept
    def tops(self) -> tuple[Figure, ...]:
        """Which figure lies on top of each of the nine layout stacks?"""
        return tuple(stack[-1] for stack in self.layout)

    @kept
    def fitting(self) -> int:
        """Which (cell, figure) pairs does the layout fit (see ``fitting_bits``)?"""
        return fitting_bits(self.tops, self.rules.matching)

    @kept
    def hopeful(self) -> tuple[tuple[tuple, ...], ...]:
        """Each player's hopeful turns of the revealed tasks, with any number of hand cards (see ``hopeful_turns``).

        Kept on the state: the round's end asks whether anyone can solve a task, then every bot
        looks at the same state for its quickest way.
        """
        tasks = self.revealed_tasks()
        if not tasks:  # between rounds: the layout's fitting bits are not needed
            return ((),) * len(self.hands)
        return hopeful_of_hands(self.fitting, tasks, self.hands, self.rules)

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def junior(self) -> bool:
        return self.rules.variant == "junior"

    def revealed_tasks(self) -> list[TaskCard]:
        """Which task cards lie face up, ready to be solved?"""
        return [card for cards in self.revealed for card in cards]


# What a state works out and keeps, and the fields each value reads.
WORKED_OUT = {
    "tops": frozenset({"layout"}),
    "fitting": frozenset({"layout", "rules"}),
    "hopeful": frozenset({"layout", "hands", "revealed", "rules"}),
}
WORKED_OUT_FROM = frozenset().union(*WORKED_OUT.values())


def evolve(state: State, **changes) -> State:
    """Copy the state with some fields changed, as :func:`colorlab.state.evolve` does, forgetting stale kept values.

    What the state has worked out and kept (``tops``, ``fitting``, ``hopeful``) comes along unless a field
    it reads changes; a caller that has worked out the new value itself may pass it among the changes.
    """
    new = evolve_with(state, changes)
    if not WORKED_OUT_FROM.isdisjoint(changes):
        for name, fields in WORKED_OUT.items():
            if name not in changes and not fields.isdisjoint(changes):
                new.__dict__.pop(name, None)
    return new


def new_game(rules: Rules = Rules(), seed: int = 0) -> State:
    """Deal a new game: the layout, the hands and the task cards."""
    state = deal(rules, seed)
    if rules.variant == "junior":
        return _reveal_for(state, 0, ("First turn: Player 0, the youngest player.",))
    return _settle(_deal_tasks(state, (FIRST_ROUND,)))


def deal(rules: Rules = Rules(), seed: int = 0) -> State:
    """Deal the layout, the hands and the task piles, before the first task card is turned up."""
    rng = random.Random(f"{seed}/setup")
    figures = rng.sample(FIGURES, len(FIGURES))
    layout, figures = tuple((card,) for card in figures[:9]), figures[9:]
    hands = tuple(tuple(figures[p * rules.hand_size : (p + 1) * rules.hand_size]) for p in range(rules.players))
    pile = tuple(figures[rules.players * rules.hand_size :])
    in_play = [card for card in task_cards() if card.size <= rules.largest_task]
    box = tuple(card for card in task_cards() if card.size > rules.largest_task)
    rng.shuffle(in_play)
    empty = tuple(() for _ in range(rules.players))
    state = State(
        rules=rules,
        seed=seed,
        layout=layout,
        figure_pile=pile,
        hands=hands,
        task_pile=tuple(in_play),
        revealed=empty,
        own_piles=empty,
        won=empty,
        box=box,
    )
    if rules.variant == "junior":
        n = rules.tasks_per_player
        own = tuple(tuple(in_play[p * n : (p + 1) * n]) for p in range(rules.players))
        state = evolve(state, own_piles=own, task_pile=(), box=box + tuple(in_play[rules.players * n :]))
    return state


def play(state: State, action: Action) -> State:
    """Apply one action and return the new state; refuse an illegal one with a reason."""
    if state.over:
        raise GameOver(f"the game is over ({state.end_reason})")
    if isinstance(action, ChangeRules):
        return _change_rules(state, action)
    if state.junior:
        if isinstance(action, Claim):
            return _junior_claim(state, action)
        if isinstance(action, Pass):
            return _junior_pass(state, action)
        raise IllegalAction(f"{type(action).__name__} is not a junior action: claim or pass")
    if isinstance(action, Claim):
        action = Stop((action,))
    if isinstance(action, Stop):
        return _stop(state, action)
    raise IllegalAction(
        f"{type(action).__name__ if action is not None else 'None'} is not a "
        "base-game action: call STOP with claims (a round ends by itself when "
        "nobody can solve a revealed task)"
    )


def _change_rules(state: State, action: ChangeRules) -> State:
    # Rounds nobody could solve under the old rules prove nothing under the new ones: count afresh.
    state = evolve(action.apply(state), solvable_round=state.round)
    return state if state.junior else _settle(state)


def observation(state: State, player: int) -> dict:
    """What may `player` see of the table, as plain JSON values?

    Hands and revealed tasks lie face up, so they are shown; the order of the
    piles, the seed and the tasks set aside are not. A junior player's tasks
    left count the card it has turned up, which goes back under its pile if
    unsolved.
    """

    def task_json(card: TaskCard) -> dict:
        return {
            "number": card.number,
            "size": card.size,
            "cells": [None if fig is None else str(fig) for fig in card.cells],
        }

    return {
        "game": "colorform",
        "you": player,
        "variant": state.rules.variant,
        "round": state.round,
        "active": state.active,
        "layout": [{"top": str(stack[-1]), "under": len(stack) - 1} for stack in state.layout],
        "hands": [[str(card) for card in hand] for hand in state.hands],
        "tasks": [dict(task_json(card), owner=seat) for seat, cards in enumerate(state.revealed) for card in cards],
        "piles": [
            {
                "face_down": sum(not up for _, up in won),
                "face_up": [task_json(c) for c, up in won if up],
                "tasks_left": len(state.own_piles[seat]) + (len(state.revealed[seat]) if state.junior else 0),
            }
            for seat, won in enumerate(state.won)
        ],
        "scores": scores(state),
        "figure_pile": len(state.figure_pile),
        "task_pile": len(state.task_pile),
        "last_round": state.last_round,
        "over": state.over,
        "end_reason": state.end_reason,
        "winners": winners(state),
        "ranking": [list(entry) for entry in ranking(state)] if state.over else [],
        "events": list(state.events),
    }


def scores(state: State) -> list[int]:
    """How many points has each player? (Junior: how many task cards each has solved.)"""
    if state.junior:
        return [len(won) for won in state.won]
    return [sum(-card.size if face_up else card.size for card, face_up in won) for won in state.won]


def winners(state: State) -> list[int]:
    """Who wins (several players share a win on a full tie)? Empty until the game is over."""
    if not state.over:
        return []
    if state.junior:
        if state.finished:
            return sorted(state.finished)
        left = [len(pile) + len(shown) for pile, shown in zip(state.own_piles, state.revealed)]
        return [p for p, n in enumerate(left) if n == min(left)]
    keys = [(score, -len(won)) for score, won in zip(scores(state), state.won)]
    return [p for p, key in enumerate(keys) if key == max(keys)]


def ranking(state: State) -> list[tuple[int, int]]:
    """Which place does each player take, as (place, player), best first, ties sharing a place?"""
    keys = [(score, -len(won)) for score, won in zip(scores(state), state.won)]
    order = sorted(range(state.players), key=lambda p: keys[p], reverse=True)
    return [(1 + sum(k > keys[p] for k in keys), p) for p in order]


def _figure(card) -> Figure:
    try:
        return figure(card)
    except ValueError as error:
        raise UnknownCard(str(error)) from None


def _rng(state: State) -> random.Random:
    return random.Random(f"{state.seed}/shuffle/{state.shuffles}")


def _check_claim(state: State, claim: Claim) -> TaskCard:
    """Refuse a malformed claim, naming its first fault; return the task card it names."""
    if not isinstance(claim, Claim):
        raise IllegalAction(f"{claim!r} is not a claim")
    check_seat(claim.player, state.players, UnknownPlayer)
    if state.junior and claim.player != state.active:
        raise NotYourTurn(f"it is player {state.active}'s turn, not player {claim.player}'s")
    task = next((card for card in state.revealed_tasks() if card.number == claim.task), None)
    if task is None:
        known = isinstance(claim.task, int) and 1 <= claim.task <= len(task_cards())
        if not known:
            raise UnknownCard(f"there is no task card {claim.task!r}")
        raise TaskNotAvailable(f"task card {claim.task} is not revealed on the table")
    if isinstance(claim.rotation, bool) or claim.rotation not in (0, 1, 2, 3):
        raise TurnNotAllowed(f"rotation must be 0 to 3 quarter turns, not {claim.rotation!r}")
    if claim.rotation and not state.rules.rotations:
        raise TurnNotAllowed("these rules do not allow turning a task card")
    if not isinstance(claim.mirrored, bool) or (claim.mirrored and not state.rules.mirror_images):
        raise TurnNotAllowed("these rules do not allow mirroring a task card")
    for value in (claim.time, claim.seconds_shown):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
            raise BadStop(f"times must be finite numbers of seconds, not {value!r}")
    hand = list(state.hands[claim.player])
    cells = [cell for cell, _ in claim.placements]
    for cell, card in claim.placements:
        if isinstance(cell, bool) or cell not in range(9):
            raise OffLayout(f"cell {cell!r} is not on the layout; cells are 0 to 8")
        if cells.count(cell) > 1:
            raise CellTaken(f"two cards are put on cell {cell}")
        if card not in hand:
            raise CardNotInHand(
                f"player {claim.player} does not hold {card}"
                if card not in state.hands[claim.player]
                else f"{card} is used twice"
            )
        hand.remove(card)
    destination = DESTINATIONS[claim.rotation, claim.mirrored]
    covered = {destination[cell] for cell, _ in task.figures}
    for cell in cells:
        if cell not in covered:
            raise BlankCell(f"cell {cell} is white on the turned task card: no card is needed there")
    return task


def _verdict(state: State, claim: Claim, task: TaskCard) -> list[str]:
    """Why is this claim wrong on the current layout? (Empty when it is right.)"""
    if claim.seconds_shown <= state.rules.seconds_to_show and _fits(state, task, claim):
        return []  # the usual case, answered without putting each figure into words
    return faults(state.tops, task, claim, state.rules)


def faults(tops: tuple[Figure, ...], task: TaskCard, claim: Claim, rules: Rules) -> list[str]:
    """Why is this claim on `task` wrong, the layout showing `tops`? (Empty when it is right.)"""
    problems = why_not(tops, task, claim.rotation, dict(claim.placements), claim.mirrored, rules)
    if claim.seconds_shown > rules.seconds_to_show:
        problems.append(f"shown after {claim.seconds_shown:g} s; the limit is {rules.seconds_to_show:g} s")
    return problems


def _fits(state: State, task: TaskCard, claim: Claim) -> bool:
    """Does every figure of the turned task fit the card under it, the claim's cards laid? (Like ``why_not``.)"""
    # The claim has passed its checks: one card a cell, each on a cell the turned task shows a figure over.
    return not task.turn_bits[claim.rotation, claim.mirrored] & ~laid(
        state.fitting, claim.placements, state.rules.matching
    )


def _take_task(revealed: tuple, task: TaskCard) -> tuple:
    # Cards are told apart by number: comparing two whole cards compares their nine cells.
    return tuple(tuple(card for card in cards if card.number != task.number) for cards in revealed)


def _solved(state: State, claim: Claim, task: TaskCard) -> State:
    """Lay the claim's hand cards on the layout, take them from the hand, and give the claimant the task."""
    won = _with(state.won, claim.player, state.won[claim.player] + ((task, False),))
    revealed = _take_task(state.revealed, task)
    if not claim.placements:
        return evolve(state, revealed=revealed, won=won)
    # Only the covered cells change: the layout's tops and fitting bits are updated there, not worked out again.
    layout, tops = list(state.layout), list(state.tops)
    hand = list(state.hands[claim.player])
    for cell, card in claim.placements:
        layout[cell] = layout[cell] + (card,)
        tops[cell] = card
        hand.remove(card)
    return evolve(
        state,
        layout=tuple(layout),
        tops=tuple(tops),
        fitting=laid(state.fitting, claim.placements, state.rules.matching),
        hands=_with(state.hands, claim.player, tuple(hand)),
        revealed=revealed,
        won=won,
    )


def _with(items: tuple, index: int, value) -> tuple:
    return items[:index] + (value,) + items[index + 1 :]


def _stop(state: State, stop: Stop) -> State:
    claims = stop.claims
    if not claims:
        raise BadStop("a STOP needs at least one claim")
    tasks = [_check_claim(state, claim) for claim in claims]
    if len(claims) == 1:  # one call is at one moment: nothing to check or order
        in_order = zip(claims, tasks)
    else:
        _check_simultaneous(state, claims)
        in_order = sorted(zip(claims, tasks), key=lambda pair: (pair[0].time, pair[0].player))
    events = []
    changed = False
    taken = set()  # every claimed task was revealed when the STOP came: it is gone once a claim here took it
    for claim, task in in_order:
        if task.number in taken:
            events.append(void_event(claim.player, task))
            continue
        problems = _verdict(state, claim, task)
        if not problems:
            state = _solved(state, claim, task)
            taken.add(task.number)
            changed = changed or bool(claim.placements)
            events.append(solved_event(claim.player, task))
        elif changed:
            events.append(returned_event(claim.player, task))
        else:
            won = _with(state.won, claim.player, state.won[claim.player] + ((task, True),))
            state = evolve(state, revealed=_take_task(state.revealed, task), won=won)
            taken.add(task.number)
            events.append(wrong_event(claim.player, task, problems))
    return _settle(evolve(state, events=tuple(events)))


def _check_simultaneous(state: State, claims: tuple[Claim, ...]) -> None:
    """Refuse STOP calls of one player twice, or calls too far apart to count as one moment."""
    seats = [claim.player for claim in claims]
    if len(set(seats)) != len(seats):
        raise BadStop("a player may call STOP only once at a time")
    first = min(claim.time for claim in claims)
    late = [claim for claim in claims if claim.time - first > state.rules.stop_window]
    if late:
        raise BadStop(
            f"player {late[0].player} called {late[0].time - first:g} s after the first STOP; "
            f"only calls within {state.rules.stop_window:g} s count as simultaneous"
        )


def can_solve(state: State, player: int) -> bool:
    """Can `player` solve one of the revealed tasks with its own hand right now?"""
    hopeful = state.hopeful[player]
    # A hopeful turn has a fitting hand card for each cell it needs one for: with one such cell (or none) it works.
    if any(way[4] <= 1 for way in hopeful):
        return True
    tops, hand = state.tops, state.hands[player]
    return any(cover(tops, hand, placed, state.rules) is not None for _, _, _, placed, _ in hopeful)


def _anyone_can_solve(state: State) -> bool:
    return any(can_solve(state, player) for player in range(state.players))


def _settle(state: State) -> State:
    """End rounds for as long as no one can solve a revealed task; remember a round where someone can."""
    while not state.over:
        if _anyone_can_solve(state):
            if state.solvable_round == state.round:
                return state
            return evolve(state, solvable_round=state.round)
        state = _end_round(state, events=state.events)
    return state


def _unsolvable_for_too_long(state: State) -> bool:
    """Has nobody been able to solve a revealed task for `rules.unsolvable_rounds` rounds in a row?"""
    return state.round - state.solvable_round >= state.rules.unsolvable_rounds


def unsolvable_end(rules: Rules) -> str:
    """Why does a game end when nobody could solve a revealed task for `rules.unsolvable_rounds` rounds?"""
    rounds = rules.unsolvable_rounds
    return f"nobody could solve a revealed task for {rounds} round{'s' if rounds > 1 else ''} in a row"


# What the table says of each claim and round, in the events of a state (the playout of bot games says the same).
FIRST_ROUND = "Round 1: the task cards are revealed."
PILE_RAN_OUT = "the task pile ran out"


def void_event(player: int, task: TaskCard) -> str:
    """What is said of a claim on a task that an earlier claim of the same STOP took?"""
    return f"Player {player}: task {task.number} was already taken; the claim is void."


def solved_event(player: int, task: TaskCard) -> str:
    """What is said of a claim that solves its task?"""
    return f"Player {player}: task {task.number} solved, +{task.size}."


def returned_event(player: int, task: TaskCard) -> str:
    """What is said of a claim that an earlier claim of the same STOP spoilt by changing the layout?"""
    return f"Player {player}: task {task.number} no longer fits the changed layout; it goes back without penalty."


def wrong_event(player: int, task: TaskCard, problems: list[str]) -> str:
    """What is said of a wrong claim, with its faults?"""
    return f"Player {player}: wrong on task {task.number}, -{task.size} ({'; '.join(problems)})."


def round_end_event(round_number: int, unsolved: Iterable[TaskCard]) -> str:
    """What is said when a round ends, with the tasks nobody could solve?"""
    numbers = ", ".join(str(card.number) for card in unsolved)
    if numbers:
        return f"Round {round_number} ends: no one can solve task(s) {numbers}."
    return f"Round {round_number} ends: every task is solved."


def new_round_event(round_number: int) -> str:
    """What is said when a round begins?"""
    return f"Round {round_number}: new task cards are revealed."


def game_over_event(reason: str) -> str:
    """What is said when the game ends, and why?"""
    return f"The game is over: {reason}."


def _end_round(state: State, events: tuple[str, ...]) -> State:
    """Put the tasks nobody can solve under the pile, then end the game or start a new round."""
    unsolved = tuple(state.revealed_tasks())
    events += (round_end_event(state.round, unsolved),)
    task_pile, cleared = state.task_pile + unsolved, tuple(() for _ in range(state.players))
    if state.last_round or _unsolvable_for_too_long(state):
        reason = PILE_RAN_OUT if state.last_round else unsolvable_end(state.rules)
        return evolve(
            state,
            task_pile=task_pile,
            revealed=cleared,
            over=True,
            end_reason=reason,
            events=events + (game_over_event(reason),),
        )
    # The next round in one new state: hands refilled, then task cards dealt from the pile the unsolved joined.
    return evolve(
        state,
        round=state.round + 1,
        **_refilled(state, range(state.players)),
        **_dealt(task_pile, state.players, state.rules.tasks_per_player),
        events=events + (new_round_event(state.round + 1),),
    )


def _deal_tasks(state: State, events: tuple[str, ...]) -> State:
    return evolve(state, **_dealt(state.task_pile, state.players, state.rules.tasks_per_player), events=events)


def _dealt(task_pile: tuple[TaskCard, ...], players: int, each: int) -> dict:
    """The changes that reveal `each` task cards from the top of the pile in front of every player."""
    return {
        "task_pile": task_pile[players * each :],
        "revealed": tuple(task_pile[seat * each : (seat + 1) * each] for seat in range(players)),
        "last_round": not task_pile[players * each :],
    }


def _refill(state: State, seats: Iterable[int]) -> State:
    """Deal figure cards back up to the hand size, gathering the under-cards if the pile is short."""
    return evolve(state, **_refilled(state, seats))


def _refilled(state: State, seats: Iterable[int]) -> dict:
    """The changes that deal figure cards back up to the hand size, gathering the under-cards if the pile is short."""
    seats = list(seats)
    needed = sum(state.rules.hand_size - len(state.hands[p]) for p in seats)
    pile = list(state.figure_pile)
    hands = list(state.hands)
    changes = {}
    if needed > len(pile):
        pile += [card for stack in state.layout for card in stack[:-1]]
        _rng(state).shuffle(pile)
        # Only then does the layout change (and with it what the state worked out from it).
        changes = {"layout": tuple((stack[-1],) for stack in state.layout), "shuffles": state.shuffles + 1}
    for p in seats:
        take = state.rules.hand_size - len(hands[p])
        hands[p] += tuple(pile[:take])
        del pile[:take]
    return dict(changes, figure_pile=tuple(pile), hands=tuple(hands))


def _reveal_for(state: State, seat: int, events: tuple[str, ...]) -> State:
    """Junior: make `seat` active and turn up the top card of its own pile."""
    pile = state.own_piles[seat]
    revealed = _with(tuple(() for _ in range(state.players)), seat, pile[:1])
    state = evolve(
        state, active=seat, revealed=revealed, own_piles=_with(state.own_piles, seat, pile[1:]), events=events
    )
    if solvable(state.tops, state.hands[seat], pile[0], state.rules):
        state = evolve(state, solvable_round=state.round)
    return state


def _junior_claim(state: State, claim: Claim) -> State:
    task = _check_claim(state, claim)
    problems = _verdict(state, claim, task)
    if problems:
        return _junior_not_solved(
            state, task, (f"Player {claim.player}: task {task.number} not solved ({'; '.join(problems)}).",)
        )
    state = _solved(state, claim, task)
    events = (f"Player {claim.player}: task {task.number} solved; it leaves the game.",)
    if not state.own_piles[claim.player]:
        state = evolve(state, finished=state.finished + (claim.player,))
        events += (f"Player {claim.player}: every task card solved.",)
    return _next_turn(state, events)


def _junior_pass(state: State, action: Pass) -> State:
    check_seat(action.player, state.players, UnknownPlayer)
    if action.player != state.active:
        raise NotYourTurn(f"it is player {state.active}'s turn, not player {action.player}'s")
    task = state.revealed[state.active][0]
    events = (f"Player {action.player}: passes on task {task.number}.",)
    return _junior_not_solved(state, task, events)


def _junior_not_solved(state: State, task: TaskCard, events: tuple[str, ...]) -> State:
    seat = state.active
    state = evolve(
        state,
        revealed=_take_task(state.revealed, task),
        own_piles=_with(state.own_piles, seat, state.own_piles[seat] + (task,)),
    )
    return _next_turn(state, events)


def _next_turn(state: State, events: tuple[str, ...]) -> State:
    """Junior: refill the active hand, then hand the turn on (ending the round or game)."""
    state = _refill(state, [state.active])
    seat = state.active
    while True:
        seat = (seat + 1) % state.players
        if seat == 0:
            if state.finished:
                return evolve(
                    state,
                    over=True,
                    end_reason="a player solved their last task card",
                    revealed=tuple(() for _ in range(state.players)),
                    events=events + ("The game is over.",),
                )
            if _unsolvable_for_too_long(state):
                reason = unsolvable_end(state.rules)
                return evolve(
                    state,
                    over=True,
                    end_reason=reason,
                    revealed=tuple(() for _ in range(state.players)),
                    events=events + (game_over_event(reason),),
                )
            state = evolve(state, round=state.round + 1)
        if state.own_piles[seat]:
            return _reveal_for(state, seat, events)


def action_to_dict(action: Action) -> dict:
    """Which plain JSON values describe this action?"""
    if isinstance(action, Claim):
        return {
            "type": "claim",
            "player": action.player,
            "task": action.task,
            "rotation": action.rotation,
            "mirrored": action.mirrored,
            "placements": [[cell, str(card)] for cell, card in action.placements],
            "time": action.time,
            "seconds_shown": action.seconds_shown,
        }
    if isinstance(action, Stop):
        return {"type": "stop", "claims": [action_to_dict(claim) for claim in action.claims]}
    if isinstance(action, Pass):
        return {"type": "pass", "player": action.player}
    if isinstance(action, ChangeRules):
        return action.to_dict()
    raise TypeError(f"{action!r} is not a Col-Or-Form action")


# Older colorlab let players give up on a round; a save holding that action cannot be replayed now.
GIVING_UP_RETIRED = (
    "it gives up on a round, which older colorlab allowed; now a round ends only when every "
    "revealed task is taken or nobody can solve one, so this save cannot be replayed"
)

_FIELDS = {
    "claim": {"type", "player", "task", "rotation", "mirrored", "placements", "time", "seconds_shown"},
    "stop": {"type", "claims"},
    "pass": {"type", "player"},
    "rules": {"type", "changes"},
}


def action_from_dict(data: dict) -> Action:
    """Read an action written by :func:`action_to_dict`, refusing anything malformed."""
    if isinstance(data, dict) and data.get("type") == "give up":
        raise ValueError(GIVING_UP_RETIRED)
    if not isinstance(data, dict) or data.get("type") not in _FIELDS:
        raise ValueError(f"an action must be an object with a type among {sorted(_FIELDS)}")
    kind = data["type"]
    if set(data) != _FIELDS[kind]:
        raise ValueError(f"a {kind} action has exactly the fields {sorted(_FIELDS[kind])}")
    if kind == "pass":
        return Pass(_int(data["player"], "player"))
    if kind == "rules":
        return ChangeRules.from_dict(data)
    if kind == "stop":
        if not isinstance(data["claims"], list):
            raise ValueError("claims must be a list")
        return Stop(tuple(action_from_dict(claim) for claim in data["claims"]))
    placements = data["placements"]
    if not isinstance(placements, list) or not all(isinstance(p, list) and len(p) == 2 for p in placements):
        raise ValueError("placements must be a list of [cell, figure] pairs")
    if not isinstance(data["mirrored"], bool):
        raise ValueError("mirrored must be true or false")
    return Claim(
        player=_int(data["player"], "player"),
        task=_int(data["task"], "task"),
        rotation=_int(data["rotation"], "rotation"),
        placements=tuple((_int(cell, "cell"), figure(card)) for cell, card in placements),
        mirrored=data["mirrored"],
        time=_number(data["time"], "time"),
        seconds_shown=_number(data["seconds_shown"], "seconds_shown"),
    )


def _int(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number, not {value!r}")
    return value


def _number(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{name} must be a number, not {value!r}")
    return float(value)


def outcome(final: State, actions: int, record=None) -> dict:
    """The numbers an experiment keeps about one finished game."""
    solved = sum(not face_up for won in final.won for _, face_up in won)
    return {
        "scores": scores(final),
        "winners": winners(final),
        "rounds": final.round,
        "actions": actions,
        "end": final.end_reason,
        "tasks solved": solved,
        "tasks solved per round": solved / final.round,
    }

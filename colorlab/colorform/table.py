"""Col-Or-Form at a shared table: STOP calls timed by the table's clock, from every device.

A learner's claim is a STOP call: it reaches the table, is stamped with the
table's time (seconds since the table last changed), and waits. Bots call at the
moment their plan says, counted on the same clock. Once the first call's
same-moment window (`stop_window`) has closed, whoever touches the table next
settles every call made within the window as one STOP, in time order. In the
junior variant players take turns, so nothing waits.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from colorlab.agents import Agent
from colorlab.colorform.model import Claim, Pass, State, Stop, observation, scores
from colorlab.tables.games import Call, TableGame

WINDOW_MARGIN = 0.01  # seconds: a window is over once more than `stop_window` has passed, so look just after


def seat_of(action) -> int | None:
    """A learner sends claims and (junior) passes; a STOP is put together by the table."""
    return action.player if isinstance(action, (Claim, Pass)) else None


def waiting_for(state: State) -> list[int]:
    """Junior: the active player. Base game: everyone races to see a solution."""
    if state.over:
        return []
    return [state.active] if state.junior else list(range(state.players))


def is_call(state: State, action) -> bool:
    """Is this a STOP call that waits for the others' calls (a claim in the base game)?"""
    return not state.junior and isinstance(action, Claim)


def call_action(state: State, calls: list[Call]) -> Stop:
    """The STOP that calls made at the same moment become, each stamped with its time."""
    return Stop(tuple(dataclasses.replace(call.action, time=call.seconds) for call in calls))


def next_auto(state: State, bots: Mapping[int, Agent], calls: list[Call], seconds: float):
    """A bot's junior turn, or the STOP of every call within the first call's window once it has closed."""
    if state.junior:
        bot = bots.get(state.active)
        return None if bot is None else bot.act(state, state.active) or Pass(state.active)
    plans = [
        Call(seat, claim, claim.time)
        for seat, bot in bots.items()
        if (claim := bot.act(state, seat)) is not None and claim.time <= seconds
    ]
    made = sorted(calls + plans, key=lambda call: (call.seconds, call.seat))
    if not made:
        return None
    first = made[0].seconds
    if seconds - first <= state.rules.stop_window:
        return None
    return call_action(state, [call for call in made if call.seconds - first <= state.rules.stop_window])


def due(state: State, bots: Mapping[int, Agent], calls: list[Call]) -> float | None:
    """When, on the table's clock, will the first call's window have closed (a bot's planned call counts)?"""
    if state.junior:
        return None  # a bot's turn is played as soon as it comes
    times = [call.seconds for call in calls]
    times += [claim.time for seat, bot in bots.items() if (claim := bot.act(state, seat)) is not None]
    return min(times) + state.rules.stop_window + WINDOW_MARGIN if times else None


TABLE = TableGame(
    name="colorform",
    seat_of=seat_of,
    waiting_for=waiting_for,
    view=observation,
    scores=scores,
    next_auto=next_auto,
    due=due,
    is_call=is_call,
    call_action=call_action,
)

"""What runs inside the worker processes of the tables tests, and how the tests start them.

Every worker is a fresh process started with the "spawn" method: it imports colorlab
itself and opens its own TableStore from the store's URL, as a learner's kernel on
another device would. Nothing (no engine, no connection) is shared across processes.
A worker's answer travels back through a queue; a worker that fails sends its
traceback instead, and the test fails with it.
"""

from __future__ import annotations

import dataclasses
import json
import multiprocessing
import os
import queue
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from typing import Any

from sqlalchemy import text

from colorlab.colorform.agents import ReactionBot
from colorlab.colorfox.agents import GreedyBot as ColorFoxBot
from colorlab.colorium.agents import GreedyBot as ColoriumBot
from colorlab.colourbrain import Answer, QuizBot
from colorlab.record import game_spec
from colorlab.rules import IllegalAction, NotYourTurn
from colorlab.tables import AlreadyCalled, StaleMove, TableClosed, TableError, TableStore
from tests.helpers import colorform, colorfox, colorium
from tests.helpers.quizzes import a_wrong_answer, check_cards

SPAWN = multiprocessing.get_context("spawn")
POLL_SECONDS = 0.005


class WorkerFailed(AssertionError):
    """A worker process raised, died or did not answer in time."""


# --- starting workers -----------------------------------------------------------------------


class Workers:
    """A few spawned processes kept for a test module, so that each race costs no start-up.

    `barrier(n)` gives a barrier the workers can be sent (through the pool's queue), to
    release n of them at one moment.
    """

    def __init__(self, processes: int):
        self.pool = ProcessPoolExecutor(max_workers=processes, mp_context=SPAWN)
        self.manager = SPAWN.Manager()

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exception) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.manager.shutdown()

    def barrier(self, parties: int):
        return self.manager.Barrier(parties)

    def start(self, target: Callable, argument_lists: Sequence[tuple]) -> list[Future]:
        """Start target(*arguments) in a worker per argument list at once; give the futures of their results."""
        return [self.pool.submit(target, *arguments) for arguments in argument_lists]

    def run(self, target: Callable, argument_lists: Sequence[tuple], timeout: float = 60.0) -> list:
        """Run target(*arguments) in a worker per argument list at once; give their results in order."""
        futures = self.start(target, argument_lists)
        _done, waiting = wait(futures, timeout=timeout)
        if waiting:
            raise WorkerFailed(f"{len(waiting)} workers did not answer within {timeout} s")
        return [future.result() for future in futures]


def _report(answers, index: int, target: Callable, arguments: tuple) -> None:
    """Run one worker's target and send back its result or its traceback."""
    try:
        answers.put((index, True, target(*arguments)))
    except BaseException:
        answers.put((index, False, traceback.format_exc()))


def start(target: Callable, argument_lists: Sequence[tuple]) -> tuple[list, Any]:
    """Start a process of its own per argument list (one a test may kill); give them and the queue they answer on."""
    answers = SPAWN.Queue()
    processes = [
        SPAWN.Process(target=_report, args=(answers, index, target, tuple(arguments)), daemon=True)
        for index, arguments in enumerate(argument_lists)
    ]
    for process in processes:
        process.start()
    return processes, answers


def results(processes: list, answers, timeout: float = 60.0) -> list:
    """Wait for every started process's answer (in the order they were started); fail with a traceback."""
    deadline = time.monotonic() + timeout
    found: dict[int, Any] = {}
    try:
        while len(found) < len(processes):
            try:
                index, ok, value = answers.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                missing = [index for index in range(len(processes)) if index not in found]
                raise WorkerFailed(f"workers {missing} did not answer within {timeout} s") from None
            if not ok:
                raise WorkerFailed(f"worker {index} failed:\n{value}")
            found[index] = value
    finally:
        for process in processes:
            process.join(timeout=max(0.1, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join()
    return [found[index] for index in range(len(processes))]


@contextmanager
def opened(url: str) -> Iterator[TableStore]:
    """This worker's own store, closed at the end of the job (a pooled worker does many jobs)."""
    store = TableStore(url)
    try:
        yield store
    finally:
        store.engine.dispose()


# --- checking every action a worker sees ----------------------------------------------------


def _model_checks(module):
    """A game's own invariants after every step (those its model tests check too)."""

    def checks(before, action, after) -> None:
        module.check_invariants(after)
        module.check_step(before, action, after)

    return checks


def _colourbrain_checks(before, action, after) -> None:
    check_cards(before, after)
    assert all(score >= 0 for score in after.scores) and after.pot >= 0, "points went below zero"


CHECKS = {
    "colorfox": _model_checks(colorfox),
    "colorium": _model_checks(colorium),
    "colourbrain": _colourbrain_checks,
    "colorform": _model_checks(colorform),
}


def check_new_steps(game: str, replay, checked: int) -> int:
    """Check the game's invariants on every step this worker has not checked yet; give the steps checked."""
    for step in range(checked, replay.steps):
        CHECKS[game](replay.states[step], replay.record.actions[step], replay.states[step + 1])
    return replay.steps


# --- playing a whole game for one seat ------------------------------------------------------

# The game's own bots, standing in for learners who look at the table and decide, by their seed.
LEARNERS = {
    "colorfox": lambda seed: ColorFoxBot(seed=seed),
    "colorium": lambda seed: ColoriumBot(seed=seed),
    "colourbrain": lambda seed: QuizBot("medium", seed=seed),
    "colorform": lambda seed: ReactionBot("medium", seed=seed),
}


def actions_to_json(game: str, actions) -> list[str]:
    """Actions as JSON text, to send between processes and compare."""
    spec = game_spec(game)
    return [json.dumps(spec.action_to_dict(action), sort_keys=True) for action in actions]


# The clear refusals a learner meets when others move at the same moment: look again.
RACE_REFUSALS = (StaleMove, NotYourTurn, AlreadyCalled)


def play_seat(url: str, code: str, token: str, seed: int, start_together, timeout: float = 60.0) -> dict:
    """Play one seat to the end of the game, as fast as it can; give what it saw and what was acknowledged.

    Before each move the worker catches up and checks every new step's invariants.
    A call (Col-Or-Form's STOP) is sent once per step: the table settles it.
    """
    with opened(url) as store:
        seat = store.rejoin(code, token)
        start_together.wait(timeout=30)
        return _play_to_the_end(seat, LEARNERS[seat.game](seed), time.monotonic() + timeout)


def _play_to_the_end(seat, agent, deadline: float) -> dict:
    """Look, check, move when the game waits for this seat; look again after a refusal; stop when it is over."""
    acknowledged, refused, checked, called_at = [], [], 0, None
    while True:
        assert time.monotonic() < deadline, f"seat {seat.seat} of {seat.game}: the game did not end in time"
        replay = seat.catch_up()
        checked = check_new_steps(seat.game, replay, checked)
        state, step = replay.state, replay.steps
        if state.over:
            break
        action = agent.act(state, seat.seat) if seat.seat in seat.table.waiting_for(state) else None
        if action is None or called_at == step:
            time.sleep(POLL_SECONDS)
            continue
        try:
            seat.play(action, seen=step)
        except RACE_REFUSALS as refusal:
            refused.append(f"{type(refusal).__name__}: {refusal}")
            continue
        acknowledged.append(action)
        if seat.table.is_call(state, action):
            called_at = step
    return {
        "seat": seat.seat,
        "acknowledged": actions_to_json(seat.game, acknowledged),
        "refused": refused,
        "checked": checked,
        "record": replay.record.to_json(),
        "state": state,
    }


# --- racing: many processes at one moment ---------------------------------------------------


def race_move(url: str, code: str, token: str, action_json: str, seen: int | None, start_together) -> dict:
    """Rejoin a seat, wait for the others at the barrier, then send one move at the same moment as them."""
    with opened(url) as store:
        seat = store.rejoin(code, token)
        action = game_spec(seat.game).action_from_dict(json.loads(action_json))
        seat.catch_up()
        start_together.wait(timeout=30)
        try:
            seat.play(action, seen=seen)
        except IllegalAction as refusal:
            return {"ok": False, "error": type(refusal).__name__, "message": str(refusal)}
        return {"ok": True}


def race_join(url: str, code: str, seat: int | None, name: str, start_together) -> dict:
    """Ask for a seat at the same moment as other processes; give the seat got, or the refusal."""
    with opened(url) as store:
        store.table_row(code)
        start_together.wait(timeout=30)
        try:
            return {"seat": store.join(code, seat=seat, name=name).seat}
        except TableError as refusal:
            return {"seat": None, "error": type(refusal).__name__, "message": str(refusal)}


def race_wrong_keys(url: str, code: str, keys: Sequence[str], start_together) -> list[str]:
    """Try wrong seat keys one after another, starting at the same moment as other processes; name each refusal."""
    with opened(url) as store:
        store.table_row(code)
        start_together.wait(timeout=30)
        told = []
        for key in keys:
            try:
                store.rejoin(code, key)
                told.append("opened")
            except TableError as refusal:
                told.append(type(refusal).__name__)
        return told


def race_open(url: str, start_together) -> str:
    """Open a store at the same moment as other processes (the first use creates its schema); say how it went."""
    start_together.wait(timeout=30)
    try:
        with opened(url) as store:
            return f"opened, {len(store.tables())} tables"
    except TableError as refusal:
        return f"refused: {refusal}"


def race_catch_up(url: str, code: str, start_together) -> int:
    """Only look at a table, at the same moment as another process; give the steps seen."""
    with opened(url) as store:
        store.table_row(code)  # connected before the barrier, so that the two looks meet
        start_together.wait(timeout=30)
        return store.catch_up(code).steps


def answer_until_closed(url: str, code: str, token: str, start_together) -> dict:
    """Answer wrongly for one team until the table is closed; give the acknowledged moves and the refusal, if any.

    A team that has answered waits for the others; once the table is closed it stops waiting.
    """
    with opened(url) as store:
        seat = store.rejoin(code, token)
        acknowledged = []
        start_together.wait(timeout=30)
        while True:
            replay = seat.catch_up()
            state, step = replay.state, replay.steps
            if seat.seat not in seat.table.waiting_for(state):
                if store.table_row(code).closed is not None:
                    return {"seat": seat.seat, "acknowledged": acknowledged, "refusal": None}
                time.sleep(POLL_SECONDS)
                continue
            action = Answer(seat.seat, a_wrong_answer(state.question))
            try:
                seat.play(action, seen=step)
            except TableClosed as refusal:
                return {"seat": seat.seat, "acknowledged": acknowledged, "refusal": str(refusal)}
            except StaleMove:
                continue
            acknowledged.append(action)


# --- being killed ---------------------------------------------------------------------------


def note(journal: str, line: str) -> None:
    """Add a line to a worker's journal in one write to a file opened for appending.

    Once os.write returns the line is the kernel's: a SIGKILL right after it loses nothing.
    """
    descriptor = os.open(journal, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    try:
        os.write(descriptor, f"{line}\n".encode())
    finally:
        os.close(descriptor)


def append_forever(url: str, code: str, tokens: Sequence[str], journal: str) -> None:
    """Answer wrongly for every team held, forever; note each acknowledged move (its step and action) in `journal`."""
    store = TableStore(url)
    seats = [store.rejoin(code, token) for token in tokens]
    spec = game_spec(seats[0].game)
    store.catch_up(code)  # replaying a long record takes time: be ready to move before saying so
    note(journal, "ready")
    while True:
        for seat in seats:
            replay = seat.catch_up()
            state, step = replay.state, replay.steps
            assert not state.over, "a quiz of wrong answers never ends"
            if seat.seat not in seat.table.waiting_for(state):
                continue
            action = Answer(seat.seat, a_wrong_answer(state.question))
            seat.play(action, seen=step)
            note(journal, json.dumps([step, spec.action_to_dict(action)], sort_keys=True))


def hold_write_lock(url: str, code: str, journal: str) -> None:
    """Take the table's write lock and half-write a move (a step and a row), then wait to be killed.

    SQLite: the store's own ``BEGIN IMMEDIATE``; PostgreSQL: the table's row locked ``FOR UPDATE``.
    """
    store = TableStore(url)
    lock = " FOR UPDATE" if store.postgresql else ""
    with store.engine.connect().execution_options(write=True) as connection, connection.begin():
        row = connection.execute(
            text(f"SELECT steps FROM colorlab_tables WHERE code = :code{lock}"), {"code": code}
        ).one()
        connection.execute(
            text("INSERT INTO colorlab_actions (code, step, seat, action, at) VALUES (:code, :step, 0, :action, 0)"),
            {"code": code, "step": row.steps, "action": json.dumps({"type": "half written"})},
        )
        connection.execute(text("UPDATE colorlab_tables SET steps = steps + 1 WHERE code = :code"), {"code": code})
        note(journal, "locked")
        time.sleep(120)


def timed_move(url: str, code: str, token: str, action_json: str, seen: int, journal: str) -> float:
    """Open the store and send one move, writing "sending" first; give the seconds until it was acknowledged."""
    began = time.monotonic()
    note(journal, "sending")
    with opened(url) as store:
        seat = store.rejoin(code, token)
        seat.play(game_spec(seat.game).action_from_dict(json.loads(action_json)), seen=seen)
    return time.monotonic() - began


def call_and_wait(url: str, code: str, token: str, claim_json: str, journal: str) -> None:
    """Send a STOP call, note "called" once the table has acknowledged it, then wait to be killed."""
    with opened(url) as store:
        seat = store.rejoin(code, token)
        seat.play(game_spec(seat.game).action_from_dict(json.loads(claim_json)), seen=seat.step)
        note(journal, "called")
        time.sleep(120)


def same_but_time(claim) -> Any:
    """A Col-Or-Form claim with the time the table stamps on it cleared."""
    return dataclasses.replace(claim, time=0.0)

"""Time shared tables: appends per second from 30 kernels at 10 tables, and how soon another kernel sees one.

Both are measured for a SQLite file in a temporary folder and for a throwaway PostgreSQL
cluster (tests/helpers/databases.py). Every kernel is its own spawned process, as in a classroom:

- appends: 10 Colourbrain tables of 3 teams, each team a seat held by its own process, 30 in
  all. Each process looks (catch_up), chooses its answer with a QuizBot, plays it with
  seen=step and looks again when refused; a team that has answered looks again every 10 ms.
  Acknowledged plays during a fixed time are counted, and separately every row the tables gained.
- sight: one process appends to a 2-team table about every 30 ms; another polls the table every
  5 ms and notes when each new step shows. The time between the two, in ms, on this machine's clock.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from sqlalchemy import text

from colorlab import colourbrain
from colorlab.colourbrain.agents import QuizBot
from colorlab.rules import IllegalAction
from colorlab.tables import Seat, TableError, TableStore

from table import Row, run_alone, stop_processes, verdict

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # tests/helpers/databases.py starts the throwaway PostgreSQL server

from tests.helpers.databases import PostgresCluster, PostgresMissing  # noqa: E402

SEED = 2026

TABLES = 10
TEAMS = 3
QUIZ = colourbrain.Rules(teams=TEAMS, target=50)  # long quizzes: about 200 actions each
SPARE_TABLES = 5  # a group whose quiz ends before the time is up moves on to its next table
RUN_SECONDS = 8.0
RUNS = 3
WAITING_POLL = 0.01
APPENDS_TARGET = 200.0

SIGHTS = 200
SIGHT_QUIZ = colourbrain.Rules(teams=2, target=50)
SIGHT_POLL = 0.005
PAGE_POLL = 0.25
PAUSE = (0.02, 0.04)  # between two appends, so that every step shows on its own
SIGHT_TARGET_MS = 100.0
STARTUP_SECONDS = 120.0
RAN_OUT = "seats that ended all their quizzes early"


# --- the appends: 30 seat processes -----------------------------------------------------------


def seat_worker(jobs, start, results) -> None:
    """One learner's kernel: play each seat it is given for as long as it is told, then say how it went."""
    while (job := jobs.get()) is not None:
        results.put(play_seat(*job, start=start))


def play_seat(where: str, keys: list[tuple[str, str]], seconds: float, start) -> Counter:
    """Sit at each table in turn with its key, and play there until its quiz ends or the time is up."""
    store = TableStore(where)
    seats = [store.rejoin(code, token) for code, token in keys]
    bot = QuizBot("medium", seed=SEED + seats[0].seat)
    counts: Counter = Counter()
    try:
        start.wait(STARTUP_SECONDS)
        deadline = time.monotonic() + seconds
        counts[RAN_OUT] += all(play_quiz(seat, bot, deadline, counts) for seat in seats)
    finally:
        store.engine.dispose()
    return counts


def play_quiz(seat: Seat, bot: QuizBot, deadline: float, counts: Counter) -> bool:
    """Play one seat as fast as the table lets it: True when the quiz ended, False when the time was up."""
    while time.monotonic() < deadline:
        replay = seat.catch_up()
        if replay.state.over:
            return True
        action = bot.act(replay.state, seat.seat)
        if action is None:
            time.sleep(WAITING_POLL)  # this team has answered: the others still think
            continue
        try:
            seat.play(action, seen=replay.steps)
        except IllegalAction as refusal:
            counts[type(refusal).__name__] += 1
            continue
        except TableError:
            counts["store errors"] += 1
            continue
        if time.monotonic() < deadline:
            counts["acknowledged"] += 1
    return False


def open_quizzes(store: TableStore) -> list[list[tuple[str, str]]]:
    """Open every group's tables and take every seat: for each of the 30 processes, its (code, key) per table."""
    keys: list[list[tuple[str, str]]] = [[] for _ in range(TABLES * TEAMS)]
    for group in range(TABLES):
        for spare in range(1 + SPARE_TABLES):
            code = store.create("colourbrain", QUIZ, seed=SEED + group * 10 + spare)
            for team in range(TEAMS):
                keys[group * TEAMS + team].append((code, store.join(code, seat=team, name=f"Team {team}").token))
    return keys


def rows_between(store: TableStore, since: float, until: float) -> int:
    """How many actions (a learner's or a bot's) did the store write in this time? Read from its `at` stamps."""
    with store.engine.connect() as connection:
        return connection.execute(
            text("SELECT count(*) FROM colorlab_actions WHERE at >= :since AND at < :until"),
            {"since": since, "until": until},
        ).scalar_one()


def appends_run(where: str, jobs, start, results) -> tuple[float, float, Counter]:
    """One timed run at fresh tables: acknowledged plays per second, rows per second, and every count."""
    store = TableStore(where)
    for keys in open_quizzes(store):
        jobs.put((where, keys, RUN_SECONDS))
    start.wait(STARTUP_SECONDS)
    since = time.time()
    counts = sum((results.get(timeout=STARTUP_SECONDS + RUN_SECONDS) for _ in range(TABLES * TEAMS)), Counter())
    rows = rows_between(store, since, since + RUN_SECONDS)
    store.engine.dispose()
    return counts["acknowledged"] / RUN_SECONDS, rows / RUN_SECONDS, counts


def bench_appends(name: str, stores, workers) -> Row:
    """RUNS timed runs, each at a fresh store; the median acknowledged plays per second against the target."""
    load = os.getloadavg()[0]
    runs = [appends_run(next(stores), *workers) for _ in range(RUNS)]
    acked, _, counts = sorted(runs, key=lambda run: run[0])[len(runs) // 2]
    rows = statistics.median(run[1] for run in runs)
    refused = ", ".join(f"{count} {kind}" for kind, count in sorted(counts.items()) if kind != "acknowledged" and count)
    note = (
        f"{name} appends: runs gave {', '.join(f'{run[0]:.0f}' for run in runs)} acknowledged plays/s; "
        f"all rows written {rows:.0f}/s (median); the median run also had {refused or 'no refusals'}; "
        f"the 1-minute load average was {load:.1f} before the runs ({os.cpu_count()} CPUs)."
    )
    return Row(
        f"tables, {name}: appends, {TABLES * TEAMS} seat processes at {TABLES} tables "
        f"({RUNS} runs x {RUN_SECONDS:g} s)",
        f"{acked:.0f}",
        "appends/s",
        f">= {APPENDS_TARGET:g}",
        verdict(acked >= APPENDS_TARGET),
        note,
    )


# --- the sight: one process appends, another looks ----------------------------------------------


def next_answer(bots: list[QuizBot], state: colourbrain.State) -> tuple[int, object]:
    """The first team with something to play now, and what it plays."""
    for team, bot in enumerate(bots):
        action = bot.act(state, team)
        if action is not None:
            return team, action
    raise RuntimeError("no team has anything to play")


def appender(where: str, quizzes: list[tuple[str, list[str]]], ready, results) -> None:
    """Play both teams of each table in turn, pausing between plays; say when each step was acknowledged."""
    store = TableStore(where)
    rng = random.Random(SEED)
    bots = [QuizBot("medium", seed=SEED + team) for team in range(SIGHT_QUIZ.teams)]
    acked: dict[tuple[str, int], float] = {}
    ready.wait(STARTUP_SECONDS)
    for code, tokens in quizzes:
        seats = [store.rejoin(code, token) for token in tokens]
        while len(acked) < SIGHTS and not (replay := seats[0].catch_up()).state.over:
            steps = replay.steps  # the replay grows in place when this process plays
            team, action = next_answer(bots, replay.state)
            seats[team].play(action, seen=steps)
            acked[(code, steps + 1)] = time.time()
            time.sleep(rng.uniform(*PAUSE))
    store.engine.dispose()
    results.put(("acked", acked))


def watcher(where: str, codes: list[str], ready, results) -> None:
    """Look at each table in turn every few ms, as a widget does; say when each new step first showed."""
    store = TableStore(where)
    seen: dict[tuple[str, int], float] = {}
    ready.wait(STARTUP_SECONDS)
    for code in codes:
        room, steps = store.watch(code), 0
        while len(seen) < SIGHTS:
            replay = room.catch_up()
            now = time.time()
            seen.update({(code, step): now for step in range(steps + 1, replay.steps + 1)})
            steps = replay.steps
            if replay.state.over:
                break
            time.sleep(SIGHT_POLL)
    store.engine.dispose()
    results.put(("seen", seen))


def sight_times(where: str, context) -> list[float]:
    """Seconds from each acknowledged append to its first sight in another process."""
    store = TableStore(where)
    quizzes = []
    for number in range(1 + SIGHTS // 150):  # a 2-team quiz to 50 points lasts about 190 to 270 actions
        code = store.create("colourbrain", SIGHT_QUIZ, seed=SEED + number)
        quizzes.append(
            (code, [store.join(code, seat=team, name=f"Team {team}").token for team in range(SIGHT_QUIZ.teams)])
        )
    store.engine.dispose()
    ready, results = context.Barrier(2), context.Queue()
    pair = [
        context.Process(target=appender, args=(where, quizzes, ready, results), daemon=True),
        context.Process(target=watcher, args=(where, [code for code, _ in quizzes], ready, results), daemon=True),
    ]
    for process in pair:
        process.start()
    found = dict(results.get(timeout=STARTUP_SECONDS + SIGHTS) for _ in pair)
    for process in pair:
        process.join()
    return [found["seen"][step] - acked for step, acked in found["acked"].items()]


def percentile_95(values: list[float]) -> float:
    """Below which value do 95 in 100 of these fall?"""
    return statistics.quantiles(values, n=20)[18]


def page_poll(times: list[float], period: float = PAGE_POLL) -> list[float]:
    """The same sights for a page that looks every `period` s: each waits for the next look, at any phase."""
    phases = 20
    return [seconds + period * (phase + 0.5) / phases for seconds in times for phase in range(phases)]


def bench_sight(name: str, where: str, context) -> list[Row]:
    """The sight time's median against the target, and its 95th percentile for information."""
    times = sight_times(where, context)
    median, p95 = statistics.median(times) * 1000, percentile_95(times) * 1000
    paged = page_poll(times)
    note = (
        f"{name} sight: {len(times)} appends, seen by a process polling every {SIGHT_POLL * 1000:g} ms; "
        f"a page polling every {PAGE_POLL * 1000:g} ms would add the wait for its next look: about "
        f"{statistics.median(paged) * 1000:.0f} ms median, {percentile_95(paged) * 1000:.0f} ms at the 95th "
        f"percentile."
    )
    label = f"tables, {name}: sight of an append in another process"
    return [
        Row(label, f"{median:.1f}", "ms", f"< {SIGHT_TARGET_MS:g}", verdict(median < SIGHT_TARGET_MS), note),
        Row(f"{label}, 95th percentile", f"{p95:.1f}", "ms", "(info)", "info"),
    ]


# --- both stores --------------------------------------------------------------------------------


def sqlite_files(folder: Path):
    """A new SQLite file in `folder` each time."""
    number = 0
    while True:
        number += 1
        yield str(folder / f"tables-{number}.db")


def postgresql_databases(cluster: PostgresCluster):
    """A new database of the throwaway cluster each time."""
    while True:
        yield cluster.new_database()


def bench_store(name: str, stores, workers, context) -> list[Row]:
    """The appends and the sight for one kind of store, each at fresh stores."""
    return [bench_appends(name, stores, workers), *bench_sight(name, next(stores), context)]


def start_workers(context) -> tuple[list, tuple]:
    """The 30 seat processes, waiting for jobs; their job queue, start barrier and results queue."""
    jobs, start, results = context.Queue(), context.Barrier(TABLES * TEAMS + 1), context.Queue()
    processes = [
        context.Process(target=seat_worker, args=(jobs, start, results), daemon=True) for _ in range(TABLES * TEAMS)
    ]
    for process in processes:
        process.start()
    return processes, (jobs, start, results)


def run() -> list[Row]:
    """Time both stores: SQLite in a temporary folder, then PostgreSQL in a throwaway cluster."""
    context = multiprocessing.get_context("spawn")
    processes, workers = start_workers(context)
    try:
        with tempfile.TemporaryDirectory(prefix="colorlab-bench-") as folder:
            rows = bench_store("SQLite", sqlite_files(Path(folder)), workers, context)
        try:
            with PostgresCluster() as cluster:
                rows += bench_store("PostgreSQL", postgresql_databases(cluster), workers, context)
        except PostgresMissing as missing:
            rows.append(Row("tables, PostgreSQL", "-", "", "", "MISS", f"PostgreSQL not measured: {missing}"))
    finally:
        stop_processes(processes, workers[0])
    return rows


if __name__ == "__main__":
    sys.exit(run_alone(run))

"""Time a class: 30 learners at 10 ColorFox tables, from a click on one device to the redraw on another.

Every learner is its own spawned process, as a learner's kernel is, holding a real game widget at
its seat (`ColorFoxGame(seat=...)`) and driven as its page drives it: about every 250 ms the page's
clock sends `{"type": "sync"}` (skipped while the last ask is unanswered), and a click is the page's
intent with the step it showed (`seen`). When its seat may move, the learner thinks for a moment and
then clicks a legal move at random (place a card, end the exchanges, or pass).

- click -> redraw: the clicking process notes the wall time just before `act` of its move; every
  other learner at the table notes when its widget's synced `view` first shows that step. The
  processes share the machine's clock. The page's own drawing after the view arrives is not in it.
- lost: a click the widget acknowledged (its notice is no refusal) whose action is not at that step
  of the table's record. Twice: an action in the record that no learner was told went through (a
  click applied twice would be one).

Both are measured for a SQLite file in a temporary folder and for a throwaway PostgreSQL cluster
(tests/databases.py); the same 30 processes play both, one timed run each.
"""

from __future__ import annotations

import dataclasses
import json
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

from colorlab import colorfox
from colorlab.colorfox.view import ColorFoxGame
from colorlab.record import game_spec
from colorlab.tables import TableStore

from table import Row, draw_table, verdict

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # tests/databases.py starts the throwaway PostgreSQL server

from tests.databases import PostgresCluster, PostgresMissing  # noqa: E402

SEED = 2026
TABLES = 10
SEATS = 3
RULES = colorfox.Rules(players=SEATS)  # a 3-player game lasts about 50 clicks
GAMES_PER_TABLE = 3  # a group whose game ends sits down at its next table
RUN_SECONDS = 30.0
LAST_CLICK_SECONDS = 2.0  # no click in the run's last seconds, so that every click can still be seen
SYNC_SECONDS = 0.25  # the page's clock (SYNC_MS in widgets/static/base.js)
THINK_SECONDS = (0.3, 1.2)  # from seeing one's turn to the click
STARTUP_SECONDS = 120.0
MEDIAN_TARGET_MS = 500.0
P95_TARGET_MS = 1000.0


@dataclasses.dataclass
class Learner:
    """What one learner's process noted: its clicks, what its page showed when, and what was acknowledged."""

    seat: int
    tables: list[str] = dataclasses.field(default_factory=list)  # the codes of the tables it sat at
    clicks: dict[tuple[str, int], float] = dataclasses.field(default_factory=dict)  # (code, step) -> wall time
    redraws: dict[tuple[str, int], float] = dataclasses.field(default_factory=dict)
    acknowledged: dict[tuple[str, int], dict] = dataclasses.field(default_factory=dict)  # (code, step) -> action
    counts: Counter = dataclasses.field(default_factory=Counter)


# --- one learner's process ----------------------------------------------------------------------

def learner_worker(jobs, start, results) -> None:
    """One learner's kernel: sit at each table it is given, play for as long as it is told, then say what it noted."""
    while (job := jobs.get()) is not None:
        results.put(learn(*job, start=start))


def learn(where: str, seat: int, keys: list[tuple[str, str]], seconds: float, start) -> Learner:
    """Sit at the group's tables in turn with their keys, and play each until its game ends or the time is up."""
    store = TableStore(where)
    learner = Learner(seat)
    rng = random.Random(f"{SEED}/{keys[0][0]}/{seat}")
    try:
        start.wait(STARTUP_SECONDS)
        deadline = time.monotonic() + seconds
        for code, token in keys:
            widget = ColorFoxGame(seat=store.rejoin(code, token))
            learner.tables.append(code)
            note_redraws(widget, code, learner.redraws)
            if not play_table(widget, rng, deadline, learner):
                break
            learner.counts["games finished"] += 1
    finally:
        store.engine.dispose()
    return learner


def note_redraws(widget: ColorFoxGame, code: str, redraws: dict) -> None:
    """Note the wall time at which the widget's view first shows each new step of the table."""
    shown = widget.view["history"]["step"]

    def on_view(change: dict) -> None:
        nonlocal shown
        now, step = time.time(), change["new"]["history"]["step"]
        for new in range(shown + 1, step + 1):
            redraws.setdefault((code, new), now)
        shown = max(shown, step)

    widget.observe(on_view, names="view")


def play_table(widget: ColorFoxGame, rng: random.Random, deadline: float, learner: Learner) -> bool:
    """Sync on the page's clock and click when it is this seat's move: True when the game ended, False at the deadline."""
    seq = 0
    tick = time.monotonic() + rng.uniform(0, SYNC_SECONDS)  # each page's clock starts at its own moment
    click_at = None
    while (now := time.monotonic()) < deadline:
        if widget.view["over"]:
            return True
        intent = a_click(widget.view, rng) if now < deadline - LAST_CLICK_SECONDS else None
        if intent is None:
            click_at = None
        elif click_at is None:
            click_at = now + rng.uniform(*THINK_SECONDS)
        elif now >= click_at:
            seq += 1
            click(widget, intent, seq, learner)
            click_at = None
            continue
        if now >= tick:
            seq += 1
            widget.act({"type": "sync", "seq": seq})
            tick = next_tick(tick, time.monotonic())
            continue
        time.sleep(max(0.0, min(tick, click_at or tick, deadline) - now))
    return False


def next_tick(tick: float, now: float) -> float:
    """The page's next clock tick after now (ticks missed while the last ask was unanswered are skipped)."""
    missed = int((now - tick) // SYNC_SECONDS) + 1
    return tick + missed * SYNC_SECONDS


def a_click(view: dict, rng: random.Random) -> dict | None:
    """What a learner clicks now, read from the page's view (None: not this seat's move)."""
    if view["to_move"] != view["you"] or view["offer"] or view["over"]:
        return None
    if view["exchanges_left"]:
        return {"type": "done"}
    if view["legal"]:
        card, x, y, turned = rng.choice(view["legal"])
        return {"type": "place", "card": card, "x": x, "y": y, "turned": turned}
    return {"type": "pass"}


def click(widget: ColorFoxGame, intent: dict, seq: int, learner: Learner) -> None:
    """Send one click as the page does, with the step shown; note when, and whether the widget acknowledged it."""
    code, step = widget.seat.code, widget.view["history"]["step"]
    action = game_spec("colorfox").action_to_dict(widget.action_of(intent))
    notices = widget.notice.get("seq")
    clicked = time.time()
    widget.act({**intent, "seq": seq, "seen": step})
    if widget.notice.get("seq") != notices and widget.notice.get("kind") != "error":
        learner.clicks[(code, step + 1)] = clicked
        learner.acknowledged[(code, step)] = action
    else:
        learner.counts[f"refused: {widget.notice.get('text', 'no answer')}"] += 1


# --- the class ----------------------------------------------------------------------------------

def open_tables(store: TableStore) -> list[tuple[int, list[tuple[str, str]]]]:
    """Open every group's tables and take every seat: for each learner, its seat and (code, key) per table."""
    learners: list[tuple[int, list[tuple[str, str]]]] = [(seat, []) for _ in range(TABLES) for seat in range(SEATS)]
    for group in range(TABLES):
        for game in range(GAMES_PER_TABLE):
            code = store.create("colorfox", RULES, seed=SEED + group * 10 + game)
            for seat in range(SEATS):
                token = store.join(code, seat=seat, name=f"Learner {group * SEATS + seat + 1}").token
                learners[group * SEATS + seat][1].append((code, token))
    return learners


def click_to_redraw(learners: list[Learner]) -> tuple[list[float], int]:
    """Seconds from each acknowledged click to its redraw on every other learner's page; and the redraws never seen."""
    times, unseen = [], 0
    for clicker in learners:
        for step, clicked in clicker.clicks.items():
            for watcher in learners:
                if watcher.seat == clicker.seat or step[0] not in watcher.tables:
                    continue
                if step in watcher.redraws:
                    times.append(watcher.redraws[step] - clicked)
                else:
                    unseen += 1
    return times, unseen


def record_rows(store: TableStore) -> dict[tuple[str, int], dict]:
    """Every learner's action in the store, by (table, step)."""
    with store.engine.connect() as connection:
        found = connection.execute(text("SELECT code, step, action FROM colorlab_actions WHERE seat IS NOT NULL"))
        return {(code, step): json.loads(action) for code, step, action in found}


def lost_and_twice(store: TableStore, learners: list[Learner]) -> tuple[int, int]:
    """Acknowledged clicks missing from the record, and actions in the record that no learner was told went through."""
    recorded = record_rows(store)
    acknowledged = {step: action for learner in learners for step, action in learner.acknowledged.items()}
    lost = sum(recorded.get(step) != action for step, action in acknowledged.items())
    twice = sum(acknowledged.get(step) != action for step, action in recorded.items())
    return lost, twice


def class_run(where: str, jobs, start, results) -> tuple[list[Learner], int, int]:
    """One timed run at fresh tables: what every learner noted, then the lost and the twice-applied actions."""
    store = TableStore(where)
    for seat, keys in open_tables(store):
        jobs.put((where, seat, keys, RUN_SECONDS))
    start.wait(STARTUP_SECONDS)
    learners = [results.get(timeout=STARTUP_SECONDS + RUN_SECONDS) for _ in range(TABLES * SEATS)]
    lost, twice = lost_and_twice(store, learners)
    store.engine.dispose()
    return learners, lost, twice


def percentile_95(values: list[float]) -> float:
    """Below which value do 95 in 100 of these fall?"""
    return statistics.quantiles(values, n=20)[18]


def bench_class(name: str, where: str, workers) -> list[Row]:
    """Click to redraw (median and 95th percentile), lost and twice-applied actions, for one store."""
    learners, lost, twice = class_run(where, *workers)
    load = os.getloadavg()[0]
    times, unseen = click_to_redraw(learners)
    counts = sum((learner.counts for learner in learners), Counter())
    clicks = sum(len(learner.clicks) for learner in learners)
    refused = ", ".join(f"{count} {kind}" for kind, count in sorted(counts.items()) if kind.startswith("refused"))
    label = f"classroom, {name}: {TABLES * SEATS} learners at {TABLES} tables"
    if not times:
        return [Row(f"{label}, click -> redraw", "-", "ms", f"< {MEDIAN_TARGET_MS:g}", "MISS", "no click was seen")]
    median, p95 = statistics.median(times) * 1000, percentile_95(times) * 1000
    note = (f"{name} class: {clicks} clicks acknowledged in {RUN_SECONDS:g} s, {len(times)} redraws on other "
            f"learners' widgets (slowest {max(times) * 1000:.0f} ms), {unseen} never seen; {counts['games finished']} "
            f"learner-games finished; {refused or 'no click refused'}; the 1-minute load average was {load:.1f} "
            f"at the end of the run ({os.cpu_count()} CPUs).")
    return [Row(f"{label}, click -> redraw", f"{median:.0f}", "ms", f"< {MEDIAN_TARGET_MS:g}",
                verdict(median < MEDIAN_TARGET_MS), note),
            Row(f"{label}, click -> redraw, 95th percentile", f"{p95:.0f}", "ms", f"< {P95_TARGET_MS:g}",
                verdict(p95 < P95_TARGET_MS)),
            Row(f"{label}, acknowledged clicks lost", str(lost), "actions", "0", verdict(lost == 0)),
            Row(f"{label}, actions applied twice", str(twice), "actions", "0", verdict(twice == 0))]


# --- both stores --------------------------------------------------------------------------------

def start_learners(context) -> tuple[list, tuple]:
    """The 30 learner processes, waiting for jobs; their job queue, start barrier and results queue."""
    jobs, start, results = context.Queue(), context.Barrier(TABLES * SEATS + 1), context.Queue()
    processes = [context.Process(target=learner_worker, args=(jobs, start, results), daemon=True)
                 for _ in range(TABLES * SEATS)]
    for process in processes:
        process.start()
    return processes, (jobs, start, results)


def stop_learners(processes: list, jobs) -> None:
    """Tell every learner process to end, and wait for it."""
    for _ in processes:
        jobs.put(None)
    for process in processes:
        process.join(timeout=30)


def run() -> list[Row]:
    """Time a class on both stores: SQLite in a temporary folder, then PostgreSQL in a throwaway cluster."""
    context = multiprocessing.get_context("spawn")
    processes, workers = start_learners(context)
    try:
        with tempfile.TemporaryDirectory(prefix="colorlab-class-") as folder:
            rows = bench_class("SQLite", str(Path(folder) / "class.db"), workers)
        try:
            with PostgresCluster() as cluster:
                rows += bench_class("PostgreSQL", cluster.new_database(), workers)
        except PostgresMissing as missing:
            rows.append(Row("classroom, PostgreSQL", "-", "", "", "MISS", f"PostgreSQL not measured: {missing}"))
    finally:
        stop_learners(processes, workers[0])
    return rows


def main() -> int:
    """Print the classroom rows as `make bench` does, with their notes."""
    start = time.perf_counter()
    rows = run()
    print(draw_table(rows))
    print("\n" + "\n".join(f"* {row.note}" for row in rows if row.note))
    print(f"\nTook {time.perf_counter() - start:.0f} s.")
    return 0


if __name__ == "__main__":
    sys.exit(main())

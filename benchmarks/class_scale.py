"""Time what a class's pages read when the store holds many tables: 10,000 tables, 1,000 of them finished games.

A school's store grows lesson after lesson. This fills a store (a SQLite file, then a throwaway
PostgreSQL database) with 10,000 ColorFox tables: 1,000 finished games played by bots
(``colorfox.play_game``, their actions written as the store writes them), and 9,000 tables
that were opened and closed with no move. The rows are written in one transaction, straight into
the store's tables: the figures are about reading, not about filling. Then, each the median of
several runs:

- **lobby look**: a learner types a table's code and the lobby reads that table and its seats
  (``classroom.lobby.table_entry``);
- **teacher page update**: one table changed, and the teacher's open page reads it again
  (``TablesBoard.refresh`` with the codes a look names; before push, the page read every table);
- **download**: the teacher downloads every record (``teacher.class_records_zip``), all of it.

Run alone: ``.venv/bin/python benchmarks/class_scale.py``; ``make bench`` runs it too.
"""

from __future__ import annotations

import inspect
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import inspect as inspect_db
from sqlalchemy import text

from colorlab import colorfox
from colorlab.classroom import teacher
from colorlab.classroom.lobby import table_entry
from colorlab.tables import TableStore, table_game

from table import Row, run_alone, verdict

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # tests/ starts the throwaway PostgreSQL server

from tests.helpers.databases import PostgresCluster, PostgresMissing  # noqa: E402

TABLES = 10_000
FINISHED = 1_000
RULES = colorfox.Rules(players=2)
REPEATS = 7
LOOK_TARGET_MS = 100.0
UPDATE_TARGET_S = 1.0
DOWNLOAD_TARGET_S = 10.0
CODE_LETTERS = "ACDEFGHJKMNPQRTUVWXY34679"


def code_of(number: int) -> str:
    """The join code of the n-th table made here (5 letters of the store's alphabet)."""
    letters = []
    for _ in range(5):
        number, digit = divmod(number, len(CODE_LETTERS))
        letters.append(CODE_LETTERS[digit])
    return "".join(letters)


def fill(store: TableStore) -> list[str]:
    """Write 10,000 tables into the store in one transaction; return the codes of the finished games."""
    table = table_game("colorfox")
    rules = json.dumps(RULES.to_dict())
    tables, seats, actions, finished = [], [], [], []
    for number in range(TABLES):
        code = code_of(number)
        created = 1_700_000_000.0 + number
        record = colorfox.play_game(RULES, seed=number) if number < FINISHED else None
        state = record.final_state() if record else colorfox.new_game(RULES, number)
        tables.append(
            {
                "code": code,
                "rules": rules,
                "seed": number,
                "created": created,
                "started": created,
                "closed": created + 3600,
                "steps": len(record.actions) if record else 0,
                "over": int(state.over),
                "scores": json.dumps(table.scores(state)),
                "waiting": json.dumps(table.waiting_for(state)),
                "changed": number + 1,
            }
        )
        seats += [{"code": code, "seat": seat, "name": f"Learner {number}-{seat}"} for seat in range(2)]
        if record:
            finished.append(code)
            spec = record.spec
            actions += [
                {"code": code, "step": step, "seat": None, "action": json.dumps(spec.action_to_dict(action))}
                for step, action in enumerate(record.actions)
            ]
    with store.engine.begin() as connection:
        marked = "changed" in {column["name"] for column in inspect_db(connection).get_columns("colorlab_tables")}
        connection.execute(
            text(
                "INSERT INTO colorlab_tables (code, game, rules, seed, created, started, closed, since, steps, "
                f"calls, over, scores, waiting{', changed' if marked else ''}) VALUES (:code, 'colorfox', :rules, "
                ":seed, :created, :started, :closed, :created, :steps, 0, :over, :scores, :waiting"
                f"{', :changed' if marked else ''})"
            ),
            tables,
        )
        connection.execute(
            text("INSERT INTO colorlab_seats (code, seat, name, bot) VALUES (:code, :seat, :name, NULL)"), seats
        )
        connection.execute(
            text(
                "INSERT INTO colorlab_actions (code, step, seat, action, at) "
                "VALUES (:code, :step, :seat, :action, 1700000000.0)"
            ),
            actions,
        )
    return finished


def median_seconds(work, repeats: int = REPEATS) -> float:
    """The median wall time of `work()` over `repeats` runs."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def bench(name: str, where: str) -> list[Row]:
    store = TableStore(where)
    start = time.perf_counter()
    finished = fill(store)
    filled = time.perf_counter() - start
    code = finished[len(finished) // 2]
    look = median_seconds(lambda: table_entry(store, code))
    page = teacher.TeacherPage(store, key="bench-teacher-key", environ={})
    teacher_browser_sends_key(page)
    opened = median_seconds(lambda: page.board.refresh(), repeats=3)
    refresh = page.board.refresh
    if "changed" in inspect.signature(refresh).parameters:
        update = median_seconds(lambda: refresh(frozenset({code})))
    else:  # before push: the page read every table at each update
        update = opened
    records = median_seconds(lambda: b"".join(download(store)), repeats=3)
    store.engine.dispose()
    label = f"{name}, {TABLES:,} tables ({FINISHED:,} finished games)"
    return [
        Row(f"class scale, {label}: lobby look at one table", f"{look * 1000:.1f}", "ms",
            f"< {LOOK_TARGET_MS:g}", verdict(look * 1000 < LOOK_TARGET_MS),
            f"{name}: filled in {filled:.0f} s; the teacher's page opened (every table read) in {opened:.2f} s."),
        Row(f"class scale, {label}: teacher page update after one change", f"{update:.3f}", "s",
            f"< {UPDATE_TARGET_S:g}", verdict(update < UPDATE_TARGET_S)),
        Row(f"class scale, {label}: download every record", f"{records:.1f}", "s",
            f"< {DOWNLOAD_TARGET_S:g}", verdict(records < DOWNLOAD_TARGET_S)),
    ]  # fmt: skip


def teacher_browser_sends_key(page) -> None:
    """Open the teacher's page, as typing the key does."""
    page.board.unlock("bench-teacher-key")


def download(store: TableStore):
    """The download's bytes, in parts (or, before the parts, all at once)."""
    made = teacher.class_records_zip(store)
    return [made] if isinstance(made, bytes) else made


def run() -> list[Row]:
    with tempfile.TemporaryDirectory(prefix="colorlab-scale-") as folder:
        rows = bench("SQLite", str(Path(folder) / "class.db"))
    try:
        with PostgresCluster() as cluster:
            rows += bench("PostgreSQL", cluster.new_database())
    except PostgresMissing as missing:
        rows.append(Row("class scale, PostgreSQL", "-", "", "", "MISS", f"PostgreSQL not measured: {missing}"))
    return rows


if __name__ == "__main__":
    sys.exit(run_alone(run))

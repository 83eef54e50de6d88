"""Time a class: 30 learners at 10 ColorFox tables, from a click on one device to the redraw on another.

Each learner of nine tables is its own spawned process, as a learner's kernel is, holding a real
game widget at its seat (`ColorFoxGame(seat=...)`). It looks at the store as a kernel's event loop
does (`store.changes.look()` every `LOOK_SECONDS`, which calls the widget back when its table
changed; the page sends nothing), and a click is the page's intent with the step it showed
(`seen`). When its seat may move, the learner thinks for a moment and then clicks a legal move at
random (place a card, end the exchanges, or pass).

- click -> redraw: the clicking process notes the wall time just before `act` of its move; every
  other learner at the table notes when its widget's synced `view` first shows that step. The
  processes share the machine's clock. The page's own drawing after the view arrives is not in it.
- lost: a click the widget acknowledged (its notice is no refusal) whose action is not at that step
  of the table's record. Twice: an action in the record that no learner was told went through (a
  click applied twice would be one).

The tenth table's three learners are real browser pages where the machine allows (Chromium and
Playwright; otherwise processes play there too): the class server (`python -m
colorlab.classroom.server`, Voila) serves the lobby with the class key in the address; each page
types a name and the table's code and takes its seat, and a MutationObserver in each page notes
`Date.now()` when the widget's step first shows a move. Their click -> redraw rows are apart from
the processes' ones.

Both are measured for a SQLite file in a temporary folder and for a throwaway PostgreSQL cluster
(tests/helpers/databases.py); the same learner processes play both, one timed run each.
"""

from __future__ import annotations

import dataclasses
import json
import multiprocessing
import os
import random
import shutil
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
from colorlab.tables.changes import LOOK_SECONDS

from table import Row, run_alone, stop_processes, verdict

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # tests/ starts the throwaway PostgreSQL server and the class server

from tests.helpers.chromium import CHROMIUM, CHROMIUM_ARGS, VIEWPORT, keep_on_loopback  # noqa: E402
from tests.helpers.databases import PostgresCluster, PostgresMissing  # noqa: E402
from tests.helpers.servers import NOTEBOOKS, Server, free_port, jupyter_env  # noqa: E402

SEED = 2026
TABLES = 10
SEATS = 3
RULES = colorfox.Rules(players=SEATS)  # a 3-player game lasts about 50 clicks
GAMES_PER_TABLE = 3  # a group whose game ends sits down at its next table
RUN_SECONDS = 30.0
LAST_CLICK_SECONDS = 2.0  # no click in the run's last seconds, so that every click can still be seen
THINK_SECONDS = (0.3, 1.2)  # from seeing one's turn to the click
STARTUP_SECONDS = 240.0  # the browser pages' kernels start while the other learners wait
PAGE_SEATS = SEATS  # one table of learners in real browser pages, through the class server
CLASS_KEY = "bench-class-key"
LOBBY = "voila/render/classroom/lobby.ipynb"
PAGE_LOOK_SECONDS = 0.1  # how often the page driver looks whether a page's seat may move
PAGE_LOAD_MS = 120_000
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
    answers: list[float] = dataclasses.field(default_factory=list)  # seconds from a click to its own acknowledgement
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
    """Look at the store as the kernel does and click on this seat's move: True when the game ended, False at the
    deadline."""
    seq = 0
    looks = widget.seat.store.changes
    tick = time.monotonic() + rng.uniform(0, LOOK_SECONDS)  # each kernel's looks start at their own moment
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
            looks.look()
            tick = next_tick(tick, time.monotonic())
            continue
        time.sleep(max(0.0, min(tick, click_at or tick, deadline) - now))
    return False


def next_tick(tick: float, now: float) -> float:
    """The kernel's next look after now (looks missed while it was busy are skipped, as an event loop skips them)."""
    missed = int((now - tick) // LOOK_SECONDS) + 1
    return tick + missed * LOOK_SECONDS


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
        learner.answers.append(time.time() - clicked)
    else:
        learner.counts[f"refused: {widget.notice.get('text', 'no answer')}"] += 1


# --- the browser table's learners, each a page of their own --------------------------------------

WATCH_STEPS = """() => {
    window.redraws = {};
    let shown = null;
    const note = () => {
        const step = document.querySelector(".colorlab.colorfox [data-testid='step']");
        const match = step && step.textContent.match(/move (\\d+)/);
        if (!match) return;
        const now = Date.now(), number = Number(match[1]);
        for (let next = (shown ?? number) + 1; next <= number; next++) window.redraws[next] ??= now;
        shown = Math.max(shown ?? number, number);
    };
    note();
    new MutationObserver(note).observe(document.body, {subtree: true, childList: true, characterData: true});
}"""

MY_TURN = """() => document.querySelector(".colorlab.colorfox [data-testid='turn']")?.textContent === "your turn" """

# Click as a learner does: end the exchanges, or pass when stuck, or pick cards until one fits and click a
# lit cell at random. Then wait for this page's own answer: the next step shown, or a refusal in the notice.
CLICK = """async () => {
    const find = (selector) => document.querySelector(`.colorlab.colorfox ${selector}`);
    const shownStep = () => Number(find("[data-testid='step']").textContent.match(/move (\\d+)/)[1]);
    const pause = (ms) => new Promise((done) => setTimeout(done, ms));
    const step = shownStep();
    const pass = find("[data-action='pass']");
    let target = find("[data-action='done']") || (pass && !pass.disabled ? pass : null);
    const cards = [...document.querySelectorAll(".colorlab.colorfox [data-card]")].map((card) => card.dataset.card);
    for (const number of target ? [] : cards) {
        find(`[data-card='${number}']`).click();
        await pause(0);
        const lit = document.querySelectorAll(".colorlab.colorfox [data-legal]");
        if (lit.length) { target = lit[Math.floor(Math.random() * lit.length)]; break; }
    }
    if (!target) return null;
    const notice = find("[data-testid='notice']").textContent;
    const clicked = Date.now();
    target.click();
    while (Date.now() - clicked < 5000) {
        await pause(5);
        if (shownStep() > step) return {step, clicked, answered: Date.now(), refused: ""};
        const said = find("[data-testid='notice']");
        if (said.classList.contains("is-error") && said.textContent !== notice) {
            return {step, clicked, refused: said.textContent};
        }
    }
    return {step, clicked, refused: "no answer within 5 s"};
}"""


def page_learners(url: str, code: str, seconds: float, start, results) -> None:
    """Sit the browser table's learners down through the lobby, then play as the others do; say what they noted."""
    from playwright.sync_api import sync_playwright

    learners, pages, trouble = [Learner(seat, [code]) for seat in range(PAGE_SEATS)], [], ""
    with sync_playwright() as playwright:
        try:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            pages = seat_pages(browser, url, code)
        except Exception as error:  # the rest of the class plays on without its browser table
            trouble = f"{type(error).__name__}: {str(error).splitlines()[0]}"
        start.wait(STARTUP_SECONDS)
        if pages:
            play_pages(pages, learners, random.Random(f"{SEED}/{code}"), time.monotonic() + seconds)
            for page, learner in zip(pages, learners):
                learner.redraws = {(code, int(step)): at / 1000 for step, at in page.evaluate("() => redraws").items()}
            browser.close()
    results.put((learners if pages else [], trouble))


def seat_pages(browser, url: str, code: str) -> list:
    """Open the lobby in a browser context per learner (their kernels start side by side), and sit each down."""
    from playwright.sync_api import expect

    pages = []
    for _ in range(PAGE_SEATS):
        page = browser.new_context(viewport=VIEWPORT).new_page()
        page.set_default_timeout(PAGE_LOAD_MS)
        page.route("**/*", keep_on_loopback)
        page.goto(f"{url}{LOBBY}?token={CLASS_KEY}", wait_until="commit")
        pages.append(page)
    for seat, page in enumerate(pages):
        for field, value in [("name", f"Page {seat + 1}"), ("code", code)]:
            page.locator(f"[data-key='{field}']").fill(value)
            page.locator(f"[data-key='{field}']").press("Enter")
        page.locator(f"[data-key='sit-{seat}']").click()
        expect(page.locator(".colorlab.colorfox [data-testid='seating']")).to_contain_text("you play as")
        page.evaluate(WATCH_STEPS)
    return pages


def play_pages(pages: list, learners: list[Learner], rng: random.Random, deadline: float) -> None:
    """Look at every page in turn; when its seat may move, think for a moment, then click."""
    click_at: list[float | None] = [None] * len(pages)
    while (now := time.monotonic()) < deadline - LAST_CLICK_SECONDS:
        for index, (page, learner) in enumerate(zip(pages, learners)):
            if not page.evaluate(MY_TURN):
                click_at[index] = None
            elif click_at[index] is None:
                click_at[index] = now + rng.uniform(*THINK_SECONDS)
            elif now >= click_at[index]:
                page_click(page, learner)
                click_at[index] = None
        time.sleep(PAGE_LOOK_SECONDS)
    time.sleep(max(0.0, deadline - time.monotonic()))


def page_click(page, learner: Learner) -> None:
    """Click in the page; note when, and whether the page showed that it went through."""
    code = learner.tables[0]
    answer = page.evaluate(CLICK)
    if answer is None:
        learner.counts["refused: no move found on the page"] += 1
    elif answer["refused"]:
        learner.counts[f"refused: {answer['refused']}"] += 1
    else:
        learner.clicks[(code, answer["step"] + 1)] = answer["clicked"] / 1000
        learner.answers.append((answer["answered"] - answer["clicked"]) / 1000)
        learner.acknowledged[(code, answer["step"])] = {"player": learner.seat}  # the page does not say which card


def browsers_missing() -> str:
    """Why no browser pages can join the class on this machine ('' when they can)."""
    if not CHROMIUM.exists():
        return f"{CHROMIUM} is missing"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed"
    return ""


class ClassServer:
    """The class server (`make classroom`) on a copy of the lessons, its kernels at the given store."""

    def __init__(self, where: str, home: Path):
        served = home / "notebooks"
        shutil.copytree(NOTEBOOKS, served)
        port = free_port()
        env = {**jupyter_env(home), "CLASSROOM_DB": where, "CLASS_KEY": CLASS_KEY, "CLASSROOM_PORT": str(port)}
        self.url = f"http://127.0.0.1:{port}/"
        self.server = Server(
            [sys.executable, "-m", "colorlab.classroom.server", str(served)], env, home / "classroom.log"
        )

    def __enter__(self) -> str:
        self.server.wait_until_answering(f"{self.url}login")
        return self.url

    def __exit__(self, *exception) -> None:
        self.server.stop()


# --- the class ----------------------------------------------------------------------------------


def open_tables(store: TableStore, groups: int) -> list[tuple[int, list[tuple[str, str]]]]:
    """Open every group's tables and take every seat: for each learner, its seat and (code, key) per table."""
    learners: list[tuple[int, list[tuple[str, str]]]] = [(seat, []) for _ in range(groups) for seat in range(SEATS)]
    for group in range(groups):
        for game in range(GAMES_PER_TABLE):
            code = store.create("colorfox", RULES, seed=SEED + group * 10 + game)
            for seat in range(SEATS):
                token = store.join(code, seat=seat, name=f"Learner {group * SEATS + seat + 1}").token
                learners[group * SEATS + seat][1].append((code, token))
    return learners


def open_browser_table(store: TableStore) -> str:
    """Open the table whose seats the browser pages take through the lobby."""
    return store.create("colorfox", RULES, seed=SEED + TABLES * 10)


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


def fits(acknowledged: dict | None, recorded: dict | None) -> bool:
    """Is the recorded action the one acknowledged (as far as the learner knows it: a page knows only its seat)?"""
    if acknowledged is None or recorded is None:
        return False
    return all(recorded.get(key) == value for key, value in acknowledged.items())


def lost_and_twice(store: TableStore, learners: list[Learner]) -> tuple[int, int]:
    """Acknowledged clicks missing from the record, and actions in the record that no learner was told went through."""
    recorded = record_rows(store)
    acknowledged = {step: action for learner in learners for step, action in learner.acknowledged.items()}
    lost = sum(not fits(action, recorded.get(step)) for step, action in acknowledged.items())
    twice = sum(not fits(acknowledged.get(step), action) for step, action in recorded.items())
    return lost, twice


@dataclasses.dataclass
class ClassRun:
    """What one timed run found: the learners' widgets in processes, the browser pages, and the record's checks."""

    widgets: list[Learner]
    pages: list[Learner]
    page_trouble: str
    lost: int
    twice: int
    loads: tuple[float, float]  # the 1-minute load average before and at the end of the run


def class_run(where: str, folder: Path, workers, context, paged: bool) -> ClassRun:
    """One timed run at fresh tables, the browser table's learners in pages when `paged`."""
    jobs, start, results, processes = workers
    before = os.getloadavg()[0]
    store = TableStore(where)
    for seat, keys in open_tables(store, processes // SEATS):
        jobs.put((where, seat, keys, RUN_SECONDS))
    pages, trouble = [], browsers_missing() or "no browser pages"
    if paged:
        page_results = context.Queue()
        with ClassServer(where, folder / f"server-{'postgresql' if store.postgresql else 'sqlite'}") as url:
            driver = context.Process(
                target=page_learners,
                daemon=True,
                args=(url, open_browser_table(store), RUN_SECONDS, start, page_results),
            )
            driver.start()
            start.wait(STARTUP_SECONDS)
            widgets = [results.get(timeout=STARTUP_SECONDS + RUN_SECONDS) for _ in range(processes)]
            pages, trouble = page_results.get(timeout=STARTUP_SECONDS + RUN_SECONDS)
            driver.join(timeout=30)
    else:
        start.wait(STARTUP_SECONDS)
        widgets = [results.get(timeout=STARTUP_SECONDS + RUN_SECONDS) for _ in range(processes)]
    loads = (before, os.getloadavg()[0])
    lost, twice = lost_and_twice(store, widgets + pages)
    store.engine.dispose()
    return ClassRun(widgets, pages, trouble, lost, twice, loads)


def percentile_95(values: list[float]) -> float:
    """Below which value do 95 in 100 of these fall?"""
    return statistics.quantiles(values, n=20)[18]


def latency_rows(label: str, device: str, learners: list[Learner], note: str) -> list[Row]:
    """Click to redraw among these learners: the median and the 95th percentile against their targets."""
    times, unseen = click_to_redraw(learners)
    answers = [seconds for learner in learners for seconds in learner.answers]
    if min(len(times), len(answers)) < 2:
        return [
            Row(
                f"{label}, click -> redraw",
                "-",
                "ms",
                f"< {MEDIAN_TARGET_MS:g}",
                "MISS",
                f"{label}: fewer than two clicks or redraws seen. {note}",
            )
        ]
    median, p95 = statistics.median(times) * 1000, percentile_95(times) * 1000
    clicks = sum(len(learner.clicks) for learner in learners)
    counts = sum((learner.counts for learner in learners), Counter())
    refused = ", ".join(f"{count} {kind}" for kind, count in sorted(counts.items()) if kind.startswith("refused"))
    answered = statistics.median(answers) * 1000, percentile_95(answers) * 1000
    note = (
        f"{label}: {clicks} clicks acknowledged in {RUN_SECONDS:g} s, {len(times)} redraws on other learners' "
        f"{device}s (slowest {max(times) * 1000:.0f} ms), {unseen} never seen; a click's answer on the clicker's "
        f"own {device} took {answered[0]:.0f} ms (median), {answered[1]:.0f} ms (95th percentile); "
        f"{refused or 'no click refused'}. {note}"
    )
    return [
        Row(
            f"{label}, click -> redraw",
            f"{median:.0f}",
            "ms",
            f"< {MEDIAN_TARGET_MS:g}",
            verdict(median < MEDIAN_TARGET_MS),
            note,
        ),
        Row(
            f"{label}, click -> redraw, 95th percentile",
            f"{p95:.0f}",
            "ms",
            f"< {P95_TARGET_MS:g}",
            verdict(p95 < P95_TARGET_MS),
        ),
    ]


def bench_class(name: str, where: str, folder: Path, workers, context, paged: bool) -> list[Row]:
    """Click to redraw (median and 95th percentile) in processes and in pages, lost and twice-applied actions."""
    found = class_run(where, folder, workers, context, paged)
    games = sum(learner.counts["games finished"] for learner in found.widgets) // SEATS
    label = f"classroom, {name}"
    rows = latency_rows(
        f"{label}: {len(found.widgets)} learners' widgets in processes",
        "widget",
        found.widgets,
        f"{games} games finished; the 1-minute load average was {found.loads[0]:.1f} before the "
        f"run and {found.loads[1]:.1f} at its end ({os.cpu_count()} CPUs).",
    )
    if found.pages:
        rows += latency_rows(
            f"{label}: {PAGE_SEATS} learners in browser pages at one table",
            "page",
            found.pages,
            "Their kernels are the class server's; the browsers run on the same machine.",
        )
    else:
        rows.append(
            Row(
                f"{label}: learners in browser pages",
                "-",
                "",
                "",
                "info",
                f"{name}: no browser pages joined the class ({found.page_trouble}).",
            )
        )
    learners = len(found.widgets) + len(found.pages)
    everyone = f"{label}: {learners} learners at {learners // SEATS} tables"
    return rows + [
        Row(f"{everyone}, acknowledged clicks lost", str(found.lost), "actions", "0", verdict(found.lost == 0)),
        Row(f"{everyone}, actions applied twice", str(found.twice), "actions", "0", verdict(found.twice == 0)),
    ]


# --- both stores --------------------------------------------------------------------------------


def start_learners(context, processes: int, others: int) -> tuple[list, tuple]:
    """The learner processes, waiting for jobs; their job queue, the start barrier (with `others`), results queue."""
    jobs, start, results = context.Queue(), context.Barrier(processes + others), context.Queue()
    started = [
        context.Process(target=learner_worker, args=(jobs, start, results), daemon=True) for _ in range(processes)
    ]
    for process in started:
        process.start()
    return started, (jobs, start, results, processes)


def run() -> list[Row]:
    """Time a class on both stores: SQLite in a temporary folder, then PostgreSQL in a throwaway cluster."""
    context = multiprocessing.get_context("spawn")
    paged = PAGE_SEATS > 0 and not browsers_missing()
    tables = TABLES - 1 if paged else TABLES
    processes, workers = start_learners(context, tables * SEATS, 2 if paged else 1)
    try:
        with tempfile.TemporaryDirectory(prefix="colorlab-class-") as folder:
            rows = bench_class("SQLite", str(Path(folder) / "class.db"), Path(folder), workers, context, paged)
            try:
                with PostgresCluster() as cluster:
                    rows += bench_class("PostgreSQL", cluster.new_database(), Path(folder), workers, context, paged)
            except PostgresMissing as missing:
                rows.append(Row("classroom, PostgreSQL", "-", "", "", "MISS", f"PostgreSQL not measured: {missing}"))
    finally:
        stop_processes(processes, workers[0])
    return rows


if __name__ == "__main__":
    sys.exit(run_alone(run))

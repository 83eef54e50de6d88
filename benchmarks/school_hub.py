"""A school on a real JupyterHub: 30 learners in two classes, each with their page open and seated.

The hub, its proxy (configurable-http-proxy), the two classes' services and a throwaway PostgreSQL cluster are started
as the school tests start them (``tests/helpers/hub.py``: the dummy authenticator, the local-process spawner, the
classes as ``colorlab.classroom.school.school`` configures them, all on loopback). Each class has 15 learners at five
ColorFox tables of three, opened in its part of the database. Each learner is a headless chromium context of its own:
it opens its class's lobby, logs in on the hub's page, and goes back to its seat with "Back to my seat".

- **memory**: once all 30 are seated, the resident memory (RSS) and the memory each process alone holds (USS) of
  every page's kernel, of the two services, and of the hub with its proxy; and of one user's own server (JupyterLab,
  started by the hub at a teacher's login), which a learner needs only for lessons of their own.
- **database connections**: how many connections the school's database has (``pg_stat_activity``), seated and idle,
  and the most seen while the 30 play.
- **click -> seen**: 30 s in which each learner whose turn it is thinks 0.3-1.2 s and clicks a legal move (as
  ``classroom.py``'s pages do); from ``Date.now()`` just before the click to a MutationObserver on each other page of
  the table seeing the step.

Then, on paper, how many learners a school's 8-core, 32 GB server holds, from these figures.

Run alone: ``.venv/bin/python benchmarks/school_hub.py``. Without chromium, Playwright, PostgreSQL or the hub's proxy
(``make hub-proxy``) the section says so in one row.
"""

from __future__ import annotations

import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from colorlab import colorfox
from colorlab.tables import TableStore

from classroom import WATCH_STEPS, Learner, browsers_missing, click_to_redraw, percentile_95, play_pages
from table import Row, run_alone, verdict

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # tests/ starts the hub and the database

from tests.helpers.chromium import CHROMIUM, CHROMIUM_ARGS, VIEWPORT, keep_on_loopback  # noqa: E402
from tests.helpers.databases import PostgresCluster, PostgresMissing  # noqa: E402
from tests.helpers.hub import PASSWORD, PROXY, Hub  # noqa: E402
from tests.helpers.servers import NOTEBOOKS, is_kernel  # noqa: E402

CLASS_NAMES = ("7b", "8a")
LEARNERS_PER_CLASS = 15
SEATS = 3
PLAY_SECONDS = 30.0
IDLE_SECONDS = 10.0
PAGE_MS = 180_000
LOBBY = "/services/colorlab-{}/voila/render/classroom/lobby.ipynb"
MEDIAN_TARGET_MS, P95_TARGET_MS = 200.0, 1000.0
SCHOOL_CORES, SCHOOL_GB = 8, 32  # the school's server of the estimate
MB = 2**20


def missing() -> str:
    """Why the school cannot be measured here ('' when it can)."""
    if not PROXY.exists():
        return f"JupyterHub's proxy is missing ({PROXY}): run `make hub-proxy`"
    return browsers_missing()


def school_classes() -> dict[str, dict]:
    return {
        name: {"teachers": [f"teacher-{name}"], "learners": [f"l{name}-{n + 1:02d}" for n in range(LEARNERS_PER_CLASS)]}
        for name in CLASS_NAMES
    }


def open_tables(database: str, classes: dict[str, dict]) -> list[tuple[str, str, int, str]]:
    """Five ColorFox tables of three per class, every seat taken by its learner: (class, learner, seat, code)."""
    seated = []
    for name, members in classes.items():
        store = TableStore(database, name)
        learners = members["learners"]
        for table in range(len(learners) // SEATS):
            code = store.create("colorfox", colorfox.Rules(players=SEATS), seed=table)
            for seat in range(SEATS):
                learner = learners[table * SEATS + seat]
                store.join(code, seat=seat, name=learner)
                seated.append((name, learner, seat, code))
        store.engine.dispose()
    return seated


def sit_down(browser, hub: Hub, class_name: str, learner: str, code: str):
    """One learner's browser: the class's lobby, the hub's login, and back to the seat."""
    context = browser.new_context(viewport=VIEWPORT, base_url=hub.url.rstrip("/"))
    page = context.new_page()
    page.set_default_timeout(PAGE_MS)
    page.route("**/*", keep_on_loopback)
    page.goto(LOBBY.format(class_name))
    page.locator("#username_input").fill(learner)
    page.locator("#password_input").fill(PASSWORD)
    page.locator("#login_submit").click()
    page.locator(f"[data-key='my-seat-{code}']").click()
    page.locator(".colorlab.colorfox [data-testid='seating']").filter(has_text="you play as").wait_for()
    page.evaluate(WATCH_STEPS)
    return page


def memory(processes: list[psutil.Process]) -> tuple[float, float]:
    """Their resident memory and the memory they alone hold, in MB (processes gone meanwhile count nothing)."""
    rss = uss = 0
    for process in processes:
        try:
            info = process.memory_full_info()
        except psutil.Error:
            continue
        rss, uss = rss + info.rss, uss + info.uss
    return rss / MB, uss / MB


def school_processes(hub: Hub) -> dict[str, list[psutil.Process]]:
    """The hub's processes by part: the hub with its proxy, the classes' services, their pages' kernels, and the users'
    own servers (with their kernels)."""
    hub_process = psutil.Process(hub.server.process.pid)
    parts: dict[str, list[psutil.Process]] = {"hub": [hub_process], "services": [], "kernels": [], "own servers": []}
    for child in hub_process.children():
        line = " ".join(child.cmdline())
        family = [child, *child.children(recursive=True)]
        if "colorlab.classroom.hub" in line:
            parts["services"].append(child)
            parts["kernels"] += [process for process in family[1:] if is_kernel(process)]
        elif "jupyterhub-singleuser" in line:
            parts["own servers"] += family
        else:
            parts["hub"] += family  # the proxy
    return parts


def connections(database: str) -> int:
    """How many connections the school's database has now (this one not counted)."""
    engine = create_engine(database)
    try:
        with engine.connect() as connection:
            name = connection.execute(text("SELECT current_database()")).scalar_one()
            return connection.execute(
                text("SELECT COUNT(*) - 1 FROM pg_stat_activity WHERE datname = :name"), {"name": name}
            ).scalar_one()
    finally:
        engine.dispose()


def database_processes(cluster: PostgresCluster) -> list[psutil.Process]:
    """The PostgreSQL server's processes: its main one and its children (one per connection, and its workers)."""
    server = next(
        process
        for process in psutil.process_iter(["cmdline"])
        if str(cluster.data) in " ".join(process.info["cmdline"] or ())
    )
    return [server, *server.children()]


def backends_memory(cluster: PostgresCluster, database: str) -> tuple[int, float]:
    """The PostgreSQL processes serving the school's database: how many, and the memory they alone hold (MB)."""
    name = make_url(database).database
    backends = [process for process in database_processes(cluster) if f" {name} " in " ".join(process.cmdline()) + " "]
    return len(backends), memory(backends)[1]


def most_connections(database: str, until: float, seen: list[int]) -> None:
    """Note the database's connections every second until `until` (a thread beside the playing)."""
    while time.monotonic() < until:
        seen.append(connections(database))
        time.sleep(1.0)


def cpu_seconds(processes: list[psutil.Process]) -> float:
    total = 0.0
    for process in processes:
        try:
            times = process.cpu_times()
        except psutil.Error:
            continue
        total += times.user + times.system
    return total


def own_server(browser, hub: Hub, user: str) -> float:
    """A user's own server as the hub starts it at login (JupyterLab, idle): its memory (RSS with its kernels, MB)."""
    context = browser.new_context(viewport=VIEWPORT, base_url=hub.url.rstrip("/"))
    page = context.new_page()
    page.set_default_timeout(PAGE_MS)
    page.route("**/*", keep_on_loopback)
    page.goto("/hub/login")
    page.locator("#username_input").fill(user)
    page.locator("#password_input").fill(PASSWORD)
    page.locator("#login_submit").click()
    page.wait_for_url(f"**/user/{user}/**", wait_until="commit")
    time.sleep(5)
    context.close()
    return memory(school_processes(hub)["own servers"])[0]


def estimate(per_learner_mb: float, base_mb: float, playing_cores: float, learners: int) -> tuple[int, int]:
    """How many learners the school's server holds by memory (three quarters of it for the classes, the rest for the
    system) and by processor (everyone playing at once, as here, on three quarters of the cores)."""
    by_memory = int((SCHOOL_GB * 1024 * 0.75 - base_mb) / per_learner_mb)
    by_cores = int(SCHOOL_CORES * 0.75 / max(playing_cores / learners, 1e-6))
    return by_memory, by_cores


def run() -> list[Row]:
    why = missing()
    label = f"school hub, {len(CLASS_NAMES) * LEARNERS_PER_CLASS} learners in {len(CLASS_NAMES)} classes"
    if why:
        return [Row(label, "-", "", "", "info", f"not measured: {why}")]
    try:
        cluster = PostgresCluster()
    except PostgresMissing as absent:
        return [Row(label, "-", "", "", "info", f"not measured: {absent}")]
    from playwright.sync_api import sync_playwright

    rng = random.Random(2026)
    classes = school_classes()
    with tempfile.TemporaryDirectory(prefix="colorlab-school-") as folder, cluster:
        home = Path(folder)
        notebooks = home / "notebooks"
        shutil.copytree(NOTEBOOKS, notebooks, ignore=shutil.ignore_patterns("class-records*.zip"))
        database = cluster.new_database()
        seated = open_tables(database, classes)
        hub = Hub(home / "hub", notebooks, {}, school=(database, classes))
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--headless", *CHROMIUM_ARGS])
                started = time.monotonic()
                pages = [sit_down(browser, hub, name, learner, code) for name, learner, _, code in seated]
                seating = time.monotonic() - started
                learners = [Learner(seat, [code]) for _, _, seat, code in seated]
                time.sleep(IDLE_SECONDS)
                parts = school_processes(hub)
                kernels_rss, kernels_uss = memory(parts["kernels"])
                services_rss, services_uss = memory(parts["services"])
                hub_rss, _ = memory(parts["hub"])
                idle_connections = connections(database)
                backends, backends_uss = backends_memory(cluster, database)
                watched = parts["services"] + parts["kernels"]
                before = cpu_seconds(watched)
                time.sleep(IDLE_SECONDS)
                idle = (cpu_seconds(watched) - before) / IDLE_SECONDS
                seen: list[int] = []
                counter = threading.Thread(
                    target=most_connections, args=(database, time.monotonic() + PLAY_SECONDS, seen), daemon=True
                )
                counter.start()
                before = cpu_seconds(watched + database_processes(cluster))
                play_pages(pages, learners, rng, time.monotonic() + PLAY_SECONDS)
                playing = (cpu_seconds(watched + database_processes(cluster)) - before) / PLAY_SECONDS
                counter.join(10)
                for page, learner in zip(pages, learners):
                    code = learner.tables[0]
                    learner.redraws = {
                        (code, int(step)): at / 1000 for step, at in page.evaluate("() => redraws").items()
                    }
                own = own_server(browser, hub, classes[CLASS_NAMES[0]]["teachers"][0])
                browser.close()
        finally:
            hub.stop()
            cluster.drop_database(database)
    times, unseen = click_to_redraw(learners)
    median = statistics.median(times) * 1000 if len(times) > 1 else float("inf")
    p95 = percentile_95(times) * 1000 if len(times) > 1 else float("inf")
    count = len(pages)
    per_learner = (kernels_uss + backends_uss) / count
    base = services_rss + hub_rss
    by_memory, by_cores = estimate(per_learner, base, playing, count)
    paper = (
        f"On paper, an {SCHOOL_CORES}-core, {SCHOOL_GB} GB server: by memory about {by_memory} seated learners "
        f"({per_learner:.0f} MB each, the database's share included; three quarters of the memory for the classes); "
        f"by the processor, everyone playing at once as here ({playing:.2f} cores for {count}: services, kernels and "
        f"database), about {by_cores}. So about {min(by_memory, by_cores)}, with max_connections about "
        f"{2 * min(by_memory, by_cores) + 20}. Learners who also open their own server (JupyterLab) cost "
        f"{own:.0f} MB more each."
    )
    return [
        Row(f"{label}: memory per seated learner (the page's kernel and its database connections, their own memory)",
            f"{per_learner:.0f}", "MB", "", "info",
            f"Seated: {count} kernels hold {kernels_uss:.0f} MB of their own ({kernels_rss:.0f} MB resident with what "
            f"they share), the database's {backends} processes serving them {backends_uss:.0f} MB; "
            f"the two classes' services {services_rss:.0f} MB resident ({services_uss:.0f} MB of their "
            f"own), the hub with its proxy {hub_rss:.0f} MB. A user's own server at login: {own:.0f} MB. Seating all "
            f"{count} one after another through the hub's login took {seating:.0f} s."),
        Row(f"{label}: database connections, seated and idle", f"{idle_connections}", "", "", "info",
            f"{idle_connections / count:.1f} a seated learner (one to read and write, one to hear of changes); at "
            f"most {max(seen, default=0)} while they played. PostgreSQL allows 100 by default: a school sets "
            f"max_connections to about twice its learners at once, plus a few for the services."),
        Row(f"{label}: seated and idle, services and kernels", f"{idle:.3f}", "cores", "", "info", paper),
        Row(f"{label}: click -> seen, median", f"{median:.0f}", "ms", f"< {MEDIAN_TARGET_MS:g}",
            verdict(median < MEDIAN_TARGET_MS), f"Playing {PLAY_SECONDS:g} s: {len(times)} redraws timed, "
            f"{unseen} never seen."),
        Row(f"{label}: click -> seen, 95th percentile", f"{p95:.0f}", "ms", f"< {P95_TARGET_MS:g}",
            verdict(p95 < P95_TARGET_MS)),
    ]  # fmt: skip


if __name__ == "__main__":
    sys.exit(run_alone(run))

"""Time a class of 30 learners' browser pages through the class server: arriving, sitting still, playing, one flooding.

The class server (``python -m colorlab.classroom.server``, Voila, the class key in the address) runs
as ``make classroom`` runs it, with a SQLite store and ``CLASSROOM_WARM_PAGES=30`` (a teacher
expecting 30 learners keeps 30 lobby pages ready). The learners are headless chromium contexts
on three "devices": network namespaces of the benchmark's own, each with a veth pair and a
chromium of its own holding 10 contexts (``tests/helpers/devices.py``), so their traffic reaches
the server over a network, not its loopback. As 10 learners share each namespace's address, the
cap on pages per device is raised to 12 for the run.

- **arriving**: each learner's browser has a blank tab open (as a device has its browser open before
  the learner types the address); then 30 pages open the lobby within 10 s (one every third of a
  second). Kernel ready: the page's document has arrived (``responseEnd`` of its navigation: Voila
  sends it once the lobby has run in the page's kernel). Shown: the lobby's name field is visible.
  Both are timed by the page itself from the start of its navigation. A note gives the processor
  time the browsers and the server used meanwhile: the browsers run on the server's two cores here,
  which a class's own devices would spare it.
- **sitting still**: 10 ColorFox tables of 3 are opened in the store; each page takes its seat
  through the lobby's "Come back to your seat" (code and seat key). The server replaces the
  pages handed out a minute after the rush (a one-off, said in a note); once it is calm again,
  20 s with nobody clicking: the processor time of the server and every kernel, in cores.
- **playing**: 30 s in which each learner whose turn it is thinks 0.3-1.2 s and clicks a legal
  move (as ``classroom.py``'s pages do); click -> seen on the other pages of the table, from
  ``Date.now()`` just before the click to a MutationObserver seeing the step.
- **one flooding**: a fourth device opens the lobby and sends its kernel junk as fast as its
  socket takes it (again each time the server closes it), while the 30 play another 30 s.

Run alone: ``.venv/bin/python benchmarks/class_pages.py`` (as root: namespaces need it). Without
root, chromium or Playwright the section says so in one row.
"""

from __future__ import annotations

import contextlib
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

from colorlab import colorfox
from colorlab.tables import TableStore

from classroom import WATCH_STEPS, Learner, click_to_redraw, percentile_95, play_pages
from table import Row, run_alone, verdict

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # tests/ makes the devices and starts the server

from tests.helpers.chromium import CHROMIUM, CHROMIUM_ARGS, VIEWPORT, keep_on  # noqa: E402
from tests.helpers.devices import FLOOD, Device, can_make_devices  # noqa: E402
from tests.helpers.servers import NOTEBOOKS, Server, free_port, jupyter_env  # noqa: E402

LEARNERS = 30
DEVICES = 3
SEATS = 3
ARRIVAL_SECONDS = 10.0
IDLE_SECONDS = 20.0
PLAY_SECONDS = 30.0
WARM_SECONDS = 300.0  # at most this long for the 30 pages kept ready to be made
CALM_CORES = 0.3  # the server and its kernels are calm (every page kept ready has run its lobby) below this
REFILL_SECONDS = 60.0  # after this long the pages handed out are replaced (WARM_REFILL_SECONDS in the server)
PAGE_MS = 120_000
SETTLE_SECONDS = 10.0  # the browsers' blank tabs opened, before the class arrives
CLASS_KEY = "bench-class-key-30"
LOBBY = "voila/render/classroom/lobby.ipynb"
READY_TARGET_S, SHOWN_TARGET_S, IDLE_TARGET_CORES = 5.0, 10.0, 0.2
MEDIAN_TARGET_MS, P95_TARGET_MS, FLOOD_P95_TARGET_MS = 150.0, 500.0, 1000.0


def missing() -> str:
    """Why this section cannot run here ('' when it can)."""
    if not can_make_devices():
        return "making devices (network namespaces) needs root and iproute2"
    if not CHROMIUM.exists():
        return f"{CHROMIUM} is missing"
    return ""


def start_server(home: Path, store: Path) -> tuple[Server, int]:
    served = home / "notebooks"
    shutil.copytree(NOTEBOOKS, served)
    port = free_port()
    env = {
        **jupyter_env(home),
        "CLASSROOM_DB": str(store),
        "CLASS_KEY": CLASS_KEY,
        "CLASSROOM_PORT": str(port),
        "CLASSROOM_WARM_PAGES": str(LEARNERS),
    }
    command = [sys.executable, "-m", "colorlab.classroom.server", str(served), "--ClassVoila.kernels_per_device=12"]
    server = Server(command, env, home / "classroom.log")
    server.wait_until_answering(f"http://127.0.0.1:{port}/login")
    # Ready as a teacher's laptop is minutes before the lesson: every page kept ready made, and the server calm.
    deadline = time.monotonic() + WARM_SECONDS
    while server.log.read_text().count("Kernel started") < LEARNERS and time.monotonic() < deadline:
        time.sleep(1)
    wait_until_calm(psutil.Process(server.process.pid), deadline)
    return server, port


def wait_until_calm(process: psutil.Process, deadline: float) -> float:
    """Wait until the server and its kernels use less than CALM_CORES (or the deadline); return the seconds waited."""
    start = time.monotonic()
    while time.monotonic() < deadline:
        before = cpu_seconds(process)
        time.sleep(2)
        if (cpu_seconds(process) - before) / 2 < CALM_CORES:
            break
    return time.monotonic() - start


def cpu_seconds(process: psutil.Process, named: str = "") -> float:
    """Processor seconds used so far by a process and all its children (only those whose name holds `named`)."""
    total = 0.0
    for each in [process, *process.children(recursive=True)]:
        try:
            if named in each.name():
                times = each.cpu_times()
                total += times.user + times.system
        except psutil.NoSuchProcess:
            pass
    return total


SHOWN_WATCH = """(() => {
    // Note, in the page itself, when the lobby's name field is first visible: ms since the tab's first navigation
    // to the lobby (kept over a reload the page does by itself, which is counted).
    if (!location.pathname.includes("/voila/render/")) return;
    const first = Number(sessionStorage.getItem("bench-first") || performance.timeOrigin);
    sessionStorage.setItem("bench-first", String(first));
    sessionStorage.setItem("bench-loads", String(Number(sessionStorage.getItem("bench-loads") || 0) + 1));
    const look = () => {
        const field = document.querySelector("[data-key='name']");
        if (field && field.offsetWidth > 0 && field.checkVisibility()) {
            window.colorlabShownAt = performance.timeOrigin + performance.now() - first;
            window.colorlabLoads = Number(sessionStorage.getItem("bench-loads"));
        } else setTimeout(look, 50);
    };
    look();
})()"""


def open_tabs(contexts: list, servers: list[str]) -> list:
    """A blank tab in each learner's browser, as a device has its browser open before the learner types the address.

    Opening a tab (a renderer, the automation's set-up) costs a headless chromium here about 0.9 processor seconds,
    the device's own cost, not the server's: it is paid before the class arrives, so that the arrival measures the
    page and the server."""
    pages = []
    for index, context in enumerate(contexts):
        page = context.new_page()
        page.set_default_timeout(PAGE_MS)
        page.route("**/*", keep_on(servers[index]))
        page.add_init_script(SHOWN_WATCH)
        pages.append(page)
    return pages


def arrive(pages: list, servers: list[str], port: int) -> tuple[list[float], list[float], int]:
    """Open the lobby on every page, one every ARRIVAL_SECONDS / 30: the kernel-ready and shown seconds of each, and
    how many pages loaded themselves again (a class page does when it has not shown for a long while).

    Both are measured by the page itself from the moment its navigation began (its own clock), so the automation's
    round trips do not count; the wait between arrivals lets the automation go on serving the pages' requests."""
    from playwright.sync_api import Error as PlaywrightError

    start = time.monotonic()
    for index, page in enumerate(pages):
        address = f"http://{servers[index]}:{port}/{LOBBY}?token={CLASS_KEY}"
        page.evaluate("address => { setTimeout(() => { window.location.href = address; }, 0); }", address)
        pause = start + (index + 1) * ARRIVAL_SECONDS / len(pages) - time.monotonic()
        pages[0].wait_for_timeout(max(1.0, pause * 1000))
    shown: list[float | None] = [None] * len(pages)
    loads = [1] * len(pages)
    deadline = time.monotonic() + PAGE_MS / 1000
    while None in shown and time.monotonic() < deadline:
        for index, page in enumerate(pages):
            if shown[index] is None:
                with contextlib.suppress(PlaywrightError):  # the page is loading itself again right now
                    shown[index], loads[index] = page.evaluate("() => [window.colorlabShownAt, window.colorlabLoads]")
        pages[0].wait_for_timeout(500)
    ready = [page.evaluate("() => performance.getEntriesByType('navigation')[0].responseEnd") / 1000 for page in pages]
    shown_seconds = [seconds / 1000 if seconds is not None else float("inf") for seconds in shown]
    return ready, shown_seconds, sum(1 for count in loads if count and count > 1)


def sit_down(pages: list, store: TableStore) -> list[Learner]:
    """Open 10 ColorFox tables in the store and seat every page through the lobby's 'come back' form."""
    learners = []
    for table in range(len(pages) // SEATS):
        code = store.create("colorfox", colorfox.Rules(players=SEATS), seed=table)
        for seat in range(SEATS):
            page = pages[table * SEATS + seat]
            key = store.join(code, seat=seat, name=f"Learner {table * SEATS + seat + 1}").key
            page.locator(".lobby-back-box summary").click()
            page.locator("[data-key='rejoin-code']").fill(code)
            page.locator("[data-key='key']").fill(key)
            page.locator("[data-key='key']").press("Enter")
            learners.append(Learner(seat, [code]))
    for page in pages:
        page.locator(".colorlab.colorfox [data-testid='seating']").filter(has_text="you play as").wait_for()
        page.evaluate(WATCH_STEPS)
    return learners


def play(pages: list, learners: list[Learner], seconds: float, rng: random.Random) -> None:
    """Each learner whose turn it is thinks a moment, then clicks, for `seconds` (as classroom.py's pages play);
    then note when each page saw each step."""
    play_pages(pages, learners, rng, time.monotonic() + seconds)
    for page, learner in zip(pages, learners):
        code = learner.tables[0]
        learner.redraws = {(code, int(step)): at / 1000 for step, at in page.evaluate("() => redraws").items()}


def fresh(learners: list[Learner]) -> list[Learner]:
    """The same learners with nothing noted yet."""
    return [Learner(learner.seat, list(learner.tables)) for learner in learners]


def latency_figures(learners: list[Learner]) -> tuple[float, float, int, int]:
    """Median and 95th percentile of click -> seen (ms), the redraws timed and those never seen."""
    times, unseen = click_to_redraw(learners)
    if len(times) < 2:
        return float("inf"), float("inf"), len(times), unseen
    return statistics.median(times) * 1000, percentile_95(times) * 1000, len(times), unseen


def run() -> list[Row]:
    why = missing()
    if why:
        return [Row("class pages, 30 learners' pages", "-", "", "", "info", f"not measured: {why}")]
    from playwright.sync_api import sync_playwright

    rng = random.Random(2026)
    devices: list[Device] = []
    flooder = None
    with tempfile.TemporaryDirectory(prefix="colorlab-pages-") as folder:
        home = Path(folder)
        server, port = start_server(home, home / "class.db")
        store = TableStore(home / "class.db")
        try:
            devices = [Device() for _ in range(DEVICES + 1)]
            with sync_playwright() as playwright:
                contexts = []
                for device in devices[:DEVICES]:
                    browser = playwright.chromium.launch(
                        executable_path=str(device.chromium(home)), args=["--headless", *CHROMIUM_ARGS]
                    )
                    base = f"http://{device.server}:{port}"
                    contexts += [browser.new_context(viewport=VIEWPORT, base_url=base) for _ in range(LEARNERS // 3)]
                servers = [device.server for device in devices[:DEVICES]]
                ordered = [contexts[index % DEVICES * 10 + index // DEVICES] for index in range(LEARNERS)]
                addresses = [servers[index % DEVICES] for index in range(LEARNERS)]
                pages = open_tabs(ordered, addresses)
                time.sleep(SETTLE_SECONDS)
                process = psutil.Process(server.process.pid)
                before = cpu_seconds(psutil.Process(), "chrom"), cpu_seconds(process)
                ready, shown, reloaded = arrive(pages, addresses, port)
                browsers, served = cpu_seconds(psutil.Process(), "chrom") - before[0], cpu_seconds(process) - before[1]
                learners = sit_down(pages, store)
                # The pages handed out are replaced a minute after the rush: a one-off, measured apart from idling.
                time.sleep(REFILL_SECONDS)
                refill = wait_until_calm(process, time.monotonic() + WARM_SECONDS)
                before = cpu_seconds(process)
                time.sleep(IDLE_SECONDS)
                idle = (cpu_seconds(process) - before) / IDLE_SECONDS
                play(pages, learners, PLAY_SECONDS, rng)
                calm = latency_figures(learners)
                flooding = fresh(learners)
                for page in pages:
                    page.evaluate(WATCH_STEPS)
                flood_device = devices[DEVICES]
                script = f"import subprocess, sys, time\\nend = time.monotonic() + {PLAY_SECONDS + 5}\\n" + (
                    "while time.monotonic() < end:\\n"
                    "    subprocess.run([sys.executable, '-c', sys.argv[1], *sys.argv[2:]], capture_output=True, "
                    "timeout=60)\\n"
                )
                flooder = subprocess.Popen(
                    flood_device.command(
                        sys.executable, "-c", script, FLOOD, flood_device.server, str(port),
                        f"/{LOBBY}?token={CLASS_KEY}", "1000000",
                    ),
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )  # fmt: skip
                time.sleep(2)
                play(pages, flooding, PLAY_SECONDS, rng)
                flooded = latency_figures(flooding)
        finally:
            if flooder is not None:
                flooder.kill()
                flooder.wait(30)
            for device in devices:
                device.close()
            store.engine.dispose()
            server.stop()
    p95_ready, p95_shown = percentile_95(ready), percentile_95(shown)
    label = f"class pages, {LEARNERS} learners' pages from {DEVICES} devices"
    return [
        Row(f"{label}: arriving within {ARRIVAL_SECONDS:g} s, kernel ready (lobby run), 95th percentile",
            f"{p95_ready:.1f}", "s", f"< {READY_TARGET_S:g}", verdict(p95_ready < READY_TARGET_S),
            f"Arriving: kernel ready median {statistics.median(ready):.1f} s, worst {max(ready):.1f} s; "
            f"shown median {statistics.median(shown):.1f} s, worst {max(shown):.1f} s "
            f"({LEARNERS} lobby pages kept ready). Replacing the pages handed out took {refill:.0f} s more, "
            "before the idle class was measured."),
        Row(f"{label}: arriving, the lobby shown, 95th percentile", f"{p95_shown:.1f}", "s",
            f"< {SHOWN_TARGET_S:g}", verdict(p95_shown < SHOWN_TARGET_S),
            f"While the class arrived the learners' browsers used {browsers:.0f} processor seconds "
            f"({browsers / LEARNERS:.1f} a page) and the server with its kernels {served:.1f}; this machine has "
            f"{psutil.cpu_count()} cores. The pages show once the browsers have done their part. "
            f"Pages that loaded themselves again: {reloaded}; never shown: {shown.count(float('inf'))}."),
        Row(f"{label}: seated at 10 tables and idle, server and kernels", f"{idle:.3f}", "cores",
            f"< {IDLE_TARGET_CORES:g}", verdict(idle < IDLE_TARGET_CORES)),
        Row(f"{label}: click -> seen, median", f"{calm[0]:.0f}", "ms", f"< {MEDIAN_TARGET_MS:g}",
            verdict(calm[0] < MEDIAN_TARGET_MS),
            f"Playing: {calm[2]} redraws timed, {calm[3]} never seen; with a flooder: {flooded[2]} timed, "
            f"{flooded[3]} never seen, median {flooded[0]:.0f} ms."),
        Row(f"{label}: click -> seen, 95th percentile", f"{calm[1]:.0f}", "ms", f"< {P95_TARGET_MS:g}",
            verdict(calm[1] < P95_TARGET_MS)),
        Row(f"{label}: click -> seen while one device floods, 95th percentile", f"{flooded[1]:.0f}", "ms",
            f"< {FLOOD_P95_TARGET_MS:g}", verdict(flooded[1] < FLOOD_P95_TARGET_MS)),
    ]  # fmt: skip


if __name__ == "__main__":
    sys.exit(run_alone(run))

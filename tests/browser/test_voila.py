"""The lessons served as apps with Voila: only words a learner reads, Save as a download, no kernels left behind."""

from __future__ import annotations

import json
import re
import shutil
import sys
import time
from pathlib import Path

import nbformat
import psutil
import pytest
from playwright.sync_api import expect

from tests.helpers.lab import open_notebook, run_all
from tests.helpers.servers import NOTEBOOKS, Server, free_port, jupyter_env

CLASSROOM_LESSONS = [
    "01-colorform-play.ipynb",
    "10-colorfox-play.ipynb",
    "20-colorium-play.ipynb",
    "30-colourbrain-quiz.ipynb",
]
# What Python prints for a bare tuple, list, dict, set or object as a cell's last expression.
PYTHON_REPR = re.compile(r"^(\(.*\)|\[.*\]|\{.*\}|Counter\(.*\)|\w+\(\w+=.*\)|<.*object at 0x.*>)$", re.DOTALL)
MAKEFILE = Path(__file__).parents[2] / "Makefile"
QUICK_CULL = {"cull_idle_timeout": 4, "cull_interval": 2}


def text_outputs(page) -> list[str]:
    """The text of every plain output a cell showed on the page."""
    return [text.strip() for text in page.locator(".jp-OutputArea-output pre").all_inner_texts()]


@pytest.mark.parametrize("lesson", CLASSROOM_LESSONS)
def test_a_classroom_page_shows_no_raw_python_values(page, voila, lesson):
    page.goto(voila(lesson))
    expect(page.locator(".colorlab").first).to_be_visible(timeout=120_000)
    page.wait_for_load_state("networkidle")
    raw = [text for text in text_outputs(page) if PYTHON_REPR.match(text)]
    assert not raw, f"{lesson} shows raw Python values: {raw}"


def test_save_in_voila_is_a_download_that_loads_back_to_the_same_game(page, voila, tmp_path):
    page.goto(voila("10-colorfox-play.ipynb"))
    table = page.locator(".colorlab").first
    expect(table).to_be_visible(timeout=120_000)
    step = table.locator("[data-testid='step']")
    shown = step.inner_text()
    with page.expect_download() as waiting:
        table.locator("[data-key='save']").click()
    download = waiting.value
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    record = json.loads(saved.read_text(encoding="utf-8"))
    assert download.suggested_filename.startswith("colorfox-") and record["game"] == "colorfox"
    expect(table.locator("[data-testid='notice']")).to_contain_text(download.suggested_filename)
    table.locator("[data-key='new']").click()
    expect(table.locator("[data-testid='notice']")).to_contain_text("new game")
    table.locator("[data-key='load']").set_input_files(saved)
    expect(table.locator("[data-testid='notice']")).to_contain_text("Loaded")
    expect(step).to_have_text(shown)


def test_save_in_jupyterlab_is_a_download_too(page, lab_server):
    open_notebook(page, lab_server, "10-colorfox-play.ipynb")
    run_all(page)
    table = page.locator(".colorlab").first
    expect(table).to_be_visible()
    before = set(lab_server.root.iterdir())
    with page.expect_download() as waiting:
        table.locator("[data-key='save']").click()
    assert waiting.value.suggested_filename.startswith("colorfox-")
    assert set(lab_server.root.iterdir()) == before


def test_a_table_shown_twice_downloads_each_save_once(page, lab_server):
    cells = ["from colorlab.colorfox.view import ColorFoxGame\ngame = ColorFoxGame(bots=1)\ngame", "game"]
    notebook = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(cell) for cell in cells],
        metadata={"kernelspec": {"name": "python3", "display_name": "Python 3"}},
    )
    nbformat.write(notebook, lab_server.root / "twice.ipynb")
    open_notebook(page, lab_server, "twice.ipynb")
    run_all(page)
    expect(page.locator(".colorlab")).to_have_count(2)
    downloads = []
    page.on("download", lambda download: downloads.append(download))
    with page.expect_download():
        page.locator(".colorlab [data-key='save']").first.click()
    page.wait_for_timeout(1500)
    assert len(downloads) == 1


def kernels_of(server: Server) -> list[psutil.Process]:
    """The kernels a server is running now (an ended kernel the server has not yet reaped does not count)."""
    kernels = []
    for child in psutil.Process(server.process.pid).children(recursive=True):
        try:
            if "ipykernel_launcher" in " ".join(child.cmdline()):
                kernels.append(child)
        except (psutil.ZombieProcess, psutil.NoSuchProcess):
            continue
    return kernels


def wait_for_kernels(server: Server, count: int, timeout: float) -> float:
    """Wait until the server runs `count` kernels; return how many seconds that took."""
    start = time.perf_counter()
    while len(kernels_of(server)) != count:
        assert time.perf_counter() - start < timeout, f"{len(kernels_of(server))} kernels still run, not {count}"
        time.sleep(0.25)
    return time.perf_counter() - start


@pytest.fixture
def culling_voila(tmp_path):
    """A Voila server for the quiz that culls idle kernels without a page after a few seconds."""
    root = tmp_path / "notebooks"
    shutil.copytree(NOTEBOOKS, root)
    port = free_port()
    command = [
        str(Path(sys.executable).with_name("voila")),
        str(root / "30-colourbrain-quiz.ipynb"),
        "--no-browser",
        f"--port={port}",
        "--Voila.ip=127.0.0.1",
        "--Voila.port_retries=0",
        *(f"--MappingKernelManager.{name}={value}" for name, value in QUICK_CULL.items()),
        "--MappingKernelManager.cull_connected=False",
    ]
    server = Server(command, jupyter_env(tmp_path), tmp_path / "voila.log")
    url = f"http://127.0.0.1:{port}/"
    server.wait_until_answering(f"{url}voila/ready-probe")
    yield server, url
    server.stop()


def test_the_classroom_target_culls_kernels_left_without_a_page():
    classroom = MAKEFILE.read_text(encoding="utf-8")
    timeout = re.search(r"--MappingKernelManager\.cull_idle_timeout=(\d+)", classroom)
    interval = re.search(r"--MappingKernelManager\.cull_interval=(\d+)", classroom)
    assert timeout and interval and int(timeout[1]) > 0 and int(interval[1]) > 0
    assert "--MappingKernelManager.cull_connected=False" in classroom
    assert "$(CLASSROOM_KERNELS)" in next(
        line for line in classroom.splitlines() if "colorlab.classroom.server" in line
    )


def test_closed_pages_leave_no_kernel_running_and_an_open_page_keeps_its_own(context, culling_voila):
    server, url = culling_voila
    kept, said_goodbye, vanished = (context.new_page() for _ in range(3))
    for page in (kept, said_goodbye, vanished):
        page.goto(url)
        expect(page.locator(".colorlab").first).to_be_visible(timeout=120_000)
    assert len(kernels_of(server)) == 3
    said_goodbye.close(run_before_unload=True)
    seconds = wait_for_kernels(server, 2, timeout=15)
    print(f"\nA page that said goodbye: its kernel ended after {seconds:.1f} s")
    vanished.close(run_before_unload=False)
    limit = QUICK_CULL["cull_idle_timeout"] + 2 * QUICK_CULL["cull_interval"] + 10
    seconds = wait_for_kernels(server, 1, timeout=limit)
    print(f"A page closed without a goodbye: its kernel was culled after {seconds:.1f} s")
    assert "Culling" in server.log.read_text(errors="replace")
    time.sleep(QUICK_CULL["cull_idle_timeout"] + 2 * QUICK_CULL["cull_interval"])
    assert len(kernels_of(server)) == 1
    kept.locator("[data-key='new']").first.click()
    expect(kept.locator("[data-testid='notice']").first).to_contain_text("new")

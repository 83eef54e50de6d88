"""The browser stack works: JupyterLab runs a lesson, Voila renders it, a widget talks to Python."""

from __future__ import annotations

import statistics
import time

import nbformat
import pytest
from playwright.sync_api import expect

from colorlab.palette import GLYPHS, Colour
from tests.helpers.lab import open_notebook, run_all, stdout_texts

PALETTE_LINES = [f"{GLYPHS[hue]}  {hue.code}  {hue}" for hue in Colour]

# Without a kernelspec JupyterLab asks which kernel to start.
PYTHON3 = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}

# A button that counts clicks; Python sees each click and sends it back for the label to show.
CLICKER = '''
import anywidget
import ipywidgets
import traitlets


class Clicker(anywidget.AnyWidget):
    _esm = """
    function render({ model, el }) {
        const button = document.createElement("button");
        button.textContent = "Click";
        button.addEventListener("click", () => {
            model.set("clicks", model.get("clicks") + 1);
            model.save_changes();
        });
        const seen = document.createElement("span");
        seen.className = "clicker-seen";
        const draw = () => { seen.textContent = `Python saw ${model.get("seen")}`; };
        model.on("change:seen", draw);
        draw();
        el.classList.add("clicker");
        el.append(button, seen);
    }
    export default { render };
    """
    clicks = traitlets.Int(0).tag(sync=True)
    seen = traitlets.Int(0).tag(sync=True)


clicker, log = Clicker(), ipywidgets.Output()


def answer(change):
    with log:
        print(f"Python saw click {change.new}")
    clicker.seen = change.new


clicker.observe(answer, names=["clicks"])
ipywidgets.VBox([clicker, log])
'''


def test_welcome_runs_in_jupyterlab_and_prints_the_palette(page, lab_server, artifacts):
    start = time.perf_counter()
    open_notebook(page, lab_server, "00-welcome.ipynb")
    opened = time.perf_counter()
    run_all(page)
    ran = time.perf_counter()
    print(f"\npage + kernel {opened - start:.1f} s, run all {ran - opened:.1f} s")
    printed = "\n".join(stdout_texts(page))
    assert all(line in printed for line in PALETTE_LINES), printed
    page.screenshot(path=artifacts / "00-welcome-lab.png")


def test_welcome_renders_in_voila(page, voila, artifacts):
    start = time.perf_counter()
    page.goto(voila("00-welcome.ipynb"))
    palette = page.get_by_text(PALETTE_LINES[-1])
    palette.wait_for()
    print(f"\nVoila page rendered in {time.perf_counter() - start:.1f} s")
    printed = palette.inner_text()
    assert all(line in printed for line in PALETTE_LINES), printed
    expect(page.get_by_text("for hue in Colour")).to_have_count(0)
    page.screenshot(path=artifacts / "00-welcome-voila.png", full_page=True)


def test_anywidget_click_reaches_python_and_comes_back(page, lab_server):
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(CLICKER)], metadata=PYTHON3)
    nbformat.write(notebook, lab_server.root / "clicker.ipynb")
    open_notebook(page, lab_server, "clicker.ipynb")
    run_all(page)
    button = page.locator(".clicker button")
    button.wait_for()
    round_trips = []
    for clicks in range(1, 11):
        start = time.perf_counter()
        button.click()
        page.get_by_text(f"Python saw {clicks}", exact=True).wait_for()
        round_trips.append(time.perf_counter() - start)
    print(
        f"\nclick -> Python -> redraw: median {statistics.median(round_trips) * 1000:.0f} ms, "
        f"max {max(round_trips) * 1000:.0f} ms over {len(round_trips)} clicks"
    )
    assert "Python saw click 10" in "\n".join(stdout_texts(page))


def test_a_navigation_dropped_because_the_network_changed_is_tried_again_and_nothing_else_is():
    """Another worker's test adding or removing a device changes this machine's network interfaces, and Chromium
    drops a navigation in flight; the tests' pages load it again (twice at most), and raise every other failure."""
    from playwright.sync_api import Error

    from tests.helpers.chromium import NETWORK_CHANGED, loading_again

    def flaky(failures: list[str]):
        calls = []

        def navigate(page, url):
            calls.append(url)
            if failures:
                raise Error(f"Page.goto: {failures.pop(0)} at {url}")
            return "loaded"

        return loading_again(navigate), calls

    goto, calls = flaky([NETWORK_CHANGED, NETWORK_CHANGED])
    assert goto(None, "http://127.0.0.1:1/") == "loaded" and len(calls) == 3
    goto, calls = flaky([NETWORK_CHANGED] * 3)
    with pytest.raises(Error, match="ERR_NETWORK_CHANGED"):
        goto(None, "http://127.0.0.1:1/")
    assert len(calls) == 3
    goto, calls = flaky(["net::ERR_CONNECTION_REFUSED"])
    with pytest.raises(Error, match="CONNECTION_REFUSED"):
        goto(None, "http://127.0.0.1:1/")
    assert len(calls) == 1

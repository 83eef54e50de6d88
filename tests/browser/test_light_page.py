"""The class pages' light front end (the class template's light.html.j2 and light-page.js) in a real browser.

A class page made for the test shows each ipywidgets control the class pages use, in boxes, beside a line that the
kernel rewrites whenever a control's value reaches it. The learner uses each control with the keyboard and the
mouse; the kernel's own changes (a new widget made after the page arrived, a description and a disabled button)
reach the page. A class page whose notebook fails says so in plain words, with no traceback.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
import pytest
from playwright.sync_api import expect

from tests.helpers.page_actions import FIRST_LOAD_MS
from tests.helpers.servers import Server, class_template, free_port, jupyter_env

CONTROLS = """
import ipywidgets as w

said = w.HTML(layout=w.Layout(width="420px"))
name = w.Text(description="Name", placeholder="your name")
players = w.FloatText(description="Players", value=2, step=1)
tie = w.Dropdown(description="A tie", options=["play again", "shared win"])
half = w.Checkbox(description="Half turn", value=False)
go = w.Button(description="Go", button_style="primary")
later = w.VBox()
clicks = []

def say(*_):
    values = f"{name.value}|{players.value:g}|{tie.value}|{half.value}|{len(clicks)}"
    said.value = f"<span data-testid='said'>{values}</span>"

def clicked(button):
    clicks.append(1)
    say()
    later.children = [w.HTML("<p data-testid='made-later'>made after the page arrived</p>")]
    go.description = f"Go again ({len(clicks)})"
    go.disabled = len(clicks) >= 2

for control in (name, players, tie, half):
    control.observe(say, "value")
go.on_click(clicked)
say()
w.VBox([w.HBox([name, players]), tie, half, go, said, later], layout=w.Layout(width="600px"))
"""

PAGES = {
    "controls.ipynb": [nbformat.v4.new_markdown_cell("# Controls"), nbformat.v4.new_code_cell(CONTROLS)],
    "broken.ipynb": [nbformat.v4.new_code_cell("raise RuntimeError('the secret path /srv/class')")],
}


@pytest.fixture
def light_pages(tmp_path):
    """Voila with the class template over a folder of class pages made for the test: the server's address."""
    root = tmp_path / "pages"
    root.mkdir()
    for name, cells in PAGES.items():
        notebook = nbformat.v4.new_notebook(
            cells=cells,
            metadata={"kernelspec": {"name": "python3", "display_name": "Python 3"}, "colorlab": {"class_page": True}},
        )
        nbformat.write(notebook, root / name)
    env = jupyter_env(tmp_path)
    port = free_port()
    command = [
        str(Path(sys.executable).with_name("voila")),
        str(root),
        "--no-browser",
        f"--port={port}",
        "--Voila.ip=127.0.0.1",
        "--Voila.port_retries=0",
        *class_template(env),
    ]
    server = Server(command, env, tmp_path / "voila.log")
    url = f"http://127.0.0.1:{port}/"
    server.wait_until_answering(f"{url}voila/ready-probe")
    yield url
    server.stop()


def said(page):
    return page.locator("[data-testid='said']")


def test_every_control_of_the_light_page_reaches_the_kernel_and_the_kernel_reaches_the_page(page, light_pages):
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("console", lambda line: problems.append(line.text) if line.type == "error" else None)
    page.goto(f"{light_pages}voila/render/controls.ipynb")
    expect(said(page)).to_have_text("|2|play again|False|0", timeout=FIRST_LOAD_MS)
    assert not [url for url in asked if "/voila/static/" in url or "labextensions" in url], "Voila's front end came"
    expect(page.get_by_role("heading", name="Controls")).to_be_visible()

    name = page.get_by_label("Name")
    expect(name).to_have_attribute("placeholder", "your name")
    name.fill("Ada")
    name.press("Enter")  # a text field reaches the kernel when the learner is done with it
    expect(said(page)).to_have_text("Ada|2|play again|False|0")
    players = page.get_by_label("Players")
    players.fill("4")
    players.press("Tab")
    expect(said(page)).to_have_text("Ada|4|play again|False|0")
    page.get_by_label("A tie").select_option("shared win")
    expect(said(page)).to_have_text("Ada|4|shared win|False|0")
    page.get_by_label("Half turn").check()
    expect(said(page)).to_have_text("Ada|4|shared win|True|0")

    go = page.get_by_role("button", name="Go")
    go.focus()
    page.keyboard.press("Enter")  # the keyboard alone presses a button
    expect(said(page)).to_have_text("Ada|4|shared win|True|1")
    expect(page.locator("[data-testid='made-later']")).to_have_text("made after the page arrived")
    again = page.get_by_role("button", name="Go again (1)")
    expect(again).to_be_enabled()
    again.click()
    expect(page.get_by_role("button", name="Go again (2)")).to_be_disabled()
    expect(said(page)).to_have_text("Ada|4|shared win|True|2")

    assert page.locator(".widget-hbox .widget-text, .widget-hbox .widget-floattext").count() == 2
    assert problems == []


def test_a_class_page_whose_notebook_fails_says_so_without_a_traceback(page, light_pages):
    page.goto(f"{light_pages}voila/render/broken.ipynb")
    expect(page.get_by_role("alert")).to_have_text("This page could not be made ready. Ask your teacher.")
    assert "/srv/class" not in page.content() and "Traceback" not in page.content()

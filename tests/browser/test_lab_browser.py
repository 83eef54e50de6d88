"""The rule-variant lab in JupyterLab: a line-up chosen by the learner plays, the progress and the verdict follow."""

from __future__ import annotations

import re

import nbformat
from playwright.sync_api import expect

from tests.helpers.lab import accessibility_violations, open_notebook, run_all, show_all_of

PYTHON3 = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}
LAB = """import dataclasses
from colorlab import colorfox
from colorlab.widgets import VariantLab
active = colorfox.Rules(tie="shared win")
opponent = dataclasses.replace(active, exchange_pick="opponent")
VariantLab("colorfox", {"active picks": active, "opponent picks": opponent}, games=10, measure="margin",
           executor="serial")"""
SEARCH = "SearchBot, 10 playouts a move"
NBSP = "\u00a0"  # ipywidgets writes the spaces of a drop-down's labels as no-break spaces


def shown(texts: list[str]) -> list[str]:
    """The texts as a learner reads them, with plain spaces."""
    return [text.replace(NBSP, " ") for text in texts]


def test_a_search_bot_at_the_first_seat_plays_every_game_and_the_verdict_says_which_interval(
    page, lab_server, artifacts, docs_picture
):
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(LAB)], metadata=PYTHON3)
    nbformat.write(notebook, lab_server.root / "lab-line-up.ipynb")
    open_notebook(page, lab_server, "lab-line-up.ipynb")
    run_all(page)
    lab = page.locator(".colorlab-lab")
    expect(lab).to_be_visible()
    every_seat, first_seat = lab.get_by_label("Bots", exact=True), lab.get_by_label(re.compile(r"^First\sseat$"))
    offered = shown(every_seat.locator("option").all_inner_texts())
    assert {"RandomBot", "GreedyBot", "SetBuilder", SEARCH} <= set(offered)
    assert shown([first_seat.evaluate("(select) => select.options[select.selectedIndex].text")]) == [
        "same as the others"
    ]
    first_seat.select_option(label=SEARCH.replace(" ", NBSP))
    lab.get_by_role("button", name="Run").click()
    expect(lab).to_contain_text("Done: 20 games of SearchBot(playouts=10) against RandomBot.", timeout=180_000)
    expect(lab.locator(".widget-html", has_text="95% interval of the difference")).to_contain_text(
        "The interval compares"
    )
    expect(lab.locator(".widget-hprogress .progress-bar")).to_have_attribute("style", re.compile(r"width: 100%"))
    show_all_of(page, ".colorlab-lab")
    lab.screenshot(path=artifacts / "lab-whole.png")
    top, whole = lab.locator(".colorlab-lab-row").first.bounding_box(), lab.bounding_box()
    below_the_rules = {
        "x": whole["x"],
        "y": top["y"] - 4,
        "width": whole["width"],
        "height": whole["y"] + whole["height"] - top["y"] + 4,
    }
    page.screenshot(path=docs_picture("lab-line-up.png"), clip=below_the_rules)
    assert accessibility_violations(page, ".colorlab-lab") == []

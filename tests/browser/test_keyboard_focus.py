"""The keyboard stays inside each widget: a click anywhere on it gives it the keys, and JupyterLab never sees them.

In JupyterLab's command mode, r makes a cell raw, m markdown, y code, 5 a heading, a and b insert cells, d d deletes
one, 0 0 asks to restart the kernel and Enter edits a cell. Each test clicks a plain part of a widget (not a button),
presses those keys, and checks that every cell is as it was, that no dialog opened, and that the widget still has
the keys (also after it redraws) and still answers its own keys.
"""

from __future__ import annotations

import nbformat
from playwright.sync_api import expect

from tests.helpers.lab import open_notebook, run_all
from tests.helpers.page_actions import draft_by_clicking

PYTHON3 = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}
# The keys that changed learners' notebooks, in the order a learner might hit them.
NOTEBOOK_KEYS = [
    "r",
    "m",
    "a",
    "b",
    "5",
    "y",
    "d",
    "d",
    "0",
    "0",
    "Enter",
    "ArrowUp",
    "ArrowDown",
    "ArrowLeft",
    "ArrowRight",
]

CELLS = """() => Array.from(window.jupyterapp.shell.currentWidget.content.widgets)
    .map((cell) => [cell.model.type, cell.model.sharedModel.getSource()])"""
FOCUS_INSIDE = "(selector) => document.querySelector(selector).contains(document.activeElement)"
FOCUSED = "() => document.activeElement?.outerHTML.slice(0, 120) ?? null"


def serve(lab_server, page, name: str, code: str, selector: str) -> None:
    """Open a notebook whose only cell shows a widget, below a markdown cell with the instructions, and run it."""
    cells = [nbformat.v4.new_markdown_cell("Play the game below."), nbformat.v4.new_code_cell(code)]
    notebook = nbformat.v4.new_notebook(cells=cells, metadata=PYTHON3)
    nbformat.write(notebook, lab_server.root / f"{name}.ipynb")
    open_notebook(page, lab_server, f"{name}.ipynb")
    run_all(page)
    expect(page.locator(selector)).to_be_visible()


def assert_keys_stay_inside(page, selector: str) -> None:
    """The widget has the keys, and JupyterLab's notebook shortcuts leave every cell as it was, with no dialog."""
    before = page.evaluate(CELLS)
    assert page.evaluate(FOCUS_INSIDE, selector), f"focus is on {page.evaluate(FOCUSED)}, not in {selector}"
    for key in NOTEBOOK_KEYS:
        page.keyboard.press(key)
    page.wait_for_timeout(300)  # a dialog or a cell change would show within this time
    assert page.locator(".jp-Dialog").count() == 0, page.locator(".jp-Dialog").inner_text()
    assert page.evaluate(CELLS) == before
    assert page.evaluate(FOCUS_INSIDE, selector), f"focus is on {page.evaluate(FOCUSED)}, not in {selector}"


def assert_focus_inside(page, selector: str) -> None:
    """Is the keyboard focus still inside the widget (its root or one of its controls)?"""
    assert page.evaluate(FOCUS_INSIDE, selector), f"focus is on {page.evaluate(FOCUSED)}, not in {selector}"


def test_col_or_form_keeps_the_keys_and_turns_the_chosen_task_with_r(page, lab_server):
    code = (
        "from colorlab.colorform.view import ColorFormGame\n"
        "ColorFormGame(bots=1, level='medium', seed=20261129, bots_wait=True)"
    )
    serve(lab_server, page, "keys-colorform", code, ".colorform")
    page.click(".colorform-hand .colorform-label")
    assert_keys_stay_inside(page, ".colorform")
    page.locator("[data-task]").first.click()
    page.click(".colorform-hand .colorform-label")
    turn = page.locator("[data-testid='group-element']")
    before = turn.inner_text()
    page.keyboard.press("r")
    expect(turn).not_to_have_text(before)
    assert_keys_stay_inside(page, ".colorform")


def test_col_or_form_lets_tab_move_through_its_controls_and_the_palette_be_chosen_by_keys(page, lab_server):
    code = (
        "from colorlab.colorform.view import ColorFormGame\n"
        "ColorFormGame(bots=1, level='medium', seed=20261129, bots_wait=True)"
    )
    serve(lab_server, page, "keys-tab", code, ".colorform")
    page.click(".colorform-hand .colorform-label")
    page.keyboard.press("Tab")
    tag = page.evaluate("() => document.activeElement.tagName")
    assert tag in ("BUTTON", "SELECT"), f"Tab went to {page.evaluate(FOCUSED)}"
    assert_focus_inside(page, ".colorform")
    palette = page.locator(".colorform [data-key='palette']")
    shown = palette.input_value()
    palette.focus()
    page.keyboard.press("ArrowDown")
    expect(palette).not_to_have_value(shown)
    expect(page.locator(".colorform")).not_to_have_attribute("data-palette", shown)


def test_colorfox_keeps_the_keys_when_its_table_is_clicked_and_after_a_card_is_chosen(page, lab_server):
    code = "from colorlab.colorfox.view import ColorFoxGame\nColorFoxGame(bots=1, seed=31)"
    serve(lab_server, page, "keys-colorfox", code, ".colorfox")
    page.locator(".colorfox-cell[data-x]").first.click()
    assert_keys_stay_inside(page, ".colorfox")
    page.locator("[data-card]").first.click()
    expect(page.locator("[data-legal]").first).to_be_visible()
    assert_focus_inside(page, ".colorfox")
    assert_keys_stay_inside(page, ".colorfox")


GHOST = ".colorium-board:not(.is-small) .colorium-cell.is-ghost"
GHOST_MOVED = f"""(before) => JSON.stringify(Array.from(document.querySelectorAll("{GHOST}"))
    .map((cell) => cell.dataset.cell).sort()) !== JSON.stringify(before)"""


def ghost_cells(page) -> list[str]:
    """Which cells of the learner's board does the ghost of the shape cover?"""
    return sorted(page.locator(GHOST).evaluate_all("(cells) => cells.map((cell) => cell.dataset.cell)"))


COLORIUM = "from colorlab.colorium.view import ColoriumGame\nColoriumGame(bots=1, seed=3)"


def test_colorium_keeps_the_keys_when_its_board_is_clicked(page, lab_server):
    serve(lab_server, page, "keys-colorium", COLORIUM, ".colorium")
    page.locator(".colorium-board:not(.is-small) .colorium-cell").first.click()
    assert_keys_stay_inside(page, ".colorium")


def test_colorium_r_turns_the_ghost_and_enter_draws_after_a_pick_without_clicking_the_board(page, lab_server):
    serve(lab_server, page, "keys-colorium-pick", COLORIUM, ".colorium")
    draft_by_clicking(page)
    expect(page.locator(GHOST).first).to_be_visible()
    assert_focus_inside(page, ".colorium")
    placed = ghost_cells(page)
    page.keyboard.press("r")
    page.wait_for_function(GHOST_MOVED, arg=placed)
    moved = ghost_cells(page)
    page.keyboard.press("ArrowRight")
    page.wait_for_function(GHOST_MOVED, arg=moved)
    before = page.evaluate(CELLS)
    page.keyboard.press("Enter")
    expect(page.locator("[data-testid='notice']")).to_contain_text("draws")
    assert page.evaluate(CELLS) == before
    assert_focus_inside(page, ".colorium")


def answer_for_every_team(page) -> None:
    """Each team in turn chooses the first colours it needs by clicking, and locks its answer."""
    lock = page.locator("[data-action='lock']")
    for _ in range(6):
        if page.locator("[data-testid='reveal']").count():
            return
        for chosen in page.locator(".colourbrain-colour.is-chosen").all():
            chosen.click()
        need = int(page.locator(".colourbrain-count").inner_text().split()[0])
        for colour in page.locator("[data-colour]").all()[:need]:
            colour.click()
        turn = page.locator(".colourbrain-turn").inner_text()
        lock.click()
        expect(page.locator(".colourbrain-turn, [data-testid='reveal']").first).not_to_have_text(turn)
    raise AssertionError("the teams never got to the reveal")


QUIZ = "from colorlab.colourbrain.view import ColourbrainQuiz\nColourbrainQuiz(names=['Foxes', 'Owls'], seed=1)"


def test_colourbrain_keeps_the_keys_when_its_question_is_clicked(page, lab_server):
    serve(lab_server, page, "keys-colourbrain", QUIZ, "[data-testid='question']")
    page.click("[data-testid='question']")
    assert_keys_stay_inside(page, ".colourbrain")


def test_colourbrain_number_keys_choose_colours_right_after_next_question(page, lab_server):
    serve(lab_server, page, "keys-colourbrain-next", QUIZ, "[data-testid='question']")
    answer_for_every_team(page)
    page.click("[data-action='next']")
    expect(page.locator("[data-testid='question']")).to_be_visible()
    assert_focus_inside(page, ".colourbrain")
    page.keyboard.press("1")
    expect(page.locator(".colourbrain-colour.is-chosen")).to_have_count(1)
    assert_keys_stay_inside(page, ".colourbrain")


def test_the_task_turner_keeps_the_keys_and_turns_with_r_when_its_card_is_clicked(page, lab_server):
    code = "from colorlab.colorform.turner import TaskTurner\nTaskTurner(5, mirrors=True)"
    serve(lab_server, page, "keys-turner", code, ".turner")
    page.click(".turner-card")
    assert_keys_stay_inside(page, ".turner")
    expect(page.locator(".turner-number:not(.is-home)").first).to_be_visible()
    page.click("[data-action='reset']")
    expect(page.locator(".turner-number:not(.is-home)")).to_have_count(0)
    assert_focus_inside(page, ".turner")
    page.keyboard.press("r")
    expect(page.locator(".turner-number:not(.is-home)").first).to_be_visible()

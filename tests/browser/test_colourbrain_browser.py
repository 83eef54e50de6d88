"""The Colourbrain quiz in a real browser: two teams answer by clicking and the scores update."""

from __future__ import annotations

import nbformat
from playwright.sync_api import expect

from colorlab.colourbrain import Rules, new_game
from tests.browser.lab import open_notebook, run_all

PYTHON3 = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}
SEED = 1


def test_two_teams_answer_by_clicking_and_the_scores_update(page, lab_server):
    solution = list(new_game(Rules(teams=2), SEED).question.answer)
    wrong = [c for c in ["red", "blue", "green", "black", "white", "pink"] if c not in solution][:len(solution)]
    code = ("from colorlab.colourbrain.view import ColourbrainQuiz\n"
            f"quiz = ColourbrainQuiz(names=['Foxes', 'Owls'], seed={SEED})\nquiz")
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)], metadata=PYTHON3)
    nbformat.write(notebook, lab_server.root / "quiz.ipynb")
    open_notebook(page, lab_server, "quiz.ipynb")
    run_all(page)
    expect(page.locator("[data-testid='question']")).to_be_visible()
    for colour in solution:
        page.click(f"[data-colour='{colour}']")
    page.click("[data-action='lock']")
    expect(page.locator(".colourbrain-turn")).to_contain_text("Owls")
    expect(page.locator(".colourbrain-colour.is-chosen")).to_have_count(0)
    page.focus(".colourbrain")
    for colour in wrong:
        page.click(f"[data-colour='{colour}']")
    page.keyboard.press("Enter")
    expect(page.locator("[data-testid='reveal']")).to_be_visible()
    expect(page.locator("[data-score='0']")).to_have_text("1")
    expect(page.locator("[data-score='1']")).to_have_text("0")
    page.click("[data-action='next']")
    expect(page.locator("[data-testid='question']")).to_be_visible()

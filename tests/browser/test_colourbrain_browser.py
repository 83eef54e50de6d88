"""The Colourbrain quiz in a real browser: two teams answer by clicking and the scores update, the reveal
names the question just answered, Undo hides while teams answer; a paced quiz waits for the quiz master's
Next; WCAG checks."""

from __future__ import annotations

import nbformat
from playwright.sync_api import expect

from colorlab.colourbrain import Rules, new_game
from tests.helpers.lab import open_notebook, problems_in_both_palettes, run_all

PYTHON3 = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}
SEED = 1


def serve_quiz(lab_server, page, name: str, rules: str = "Rules()", before: str = "") -> None:
    """Open a notebook with a quiz for the Foxes and the Owls (after the code `before`), and run it."""
    code = (
        "from colorlab.colourbrain import Answer, Rules\nfrom colorlab.colourbrain.view import ColourbrainQuiz\n"
        f"quiz = ColourbrainQuiz({rules}, names=['Foxes', 'Owls'], seed={SEED})\n{before}quiz"
    )
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)], metadata=PYTHON3)
    nbformat.write(notebook, lab_server.root / f"{name}.ipynb")
    open_notebook(page, lab_server, f"{name}.ipynb")
    run_all(page)
    expect(page.locator("[data-testid='question'], [data-testid='reveal']")).to_be_visible()


def first_answers() -> tuple[list[str], list[str]]:
    """The first question's answer, and a wrong one with as many colours."""
    solution = list(new_game(Rules(teams=2), SEED).question.answer)
    wrong = [c for c in ["red", "blue", "green", "black", "white", "pink"] if c not in solution][: len(solution)]
    return solution, wrong


def test_two_teams_answer_by_clicking_and_the_scores_update(page, lab_server):
    solution, wrong = first_answers()
    serve_quiz(lab_server, page, "quiz")
    for colour in solution:
        page.click(f"[data-colour='{colour}']")
    expect(page.locator("[data-action='undo']")).to_be_visible()
    page.click("[data-action='lock']")
    expect(page.locator(".colourbrain-turn")).to_contain_text("Owls")
    expect(page.locator(".colourbrain-colour.is-chosen")).to_have_count(0)
    expect(page.locator("[data-action='undo']")).to_have_count(0)
    page.focus(".colourbrain")
    for colour in wrong:
        page.click(f"[data-colour='{colour}']")
    page.keyboard.press("Enter")
    expect(page.locator("[data-testid='reveal']")).to_be_visible()
    expect(page.locator("[data-testid='number']")).to_have_text("Question 1")
    expect(page.locator("[data-action='undo']")).to_be_visible()
    expect(page.locator("[data-score='0']")).to_have_text("1")
    expect(page.locator("[data-score='1']")).to_have_text("0")
    page.click("[data-action='next']")
    expect(page.locator("[data-testid='question']")).to_be_visible()
    expect(page.locator("[data-testid='number']")).to_have_text("Question 2")


def test_a_paced_quiz_shows_the_next_question_only_after_the_quiz_masters_next(page, lab_server):
    solution, wrong = first_answers()
    serve_quiz(lab_server, page, "quiz-paced", "Rules(paced=True)")
    for colours in (solution, wrong):
        for colour in colours:
            page.click(f"[data-colour='{colour}']")
        page.click("[data-action='lock']")
    expect(page.locator("[data-testid='reveal']")).to_be_visible()
    expect(page.locator("[data-testid='question']")).to_have_count(0)
    page.click("[data-action='next']")
    expect(page.locator("[data-testid='question']")).to_be_visible()
    expect(page.locator("[data-testid='number']")).to_have_text("Question 2")


def test_a_paced_quiz_drawn_while_a_reveal_waits_shows_the_reveal_not_the_next_question(page, lab_server):
    solution, wrong = first_answers()
    serve_quiz(
        lab_server,
        page,
        "quiz-paced-drawn",
        "Rules(paced=True)",
        f"quiz.play(Answer(0, {tuple(solution)!r}))\nquiz.play(Answer(1, {tuple(wrong)!r}))\nquiz.refresh()\n",
    )
    expect(page.locator("[data-testid='reveal']")).to_be_visible()
    expect(page.locator("[data-testid='number']")).to_have_text("Question 1")
    expect(page.locator("[data-testid='question']")).to_have_count(0)
    page.click("[data-action='next']")
    expect(page.locator("[data-testid='number']")).to_have_text("Question 2")


def test_the_quiz_has_no_accessibility_problems_in_either_palette_while_asking_copying_and_revealing(page, lab_server):
    solution, _ = first_answers()
    serve_quiz(lab_server, page, "quiz-axe")
    page.click(f"[data-colour='{solution[0]}']")
    found = {"question": problems_in_both_palettes(page, ".colourbrain")}
    for colour in solution[1:]:
        page.click(f"[data-colour='{colour}']")
    page.click("[data-action='lock']")
    page.check("[data-action='copier']")
    for colour in solution[1:]:
        page.click(f"[data-colour='{colour}']")
    page.click("[data-action='lock']")
    expect(page.locator(".colourbrain-copy")).to_be_visible()
    found["copying"] = problems_in_both_palettes(page, ".colourbrain")
    page.click(f"[data-copy='1-{solution[0]}']")
    expect(page.locator("[data-testid='reveal']")).to_be_visible()
    found["reveal"] = problems_in_both_palettes(page, ".colourbrain")
    clean = {"default": [], "colour-blind-safe": []}
    assert found == {"question": clean, "copying": clean, "reveal": clean}

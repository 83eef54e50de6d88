"""What a learner or the teacher does in a page of the lessons, as several browser tests do it."""

from __future__ import annotations

import re

from playwright.sync_api import expect

# A lobby's first load starts its kernel and runs the notebook: slow on a busy machine.
FIRST_LOAD_MS = 120_000
TEACHER_KEY = "chalk-and-42-crayons"
TEACHER_VIEWPORT = {"width": 1200, "height": 1000}


def type_name(page, name: str) -> None:
    """Type the learner's name in the lobby and wait for its greeting."""
    page.locator("[data-key='name']").fill(name)
    page.locator("[data-key='name']").press("Enter")
    expect(page.locator(".lobby-hello")).to_contain_text(f"Hello, {name}!")


def choose_a_card_that_fits(widget) -> None:
    """Click cards of the widget's hand until one lights a cell of the table."""
    for card in widget.locator("[data-card]").all():
        card.click()
        if widget.locator("[data-legal]").count():
            return
    raise AssertionError("no card of the hand fits anywhere")


def makes_a_move(game) -> None:
    """Place a card that fits, or pass when none does (the table's deal is random)."""
    if game.locator("[data-action='pass']").is_enabled():
        game.locator("[data-action='pass']").click()
    else:
        choose_a_card_that_fits(game)
        game.locator("[data-legal]").first.click()


def draft_by_clicking(page):
    """Take whichever allowed die comes first, each time it is our pick, until the drawing starts."""
    phase = page.locator("[data-testid='phase']")
    step = page.locator("[data-testid='step']")
    for _ in range(10):
        expect(phase).to_have_text(re.compile("your pick|drawing"), timeout=15_000)
        if phase.inner_text() == "drawing":
            return
        before = step.inner_text()
        page.locator("[data-die]:not([disabled])").first.click()
        expect(step).not_to_have_text(before)  # Python has taken the pick before we look again
    raise AssertionError("the draft never ended")


def open_with_the_key(page, url, board=".colorlab.teacher"):
    """Open the teacher's page (or another page behind the teacher key) and type the key; return the page's widget."""
    page.goto(url)
    board = page.locator(board)
    expect(board.locator("[data-testid='key-form']")).to_be_visible(timeout=120_000)
    board.locator("[data-key='teacher-key']").fill(TEACHER_KEY)
    board.locator("[data-action='unlock']").click()
    return board

"""The ColorFox widget in a real browser: place a card by clicking, see sticks arrive, exchange."""

from __future__ import annotations

import nbformat
from playwright.sync_api import expect

from colorlab.colorfox import GreedyBot
from colorlab.colorfox.view import ColorFoxGame
from tests.browser.lab import open_notebook, run_all

PYTHON3 = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}
SEED = 31


def serve_table(lab_server, page, name, saved=None):
    """Open a notebook showing a ColorFox table (loaded from a saved game when given)."""
    lines = ["from colorlab.colorfox.view import ColorFoxGame", f"game = ColorFoxGame(bots=1, seed={SEED})"]
    if saved is not None:
        (lab_server.root / f"{name}.json").write_text(saved)
        lines += [f"game.load_text(open('{name}.json').read())", "game.refresh()"]
    lines.append("game")
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("\n".join(lines))], metadata=PYTHON3)
    nbformat.write(notebook, lab_server.root / f"{name}.ipynb")
    open_notebook(page, lab_server, f"{name}.ipynb")
    run_all(page)
    expect(page.locator(".colorfox")).to_be_visible()


def test_placing_a_card_by_clicking_brings_sticks(page, lab_server):
    game = ColorFoxGame(bots=1, seed=SEED)
    card, x, y, _ = game.view["legal"][0]
    serve_table(lab_server, page, "fox-place")
    page.click(f"[data-card='{card}']")
    expect(page.locator("[data-legal]").first).to_be_visible()
    page.click(f"[data-legal='{x},{y}']")
    expect(page.locator("[data-score='0']")).not_to_have_text("0")
    expect(page.locator("[data-sets='0'] svg").first).to_be_visible()
    expect(page.locator(f".colorfox-cell[data-x='{x}'][data-y='{y}']")).to_be_visible()
    expect(page.locator("[data-testid='turn']")).to_have_text("your turn", timeout=10_000)


def a_game_waiting_for_my_exchange():
    """A saved game in which seat 0 has just connected two or more colours."""
    for seed in range(SEED, SEED + 80):
        game = ColorFoxGame(bots=1, seed=seed)
        me = GreedyBot(seed=seed)
        while not game.state.over and not (game.state.exchanges_left and game.state.active == 0):
            if game.state.active == 0:
                game.play(me.act(game.state, 0))
            else:
                game.bot_move()
        if not game.state.over:
            return game
    raise AssertionError("no exchange came up")


def test_an_exchange_by_clicking(page, lab_server):
    game = a_game_waiting_for_my_exchange()
    state = game.state
    give = next(c for c, n in zip(["red", "orange", "yellow", "green", "blue", "purple"], state.sticks[0]) if n)
    take = next(c for c, n in zip(["red", "orange", "yellow", "green", "blue", "purple"], state.sticks[1])
                if n and c != give)
    serve_table(lab_server, page, "fox-exchange", game.record.to_json())
    panel = page.locator("[data-testid='exchange']")
    expect(panel).to_be_visible()
    page.click(f"[data-action='give-{give}']")
    page.click(f"[data-action='take-{take}']")
    page.click("[data-action='exchange']")
    expect(page.locator("[data-testid='notice']")).to_contain_text(f"gives {give}")
    expect(page.locator("[data-testid='notice']")).to_contain_text(f"takes {take}")


def test_a_card_can_be_placed_with_the_keyboard(page, lab_server):
    game = ColorFoxGame(bots=1, seed=SEED)
    card, x, y, _ = game.view["legal"][0]
    serve_table(lab_server, page, "fox-keys")
    page.focus(f"[data-card='{card}']")
    page.keyboard.press("Enter")
    page.focus(f"[data-legal='{x},{y}']")
    page.keyboard.press("Enter")
    expect(page.locator(f".colorfox-cell[data-x='{x}'][data-y='{y}']")).to_be_visible()

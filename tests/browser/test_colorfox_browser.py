"""The ColorFox widget in a real browser: place a card by clicking, see sticks arrive, exchange; WCAG checks."""

from __future__ import annotations

import nbformat
from playwright.sync_api import expect

from colorlab.colorfox import GreedyBot, Rules, model
from colorlab.colorfox.view import ColorFoxGame
from tests.helpers.lab import open_notebook, problems_in_both_palettes, run_all

PYTHON3 = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}
SEED = 31


def serve_table(lab_server, page, name, saved=None, bot="SetBuilder", then=()):
    """Open a notebook showing a ColorFox table against one bot (loaded from a saved game when given; `then`: more
    lines run before the table is shown)."""
    lines = [
        "from colorlab.colorfox.view import ColorFoxGame",
        f"game = ColorFoxGame(bots=1, bot={bot!r}, seed={SEED})",
    ]
    if saved is not None:
        (lab_server.root / f"{name}.json").write_text(saved)
        lines += [f"game.load_text(open('{name}.json').read())", "game.refresh()"]
    lines += [*then, "game"]
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


def test_a_move_the_kernel_takes_a_while_over_shows_it_is_being_worked_on(page, lab_server):
    game = ColorFoxGame(bots=1, seed=SEED)
    card, x, y, _ = game.view["legal"][0]
    slowly = [  # a kernel busy for a second and a half at each click, as a full class server may be
        "import time",
        "played = game.handle",
        "game.handle = lambda intent: (time.sleep(1.5), played(intent))",
    ]
    serve_table(lab_server, page, "fox-slow", then=slowly)
    busy = page.locator(".colorfox [data-testid='busy']")
    expect(busy).to_be_hidden()
    page.click(f"[data-card='{card}']")
    page.click(f"[data-legal='{x},{y}']")
    expect(busy).to_be_visible()
    expect(busy).to_have_text("Working on it…")
    expect(page.locator("[data-score='0']")).not_to_have_text("0")
    expect(busy).to_be_hidden()


def a_game_waiting_for_me(rules=None, wanted=lambda state: state.exchanges_left and state.active == 0):
    """A game (seat 0 played by a greedy bot) stopped at the first moment `wanted` holds."""
    for seed in range(SEED, SEED + 80):
        game = ColorFoxGame(rules, bots=1, seed=seed)
        me = GreedyBot(seed=seed)
        while not game.state.over and not wanted(game.state):
            if model.to_move(game.state) == 0:
                game.play(me.act(game.state, 0))
            else:
                game.bot_move()
        if not game.state.over:
            return game
    raise AssertionError("the wanted moment never came")


def test_an_exchange_by_clicking(page, lab_server):
    game = a_game_waiting_for_me()
    state = game.state
    give = next(c for c, n in zip(["red", "orange", "yellow", "green", "blue", "purple"], state.sticks[0]) if n)
    take = next(
        c for c, n in zip(["red", "orange", "yellow", "green", "blue", "purple"], state.sticks[1]) if n and c != give
    )
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


OPPONENT_PICKS = Rules(players=2, exchange_pick="opponent")


def test_with_the_opponent_picking_i_offer_and_the_bot_chooses(page, lab_server):
    game = a_game_waiting_for_me(
        OPPONENT_PICKS,
        lambda state: (
            state.active == 0 and any(isinstance(action, model.Offer) for action in model.legal_actions(state))
        ),
    )
    offer = next(action for action in model.legal_actions(game.state) if isinstance(action, model.Offer))
    serve_table(lab_server, page, "fox-offer", game.record.to_json())
    expect(page.locator("[data-action^='take-']")).to_have_count(0)
    page.click(f"[data-action='give-{offer.give}']")
    page.click("[data-action='offer']")
    expect(page.locator("[data-testid='offer']")).to_contain_text("is choosing")
    expect(page.locator("[data-testid='notice']")).to_contain_text("hands back", timeout=10_000)
    expect(page.locator("[data-testid='notice']")).to_contain_text(f"who gave {offer.give}")


def test_when_a_bot_offers_me_a_stick_i_choose_what_to_hand_back(page, lab_server):
    game = a_game_waiting_for_me(OPPONENT_PICKS, lambda state: state.offer is not None and state.offer.opponent == 0)
    back = model.legal_actions(game.state)[0].colour
    serve_table(lab_server, page, "fox-hand-back", game.record.to_json())
    expect(page.locator("[data-testid='turn']")).to_have_text("your choice: hand back a stick")
    expect(page.locator(f"[data-action='hand-back-{game.state.offer.give}']")).to_have_count(0)
    page.click(f"[data-action='hand-back-{back}']")
    expect(page.locator("[data-testid='notice']")).to_contain_text(f"You: hands back {back}")


def test_the_table_has_no_accessibility_problems_in_either_palette(page, lab_server):
    game = a_game_waiting_for_me(OPPONENT_PICKS, lambda state: state.offer is not None and state.offer.opponent == 0)
    serve_table(lab_server, page, "fox-axe", game.record.to_json())
    expect(page.locator("[data-testid='offer']")).to_be_visible()
    found = {"offered a stick": problems_in_both_palettes(page, ".colorfox")}
    page.click("[data-action^='hand-back-']")
    expect(page.locator("[data-testid='turn']")).to_have_text("your turn", timeout=15_000)
    page.click("[data-card]")
    expect(page.locator("[data-card][aria-pressed='true']")).to_have_count(1)
    found["card chosen"] = problems_in_both_palettes(page, ".colorfox")
    clean = {"default": [], "colour-blind-safe": []}
    assert found == {"offered a stick": clean, "card chosen": clean}


def test_a_card_that_fits_nowhere_says_so(page, lab_server):
    game = ColorFoxGame(bots=1, seed=SEED)
    fitting = {card for card, *_ in game.view["legal"]}
    nowhere = next(card["number"] for card in game.view["hand"] if card["number"] not in fitting)
    serve_table(lab_server, page, "fox-nowhere")
    page.click(f"[data-card='{nowhere}']")
    expect(page.locator("[data-testid='tip']")).to_have_text(
        "This card fits nowhere on the table; try another, or pass if none fits."
    )
    expect(page.locator("[data-legal]")).to_have_count(0)
    page.click(f"[data-card='{next(iter(fitting))}']")
    expect(page.locator("[data-testid='tip']")).to_have_text("Click a lit cell to place the card.")


def test_the_players_table_has_headings_a_legend_and_the_new_card_is_marked(page, lab_server):
    game = ColorFoxGame(bots=1, seed=SEED)
    card, x, y, _ = game.view["legal"][0]
    serve_table(lab_server, page, "fox-marks")
    headings = page.locator(".colorfox-players thead th[scope='col']")
    expect(headings).to_have_text(["Player", "Points", "Cards in hand", "Sticks, in sets"])
    expect(page.locator("[data-testid='sets-legend']")).to_contain_text("1+2+3+4+5+6 = 21")
    expect(page.locator(".colorfox-cell.is-last")).to_have_count(0)
    page.click(f"[data-card='{card}']")
    page.click(f"[data-legal='{x},{y}']")
    expect(page.locator(f".colorfox-cell.is-last[data-x='{x}'][data-y='{y}']")).to_have_attribute("data-last", "You")
    expect(page.locator(".colorfox-cell.is-last")).to_have_attribute("data-last", "Bot 1", timeout=15_000)
    expect(page.locator(".colorfox-cell.is-last")).to_have_count(1)


def test_a_search_bot_opponent_answers_my_card(page, lab_server, artifacts):
    game = ColorFoxGame(bots=1, bot="SearchBot (quick)", seed=SEED)
    card, x, y, _ = game.view["legal"][0]
    serve_table(lab_server, page, "fox-search", bot="SearchBot (quick)")
    expect(page.locator(".colorfox-players")).to_contain_text("Bot 1 (SearchBot, quick)")
    page.click(f"[data-card='{card}']")
    page.click(f"[data-legal='{x},{y}']")
    expect(page.locator(".colorfox-cell.is-last")).to_have_attribute("data-last", "Bot 1", timeout=20_000)
    expect(page.locator("[data-testid='turn']")).to_have_text("your turn", timeout=20_000)
    page.locator(".colorfox").screenshot(path=artifacts / "colorfox-search-bot.png")

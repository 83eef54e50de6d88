"""The Colorium widget in a real browser: draft by clicking, draw by keyboard and by click; WCAG checks."""

from __future__ import annotations

import re

import nbformat
from playwright.sync_api import expect

from colorlab.colorium import Rules, legal_wilds, play_game
from colorlab.record import GameRecord
from tests.helpers.lab import open_notebook, problems_in_both_palettes, run_all
from tests.helpers.page_actions import draft_by_clicking

PYTHON3 = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}
SEED = 3


def serve_table(lab_server, page, name, rules="None", bot="MissionBot"):
    """Open a notebook showing a two-player Colorium table against one bot (with these rules, written as Python)."""
    code = (
        "from colorlab.colorium import Rules\nfrom colorlab.colorium.view import ColoriumGame\n"
        f"game = ColoriumGame({rules}, bots=1, bot={bot!r}, seed={SEED})\ngame"
    )
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)], metadata=PYTHON3)
    nbformat.write(notebook, lab_server.root / f"{name}.ipynb")
    open_notebook(page, lab_server, f"{name}.ipynb")
    run_all(page)
    expect(page.locator(".colorium")).to_be_visible()


def filled_cells(page) -> int:
    return page.locator(".colorium-board:not(.is-small) .colorium-cell:not(.is-empty):not(.is-ghost)").count()


def test_draft_then_draw_with_the_keyboard(page, lab_server):
    serve_table(lab_server, page, "colorium-keys")
    draft_by_clicking(page)
    expect(page.locator(".colorium-cell.is-ghost").first).to_be_visible()
    before = filled_cells(page)
    page.focus(".colorium")
    page.keyboard.press("r")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    expect(page.locator("[data-testid='notice']")).to_contain_text("You: draws")
    assert filled_cells(page) > before


def test_draft_then_draw_by_clicking_a_cell(page, lab_server):
    serve_table(lab_server, page, "colorium-click")
    draft_by_clicking(page)
    ghost = page.locator(".colorium-cell.is-ghost").first
    expect(ghost).to_be_visible()
    ghost.click()
    expect(page.locator("[data-testid='notice']")).to_contain_text("You: draws")


CLEAN = {"default": [], "colour-blind-safe": []}


def test_no_accessibility_problems_in_either_palette_while_drafting_drawing_and_scoring(
    page, lab_server, tmp_path, artifacts
):
    serve_table(lab_server, page, "colorium-axe")
    found = {"draft": problems_in_both_palettes(page, ".colorium")}
    draft_by_clicking(page)
    expect(page.locator(".colorium-cell.is-ghost").first).to_be_visible()
    found["drawing"] = problems_in_both_palettes(page, ".colorium")
    page.locator(".colorium").screenshot(path=artifacts / "colorium-drawing.png")
    finished = tmp_path / "finished.json"
    finished.write_text(play_game(Rules(players=3), seed=5).to_json())
    page.locator("[data-key='load']").set_input_files(finished)
    expect(page.locator("[data-testid='final']")).to_be_visible()
    found["final scores"] = problems_in_both_palettes(page, ".colorium")
    page.locator(".colorium").screenshot(path=artifacts / "colorium-final.png")
    assert found == {"draft": CLEAN, "drawing": CLEAN, "final scores": CLEAN}


def test_a_wild_space_is_filled_by_clicking_with_no_accessibility_problems(page, lab_server, tmp_path):
    serve_table(lab_server, page, "colorium-wild")
    record = play_game(Rules(players=2), seed=3)
    step = next(
        i
        for i, state in enumerate(record.states())
        if state.phase == "draw" and not state.drawn[0] and legal_wilds(state, 0)
    )
    saved = tmp_path / "wild.json"
    saved.write_text(GameRecord("colorium", record.rules, record.seed, record.actions[:step]).to_json())
    page.locator("[data-key='load']").set_input_files(saved)
    page.locator("[data-key='wild']").click()
    page.locator("[data-key='wild-colour']").select_option("P")
    assert problems_in_both_palettes(page, ".colorium") == CLEAN
    page.locator(".colorium-board:not(.is-small) .colorium-cell.is-empty").first.click()
    expect(page.locator("[data-testid='notice']")).to_contain_text("with purple (wild bonus)")


def test_a_legend_explains_the_numbers_and_tags_and_no_mirror_when_the_rules_forbid_it(page, lab_server):
    serve_table(lab_server, page, "colorium-legend", "Rules(players=2, mirror_images=False)")
    legend = page.locator("[data-testid='legend']")
    expect(legend).to_be_visible()
    expect(legend).to_contain_text("10/5 means 10 points for the first, 5 for the second")
    expect(legend).to_contain_text("★ wild: fill any one empty space")
    draft_by_clicking(page)
    ghost = page.locator(".colorium-cell.is-ghost")
    expect(ghost.first).to_be_visible()
    expect(page.locator("[data-action='turn']")).to_be_visible()
    expect(page.locator("[data-action='mirror']")).to_have_count(0)
    before = [ghost.nth(i).get_attribute("data-cell") for i in range(ghost.count())]
    page.focus(".colorium")
    page.keyboard.press("m")
    assert [ghost.nth(i).get_attribute("data-cell") for i in range(ghost.count())] == before
    assert problems_in_both_palettes(page, ".colorium") == CLEAN


def test_a_search_bot_opponent_drafts_and_draws_with_me(page, lab_server, artifacts):
    serve_table(lab_server, page, "colorium-search", bot="SearchBot (quick)")
    expect(page.locator(".colorium")).to_contain_text("Bot 1 (SearchBot, quick)")
    draft_by_clicking(page)
    page.locator(".colorium-cell.is-ghost").first.click()
    expect(page.locator("[data-testid='notice']")).to_contain_text("You: draws")
    expect(page.locator("[data-testid='phase']")).to_have_text(re.compile("your pick|the draft"), timeout=20_000)
    page.locator(".colorium").screenshot(path=artifacts / "colorium-search-bot.png")

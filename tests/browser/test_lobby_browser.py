"""The classroom lobby served by Voila, with learners in browser contexts of their own (each its own storage).

Ada opens a ColorFox table for two; Bo, with the keyboard only, first mistypes the code, then joins with the
code Ada's page shows large. Both see their own game widget; Ada moves, and Bo's page, reloaded, comes back
to Bo's seat by itself (the seat key kept in Bo's browser) and shows Ada's move. Ada then sits down again on
another device with the code and the seat key her page shows. The lobby's screenshot goes to the docs.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from colorlab.tables import TableStore
from tests.helpers.chromium import VIEWPORT, keep_on_loopback
from tests.helpers.lab import accessibility_violations, left_for_review
from tests.helpers.page_actions import FIRST_LOAD_MS, makes_a_move, type_name
from tests.helpers.servers import NOTEBOOKS, Server, class_template, free_port, jupyter_env

LOBBY = Path("classroom") / "lobby.ipynb"


@pytest.fixture
def lobby_server(tmp_path):
    """Voila serving a copy of the lobby, its kernels told where the class's tables are; (address, store path)."""
    root = tmp_path / "notebooks"
    shutil.copytree(NOTEBOOKS, root)
    tables = tmp_path / "tables" / "class.db"
    env = {**jupyter_env(tmp_path), "COLORLAB_TABLES": str(tables)}
    port = free_port()
    command = [
        str(Path(sys.executable).with_name("voila")),
        str(root / LOBBY),
        "--no-browser",
        f"--port={port}",
        "--Voila.ip=127.0.0.1",
        "--Voila.port_retries=0",
        "--VoilaConfiguration.show_tracebacks=True",
        *class_template(env),
    ]
    server = Server(command, env, tmp_path / "voila.log")
    url = f"http://127.0.0.1:{port}/"
    server.wait_until_answering(f"{url}voila/ready-probe")
    yield url, tables
    server.stop()


def learner_page(browser, url: str):
    """A new learner: a browser context of their own (cookies, storage) with the lobby open in it."""
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.route("**/*", keep_on_loopback)
    page.goto(url)
    expect(page.locator(".colorlab-lobby")).to_be_visible(timeout=FIRST_LOAD_MS)
    return page


def open_a_colorfox_table_for_two(page, artifacts: Path) -> str:
    """Open a ColorFox table with a free seat for another learner; return the code the page shows."""
    page.locator("[data-key='new-table']").click()
    page.locator("[data-key='game-colorfox']").check()
    expect(page.locator(".widget-vbox h3").filter(has_text="ColorFox rules")).to_be_visible()
    next_step = page.get_by_role("button", name="Next: who sits where")
    next_step.scroll_into_view_if_needed()
    page.screenshot(path=artifacts / "classroom-rules.png")
    next_step.click()
    expect(page.locator("[data-key='kind-1']")).to_have_value("learner")
    page.locator(".colorlab-lobby").screenshot(path=artifacts / "classroom-seats.png")
    page.locator("[data-key='open']").click()
    code = page.locator("[data-testid='code']")
    expect(page.locator(".colorlab.colorfox")).to_be_visible(timeout=30_000)
    return code.inner_text().strip()


SWITCH_SEEN = """() => {
    window.switchSeen = false;
    new MutationObserver(() => {
        if (document.querySelector("[data-testid='switching']")) window.switchSeen = true;
    }).observe(document.body, {subtree: true, childList: true});
}"""


def test_switching_game_says_so_dims_the_old_rules_and_then_shows_the_new_games_rules(browser, lobby_server):
    url, _ = lobby_server
    page = learner_page(browser, url)
    type_name(page, "Ada")
    page.locator("[data-key='new-table']").click()
    expect(page.locator(".widget-vbox h3").filter(has_text="ColorFox rules")).to_be_visible()
    page.evaluate(SWITCH_SEEN)
    page.locator("[data-key='game-colourbrain']").check()
    expect(page.locator(".widget-vbox h3").filter(has_text="Colourbrain rules")).to_be_visible()
    expect(page.locator("[data-testid='switching']")).to_have_count(0)
    assert page.evaluate("() => window.switchSeen"), "the page did not say it was getting the rules ready"
    assert not page.evaluate("() => document.body.classList.contains('colorlab-switching-game')")
    expect(page.locator(".widget-vbox h3").filter(has_text="ColorFox rules")).to_have_count(0)
    expect(page.locator("[data-key='game-colourbrain']")).to_be_checked()


def test_two_learners_meet_at_a_table_by_its_code_and_a_reload_comes_back_to_the_seat(
    browser, lobby_server, artifacts, docs_picture
):
    url, tables = lobby_server
    ada = learner_page(browser, url)
    type_name(ada, "Ada")
    code = open_a_colorfox_table_for_two(ada, artifacts)
    assert len(code) == 5
    expect(ada.locator(".colorlab.colorfox [data-testid='seating']")).to_contain_text("you play as Ada")

    bo = learner_page(browser, url)
    type_name(bo, "Bo")
    code_field = bo.locator("[data-key='code']")
    expect(code_field).to_be_focused()
    bo.keyboard.type(code.lower())
    bo.evaluate("() => document.activeElement.blur()")
    bo.locator(".colorlab-lobby").screenshot(path=docs_picture("classroom-lobby.png"))
    assert not accessibility_violations(bo, ".colorlab-lobby") + left_for_review(bo, ".colorlab-lobby")
    code_field.fill("ZZZZZ")
    code_field.press("Enter")
    expect(bo.locator(".colorlab-lobby [data-testid='notice']")).to_contain_text("No table has the code ZZZZZ")
    code_field.fill(code.lower())
    code_field.press("Enter")
    seats = bo.locator("[data-testid='seats']")
    expect(seats.locator("[data-seat='0']")).to_contain_text("Seat 1: Ada")
    expect(seats.locator("[data-seat='1']")).to_contain_text("free")
    bo.locator(".colorlab-lobby").screenshot(path=artifacts / "classroom-pick.png")
    expect(bo.locator("[data-key='sit-1']")).to_be_focused()
    bo.keyboard.press("Enter")
    bo_game = bo.locator(".colorlab.colorfox")
    expect(bo_game.locator("[data-testid='seating']")).to_contain_text("you play as Bo")
    expect(bo_game.locator("[data-testid='turn']")).to_have_text("Ada to move")
    expect(bo.locator("[data-testid='code']")).to_have_text(code)
    bo.evaluate("() => document.activeElement.blur()")
    bo.screenshot(path=artifacts / "classroom-seated.png", full_page=True)
    assert not accessibility_violations(bo, ".colorlab-lobby") + left_for_review(bo, ".colorlab-lobby")

    ada_game = ada.locator(".colorlab.colorfox")
    expect(ada_game.locator("[data-testid='turn']")).to_have_text("your turn")
    makes_a_move(ada_game)
    expect(bo_game.locator(".colorfox-events")).to_contain_text("Ada", timeout=5_000)

    bo.locator(".lobby-back-box summary").click()
    key = bo.locator("[data-testid='seat-key']").inner_text()
    kept = bo.evaluate(f"() => JSON.parse(localStorage.getItem('colorlab-seat-{code}'))")
    assert len(key) == 6 and len(kept["token"]) >= 40  # the short key to copy; only the long token stays
    assert key not in json.dumps(bo.evaluate("() => ({...localStorage})")), "the browser kept the seat key"
    bo.reload()  # the same tab sat there itself: it comes back to the seat without asking
    expect(bo.locator(".colorlab-lobby")).to_be_visible(timeout=FIRST_LOAD_MS)
    bo_game = bo.locator(".colorlab.colorfox")
    expect(bo_game.locator("[data-testid='seating']")).to_contain_text("you play as Bo", timeout=30_000)
    expect(bo_game.locator(".colorfox-events")).to_contain_text("Ada")
    expect(bo.locator(".colorlab-lobby [data-testid='notice']")).to_contain_text("Welcome back, Bo")
    bo.locator(".lobby-back-box summary").click()
    expect(bo.locator("[data-testid='seat-key']")).to_have_count(0)  # a reloaded page shows no key of its own
    bo.locator("[data-action='new-key']").click()  # one made anew on request, shown here and kept nowhere
    expect(bo.locator("[data-testid='seat-key']")).to_have_text(re.compile(r"^[A-Z0-9]{6}$"))
    renewed = bo.locator("[data-testid='seat-key']").inner_text()
    assert renewed != key and renewed not in json.dumps(bo.evaluate("() => ({...localStorage, ...sessionStorage})"))
    bo.screenshot(path=artifacts / "lobby-new-seat-key.png")

    # The next learner at Bo's device opens the lobby in a new tab: asked first, and Bo's seat is forgotten.
    next_learner = bo.context.new_page()
    next_learner.route("**/*", keep_on_loopback)
    next_learner.goto(bo.url)
    expect(next_learner.locator(".lobby-confirm")).to_contain_text("Are you Bo?", timeout=FIRST_LOAD_MS)
    expect(next_learner.locator(".colorlab.colorfox")).to_have_count(0)
    next_learner.screenshot(path=artifacts / "lobby-are-you-bo.png")
    next_learner.locator("[data-action='someone-else']").click()
    expect(next_learner.locator("[data-key='name']")).to_be_visible()
    assert next_learner.evaluate(f"() => localStorage.getItem('colorlab-seat-{code}')") is None
    next_learner.close()
    seated = next(table for table in TableStore(tables).tables() if table["code"] == code)["seats"]
    assert [seat["name"] for seat in seated] == ["Ada", "Bo"]

    ada.locator(".lobby-back-box summary").click()
    ada_key = ada.locator("[data-testid='seat-key']").inner_text()
    phone = learner_page(browser, url)
    phone.locator(".lobby-back-box summary").click()
    phone.locator("[data-key='rejoin-code']").fill(code)
    phone.locator("[data-key='key']").fill(ada_key)
    phone.locator("[data-key='key']").press("Enter")
    expect(phone.locator(".colorlab.colorfox [data-testid='seating']")).to_contain_text("you play as Ada")
    expect(phone.locator(".colorlab.colorfox [data-testid='turn']")).to_have_text("Bo to move")

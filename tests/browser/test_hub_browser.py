"""colorlab on a real JupyterHub: a learner logs in on the hub's own page, the hub starts her own single-user server,
and Voila, as that server's extension, shows her a lesson with its game; another learner cannot open her server.

Her own server holds no database: a class's shared tables come from the class's service (tests in
test_school_hub_browser.py), since a learner can run any code in her own server.

The hub, its proxy and the users' servers are started and stopped by the test, on loopback ports.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.helpers.hub import PASSWORD, Hub
from tests.helpers.page_actions import FIRST_LOAD_MS
from tests.helpers.servers import NOTEBOOKS

LESSON = "voila/render/10-colorfox-play.ipynb"


@pytest.fixture
def hub(tmp_path) -> Iterator[Hub]:
    notebooks = tmp_path / "notebooks"
    shutil.copytree(NOTEBOOKS, notebooks)
    running = Hub(tmp_path / "hub", notebooks, {})
    yield running
    running.stop()


def log_in(page, hub: Hub, user: str) -> None:
    """Log in on the hub's own login page, as a learner does."""
    page.goto(f"{hub.url}hub/login")
    page.locator("#username_input").fill(user)
    page.locator("#password_input").fill(PASSWORD)
    page.locator("#login_submit").click()
    page.wait_for_url(f"{hub.url}**", wait_until="commit")


def test_a_learner_logs_in_on_the_hub_and_her_own_server_shows_a_lesson_which_another_learner_cannot_open(hub, browser):
    ada = browser.new_context().new_page()
    log_in(ada, hub, "ada")
    ada.goto(f"{hub.url}hub/spawn")
    ada.wait_for_url(f"{hub.url}user/ada/**", timeout=FIRST_LOAD_MS)
    ada.goto(f"{hub.url}user/ada/{LESSON}")
    game = ada.locator(".colorlab.colorfox").first
    expect(game).to_be_visible(timeout=FIRST_LOAD_MS)
    expect(game.locator("[data-testid='turn']")).to_have_text("your turn")
    bo = browser.new_context().new_page()
    log_in(bo, hub, "bo")
    answer = bo.goto(f"{hub.url}user/ada/{LESSON}")
    # the hub itself refuses: Ada's server lets in only those the hub authorizes for it
    assert answer is not None and answer.status == 403 and "/hub/api/oauth2/authorize" in bo.url, bo.url
    assert bo.locator(".colorlab").count() == 0

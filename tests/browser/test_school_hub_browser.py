"""A school on a real JupyterHub: two classes, each a service of the hub, their tables in one PostgreSQL database.

The hub (dummy authenticator, local-process spawner), its proxy from npm, the classes' services and PostgreSQL are
started and stopped by the tests, as `colorlab.classroom.school.school` configures a school's hub. Class 7b: Lee
teaches Ada, Bo and Cy; class 8a: Kim and Lee teach Dan. Each of 7b's learners and its teacher logs in from a device of
their own (a network namespace with its own chromium, reaching the hub over its veth); the hub starts each one's own
server, and each opens the class's pages from the class's service.
"""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from colorlab.colorfox.model import scores as colorfox_scores
from colorlab.tables import TableStore
from tests.browser.test_classroom_browser import (
    colorfox_turn,
    devices,  # noqa: F401  (a fixture: each learner's device)
    open_table,
    opened_afresh_at_the_seat,
    play_colorfox_to_the_end,
    shown_scores,
    step_of,
)
from tests.helpers.hub import PASSWORD, Hub
from tests.helpers.page_actions import FIRST_LOAD_MS
from tests.helpers.servers import NOTEBOOKS

CLASSES = {
    "7b": {"teachers": ["lee"], "learners": ["ada", "bo", "cy"]},
    "8a": {"teachers": ["kim", "lee"], "learners": ["dan"]},
}
SERVICE = "/services/colorlab-{}/voila/render/classroom/{}.ipynb"
LESSON_50 = "/user/lee/voila/render/50-our-class.ipynb"


@pytest.fixture(scope="module")
def school(tmp_path_factory, postgres_server) -> Iterator[tuple[Hub, str]]:
    """The school's hub, listening where the devices reach it, and its database's URL."""
    home = tmp_path_factory.mktemp("school")
    notebooks = home / "notebooks"
    shutil.copytree(NOTEBOOKS, notebooks, ignore=shutil.ignore_patterns("class-records*.zip"))
    database = postgres_server.new_database()
    hub = Hub(home / "hub", notebooks, {}, school=(database, CLASSES), ip="0.0.0.0")
    yield hub, database
    hub.stop()
    postgres_server.drop_database(database)


def log_in(page, user: str) -> None:
    """Log in on the hub's own page, as a learner does; the hub starts the user's own server."""
    page.goto("/hub/login")
    page.locator("#username_input").fill(user)
    page.locator("#password_input").fill(PASSWORD)
    page.locator("#login_submit").click()
    page.wait_for_url(f"**/user/{user}/**", wait_until="commit", timeout=FIRST_LOAD_MS)


def open_the_lobby(page, user: str, class_name: str = "7b") -> None:
    """Open the class's lobby from its service: it greets the learner by their hub name, with nothing to type."""
    page.goto(SERVICE.format(class_name, "lobby"), wait_until="commit")
    expect(page.locator(".lobby-hello")).to_have_text(f"Hello, {user}!", timeout=FIRST_LOAD_MS)
    assert page.locator("[data-key='name']").count() == 0


def sit_down(page, code: str, seat: int) -> None:
    page.locator("[data-key='code']").fill(code)
    page.locator("[data-key='code']").press("Enter")
    page.locator(f"[data-key='sit-{seat}']").click()
    expect(page.locator("[data-testid='you']")).to_contain_text(f"at seat {seat + 1}")


def test_a_learner_of_one_class_can_neither_open_nor_join_nor_download_another_class(school, browser):
    hub, database = school
    seven = TableStore(database, "7b")
    code = seven.create("colorfox", seed=5)
    seven.engine.dispose()
    dan = browser.new_context(base_url=hub.url.rstrip("/")).new_page()
    log_in(dan, "dan")
    answer = dan.goto(SERVICE.format("7b", "lobby"))
    assert answer is not None and answer.status == 403, dan.url  # the hub lets only 7b's members in
    assert dan.locator(".colorlab-lobby").count() == 0
    assert dan.request.get("/services/colorlab-7b/records.zip").status == 403
    open_the_lobby(dan, "dan", "8a")
    dan.locator("[data-key='code']").fill(code)
    dan.locator("[data-key='code']").press("Enter")
    expect(dan.locator(".colorlab-lobby [data-testid='notice']")).to_contain_text(code)
    expect(dan.locator("[data-key='new-table']")).to_be_visible()  # still in the lobby: no seats to pick from
    assert dan.locator("[data-testid^='my-game-']").count() == 0
    teacher = dan.goto(SERVICE.format("8a", "teacher"))
    assert teacher is not None and teacher.ok
    expect(dan.locator(".colorlab.teacher [data-testid='notice']")).to_contain_text(
        "for the class's teachers, and you are signed in as dan", timeout=FIRST_LOAD_MS
    )
    assert dan.locator(".colorlab.teacher [data-table]").count() == 0
    dan.context.close()
    # Lee teaches both classes: each class's teacher's page opens for him, each with its own tables only.
    lee = browser.new_context(base_url=hub.url.rstrip("/")).new_page()
    log_in(lee, "lee")
    for class_name, codes in (("7b", [code]), ("8a", [])):
        lee.goto(SERVICE.format(class_name, "teacher"), wait_until="commit")
        board = lee.locator(".colorlab.teacher")
        # open with no key: the count of the class's tables shows
        expect(board.locator("[data-testid='count']")).to_have_text(f"{len(codes)} table{'' if codes else 's'}",
                                                                    timeout=FIRST_LOAD_MS)  # fmt: skip
        assert board.locator("[data-testid='key-form']").count() == 0
        expect(board.locator("[data-table]")).to_have_count(len(codes))
        for shown in codes:
            expect(board.locator(f"[data-table='{shown}']")).to_be_visible()
    lee.context.close()


def test_a_lesson_on_the_hub_three_learners_play_colorfox_through_a_hub_restart_and_find_it_another_day(
    school,
    devices,  # noqa: F811  (the fixture imported above)
    browser,
    docs_picture,
):
    hub, database = school
    ada, bo, cy, lee = pages = devices(4, hub)
    for page, user in zip(pages, ("ada", "bo", "cy", "lee")):
        log_in(page, user)
    for page, user in zip(pages[:3], ("ada", "bo", "cy")):
        open_the_lobby(page, user)
    code = open_table(ada, "colorfox", {"Players": "3", "Sticks per colour": "2"})
    sit_down(bo, code, 1)
    sit_down(cy, code, 2)

    lee.goto(SERVICE.format("7b", "teacher"), wait_until="commit")
    row = lee.locator(f".colorlab.teacher [data-table='{code}']")  # opened for the class's teacher: no key
    expect(row).to_contain_text("ada", timeout=FIRST_LOAD_MS)
    expect(row).to_contain_text("bo")
    expect(row).to_contain_text("cy")

    games = [page.locator(".colorlab.colorfox") for page in (ada, bo, cy)]
    for _ in range(3):  # a few moves, each seen by the teacher as it is made
        step = step_of(games[0])
        mover = next(game for game in games if game.locator("[data-testid='turn']").inner_text() == "your turn")
        colorfox_turn(mover)
        for game in games:
            expect(game.locator("[data-testid='step']")).to_have_text(f"move {step + 1} (live)", timeout=10_000)
        expect(row.locator("[data-testid='moves']")).to_have_text(str(step + 1))
    before = TableStore(database, "7b")
    steps_before = before.tables([code])[0]["actions"]
    before.engine.dispose()

    for page in pages:
        page.evaluate("() => { window.beforeTheRestart = true; }")
    restarted = time.monotonic()
    hub.restart()
    for page, user in zip((ada, bo, cy), ("ada", "bo", "cy")):  # each page opens afresh by itself, at its seat
        assert opened_afresh_at_the_seat(page, user, seconds=180), f"{user}'s page did not come back by itself"
    print(f"\nback at their seats {time.monotonic() - restarted:.0f} s after the hub's restart began")
    games = [page.locator(".colorlab.colorfox") for page in (ada, bo, cy)]
    assert step_of(games[0]) == steps_before  # the game goes on from where it was
    moves = play_colorfox_to_the_end(games)
    store = TableStore(database, "7b")
    final = store.record(code).final_state()
    seen = [shown_scores(game, 3) for game in games]
    assert final.over and seen[0] == seen[1] == seen[2] == colorfox_scores(final)
    print(f"ColorFox played to the end: {steps_before} moves before the restart, {moves} after")

    # The teacher's page came back by itself too, and shows the table finished, with the same scores.
    expect(row.locator("[data-testid='state']")).to_have_text(re.compile("finished"), timeout=FIRST_LOAD_MS)
    expect(row.locator("[data-testid='scores']")).to_have_text(" : ".join(map(str, seen[0])))

    # Lesson 50 on the teacher's own server (started again: the hub's restart stopped the users' servers) reads the
    # class's records from the class's service.
    lee.goto("/hub/spawn", wait_until="commit")
    lee.wait_for_url("**/user/lee/**", wait_until="commit", timeout=FIRST_LOAD_MS)
    lee.goto(LESSON_50, wait_until="commit")
    said = lee.locator("pre", has_text="Reading our class's records from 'class-records-7b.zip'.")
    expect(said).to_contain_text(f"{len(store.tables())} tables", timeout=240_000)  # every table of 7b

    # The class's records are for its teachers: a learner of the class asks in vain.
    assert ada.request.get("/services/colorlab-7b/records.zip").status == 403

    # Another day: Ada logs out, and logs in again from a fresh browser; her game is there to look back at.
    ada.goto("/hub/logout")
    ada.context.clear_cookies()
    later = browser.new_context(base_url=hub.url.rstrip("/"), viewport={"width": 1100, "height": 900}).new_page()
    log_in(later, "ada")
    open_the_lobby(later, "ada")
    mine = later.locator(f"[data-testid='my-game-{code}']")
    expect(mine).to_contain_text("finished")
    expect(mine).to_contain_text(f"ada (you) {seen[0][0]}")
    later.screenshot(path=docs_picture("school-hub-lobby.png"))
    later.locator(f"[data-key='look-back-{code}']").click()
    looked = later.locator("[data-testid='looked']")
    expect(looked).to_contain_text(
        " · ".join(f"{name}: {points}" for name, points in zip(("ada", "bo", "cy"), seen[0]))
    )
    later.screenshot(path=docs_picture("school-hub-look-back.png"), full_page=True)
    later.context.close()
    store.engine.dispose()

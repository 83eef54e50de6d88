"""The teacher's page served by Voila as the classroom server serves it: behind the teacher key, every table live.

The class's store is a SQLite file outside the served folder (COLORLAB_TABLES) and the key is in
COLORLAB_TEACHER_KEY, as `make classroom` sets them. The learners' moves come from this test's own
process, as another kernel's would; the page must show them by itself. The test takes two pictures for the
docs (kept in docs/ with COLORLAB_DOCS_PICTURES=1): the teacher's page with two tables, and the Colourbrain
projector at a reveal.
"""

from __future__ import annotations

import random
import shutil
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from colorlab import colorfox, colourbrain
from colorlab.archive import load_records
from colorlab.colourbrain.questions import COLOURS
from colorlab.tables import TableStore
from tests.helpers.lab import accessibility_problems, accessibility_violations
from tests.helpers.page_actions import TEACHER_KEY, TEACHER_VIEWPORT, open_with_the_key
from tests.helpers.servers import NOTEBOOKS, Server, class_template, free_port, jupyter_env


@pytest.fixture
def classroom(tmp_path):
    """A Voila server of the teacher's page with its class store and key: (page address, store path)."""
    root = tmp_path / "notebooks"
    shutil.copytree(NOTEBOOKS, root)
    where = tmp_path / "store" / "class.db"
    where.parent.mkdir()
    TableStore(where).engine.dispose()
    env = {**jupyter_env(tmp_path), "COLORLAB_TABLES": str(where), "COLORLAB_TEACHER_KEY": TEACHER_KEY}
    port = free_port()
    command = [
        str(Path(sys.executable).with_name("voila")),
        str(root / "classroom" / "teacher.ipynb"),
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
    yield url, where
    server.stop()


def test_the_teacher_page_shows_two_tables_live_and_closes_one(page, classroom, tmp_path, docs_picture):
    url, where = classroom
    store = TableStore(where)
    fox = store.create("colorfox", colorfox.Rules(players=3), seed=11, bots={2: "GreedyBot"})
    ada, bo = store.join(fox, seat=0, name="Ada"), store.join(fox, seat=1, name="Bo")
    brain = store.create("colourbrain", colourbrain.Rules(teams=3), seed=12, bots={2: "QuizBot"})
    store.join(brain, seat=0, name="Reds")
    page.set_viewport_size(TEACHER_VIEWPORT)
    page.goto(url)
    board = page.locator(".colorlab.teacher")
    expect(board.locator("[data-testid='key-form']")).to_be_visible(timeout=120_000)
    assert fox not in page.content() and "Ada" not in page.content()
    board.locator("[data-key='teacher-key']").fill("chalk")
    board.locator("[data-action='unlock']").click()
    expect(board.locator("[data-testid='notice']")).to_contain_text("not the teacher key")
    assert fox not in page.content()
    board.locator("[data-key='teacher-key']").fill(TEACHER_KEY)
    board.locator("[data-action='unlock']").click()
    rows = board.locator("[data-testid='tables'] tbody tr")
    expect(rows).to_have_count(2)
    fox_row, brain_row = board.locator(f"tr[data-table='{fox}']"), board.locator(f"tr[data-table='{brain}']")
    expect(fox_row).to_contain_text("Ada")
    expect(fox_row.locator("[data-testid='turn']")).to_have_text("Ada")
    expect(brain_row.locator("[data-testid='state']")).to_have_text("waiting for 1 player")
    state = ada.state()
    ada.play(colorfox.RandomBot(seed=1).act(state, 0))
    expect(fox_row.locator("[data-testid='turn']")).not_to_have_text("Ada", timeout=3_000)
    board.locator(f"[data-key='watch-{fox}']").click()
    expect(board.locator("[data-testid='watched']")).to_contain_text(f"Watching table {fox}")
    expect(board.locator("[data-testid='watched'] svg")).to_be_visible()
    page.evaluate("() => document.activeElement.blur()")
    board.screenshot(path=docs_picture("classroom-teacher.png"))
    assert accessibility_violations(page, ".colorlab.teacher") == []
    with page.expect_download() as waiting:
        board.locator("[data-action='download']").click()
    saved = tmp_path / waiting.value.suggested_filename
    waiting.value.save_as(saved)
    assert sorted(load_records(saved).values(), key=str) == sorted(TableStore(where).records(), key=str)
    board.locator(f"[data-key='close-{brain}']").click()
    expect(brain_row.locator(".teacher-confirm")).to_contain_text("Nobody can play at it")
    assert TableStore(where).table_row(brain).closed is None
    brain_row.locator("[data-action='confirm-close']").click()
    expect(brain_row.locator("[data-testid='state']")).to_have_text("closed")
    assert TableStore(where).table_row(brain).closed is not None
    assert TableStore(where).table_row(fox).closed is None and bo.name == "Bo"


def an_answer(seat, rng) -> colourbrain.Answer:
    count = seat.state().question.count
    return colourbrain.Answer(seat.seat, tuple(rng.sample(COLOURS, count)))


def test_the_projector_shows_locks_then_the_reveal_until_next(page, classroom, docs_picture):
    url, where = classroom
    store = TableStore(where)
    code = store.create("colourbrain", colourbrain.Rules(teams=3, copier=False), seed=5)
    teams = [store.join(code, seat=team, name=name) for team, name in enumerate(("Reds", "Blues", "Greens"))]
    page.set_viewport_size(TEACHER_VIEWPORT)
    board = open_with_the_key(page, url)
    board.locator(f"[data-key='watch-{code}']").click()
    projector = page.locator(".colorlab.colourbrain-projector")
    expect(projector.locator("[data-testid='question']")).to_be_visible()
    question = teams[0].state().question
    expect(projector.locator(".projector-question")).to_have_text(question.text)
    rng = random.Random(3)
    teams[1].play(an_answer(teams[1], rng))
    expect(projector.locator("[data-locked='true']")).to_have_count(1, timeout=3_000)
    expect(projector.locator("[data-locked='true']")).to_contain_text("Blues")
    assert not projector.locator(".colourbrain-swatch").count(), "a locked answer's colours are on show"
    teams[0].play(colourbrain.Answer(0, question.answer))
    teams[2].play(an_answer(teams[2], rng))
    reveal = projector.locator("[data-testid='reveal']")
    expect(reveal).to_contain_text(question.explanation, timeout=3_000)
    expect(projector.locator("[data-score='0']")).not_to_have_text("0")
    teams[1].play(an_answer(teams[1], rng))
    expect(reveal.locator("[data-testid='ahead']")).to_contain_text("Blues ✓")
    page.evaluate("() => document.activeElement.blur()")
    projector.screenshot(path=docs_picture("colourbrain-projector.png"))
    expect(projector.locator(".colourbrain-copiercount")).to_have_count(0)
    assert accessibility_problems(page, ".colorlab.colourbrain-projector") == []
    projector.locator("[data-action='next']").click()
    expect(projector.locator("[data-testid='number']")).to_have_text("Question 2")
    expect(projector.locator("[data-locked='true']")).to_contain_text("Blues")


def tab_to(page, selector: str, most: int = 80) -> None:
    """Press Tab until the element `selector` has the keyboard focus, as a teacher without a mouse would."""
    for _ in range(most):
        page.keyboard.press("Tab")
        if page.evaluate("(selector) => document.activeElement?.matches(selector) ?? false", selector):
            return
    raise AssertionError(f"Tab never reached {selector}; the focus is on {page.evaluate(FOCUSED)}")


FOCUSED = "() => document.activeElement?.outerHTML.slice(0, 120) ?? null"


def test_the_teacher_opens_a_quiz_and_hands_a_seat_to_a_bot_with_the_keyboard_alone(page, classroom):
    url, where = classroom
    store = TableStore(where)
    fox = store.create("colorfox", colorfox.Rules(players=2), seed=11)
    store.join(fox, seat=0, name="Ada")
    store.join(fox, seat=1, name="Bo")
    page.set_viewport_size(TEACHER_VIEWPORT)
    page.goto(url)
    board = page.locator(".colorlab.teacher")
    expect(board.locator("[data-testid='key-form']")).to_be_visible(timeout=120_000)
    tab_to(page, "[data-key='teacher-key']")
    page.keyboard.type(TEACHER_KEY)
    page.keyboard.press("Enter")
    expect(board.locator(f"tr[data-table='{fox}']")).to_contain_text("Bo")
    tab_to(page, "[data-key='quiz-teams']")
    page.keyboard.press("ArrowUp")  # from 3 teams to 2
    expect(board.locator("[data-key='quiz-teams']")).to_have_value("2")
    tab_to(page, "[data-action='open-quiz']")
    page.keyboard.press("Enter")
    expect(board.locator("[data-testid='notice']")).to_contain_text("You are the quiz master")
    [quiz] = [table for table in TableStore(where).tables() if table["game"] == "colourbrain"]
    assert len(quiz["seats"]) == 2 and all(seat["free"] for seat in quiz["seats"])
    tab_to(page, f"[data-key='bot-{fox}-1']")
    page.keyboard.press("Space")
    expect(board.locator("[data-testid='hand-confirm']")).to_contain_text("Give Bo's seat to GreedyBot?")
    tab_to(page, f"[data-key='confirm-hand-{fox}-1']")
    page.keyboard.press("Enter")
    expect(board.locator("[data-testid='notice']")).to_contain_text(f"Seat 2 at table {fox} is GreedyBot's now")
    assert [seat["bot"] for seat in TableStore(where).tables([fox])[0]["seats"]] == [None, "GreedyBot"]

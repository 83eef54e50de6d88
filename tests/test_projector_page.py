"""The class's projector page, in the kernel: the teacher key first; then how to join and the lesson's tables, or the
teacher's quiz filling the screen while it runs, its winner named above the tables once it has ended; never a seed,
a hand or a locked answer (twin tables that differ only in those give the same page)."""

from __future__ import annotations

import json
import re

import pytest

from colorlab import colorfox, colourbrain
from colorlab.classroom import projector as room
from colorlab.classroom.class_store import CLASS_ADDRESS_VARIABLE, PROJECTOR_ADDRESS_VARIABLE
from colorlab.classroom.projector import ProjectorPage, qr_picture
from colorlab.classroom.teacher import TeacherPage
from colorlab.colourbrain.projector import ColourbrainProjector
from colorlab.colourbrain.questions import COLOURS
from colorlab.tables import TableStore
from tests.helpers.page import browser_sends
from tests.test_teacher_page import KEY, SEED, an_answer, quiz, twin_seeds

ADDRESS = "http://192.0.2.10:8866/c/k7qm-x4dp-9hfa"  # a documentation address: nothing is ever sent to it


@pytest.fixture
def where(tmp_path):
    return tmp_path / "class.db"


def projector_page(where, key=KEY, environ=None) -> ProjectorPage:
    page = ProjectorPage(TableStore(where), key=key, environ=environ or {CLASS_ADDRESS_VARIABLE: ADDRESS})
    if key:
        browser_sends(page.board, {"type": "key", "key": key})
    return page


def synced(page: ProjectorPage) -> str:
    """Everything the page sends the browser: its board and the quiz below it, as text."""
    return json.dumps([page.board.get_state(), *(shown.get_state() for shown in page.stage.children)], default=str)


def play_the_quiz_to_its_last_reveal(teams) -> None:
    """Team 0 always right, the others wrong; the quiz master's Next after each reveal but the last."""
    while True:
        solution = teams[0].state().question.answer
        teams[0].play(colourbrain.Answer(0, solution))
        for team in teams[1:]:
            team.play(an_answer(team, first=(next(c for c in COLOURS if c not in solution),)))
        if teams[0].state().decided:
            return
        teams[0].store.advance(teams[0].code, colourbrain.NextQuestion())


def test_before_the_key_the_page_holds_no_address_no_table_and_takes_no_other_intent(where):
    code = TableStore(where).create("colorfox", colorfox.Rules(players=2), seed=SEED)
    TableStore(where).join(code, seat=0, name="Ada")
    page = projector_page(where, key=None, environ={"COLORLAB_TEACHER_KEY": KEY, CLASS_ADDRESS_VARIABLE: ADDRESS})
    for intent in ({"type": "watch", "code": code}, {"type": "key", "key": "wrong"}, {"type": "next"}):
        browser_sends(page.board, intent)
        assert page.board.notice["kind"] == "error", intent
    shown = synced(page)
    assert page.board.gate == "key" and code not in shown and "Ada" not in shown and ADDRESS not in shown
    browser_sends(page.board, {"type": "key", "key": KEY})
    assert page.board.gate == "open" and page.board.join["address"] == ADDRESS and KEY not in synced(page)
    assert page.board.join["qr"] == qr_picture(ADDRESS) and page.board.join["qr"].startswith("<svg viewBox=")
    assert [table["code"] for table in page.board.tables] == [code]


def test_a_page_served_to_others_without_a_teacher_key_stays_sealed(where):
    page = ProjectorPage(TableStore(where), key="", environ={"COLORLAB_TABLES": str(where)})
    browser_sends(page.board, {"type": "key", "key": "anything"})
    assert (
        page.board.gate == "sealed" and page.board.tables == [] and "without a teacher key" in page.board.notice["text"]
    )


def test_between_rounds_the_lessons_tables_show_with_their_players_scores_and_turn(where):
    store = TableStore(where)
    playing = store.create("colorfox", colorfox.Rules(players=2), seed=SEED)
    ada = store.join(playing, seat=0, name="Ada")
    store.join(playing, seat=1, name="Bo")
    waiting = store.create("colorfox", colorfox.Rules(players=3), seed=SEED)
    store.join(waiting, seat=0, name="Cy")
    closed = store.create("colorfox", colorfox.Rules(players=2), seed=SEED)
    store.close(closed)
    yesterday = store.create("colorfox", colorfox.Rules(players=2), seed=SEED)
    with store.engine.begin() as connection:
        connection.exec_driver_sql(f"UPDATE colorlab_tables SET created = created - 86400 WHERE code = '{yesterday}'")
    page = projector_page(where)
    lines = {table["code"]: table for table in page.board.tables}
    assert list(lines) == [waiting, playing], "the newest open table first; closed and old tables left out"
    assert [player["name"] for player in lines[playing]["players"]] == ["Ada", "Bo"]
    assert lines[playing]["state"] == "playing" and lines[playing]["turn"] == [["Ada", "Bo"][ada.state().active]]
    assert lines[waiting]["state"] == "waiting for 2 players" and lines[waiting]["players"][1]["name"] == "free seat"
    assert page.stage.children == () and page.board.quiz == ""


def test_the_screen_holds_at_most_nine_tables_and_says_how_many_more(where):
    store = TableStore(where)
    codes = [store.create("colorfox", colorfox.Rules(players=2), seed=SEED + n) for n in range(11)]
    page = projector_page(where)
    assert [table["code"] for table in page.board.tables] == codes[::-1][: room.MOST_TABLES_SHOWN]
    assert page.board.more == 11 - room.MOST_TABLES_SHOWN


def test_the_teachers_quiz_fills_the_screen_once_its_teams_sit_and_its_winner_heads_the_tables_when_it_ends(where):
    code = TableStore(where).create("colourbrain", colourbrain.Rules(teams=2, target=2, copier=False, paced=True))
    page = projector_page(where)
    [line] = page.board.tables
    assert line["quiz"] and line["state"] == "waiting for 2 players" and page.stage.children == ()
    teams = [TableStore(where).join(code, seat=team, name=name) for team, name in enumerate(("Reds", "Blues"))]
    page.board.store.changes.look()  # the page's kernel hears that the table changed
    [shown] = page.stage.children
    assert isinstance(shown, ColourbrainProjector) and shown.fill and page.board.quiz == code
    play_the_quiz_to_its_last_reveal(teams)
    page.board.store.changes.look()
    assert shown.view["reveal"] and shown.view["then"] == "the winner" and page.board.winner == ""
    assert teams[1].state().step == "shown" and colourbrain.winners(teams[1].state()) == [], "a team is ahead"
    browser_sends(shown, {"type": "next"})  # the quiz master's Next on the projector page names the winner
    assert teams[1].state().over and colourbrain.winners(teams[1].state()) == [0]
    page.board.store.changes.look()
    assert page.stage.children == () and page.board.quiz == "" and page.board.winner == "Colour-Brain: Reds!"
    assert [player["score"] for player in page.board.tables[0]["players"]] == list(teams[0].state().scores)


def test_a_quiz_the_teams_move_on_by_themselves_is_not_taken_for_the_teachers(where):
    code = TableStore(where).create("colourbrain", colourbrain.Rules(teams=2))
    for team in range(2):
        TableStore(where).join(code, seat=team, name=f"Team {team}")
    page = projector_page(where)
    assert page.stage.children == () and not page.board.tables[0]["quiz"]


def test_the_page_shows_the_same_for_twin_quizzes_that_differ_only_in_seed_and_locked_answer(where, tmp_path):
    rules = colourbrain.Rules(teams=3, copier=False, paced=True, deck_order="shuffled")
    pages = []
    for number, (seed, first) in enumerate(zip(twin_seeds(rules), (("red",), ("blue",)))):
        store = tmp_path / f"twin-{number}.db"
        code, teams = quiz(store, seed=seed, copier=False, paced=True, deck_order="shuffled")
        teams[1].play(an_answer(teams[1], first))
        page = projector_page(store)
        pages.append(re.sub(r"IPY_MODEL_\w+", "A_WIDGET", synced(page).replace(code, "CODE")))
    assert pages[0] == pages[1], "the projector page shows something a twin table does not"


def test_the_teachers_page_links_to_the_projector_page_the_class_server_names(where):
    address = "http://192.0.2.10:8866/voila/render/classroom/projector.ipynb?token=k7qm-x4dp-9hfa"
    page = TeacherPage(TableStore(where), key=KEY, environ={PROJECTOR_ADDRESS_VARIABLE: address})
    assert page.board.projector == address
    assert TeacherPage(TableStore(where), key=KEY, environ={}).board.projector == ""


def test_a_newer_quiz_of_the_teachers_takes_the_screen_from_an_older_one_left_unfinished(where):
    older, _ = quiz(where, teams=2, paced=True)
    page = projector_page(where)
    assert page.board.quiz == older
    newer = TableStore(where).create("colourbrain", colourbrain.Rules(teams=2, paced=True))
    page.board.store.changes.look()
    assert page.board.quiz == "" and page.stage.children == () and page.board.tables[0]["code"] == newer
    for team in range(2):
        TableStore(where).join(newer, seat=team, name=f"Team {team}")
    page.board.store.changes.look()
    assert page.board.quiz == newer and page.stage.children[0].seat.code == newer

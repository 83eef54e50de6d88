"""The teacher's page and the Colourbrain projector, against a real SQLite file shared by several seats.

Each learner plays through their own TableStore (as their own kernel would); the teacher's page has its own.
What the page sends the browser is read with ``get_state()``: before the teacher key nothing of the tables is
in it, and afterwards never a seed, a token, a hand or a locked answer (twin tables that differ only in what
is hidden look the same). The projector shows who has locked, never what, until the reveal.
"""

from __future__ import annotations

import dataclasses
import io
import json
import random
import zipfile

import pytest

from colorlab import colorform, colorfox, colourbrain
from colorlab.archive import load_records
from colorlab.classroom import gate
from colorlab.classroom.gate import gate_for
from colorlab.classroom.teacher import TablesBoard, TeacherPage, room_summary
from colorlab.colourbrain.projector import ColourbrainProjector
from colorlab.colourbrain.questions import COLOURS
from colorlab.colourbrain.view import ColourbrainQuiz
from colorlab.games import find_game
from colorlab.record import GameRecord
from colorlab.tables import TableClosed, TableStore, table_game
from tests.helpers.page import browser_sends
from tests.helpers.tables import TABLES, news, seated
from tests.helpers.twins import colorfox_twin

SEED = 7_531_864_209_753_118_642  # long enough that finding it in a page cannot be chance
KEY = "open-sesame-4711"


@pytest.fixture
def where(tmp_path):
    return tmp_path / "class.db"


def kernel(where) -> TableStore:
    """A store as one more kernel of the class opens it."""
    return TableStore(where)


def teacher_page(where, key=KEY) -> TeacherPage:
    page = TeacherPage(kernel(where), key=key, environ={})
    if key:
        browser_sends(page.board, {"type": "key", "key": key})
    return page


def synced(page: TeacherPage) -> str:
    """Everything the teacher's page sends the browser (its board and whatever shows below it), as text."""
    return json.dumps([page.board.get_state(), *(shown.get_state() for shown in page.stage.children)], default=str)


def sent_by(widget, intent) -> list[tuple[dict, list]]:
    """The one-off messages (with their bytes) the kernel sends the page while it handles `intent`."""
    sent = []
    widget.send = lambda content, buffers=None: sent.append((content, buffers or []))
    browser_sends(widget, intent)
    del widget.send
    return sent


def quiz(where, teams=3, seed=SEED, names=("Reds", "Blues", "Greens", "Yellows"), **rules):
    """A Colourbrain table with every team a learner at its own kernel: (code, team seats)."""
    code = kernel(where).create("colourbrain", colourbrain.Rules(teams=teams, **rules), seed=seed)
    return code, [kernel(where).join(code, seat=team, name=names[team]) for team in range(teams)]


def an_answer(seat, first=("red",)) -> colourbrain.Answer:
    """A well-formed answer for the team of `seat` to the question asked now, starting with `first`."""
    count = seat.state().question.count
    colours = (tuple(first) + tuple(c for c in COLOURS if c not in first))[:count]
    return colourbrain.Answer(seat.seat, colours)


def answer_all(teams) -> None:
    for team in teams:
        team.play(an_answer(team))


# --- the key ----------------------------------------------------------------------------------------------


def test_before_the_key_nothing_of_the_tables_reaches_the_page(where):
    code = kernel(where).create("colorfox", colorfox.Rules(players=2), seed=SEED)
    ada = kernel(where).join(code, seat=0, name="Ada")
    page = TeacherPage(kernel(where), key=KEY, environ={})
    for intent in (
        {"type": "tick"},
        {"type": "watch", "code": code},
        {"type": "close", "code": code},
        {"type": "download"},
        {"type": "key", "key": "open-sesame"},
    ):
        assert sent_by(page.board, intent) == []
        text = synced(page)
        assert code not in text and "Ada" not in text and ada.token not in text and str(SEED) not in text
        assert page.board.gate == "key" and page.board.tables == [] and page.board.watched == {}
        assert page.stage.children == ()
    assert page.board.notice["text"] == "That is not the teacher key. Try again."
    assert kernel(where).table_row(code).closed is None
    browser_sends(page.board, {"type": "key", "key": KEY})
    assert page.board.gate == "open" and [line["code"] for line in page.board.tables] == [code]
    assert "Ada" in synced(page) and KEY not in synced(page)


def test_wrong_teacher_keys_in_a_row_make_the_page_wait_longer_each_time(where, monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(gate.time, "monotonic", lambda: now[0])
    page = TeacherPage(kernel(where), key=KEY, environ={})
    for wrong, wait in ((1, 0), (2, 1), (3, 2), (4, 4)):
        now[0] += wait
        browser_sends(page.board, {"type": "key", "key": f"guess-{wrong}"})
        assert page.board.notice["text"] == "That is not the teacher key. Try again."
    browser_sends(page.board, {"type": "key", "key": KEY})  # even the right key waits its turn
    assert page.board.notice["text"] == "Wait 4 s before you try the teacher key again." and page.board.gate == "key"
    now[0] += 3.5
    browser_sends(page.board, {"type": "key", "key": KEY})
    assert page.board.notice["text"] == "Wait 1 s before you try the teacher key again." and page.board.gate == "key"
    now[0] += 0.5
    browser_sends(page.board, {"type": "key", "key": KEY})
    assert page.board.gate == "open"


def test_the_key_is_compared_in_constant_time(where, monkeypatch):
    compared = []
    real = gate.secrets.compare_digest
    monkeypatch.setattr(gate.secrets, "compare_digest", lambda a, b: compared.append((a, b)) or real(a, b))
    page = TeacherPage(kernel(where), key=KEY, environ={})
    browser_sends(page.board, {"type": "key", "key": "wrong ünïcode"})
    browser_sends(page.board, {"type": "key", "key": KEY})
    assert compared == [("wrong ünïcode".encode(), KEY.encode()), (KEY.encode(), KEY.encode())]
    assert page.board.gate == "open"


def test_without_a_key_the_page_opens_only_outside_a_server(where):
    assert gate_for(KEY, {}) == "key"
    assert gate_for("", {}) == gate_for(None, {"HOME": "/home/teacher"}) == "open"
    assert gate_for(None, {"COLORLAB_TABLES": str(where)}) == "sealed"
    assert gate_for(None, {"SERVER_SOFTWARE": "voila/0.5.8"}) == "sealed"
    code = kernel(where).create("colorfox", colorfox.Rules(players=2), seed=SEED)
    sealed = TeacherPage(kernel(where), environ={"COLORLAB_TABLES": str(where)})
    for typed in ("", KEY, "anything"):
        browser_sends(sealed.board, {"type": "key", "key": typed})
    assert sealed.board.gate == "sealed" and code not in synced(sealed)
    assert "without a teacher key" in sealed.board.notice["text"]
    own = TeacherPage(kernel(where), environ={})
    assert own.board.gate == "open" and code in synced(own)


def test_the_key_comes_from_the_classroom_servers_variable(where, monkeypatch):
    monkeypatch.setenv("COLORLAB_TEACHER_KEY", KEY)
    page = TeacherPage(kernel(where))
    assert page.board.gate == "key"
    browser_sends(page.board, {"type": "key", "key": KEY})
    assert page.board.gate == "open"


# --- every table, live ------------------------------------------------------------------------------------


def test_the_list_follows_the_moves_other_seats_make_and_is_sent_only_when_it_changed(where):
    code = kernel(where).create("colorfox", colorfox.Rules(players=3), seed=SEED, bots={2: "GreedyBot"})
    ada = kernel(where).join(code, seat=0, name="Ada")
    page = teacher_page(where)
    line = page.board.tables[0]
    assert line["seats"] == [
        {"name": "Ada", "kind": "learner", "connected": True},
        {"name": "free seat", "kind": "free", "connected": False},
        {"name": "GreedyBot", "kind": "bot", "connected": True},
    ]
    assert line["state"] == "waiting for 1 player" and line["turn"] == [] and line["title"] == "ColorFox"
    looks = page.board.store.changes
    looks.look()  # the kernel's first look
    bo = kernel(where).join(code, seat=1, name="Bo")
    changes = []
    page.board.observe(changes.append, names="tables")
    assert news(looks) == {code}
    assert len(changes) == 1 and page.board.tables[0]["state"] == "playing"
    assert looks.look() == frozenset()
    assert len(changes) == 1, "a look with nothing new sent the list again"
    learners = {0: ada, 1: bo}
    rng = random.Random(1)
    for _ in range(12):
        state = ada.state()
        if state.over:
            break
        mover = learners.get(colorfox.model.to_move(state))
        if mover is None:
            break
        mover.play(colorfox.RandomBot(seed=rng.randrange(99)).act(state, mover.seat))
        news(looks)
        line = page.board.tables[0]
        now = kernel(where).tables()[0]
        assert line["moves"] == now["actions"] and line["scores"] == now["scores"]
        assert line["turn"] == [["Ada", "Bo", "GreedyBot"][seat] for seat in now["waiting_for"]]
    assert page.board.tables[0]["moves"] > 2


def test_finished_and_closed_tables_say_so(where):
    over = kernel(where).create(
        "colourbrain", colourbrain.Rules(teams=2, target=1), seed=SEED, bots={0: "QuizBot (hard)", 1: "QuizBot (hard)"}
    )
    kernel(where).watch(over).view()  # a look lets the bots play the quiz through
    code, _teams = quiz(where, teams=2)
    kernel(where).close(code)
    page = teacher_page(where)
    states = {line["code"]: line for line in page.board.tables}
    assert states[over]["state"] == "finished" and states[over]["over"] and max(states[over]["scores"]) >= 1
    assert states[code]["state"] == "closed" and states[code]["turn"] == []


# --- watching a table -------------------------------------------------------------------------------------


def without_code(summary: dict) -> dict:
    return {key: value for key, value in summary.items() if key != "code"}


def test_watching_a_quiz_shows_no_locked_answer_twin_tables(where):
    pages = []
    for first in (("red",), ("blue",)):
        code, teams = quiz(where)
        teams[0].play(an_answer(teams[0], first))
        page = teacher_page(where)
        browser_sends(page.board, {"type": "watch", "code": code})
        text = synced(page)
        assert str(SEED) not in text and not [team.token for team in teams if team.token in text]
        pages.append((page, code))
    (first, first_code), (second, second_code) = pages
    assert without_code(first.board.watched) == without_code(second.board.watched)
    projectors = [page.stage.children[0].view for page, _ in pages]
    assert [view["seating"].pop("code") for view in projectors] == [first_code, second_code]
    assert projectors[0] == projectors[1]
    assert projectors[0]["question"]["answered"] == [True, False, False]


def test_watching_colorform_shows_no_stop_call_before_it_is_settled_twin_tables(where):
    rules = colorform.Rules(players=2, stop_window=5.0)
    solver = colorform.ReactionBot("hard")
    seed = next(seed for seed in range(200) if solver.act(colorform.new_game(rules, seed), 0))
    claim = solver.act(colorform.new_game(rules, seed), 0)
    other = next(t.number for t in colorform.new_game(rules, seed).revealed_tasks() if t.number != claim.task)
    watched = []
    for called in (claim, dataclasses.replace(claim, task=other, placements=())):
        code = kernel(where).create("colorform", rules, seed=seed)
        ada = kernel(where).join(code, seat=0, name="Ada")
        kernel(where).join(code, seat=1, name="Bo")
        ada.play(called)
        page = teacher_page(where)
        browser_sends(page.board, {"type": "watch", "code": code})
        assert page.stage.children == ()
        watched.append(without_code(page.board.watched))
    assert watched[0] == watched[1] and watched[0]["picture"].startswith("<svg")


def test_the_colorfox_summary_holds_no_hand(where):
    code = kernel(where).create("colorfox", colorfox.Rules(players=2), seed=SEED)
    seats = [kernel(where).join(code, seat=seat, name=name) for seat, name in enumerate(("Ada", "Bo"))]
    page = teacher_page(where)
    browser_sends(page.board, {"type": "watch", "code": code})
    assert page.board.watched["picture"].count("<path") == 4 * len(seats[0].state().table)
    text = synced(page)
    assert str(SEED) not in text and not [seat.token for seat in seats if seat.token in text]
    room = kernel(where).watch(code).view()
    view, state = table_game("colorfox").view, seats[0].state()
    twin = colorfox_twin(state, None, random.Random(3))
    assert twin.hands != state.hands
    assert room_summary({**room, **view(state, None)}) == room_summary({**room, **view(twin, None)})


def test_watching_an_unknown_table_is_refused(where):
    page = teacher_page(where)
    browser_sends(page.board, {"type": "watch", "code": "AAAAA"})
    assert page.board.notice["kind"] == "error" and "no table" in page.board.notice["text"]
    assert page.board.watched == {}


# --- closing ----------------------------------------------------------------------------------------------


def test_closing_takes_a_confirm_and_stops_the_table(where):
    code, teams = quiz(where, teams=2)
    page = teacher_page(where)
    browser_sends(page.board, {"type": "confirm_close", "code": code})
    assert page.board.notice["kind"] == "error" and kernel(where).table_row(code).closed is None
    browser_sends(page.board, {"type": "close", "code": code})
    assert page.board.confirming == code and kernel(where).table_row(code).closed is None
    browser_sends(page.board, {"type": "keep_open"})
    assert page.board.confirming == "" and kernel(where).table_row(code).closed is None
    browser_sends(page.board, {"type": "close", "code": code})
    browser_sends(page.board, {"type": "confirm_close", "code": code})
    assert kernel(where).table_row(code).closed is not None
    assert page.board.tables[0]["state"] == "closed" and page.board.confirming == ""
    with pytest.raises(TableClosed):
        teams[0].play(an_answer(teams[0]))
    browser_sends(page.board, {"type": "close", "code": code})
    assert "already closed" in page.board.notice["text"]


@pytest.mark.parametrize("code", ["AAAAA", "x", "", "K7MXA; DROP TABLE"])
def test_closing_an_unknown_code_is_refused(where, code):
    quiz(where, teams=2)
    page = teacher_page(where)
    before = kernel(where).tables()
    browser_sends(page.board, {"type": "close", "code": code})
    assert page.board.notice["kind"] == "error" and "no table" in page.board.notice["text"]
    assert page.board.confirming == "" and kernel(where).tables() == before


# --- seats handed on -------------------------------------------------------------------------------------


def test_the_teacher_gives_a_learners_seat_to_a_bot_after_a_confirm_and_the_bot_plays_there(where):
    code = kernel(where).create("colorfox", colorfox.Rules(players=2), seed=SEED)
    ada = kernel(where).join(code, name="Ada")
    kernel(where).join(code, name="Bo")
    page = teacher_page(where)
    browser_sends(page.board, {"type": "confirm_hand"})
    assert page.board.notice["kind"] == "error" and kernel(where).tables()[0]["seats"][1]["name"] == "Bo"
    browser_sends(page.board, {"type": "hand_seat", "code": code.lower(), "seat": 1, "to": "bot"})
    assert page.board.handing == {"code": code, "seat": 1, "to": "bot", "name": "Bo", "bot": "GreedyBot"}
    assert kernel(where).tables()[0]["seats"][1]["name"] == "Bo", "the seat went before the confirm"
    browser_sends(page.board, {"type": "keep_seat"})
    assert page.board.handing == {} and kernel(where).tables()[0]["seats"][1]["name"] == "Bo"
    browser_sends(page.board, {"type": "hand_seat", "code": code, "seat": 1, "to": "bot"})
    browser_sends(page.board, {"type": "confirm_hand"})
    assert page.board.tables[0]["seats"][1] == {"name": "GreedyBot", "kind": "bot", "connected": True}
    assert "GreedyBot's now" in page.board.notice["text"] and page.board.handing == {}
    state = play_to_the_end_with(ada)
    assert state.over


def play_to_the_end_with(seat, most: int = 200):
    """Ada plays on alone (her kernel lets the bot move in its turns) until the game is over."""
    for _ in range(most):
        state = seat.state()
        if state.over:
            return state
        seat.play(colorfox.GreedyBot(seed=3).act(state, seat.seat))
    raise AssertionError("the game did not end")


def test_the_teacher_frees_a_seat_and_makes_a_new_seat_key_shown_on_the_teachers_page_only(where):
    code = kernel(where).create("colorfox", colorfox.Rules(players=3), seed=SEED, bots={2: "GreedyBot"})
    ada = kernel(where).join(code, name="Ada")
    kernel(where).join(code, name="Bo")
    page = teacher_page(where)
    browser_sends(page.board, {"type": "seat_key", "code": code, "seat": 0})
    key = page.board.notice["text"].split(f"table {code}: ")[1].split(".")[0]
    assert kernel(where).rejoin(code, key).seat == 0 and kernel(where).rejoin(code, ada.token).seat == 0
    browser_sends(page.board, {"type": "hand_seat", "code": code, "seat": 1, "to": "free"})
    browser_sends(page.board, {"type": "confirm_hand"})
    assert page.board.tables[0]["seats"][1]["kind"] == "free" and kernel(where).join(code, name="Cy").seat == 1
    for refused in (
        {"type": "seat_key", "code": code, "seat": 2},  # a bot's seat has no key
        {"type": "hand_seat", "code": code, "seat": 3, "to": "bot"},
        {"type": "hand_seat", "code": code, "seat": 0, "to": "the teacher"},
        {"type": "hand_seat", "code": "AAAAA", "seat": 0, "to": "free"},
        {"type": "hand_seat", "code": code, "seat": "0", "to": "free"},
    ):
        before = kernel(where).tables()
        browser_sends(page.board, refused)
        assert page.board.notice["kind"] == "error", refused
        assert kernel(where).tables() == before and page.board.handing == {}


def test_a_notice_on_the_teachers_page_goes_once_it_no_longer_holds(where, monkeypatch):
    code, _ = quiz(where, teams=2)
    page = teacher_page(where)
    browser_sends(page.board, {"type": "close", "code": code})
    browser_sends(page.board, {"type": "confirm_close", "code": code})
    assert page.board.notice["text"].startswith(f"Table {code} is closed")
    page.board.refresh(frozenset())
    assert page.board.notice["text"], "a fresh notice went at once"
    monkeypatch.setattr(gate, "NOTICE_SECONDS", 0.0)
    page.board.refresh(frozenset())  # the page's next look (every PRESENCE_SECONDS, or at a change)
    assert page.board.notice["text"] == ""


def test_a_finished_tables_seats_are_not_handed_on(where):
    code = kernel(where).create("colorfox", colorfox.Rules(players=2), seed=SEED, bots={1: "GreedyBot"})
    play_to_the_end_with(kernel(where).join(code, name="Ada"))
    page = teacher_page(where)
    browser_sends(page.board, {"type": "hand_seat", "code": code, "seat": 0, "to": "bot"})
    assert "finished" in page.board.notice["text"] and page.board.handing == {}


def test_the_list_sees_a_page_go_away_without_any_change_at_the_table(where, monkeypatch):
    code = kernel(where).create("colorfox", colorfox.Rules(players=2), seed=SEED)
    ada = kernel(where).join(code, name="Ada")
    kernel(where).join(code, name="Bo")
    monkeypatch.setattr(TablesBoard, "LOOK_AGAIN_SECONDS", 0.0)
    page = teacher_page(where)
    looks = page.board.store.changes
    looks.look()
    assert [seat["connected"] for seat in page.board.tables[0]["seats"]] == [True, True]
    engine = kernel(where).engine
    with engine.begin() as connection:  # Bo's tablet died a minute ago: nothing is written at the table
        connection.exec_driver_sql("UPDATE colorlab_seats SET seen = seen - 61 WHERE seat = 1")
    kernel(where).here(ada)
    looks.look()
    assert [seat["connected"] for seat in page.board.tables[0]["seats"]] == [True, False]


def test_the_teacher_opens_a_paced_quiz_without_a_seat_and_watches_it_on_the_projector(where):
    page = teacher_page(where)
    browser_sends(page.board, {"type": "open_quiz", "teams": 3})
    [table] = kernel(where).tables()
    record = kernel(where).record(table["code"])
    assert table["game"] == "colourbrain" and record.rules.teams == 3 and record.rules.paced
    assert all(seat["free"] for seat in table["seats"]), "the quiz master sat at the quiz"
    assert page.board.watched["code"] == table["code"] and "quiz master" in page.board.notice["text"]
    assert [type(shown).__name__ for shown in page.stage.children] == ["ColourbrainProjector"]
    for teams in (1, 5, True):
        browser_sends(page.board, {"type": "open_quiz", "teams": teams})
        assert page.board.notice["kind"] == "error" and len(kernel(where).tables()) == 1


# --- the records ------------------------------------------------------------------------------------------


def test_the_download_holds_every_record_and_loads_back(where):
    code, teams = quiz(where)
    answer_all(teams)
    fox = kernel(where).create("colorfox", colorfox.Rules(players=2), seed=SEED, bots={1: "GreedyBot"})
    kernel(where).join(fox, seat=0, name="Ada")
    kernel(where).close(code)
    page = teacher_page(where)
    sent = sent_by(page.board, {"type": "download"})
    assert [message["part"] for message, _ in sent] == list(range(len(sent))) and sent[-1][0]["last"]
    assert all(message["type"] == "records" and message["name"].endswith(".zip") for message, _ in sent)
    assert all(len(buffers) == 1 for _, buffers in sent)
    assert str(SEED) not in json.dumps([message for message, _ in sent]) and str(SEED) not in synced(page)
    saved = b"".join(bytes(buffers[0]) for _, buffers in sent)
    records = list(load_records(saved).values())
    assert sorted(records, key=str) == sorted(kernel(where).records(), key=str) and len(records) == 2
    assert {record.game for record in records} == {"colourbrain", "colorfox"}
    archive = zipfile.ZipFile(io.BytesIO(saved))
    assert archive.namelist() == [f"colourbrain-{code}.json", f"colorfox-{fox}.json"]
    for name in archive.namelist():
        assert GameRecord.from_json(archive.read(name)) in records
    assert "2 record(s)" in page.board.notice["text"]


# --- the projector ----------------------------------------------------------------------------------------


def projector_of(where, code) -> ColourbrainProjector:
    return ColourbrainProjector(kernel(where).watch(code))


def sync(projector) -> None:
    browser_sends(projector, {"type": "sync"})


def test_the_projector_shows_who_locked_never_what_twin_tables(where):
    views = []
    for first in (("red",), ("blue",)):
        code, teams = quiz(where)
        projector = projector_of(where, code)
        teams[1].play(an_answer(teams[1], first))
        sync(projector)
        view = dict(projector.view)
        view["seating"] = {key: value for key, value in view["seating"].items() if key != "code"}
        assert view["question"]["answered"] == [False, True, False]
        assert view["question"]["answers"] == [None, None, None] and "reveal" not in view
        text = json.dumps(projector.get_state(), default=str)
        assert str(SEED) not in text and teams[1].state().question.explanation not in text
        views.append(view)
    assert views[0] == views[1]


def test_the_projector_holds_the_reveal_until_the_teacher_moves_on(where):
    code, teams = quiz(where, copier=False)
    projector = projector_of(where, code)
    browser_sends(projector, {"type": "next"})
    assert "answering" in projector.notice["text"]
    asked = teams[0].state().question
    answer_all(teams)
    sync(projector)
    state = teams[0].state()
    reveal = projector.view["reveal"]
    assert reveal["number"] == 1 and reveal["text"] == asked.text and reveal["explanation"] == asked.explanation
    assert reveal["solution"] == list(asked.answer) and reveal["points"] == list(state.last["points"])
    assert projector.view["scores"] == list(state.scores) and projector.view["pot"] == state.pot
    teams[2].play(an_answer(teams[2]))
    sync(projector)
    assert projector.view["reveal"]["number"] == 1, "the projector moved on before the teacher did"
    assert projector.view["ahead"] == {"number": 2, "answered": [False, False, True]}
    browser_sends(projector, {"type": "next"})
    assert "reveal" not in projector.view and projector.view["question"]["number"] == 2
    assert projector.view["question"]["answered"] == [False, False, True]


def test_the_projector_shows_every_reveal_in_turn_and_then_the_winner(where):
    code, teams = quiz(where, teams=2, copier=False, target=3)
    projector = projector_of(where, code)
    for _ in range(10):  # team 0 always right and team 1 always wrong: 3 points in at most 3 questions
        if teams[0].state().over:
            break
        solution = teams[0].state().question.answer
        teams[0].play(colourbrain.Answer(0, solution))
        teams[1].play(an_answer(teams[1], first=(next(c for c in COLOURS if c not in solution),)))
    sync(projector)
    final = teams[0].state()
    shown = []
    while "reveal" in projector.view:
        shown.append(projector.view["reveal"]["number"])
        assert not projector.view["over"]
        browser_sends(projector, {"type": "next"})
    assert shown == list(range(1, final.asked + 1))
    assert projector.view["over"] and projector.view["winners"] == colourbrain.model.winners(final)
    assert projector.view["scores"] == list(final.scores)


def test_the_projector_is_the_rooms_screen_only(where):
    code, teams = quiz(where, teams=2)
    with pytest.raises(ValueError, match=r"store\.watch"):
        ColourbrainProjector(teams[0])
    fox = kernel(where).create("colorfox", colorfox.Rules(players=2), seed=SEED)
    with pytest.raises(ValueError, match="colorfox"):
        ColourbrainProjector(kernel(where).watch(fox))
    projector = projector_of(where, code)
    for intent in ({"type": "answer", "team": 0, "colours": ["red"], "copier": False}, {"type": "undo"}):
        browser_sends(projector, intent)
        assert projector.notice["kind"] == "error"
    assert kernel(where).record(code).actions == ()


@pytest.mark.parametrize("game", sorted(TABLES))
def test_every_game_can_be_watched_as_the_room_sees_it(where, game):
    code, seats = seated(kernel(where), game, seed=SEED)
    table, declared = table_game(game), find_game(game)
    learners = {seat.seat: declared.make_bot(declared.bot_names(at_table=True)[-1], 5) for seat in seats}
    for _ in range(6):
        state = seats[0].state()
        waiting = [seat for seat in seats if seat.seat in table.waiting_for(state)]
        if state.over or not waiting:
            break
        waiting[0].play(learners[waiting[0].seat].act(state, waiting[0].seat))
    page = teacher_page(where)
    browser_sends(page.board, {"type": "watch", "code": code})
    watched = page.board.watched
    assert page.board.notice.get("kind") != "error" and watched["code"] == code
    assert watched["names"] == kernel(where).watch(code).names() and watched["step"] == seats[0].step
    assert bool(watched["picture"]) == (game != "colourbrain")
    assert [type(shown).__name__ for shown in page.stage.children] == (
        ["ColourbrainProjector"] if game == "colourbrain" else []
    )
    text = synced(page)
    assert str(SEED) not in text and not [seat.token for seat in seats if seat.token in text]
    browser_sends(page.board, {"type": "stop_watching"})
    assert page.board.watched == {} and page.stage.children == ()


# --- a quiz the teacher moves on (the rule "Quiz master moves on") -----------------------------------------


def team_screens(teams) -> list[ColourbrainQuiz]:
    """Each team's own quiz widget at its seat, as the lobby shows it on the team's device."""
    return [ColourbrainQuiz(seat=team) for team in teams]


def test_the_projectors_next_moves_a_paced_quiz_on_and_only_then_the_teams_see_the_next_question(where):
    code, teams = quiz(where, copier=False, paced=True)
    projector, screens = projector_of(where, code), team_screens(teams)
    answer_all(teams)
    upcoming = teams[0].state().question
    sync(projector)
    assert projector.view["reveal"]["number"] == 1 and projector.view["ahead"] is None and projector.view["paced"]
    for screen in screens:
        sync(screen)
        text = json.dumps(screen.get_state(), default=str)
        assert screen.view["step"] == "shown" and screen.view["question"] is None and not screen.view["can_move_on"]
        assert upcoming.text not in text and upcoming.explanation not in text
        browser_sends(screen, {"type": "answer", "team": screen.you, "colours": list(upcoming.answer), "copier": False})
        assert "wait for the quiz master's Next" in screen.notice["text"]
        browser_sends(screen, {"type": "next"})
        assert "projector" in screen.notice["text"] and screen.notice["kind"] == "error"
    assert teams[0].state().step == "shown"
    assert kernel(where).record(code).actions.count(colourbrain.NextQuestion()) == 0
    browser_sends(projector, {"type": "next"})
    assert "reveal" not in projector.view and projector.view["question"]["number"] == 2
    assert projector.view["question"]["text"] == upcoming.text
    assert kernel(where).record(code).actions[-1] == colourbrain.NextQuestion()
    for screen in screens:
        sync(screen)
        assert screen.view["step"] == "answering" and screen.view["question"]["text"] == upcoming.text
    browser_sends(projector, {"type": "next"})
    assert "answering" in projector.notice["text"] and projector.notice["kind"] == "error"


def test_two_projectors_pressing_next_on_one_reveal_move_the_quiz_on_once(where):
    code, teams = quiz(where, copier=False, paced=True)
    projectors = [projector_of(where, code), projector_of(where, code)]
    answer_all(teams)
    for projector in projectors:
        sync(projector)
    for projector in projectors:
        browser_sends(projector, {"type": "next"})
        assert "reveal" not in projector.view and projector.view["question"]["number"] == 2
    assert "already moved on" in projectors[1].notice["text"] and projectors[1].notice["kind"] == "info"
    assert kernel(where).record(code).actions.count(colourbrain.NextQuestion()) == 1


def test_a_paced_quiz_on_the_projector_shows_each_reveal_then_the_winner(where):
    code, teams = quiz(where, teams=2, copier=False, target=3, paced=True)
    projector = projector_of(where, code)
    shown = []
    for _ in range(10):  # team 0 always right and team 1 always wrong: 3 points in at most 3 questions
        solution = teams[0].state().question.answer
        teams[0].play(colourbrain.Answer(0, solution))
        teams[1].play(an_answer(teams[1], first=(next(c for c in COLOURS if c not in solution),)))
        sync(projector)
        shown.append(projector.view["reveal"]["number"])
        final = teams[0].state().decided
        assert not teams[0].state().over and colourbrain.winners(teams[1].state()) == [], "a team's screen is ahead"
        assert projector.view["then"] == ("the winner" if final else "the next question") and not projector.view["over"]
        browser_sends(projector, {"type": "next"})
        if final:
            break
    state = teams[0].state()
    assert shown == list(range(1, state.asked + 1)) and state.over
    assert kernel(where).record(code).actions.count(colourbrain.NextQuestion()) == state.asked
    assert projector.view["over"] and projector.view["winners"] == [0] and "reveal" not in projector.view


def twin_seeds(rules) -> tuple[int, int]:
    """Two seeds whose quizzes ask the same first question and different second ones."""
    firsts = {}
    for seed in range(2000):
        deck = colourbrain.new_game(rules, seed).deck
        if deck[0] in firsts and firsts[deck[0]][1] != deck[1]:
            return firsts[deck[0]][0], seed
        firsts.setdefault(deck[0], (seed, deck[1]))
    raise AssertionError("no two seeds start with the same question")


def test_while_a_reveal_waits_for_next_the_next_question_changes_no_screen_twin_tables(where):
    rules = colourbrain.Rules(teams=3, copier=False, paced=True, deck_order="shuffled")
    screens = []
    for seed in twin_seeds(rules):
        code = kernel(where).create("colourbrain", rules, seed=seed)
        teams = [
            kernel(where).join(code, seat=team, name=name) for team, name in enumerate(("Reds", "Blues", "Greens"))
        ]
        projector, team_screen = projector_of(where, code), ColourbrainQuiz(seat=teams[1])
        answer_all(teams)
        assert teams[0].state().step == "shown"
        views = []
        for screen in (projector, team_screen):
            sync(screen)
            views.append({**screen.view, "seating": {k: v for k, v in screen.view["seating"].items() if k != "code"}})
        screens.append((views, teams[0].state().question.text))
    (first, first_next), (second, second_next) = screens
    assert first_next != second_next and first == second

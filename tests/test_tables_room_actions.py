"""Actions of the room at a shared table: the Colourbrain quiz master's Next, through ``TableStore.advance``.

No seat may send them; the store takes only the kinds the game lists as the room's, with the same
checks as a seat's move (closed table, not started, a stale look, the model's own rules), in one
transaction, so two screens pressing Next at once move the quiz on once. Against SQLite and PostgreSQL.
"""

from __future__ import annotations

import threading

import pytest

from colorlab import colourbrain
from colorlab.colourbrain import Answer, NextQuestion
from colorlab.colourbrain.model import WrongStep
from colorlab.rules import ChangeRules, IllegalAction
from colorlab.tables import NotYourSeat, StaleMove, TableClosed, TableStore, UnknownTable, WaitingForPlayers, table_game


def quiz_table(url, paced=True, bots=None, seed=11, **rules):
    """A two-team quiz with every seat taken (a bot's or a learner's): (store, code, learners' seats)."""
    store = TableStore(url)
    code = store.create("colourbrain", colourbrain.Rules(teams=2, paced=paced, **rules), seed=seed, bots=bots)
    seats = [store.join(code, seat=team, name=f"Team {team}") for team in range(2) if team not in (bots or {})]
    return store, code, seats


def answer(seat) -> None:
    """The seat's team locks the right answer to the question asked now."""
    seat.play(Answer(seat.seat, seat.state().question.answer))


def on_show(url, **rules):
    """A paced quiz whose first reveal is on show: (store, code, seats)."""
    store, code, seats = quiz_table(url, **rules)
    for seat in seats:
        answer(seat)
    assert seats[0].state().step == "shown"
    return store, code, seats


def nexts(url, code) -> int:
    return TableStore(url).record(code).actions.count(NextQuestion())


def test_next_is_the_rooms_and_no_seats(store_url):
    store, code, seats = on_show(store_url)
    game = table_game("colourbrain")
    assert game.room_actions == (NextQuestion,) and game.seat_of(NextQuestion()) is None
    assert store.tables()[0]["waiting_for"] == [] and seats[0].view()["seating"]["waiting_for"] == []
    with pytest.raises(NotYourSeat):
        seats[0].play(NextQuestion())
    assert nexts(store_url, code) == 0


def test_next_moves_a_paced_quiz_on_and_the_bots_answer_the_next_question(store_url):
    store, code, [learner] = quiz_table(store_url, bots={1: "QuizBot (hard)"}, seed=12)  # the bot keeps its copier
    answer(learner)
    assert learner.state().step == "shown" and learner.view()["question"] is None
    assert len(store.record(code).actions) == 2, "a bot answered while the reveal waited for Next"
    TableStore(store_url).advance(code, NextQuestion(), seen=learner.step)
    state = learner.state()
    assert state.step == "answering" and state.asked == 1 and state.answers[1] is not None
    assert learner.view()["question"]["text"] == state.question.text
    assert TableStore(store_url).record(code).actions[2] == NextQuestion()


@pytest.mark.parametrize(
    "action", [Answer(0, ("red",)), ChangeRules({"pot_reading": "lost when anyone is wrong"}), "next"]
)
def test_only_the_games_room_actions_are_taken(store_url, action):
    store, code, _seats = on_show(store_url)
    before = store.record(code)
    with pytest.raises(IllegalAction, match="not for the whole room"):
        TableStore(store_url).advance(code, action)
    assert TableStore(store_url).record(code) == before


def test_next_is_refused_at_a_quiz_that_is_not_paced(store_url):
    _store, code, seats = quiz_table(store_url, paced=False)
    for seat in seats:
        answer(seat)
    with pytest.raises(WrongStep, match="Next comes when the answer"):
        TableStore(store_url).advance(code, NextQuestion())
    assert nexts(store_url, code) == 0 and seats[0].state().asked == 1


def test_next_is_refused_while_the_teams_answer(store_url):
    _store, code, _seats = quiz_table(store_url)
    with pytest.raises(WrongStep):
        TableStore(store_url).advance(code, NextQuestion())
    assert nexts(store_url, code) == 0


def test_next_is_refused_at_a_closed_table_an_unstarted_one_and_an_unknown_code(store_url):
    store, code, _seats = on_show(store_url)
    store.close(code)
    with pytest.raises(TableClosed):
        TableStore(store_url).advance(code, NextQuestion())
    assert nexts(store_url, code) == 0
    waiting = store.create("colourbrain", colourbrain.Rules(teams=2, paced=True), seed=1)
    with pytest.raises(WaitingForPlayers):
        TableStore(store_url).advance(waiting, NextQuestion())
    with pytest.raises(UnknownTable):
        TableStore(store_url).advance("AAAAA", NextQuestion())


def test_a_next_pressed_on_an_older_screen_is_stale(store_url):
    _store, code, seats = quiz_table(store_url)
    looked = seats[0].step  # the screen showed the teams answering
    for seat in seats:
        answer(seat)
    with pytest.raises(StaleMove):
        TableStore(store_url).advance(code, NextQuestion(), seen=looked)
    with pytest.raises(StaleMove, match="never seen"):
        TableStore(store_url).advance(code, NextQuestion(), seen=99)
    assert nexts(store_url, code) == 0


def test_two_screens_pressing_next_on_the_same_reveal_move_the_quiz_on_once(store_url):
    _store, code, seats = on_show(store_url)
    first, second = TableStore(store_url), TableStore(store_url)
    looked = seats[0].step
    first.advance(code, NextQuestion(), seen=looked)
    with pytest.raises(StaleMove):
        second.advance(code, NextQuestion(), seen=looked)
    with pytest.raises(WrongStep):
        second.advance(code, NextQuestion())
    assert nexts(store_url, code) == 1 and seats[0].state().step == "answering"


def test_two_kernels_pressing_next_at_the_same_moment_move_the_quiz_on_once(store_url):
    _store, code, seats = quiz_table(store_url, target=50)
    kernels = [TableStore(store_url), TableStore(store_url)]

    def press(kernel, looked, start_together, told):
        start_together.wait()
        try:
            kernel.advance(code, NextQuestion(), seen=looked)
            told.append("moved on")
        except StaleMove:
            told.append("stale")

    for question in range(1, 4):
        for seat in seats:
            answer(seat)
        looked = seats[0].step
        start_together = threading.Barrier(len(kernels))
        told = []
        pressing = [threading.Thread(target=press, args=(kernel, looked, start_together, told)) for kernel in kernels]
        for thread in pressing:
            thread.start()
        for thread in pressing:
            thread.join()
        assert sorted(told) == ["moved on", "stale"]
        assert nexts(store_url, code) == question and seats[0].state().step == "answering"

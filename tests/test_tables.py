"""Shared tables in one process, against a real SQLite file and a real PostgreSQL server.

The contract's surface (codes, seats, tokens, names), every refusal of a move, bots that move
by themselves, the table's clock for Col-Or-Form's STOP calls, the teacher's side, and the
schema's version. Races between processes are tested elsewhere.
"""

import contextlib
import dataclasses
import json
import math
import random
import sqlite3
import string
import subprocess
import sys
import threading
import time
import types
from collections import Counter
from pathlib import Path

import pytest
import sqlalchemy
from hypothesis import given
from hypothesis import strategies as st

from colorlab import colorform, colorfox, colorium, colourbrain
from colorlab.agents import ready, seat_bot
from colorlab.colorform.model import Stop
from colorlab.games import find_game
from colorlab.record import GameRecord, game_spec
from colorlab.rules import ChangeRules, IllegalAction, NotYourTurn
from colorlab.tables import (
    AlreadyCalled,
    NameTaken,
    NotYourSeat,
    Seat,
    SeatTaken,
    StaleMove,
    TableClosed,
    TableError,
    TableStore,
    UnknownTable,
    WaitingForPlayers,
    WrongToken,
    table_game,
)
from colorlab.tables.database import SCHEMA_VERSION
from colorlab.tables.store import (
    CODE_LENGTH,
    CODE_LETTERS,
    WRONG_KEYS_ALLOWED,
    StoreGone,
    StoreUnreachable,
    TooManyWrongKeys,
    clean_code,
)
from tests.helpers.tables import TABLES, seated

LOOK_ALIKES = set("0O1IL2Z5S8B")

# A learner who plays random legal moves: the game's own simplest bot, seeded by the test.
LEARNERS = {
    "colorfox": "RandomBot",
    "colorium": "RandomBot",
    "colourbrain": "QuizBot (easy)",
    "colorform": "ReactionBot (hard)",
}


def backend(url: str) -> str:
    return sqlalchemy.make_url(url).get_backend_name()


@pytest.fixture
def store(store_url):
    """A fresh store on the test's database."""
    opened = TableStore(store_url)
    yield opened
    opened.engine.dispose()


@pytest.fixture
def other_url(store_url, tmp_path, request):
    """A second fresh database of the same kind as `store_url`."""
    if backend(store_url) == "sqlite":
        yield f"sqlite:///{tmp_path / 'other.db'}"
        return
    server = request.getfixturevalue("postgres_server")
    url = server.new_database()
    yield url
    server.drop_database(url)


def two_learners(store, game="colorfox", seed=3, **rules):
    """A two-seat table of learners only: (code, first seat, second seat)."""
    code = store.create(game, game_spec(game).rules_type(**rules), seed=seed)
    return code, store.join(code, seat=0, name="Ada"), store.join(code, seat=1, name="Bo")


def database_text(store) -> str:
    """Every value in every colorlab table of the store, as one text."""
    with store.engine.connect() as connection:
        names = [name for name in sqlalchemy.inspect(connection).get_table_names() if name.startswith("colorlab_")]
        rows = [row for name in names for row in connection.execute(sqlalchemy.text(f"SELECT * FROM {name}"))]
    return "\n".join(" ".join(map(str, row)) for row in rows)


def unchanged(store, code):
    """What must not change when a move is refused: the record, the steps, the waiting calls."""
    return store.record(code), store.table_row(code).steps, store.calls(code)


def play_to_the_end(seats, seed, limit=5000):
    """Play random legal moves for the learners' seats until the game is over; the bots move by themselves."""
    game = seats[0].game
    table = table_game(game)
    learners = {seat.seat: find_game(game).make_bot(LEARNERS[game], seed * 100 + seat.seat) for seat in seats}
    by_number = {seat.seat: seat for seat in seats}
    for _ in range(limit):
        state = seats[0].state()
        if state.over:
            return state
        waiting = [number for number in table.waiting_for(state) if number in learners]
        assert waiting, f"the game waits for {table.waiting_for(state)}, who are bots that did not move"
        number = waiting[0]
        by_number[number].play(learners[number].act(state, number), seen=by_number[number].step)
    raise AssertionError(f"no end after {limit} moves")


# --- 1. the contract's surface -----------------------------------------------------------------


def test_a_store_opens_from_a_path_a_sqlite_url_and_a_postgresql_url(tmp_path, postgres_server):
    path = tmp_path / "class.db"
    url = postgres_server.new_database()
    plain = "postgresql://" + url.split("://", 1)[1]
    stores = [
        TableStore(path),
        TableStore(str(path)),
        TableStore(f"sqlite:///{path}"),
        TableStore(url),
        TableStore(plain),
    ]
    code = stores[0].create("colorfox", colorfox.Rules(players=2), seed=1)
    pg_code = stores[3].create("colorium", colorium.Rules(players=1), seed=1)
    assert [entry["code"] for entry in stores[2].tables()] == [code]
    assert [entry["code"] for entry in stores[4].tables()] == [pg_code]
    assert [store.postgresql for store in stores] == [False, False, False, True, True]
    for store in stores:
        store.engine.dispose()
    postgres_server.drop_database(url)


def test_a_store_url_of_another_database_kind_is_a_table_error():
    with pytest.raises(TableError, match="mysql"):
        TableStore("mysql://teacher@localhost/class")


def test_a_postgresql_database_that_does_not_exist_is_a_table_error(postgres_server):
    url = postgres_server.url("no_such_class")
    with pytest.raises(TableError, match="no_such_class"):
        TableStore(url)


def test_a_store_in_memory_is_refused_or_the_same_in_every_thread():
    """A table lives on for other kernels; a widget may look from another thread of its own kernel."""
    try:
        opened = TableStore("sqlite://")
    except TableError as refusal:
        assert "memory" in str(refusal)
        return
    code = opened.create("colorfox", seed=1)
    seen = []

    def look():
        try:
            seen.append([entry["code"] for entry in opened.tables()])
        except Exception as error:  # the test shows whatever the thread met
            seen.append(repr(error))

    looker = threading.Thread(target=look)
    looker.start()
    looker.join()
    assert seen == [[code]]


@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
def test_a_store_whose_database_went_away_answers_with_a_table_error(store, store_url, postgres_server):
    code, ada, _ = two_learners(store)
    postgres_server.drop_database(store_url)
    for request in (
        store.tables,
        lambda: store.record(code),
        lambda: store.rejoin(code, ada.token),
        ada.view,
        lambda: ada.play(colorfox.Pass(0)),
        lambda: store.join(code, name="Cy"),
        lambda: store.watch(code),
        lambda: store.close(code),
    ):
        with pytest.raises(StoreUnreachable, match="cannot be reached just now") as refusal:
            request()
        assert "/tmp" not in str(refusal.value) and "database" not in str(refusal.value)  # the driver's words stay out


@pytest.mark.parametrize("damage", ["deleted", "replaced"])
def test_a_sqlite_file_deleted_or_replaced_under_a_running_class_stops_every_kernel_with_a_plain_word(tmp_path, damage):
    where = tmp_path / "class.db"
    store = TableStore(where)
    code, ada, _ = two_learners(store)
    kernel = TableStore(where)  # another learner's kernel, with its connections to the file open
    kernel.catch_up(code)
    where.unlink()
    if damage == "replaced":
        TableStore(where).engine.dispose()  # a new, empty store where the old one was
    for opened in (store, kernel):
        for request in (opened.tables, lambda opened=opened: opened.catch_up(code), lambda: ada.play(colorfox.Pass(0))):
            with pytest.raises(StoreGone, match=f"was {damage}.*while the class was running.*Ask your teacher"):
                request()


def test_a_folder_that_does_not_exist_is_a_table_error(tmp_path):
    with pytest.raises(TableError, match="cannot open"):
        TableStore(tmp_path / "no such folder" / "class.db")


@pytest.mark.parametrize("game", sorted(TABLES))
def test_create_gives_a_short_code_without_look_alike_letters_for_every_game(store, game):
    rules, bots = TABLES[game]
    codes = [store.create(game, rules, bots=bots) for _ in range(12)]
    assert len(set(codes)) == len(codes)
    for code in codes:
        assert 4 <= len(code) <= 6 and code.isalnum() and code == code.upper()
        assert not set(code) & LOOK_ALIKES, code
    assert not set(CODE_LETTERS) & LOOK_ALIKES and len(CODE_LETTERS) ** CODE_LENGTH > 10**6
    assert {entry["game"] for entry in store.tables()} == {game}
    assert {entry["code"] for entry in store.tables()} == set(codes)


def test_create_with_default_rules_and_seed_opens_a_table(store):
    code = store.create("colourbrain")
    record = store.record(code)
    assert record.rules == colourbrain.Rules() and 0 <= record.seed < 2**63 and record.actions == ()


@pytest.mark.parametrize(
    "game, rules, bots, words",
    [
        ("chess", None, None, "chess"),
        ("", None, None, "''"),
        ("colorfox", colorium.Rules(), None, "colorfox.Rules"),
        ("colorfox", colorfox.Rules(players=2), {1: "DeepBlue"}, "DeepBlue"),
        ("colorfox", colorfox.Rules(players=2), {1: "QuizBot"}, "GreedyBot"),
        ("colorfox", colorfox.Rules(players=2), {2: "GreedyBot"}, "seat 2"),
        ("colorfox", colorfox.Rules(players=2), {-1: "GreedyBot"}, "seat -1"),
        ("colorfox", colorfox.Rules(players=2), {True: "GreedyBot"}, "seat True"),
    ],
)
def test_a_table_that_cannot_exist_is_refused_with_the_reason(store, game, rules, bots, words):
    with pytest.raises(TableError) as refusal:
        store.create(game, rules, seed=1, bots=bots)
    assert words in str(refusal.value)
    assert store.tables() == []


@pytest.mark.parametrize(
    "game, rules, words",
    [
        ("colorium", colorium.Rules(mission_ids="no such mission"), "mission_ids"),
        ("colourbrain", colourbrain.Rules(question_file="no such file.json"), "question_file"),
    ],
    ids=["colorium-missions", "colourbrain-questions"],
)
def test_rules_that_cannot_start_a_game_are_a_table_error_naming_the_rule(store, game, rules, words):
    with pytest.raises(TableError, match=words):
        store.create(game, rules, seed=1)
    assert store.tables() == []


@pytest.mark.parametrize("seed", [-1, 2**63, 1.5, True, "7"])
def test_a_seed_that_is_not_a_whole_number_in_range_is_refused(store, seed):
    with pytest.raises(TableError, match="seed"):
        store.create("colorfox", seed=seed)
    assert store.tables() == []


def test_tokens_are_long_random_and_only_their_hash_is_stored(store):
    code = store.create("colourbrain", colourbrain.Rules(teams=4), seed=1)
    tokens = [store.join(code, name=f"Team {number}").token for number in range(4)]
    tokens += [store.join(store.create("colorfox", seed=2), name="Ada").token for _ in range(12)]
    assert len(set(tokens)) == len(tokens)
    alphabet = set(string.ascii_letters + string.digits + "-_")
    for token in tokens:
        assert set(token) <= alphabet
        assert len(token) * math.log2(len(alphabet)) >= 128  # at least 128 bits can fit
    # every position takes many values across tokens: the characters are not fixed or drawn from a few
    for position in range(22):
        assert len(Counter(token[position] for token in tokens)) >= 5
    stored = database_text(store)
    assert not [token for token in tokens if token in stored]


def test_rejoin_opens_the_same_seat_from_another_kernel(store, store_url):
    code = store.create("colorfox", colorfox.Rules(players=3), seed=1, bots={2: "GreedyBot"})
    ada = store.join(code, seat=0, name="Ada")
    bo = store.join(code, name="Bo")
    later = TableStore(store_url)
    again = later.rejoin(f" {code.lower()} ", ada.token)
    assert (again.code, again.seat, again.name, again.token) == (code, 0, "Ada", ada.token)
    assert later.rejoin(code, bo.token).seat == 1
    action = colorfox.legal_actions(again.state())[0]
    again.play(action)
    assert store.record(code).actions[0] == action
    later.engine.dispose()


@pytest.mark.parametrize("token", ["", "x", "not the key", None, 12, "\ud800 a broken character"])
def test_rejoin_with_a_wrong_token_is_refused(store, token):
    code, ada, _ = two_learners(store)
    with pytest.raises(WrongToken):
        store.rejoin(code, token)
    with pytest.raises(WrongToken):
        store.rejoin(code, ada.token[:-1])


def test_a_seat_and_a_store_never_show_their_secrets(store_url):
    url = store_url
    if backend(url) == "postgresql":
        url = url.replace("tester@", "tester:hush-hush@")
    opened = TableStore(url)
    code = opened.create("colorfox", seed=1)
    ada = opened.join(code, name="Ada")
    assert ada.token not in repr(ada) and ada.token not in str(ada)
    assert "hush-hush" not in repr(opened)
    opened.engine.dispose()


def test_a_token_opens_only_its_own_table(store):
    _, ada, _ = two_learners(store)
    second = store.create("colorfox", seed=4)
    with pytest.raises(WrongToken):
        store.rejoin(second, ada.token)


def test_join_takes_the_first_free_seat_and_refuses_taken_bot_and_missing_seats(store):
    code = store.create("colorfox", colorfox.Rules(players=3), seed=1, bots={0: "GreedyBot"})
    assert store.join(code, name="Ada").seat == 1
    with pytest.raises(SeatTaken, match="Ada"):
        store.join(code, seat=1, name="Bo")
    with pytest.raises(SeatTaken, match="bot"):
        store.join(code, seat=0, name="Bo")
    for seat in (3, -1, "1", True):
        with pytest.raises(SeatTaken):
            store.join(code, seat=seat, name="Bo")
    assert store.join(code, name="Bo").seat == 2
    with pytest.raises(SeatTaken, match="full"):
        store.join(code, name="Cy")
    assert store.seat_names(code) == ["GreedyBot", "Ada", "Bo"]


@pytest.mark.parametrize(
    "code", ["", "QQQQQ", "ZZZZZ", "AAAAAA", "A-C-D", None, 12345, "ACDEF; DROP TABLE colorlab_seats"]
)
def test_an_unknown_code_is_refused(store, code):
    store.create("colorfox", seed=1)
    with pytest.raises(UnknownTable):
        store.join(code, name="Ada")
    with pytest.raises(UnknownTable):
        store.rejoin(code, "token")
    with pytest.raises(UnknownTable):
        store.record(code)
    with pytest.raises(UnknownTable):
        store.watch(code)
    assert isinstance(UnknownTable("x"), TableError)


def test_a_code_typed_in_lower_case_with_spaces_is_accepted(store):
    code = store.create("colorium", colorium.Rules(players=2), seed=1)
    seat = store.join(f"  {code.lower()}\t", name="Ada")
    assert seat.code == code
    assert store.watch(code.lower()).code == code
    assert store.record(f" {code} ") == store.record(code)


LOOK_ALIKES_TYPED = {"D": "DO0"}  # what a learner may type for a D of a code


@st.composite
def typed_codes(draw) -> tuple[str, str]:
    """A code and a way of typing it: any case, spaces or dashes between letters, a look-alike for D."""
    code = "".join(draw(st.lists(st.sampled_from(CODE_LETTERS), min_size=CODE_LENGTH, max_size=CODE_LENGTH)))
    typed = ""
    for letter in code:
        typed += draw(st.sampled_from(["", " ", "  ", "-", "\t", "."]))
        letter = draw(st.sampled_from(LOOK_ALIKES_TYPED.get(letter, letter)))
        typed += letter.lower() if draw(st.booleans()) else letter
    return code, typed + draw(st.sampled_from(["", " ", "\n"]))


@given(typed_codes())
def test_a_code_typed_with_spaces_dashes_either_case_or_look_alikes_is_the_code(typed):
    code, as_typed = typed
    assert clean_code(as_typed) == code


def test_a_code_typed_with_a_space_inside_joins_its_table(store):
    code = store.create("colorfox", seed=3)
    spaced = f"{code[:2]} {code[2:].lower()}"
    assert store.join(spaced, name="Ada").code == code
    assert store.seat_names(code)[0] == "Ada"


@pytest.mark.parametrize("second", ["Sam", "sam", "  SAM ", "Sam\u00a0"])
def test_a_second_learner_of_the_same_name_at_a_table_is_asked_to_add_a_letter(store, second):
    code = store.create("colorfox", colorfox.Rules(players=3), seed=3)
    store.join(code, name="Sam")
    before = store.tables([code])
    with pytest.raises(NameTaken, match="add a letter to your name"):
        store.join(code, name=second)
    assert store.tables([code]) == before, "the refused join changed the table"
    assert store.join(code, name="Sam K").seat == 1
    assert store.join(f"{code[0]} {code[1:]}", name="Sammy").seat == 2


@pytest.mark.parametrize(
    "name", ["", "   ", "\u3000", "x" * 31, "Ada\x07", "Ada\x1b[31m", "Ada\u200b", "\u202eAda", "Ada\x00", None, 7]
)
def test_names_that_are_empty_too_long_or_hold_control_characters_are_refused(store, name):
    code = store.create("colorfox", seed=1)
    with pytest.raises(TableError, match="name"):
        store.join(code, name=name)
    assert store.seat_names(code) == [None, None]


def test_names_are_kept_tidy(store):
    code = store.create("colourbrain", colourbrain.Rules(teams=3), seed=1)
    names = [store.join(code, name=typed).name for typed in ("  Ada ", "Bo\tand\nCy", "Élodie 李")]
    assert names == ["Ada", "Bo and Cy", "Élodie 李"]
    assert store.seat_names(code) == names
    assert store.join(store.create("colorfox", seed=1), name="x" * 30).name == "x" * 30


# --- 2. every refusal of a move changes nothing ------------------------------------------------


def illegal(game, state):
    """An action of seat 0, at its turn, that the game's rules refuse: (action, the game's error)."""
    if game == "colorfox":
        foreign = next(card for hand in state.hands[1:] for card in hand)
        return colorfox.Place(0, foreign.number, 1, 0), colorfox.model.CardNotInHand
    if game == "colorium":
        return colorium.Pick(0, len(state.pool)), colorium.model.BadPick
    if game == "colourbrain":
        return colourbrain.Answer(0, ("ultraviolet",) * state.question.count), colourbrain.model.BadAnswer
    hidden = next(number for number in range(1, 31) if number not in {task.number for task in state.revealed_tasks()})
    return colorform.Claim(0, hidden), colorform.model.TaskNotAvailable


@pytest.mark.parametrize("game", sorted(TABLES))
def test_an_illegal_action_raises_the_games_own_error_and_changes_nothing(store, game):
    code, ada, _ = two_learners(store, game)
    state = ada.state()
    action, error = illegal(game, state)
    before = unchanged(store, code)
    with pytest.raises(error) as refusal:
        ada.play(action, seen=ada.step)
    assert isinstance(refusal.value, IllegalAction) and str(refusal.value)
    assert unchanged(store, code) == before
    assert ada.state() == state


def test_acting_for_another_seat_is_refused(store):
    code, _ada, bo = two_learners(store)
    before = unchanged(store, code)
    with pytest.raises(NotYourSeat, match="seat 0"):
        bo.play(colorfox.legal_actions(bo.state())[0])
    assert unchanged(store, code) == before


def out_of_turn(game, state):
    """A move of seat 1 that would be fine if it were seat 1's turn."""
    if game == "colorfox":
        spot = colorfox.model.legal_spots(state, 1)
        return colorfox.Place(1, *spot[0]) if spot else colorfox.Pass(1)
    if game == "colorium":
        return colorium.agents.legal_picks(state, 1)[0]
    return colorform.Pass(1)


@pytest.mark.parametrize(
    "game, rules", [("colorfox", {}), ("colorium", {"players": 2}), ("colorform", {"variant": "junior"})]
)
def test_moving_out_of_turn_raises_the_games_not_your_turn(store, game, rules):
    code, _ada, bo = two_learners(store, game, **rules)
    action = out_of_turn(game, bo.state())
    before = unchanged(store, code)
    with pytest.raises(NotYourTurn):
        bo.play(action)
    assert unchanged(store, code) == before


def test_a_learner_cannot_send_a_stop_with_times_of_its_own(store):
    code, seats, claims = racing_table(store)
    before = unchanged(store, code)
    with pytest.raises(NotYourSeat):
        seats[0].play(Stop((claims[0],)))
    with pytest.raises(NotYourSeat):
        seats[0].play(Stop((claims[0], dataclasses.replace(claims[1], time=0.1))))
    assert unchanged(store, code) == before


@pytest.mark.parametrize(
    "game, change",
    [
        ("colorfox", {"half_turn": True}),
        ("colorform", {"stop_window": 1.0}),
        ("colourbrain", {"copier_back": True}),
        ("colorium", {"five_points": 3}),
    ],
)
def test_a_rule_change_at_a_table_is_refused(store, game, change):
    code, ada, _ = two_learners(store, game)
    before = unchanged(store, code)
    with pytest.raises(IllegalAction, match="rules"):
        ada.play(ChangeRules(change))
    assert unchanged(store, code) == before


def test_a_closed_table_refuses_moves_and_new_players(store):
    code, ada, _ = two_learners(store)
    open_code = store.create("colorfox", seed=1)
    store.close(code)
    store.close(open_code)
    before = unchanged(store, code)
    with pytest.raises(TableClosed):
        ada.play(colorfox.legal_actions(ada.state())[0])
    with pytest.raises(TableClosed):
        store.join(open_code, name="Cy")
    assert unchanged(store, code) == before
    assert isinstance(TableClosed("x"), IllegalAction) and isinstance(TableClosed("x"), TableError)


def test_no_move_before_every_seat_is_taken(store):
    code = store.create("colorfox", colorfox.Rules(players=3), seed=1, bots={2: "GreedyBot"})
    ada = store.join(code, seat=0, name="Ada")
    with pytest.raises(WaitingForPlayers):
        ada.play(colorfox.legal_actions(ada.state())[0])
    assert store.table_row(code).steps == 0
    assert ada.view()["seating"]["free_seats"] == 1 and not ada.view()["seating"]["started"]
    store.join(code, seat=1, name="Bo")
    ada.play(colorfox.legal_actions(ada.state())[0])
    assert store.table_row(code).steps >= 1


def test_bots_wait_until_every_seat_is_taken(store):
    code = store.create("colorfox", colorfox.Rules(players=2), seed=1, bots={0: "GreedyBot"})
    assert store.watch(code).view()["seating"]["step"] == 0
    assert store.table_row(code).steps == 0
    store.join(code, name="Bo")
    assert store.watch(code).view()["seating"]["step"] == 1


@pytest.mark.parametrize("forge", ["wrong", "other seat's", "watcher's", "no", "a number as"])
def test_a_forged_seat_is_refused(store, forge):
    code, ada, bo = two_learners(store)
    token = {"wrong": "x" * 43, "other seat's": bo.token, "watcher's": "", "no": None, "a number as": 7}[forge]
    forged = Seat(store, code, 0, "Ada", token)
    before = unchanged(store, code)
    with pytest.raises(WrongToken):
        forged.play(colorfox.legal_actions(ada.state())[0])
    watcher = store.watch(code)
    with pytest.raises(NotYourSeat):
        watcher.play(colorfox.legal_actions(ada.state())[0])
    watcher.seat = 0
    with pytest.raises(WrongToken):
        watcher.play(colorfox.legal_actions(ada.state())[0])
    assert unchanged(store, code) == before


def test_a_move_chosen_before_the_table_moved_on_is_stale(store):
    code, ada, bo = two_learners(store, "colorium", seed=2, players=2)
    looked = ada.step
    first = colorium.agents.legal_picks(ada.state(), 0)[0]
    ada.play(first, seen=looked)
    assert ada.step == looked + 1
    # snake order 0, 1, 1, 0: Ada looked at the pool before Bo took two dice
    old = ada.step
    for _ in range(2):
        bo.play(colorium.agents.legal_picks(bo.state(), 1)[0], seen=bo.step)
    before = unchanged(store, code)
    with pytest.raises(StaleMove, match="look again"):
        ada.play(colorium.agents.legal_picks(ada.state(), 0)[0], seen=old)
    for seen in (-1, ada.step + 1, True, "3"):
        with pytest.raises(StaleMove):
            ada.play(colorium.agents.legal_picks(ada.state(), 0)[0], seen=seen)
    assert unchanged(store, code) == before
    ada.play(colorium.agents.legal_picks(ada.state(), 0)[0], seen=ada.step)


def test_colourbrain_teams_answer_at_once_so_another_teams_answer_is_not_stale(store):
    code = store.create("colourbrain", colourbrain.Rules(teams=3), seed=5)
    teams = [store.join(code, name=name) for name in ("Reds", "Blues", "Greens")]
    looked = [team.step for team in teams]
    question = teams[0].state().question
    for team in teams[:2]:
        team.play(colourbrain.Answer(team.seat, question.answer), seen=looked[team.seat])
    assert store.table_row(code).steps == 2
    teams[2].play(colourbrain.Answer(2, question.answer), seen=looked[2])
    assert teams[0].state().asked == 1
    # the question has moved on: an answer chosen for the old one is stale
    before = unchanged(store, code)
    with pytest.raises(StaleMove):
        teams[0].play(colourbrain.Answer(0, question.answer), seen=looked[0])
    assert unchanged(store, code) == before


def test_a_refused_move_at_a_table_where_a_bot_was_due_leaves_every_kernel_in_step(store, store_url):
    code = store.create("colorfox", colorfox.Rules(players=2), seed=6, bots={0: "GreedyBot"})
    bo = store.join(code, seat=1, name="Bo")
    with pytest.raises(IllegalAction):
        bo.play(colorfox.Place(1, 999, 5, 5))
    assert store.table_row(code).steps == 0
    other = TableStore(store_url)
    view = bo.view()
    assert view == other.rejoin(code, bo.token).view()
    assert bo.state() == store.record(code).final_state() == other.record(code).final_state()
    assert view["seating"]["step"] == 1
    other.engine.dispose()


def test_the_same_move_sent_from_two_devices_of_one_seat_is_played_once(store, store_url):
    code, ada, _ = two_learners(store)
    phone = TableStore(store_url)
    again = phone.rejoin(code, ada.token)
    looked = again.step
    action = colorfox.legal_actions(again.state())[0]
    ada.play(action, seen=looked)
    before = unchanged(store, code)
    with pytest.raises(StaleMove):
        again.play(action, seen=looked)
    with pytest.raises(IllegalAction):
        again.play(action)
    assert unchanged(store, code) == before and store.record(code).actions == (action,)
    phone.engine.dispose()


def test_a_kernel_that_looks_from_other_threads_while_it_plays_stays_in_step(store):
    code, seats = seated(store, "colorium", seed=2)
    failures = []
    done = threading.Event()

    def look():
        while not done.is_set():
            try:
                for seat in seats:
                    seat.view()
            except Exception as error:  # any error at all fails the test below
                failures.append(error)
                return

    lookers = [threading.Thread(target=look) for _ in range(3)]
    for looker in lookers:
        looker.start()
    try:
        final = play_to_the_end(seats, seed=2)
    finally:
        done.set()
        for looker in lookers:
            looker.join()
    assert failures == []
    assert store.record(code).final_state() == final


def test_a_team_answers_only_once_per_question(store):
    code = store.create("colourbrain", colourbrain.Rules(teams=3), seed=5)
    reds = store.join(code, name="Reds")
    store.join(code, name="Blues")
    store.join(code, name="Greens")
    question = reds.state().question
    reds.play(colourbrain.Answer(0, question.answer))
    before = unchanged(store, code)
    with pytest.raises(NotYourTurn):
        reds.play(colourbrain.Answer(0, question.answer))
    assert unchanged(store, code) == before


# --- 3. bots -------------------------------------------------------------------------------------


def test_bots_move_as_soon_as_anyone_touches_the_table(store):
    code = store.create("colorfox", colorfox.Rules(players=2), seed=1, bots={0: "GreedyBot"})
    bo = store.join(code, seat=1, name="Bo")
    assert store.table_row(code).steps == 0  # nobody has looked yet
    view = bo.view()
    assert view["seating"]["step"] >= 1 and view["to_move"] == 1
    assert store.record(code).actions[0].player == 0
    assert store.tables()[0]["actions"] == view["seating"]["step"]


def test_a_table_of_bots_plays_to_the_end_when_watched(store):
    code = store.create("colorium", colorium.Rules(players=2), seed=4, bots={0: "GreedyBot", 1: "RandomBot"})
    view = store.watch(code).view()
    assert view["over"] and view["seating"]["started"]
    record = store.record(code)
    record.check()
    assert store.tables()[0]["over"] and store.tables()[0]["scores"] == colorium.scores(record.final_state())


@pytest.mark.parametrize("game", sorted(TABLES))
def test_learners_and_bots_play_a_whole_game_whose_record_replays_to_the_table(store, game):
    code, seats = seated(store, game, seed=11)
    final = play_to_the_end(seats, seed=11)
    record = store.record(code)
    record.check()
    assert record.final_state() == final
    bots = set(TABLES[game][1])
    table = table_game(game)
    assert {table.seat_of(action) for action in record.actions} & bots, "the bots never moved"
    entry = store.tables()[0]
    assert entry["over"] and entry["actions"] == len(record.actions) and entry["scores"] == table.scores(final)
    assert GameRecord.from_json(record.to_json()) == record


def test_a_whole_base_colorform_game_of_stop_calls_replays_to_the_table(store):
    code, ada, bo = two_learners(store, "colorform", seed=12, stop_window=0.0)
    solver = colorform.ReactionBot("hard")
    for _ in range(3000):
        state = ada.state()
        if state.over:
            break
        called = {call.seat for call in store.calls(code)}
        ready = [
            (seat, claim)
            for seat in (ada, bo)
            if seat.seat not in called and (claim := solver.act(state, seat.seat)) is not None
        ]
        if ready:
            try:
                ready[0][0].play(ready[0][1], seen=ready[0][0].step)
            except StaleMove:
                continue  # the window of a waiting call closed meanwhile: the table settled it first
    record = store.record(code)
    record.check()
    assert record.final_state() == ada.state() and ada.state().over
    stops = [action for action in record.actions if isinstance(action, Stop)]
    assert len(stops) == len(record.actions) > 3
    assert {claim.player for stop in stops for claim in stop.claims} == {0, 1}


@pytest.mark.parametrize("game", sorted(TABLES))
def test_bots_moves_are_the_same_in_every_store(store, store_url, other_url, game):
    records = []
    for url in (store_url, other_url):
        opened = TableStore(url)
        code, seats = seated(opened, game, seed=23)
        play_to_the_end(seats, seed=5)
        records.append(opened.record(code))
        opened.engine.dispose()
    assert records[0] == records[1]
    bots = TABLES[game][1]
    assert any(table_game(game).seat_of(action) in bots for action in records[0].actions)


def test_two_kernels_touching_a_bot_table_write_its_moves_once(store, store_url):
    code = store.create("colorfox", colorfox.Rules(players=2), seed=8, bots={0: "GreedyBot"})
    bo = store.join(code, seat=1, name="Bo")
    other = TableStore(store_url)
    watched = other.watch(code).view()
    mine = bo.view()
    assert mine["seating"]["step"] == watched["seating"]["step"] == 1
    assert len(store.record(code).actions) == 1
    other.engine.dispose()


# --- 4. the table's clock (Col-Or-Form's STOP calls) --------------------------------------------

WINDOW = 0.4


def clock(store) -> float:
    """The table's clock: the server's for PostgreSQL, this machine's for a SQLite file."""
    with store.engine.connect() as connection:
        if store.postgresql:
            return float(connection.execute(sqlalchemy.text("SELECT EXTRACT(EPOCH FROM clock_timestamp())")).scalar())
    return time.time()


def racing_table(store, window=WINDOW):
    """A base Col-Or-Form table where both learners can solve a different task: (code, seats, claims)."""
    rules = colorform.Rules(players=2, stop_window=window, rotations=False)
    solver = colorform.ReactionBot("hard")
    for seed in range(200):
        state = colorform.new_game(rules, seed)
        claims = [solver.act(state, seat) for seat in range(2)]
        if all(claims) and claims[0].task != claims[1].task:
            code = store.create("colorform", rules, seed=seed)
            return code, [store.join(code, seat=seat, name=f"P{seat}") for seat in range(2)], claims
    raise AssertionError("no deal where both players can solve a different task")


def since(store, code) -> float:
    with store.engine.connect() as connection:
        return connection.execute(
            sqlalchemy.text("SELECT since FROM colorlab_tables WHERE code = :code"), {"code": code}
        ).scalar_one()


def test_calls_within_the_window_are_settled_together_and_stamped_by_the_tables_clock(store):
    code, seats, claims = racing_table(store)
    start = since(store, code)
    stamps = []
    for seat, claim, sent in zip(seats, claims, (999.0, 0.0)):
        before = clock(store)
        seat.play(dataclasses.replace(claim, time=sent))
        stamps.append((before - start, clock(store) - start))
        time.sleep(WINDOW / 4)
    assert store.table_row(code).steps == 0
    assert seats[1].view()["seating"]["called"] == [0, 1]
    time.sleep(WINDOW)
    seats[0].view()
    stop = store.record(code).actions[-1]
    assert isinstance(stop, Stop) and [claim.player for claim in stop.claims] == [0, 1]
    for claim, (earliest, latest) in zip(stop.claims, stamps):
        assert earliest - 0.002 <= claim.time <= latest + 0.002
    assert stop.claims[1].time - stop.claims[0].time <= WINDOW
    assert [dataclasses.replace(claim, time=0.0) for claim in stop.claims] == [
        dataclasses.replace(claim, time=0.0) for claim in claims
    ]


@pytest.mark.slow
def test_nothing_is_settled_before_the_window_closes(store):
    code, seats, claims = racing_table(store, window=1.0)
    seats[0].play(claims[0])
    called = time.monotonic()
    while time.monotonic() - called < 0.7:
        view = seats[1].view()
        assert view["seating"]["step"] == 0 and view["seating"]["called"] == [0]
        time.sleep(0.1)
    time.sleep(0.5)
    assert seats[1].view()["seating"]["step"] == 1
    assert store.calls(code) == []


def test_a_call_after_the_window_is_not_in_the_first_stop(store):
    code, seats, claims = racing_table(store)
    seats[0].play(claims[0])
    time.sleep(WINDOW + 0.2)
    with contextlib.suppress(IllegalAction):  # the first STOP changed the table, and the late claim no longer applies
        seats[1].play(claims[1])
    record = store.record(code)
    first = record.actions[0]
    assert isinstance(first, Stop) and [claim.player for claim in first.claims] == [0]
    assert first.claims[0].time < WINDOW
    assert all(claim.player == 1 for action in record.actions[1:] for claim in action.claims)


@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
def test_a_kernel_with_a_wrong_clock_cannot_move_a_postgresql_tables_clock(store, monkeypatch):
    code, seats, claims = racing_table(store)
    start = since(store, code)
    before = clock(store)
    real = time.time
    monkeypatch.setattr("colorlab.tables.database.time", types.SimpleNamespace(time=lambda: real() + 1000.0))
    seats[0].play(claims[0])
    after = clock(store)
    [call] = store.calls(code)
    assert before - start - 0.002 <= call.seconds <= after - start + 0.002


def test_a_second_call_from_the_same_seat_waits_for_the_first(store):
    code, seats, claims = racing_table(store, window=1.0)
    seats[0].play(claims[0])
    with pytest.raises(AlreadyCalled):
        seats[0].play(claims[0])
    with pytest.raises(NotYourSeat):
        seats[0].play(claims[1])
    assert [call.seat for call in store.calls(code)] == [0]


@pytest.mark.slow
def test_a_bots_planned_call_is_counted_on_the_tables_clock(store):
    rules = colorform.Rules(players=2, stop_window=0.0, rotations=False)
    planned = None
    for seed in range(200):
        bot = ready(seat_bot(find_game("colorform").bots["ReactionBot (hard)"], seed, 1), 0)
        claim = bot.act(colorform.new_game(rules, seed), 1)
        if claim is not None and claim.time < 1.5:
            planned = seed, claim
            break
    assert planned, "no deal where the bot sees a solution quickly"
    seed, claim = planned
    code = store.create("colorform", rules, seed=seed, bots={1: "ReactionBot (hard)"})
    ada = store.join(code, seat=0, name="Ada")
    start = since(store, code)
    assert ada.view()["seating"]["step"] == 0
    while clock(store) - start < claim.time + 0.05:
        time.sleep(0.05)
    ada.view()
    stop = store.record(code).actions[0]
    assert stop == Stop((claim,))


@pytest.mark.slow
def test_a_learners_call_and_a_bots_planned_call_in_one_window_make_one_stop(store):
    rules = colorform.Rules(players=2, stop_window=2.0, rotations=False)
    solver = colorform.ReactionBot("hard")
    for seed in range(300):
        state = colorform.new_game(rules, seed)
        plan = ready(seat_bot(find_game("colorform").bots["ReactionBot (hard)"], seed, 1), 0).act(state, 1)
        mine = solver.act(state, 0)
        if plan is not None and mine is not None and plan.time < 1.8:
            break
    else:
        raise AssertionError("no deal where the learner and the bot both see a solution")
    code = store.create("colorform", rules, seed=seed, bots={1: "ReactionBot (hard)"})
    ada = store.join(code, seat=0, name="Ada")
    ada.play(mine)
    start, [call] = since(store, code), store.calls(code)
    while clock(store) - start < call.seconds + 2.0 - 0.2:
        assert ada.view()["seating"]["step"] == 0
        time.sleep(0.2)
    time.sleep(0.4)
    ada.view()
    [stop] = store.record(code).actions
    assert [claim.player for claim in stop.claims] == [0, 1]
    assert stop.claims[1] == plan and stop.claims[0].time < plan.time


# --- 6. the teacher's side -----------------------------------------------------------------------


def test_tables_lists_every_table_with_its_seats_actions_and_scores(store):
    fox, ada, _bo = two_learners(store)
    ada.play(colorfox.legal_actions(ada.state())[0])
    quiz = store.create("colourbrain", colourbrain.Rules(teams=3), seed=2, bots={1: "QuizBot (hard)"})
    store.join(quiz, seat=0, name="Reds")
    done = store.create("colorium", colorium.Rules(players=2), seed=4, bots={0: "RandomBot", 1: "RandomBot"})
    store.watch(done).view()
    listed = {entry["code"]: entry for entry in store.tables()}
    assert set(listed) == {fox, quiz, done}
    assert [entry["code"] for entry in store.tables()] == [fox, quiz, done]  # oldest first
    assert listed[fox]["game"] == "colorfox" and listed[fox]["actions"] == len(store.record(fox).actions) >= 1
    assert [(seat["name"], seat["human"], seat["free"]) for seat in listed[fox]["seats"]] == [
        ("Ada", True, False),
        ("Bo", True, False),
    ]
    assert [(seat["name"], seat["bot"], seat["human"], seat["free"]) for seat in listed[quiz]["seats"]] == [
        ("Reds", None, True, False),
        ("QuizBot (hard)", "QuizBot (hard)", False, False),
        (None, None, True, True),
    ]
    assert not listed[quiz]["started"] and listed[quiz]["actions"] == 0 and not listed[quiz]["over"]
    assert listed[done]["over"] and not listed[fox]["over"]
    for code, entry in listed.items():
        final = store.record(code).final_state()
        table = table_game(entry["game"])
        assert entry["scores"] == table.scores(final)
        assert entry["waiting_for"] == table.waiting_for(final)
    json.dumps(store.tables())


def test_the_record_replays_to_the_tables_state(store):
    code, seats = seated(store, "colorfox", seed=3)
    for _ in range(12):
        state = seats[0].state()
        mover = [seat for seat in seats if seat.seat in table_game("colorfox").waiting_for(state)]
        if mover:
            mover[0].play(colorfox.legal_actions(state)[-1])
    record = store.record(code)
    record.check()
    assert record.final_state() == seats[1].state()
    assert record.game == "colorfox" and record.seed == 3 and record.rules == TABLES["colorfox"][0]
    assert not record.practice


def test_the_teacher_sees_moves_made_in_other_kernels(store, store_url):
    code, ada, _bo = two_learners(store)
    teacher = TableStore(store_url)
    assert teacher.record(code).actions == () and len(teacher.records()[0].actions) == 0
    ada.play(colorfox.legal_actions(ada.state())[0])
    assert teacher.tables()[0]["actions"] == 1
    assert len(teacher.record(code).actions) == 1
    assert teacher.records() == [store.record(code)]
    teacher.engine.dispose()


def test_the_teachers_export_holds_moves_made_in_other_kernels(store, store_url, tmp_path):
    code, ada, _bo = two_learners(store)
    teacher = TableStore(store_url)
    teacher.export(tmp_path / "before")
    ada.play(colorfox.legal_actions(ada.state())[0])
    [path] = teacher.export(tmp_path / "after")
    assert GameRecord.load(path) == store.record(code) and len(store.record(code).actions) == 1
    teacher.engine.dispose()


def test_closing_keeps_the_record_and_stops_the_bots(store):
    code = store.create("colorfox", colorfox.Rules(players=2), seed=1, bots={0: "GreedyBot"})
    bo = store.join(code, seat=1, name="Bo")
    store.close(code)
    store.close(code)  # closing twice is harmless
    assert store.watch(code).view()["seating"]["closed"]
    assert store.table_row(code).steps == 0
    assert store.tables()[0]["closed"]
    assert store.record(code).actions == ()
    looking = store.rejoin(code, bo.token)  # a learner may still look at a closed table
    assert looking.view()["seating"]["closed"] and looking.view()["seating"]["step"] == 0
    with pytest.raises(UnknownTable):
        store.close("QQQQQ")


def test_records_and_export_write_one_file_per_table_that_loads_back_equal(store, tmp_path):
    codes = [seated(store, game, seed=number)[0] for number, game in enumerate(sorted(TABLES))]
    for code in codes:
        store.watch(code).view()
    finished = store.create("colorfox", colorfox.Rules(players=2), seed=9, bots={0: "GreedyBot", 1: "SetBuilder"})
    store.watch(finished).view()
    codes.append(finished)
    records = store.records()
    assert records == [store.record(code) for code in codes]
    paths = store.export(tmp_path / "lab")
    assert len(paths) == len(set(paths)) == len(codes)
    assert sorted(path.name for path in (tmp_path / "lab").iterdir()) == sorted(path.name for path in paths)
    for path, code in zip(paths, codes):
        assert code in path.name
        loaded = GameRecord.load(path)
        assert loaded == store.record(code) and len(loaded.actions) == len(store.record(code).actions)
    assert store.export(tmp_path / "lab") == paths  # exporting again replaces the same files


# --- 7. the schema -------------------------------------------------------------------------------


def run_sql(url: str, *statements: str) -> None:
    engine = sqlalchemy.create_engine(url)
    with engine.begin() as connection:
        for statement in statements:
            connection.execute(sqlalchemy.text(statement))
    engine.dispose()


def table_names(url: str) -> set[str]:
    engine = sqlalchemy.create_engine(url)
    names = set(sqlalchemy.inspect(engine).get_table_names())
    engine.dispose()
    return names


def test_a_new_store_creates_its_schema_on_first_use(store_url):
    assert table_names(store_url) == set()
    TableStore(store_url).engine.dispose()
    assert {"colorlab_store", "colorlab_tables", "colorlab_seats", "colorlab_actions"} <= table_names(store_url)
    second = TableStore(store_url)  # opening again finds the schema and keeps it
    assert second.tables() == []
    second.engine.dispose()


@pytest.mark.parametrize("version, words", [(str(SCHEMA_VERSION + 1), "newer"), ("1", "older")])
def test_a_store_of_another_schema_version_is_refused_naming_both(store_url, version, words):
    TableStore(store_url).engine.dispose()
    run_sql(store_url, f"UPDATE colorlab_store SET value = '{version}' WHERE key = 'schema'")
    with pytest.raises(TableError) as refusal:
        TableStore(store_url)
    message = str(refusal.value)
    assert words in message and f"schema {version}" in message and f"schema {SCHEMA_VERSION}" in message


def test_a_store_of_schema_2_is_upgraded_in_place_and_its_tables_play_on(store_url):
    store = TableStore(store_url)
    code = store.create("colorfox", colorfox.Rules(players=2), seed=4, bots={1: "GreedyBot"})
    ada = store.join(code, seat=0, name="Ada")
    ada.play(colorfox.GreedyBot(seed=1).act(ada.state(), 0))
    before = store.record(code)
    store.engine.dispose()
    # Take the store back to schema 2 as colorlab wrote it then: no change marks and no indexes for them.
    run_sql(
        store_url,
        "DROP INDEX colorlab_tables_changed",
        "DROP INDEX colorlab_tables_open",
        "ALTER TABLE colorlab_tables DROP COLUMN changed",
        "ALTER TABLE colorlab_seats DROP COLUMN seen",
        "UPDATE colorlab_store SET value = '2' WHERE key = 'schema'",
    )
    upgraded = TableStore(store_url)
    assert upgraded.record(code) == before
    seat = upgraded.rejoin(code, ada.token)
    seat.play(colorfox.GreedyBot(seed=1).act(seat.state(), 0))
    assert upgraded.record(code).actions[: len(before.actions)] == before.actions
    engine = sqlalchemy.create_engine(store_url)
    with engine.connect() as connection:
        version = connection.execute(sqlalchemy.text("SELECT value FROM colorlab_store WHERE key = 'schema'"))
        marks = connection.execute(sqlalchemy.text("SELECT changed FROM colorlab_tables WHERE code = :c"), {"c": code})
        assert version.scalar_one() == str(SCHEMA_VERSION) and marks.scalar_one() > 0
    engine.dispose()
    upgraded.engine.dispose()


@pytest.mark.parametrize("damage", ["no store table", "no version row", "unreadable version"])
def test_a_database_with_colorlab_tables_but_no_version_is_refused_and_left_untouched(store_url, damage):
    TableStore(store_url).engine.dispose()
    statement = {
        "no store table": "DROP TABLE colorlab_store",
        "no version row": "DELETE FROM colorlab_store",
        "unreadable version": "UPDATE colorlab_store SET value = 'one' WHERE key = 'schema'",
    }[damage]
    run_sql(store_url, statement)
    names = table_names(store_url)
    with pytest.raises(TableError, match="version"):
        TableStore(store_url)
    assert table_names(store_url) == names


def test_a_database_of_something_else_gets_the_schema_beside_its_own_tables(store_url):
    run_sql(store_url, "CREATE TABLE marks (pupil VARCHAR(20), mark INTEGER)", "INSERT INTO marks VALUES ('Ada', 9)")
    opened = TableStore(store_url)
    assert opened.tables() == []
    opened.engine.dispose()
    assert "marks" in table_names(store_url)


@pytest.mark.parametrize(
    "garbage", [b"\x00\x01garbage" * 400, b"name,score\nAda,9\n", b"SQLite format 3\x00" + b"\xff" * 200]
)
def test_a_file_that_is_not_a_database_is_a_table_error_and_is_left_as_it_was(tmp_path, garbage):
    path = tmp_path / "class.db"
    path.write_bytes(garbage)
    with pytest.raises(TableError, match="cannot open the table store"):
        TableStore(path)
    assert path.read_bytes() == garbage
    assert sorted(Path(tmp_path).iterdir()) == [path]


def test_sqlite_runs_in_wal_mode(tmp_path):
    path = tmp_path / "class.db"
    TableStore(path).engine.dispose()
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_states_replayed_by_a_new_store_match_the_first_stores(store, store_url):
    code, seats = seated(store, "colourbrain", seed=31)
    rng = random.Random(0)
    for _ in range(9):
        state = seats[0].state()
        for seat in seats:
            if seat.seat in table_game("colourbrain").waiting_for(state):
                seat.play(find_game("colourbrain").make_bot("QuizBot (easy)", rng.randrange(99)).act(state, seat.seat))
                break
    later = TableStore(store_url)
    assert later.watch(code).view() == store.watch(code).view()
    assert later.record(code) == store.record(code)
    later.engine.dispose()


# --- the short seat key -------------------------------------------------------------------------


def test_a_short_seat_key_opens_the_seat_on_another_device_as_typed(store, store_url):
    code, ada, _ = two_learners(store)
    assert len(ada.key) == 6 and set(ada.key) <= set(CODE_LETTERS)
    typed = f" {ada.key[:3].lower()}-{ada.key[3:]} "
    again = TableStore(store_url).rejoin(code.lower(), typed)
    assert (again.seat, again.name) == (ada.seat, ada.name)
    again.play(colorfox.legal_actions(again.state())[0], seen=0)  # the key plays for the seat, as the token does
    assert len(store.record(code).actions) == 1


def test_only_a_hash_of_the_short_key_is_stored(store):
    _code, ada, bo = two_learners(store)
    stored = database_text(store)
    assert ada.key not in stored and bo.key not in stored


def test_wrong_short_keys_wait_after_too_many_but_the_long_token_still_opens(store):
    code, ada, _ = two_learners(store)
    wrong = next(key for key in ("AAAAAA", "CCCCCC", "DDDDDD") if key != ada.key)
    for _ in range(WRONG_KEYS_ALLOWED):
        with pytest.raises(WrongToken):
            store.rejoin(code, wrong)
    with pytest.raises(TooManyWrongKeys, match="too many wrong seat keys"):
        store.rejoin(code, ada.key)  # even the right short key waits: guessing has to stop
    assert store.rejoin(code, ada.token).seat == ada.seat


# --- SQLite saying "locked" at once -------------------------------------------------------------


def test_a_store_keeps_trying_while_sqlite_says_locked_at_once_and_gives_up_on_anything_else(monkeypatch):
    from colorlab.tables import database

    answers = [sqlite3.OperationalError("database is locked")] * 3 + ["opened"]

    def attempt():
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    assert database.while_locked(attempt, database._says_locked) == "opened" and answers == []
    with pytest.raises(sqlite3.OperationalError, match="no such table"):
        database.while_locked(
            lambda: (_ for _ in ()).throw(sqlite3.OperationalError("no such table: x")), database._says_locked
        )
    monkeypatch.setattr(database, "LOCKED_PATIENCE", 0.05)
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        database.while_locked(
            lambda: (_ for _ in ()).throw(sqlite3.OperationalError("database is locked")), database._says_locked
        )


def test_a_call_after_the_tables_own_settling_is_a_new_call_not_a_second_one(store):
    """A learner who calls again without saying what it saw: the first call is settled first, then this one waits."""
    from colorlab.colorform.agents import ReactionBot

    spec, rules = game_spec("colorform"), colorform.Rules(players=2, stop_window=0.1)
    for seed in range(40):
        first = ReactionBot("hard", seed=1).act(spec.new_game(rules, seed), 0)
        after = spec.play(spec.new_game(rules, seed), Stop((first,))) if first else None
        second = ReactionBot("hard", seed=2).act(after, 0) if after and not after.over else None
        if second is not None:
            break
    code = store.create("colorform", rules, seed=seed)
    ada, _ = store.join(code, seat=0, name="Ada"), store.join(code, seat=1, name="Bo")
    ada.play(first)
    time.sleep(0.3)  # the first call's window closes; nobody has touched the table since
    ada.play(second)  # settles the first call, then takes this one as a new call
    assert [type(action) for action in store.record(code).actions] == [Stop]
    assert [call.seat for call in store.calls(code)] == [0]


@pytest.mark.processes
def test_the_tables_engine_imports_no_game_and_loads_no_widget(tmp_path):
    """The engine finds a game by its name only when a table asks, and never a widget, even at play."""
    code = f"""
import sys
from colorlab.tables import TableStore
games = sorted(m for m in sys.modules if m.startswith(("colorlab.colo", "colorlab.widgets", "anywidget")))
store = TableStore({str(tmp_path / "class.db")!r})
for game in ("colorfox", "colorium", "colorform", "colourbrain"):
    store.watch(store.create(game, seed=1)).view()
widgets = sorted(m for m in sys.modules if m.startswith(("colorlab.widgets", "anywidget")) or m.endswith(".view"))
print(games, widgets)
"""
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert shown.strip() == "[] []"


# --- the teacher hands seats on ------------------------------------------------------------------


def test_the_teacher_gives_a_dead_devices_seat_to_a_bot_and_the_game_plays_to_its_end(store_url):
    ada_kernel, bo_kernel, teacher = (TableStore(store_url) for _ in range(3))
    code = ada_kernel.create("colorfox", colorfox.Rules(players=2), seed=5)
    ada, bo = ada_kernel.join(code, name="Ada"), bo_kernel.join(code, name="Bo")
    chooser, waiting_for = colorfox.GreedyBot(seed=7), table_game("colorfox").waiting_for
    while waiting_for(ada.state()) != [1]:
        ada.play(chooser.act(ada.state(), 0))
    bo.play(chooser.act(bo.state(), 1))  # Bo moves once, then his tablet dies
    while waiting_for(ada.state()) != [1]:
        ada.play(chooser.act(ada.state(), 0))
    before = teacher.record(code)
    teacher.hand_seat(code, 1, "GreedyBot")
    assert teacher.record(code).actions == before.actions, "handing the seat on played or lost a move"
    assert [seat["name"] for seat in teacher.tables([code])[0]["seats"]] == ["Ada", "GreedyBot"]
    play_to_the_end([ada], seed=2)  # Ada's kernel, which read the seats before, lets the bot move in its turns
    record = teacher.record(code)
    assert record.bots == (None, "GreedyBot") and record.final_state().over
    with pytest.raises(WrongToken):
        bo_kernel.rejoin(code, bo.token)
    for kernel in (ada_kernel, bo_kernel, teacher):
        kernel.engine.dispose()


def test_a_seat_freed_by_the_teacher_mid_game_takes_another_learner_and_the_game_goes_on(store):
    code = store.create("colorfox", colorfox.Rules(players=2), seed=6)
    ada, bo = store.join(code, name="Ada"), store.join(code, name="Bo")
    ada.play(colorfox.GreedyBot(seed=7).act(ada.state(), 0))
    started = store.table_row(code).started
    store.hand_seat(code, 1)
    line = store.tables([code])[0]
    assert line["seats"][1]["free"] and line["started"] and store.table_row(code).started == started
    with pytest.raises(WrongToken):
        store.rejoin(code, bo.token)
    cy = store.join(code, name="Cy")
    assert cy.seat == 1 and store.table_row(code).started == started, "the game started over"
    cy.play(colorfox.GreedyBot(seed=7).act(cy.state(), 1))
    assert len(store.record(code).actions) == 2 and not store.record(code).final_state().over


def test_the_teacher_makes_a_new_seat_key_that_opens_the_seat_on_another_device_and_the_old_one_no_more(store):
    code = store.create("colorfox", colorfox.Rules(players=3), seed=6, bots={2: "GreedyBot"})
    ada = store.join(code, name="Ada")
    key = store.seat_key_for_the_teacher(code, 0)
    assert key != ada.key
    with pytest.raises(WrongToken):
        store.rejoin(code, ada.key)
    assert store.rejoin(code, key.lower()).seat == 0
    assert store.rejoin(code, ada.token).seat == 0, "the page still open at the seat lost it"
    for seat in (1, 2):  # a free seat, a bot's
        with pytest.raises(SeatTaken, match="no learner"):
            store.seat_key_for_the_teacher(code, seat)


@pytest.mark.parametrize(
    "seat, bot, error",
    [(2, None, SeatTaken), (-1, None, SeatTaken), (True, None, SeatTaken), (0, "NoSuchBot", TableError)],
)
def test_a_seat_the_teacher_cannot_hand_on_is_refused_and_changes_nothing(store, seat, bot, error):
    code = store.create("colorfox", colorfox.Rules(players=2), seed=6)
    store.join(code, name="Ada")
    before = store.tables([code])
    with pytest.raises(error):
        store.hand_seat(code, seat, bot)
    assert store.tables([code]) == before


def test_a_closed_tables_seats_are_not_handed_on(store):
    code = store.create("colorfox", colorfox.Rules(players=2), seed=6)
    store.join(code, name="Ada")
    store.close(code)
    with pytest.raises(TableClosed):
        store.hand_seat(code, 0, "GreedyBot")


def test_a_learners_page_is_connected_while_it_says_so_and_away_after_a_minute_of_silence(store_url, store):
    code = store.create("colorfox", colorfox.Rules(players=3), seed=6, bots={2: "GreedyBot"})
    ada = store.join(code, name="Ada")
    connected = [seat["connected"] for seat in store.tables([code])[0]["seats"]]
    assert connected == [True, False, True], "a free seat is nobody's; a bot is always there"
    mark = store.table_row(code).changed
    run_sql(store_url, "UPDATE colorlab_seats SET seen = seen - 61 WHERE seat = 0")
    assert not store.tables([code])[0]["seats"][0]["connected"]
    store.here(ada)
    assert store.tables([code])[0]["seats"][0]["connected"]
    assert store.table_row(code).changed == mark, "a page saying it is open changed the table"
    with pytest.raises(WrongToken):
        store.here(Seat(store, code, 0, "Ada", "not-the-token"))

"""Races at a shared table, and every request a table refuses.

Races: processes released at one moment by a barrier send the same move, or
different seats' moves, or only look at a table whose next move is a bot's. Refusals:
wrong tokens, wrong seats, stale moves, full seats, unknown codes, closed tables and
moves before everyone sits down each raise their own error with a clear message,
and the table, read afresh by another store, is unchanged.
"""

from __future__ import annotations

import time

import pytest

from colorlab import colorform, colorfox, colorium, colourbrain
from colorlab.agents import ready, seat_bot
from colorlab.colorform.agents import ReactionBot
from colorlab.colorform.model import Stop
from colorlab.colorfox.agents import GreedyBot
from colorlab.colorfox.model import Pass, to_move
from colorlab.colorium.agents import GreedyBot as ColoriumBot
from colorlab.games import find_game
from colorlab.record import game_spec
from colorlab.rules import NotYourTurn
from colorlab.tables import (
    NotYourSeat,
    Seat,
    SeatTaken,
    StaleMove,
    TableClosed,
    TableStore,
    UnknownTable,
    WaitingForPlayers,
    WrongToken,
    table_game,
)
from colorlab.tables.store import WRONG_KEYS_ALLOWED
from tests.helpers.tables_players import (
    Workers,
    actions_to_json,
    answer_until_closed,
    race_catch_up,
    race_join,
    race_move,
    race_open,
    race_wrong_keys,
    same_but_time,
)

RACERS = 8


@pytest.fixture(scope="module")
def workers():
    """Eight spawned processes for the module, started once: each race costs no start-up."""
    with Workers(RACERS) as pool:
        yield pool


def seated(url: str, game: str, rules, seed: int = 3) -> tuple[TableStore, str, list[Seat]]:
    """A table with a learner in every seat."""
    store = TableStore(url)
    code = store.create(game, rules, seed=seed)
    return store, code, [store.join(code, seat=seat, name=f"Learner {seat}") for seat in range(rules.players)]


def snapshot(url: str, code: str) -> tuple:
    """The table as a store that took no part reads it: its record and its line in the list of tables."""
    store = TableStore(url)
    return store.record(code), store.tables()


def race(workers: Workers, url: str, code: str, sends: list[tuple[str, object]], seen: int | None) -> list[dict]:
    """Send each (token, action) from its own process, all released at one moment; give what each was told."""
    game = TableStore(url).table_row(code).game
    start_together = workers.barrier(len(sends))
    return workers.run(
        race_move,
        [(url, code, token, actions_to_json(game, [action])[0], seen, start_together) for token, action in sends],
    )


# --- the same move from many processes ------------------------------------------------------


def colorfox_move(url: str) -> tuple[str, Seat, object]:
    """A ColorFox table, the seat to move and its move."""
    _store, code, seats = seated(url, "colorfox", colorfox.Rules(players=2))
    mover = seats[to_move(seats[0].state())]
    return code, mover, GreedyBot(seed=1).act(mover.state(), mover.seat)


def colourbrain_answer(url: str) -> tuple[str, Seat, object]:
    """A Colourbrain quiz, a team and its answer to the first question."""
    _store, code, seats = seated(url, "colourbrain", colourbrain.Rules(teams=2))
    return code, seats[0], colourbrain.Answer(0, seats[0].state().question.answer)


# The racers start together, but on a loaded machine the last may come a good while after the first: the window in which
# calls count as the same moment is wide enough for them all (with 0.1 s, all seven once came after it had closed).
STOP_WINDOW = 1.0


def colorform_claim(url: str) -> tuple[str, Seat, object]:
    """A Col-Or-Form table, a player who can solve a task and the claim (a STOP call) it sends."""
    _store, code, seats = seated(url, "colorform", colorform.Rules(players=2, stop_window=STOP_WINDOW))
    state = seats[0].state()
    claims = [(seat, claim) for seat in seats if (claim := ReactionBot("hard", seed=1).act(state, seat.seat))]
    return code, *claims[0]


MOVES = {"colorfox": colorfox_move, "colourbrain": colourbrain_answer, "colorform": colorform_claim}


@pytest.mark.parametrize("with_seen", [True, False], ids=["seen", "unseen"])
@pytest.mark.parametrize("game", sorted(MOVES))
def test_the_same_move_from_eight_processes_at_once_is_played_once(store_url, workers, game, with_seen):
    code, seat, action = MOVES[game](store_url)
    before, _ = snapshot(store_url, code)
    told = race(workers, store_url, code, [(seat.token, action)] * RACERS, seat.step if with_seen else None)
    assert sum(answer["ok"] for answer in told) == 1, told
    refusals = [answer for answer in told if not answer["ok"]]
    for refusal in refusals:
        assert refusal["message"] and "Error" not in refusal["message"], refusal
    errors = {refusal["error"] for refusal in refusals}
    if game == "colorform":
        # a racer that comes after the same-moment window closed finds the STOP settled and its look stale
        assert "AlreadyCalled" in errors and errors <= (
            {"AlreadyCalled", "StaleMove"} if with_seen else {"AlreadyCalled", "TaskNotAvailable"}
        ), errors
        time.sleep(STOP_WINDOW + 0.05)  # the same-moment window closes; whoever looks next settles the call
        after = TableStore(store_url).catch_up(code).record
        [stop] = after.actions[len(before.actions) :]
        assert isinstance(stop, Stop) and [same_but_time(claim) for claim in stop.claims] == [same_but_time(action)]
    else:
        # a move chosen for an older step is stale; without a step the game's own rules refuse the repeat
        assert errors == {"StaleMove"} if with_seen and game == "colorfox" else "StaleMove" not in errors, errors
        after = TableStore(store_url).record(code)
        assert after.actions == before.actions + (action,), "the table does not have exactly one more action"


# --- different seats at the same moment -----------------------------------------------------


def test_three_teams_answering_at_the_same_moment_are_all_played(store_url, workers):
    _store, code, seats = seated(store_url, "colourbrain", colourbrain.Rules(teams=3))
    question = seats[0].state().question
    answers = [colourbrain.Answer(seat.seat, question.answer) for seat in seats]
    before, _ = snapshot(store_url, code)
    told = race(workers, store_url, code, [(seat.token, answer) for seat, answer in zip(seats, answers)], seats[0].step)
    assert all(answer["ok"] for answer in told), told
    after, tables = snapshot(store_url, code)
    assert after.actions[: len(before.actions)] == before.actions
    assert sorted(after.actions[len(before.actions) :], key=lambda answer: answer.team) == answers
    assert tables[0]["actions"] == len(before.actions) + 3


def test_three_colorium_players_drawing_at_the_same_moment_are_all_played(store_url, workers):
    _store, code, seats = seated(store_url, "colorium", colorium.Rules(players=3))
    bot = ColoriumBot(seed=1)
    while (state := seats[0].state()).phase == "draft":
        mover = seats[state.order[0]]
        mover.play(bot.act(state, mover.seat), seen=mover.step)
    draws = [bot.act(state, seat.seat) for seat in seats]
    before, _ = snapshot(store_url, code)
    told = race(workers, store_url, code, [(seat.token, draw) for seat, draw in zip(seats, draws)], seats[0].step)
    assert all(answer["ok"] for answer in told), told
    after, _ = snapshot(store_url, code)
    assert sorted(after.actions[len(before.actions) :], key=lambda draw: draw.player) == draws


def test_eight_processes_opening_a_new_store_at_once_all_open_it(store_url, workers):
    told = workers.run(race_open, [(store_url, workers.barrier(RACERS))] * RACERS)
    assert told == ["opened, 0 tables"] * RACERS
    assert TableStore(store_url).tables() == []


def test_eight_processes_asking_for_seats_at_once_get_each_seat_once(store_url, workers):
    store = TableStore(store_url)
    code = store.create("colorfox", colorfox.Rules(players=3))
    start_together = workers.barrier(RACERS)
    one_seat = workers.run(race_join, [(store_url, code, 1, f"Learner {n}", start_together) for n in range(RACERS)])
    assert [answer["seat"] for answer in one_seat].count(1) == 1, one_seat
    assert {answer["error"] for answer in one_seat if answer["seat"] is None} == {"SeatTaken"}
    start_together = workers.barrier(RACERS)
    any_seat = workers.run(race_join, [(store_url, code, None, f"Newcomer {n}", start_together) for n in range(RACERS)])
    assert sorted(answer["seat"] for answer in any_seat if answer["seat"] is not None) == [0, 2], any_seat
    assert all("full" in answer["message"] for answer in any_seat if answer["seat"] is None), any_seat
    [entry] = TableStore(store_url).tables()
    assert entry["started"] and all(not seat["free"] for seat in entry["seats"])


def test_eight_processes_trying_wrong_seat_keys_at_once_are_counted_one_by_one_up_to_the_limit(store_url, workers):
    store = TableStore(store_url)
    code = store.create("colorfox", colorfox.Rules(players=2))
    store.join(code, seat=0, name="Ada")
    start_together = workers.barrier(RACERS)
    tries = [(store_url, code, [f"WRONG{n}{k}" for k in range(5)], start_together) for n in range(RACERS)]
    told = [answer for answers in workers.run(race_wrong_keys, tries) for answer in answers]
    assert told.count("WrongToken") == WRONG_KEYS_ALLOWED, told
    assert told.count("TooManyWrongKeys") == RACERS * 5 - WRONG_KEYS_ALLOWED and "opened" not in told


class BusyClock:
    """The table's clock as a busy store reads it: every reading comes `tick` seconds after the one before."""

    def __init__(self, tick: float, now: float = 1_000_000.0):
        self.tick, self.now = tick, now

    def __call__(self, connection) -> float:
        self.now += self.tick
        return self.now


def test_a_stop_call_acknowledged_at_the_edge_of_the_same_moment_window_is_settled_with_the_first(
    store_url, monkeypatch
):
    clock = BusyClock(tick=0.01)
    monkeypatch.setattr("colorlab.tables.store.server_time", clock)
    rules = colorform.Rules(players=2, stop_window=0.5)
    store, code, seats = seated(store_url, "colorform", rules)
    state = seats[0].state()
    first_claim, edge_claim = (ReactionBot("hard", seed=1).act(state, seat) for seat in (0, 1))
    seats[0].play(first_claim, seen=0)
    [first] = store.calls(code)
    window_closes = store.table_row(code).since + first.seconds + rules.stop_window
    clock.now = window_closes - 1.5 * clock.tick  # the second call reaches the table just inside the window
    try:
        seats[1].play(edge_claim, seen=0)
        acknowledged = True
    except StaleMove:
        acknowledged = False
    clock.now += 1.0
    [stop] = store.catch_up(code).record.actions
    assert (1 in [claim.player for claim in stop.claims]) == acknowledged, (
        "a STOP call the table acknowledged was left out of the STOP it settled"
    )


def test_closing_a_table_while_three_processes_play_at_it_stops_them_and_keeps_every_acknowledged_move(
    store_url, workers
):
    store, code, seats = seated(store_url, "colourbrain", colourbrain.Rules(teams=3))
    start_together = workers.barrier(len(seats) + 1)
    playing = workers.start(answer_until_closed, [(store_url, code, seat.token, start_together) for seat in seats])
    start_together.wait(timeout=30)
    deadline = time.monotonic() + 60
    while store.table_row(code).steps < 2 * len(seats) and time.monotonic() < deadline:
        time.sleep(0.02)  # close mid-quiz, once every team has had an answer acknowledged (however busy the machine)
    store.close(code)
    told = [future.result(timeout=60) for future in playing]
    record, tables = snapshot(store_url, code)
    assert any(report["refusal"] for report in told), f"nobody tried to move at the closed table: {told}"
    for report in told:
        assert report["acknowledged"] and "closed" in (report["refusal"] or "closed"), report
        assert [answer for answer in record.actions if answer.team == report["seat"]] == report["acknowledged"], (
            f"the record does not hold team {report['seat']}'s acknowledged answers once each, in order"
        )
    assert tables[0]["closed"] and tables[0]["actions"] == len(record.actions)


# --- bots move for whoever touches the table next -------------------------------------------


def bots_first(game: str, rules, seed: int, bots: dict[int, str]) -> list:
    """The moves the seeded bots make from the start until a learner's move is due (whoever looks)."""
    spec, table = game_spec(game), table_game(game)
    state, moves = spec.new_game(rules, seed), []
    while due := [seat for seat in table.waiting_for(state) if seat in bots]:
        seat = due[0]
        action = ready(seat_bot(spec.bots[bots[seat]], seed, seat), len(moves)).act(state, seat)
        state = spec.play(state, action)
        moves.append(action)
    return moves


BOT_TABLES = {
    "colorfox": (colorfox.Rules(players=2), {0: "RandomBot"}, 1),
    "colourbrain": (colourbrain.Rules(teams=3), {0: "QuizBot (easy)", 1: "QuizBot (easy)"}, 2),
}


@pytest.mark.parametrize("game", sorted(BOT_TABLES))
def test_two_processes_that_only_look_make_the_bots_move_once_and_the_same_way_every_time(store_url, workers, game):
    rules, bots, seed = BOT_TABLES[game]
    start = game_spec(game).new_game(rules, seed)
    [(seat, name), *_] = bots.items()
    assert len({find_game(game).make_bot(name, n).act(start, seat) for n in range(20)}) > 1, "the bot has a real choice"
    expected = bots_first(game, rules, seed, bots)
    assert len(expected) >= len(bots), "every bot moves before the learner"
    store = TableStore(store_url)
    for _ in range(3):
        code = store.create(game, rules, seed=seed, bots=bots)
        store.join(code, name="Ada")
        start_together = workers.barrier(2)
        steps = workers.run(race_catch_up, [(store_url, code, start_together)] * 2)
        assert steps == [len(expected)] * 2
        assert TableStore(store_url).record(code).actions == tuple(expected), "the bots moved twice or differently"


# --- refusals -------------------------------------------------------------------------------


def refused(store: TableStore, code: str, error: type, attempt, *words: str) -> str:
    """Make the attempt, expect `error` with a message holding `words`; the table must not change.

    Neither in the store (read afresh by another store) nor in this kernel's own copy of the table.
    """
    before, own = snapshot(store.where, code), list(store.catch_up(code).states)
    with pytest.raises(error) as caught:
        attempt()
    message = str(caught.value)
    assert all(word in message for word in words), f"{message!r} does not say {words}"
    assert "Traceback" not in message and "sqlalchemy" not in message.lower()
    assert snapshot(store.where, code) == before, "a refused request changed the table"
    assert list(store.catch_up(code).states) == own, "a refused request changed this kernel's copy of the table"
    return message


def test_wrong_tokens_are_refused(store_url):
    store, code, seats = seated(store_url, "colorfox", colorfox.Rules(players=2))
    other = store.create("colorfox", colorfox.Rules(players=2))
    stranger = store.join(other, seat=0, name="Stranger")
    for token in ("", "not a key", seats[1].token[:-1], stranger.token, None):
        refused(store, code, WrongToken, lambda token=token: store.rejoin(code, token), code)
    mover = seats[to_move(seats[0].state())]
    action = GreedyBot(seed=1).act(mover.state(), mover.seat)
    for token in ("forged", seats[1 - mover.seat].token, stranger.token):
        forged = Seat(store, code, mover.seat, mover.name, token)
        refused(store, code, WrongToken, lambda forged=forged: forged.play(action, seen=mover.step), code)
    for number in (2**63, 2**31, -1, True, "0"):  # seats no table has, some beyond what a database column holds
        forged = Seat(store, code, number, mover.name, mover.token)
        refused(store, code, WrongToken, lambda forged=forged: forged.play(action), "there is no seat", code)


def test_moves_for_another_seat_are_refused(store_url):
    store, code, seats = seated(store_url, "colorfox", colorfox.Rules(players=2))
    mover = seats[to_move(seats[0].state())]
    other = seats[1 - mover.seat]
    action = GreedyBot(seed=1).act(mover.state(), mover.seat)
    refused(store, code, NotYourSeat, lambda: other.play(action, seen=other.step), f"seat {other.seat}")
    refused(store, code, NotYourSeat, lambda: store.watch(code).play(action), "seat")
    refused(store, code, NotYourTurn, lambda: other.play(Pass(other.seat), seen=other.step))


def test_stale_moves_are_refused(store_url):
    store, code, seats = seated(store_url, "colorfox", colorfox.Rules(players=2))
    bot = GreedyBot(seed=1)
    looked = seats[0].step
    mover = seats[to_move(seats[0].state())]
    mover.play(bot.act(mover.state(), mover.seat), seen=mover.step)
    mover = seats[to_move(seats[0].state())]
    action = bot.act(mover.state(), mover.seat)
    refused(store, code, StaleMove, lambda: mover.play(action, seen=looked), "look again")
    for never in (-1, mover.step + 1, 10**6, True, "0"):
        refused(store, code, StaleMove, lambda never=never: mover.play(action, seen=never))


def test_taken_seats_full_tables_and_missing_seats_are_refused(store_url):
    store = TableStore(store_url)
    code = store.create("colorfox", colorfox.Rules(players=3), bots={2: "GreedyBot"})
    store.join(code, seat=0, name="Ada")
    refused(store, code, SeatTaken, lambda: store.join(code, seat=0, name="Bob"), "Ada")
    refused(store, code, SeatTaken, lambda: store.join(code, seat=2, name="Bob"), "GreedyBot")
    for seat in (3, -1, True, "1"):
        refused(store, code, SeatTaken, lambda seat=seat: store.join(code, seat=seat, name="Bob"), code)
    store.join(code, name="Cy")
    refused(store, code, SeatTaken, lambda: store.join(code, name="Bob"), "full")


def test_unknown_codes_are_refused(store_url):
    store, code, seats = seated(store_url, "colorfox", colorfox.Rules(players=2))
    missing = "ACDEF" if code != "ACDEF" else "ACDEG"
    for typed in (missing, "", "abc", "0OIL5", "A" * 50, None, 12345):
        for attempt in (
            lambda typed=typed: store.join(typed, name="Bob"),
            lambda typed=typed: store.rejoin(typed, seats[0].token),
            lambda typed=typed: store.record(typed),
            lambda typed=typed: store.watch(typed),
            lambda typed=typed: store.close(typed),
        ):
            refused(store, code, UnknownTable, attempt, "no table")


def test_a_closed_table_refuses_moves_and_newcomers(store_url):
    store = TableStore(store_url)
    waiting = store.create("colorfox", colorfox.Rules(players=3))
    store.join(waiting, seat=0, name="Ada")
    store.close(waiting)
    refused(store, waiting, TableClosed, lambda: store.join(waiting, seat=1, name="Late"), "closed")
    store, code, seats = seated(store_url, "colorfox", colorfox.Rules(players=2))
    mover = seats[to_move(seats[0].state())]
    action = GreedyBot(seed=1).act(mover.state(), mover.seat)
    store.close(code)
    refused(store, code, TableClosed, lambda: mover.play(action, seen=mover.step), "closed")
    assert [entry["closed"] for entry in TableStore(store_url).tables()] == [True, True]


def test_moves_before_every_seat_is_taken_are_refused(store_url):
    store = TableStore(store_url)
    rules, seed = colorfox.Rules(players=3), 4
    first = to_move(colorfox.new_game(rules, seed))
    code = store.create("colorfox", rules, seed=seed)
    mover = store.join(code, seat=first, name="Ada")
    store.join(code, seat=(first + 1) % 3, name="Bob")
    action = GreedyBot(seed=1).act(mover.state(), first)
    refused(store, code, WaitingForPlayers, lambda: mover.play(action, seen=mover.step), "seat")
    assert not TableStore(store_url).tables()[0]["started"]

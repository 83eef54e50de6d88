"""Whole games at one shared table, played by several OS processes at once, and processes killed mid-move.

Each learner is a spawned process with its own TableStore (see tests/helpers/tables_players.py).
It checks the game's invariants on every step it sees; at the end the table's record,
read by a store that played no part, replays to the state every process saw last, and
holds every move a process was told it made: once each, in the order it was made.
"""

from __future__ import annotations

import json
import os
import random
import signal
import time

import pytest

from colorlab import colorform, colorfox, colorium, colourbrain
from colorlab.colorform.model import Stop
from colorlab.record import GameRecord, game_spec
from colorlab.tables import TableStore, table_game
from tests.helpers.quizzes import a_wrong_answer
from tests.helpers.tables_players import (
    Workers,
    actions_to_json,
    append_forever,
    call_and_wait,
    hold_write_lock,
    play_seat,
    race_move,
    results,
    same_but_time,
    start,
    timed_move,
)

# Every test here starts processes: the module's spawned workers, or learners it kills mid-move.
pytestmark = pytest.mark.processes


@pytest.fixture(scope="module")
def workers():
    """Three spawned processes for the module: one per learner."""
    with Workers(3) as pool:
        yield pool


def seat_actions(game: str, record: GameRecord, seat: int) -> list[str]:
    """The moves of one seat in a record, in order; a Col-Or-Form STOP counts each claim for its caller."""
    if game == "colorform":
        claims = [
            same_but_time(claim)
            for action in record.actions
            if isinstance(action, Stop)
            for claim in action.claims
            if claim.player == seat
        ]
        return actions_to_json(game, claims)
    table = table_game(game)
    return actions_to_json(game, [action for action in record.actions if table.seat_of(action) == seat])


def as_sent(game: str, acknowledged: list[str]) -> list[str]:
    """The acknowledged moves as the record keeps them (a claim's time is the table's, not the sender's)."""
    if game != "colorform":
        return acknowledged
    spec = game_spec(game)
    claims = [same_but_time(spec.action_from_dict(json.loads(text))) for text in acknowledged]
    return actions_to_json(game, claims)


def play_at_one_table(
    workers: Workers, url: str, game: str, rules, learners: list[int], bots: dict[int, str], seed: int
) -> tuple:
    """Open a table, seat the learners, let one process per learner play it to the end; give the code and reports."""
    store = TableStore(url)
    code = store.create(game, rules, seed=seed, bots=bots)
    tokens = [store.join(code, seat=seat, name=f"Learner {seat}").token for seat in learners]
    start_together = workers.barrier(len(learners))
    reports = workers.run(
        play_seat,
        [(url, code, token, seed * 10 + index, start_together) for index, token in enumerate(tokens)],
        timeout=90,
    )
    return code, reports


def check_the_whole_game(url: str, game: str, code: str, reports: list[dict]) -> GameRecord:
    """The game is over, its record replays to what every process saw last and holds every acknowledged move."""
    store = TableStore(url)
    record = store.record(code)
    record.check()
    final = record.final_state()
    assert final.over
    for report in reports:
        assert GameRecord.from_json(report["record"]) == record, f"seat {report['seat']} saw another record"
        assert report["state"] == final, f"seat {report['seat']} saw another last state"
        assert report["checked"] == len(record.actions), f"seat {report['seat']} did not check every step"
        assert report["acknowledged"], f"seat {report['seat']} never moved"
        assert seat_actions(game, record, report["seat"]) == as_sent(game, report["acknowledged"]), (
            f"the record does not hold seat {report['seat']}'s acknowledged moves once each, in order"
        )
    [entry] = [entry for entry in store.tables() if entry["code"] == code]
    assert entry["over"] and entry["actions"] == len(record.actions)
    assert entry["scores"] == table_game(game).scores(final)
    return record


def test_three_colorfox_learners_in_three_processes_and_a_bot_play_a_whole_game(store_url, workers):
    code, reports = play_at_one_table(
        workers, store_url, "colorfox", colorfox.Rules(players=4), learners=[0, 1, 2], bots={3: "GreedyBot"}, seed=11
    )
    record = check_the_whole_game(store_url, "colorfox", code, reports)
    assert seat_actions("colorfox", record, 3), "the bot never moved"


def test_three_colorium_players_draw_at_the_same_time_in_three_processes(store_url, workers):
    rules = colorium.Rules(players=3, width=6, height=6)
    code, reports = play_at_one_table(workers, store_url, "colorium", rules, learners=[0, 1, 2], bots={}, seed=12)
    check_the_whole_game(store_url, "colorium", code, reports)


def test_three_colourbrain_teams_answer_at_once_in_three_processes_beside_a_bot_team(store_url, workers):
    code, reports = play_at_one_table(
        workers,
        store_url,
        "colourbrain",
        colourbrain.Rules(teams=4, target=6),
        learners=[0, 1, 2],
        bots={3: "QuizBot"},
        seed=13,
    )
    record = check_the_whole_game(store_url, "colourbrain", code, reports)
    assert seat_actions("colourbrain", record, 3), "the bot team never answered"


def test_colorform_claims_race_from_three_processes_and_the_table_settles_them_by_its_clock(store_url, workers):
    rules = colorform.Rules(players=3, stop_window=0.1)
    code, reports = play_at_one_table(workers, store_url, "colorform", rules, learners=[0, 1, 2], bots={}, seed=14)
    record = check_the_whole_game(store_url, "colorform", code, reports)
    stops = [action for action in record.actions if isinstance(action, Stop)]
    for stop in stops:
        times = [claim.time for claim in stop.claims]
        assert times == sorted(times) and times[-1] - times[0] <= rules.stop_window, (
            "a STOP holds calls that were not made within the same-moment window"
        )
    assert any(len({claim.player for claim in stop.claims}) > 1 for stop in stops), (
        "no two processes' claims ever met in one STOP"
    )


def test_the_teachers_store_sees_the_moves_made_from_other_processes(store_url, workers):
    teacher = TableStore(store_url)
    code = teacher.create("colorfox", colorfox.Rules(players=2), seed=8)
    seats = [teacher.join(code, seat=seat, name=f"Learner {seat}") for seat in (0, 1)]
    assert teacher.record(code).actions == ()
    state = teacher.watch(code).state()
    mover = seats[colorfox.to_move(state)]
    move = colorfox.GreedyBot(seed=1).act(state, mover.seat)
    [told] = workers.run(
        race_move, [(store_url, code, mover.token, actions_to_json("colorfox", [move])[0], 0, workers.barrier(1))]
    )
    assert told == {"ok": True}
    assert teacher.tables()[0]["actions"] == 1
    assert teacher.record(code).actions == (move,), "the teacher's record misses a move made in another kernel"
    assert [record.actions for record in teacher.records()] == [(move,)]


# --- killed processes -----------------------------------------------------------------------


def wrong_answer_table(store: TableStore) -> tuple[str, list[str]]:
    """A two-team quiz whose two seats one process holds; give the code and the two tokens."""
    code = store.create("colourbrain", colourbrain.Rules(teams=2), seed=5)
    return code, [store.join(code, seat=team, name=f"Team {team}").token for team in (0, 1)]


def journal_lines(path) -> list[str]:
    """What a worker has written to its journal so far."""
    return path.read_text().splitlines() if path.exists() else []


def wait_for_line(path, line: str, timeout: float = 30.0) -> None:
    """Wait until a worker has written `line` to its journal."""
    deadline = time.monotonic() + timeout
    while line not in journal_lines(path):
        assert time.monotonic() < deadline, f"the worker never wrote {line!r}"
        time.sleep(0.01)


def kill(process) -> None:
    """Kill a worker with SIGKILL: no clean-up of any kind runs in it."""
    os.kill(process.pid, signal.SIGKILL)
    process.join(timeout=10)
    assert process.exitcode == -signal.SIGKILL


def test_a_process_killed_at_random_moments_while_appending_loses_no_acknowledged_move(store_url, tmp_path):
    code, tokens = wrong_answer_table(TableStore(store_url))
    rng = random.Random(2)
    acknowledged: list[list] = []
    for round_number in range(8):
        journal = tmp_path / f"journal-{round_number}.txt"
        processes, _ = start(append_forever, [(store_url, code, tokens, str(journal))])
        wait_for_line(journal, "ready")
        # Its first move acknowledged (on a loaded machine that can take longer than the wait below), then a kill at
        # a random moment while it goes on appending.
        deadline = time.monotonic() + 30
        while len(journal_lines(journal)) < 2:
            assert time.monotonic() < deadline, "the worker never made a move"
            time.sleep(0.01)
        time.sleep(rng.uniform(0.05, 0.4))
        kill(processes[0])
        moves = [json.loads(line) for line in journal_lines(journal) if line != "ready"]
        assert moves, "the worker was killed before it made a move: wait longer"
        acknowledged += moves
        store = TableStore(store_url)
        record = store.record(code)
        record.check()
        spec = game_spec("colourbrain")
        for step, action in acknowledged:
            assert record.actions[step] == spec.action_from_dict(action), f"acknowledged move {step} was lost"
        [entry] = store.tables()
        assert entry["actions"] == len(record.actions)
        state = store.watch(code).state()
        team = table_game("colourbrain").waiting_for(state)[0]
        store.rejoin(code, tokens[team]).play(
            colourbrain.Answer(team, a_wrong_answer(state.question)), seen=len(record.actions)
        )
        assert TableStore(store_url).record(code).actions[len(record.actions) :] == (
            colourbrain.Answer(team, a_wrong_answer(state.question)),
        ), "the table took no move after the kill"
    assert len(acknowledged) >= 10


def test_a_process_killed_holding_the_write_lock_blocks_nobody_for_long_and_leaves_nothing_half_written(
    store_url, tmp_path
):
    store = TableStore(store_url)
    code, tokens = wrong_answer_table(store)
    before = store.record(code)
    journal = tmp_path / "journal.txt"
    holders, _ = start(hold_write_lock, [(store_url, code, str(journal))])
    wait_for_line(journal, "locked")
    state = store.watch(code).state()
    move = actions_to_json("colourbrain", [colourbrain.Answer(0, state.question.answer)])[0]
    movers, answers = start(timed_move, [(store_url, code, tokens[0], move, 0, str(journal))])
    wait_for_line(journal, "sending")
    time.sleep(0.5)
    assert answers.empty(), "a move went through while another process held the write lock"
    killed_at = time.monotonic()
    kill(holders[0])
    [seconds] = results(movers, answers, timeout=30)
    assert time.monotonic() - killed_at < 5, "the killed process's lock held the table for too long"
    assert seconds >= 0.5, "the move did not wait for the lock"
    after = TableStore(store_url)
    record = after.record(code)
    record.check()
    assert record.actions == before.actions + (colourbrain.Answer(0, state.question.answer),)
    assert after.tables()[0]["actions"] == 1, "the killed process's half-written step stayed"


def test_a_stop_call_from_a_process_killed_after_the_table_acknowledged_it_is_still_settled(store_url, tmp_path):
    rules = colorform.Rules(players=2, stop_window=0.2)
    store = TableStore(store_url)
    code = store.create("colorform", rules, seed=6)
    seats = [store.join(code, seat=seat, name=f"Learner {seat}") for seat in (0, 1)]
    claim = colorform.ReactionBot("hard", seed=1).act(seats[0].state(), 0)
    journal = tmp_path / "journal.txt"
    callers, _ = start(
        call_and_wait, [(store_url, code, seats[0].token, actions_to_json("colorform", [claim])[0], str(journal))]
    )
    wait_for_line(journal, "called")
    kill(callers[0])
    time.sleep(rules.stop_window + 0.05)
    [stop] = TableStore(store_url).catch_up(code).record.actions
    assert [same_but_time(call) for call in stop.claims] == [same_but_time(claim)], "the killed caller's STOP was lost"

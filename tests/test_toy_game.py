"""A game declared only in the tests appears everywhere a game should: the declaration is all colorlab reads.

The toy game (``tests/toy/``) is one folder with the usual rooms and one declaration; nothing in
colorlab names it. It shows in the lobby and a learner can open a table of it, two seats play it
to the end at a shared table, `experiments.run` compares two variants of it, and the lab widget runs it.
"""

from __future__ import annotations

import pytest

from colorlab import experiments
from colorlab.classroom.lobby import Lobby
from colorlab.games import all_games, find_game, forget
from colorlab.record import GameRecord
from colorlab.tables import TableStore
from colorlab.widgets.lab import VariantLab
from tests.helpers.page import browser_sends


@pytest.fixture
def toy():
    """The toy game, declared for one test and forgotten after it."""
    import tests.toy.game

    game = tests.toy.game.declare(tests.toy.game.GAME)
    yield game
    forget("toy")


def test_the_toy_is_found_by_name_and_listed_after_the_built_in_games(toy):
    assert find_game("toy") is toy
    assert [game.name for game in all_games()][-1] == "toy"


def test_a_learner_opens_a_toy_table_in_the_lobby_and_sits_at_it(toy, tmp_path):
    lobby = Lobby(TableStore(tmp_path / "class.db"))
    browser_sends(lobby.desk, {"type": "name", "name": "Ada"})
    browser_sends(lobby.desk, {"type": "new_table"})
    assert "toy" in [game["name"] for game in lobby.desk.view["games"]]
    browser_sends(lobby.desk, {"type": "game", "game": "toy"})
    lobby.next_button.click()
    assert lobby.desk.view["bots"] == ["RandomBot", "CleverBot"]
    browser_sends(lobby.desk, {"type": "open"})
    assert lobby.desk.view["stage"] == "seated", lobby.desk.notice
    assert isinstance(lobby.game_widget, toy.part("widget")) and lobby.game_widget.view["pile"] == 15


def test_two_seats_play_a_toy_table_to_the_end_and_its_record_replays(toy, tmp_path):
    from tests.toy.model import BadTake, Take

    store = TableStore(tmp_path / "class.db")
    rules = toy.rules_type(pile=10)
    code = store.create("toy", rules, seed=4)
    seats = {seat.seat: seat for seat in (store.join(code, seat=0, name="Ada"), store.join(code, seat=1, name="Bo"))}
    clever = toy.make_bot("CleverBot", 1)
    while not (state := seats[0].state()).over:
        mover = seats[state.to_move]
        with pytest.raises(BadTake):
            mover.play(Take(mover.seat, 4))
        assert seats[0].state() == state, "a refused take changes nothing"
        mover.play(clever.act(state, mover.seat))
    record = store.record(code)
    assert record.final_state() == seats[1].state() and sum(take.count for take in record.actions) == 10
    assert GameRecord.from_json(record.to_json()).final_state() == record.final_state()
    assert store.tables()[0]["scores"] == toy.part("table").scores(record.final_state())


def test_an_experiment_compares_two_toy_variants_in_worker_processes(toy):
    lab = experiments.run(
        "toy",
        {"small": toy.rules_type(pile=4), "large": toy.rules_type(pile=30)},
        games=12,
        bots="CleverBot",
        progress=False,
    )
    frame = lab.results
    assert len(frame) == 24 and set(frame["variant"]) == {"small", "large"}
    assert lab.lineups["small"] == ("CleverBot", "CleverBot")
    # Taking 1 to 3, a clever player leaves a multiple of 4: from a pile of 4 the first player always loses,
    # from 30 always wins.
    first_wins = frame.groupby("variant")["first player wins"].mean()
    assert first_wins["small"] == 0 and first_wins["large"] == 1


def test_the_lab_widget_runs_the_toy(toy):
    widget = VariantLab(
        "toy", {"small": toy.rules_type(pile=4), "large": toy.rules_type(pile=30)}, games=6, executor="serial"
    )
    assert [label for label, _ in widget.every_seat.options] == ["RandomBot", "CleverBot"]
    widget.run_button.click()
    widget.experiment.wait()
    assert widget.progress.value == 12 and "top score" in widget.measure.options

"""Lesson 50's records and tools: the sample class is genuine table records, and the class's numbers are the lab's."""

import dataclasses
import io
import re
import zipfile

import pytest

from colorlab import colorform, colorfox, colourbrain
from colorlab.archive import records_zip, records_zip_parts
from colorlab.class_games import (
    SAMPLE,
    bots_on_the_same_deals,
    class_results,
    class_source,
    deal_by_deal,
    game_row,
    load_records,
    record_files,
    rules_in_words,
)
from colorlab.classroom.sample import make_sample
from colorlab.colourbrain.model import Answer
from colorlab.colourbrain.questions import COLOURS
from colorlab.experiments import bots_for, interval, play_chunk
from colorlab.record import GameRecord, RecordError
from colorlab.tables import TableStore


def quiz(target, right_teams, seed=7):
    """A two-team quiz to `target` in which, question by question, only the team named answers right."""
    record = GameRecord("colourbrain", colourbrain.Rules(target=target), seed)
    for team in right_teams:
        solution = record.final_state().question.answer
        wrong = tuple(colour for colour in COLOURS if colour not in solution)[: len(solution)]
        for answering in (0, 1):
            record = record.then(Answer(answering, tuple(solution) if answering == team else wrong))
    return record


# --- the sample class ---------------------------------------------------------------------


def test_every_sample_record_loads_and_replays():
    records = load_records(SAMPLE)
    assert len(records) >= 30
    for name, record in records.items():
        record.check()
        assert re.fullmatch(rf"{record.game}-[A-Z0-9]{{5}}\.json", name)


def test_the_sample_is_a_class_of_all_four_games_with_an_unfinished_table_or_two():
    results = class_results(load_records(SAMPLE))
    tables = results.groupby("game").size()
    assert tables["colorfox"] >= 10 and tables["colourbrain"] >= 10
    assert tables["colorium"] >= 3 and tables["colorform"] >= 3
    assert set(results[results["game"] == "colorform"]["rules"]) == {rules_in_words(colorform.Rules.junior())}
    assert (~results["finished"]).sum() == 2


def test_the_sample_is_what_the_generator_makes(tmp_path):
    made = make_sample(tmp_path)
    assert sorted(path.parent for path in made) == [tmp_path] * len(made)
    shipped = sorted(record.to_json() for record in load_records(SAMPLE).values())
    again = sorted(record.to_json() for record in load_records(tmp_path).values())
    assert again == shipped


def test_the_generator_replaces_old_records_in_its_folder(tmp_path):
    (tmp_path / "colorfox-OLD99.json").write_text("{}")
    make_sample(tmp_path)
    assert "colorfox-OLD99.json" not in {path.name for path in record_files(tmp_path)}


# --- reading a folder ---------------------------------------------------------------------


def test_a_folder_without_records_falls_back_to_the_sample(tmp_path):
    assert class_source(None) == SAMPLE
    assert class_source(tmp_path / "not there") == SAMPLE
    assert class_source(tmp_path) == SAMPLE
    quiz(1, [0]).save(tmp_path / "colourbrain-AAAAA.json")
    assert class_source(tmp_path) == tmp_path


def test_the_zip_the_teachers_page_downloads_is_read_by_file_name(tmp_path):
    download = tmp_path / "class-records-20261130-150000.zip"
    with zipfile.ZipFile(download, "w") as archive:
        archive.writestr("colourbrain-BBBBB.json", quiz(2, [1, 1]).to_json())
        archive.writestr("colourbrain-AAAAA.json", quiz(1, [0]).to_json())
    assert class_source(download) == download
    records = load_records(download)
    assert list(records) == ["colourbrain-AAAAA.json", "colourbrain-BBBBB.json"]
    assert records["colourbrain-BBBBB.json"] == quiz(2, [1, 1])


def test_a_zip_made_in_parts_as_records_come_is_one_zip_of_them_all():
    sample = load_records(SAMPLE)
    parts = list(records_zip_parts(sample.items(), part_bytes=2_000))
    assert len(parts) > 3 and all(parts[:-1])
    assert load_records(b"".join(parts)) == sample
    assert zip_entries(b"".join(records_zip_parts(sample.items()))) == zip_entries(records_zip(sample))


def zip_entries(data: bytes) -> list[tuple[str, bytes]]:
    """A zip's files, in order, with their contents (not their times: two zips made a second apart differ there)."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return [(entry.filename, archive.read(entry)) for entry in archive.infolist()]


def test_a_zip_holding_a_file_too_large_for_a_record_is_refused_before_unpacking(tmp_path):
    download = tmp_path / "class.zip"
    with zipfile.ZipFile(download, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("colorfox-AAAAA.json", " " * 3_000_000)
    with pytest.raises(RecordError, match=r"colorfox-AAAAA\.json: file too large"):
        load_records(download)


def test_a_file_that_is_no_record_is_refused_by_name(tmp_path):
    quiz(1, [0]).save(tmp_path / "colourbrain-AAAAA.json")
    (tmp_path / "colorfox-BBBBB.json").write_text('{"format": "something else"}')
    with pytest.raises(RecordError, match=r"colorfox-BBBBB\.json"):
        load_records(tmp_path)


# --- the numbers, on games worked out by hand ---------------------------------------------


def test_a_quiz_won_by_team_0_on_the_first_question():
    row = game_row(quiz(1, [0]))
    assert row["finished"] and row["winners"] == [0] and row["first player wins"]
    assert (row["actions"], row["rounds"], row["score 0"], row["score 1"], row["margin"]) == (2, 1, 1, 0, 1)


def test_a_quiz_won_by_team_1_two_questions_to_none():
    row = game_row(quiz(2, [1, 1]))
    assert row["winners"] == [1] and not row["first player wins"] and not row["shared win"]
    assert (row["actions"], row["rounds"], row["top score"], row["margin"]) == (4, 2, 2, 2)


def test_a_table_nobody_played_is_unfinished_and_has_no_winner():
    row = game_row(GameRecord("colorfox", colorfox.Rules(players=3), 5))
    assert row == {
        "game": "colorfox",
        "kind": "ColorFox, 3 players",
        "rules": "Players = 3",
        "players": 3,
        "learners": 3,
        "seed": 5,
        "finished": False,
        "state": "never played",
        "actions": 0,
    }


def test_a_table_left_after_some_moves_is_unfinished_not_never_played():
    record = quiz(5, [0])
    assert game_row(record)["state"] == "unfinished" and not game_row(record)["finished"]


def test_a_tables_bot_that_wins_is_a_yardstick_and_not_the_classs_score():
    won_by_the_bot = dataclasses.replace(quiz(2, [1, 1]), bots=(None, "QuizBot"))
    row = game_row(won_by_the_bot)
    assert row["winners"] == [1] and row["top score"] == row["bots' top score"] == row["score 1"] > 0
    assert row["learners' top score"] == row["score 0"] == 0 and not row["a learner won"] and row["learners"] == 1
    won_by_the_learner = game_row(dataclasses.replace(quiz(2, [0, 0]), bots=(None, "QuizBot")))
    assert (
        won_by_the_learner["a learner won"]
        and won_by_the_learner["learners' top score"] == won_by_the_learner["top score"]
    )


def test_tables_of_one_game_and_number_of_players_are_one_kind_whatever_else_their_rules_say():
    kinds = {
        game_row(GameRecord(game, rules, 1))["kind"]
        for game, rules in [
            ("colorfox", colorfox.Rules(players=2)),
            ("colorfox", colorfox.Rules(players=2, sticks_per_colour=2)),
            ("colorfox", colorfox.Rules(players=3)),
            ("colorform", colorform.Rules(variant="junior")),
            ("colorform", colorform.Rules(variant="junior", hand_size=4)),
            ("colorform", colorform.Rules()),
        ]
    }
    assert kinds == {"ColorFox, 2 players", "ColorFox, 3 players", "Col-Or-Form (junior), 2 players",
                     "Col-Or-Form (base), 2 players"}  # fmt: skip


def test_the_newest_download_next_to_the_lesson_is_read_as_the_teachers_page_named_it(tmp_path):
    assert class_source(None, tmp_path) == SAMPLE
    older, newer = tmp_path / "class-records-20261130-150000.zip", tmp_path / "class-records-20261201-090000.zip"
    for download in (older, newer):
        with zipfile.ZipFile(download, "w") as archive:
            archive.writestr("colourbrain-AAAAA.json", quiz(1, [0]).to_json())
    assert class_source(None, tmp_path) == newer
    assert class_source(older, tmp_path) == older, "a zip named in the lesson is read, not the newest"


def test_the_class_table_feeds_the_labs_interval():
    results = class_results(
        {"a.json": quiz(1, [0]), "b.json": quiz(2, [1, 1]), "c.json": GameRecord("colorfox", colorfox.Rules(), 5)}
    )
    finished = results[results["finished"]]
    assert list(results["variant"]) == ["our class"] * 3
    assert list(finished["file"]) == ["a.json", "b.json"] and finished["actions"].mean() == 3
    low, share, high = interval(list(finished["first player wins"]))
    assert share == 0.5 and 0 < low < 0.5 < high < 1


def test_rules_are_said_by_how_they_differ_from_the_default_edition():
    assert rules_in_words(colourbrain.Rules()) == "the default edition"
    assert rules_in_words(colourbrain.Rules(target=15, copier=False)) == "Target = 15; Colour-Copier = off"
    assert rules_in_words(colorform.Rules.junior()) == (
        "Game = junior; Hand size = 3; Task cards per player = 4; Largest task = 4"
    )


# --- the class beside the bots ------------------------------------------------------------


@pytest.mark.parametrize(
    "game, rules",
    [("colorfox", colorfox.Rules()), ("colourbrain", colourbrain.Rules()), ("colorform", colorform.Rules.junior())],
)
def test_a_class_row_has_the_labs_numbers_for_the_same_game(game, rules):
    module = __import__(f"colorlab.{game}", fromlist=["play_game"])
    record = module.play_game(rules, bots_for(game, None, rules.players, 3), seed=3)
    row = game_row(record)
    lab = play_chunk(game, rules.to_dict(), [3], None)[0]
    assert {name: row[name] for name in lab} == lab


def test_bots_replay_only_the_finished_games_from_their_own_seeds():
    records = [quiz(1, [0], seed=11), GameRecord("colorfox", colorfox.Rules(), 5), quiz(2, [1, 1], seed=12)]
    bots = bots_on_the_same_deals(records)
    assert list(bots["seed"]) == [11, 12]
    assert list(bots["rules"]) == ["Target = 1", "Target = 2"]
    assert list(bots["variant"]) == ["bots", "bots"]
    assert (bots["top score"] >= [1, 2]).all()


def test_the_tables_own_bots_sit_in_their_seats_again_and_bots_take_the_learners(tmp_path):
    store = TableStore(tmp_path / "class.db")
    code = store.create("colorfox", colorfox.Rules(), seed=5, bots={0: "GreedyBot", 1: "SetBuilder"})
    while not store.catch_up(code).state.over:
        pass
    record = store.record(code)
    store.engine.dispose()
    assert record.bots == ("GreedyBot", "SetBuilder")
    measures = ("actions", "rounds", "winners", "top score", "margin")
    same_bots = bots_on_the_same_deals([record]).iloc[0]
    assert [same_bots[name] for name in measures] == [game_row(record)[name] for name in measures]
    learner_at_0 = dataclasses.replace(record, bots=(None, "SetBuilder"))
    [by_the_lab] = play_chunk("colorfox", record.rules.to_dict(), [5], [None, "SetBuilder"])
    replayed = bots_on_the_same_deals([learner_at_0]).iloc[0]
    assert replayed["actions"] == by_the_lab["actions"]
    assert replayed["learners' top score"] == by_the_lab["score 0"], "the bots' side is measured on other seats"
    assert list(bots_on_the_same_deals([learner_at_0], bots="GreedyBot").iloc[0][list(measures)]) == [
        same_bots[name] for name in measures
    ]


def test_the_sample_says_which_bots_sat_at_its_tables():
    records = load_records(SAMPLE).values()
    assert all(len(record.bots) == record.rules.players for record in records)
    assert {bot for record in records for bot in record.bots} >= {None, "GreedyBot", "QuizBot", "ReactionBot"}


def test_deal_by_deal_is_a_t_interval_of_the_differences():
    # differences 2, 4, 0, 2: mean 2, standard deviation sqrt(8/3), t(0.975, 3) = 3.182
    low, mean, high = deal_by_deal([10, 10, 10, 10], [12, 14, 10, 12])
    half = 3.182446 * (8 / 3) ** 0.5 / 2
    assert mean == 2 and low == pytest.approx(2 - half) and high == pytest.approx(2 + half)


def test_deal_by_deal_reads_zeros_and_ones_as_differences_not_as_a_share():
    # differences 0, 1, 0, 0: mean 1/4, standard deviation 1/2; a share's interval would never go below 0
    low, mean, high = deal_by_deal([3, 3, 3, 3], [3, 4, 3, 3])
    half = 3.182446 * 0.5 / 2
    assert mean == 0.25 and low == pytest.approx(0.25 - half) and high == pytest.approx(0.25 + half)
    assert deal_by_deal([1, 1, 1], [1, 1, 1]) == (0, 0, 0)


def test_deal_by_deal_needs_the_same_deals_on_both_sides():
    with pytest.raises(ValueError, match="same deals"):
        deal_by_deal([1, 2], [1])

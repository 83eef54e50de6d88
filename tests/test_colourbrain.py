"""Colourbrain: the rulebook's scoring example, every pot and copier case, random quizzes, the bank."""

import dataclasses
import json
import random

import pytest

from colorlab.colourbrain import (Answer, Copy, QuizBot, Rules, bank, load_questions, new_game, next_action,
                                  parse_questions, play, play_game, score_question, winners)
from colorlab.colourbrain.model import BadAnswer, BadCopy, WrongStep, final_answers
from colorlab.colourbrain.questions import COLOURS
from colorlab.record import GameRecord
from colorlab.rules import GameOver, NotYourTurn

QUIZ = {"questions": [
    {"id": "t-1", "category": "test", "text": "Grass", "count": 1, "answer": ["green"], "explanation": "Chlorophyll."},
    {"id": "t-2", "category": "test", "text": "A zebra", "count": 2, "answer": ["black", "white"],
     "explanation": "Stripes."},
    {"id": "t-3", "category": "test", "text": "Snow", "count": 1, "answer": ["white"], "explanation": "Ice crystals."},
    {"id": "t-4", "category": "test", "text": "A ripe tomato", "count": 1, "answer": ["red"],
     "explanation": "Lycopene."},
]}


@pytest.fixture
def quiz_file(tmp_path):
    path = tmp_path / "quiz.json"
    path.write_text(json.dumps(QUIZ))
    return str(path)


# --- scoring ------------------------------------------------------------------------------

def test_the_rulebook_example_two_right_teams_score_two_each():
    answers = {0: ["red", "white"], 1: ["white", "red"], 2: ["red", "blue"], 3: ["green", "yellow"]}
    assert score_question(answers, ["red", "white"]) == ({0: 2, 1: 2, 2: 0, 3: 0}, 0)


def test_pot_cases_under_both_readings():
    right, wrong = ["red"], ["blue"]
    assert score_question({0: right, 1: right}, ["red"], pot=2) == ({0: 0, 1: 0}, 3)
    assert score_question({0: right, 1: wrong}, ["red"], pot=2) == ({0: 3, 1: 0}, 0)
    assert score_question({0: wrong, 1: wrong}, ["red"], pot=2) == ({0: 0, 1: 0}, 0)
    strict = Rules(pot_reading="lost when anyone is wrong")
    assert score_question({0: right, 1: wrong}, ["red"], pot=2, rules=strict) == ({0: 1, 1: 0}, 0)
    assert score_question({0: right, 1: right}, ["red"], pot=2, rules=strict) == ({0: 0, 1: 0}, 3)


def test_an_answer_needs_exactly_the_asked_colours():
    assert score_question({0: ["yellow", "brown"], 1: ["yellow"]}, ["brown", "yellow"])[0] == {0: 1, 1: 0}


# --- the quiz, step by step ----------------------------------------------------------------

def quiz(quiz_file, **changes):
    return new_game(Rules(question_file=quiz_file, **changes), seed=1)


def test_answers_are_secret_until_all_are_locked_and_then_scored(quiz_file):
    state = quiz(quiz_file, teams=3)
    state = play(state, Answer(0, ("green",)))
    with pytest.raises(NotYourTurn):
        play(state, Answer(0, ("green",)))
    state = play(state, Answer(1, ("green",)))
    state = play(state, Answer(2, ("blue",)))
    assert state.scores == (1, 1, 0) and state.asked == 1 and state.pot == 0


def test_every_team_right_fills_the_pot_which_the_next_right_team_takes(quiz_file):
    state = quiz(quiz_file)
    state = play(play(state, Answer(0, ("green",))), Answer(1, ("green",)))
    assert state.scores == (0, 0) and state.pot == 1
    state = play(play(state, Answer(0, ("black", "white"))), Answer(1, ("black", "red")))
    assert state.scores == (2, 0) and state.pot == 0


def test_a_copier_copies_a_colour_another_team_played(quiz_file):
    state = quiz(quiz_file, teams=3)
    state = play(state, Answer(0, ("green",)))
    state = play(state, Answer(1, ("blue",)))
    state = play(state, Answer(2, (), copier=True))
    assert state.step == "copying"
    with pytest.raises(BadCopy):
        play(state, Copy(2, "red"))
    state = play(state, Copy(2, "green"))
    assert state.scores == (1, 0, 1) and state.copiers == (True, True, False)
    with pytest.raises(BadAnswer):
        play(state, Answer(2, ("black",), copier=True))


def test_when_every_team_plays_its_copier_nobody_scores_and_the_copiers_go_back(quiz_file):
    state = quiz(quiz_file, teams=2)
    state = play(play(state, Answer(0, ("green",))), Answer(1, ("green",)))
    assert state.pot == 1
    state = play(state, Answer(0, ("black",), copier=True))
    state = play(state, Answer(1, ("white",), copier=True))
    assert state.scores == (0, 0) and state.pot == 1 and state.copiers == (True, True)
    assert state.asked == 2 and state.last["copiers_returned"]


def test_a_copier_with_nothing_to_copy_is_wrong(quiz_file):
    """Only the other teams' colours may be copied; with none left to copy, the answer is wrong."""
    from colorlab.colourbrain.model import COPIER, _settle_copies
    state = quiz(quiz_file, teams=2)
    state = play(play(state, Answer(0, ("green",))), Answer(1, ("blue",)))  # now t-2 (2 colours)
    crafted = dataclasses.replace(state, answers=(("black", COPIER), ("black",)), copied=(None, None))
    after = _settle_copies(crafted)
    assert after.last["answers"][0] is None and after.scores[0] == state.scores[0]


def test_the_variant_gives_a_lone_wrong_team_its_copier_back(quiz_file):
    state = quiz(quiz_file, teams=3, copier_back=True)
    state = play(state, Answer(0, ("green",)))
    state = play(state, Answer(1, ("green",)))
    state = play(state, Answer(2, (), copier=True))
    state = play(state, Copy(2, "green"))
    assert state.copiers[2] is False
    state = play(state, Answer(0, ("black", "white")))
    state = play(state, Answer(1, ("black", "white")))
    state = play(state, Answer(2, ("red", "blue")))
    assert state.copiers[2] is True


@pytest.mark.parametrize("action, error", [
    (Answer(0, ("green", "red")), BadAnswer), (Answer(0, ("teal",)), BadAnswer),
    (Answer(5, ("green",)), Exception), (Copy(0, "green"), WrongStep)])
def test_bad_answers_are_refused_and_change_nothing(quiz_file, action, error):
    state = quiz(quiz_file)
    snapshot = dataclasses.replace(state)
    with pytest.raises(error):
        play(state, action)
    assert state == snapshot


# --- whole quizzes with invariants -----------------------------------------------------------

VARIANTS = [Rules(teams=2), Rules(teams=3), Rules(teams=4), Rules(teams=3, copier_back=True),
            Rules(teams=2, pot_reading="lost when anyone is wrong"), Rules(teams=3, copier=False),
            Rules(teams=4, deck_order="shuffled")]


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: ",".join(f"{k}={v[1]}" for k, v in r.differences().items()))
def test_random_quizzes_keep_every_invariant(rules):
    for seed in range(6):
        rng = random.Random(seed)
        agents = [QuizBot(rng.choice(["easy", "medium", "hard"]), seed=seed * 10 + t) for t in range(rules.teams)]
        state, actions, asked = new_game(rules, seed), [], []
        copying = set()
        while not state.over:
            action = next_action(state, agents)
            after = play(state, action)
            if after.asked > state.asked:
                asked.append(state.question.id)
                final = final_answers(dataclasses.replace(state, answers=state.answers, copied=state.copied)) \
                    if after.last["answers"] == [None] * state.teams else after.last["answers"]
                expected, pot = score_question(dict(enumerate(final)), state.question.answer, state.pot, rules)
                if not after.last["copiers_returned"]:
                    assert list(after.scores) == [s + expected[t] for t, s in enumerate(state.scores)]
                    assert after.pot == pot
                else:
                    assert after.scores == state.scores and after.pot == state.pot
            if isinstance(action, Answer) and action.copier:
                assert state.copiers[action.team], "a copier played twice"
                copying.add(action.team)
            if after.asked > state.asked:
                for team in copying:
                    if after.last["copiers_returned"]:
                        assert after.copiers[team], "all copiers played: they go back"
                    elif not rules.copier_back:
                        assert not after.copiers[team], "a used copier stayed in hand"
                copying.clear()
            state, actions = after, actions + [action]
        deck = len(state.deck)
        for start in range(0, len(asked), deck):
            chunk = asked[start:start + deck]
            assert len(chunk) == len(set(chunk)), "a question came back before the deck was through"
        assert max(state.scores) >= rules.goal and winners(state)
        record = GameRecord("colourbrain", rules, seed, tuple(actions))
        assert GameRecord.from_json(record.to_json()).final_state() == state
        with pytest.raises(GameOver):
            play(state, Answer(0, ("red",)))


# --- the bank --------------------------------------------------------------------------------

def test_the_bank_has_300_checked_original_questions_across_categories():
    questions = bank()
    assert len(questions) >= 300
    assert len({q.id for q in questions}) == len(questions)
    assert all(q.count == len(q.answer) and set(q.answer) <= set(COLOURS) for q in questions)
    assert all(q.text and q.explanation for q in questions)
    assert len({q.category for q in questions}) >= 8
    assert {q.count for q in questions} >= {1, 2, 3}


@pytest.mark.parametrize("entry, message", [
    ({"id": "x", "category": "c", "text": "t", "count": 2, "answer": ["red"], "explanation": "e"}, "count"),
    ({"id": "x", "category": "c", "text": "t", "count": 1, "answer": ["teal"], "explanation": "e"}, "palette"),
    ({"id": "x", "category": "c", "text": " ", "count": 1, "answer": ["red"], "explanation": "e"}, "non-empty"),
    ({"id": "x", "category": "c", "text": "t", "count": 1, "answer": ["red"]}, "fields"),
])
def test_broken_questions_are_refused_with_the_reason(entry, message):
    with pytest.raises(ValueError, match=message):
        parse_questions(json.dumps({"questions": [entry]}))


def test_a_teachers_file_is_loaded_and_ids_must_be_unique(tmp_path, quiz_file):
    assert [q.id for q in load_questions(quiz_file)] == ["t-1", "t-2", "t-3", "t-4"]
    with pytest.raises(ValueError, match="t-1"):
        load_questions(quiz_file, quiz_file)


def test_a_quiz_between_bots_with_the_whole_bank():
    final = play_game(Rules(teams=3), seed=2).final_state()
    assert final.over and winners(final)

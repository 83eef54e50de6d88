"""The Colourbrain quiz widget from Python: hot-seat answers stay secret, refusals shown, copier, solo."""

import itertools
import json

import pytest

from colorlab.colourbrain import Rules
from colorlab.colourbrain.view import ColourbrainQuiz

SEQ = itertools.count(1)


def browser_sends(widget, intent):
    """Deliver a message the way the page does: a numbered update of the intent trait."""
    if isinstance(intent, dict):
        intent = {**intent, "seq": next(SEQ)}
    widget.set_state({"intent": intent})


def right(widget):
    return list(widget.state.question.answer)


def test_two_teams_answer_in_turn_and_the_right_one_scores():
    quiz = ColourbrainQuiz(Rules(teams=2), names=["Foxes", "Owls"], seed=1)
    assert quiz.view["at_keyboard"] == 0
    browser_sends(quiz, {"type": "answer", "team": 0, "colours": right(quiz), "copier": False})
    assert quiz.view["answers"] == [None, None] and quiz.view["answered"] == [True, False]
    assert quiz.view["at_keyboard"] == 1
    wrong = [c for c in ["red", "blue", "green", "black", "white"] if c not in right(quiz)][:len(right(quiz))]
    browser_sends(quiz, {"type": "answer", "team": 1, "colours": wrong, "copier": False})
    assert quiz.view["scores"] == [1, 0]
    assert quiz.view["last"]["explanation"] and "Foxes" in quiz.notice["text"]


def test_the_copier_is_offered_after_the_reveal():
    quiz = ColourbrainQuiz(Rules(teams=2), seed=1)
    browser_sends(quiz, {"type": "answer", "team": 0, "colours": right(quiz), "copier": False})
    browser_sends(quiz, {"type": "answer", "team": 1, "colours": right(quiz)[1:], "copier": True})
    assert quiz.view["step"] == "copying" and quiz.view["answers"][0] == right(quiz)
    options = quiz.view["copy_options"]["1"]
    assert right(quiz)[0] in options
    browser_sends(quiz, {"type": "copy", "team": 1, "colour": right(quiz)[0]})
    assert quiz.view["step"] == "answering" and quiz.view["pot"] == 1


@pytest.mark.parametrize("intent", [
    {"type": "answer", "team": 0, "colours": ["teal"], "copier": False},
    {"type": "answer", "team": 0, "colours": [1], "copier": False},
    {"type": "answer", "team": 7, "colours": ["red"], "copier": False},
    {"type": "copy", "team": 0, "colour": "red"},
    {"type": "answer", "team": 0},
    "red",
])
def test_bad_intents_are_refused_in_the_widget_and_change_nothing(intent):
    quiz = ColourbrainQuiz(Rules(teams=2), seed=1)
    before = quiz.record
    browser_sends(quiz, intent)
    assert quiz.notice["kind"] == "error" and quiz.record == before


def test_solo_mode_lets_bots_answer_for_the_other_teams():
    quiz = ColourbrainQuiz(Rules(teams=3), solo=True, seed=4)
    browser_sends(quiz, {"type": "answer", "team": 0, "colours": right(quiz), "copier": False})
    assert quiz.state.asked == 1 or quiz.view["step"] == "copying"
    browser_sends(quiz, {"type": "answer", "team": 1, "colours": ["red"], "copier": False})
    assert quiz.notice["kind"] == "error"


def test_no_answer_of_the_current_question_reaches_the_page():
    quiz = ColourbrainQuiz(Rules(teams=2), seed=1)
    view = dict(quiz.view)
    view.pop("last")
    assert quiz.state.question.explanation not in json.dumps(view)
    assert "answer" not in view["question"]


def test_a_whole_class_quiz_ends_with_the_winners():
    quiz = ColourbrainQuiz(Rules(teams=2, target=3), seed=2)
    while not quiz.state.over:
        browser_sends(quiz, {"type": "answer", "team": 0, "colours": right(quiz), "copier": False})
        if not quiz.state.over and quiz.view["at_keyboard"] == 1:
            wrong = [c for c in ["red", "blue", "green", "black", "white", "pink"] if c not in right(quiz)]
            browser_sends(quiz, {"type": "answer", "team": 1, "colours": wrong[:len(right(quiz))], "copier": False})
    assert quiz.view["winners"] == [0] and quiz.view["scores"][0] >= 3


def test_a_still_picture_for_pages_without_a_kernel():
    bundle = ColourbrainQuiz(Rules(teams=2), seed=1)._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert "Colourbrain" in data["text/html"] and "Pot" in data["text/html"]

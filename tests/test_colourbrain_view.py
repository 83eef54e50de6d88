"""The Colourbrain quiz widget from Python: hot-seat answers stay secret, refusals shown, copier, solo,
any number of teams after a rule change or a loaded save, the quiz master's Next in a paced quiz."""

import dataclasses
import json
import random
from pathlib import Path

import nbformat
import pytest

from colorlab.colourbrain import NextQuestion, Rules, play_game
from colorlab.colourbrain.questions import COLOURS
from colorlab.colourbrain.view import ColourbrainQuiz
from tests.helpers.page import browser_sends
from tests.helpers.quizzes import quiz_steps
from tests.helpers.twins import hidden_twin


def right(widget):
    return list(widget.state.question.answer)


def test_two_teams_answer_in_turn_and_the_right_one_scores():
    quiz = ColourbrainQuiz(Rules(teams=2), names=["Foxes", "Owls"], seed=1)
    assert quiz.view["at_keyboard"] == 0
    browser_sends(quiz, {"type": "answer", "team": 0, "colours": right(quiz), "copier": False})
    assert quiz.view["answers"] == [None, None] and quiz.view["answered"] == [True, False]
    assert quiz.view["at_keyboard"] == 1
    wrong = [c for c in ["red", "blue", "green", "black", "white"] if c not in right(quiz)][: len(right(quiz))]
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


@pytest.mark.parametrize(
    "intent",
    [
        {"type": "answer", "team": 0, "colours": ["teal"], "copier": False},
        {"type": "answer", "team": 0, "colours": [1], "copier": False},
        {"type": "answer", "team": 7, "colours": ["red"], "copier": False},
        {"type": "copy", "team": 0, "colour": "red"},
        {"type": "answer", "team": 0},
        "red",
    ],
)
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
            browser_sends(quiz, {"type": "answer", "team": 1, "colours": wrong[: len(right(quiz))], "copier": False})
    assert quiz.view["winners"] == [0] and quiz.view["scores"][0] >= 3


def test_a_still_picture_for_pages_without_a_kernel():
    bundle = ColourbrainQuiz(Rules(teams=2), seed=1)._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert "Colourbrain" in data["text/html"] and "Pot" in data["text/html"]


# --- the number of teams changes ---------------------------------------------------------------


def wrong(widget):
    return [c for c in COLOURS if c not in right(widget)][: len(right(widget))]


def every_team_answers(widget):
    """Each team at the screen locks an answer in turn (team 0 right, the others wrong)."""
    asked = widget.state.asked
    while widget.state.asked == asked and widget.view["at_keyboard"] is not None:
        team = widget.view["at_keyboard"]
        browser_sends(
            widget,
            {"type": "answer", "team": team, "colours": right(widget) if team == 0 else wrong(widget), "copier": False},
        )
        assert widget.notice["kind"] != "error", widget.notice["text"]


def assert_view_shows(widget, teams, names):
    """The page's view is of the live game, with one entry per team."""
    view, state = widget.view, widget.state
    assert state.teams == teams and view["names"] == names
    assert view["scores"] == list(state.scores) and len(view["answered"]) == len(view["answers"]) == teams
    history = view["history"]
    assert view["asked"] == state.asked and history["live"]
    assert history["step"] == history["length"] == len(widget.record.actions)


def test_the_quiz_follows_the_number_of_teams_set_in_the_rule_editor():
    quiz = ColourbrainQuiz(Rules(teams=2), names=["Foxes", "Owls"], seed=1)
    for teams, names in [(4, ["Foxes", "Owls", "Team 3", "Team 4"]), (3, ["Foxes", "Owls", "Team 3"])]:
        quiz.apply_rules(dataclasses.replace(quiz.state.rules, teams=teams), {"teams"})
        assert_view_shows(quiz, teams, names)
        every_team_answers(quiz)
        assert_view_shows(quiz, teams, names)
        assert quiz.view["last"]["points"] == [teams - 1] + [0] * (teams - 1)


def test_a_solo_quiz_gets_bots_for_added_teams():
    quiz = ColourbrainQuiz(Rules(teams=2), solo=True, seed=3)
    quiz.apply_rules(Rules(teams=4), {"teams"})
    every_team_answers(quiz)
    assert quiz.state.asked == 1 or quiz.state.step == "copying"
    assert_view_shows(quiz, 4, ["Team 1", "Team 2", "Team 3", "Team 4"])


@pytest.mark.parametrize("teams, cut", [(4, 3), (3, 2), (4, 0), (2, 1)])
def test_a_loaded_save_with_another_number_of_teams_is_shown_and_played_on(teams, cut):
    """A save from the middle of a question (`cut` of its teams have answered) in a quiz for two named teams."""
    record = play_game(Rules(teams=teams), seed=teams + 6)  # quizzes where no team plays its copier on question 2
    record = record.undo(
        len(record.actions)
        - next(
            i
            for i, state in enumerate(record.states())
            if state.asked == 2 and sum(a is not None for a in state.answers) == cut
        )
    )
    quiz = ColourbrainQuiz(Rules(teams=2), names=["Foxes", "Owls"], seed=1)
    browser_sends(quiz, {"type": "load", "text": record.to_json()})
    assert quiz.notice["kind"] != "error", quiz.notice["text"]
    names = ["Foxes", "Owls", "Team 3", "Team 4"][:teams]
    assert_view_shows(quiz, teams, names)
    assert quiz.view["answered"] == [t < cut for t in range(teams)] and quiz.view["at_keyboard"] == cut
    every_team_answers(quiz)
    assert_view_shows(quiz, teams, names)
    assert quiz.state.asked == 3


# --- a locked answer stays secret --------------------------------------------------------------


def synced(widget) -> dict:
    """Every trait the page receives and a saved notebook keeps (but links to other widgets, such as the layout)."""
    return {
        name: value
        for name, value in widget.get_state().items()
        if not (isinstance(value, str) and value.startswith("IPY_MODEL_"))
    }


def lists_in(value):
    """Every list inside a JSON-like value, as the set of its texts."""
    if isinstance(value, dict):
        for item in value.values():
            yield from lists_in(item)
    elif isinstance(value, (list, tuple)):
        yield {item for item in value if isinstance(item, str)}
        for item in value:
            yield from lists_in(item)


def test_no_synced_trait_shows_a_locked_answer_before_the_reveal():
    """Two quizzes in which teams locked different answers look the same on every open page, until the reveal."""
    quizzes = [ColourbrainQuiz(Rules(teams=3), names=["Foxes", "Owls", "Bears"], seed=5) for _ in range(2)]
    count = quizzes[0].state.question.count
    locked = [COLOURS[:count], COLOURS[-count:]]
    for quiz, colours in zip(quizzes, locked):
        browser_sends(quiz, {"type": "answer", "team": 0, "colours": list(colours), "copier": False})
        copier = colours is locked[0]
        browser_sends(quiz, {"type": "answer", "team": 1, "colours": list(colours[: count - copier]), "copier": copier})
        assert quiz.view["answered"] == [True, True, False]
    for quiz, colours in zip(quizzes, locked):
        for name, value in synced(quiz).items():
            assert set(colours) not in list(lists_in(value)), f"the synced trait {name!r} shows a locked answer"
    assert synced(quizzes[0]) == synced(quizzes[1])
    for quiz in quizzes:
        browser_sends(quiz, {"type": "answer", "team": 2, "colours": right(quiz), "copier": False})
    assert synced(quizzes[0]) != synced(quizzes[1]), "after the reveal the answers are shown"


@pytest.mark.parametrize("paced", [False, True], ids=["unpaced", "paced"])
@pytest.mark.parametrize("teams", [2, 3, 4])
def test_the_projector_shows_the_same_for_states_that_differ_only_in_hidden_information(teams, paced):
    """Deck order, seed, the solution before the reveal, the locked answers and (while a reveal waits for
    the quiz master's Next) the next question never change the room's view."""
    rng = random.Random(teams)
    rules = Rules(teams=teams, paced=paced)
    quiz = ColourbrainQuiz(rules, seed=0)
    for seed in range(3):
        for state, _, _ in quiz_steps(rules, seed):
            assert quiz.snapshot(state) == quiz.snapshot(hidden_twin(state, None, rng))


# --- the reveal, undo in hot seat, the class notebook ------------------------------------------


def test_the_reveal_names_the_question_just_answered():
    quiz = ColourbrainQuiz(Rules(teams=2), seed=1)
    for number in (1, 2):
        text = quiz.state.question.text
        every_team_answers(quiz)
        assert quiz.view["last"]["number"] == number and quiz.view["last"]["text"] == text


def test_no_team_can_undo_another_teams_locked_answer_while_the_question_is_answered():
    quiz = ColourbrainQuiz(Rules(teams=3), names=["Foxes", "Owls", "Bears"], seed=2)
    browser_sends(quiz, {"type": "answer", "team": 0, "colours": right(quiz), "copier": False})
    before = quiz.record
    assert quiz.view["undo_waits"], "the page hides Undo while teams answer"
    browser_sends(quiz, {"type": "undo"})
    assert quiz.notice["kind"] == "error" and "Undo has to wait" in quiz.notice["text"]
    assert quiz.record == before and quiz.view["answered"] == [True, False, False]


def test_between_questions_undo_takes_back_the_whole_question_and_marks_a_practice_game():
    quiz = ColourbrainQuiz(Rules(teams=2), seed=1)
    every_team_answers(quiz)
    assert not quiz.view["undo_waits"] and quiz.view["practice"]["undo"]
    browser_sends(quiz, {"type": "undo"})
    assert quiz.notice["kind"] == "info" and quiz.record.practice
    assert quiz.state.asked == 0 and quiz.view["answered"] == [False, False] and quiz.view["at_keyboard"] == 0


def test_the_class_notebook_offers_the_rule_editor_to_the_teacher():
    notebook = nbformat.read(Path(__file__).parents[1] / "notebooks" / "30-colourbrain-quiz.ipynb", as_version=4)
    code = [cell.source.strip() for cell in notebook.cells if cell.cell_type == "code"]
    assert "quiz.rule_editor()" in code, "a cell of its own shows the quiz's rule editor"


# --- a paced quiz: the quiz master's Next on this screen -----------------------------------------


def test_in_a_paced_solo_quiz_the_learner_presses_next_and_then_the_bots_answer():
    quiz = ColourbrainQuiz(Rules(teams=3, copier=False, paced=True), solo=True, seed=4)
    browser_sends(quiz, {"type": "answer", "team": 0, "colours": right(quiz), "copier": False})
    upcoming = quiz.state.question
    assert quiz.view["step"] == "shown" and quiz.view["can_move_on"] and quiz.view["question"] is None
    assert quiz.view["last"]["number"] == 1 and upcoming.text not in json.dumps(synced(quiz))
    assert quiz.view["answered"] == [False, False, False], "a bot answered before Next"
    browser_sends(quiz, {"type": "answer", "team": 0, "colours": list(upcoming.answer), "copier": False})
    assert "wait for the quiz master's Next" in quiz.notice["text"] and quiz.state.step == "shown"
    browser_sends(quiz, {"type": "next"})
    assert quiz.notice["kind"] == "info" and quiz.view["step"] == "answering"
    assert quiz.view["question"]["text"] == upcoming.text and quiz.view["answered"] == [False, True, True]


def test_in_a_paced_class_quiz_next_comes_after_every_reveal_and_the_last_names_the_winner():
    quiz = ColourbrainQuiz(Rules(teams=2, copier=False, paced=True, target=2), seed=2)
    while not quiz.state.over:
        every_team_answers(quiz)
        assert quiz.view["step"] == "shown" and quiz.view["at_keyboard"] is None and quiz.view["winners"] == []
        assert quiz.view["decided"] == (max(quiz.state.scores) >= 2)
        browser_sends(quiz, {"type": "next"})
        assert quiz.notice["kind"] != "error", quiz.notice["text"]
    assert quiz.view["winners"] == [0] and not quiz.view["can_move_on"]
    assert quiz.record.actions.count(NextQuestion()) == quiz.state.asked


def test_next_is_refused_in_a_quiz_without_the_quiz_masters_pace():
    quiz = ColourbrainQuiz(Rules(teams=2), seed=1)
    every_team_answers(quiz)
    before = quiz.record
    browser_sends(quiz, {"type": "next"})
    assert quiz.notice["kind"] == "error" and quiz.record == before and not quiz.view["can_move_on"]


def test_in_a_paced_quiz_undo_takes_back_the_next_with_its_question():
    quiz = ColourbrainQuiz(Rules(teams=2, paced=True), seed=1)
    every_team_answers(quiz)
    browser_sends(quiz, {"type": "next"})
    assert quiz.state.step == "answering" and len(quiz.record.actions) == 3
    browser_sends(quiz, {"type": "undo"})
    assert quiz.state.asked == 0 and quiz.view["answered"] == [False, False] and quiz.view["at_keyboard"] == 0
    every_team_answers(quiz)
    browser_sends(quiz, {"type": "undo"})
    assert quiz.state.asked == 0 and quiz.record.actions == ()


def test_a_still_picture_of_a_paced_reveal_keeps_the_next_question_hidden():
    quiz = ColourbrainQuiz(Rules(teams=2, paced=True), seed=1)
    every_team_answers(quiz)
    data = quiz._repr_mimebundle_()
    html = (data[0] if isinstance(data, tuple) else data)["text/html"]
    assert "on show" in html and quiz.state.question.text not in html

"""Colourbrain: the rulebook's scoring example, every pot and copier case, the pile of question cards,
what each team may see, random quizzes, the quiz master's pace, the bank."""

import dataclasses
import itertools
import json
import random
from collections import Counter
from fractions import Fraction

import pytest

from colorlab.colourbrain import (
    Answer,
    Copy,
    NextQuestion,
    Rules,
    bank,
    load_questions,
    new_game,
    observation,
    parse_questions,
    play,
    play_game,
    score_question,
    winners,
)
from colorlab.colourbrain.model import (
    COPIER,
    BadAnswer,
    BadCopy,
    WrongStep,
    action_from_dict,
    action_to_dict,
    box_order,
)
from colorlab.colourbrain.questions import COLOURS
from colorlab.record import GameRecord
from colorlab.rules import GameOver, NotYourTurn
from tests.helpers.quizzes import a_wrong_answer, check_cards, quiz_steps
from tests.helpers.twins import another_answer, hidden_twin

QUIZ = {
    "questions": [
        {
            "id": "t-1",
            "category": "test",
            "text": "Grass",
            "count": 1,
            "answer": ["green"],
            "explanation": "Chlorophyll.",
        },
        {
            "id": "t-2",
            "category": "test",
            "text": "A zebra",
            "count": 2,
            "answer": ["black", "white"],
            "explanation": "Stripes.",
        },
        {
            "id": "t-3",
            "category": "test",
            "text": "Snow",
            "count": 1,
            "answer": ["white"],
            "explanation": "Ice crystals.",
        },
        {
            "id": "t-4",
            "category": "test",
            "text": "A ripe tomato",
            "count": 1,
            "answer": ["red"],
            "explanation": "Lycopene.",
        },
    ]
}


@pytest.fixture
def quiz_file(tmp_path, monkeypatch):
    """A teacher's question file in the notebook's folder (the folder question files are read from)."""
    monkeypatch.chdir(tmp_path)
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


# --- the quiz master's pace ---------------------------------------------------------------------


def test_a_paced_quiz_shows_the_reveal_until_the_quiz_masters_next(quiz_file):
    state = quiz(quiz_file, paced=True)
    state = play(play(state, Answer(0, ("green",))), Answer(1, ("blue",)))
    assert state.step == "shown" and state.asked == 1 and state.scores == (1, 0)
    assert state.last["solution"] == ["green"] and not state.over
    for team in (None, 0, 1):
        seen = observation(state, team)
        assert seen["step"] == "shown" and seen["question"] is None and seen["last"] == state.last
        assert state.question.text not in json.dumps(seen), "the next question reached a view before Next"
    for early in (Answer(0, state.question.answer), Copy(1, "red")):
        with pytest.raises(WrongStep, match="wait for the quiz master's Next"):
            play(state, early)
    moved = play(state, NextQuestion())
    assert moved.step == "answering" and moved.asked == 1 and moved.scores == state.scores
    assert (moved.deck, moved.pot_cards, moved.last) == (state.deck, state.pot_cards, state.last)
    assert observation(moved)["question"]["text"] == state.question.text


def test_next_is_refused_unless_a_paced_reveal_is_on_show(quiz_file):
    plain = play(play(quiz(quiz_file), Answer(0, ("green",))), Answer(1, ("blue",)))
    assert plain.step == "answering" and plain.asked == 1, "without the rule the next question comes at once"
    paced = quiz(quiz_file, teams=3, paced=True)
    copying = play(play(play(paced, Answer(0, ("green",))), Answer(1, ("blue",))), Answer(2, (), copier=True))
    assert copying.step == "copying"
    for state in (quiz(quiz_file), plain, paced, play(paced, Answer(0, ("green",))), copying):
        with pytest.raises(WrongStep, match="Next comes when the answer"):
            play(state, NextQuestion())


def test_the_answer_that_reaches_the_goal_of_a_paced_quiz_waits_for_next_and_that_next_names_the_winner(quiz_file):
    state = quiz(quiz_file, paced=True, target=1)
    state = play(play(state, Answer(0, ("green",))), Answer(1, ("blue",)))
    assert state.step == "shown" and state.decided and winners(state) == [], "a team's screen could name the winner"
    assert observation(state)["question"] is None and observation(state)["winners"] == []
    with pytest.raises(WrongStep):
        play(state, Answer(0, ("green",)))
    state = play(state, NextQuestion())
    assert state.step == "over" and winners(state) == [0] and state.asked == 1
    with pytest.raises(GameOver):
        play(state, NextQuestion())


def test_without_winner_after_next_the_last_answer_of_a_paced_quiz_ends_it(quiz_file):
    state = quiz(quiz_file, paced=True, target=1, winner_after_next=False)
    state = play(play(state, Answer(0, ("green",))), Answer(1, ("blue",)))
    assert state.step == "over" and winners(state) == [0]
    with pytest.raises(GameOver):
        play(state, NextQuestion())


def test_a_paced_quiz_saved_before_winner_after_next_existed_replays_to_its_end():
    record = play_game(Rules(teams=2, paced=True, target=4, winner_after_next=False), seed=3)
    saved = json.loads(record.to_json())
    del saved["rules"]["winner_after_next"]  # as a quiz saved before the rule was written down
    again = GameRecord.from_json(json.dumps(saved))
    assert again.rules == record.rules and again.final_state().over and winners(again.final_state())
    assert again.actions[-1] != NextQuestion(), "the old quiz ended at its last answer, with no Next after it"
    assert Rules.from_dict({"teams": 2}).winner_after_next is False and Rules().winner_after_next is True


def test_when_every_team_plays_its_copier_the_paced_quiz_still_waits_for_next(quiz_file):
    state = quiz(quiz_file, paced=True)
    state = play(play(state, Answer(0, (), copier=True)), Answer(1, (), copier=True))
    assert state.step == "shown" and state.last["copiers_returned"]


def test_the_quiz_masters_next_is_saved_and_read_back(quiz_file):
    assert action_to_dict(NextQuestion()) == {"type": "next"}
    assert action_from_dict({"type": "next"}) == NextQuestion()
    for bad in ({"type": "next", "team": 0}, {"type": "nxt"}):
        with pytest.raises(ValueError):
            action_from_dict(bad)
    record = play_game(Rules(teams=2, paced=True, target=4), seed=3)
    assert NextQuestion() in record.actions
    again = GameRecord.from_json(record.to_json())
    assert again == record and again.final_state() == record.final_state()


# --- the pile of question cards ---------------------------------------------------------------


def ask(state, right_teams):
    """Play the current question: the teams in `right_teams` answer it right, the others wrong."""
    for team in range(state.teams):
        question = state.question
        state = play(state, Answer(team, question.answer if team in right_teams else a_wrong_answer(question)))
    return state


def test_a_pot_question_goes_to_the_back_behind_the_question_that_empties_the_pot(quiz_file):
    state, asked = quiz(quiz_file), []
    ids = state.deck
    for right_teams in [{0, 1}, {0}, {0}, {0}, {1}, {1}]:
        asked.append(state.question.id)
        state = ask(state, right_teams)
    assert asked == [ids[0], ids[1], ids[2], ids[3], ids[1], ids[0]]


def test_a_pot_question_waits_outside_the_box_until_the_pot_is_won(quiz_file):
    ids = quiz(quiz_file).deck
    state = ask(ask(quiz(quiz_file), {0, 1}), {0, 1})
    assert state.pot == 2 and state.pot_cards == (ids[0], ids[1]) and state.deck == (ids[2], ids[3])
    state = ask(state, {0})
    assert state.scores == (3, 0) and state.pot_cards == () and state.deck == (ids[3], ids[2], ids[0], ids[1])


def test_an_empty_box_takes_the_pot_cards_back_and_the_pot_keeps_its_points(quiz_file, tmp_path):
    (tmp_path / "two.json").write_text(json.dumps({"questions": QUIZ["questions"][:2]}))
    state = new_game(Rules(question_file="two.json"), seed=1)
    first = state.question.id
    state = ask(ask(state, {0, 1}), {0, 1})
    assert state.pot == 2 and state.question.id == first
    state = ask(state, {1})
    assert state.scores == (0, 3) and state.pot == 0


# --- the box order: categories take turns, and each quiz cuts the box somewhere else -------------


def categories(ids) -> list[str]:
    """The category of each bank question id, in order."""
    category = {question.id: question.category for question in bank()}
    return [category[question_id] for question_id in ids]


def test_the_box_never_puts_two_questions_of_a_category_side_by_side():
    sizes = Counter(question.category for question in bank())
    assert max(sizes.values()) <= sizes.total() / 2, "the bank should allow it: no category fills half the box"
    box = new_game(Rules(), seed=0).deck
    assert sorted(box) == sorted(question.id for question in bank())
    round_the_box = categories(box + box[:1])
    assert all(a != b for a, b in itertools.pairwise(round_the_box)), "two neighbours share a category"


def test_every_ten_questions_in_a_row_hold_each_category_about_as_often_as_the_bank_does():
    """Wherever a quiz starts, ten questions in a row hold each category within 2 of its share of the bank."""
    sizes = Counter(question.category for question in bank())
    box = new_game(Rules(), seed=0).deck
    for start in range(len(box)):
        ten = Counter(categories(box[start:] + box[:start])[:10])
        for category, size in sizes.items():
            share = Fraction(10 * size, sizes.total())
            assert abs(ten[category] - share) < 2, f"{ten[category]} {category} questions from question {start}"


def test_each_quiz_cuts_the_same_box_at_a_place_drawn_from_its_seed():
    box = list(new_game(Rules(), seed=0).deck)
    starts = []
    for seed in range(1, 21):
        deck = new_game(Rules(), seed).deck
        at = box.index(deck[0])
        assert list(deck) == box[at:] + box[:at], "the box order goes on round from the cut"
        assert new_game(Rules(teams=3), seed).deck == deck, "the same seed cuts at the same place"
        starts.append(at)
    assert len(set(starts)) >= 15, f"quizzes should start at different places, not at {starts}"


def test_in_the_box_each_category_takes_its_turn_spread_evenly():
    """The i-th of a category's n questions sits at i/n of the way; ties go to the category named first."""
    questions = [dataclasses.replace(q, category=c) for q, c in zip(bank(), "aaabbc")]
    category = {q.id: q.category for q in questions}
    assert [category[i] for i in box_order(questions)] == ["a", "b", "c", "a", "b", "a"]
    box, deck = box_order(list(bank())), list(new_game(Rules(), seed=5).deck)
    at = box.index(deck[0])
    assert deck == box[at:] + box[:at]


@pytest.mark.parametrize(
    "action, error",
    [
        (Answer(0, ("green", "red")), BadAnswer),
        (Answer(0, ("teal",)), BadAnswer),
        (Answer(5, ("green",)), Exception),
        (Copy(0, "green"), WrongStep),
    ],
)
def test_bad_answers_are_refused_and_change_nothing(quiz_file, action, error):
    state = quiz(quiz_file)
    snapshot = dataclasses.replace(state)
    with pytest.raises(error):
        play(state, action)
    assert state == snapshot


# --- whole quizzes with invariants -----------------------------------------------------------

VARIANTS = [
    Rules(teams=2),
    Rules(teams=3),
    Rules(teams=4),
    Rules(teams=3, copier_back=True),
    Rules(teams=2, pot_reading="lost when anyone is wrong"),
    Rules(teams=3, copier=False),
    Rules(teams=4, deck_order="shuffled"),
    Rules(teams=2, paced=True),
    Rules(teams=3, paced=True, copier_back=True, deck_order="shuffled"),
    Rules(teams=2, paced=True, winner_after_next=False),
]


def check_pace(rules, state, action, after):
    """A paced quiz waits after every scored question (the last too, unless `winner_after_next` is off); Next changes
    nothing but the step, and after the answer that reached the goal it ends the quiz."""
    scored = after.asked > state.asked
    held = rules.paced and (rules.winner_after_next or not after.decided)
    assert (after.step == "shown") == (scored and held)
    assert after.over == (after.decided and after.step != "shown")
    assert winners(after) == [] or after.over, "a winner named while the last answer waits for Next"
    if isinstance(action, NextQuestion):
        ended = state.decided
        assert state.step == "shown" and after == dataclasses.replace(
            state, shown=False, over=ended, events=after.events
        )
    if after.step == "shown":
        team = random.Random(after.asked).randrange(after.teams)
        with pytest.raises(WrongStep):
            play(after, Answer(team, a_wrong_answer(after.question)))


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: ",".join(f"{k}={v[1]}" for k, v in r.differences().items()))
def test_random_quizzes_keep_every_invariant(rules):
    for seed in range(6):
        state, actions, asked = new_game(rules, seed), [], []
        copying = set()
        for state, action, after in quiz_steps(rules, seed):
            check_cards(state, after)
            check_pace(rules, state, action, after)
            if after.asked > state.asked:
                asked.append(state.question.id)
                if not after.last["copiers_returned"]:
                    final = dict(enumerate(after.last["answers"]))
                    expected, pot = score_question(final, state.question.answer, state.pot, rules)
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
        everything = len(state.questions)
        assert len(set(asked[:everything])) == len(asked[:everything]), "a question came back before all were asked"
        assert max(state.scores) >= rules.goal and winners(state)
        nexts = (state.asked if rules.winner_after_next else state.asked - 1) if rules.paced else 0
        assert actions.count(NextQuestion()) == nexts
        record = GameRecord("colourbrain", rules, seed, tuple(actions))
        assert GameRecord.from_json(record.to_json()).final_state() == state
        with pytest.raises(GameOver):
            play(state, Answer(0, ("red",)))


def test_quizzes_on_a_small_file_go_round_the_box_and_through_the_pot(quiz_file):
    pots = 0
    for teams in (2, 3):
        for seed in range(10):
            for state, _, after in quiz_steps(Rules(teams=teams, question_file=quiz_file), seed, ["hard"]):
                check_cards(state, after)
                pots = max(pots, after.pot)
    assert pots >= 3, "the pot should sometimes hold most of the box"


# --- what each team may see --------------------------------------------------------------------

VIEWERS_GAMES = [(rules, seed) for rules in VARIANTS for seed in range(4)]


def viewers(state):
    return [None, *range(state.teams)]


def test_every_team_and_the_room_can_see_the_quiz_at_every_step():
    for rules, seed in VIEWERS_GAMES:
        for _, _, after in quiz_steps(rules, seed):
            for team in viewers(after):
                shown = observation(after, team)["answers"]
                for other, locked in enumerate(after.answers):
                    visible = locked is not None and (other == team or after.step == "copying")
                    assert shown[other] == (list(locked) if visible else None)


def test_what_a_team_cannot_see_never_changes_its_view():
    rng = random.Random(0)
    for rules, seed in VIEWERS_GAMES:
        for state, _, _ in quiz_steps(rules, seed):
            for team in viewers(state):
                assert observation(state, team) == observation(hidden_twin(state, team, rng), team)


def test_which_colours_a_team_locked_never_changes_the_others_views():
    rng = random.Random(1)
    for rules, seed in VIEWERS_GAMES:
        for state, action, after in quiz_steps(rules, seed):
            if not isinstance(action, Answer) or after.step != "answering" or after.asked > state.asked:
                continue
            other = Answer(action.team, *_split(another_answer(state, action.team, rng)))
            twin = play(state, other)
            for team in viewers(state):
                if team != action.team:
                    assert observation(after, team) == observation(twin, team)


def _split(locked: tuple[str, ...]) -> tuple[tuple[str, ...], bool]:
    """An answer's colours and whether the copier stands in for one."""
    return tuple(c for c in locked if c != COPIER), COPIER in locked


# --- the bank --------------------------------------------------------------------------------


def test_the_bank_has_300_checked_original_questions_across_categories():
    questions = bank()
    assert len(questions) >= 300
    assert len({q.id for q in questions}) == len(questions)
    assert all(q.count == len(q.answer) and set(q.answer) <= set(COLOURS) for q in questions)
    assert all(q.text and q.explanation for q in questions)
    assert len({q.category for q in questions}) >= 8
    assert {q.count for q in questions} >= {1, 2, 3}


@pytest.mark.parametrize(
    "entry, message",
    [
        ({"id": "x", "category": "c", "text": "t", "count": 2, "answer": ["red"], "explanation": "e"}, "count"),
        ({"id": "x", "category": "c", "text": "t", "count": 1, "answer": ["teal"], "explanation": "e"}, "palette"),
        ({"id": "x", "category": "c", "text": " ", "count": 1, "answer": ["red"], "explanation": "e"}, "non-empty"),
        ({"id": "x", "category": "c", "text": "t", "count": 1, "answer": ["red"]}, "fields"),
    ],
)
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

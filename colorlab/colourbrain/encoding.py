"""Colourbrain as numbers, for game-AI libraries: action numbers and observation arrays.

A team's move is one number (so `chosen`, the numbers of a move begun so far, which the
functions below take as every game's encoding does, is always empty here). While a question
is open, the team locks an answer: a set of colours (order does not matter), or the
Colour-Copier with one colour fewer. Every set of 1 to 4 colours has a number, then the
copier with every set of 0 to 3 colours, then, after the reveal, "copy this colour" for each
of the 11 colours. The legal numbers are those that
fit the question asked (as many colours as it asks) and the team's copier. The quiz
master's Next and rule changes are not a team's move and have no number: an environment
plays the Next itself (:func:`table_move`), and cuts short a quiz that may never end
(:data:`MAX_ACTIONS`).

A team's observation holds what the team sees at the table (exactly what the model's
:func:`observation` shows that team, read straight from the state): the question asked (as
its place in the question list: its text is on the card everyone reads), the scores, the pot, who still holds a copier,
who has locked, its own locked answer, the others' answers only once revealed, the copies,
and the last reveal. The box, the pot's cards, the seed and the answer before the reveal
are never in it.

Examples
========

>>> from colorlab.colourbrain import Answer, Rules, new_game
>>> from colorlab.colourbrain.encoding import action_count, action_number, action_of, legal_numbers
>>> action_count(Rules())
804
>>> state = new_game(Rules(), seed=0)
>>> number = legal_numbers(state, 0)[0]
>>> action_of(number, state, 0) == Answer(0, action_of(number, state, 0).colours)
True
>>> action_number(Answer(1, ("white", "red")), Rules()) == action_number(Answer(1, ("red", "white")), Rules())
True
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import combinations

import numpy

from colorlab.colourbrain.model import COPIER, Answer, Copy, NextQuestion, State, can_copy, play, winners
from colorlab.colourbrain.questions import COLOURS, bank, load_questions
from colorlab.colourbrain.rules import Rules
from colorlab.encoding import flat_shape, part_slices, scaled
from colorlab.state import keep_last

MOST_ASKED = 4  # a question asks for 1 to 4 colours (questions.parse_question refuses more)
STEPS = ("answering", "copying", "shown", "over")
HIGHEST = 255.0  # scores, the pot and the goal are shown as shares of this; no quiz with a goal of at most 50 nears it
MAX_ACTIONS = 10_000  # where an environment cuts a quiz short: teams always all right (or all wrong) never score

ANSWERS = tuple((combo, False) for size in range(1, MOST_ASKED + 1) for combo in combinations(COLOURS, size)) + tuple(
    (combo, True) for size in range(MOST_ASKED) for combo in combinations(COLOURS, size)
)
MARKS = len(COLOURS) + 1  # a colour's mark, and one more for anything else (the copier, a copy of nothing)
MARK = {colour: place for place, colour in enumerate(COLOURS)}
ANSWER_NUMBERS = {answer: number for number, answer in enumerate(ANSWERS)}
FIRST_COPY = len(ANSWERS)


def action_count(rules: Rules) -> int:
    """How many action numbers are there: every answer, then a copy of each colour?"""
    return FIRST_COPY + len(COLOURS)


def in_palette_order(colours) -> tuple[str, ...]:
    """The colours in the palette's order, as the numbering lists them."""
    return tuple(sorted(colours, key=COLOURS.index))


def action_number(action: Answer | Copy, rules: Rules) -> int:
    """Which number stands for this answer or copy?"""
    if isinstance(action, Copy) and action.colour in COLOURS:
        return FIRST_COPY + COLOURS.index(action.colour)
    if isinstance(action, Answer) and all(c in COLOURS for c in action.colours):
        key = (in_palette_order(action.colours), action.copier)
        if key in ANSWER_NUMBERS:
            return ANSWER_NUMBERS[key]
    raise ValueError(
        f"{action!r} has no action number: a team's move is an answer of 1 to {MOST_ASKED} "
        "distinct colours (one fewer with the copier) or a copy of one colour"
    )


def numbers_of(action: Answer | Copy, state: State) -> tuple[int]:
    """Which numbers make up this action: one, its :func:`action_number`."""
    return (action_number(action, state.rules),)


def no_part(chosen: tuple[int, ...]) -> None:
    """Refuse a move part chosen: every move here is one number."""
    if chosen:
        raise ValueError(f"{chosen!r} is not part of a move: every Colourbrain move is one number")


def action_of(
    number: int, state: State, team: int, chosen: tuple[int, ...] = (), legal: list[int] | None = None
) -> Answer | Copy:
    """Which action is this number for this team now? Refuse one the rules do not allow now. (`legal`: the legal
    numbers now, when the caller has them already.)"""
    no_part(chosen)
    count = FIRST_COPY + len(COLOURS)
    if isinstance(number, bool) or not isinstance(number, (int, numpy.integer)) or not 0 <= number < count:
        raise ValueError(f"{number!r} is not an action number: they go from 0 to {count - 1}")
    action = _action(team, int(number))
    if legal is None or number not in legal:
        play(state, action)  # refused with the quiz's own reason
    return action


@lru_cache(maxsize=1 << 12)
def _action(team: int, number: int) -> Answer | Copy:
    """The action a (valid) number stands for, for this team (kept: actions are values, and the same few come back
    question after question)."""
    if number >= FIRST_COPY:
        return Copy(team, COLOURS[number - FIRST_COPY])
    colours, copier = ANSWERS[number]
    return Answer(team, colours, copier)


@cache
def numbers_for(count: int, copier: bool) -> tuple[int, ...]:
    """Which numbers are answers with this many colours (with or without the copier)?"""
    return tuple(
        n
        for n, (colours, with_copier) in enumerate(ANSWERS)
        if with_copier == copier and len(colours) + copier == count
    )


def legal_numbers(state: State, team: int, chosen: tuple[int, ...] = ()) -> list[int]:
    """Which action numbers may this team play now (ascending; empty when it has nothing to do)?"""
    no_part(chosen)
    if team not in acting(state):
        return []
    if state.step == "copying":
        return sorted(FIRST_COPY + COLOURS.index(c) for c in can_copy(state, team))
    count = state.question.count
    return list(numbers_for(count, False) + (numbers_for(count, True) if state.copiers[team] else ()))


def acting(state: State) -> list[int]:
    """Which teams have something to do now: lock an answer, or copy a colour after the reveal?"""
    if state.step == "answering":
        return [t for t, answer in enumerate(state.answers) if answer is None]
    if state.step == "copying":
        return [t for t, answer in enumerate(state.answers) if COPIER in answer and state.copied[t] is None]
    return []


def table_move(state: State) -> NextQuestion:
    """What does the table play when no team has anything to do? The quiz master's Next, after a paced reveal."""
    return NextQuestion()


def question_list(rules: Rules) -> tuple:
    """Which questions can this quiz ask, in the order of the bank or the teacher's file?"""
    return tuple(load_questions(rules.question_file)) if rules.question_file else bank()


@cache
def question_places(rules: Rules) -> tuple[dict, dict]:
    """Where does each question's text and each category sit in the observation's one-hots?"""
    questions = question_list(rules)
    categories = dict.fromkeys(q.category for q in questions)
    return (
        {q.text: place for place, q in enumerate(questions)},
        {category: place for place, category in enumerate(categories)},
    )


@cache
def observation_layout(rules: Rules) -> dict[str, tuple[int, ...]]:
    """Which parts make up a team's observation, in order, with their shapes?"""
    texts, categories = question_places(rules)
    teams = rules.teams
    return {
        "team": (teams,),
        "step": (len(STEPS),),
        "question": (len(texts),),
        "colours asked": (MOST_ASKED,),
        "category": (len(categories),),
        "scores": (teams,),
        "pot": (1,),
        "copiers": (teams,),
        "answered": (teams,),
        "goal": (1,),
        "answers": (teams, MARKS),
        "copied": (teams, MARKS),
        "solution": (len(COLOURS),),
        "last answers": (teams, MARKS),
        "last points": (teams,),
        "copiers returned": (1,),
    }


@cache
def observation_shape(rules: Rules) -> tuple[int, ...]:
    """How long is a team's observation?"""
    return flat_shape(observation_layout(rules))


@cache
def observation_places(rules: Rules) -> dict[str, int]:
    """Where each part of a team's observation begins in the flat array (kept per rules: asked at every step)."""
    return {name: place.start for name, place in part_slices(observation_layout(rules)).items()}


def observation(state: State, team: int, chosen: tuple[int, ...] = ()) -> numpy.ndarray:
    """What this team sees, as numbers: the question asked (as one-hots: its place in the question list, how many
    colours it asks, its category), the step, scores, pot, goal, who holds a copier and who has locked, each team's
    answer as colour marks (the others' only once revealed, as the model's :func:`observation` shows them), the
    copies, and the last reveal. Counts are shares of :data:`HIGHEST`.

    It reads the state straight (a learner looks at every step), showing only what the model's view shows the team:
    what every team sees is worked out once a state (:func:`_public`), then the team's own seat and locked answer."""
    no_part(chosen)
    at = observation_places(state.rules)
    flat = _public(state).copy()
    flat[at["team"] + team] = 1
    answer = state.answers[team]
    if answer is not None and state.step != "copying":  # once revealed, every answer is public
        flat[[at["answers"] + team * MARKS + MARK.get(colour, len(COLOURS)) for colour in answer]] = 1
    return flat


@keep_last
def _public(state: State) -> numpy.ndarray:
    """What every team sees of this state, as numbers (read only: the last state's is kept, since every team looks)."""
    rules = state.rules
    at = observation_places(rules)
    step = state.step
    ones = [at["step"] + STEPS.index(step)]
    if step != "shown":  # the next question waits, unseen, while a reveal is on show
        question = state.question
        texts, categories = question_places(rules)
        text, category = texts.get(question.text), categories.get(question.category)
        ones.append(at["colours asked"] + question.count - 1)
        ones += [at["question"] + text] if text is not None else []
        ones += [at["category"] + category] if category is not None else []
    ones += [at["copiers"] + t for t, has in enumerate(state.copiers) if has]
    revealed = step == "copying"
    for t, answer in enumerate(state.answers):
        if answer is None:
            continue
        ones.append(at["answered"] + t)
        if revealed:
            ones += [at["answers"] + t * MARKS + MARK.get(colour, len(COLOURS)) for colour in answer]
    ones += [
        at["copied"] + t * MARKS + MARK.get(copy, len(COLOURS))
        for t, copy in enumerate(state.copied)
        if copy is not None
    ]
    flat = blank_observation(rules).copy()
    last = state.last
    if last is not None:
        ones += [at["solution"] + MARK[colour] for colour in last["solution"] if colour in MARK]
        for t, answer in enumerate(last["answers"]):
            ones += [
                at["last answers"] + t * MARKS + MARK.get(colour, len(COLOURS))
                for colour in ([COPIER] if answer is None else answer)
            ]
        flat[at["last points"] : at["copiers returned"]] = [min(points / HIGHEST, 1.0) for points in last["points"]]
        flat[at["copiers returned"]] = last["copiers_returned"]
    flat[ones] = 1
    flat[at["scores"] : at["copiers"]] = [min(number / HIGHEST, 1.0) for number in (*state.scores, state.pot)]
    flat.flags.writeable = False
    return flat


@cache
def blank_observation(rules: Rules) -> numpy.ndarray:
    """An observation of these rules with only the goal filled in (the same all quiz long): each one starts as a
    copy of it."""
    flat = numpy.zeros(observation_shape(rules), numpy.float32)
    flat[observation_places(rules)["goal"]] = scaled(rules.goal, HIGHEST)
    flat.flags.writeable = False
    return flat


def observation_bounds(rules: Rules) -> tuple[float, float]:
    """The smallest and largest number an observation holds (points are shown as shares of HIGHEST)."""
    return 0.0, 1.0


def scores(state: State) -> list[float]:
    """Each team's points from 0 to 1: a share of the quiz's goal (reaching it counts as 1)."""
    return [scaled(points, state.rules.goal) for points in state.scores]


def returns(state: State) -> list[float]:
    """Each team's result at the end: 1 for a sole win, a shared win split evenly, 0 otherwise."""
    champions = winners(state)
    return [1.0 / len(champions) if t in champions else 0.0 for t in range(state.teams)]

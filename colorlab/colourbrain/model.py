"""Colourbrain as a state and pure transitions.

Each question goes through up to two steps. Every team locks a secret
:class:`Answer` (its colours, and the Colour-Copier in place of one colour if
it plays it). Once all have answered, the answers are revealed; teams that
played the copier then :class:`Copy` one colour that another team played and
that is not already in their answer (a team with nothing to copy is simply
wrong). Then the question is scored, the next one comes up, and the quiz ends
when a team reaches the goal (several at once share the win).

With the rule `paced`, the quiz master sets the pace: once a question is
scored, its reveal stays on show (the step "shown") until the quiz master's
:class:`NextQuestion`, and nobody may answer the next question before then,
nor see it. With `winner_after_next` (the default) the answer that reaches
the goal waits for Next too, and that Next ends the quiz: every screen names
the winner at the same moment as the projector.

If every team plays its copier on the same question, nobody scores, the pot
stays and the copiers go back to the teams.

The question cards are a pile, as in the game's box. The box keeps one fixed
order in which the categories take turns (:func:`box_order`), and each quiz
cuts it at a place drawn from its seed, so quizzes start at different
questions and nobody has to shuffle. The front card is asked, then it goes to
the very back. A card that every team answered right goes into the pot (the
middle of the table) instead; when the pot is won or lost, its cards go to the
very back too, behind the card just asked, in the order they went in. So a pot
question comes back after all the others. Should the box ever be empty (every
card in the pot, which only a tiny question file can cause), the pot's cards go
back into the box and its points stay.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import random
from collections import Counter

from colorlab.colourbrain.questions import COLOURS, Question, bank, load_questions
from colorlab.colourbrain.rules import Rules
from colorlab.colourbrain.scoring import is_right, score_question
from colorlab.rules import ChangeRules, GameOver, IllegalAction, NotYourTurn, RuleError, check_seat
from colorlab.state import evolve

COPIER = "copier"


class UnknownTeam(IllegalAction):
    """A team number that is not in the quiz."""


class BadAnswer(IllegalAction):
    """An answer with the wrong number of colours, unknown or repeated colours, or a copier not at hand."""


class BadCopy(IllegalAction):
    """A copied colour that no other team played, or one already in the answer."""


class WrongStep(IllegalAction):
    """An answer or a copy at the wrong step of a question, or before the quiz master's Next."""


@dataclasses.dataclass(frozen=True)
class Answer:
    """A team's secret answer: colours, and the copier in place of one of them if `copier`."""

    team: int
    colours: tuple[str, ...]
    copier: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "colours", tuple(self.colours))


@dataclasses.dataclass(frozen=True)
class Copy:
    """After the reveal: replace the copier with a colour another team played."""

    team: int
    colour: str


@dataclasses.dataclass(frozen=True)
class NextQuestion:
    """The quiz master moves on from a reveal to the next question (paced quizzes only)."""


Action = Answer | Copy | NextQuestion | ChangeRules


@dataclasses.dataclass(frozen=True)
class State:
    """The scores, the pot, the copiers and the pile of question cards."""

    rules: Rules
    seed: int
    questions: dict  # id -> Question: the bank, or a teacher's own file
    deck: tuple[str, ...]  # the box of question ids, front first: deck[0] is asked now; never shown
    pot_cards: tuple[str, ...] = ()  # ids of the questions in the pot, in the order they went in
    asked: int = 0
    scores: tuple[int, ...] = ()
    pot: int = 0
    copiers: tuple[bool, ...] = ()
    answers: tuple = ()  # per team: None, or the colours it locked (with "copier" in place of one)
    copied: tuple = ()  # per team: None, or the colour copied in place of the copier
    over: bool = False
    shown: bool = False  # paced: the last reveal is on show and the next question waits for the quiz master
    last: dict | None = None  # the last question's reveal: solution, final answers, points
    events: tuple[str, ...] = ()

    @property
    def teams(self) -> int:
        return self.rules.teams

    @property
    def question(self) -> Question:
        """Which question is being asked now?"""
        return self.questions[self.deck[0]]

    @property
    def decided(self) -> bool:
        """Has a team reached the goal (the quiz is over, or its last answer waits for the quiz master's Next)?"""
        return max(self.scores) >= self.rules.goal

    @property
    def step(self) -> str:
        if self.over:
            return "over"
        if self.shown:
            return "shown"
        return "answering" if None in self.answers else "copying"


def box_order(questions: list[Question]) -> list[str]:
    """The box's fixed order of question ids: the categories take turns, each spread evenly.

    The i-th of a category's n questions (in the order of the bank) sits at i/n of the way
    through the box, ties going to the category the bank names first. So every stretch of the
    box mixes the categories in the bank's proportions, and the same box always comes out.
    """
    firsts = list(dict.fromkeys(q.category for q in questions))
    sizes = Counter(q.category for q in questions)
    whole = math.lcm(*sizes.values())  # i/n as i * (whole / n): exact, and whole numbers sort fast
    places, seen = [], Counter()
    for question in questions:
        places.append(
            (
                seen[question.category] * (whole // sizes[question.category]),
                firsts.index(question.category),
                question.id,
            )
        )
        seen[question.category] += 1
    return [question_id for _, _, question_id in sorted(places)]


@functools.cache
def bank_box() -> tuple[str, ...]:
    """The box's order for the colorlab bank, worked out once (every quiz on the bank starts from it)."""
    return tuple(box_order(list(bank())))


def cut(deck: list[str], at: int) -> list[str]:
    """Cut the pile as players cut a deck: the card at `at` comes to the front, the order goes on round."""
    return deck[at:] + deck[:at]


def new_game(rules: Rules = Rules(), seed: int = 0) -> State:
    """Start a quiz: the mixed box cut at a place drawn from the seed (or shuffled), no points, an empty pot."""
    try:
        questions = load_questions(rules.question_file) if rules.question_file else list(bank())
    except (OSError, ValueError) as error:
        raise RuleError("question_file", rules.question_file, f"a readable question file ({error})") from None
    if not questions:
        raise RuleError("question_file", rules.question_file, "a file with at least one question")
    deck = box_order(questions) if rules.question_file else list(bank_box())
    if rules.deck_order == "shuffled":
        random.Random(f"{seed}/deck").shuffle(deck)
    else:
        deck = cut(deck, random.Random(f"{seed}/cut").randrange(len(deck)))
    n = rules.teams
    return State(
        rules=rules,
        seed=seed,
        questions={q.id: q for q in questions},
        deck=tuple(deck),
        scores=(0,) * n,
        copiers=(rules.copier,) * n,
        answers=(None,) * n,
        copied=(None,) * n,
        events=("The first question is asked.",),
    )


def play(state: State, action: Action) -> State:
    """Apply one action and return the new state; refuse an illegal one with a reason."""
    if state.over:
        raise GameOver("the quiz is over")
    if isinstance(action, ChangeRules):
        return action.apply(state)
    if isinstance(action, NextQuestion):
        return _next_question(state)
    check_seat(getattr(action, "team", None), state.teams, UnknownTeam, "team")
    if state.step == "shown":
        raise WrongStep("wait for the quiz master's Next: the answer to the last question is still on show")
    if isinstance(action, Answer):
        return _answer(state, action)
    if isinstance(action, Copy):
        return _copy(state, action)
    raise IllegalAction(f"{type(action).__name__} is not a Colourbrain action")


def _answer(state: State, action: Answer) -> State:
    if state.step != "answering":
        raise WrongStep("every team has answered: teams with a copier now copy a colour")
    if state.answers[action.team] is not None:
        raise NotYourTurn(f"team {action.team} has already locked its answer")
    count = state.question.count
    colours = action.colours
    if not all(isinstance(c, str) and c in COLOURS for c in colours) or len(set(colours)) != len(colours):
        raise BadAnswer(f"colours must be distinct names from {', '.join(COLOURS)}")
    if action.copier and not state.copiers[action.team]:
        raise BadAnswer(f"team {action.team} has no Colour-Copier left")
    if len(colours) + action.copier != count:
        raise BadAnswer(f"the question asks for {count} colour(s); this answer has {len(colours) + action.copier}")
    locked = colours + ((COPIER,) if action.copier else ())
    state = evolve(
        state, answers=_with(state.answers, action.team, locked), events=(f"Team {action.team} locks its answer.",)
    )
    if state.step != "copying":
        return state
    copying = [t for t, a in enumerate(state.answers) if COPIER in a]
    if len(copying) == state.teams:
        return _next(
            state,
            dict.fromkeys(range(state.teams), 0),
            state.pot,
            returned=True,
            events=("Every team played its Colour-Copier: nobody scores, and the copiers go back.",),
        )
    return _settle_copies(state)


def _next_question(state: State) -> State:
    if state.step != "shown":
        raise WrongStep(
            "Next comes when the answer to a question is on show, and only in a quiz the quiz master moves on"
        )
    if state.decided:
        return evolve(state, shown=False, over=True, events=("The quiz master names the winner: the quiz is over.",))
    return evolve(state, shown=False, events=("The quiz master moves on: the next question is asked.",))


def can_copy(state: State, team: int) -> list[str]:
    """Which colours may this team copy now (played by another team, not yet in its answer)?"""
    played = {c for t, a in enumerate(state.answers) if t != team and a for c in a if c != COPIER}
    return sorted(played - set(state.answers[team]))


def _copy(state: State, action: Copy) -> State:
    if state.step != "copying":
        raise WrongStep("teams copy after every team has answered")
    if COPIER not in state.answers[action.team] or state.copied[action.team] is not None:
        raise BadCopy(f"team {action.team} has no copier to replace")
    options = can_copy(state, action.team)
    if action.colour not in options:
        raise BadCopy(f"{action.colour!r} cannot be copied: choose one of {', '.join(options) or 'nothing'}")
    state = evolve(
        state,
        copied=_with(state.copied, action.team, action.colour),
        events=(f"Team {action.team} copies {action.colour}.",),
    )
    return _settle_copies(state)


def _settle_copies(state: State) -> State:
    """Mark copiers with nothing to copy as wrong; score once every copier is resolved."""
    if not any(COPIER in answer for answer in state.answers):  # most questions: nobody played a copier
        return _score(state)
    copied = list(state.copied)
    events = state.events
    for team, answer in enumerate(state.answers):
        if COPIER in answer and copied[team] is None and not can_copy(state, team):
            copied[team] = ""
            events += (f"Team {team} has no colour to copy: its answer is wrong.",)
    state = evolve(state, copied=tuple(copied), events=events)
    if any(COPIER in a and c is None for a, c in zip(state.answers, state.copied)):
        return state
    return _score(state)


def final_answers(state: State) -> list:
    """Each team's answer after the copies (None for a copier with nothing to copy)."""
    final = []
    for answer, copy in zip(state.answers, state.copied):
        if COPIER not in answer:
            final.append(list(answer))
        else:
            final.append(None if not copy else [c if c != COPIER else copy for c in answer])
    return final


def _score(state: State) -> State:
    question = state.question
    final = final_answers(state)
    points, pot = score_question(dict(enumerate(final)), question.answer, state.pot, state.rules)
    right = [is_right(a, question.answer) for a in final]
    copiers = list(state.copiers)
    for team, answer in enumerate(state.answers):
        if COPIER in answer:
            copiers[team] = False
    if state.rules.copier_back and state.teams >= 3 and right.count(False) == 1:
        loser = right.index(False)
        if not copiers[loser] and state.rules.copier:
            copiers[loser] = True
    state = evolve(state, copiers=tuple(copiers))
    said = ", ".join(question.answer)
    return _next(
        state,
        points,
        pot,
        returned=False,
        events=(
            f"The answer: {said}. {question.explanation}",
            "Right: "
            + (", ".join(f"team {t}" for t, ok in enumerate(right) if ok) or "nobody")
            + ("; everyone was right, so the pot grows." if all(right) else "."),
        ),
        final=final,
    )


def _next(state: State, points: dict, pot: int, returned: bool, events: tuple, final=None) -> State:
    """Add the points, put the card away, move on to the next question, and end the quiz at the goal.

    In a paced quiz the next question waits (the step "shown") until the quiz master's Next.
    """
    scores = tuple(s + points.get(t, 0) for t, s in enumerate(state.scores))
    last = {
        "question": state.question.id,
        "solution": list(state.question.answer),
        "answers": final if final is not None else [None] * state.teams,
        "points": [points.get(t, 0) for t in range(state.teams)],
        "copiers_returned": returned,
    }
    deck, pot_cards = _put_away(state.deck, state.pot_cards, grows=pot > state.pot, empties=pot == 0)
    decided = max(scores) >= state.rules.goal
    held = state.rules.paced and (not decided or state.rules.winner_after_next)
    over = decided and not held
    return evolve(
        state,
        scores=scores,
        pot=pot,
        deck=deck,
        pot_cards=pot_cards,
        asked=state.asked + 1,
        last=last,
        answers=(None,) * state.teams,
        copied=(None,) * state.teams,
        over=over,
        shown=held,
        events=events
        + (
            ("The quiz is over.",)
            if over
            else ("The goal is reached: the quiz master names the winner.",)
            if decided
            else ()
        ),
    )


def _put_away(deck: tuple[str, ...], pot_cards: tuple[str, ...], grows: bool, empties: bool) -> tuple:
    """Where do the cards lie after the front card was asked: (the box, the pot's cards)?

    The card goes into the pot if the pot grows, else to the very back of the box; an emptied
    pot sends its cards to the back behind it. An empty box takes the pot's cards back.
    """
    card, box = deck[0], deck[1:]
    if grows:
        pot_cards += (card,)
    else:
        box += (card,)
    if empties:
        box, pot_cards = box + pot_cards, ()
    if not box:
        box, pot_cards = pot_cards, ()
    return box, pot_cards


def winners(state: State) -> list[int]:
    """Which teams reached the goal (all of them share the win)? Empty while the quiz goes on."""
    return [t for t, s in enumerate(state.scores) if s >= state.rules.goal] if state.over else []


def observation(state: State, team: int | None = None) -> dict:
    """What may the room (or one team) see? Locked answers stay hidden until the reveal, but a team sees its own.

    The box, the pot's cards, the seed and the current question's answer are never shown; while a
    reveal waits for the quiz master's Next ("shown"), neither is the next question (`question` is None).
    """
    question = state.question
    revealed = state.step == "copying"
    asked = (
        None
        if state.step == "shown"
        else {"text": question.text, "count": question.count, "category": question.category}
    )
    return {
        "game": "colourbrain",
        "step": state.step,
        "asked": state.asked,
        "question": asked,
        "scores": list(state.scores),
        "pot": state.pot,
        "copiers": list(state.copiers),
        "answered": [a is not None for a in state.answers],
        "answers": [
            list(a) if a is not None and (revealed or t == team) else None for t, a in enumerate(state.answers)
        ],
        "copied": list(state.copied),
        "goal": state.rules.goal,
        "last": state.last,
        "over": state.over,
        "winners": winners(state),
        "events": list(state.events),
    }


def _with(items: tuple, index: int, value) -> tuple:
    return items[:index] + (value,) + items[index + 1 :]


def action_to_dict(action: Action) -> dict:
    """Which plain JSON values describe this action?"""
    if isinstance(action, ChangeRules):
        return action.to_dict()
    if isinstance(action, NextQuestion):
        return {"type": "next"}
    if isinstance(action, Answer):
        return {"type": "answer", "team": action.team, "colours": list(action.colours), "copier": action.copier}
    return {"type": "copy", "team": action.team, "colour": action.colour}


def action_from_dict(data: dict) -> Action:
    """Read an action written by :func:`action_to_dict`, refusing anything malformed."""
    if isinstance(data, dict) and data.get("type") == "rules":
        return ChangeRules.from_dict(data)
    fields = {"answer": {"type", "team", "colours", "copier"}, "copy": {"type", "team", "colour"}, "next": {"type"}}
    if not isinstance(data, dict) or data.get("type") not in fields or set(data) != fields[data["type"]]:
        raise ValueError(
            "an action is an answer {team, colours, copier}, a copy {team, colour} or the quiz master's next {}"
        )
    if data["type"] == "next":
        return NextQuestion()
    if isinstance(data["team"], bool) or not isinstance(data["team"], int):
        raise ValueError("team must be a whole number")
    if data["type"] == "copy":
        if not isinstance(data["colour"], str):
            raise ValueError("colour must be a colour name")
        return Copy(data["team"], data["colour"])
    if not isinstance(data["colours"], list) or not isinstance(data["copier"], bool):
        raise ValueError("colours must be a list and copier true or false")
    return Answer(data["team"], tuple(data["colours"]), data["copier"])


def outcome(final: State, actions: int, record=None) -> dict:
    """The numbers an experiment keeps about one finished game (a comeback: the winner once trailed by 3+)."""
    behind = 0
    if record is not None:
        champions = winners(final)
        for state in record.states():
            behind = max(behind, max(state.scores) - min(state.scores[t] for t in champions))
    return {
        "scores": list(final.scores),
        "winners": winners(final),
        "rounds": final.asked,
        "actions": actions,
        "end": "a team reached the goal",
        "comeback": behind >= 3,
    }

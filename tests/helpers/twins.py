"""Twin states: the same game with everything a seat cannot see dealt again (other hands, piles, seed, answers).

A seat's view of a state and of its twin must be the same: tests/test_tables_views.py checks the tables'
views, the games' own tests their widgets and observations.
"""

from __future__ import annotations

import dataclasses
import random

from colorlab.colourbrain.model import COPIER
from colorlab.colourbrain.questions import COLOURS


def deal_again(cards: list, sizes: list[int], rng: random.Random) -> list[tuple]:
    """The same cards shuffled and dealt again into piles of these sizes."""
    cards = list(cards)
    rng.shuffle(cards)
    piles, start = [], 0
    for size in sizes:
        piles.append(tuple(cards[start : start + size]))
        start += size
    return piles


def colorfox_twin(state, seat, rng):
    """The same table with the other hands and the deck dealt again from their cards, and another seed."""
    hidden = [p for p in range(state.players) if p != seat]
    cards = [card for p in hidden for card in state.hands[p]] + list(state.deck)
    *hands, deck = deal_again(cards, [len(state.hands[p]) for p in hidden] + [len(state.deck)], rng)
    dealt = list(state.hands)
    for p, hand in zip(hidden, hands):
        dealt[p] = hand
    return dataclasses.replace(state, hands=tuple(dealt), deck=deck, seed=state.seed + 1)


def colorium_twin(state, seat, rng):
    """The same boards and dice with another seed (so other dice in the rounds to come)."""
    return dataclasses.replace(state, seed=state.seed + 1 + rng.randrange(1000))


def colorform_twin(state, seat, rng):
    """The same face-up cards with the figure pile, the cards under the layout and the task piles dealt again."""
    heights = [len(stack) - 1 for stack in state.layout]
    under = [card for stack in state.layout for card in stack[:-1]]
    *unders, pile = deal_again(under + list(state.figure_pile), heights + [len(state.figure_pile)], rng)
    layout = tuple(cards + (stack[-1],) for cards, stack in zip(unders, state.layout))
    tasks = deal_again(state.task_pile, [len(state.task_pile)], rng)[0]
    own = deal_again([card for pile in state.own_piles for card in pile], [len(pile) for pile in state.own_piles], rng)
    return dataclasses.replace(
        state, layout=layout, figure_pile=pile, task_pile=tasks, own_piles=tuple(own), seed=state.seed + 1
    )


def another_answer(state, team, rng) -> tuple[str, ...]:
    """Some other answer this team could have locked (the copier too, if it still has it)."""
    copier = state.copiers[team] and rng.random() < 0.5
    return tuple(rng.sample(COLOURS, state.question.count - copier)) + ((COPIER,) if copier else ())


def hidden_twin(state, team, rng):
    """The same quiz with everything that `team` (None: the room) cannot see changed.

    The box is reshuffled behind the current card, the seed differs, the current question has
    another answer and explanation, and before the reveal the other teams locked other answers.
    While a reveal waits for the quiz master's Next, the next question is another one altogether.
    """
    question = state.question
    box = list(state.deck[1:])
    rng.shuffle(box)
    solution = tuple(rng.sample([c for c in COLOURS if c not in question.answer], question.count))
    other = (
        {
            "text": "Another question?",
            "category": "another",
            "count": question.count % 3 + 1,
            "answer": tuple(COLOURS[: question.count % 3 + 1]),
        }
        if state.step == "shown"
        else {"answer": solution}
    )
    questions = {**state.questions, question.id: dataclasses.replace(question, **other, explanation="Another reason.")}
    answers = state.answers
    if state.step == "answering":
        answers = tuple(
            a if a is None or t == team else another_answer(state, t, rng) for t, a in enumerate(state.answers)
        )
    return dataclasses.replace(
        state, seed=state.seed + 1, deck=(question.id, *box), questions=questions, answers=answers
    )

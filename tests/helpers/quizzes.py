"""Colourbrain quizzes as several tests play and check them: bots' quizzes step by step, wrong answers, the cards."""

from __future__ import annotations

import random

from colorlab.colourbrain import QuizBot, new_game, next_action, play
from colorlab.colourbrain.questions import COLOURS


def a_wrong_answer(question) -> tuple[str, ...]:
    """Which colours, as many as the question asks for, are surely not its answer?"""
    return tuple(c for c in COLOURS if c not in question.answer)[: question.count]


def quiz_steps(rules, seed, levels=("easy", "medium", "hard")):
    """Yield (state, action, state after) through one quiz between bots of random levels."""
    rng = random.Random(seed)
    agents = [QuizBot(rng.choice(levels), seed=seed * 10 + t) for t in range(rules.teams)]
    state = new_game(rules, seed)
    while not state.over:
        action = next_action(state, agents)
        after = play(state, action)
        yield state, action, after
        state = after


def check_cards(state, after):
    """Every card lies once in the box or the pot; an asked card goes where the rulebook puts it."""
    assert sorted(after.deck + after.pot_cards) == sorted(after.questions), "a question card was lost or doubled"
    assert after.deck and len(after.pot_cards) <= after.pot
    if after.asked == state.asked:
        assert (after.deck, after.pot_cards) == (state.deck, state.pot_cards)
        return
    card, waiting = state.deck[0], state.deck[1:]
    if not waiting and after.pot > state.pot:
        assert after.deck == state.pot_cards + (card,) and after.pot_cards == (), "an empty box takes the pot back"
    elif after.pot > state.pot:
        assert after.deck == waiting and after.pot_cards == state.pot_cards + (card,), "a pot card waits aside"
    else:
        assert after.deck[: len(waiting) + 1] == waiting + (card,), "an asked card goes to the very back"
        returned = after.deck[len(waiting) + 1 :]
        assert returned == (state.pot_cards if after.pot == 0 else ()), "the pot's cards go back when it empties"

"""Quiz bots with a knowledge level per category, for simulations and solo play.

A bot knows the answer to a question with the probability given for its
category (or its overall level). Not knowing, it plays its Colour-Copier if it
still has it and the copier strategy says so, or guesses colours at random.
When copying, it takes the colour most teams played. In a paced quiz, between
bots, the quiz master's Next comes as soon as a reveal is on show.
"""

from __future__ import annotations

from collections import Counter

from colorlab.agents import SeededAgent, play_out, seated_bots
from colorlab.colourbrain.model import COPIER, Answer, Copy, NextQuestion, State, can_copy
from colorlab.colourbrain.questions import COLOURS
from colorlab.colourbrain.rules import Rules
from colorlab.record import GameRecord

LEVELS = {"easy": 0.35, "medium": 0.6, "hard": 0.85}


class QuizBot(SeededAgent):
    """A team that knows a share of the answers, per category, and uses its copier when unsure."""

    def __init__(
        self,
        level: str = "medium",
        seed: int = 0,
        knowledge: dict[str, float] | None = None,
        copier_when_unsure: float = 0.7,
        name: str | None = None,
    ):
        super().__init__(level, seed, name)
        self.knowledge = dict(knowledge or {})
        self.copier_when_unsure = copier_when_unsure

    def knows(self, category: str) -> float:
        """What is the chance this bot knows an answer in this category?"""
        return self.knowledge.get(category, LEVELS[self.level])

    def act(self, state: State, team: int):
        """Which answer (or copy) does this team give now? (None: nothing, such as while a reveal waits for Next.)"""
        if state.step not in ("answering", "copying"):
            return None
        if state.step == "copying":
            if COPIER not in state.answers[team] or state.copied[team] is not None:
                return None
            options = can_copy(state, team)
            played = Counter(c for t, a in enumerate(state.answers) if t != team for c in a if c in options)
            return Copy(team, max(options, key=lambda c: (played[c], c)))
        if state.answers[team] is not None:
            return None
        question = state.question
        if self.rng.random() < self.knows(question.category):
            return Answer(team, question.answer)
        if state.copiers[team] and self.rng.random() < self.copier_when_unsure:
            guess = self.rng.sample(COLOURS, question.count - 1)
            return Answer(team, tuple(guess), copier=True)
        return Answer(team, tuple(self.rng.sample(COLOURS, question.count)))


def next_action(state: State, agents: list):
    """What happens next: the quiz master's Next on a reveal, else the next team still to answer, or still to copy."""
    if state.step == "shown":
        return NextQuestion()
    for team, agent in enumerate(agents):
        action = agent.act(state, team)
        if action is not None:
            return action
    raise RuntimeError("no team has anything to do")


def play_game(
    rules: Rules = Rules(), agents: list | None = None, seed: int = 0, max_actions: int = 20_000
) -> GameRecord:
    """Play a whole quiz between bots (by default a medium QuizBot at every team) and return its record."""
    agents = agents or seated_bots([QuizBot] * rules.teams, seed)
    return play_out("colourbrain", rules, agents, seed, next_action, max_actions)

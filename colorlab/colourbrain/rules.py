"""Colourbrain's rules: one frozen dataclass, one field per rule or edition decision."""

from __future__ import annotations

import dataclasses
from typing import Any, cast

from colorlab.rules import RulesBase, rule

POT_READINGS = ("winners take the pot", "lost when anyone is wrong")


@dataclasses.dataclass(frozen=True)
class Rules(RulesBase):
    """The rules of one Colourbrain quiz (the colorlab edition by default)."""

    teams: int = rule(2, "Teams", "How many teams answer (a team may be one person).", low=2, high=4)
    target: int = rule(
        0, "Target", "Points that win. 0 means the edition's choice: 10 with two teams, 15 otherwise.", low=0, high=50
    )
    pot_reading: str = rule(
        "winners take the pot",
        "Pot reading",
        "The rulebook can be read two ways. winners take the pot: "
        "when not everyone is right, the right teams also win the pot. lost when anyone is wrong: a "
        "single wrong answer empties the pot, so it is never won.",
        choices=POT_READINGS,
        live=True,
    )
    copier: bool = rule(True, "Colour-Copier", "Does each team have a Colour-Copier card?")
    copier_back: bool = rule(
        False,
        "Copier back (3+ teams)",
        "Variant: a team that alone answered wrongly takes its used Colour-Copier back. Meant for three or more teams.",
        live=True,
    )
    deck_order: str = rule(
        "box",
        "Deck order",
        "box: nobody shuffles. The box keeps one fixed order in which the "
        "categories take turns (each spread evenly through the box), and each new quiz cuts it at a "
        "place drawn from the seed, as players cut a deck, so quizzes start at different questions. "
        "shuffled: an order drawn from the seed. Each question asked goes to the back of the box, so "
        "none repeats before all have been asked. A question every team got right waits in the pot; "
        "when the pot is won or lost, its questions go to the back behind the one just asked.",
        choices=("box", "shuffled"),
    )
    paced: bool = rule(
        False,
        "Quiz master moves on",
        "On: after each answer is shown, the quiz waits until the quiz master "
        "presses Next (on the projector, or on this screen when playing alone), so every team reads the answer "
        "before the next question comes. Off: the next question comes at once.",
    )
    winner_after_next: bool = rule(
        True,
        "Winner after Next",
        "With the quiz master moving on: the answer that reaches the goal also waits for Next, and only then is the "
        "winner named on every screen, so that no team's screen names it before the projector does. Off: the quiz "
        "ends with that answer (as quizzes saved before this rule existed do).",
    )
    question_file: str = rule(
        "",
        "Own questions",
        "Name of a teacher's question file in the bank's JSON format; empty: "
        "the colorlab bank. It is read only from the notebook's folder (or the folder chosen with "
        "colourbrain.questions.allow_folder), as a plain file of at most 1 MB. Set in code only, "
        "never from the page. A saved quiz replays only where that file is.",
        editable=False,
    )

    @classmethod
    def from_dict(cls, values: Any) -> Rules:
        """Build rules from plain values; a quiz saved before `winner_after_next` existed ended at its last answer."""
        if isinstance(values, dict) and "winner_after_next" not in values:
            values = {**values, "winner_after_next": False}
        return cast(Rules, super().from_dict(values))

    @property
    def players(self) -> int:
        """Teams are the players of a quiz."""
        return self.teams

    @property
    def goal(self) -> int:
        """How many points win this quiz?"""
        return self.target or (10 if self.teams == 2 else 15)

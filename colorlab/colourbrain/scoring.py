"""Scoring one question: who was right, who scores, and what happens to the pot.

Examples
========

The rulebook's example: two teams right, two wrong, so each right team scores 2.

>>> from colorlab.colourbrain.scoring import score_question
>>> answers = {"A": ["red", "white"], "B": ["white", "red"], "C": ["red", "blue"], "D": ["green"]}
>>> score_question(answers, ["red", "white"])
({'A': 2, 'B': 2, 'C': 0, 'D': 0}, 0)
>>> score_question({"A": ["red"], "B": ["red"]}, ["red"], pot=1)
({'A': 0, 'B': 0}, 2)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from colorlab.colourbrain.rules import Rules


def is_right(answer: Sequence[str] | None, solution: Sequence[str]) -> bool:
    """Is this answer exactly the solution's colours (as many as asked, order free)?"""
    return answer is not None and len(answer) == len(solution) and sorted(answer) == sorted(solution)


def score_question(answers: Mapping, solution: Sequence[str], pot: int = 0, rules: Rules = Rules()) -> tuple[dict, int]:
    """Score one question: (points for each team, the pot afterwards).

    Every team right: nobody scores and the pot grows by one. Otherwise each
    right team scores one point per wrong team, plus the pot under the default
    reading; either way the pot empties.
    """
    right = {team: is_right(answer, solution) for team, answer in answers.items()}
    wrong = sum(not ok for ok in right.values())
    if not wrong:
        return dict.fromkeys(answers, 0), pot + 1
    bonus = pot if rules.pot_reading == "winners take the pot" else 0
    return {team: (wrong + bonus if ok else 0) for team, ok in right.items()}, 0

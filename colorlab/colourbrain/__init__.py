"""Colourbrain: a team colour quiz with a Colour-Copier and a points pot.

The public face: the rules, the question bank, scoring, the model and the quiz bots.
The widget lives in ``colorlab.colourbrain.view`` (imported on demand).
"""

from colorlab.colourbrain.agents import QuizBot, next_action, play_game
from colorlab.colourbrain.model import Answer, Copy, NextQuestion, State, can_copy, new_game, observation, play, winners
from colorlab.colourbrain.questions import Question, bank, load_questions, parse_questions
from colorlab.colourbrain.rules import Rules
from colorlab.colourbrain.scoring import is_right, score_question

__all__ = [
    "Answer",
    "Copy",
    "NextQuestion",
    "Question",
    "QuizBot",
    "Rules",
    "State",
    "bank",
    "can_copy",
    "is_right",
    "load_questions",
    "new_game",
    "next_action",
    "observation",
    "parse_questions",
    "play",
    "play_game",
    "score_question",
    "winners",
]

"""Colourbrain, declared once for every shared layer (records, experiments, tables, classroom, game-AI bridges)."""

from functools import partial

from colorlab.colourbrain.agents import LEVELS, QuizBot, play_game
from colorlab.colourbrain.model import action_from_dict, action_to_dict, new_game, outcome, play
from colorlab.colourbrain.rules import Rules
from colorlab.games import Game, declare

GAME = declare(
    Game(
        name="colourbrain",
        title="Colourbrain",
        about="A colour quiz: each seat is a team.",
        rules_type=Rules,
        new_game=new_game,
        play=play,
        action_from_dict=action_from_dict,
        action_to_dict=action_to_dict,
        play_game=play_game,
        outcome=outcome,
        bots={"QuizBot": QuizBot, **{f"QuizBot ({level})": partial(QuizBot, level) for level in LEVELS}},
        default_bot="QuizBot",
        table="colorlab.colourbrain.table:TABLE",
        widget="colorlab.colourbrain.view:ColourbrainQuiz",
        projector="colorlab.colourbrain.projector:ColourbrainProjector",
        encoding="colorlab.colourbrain.encoding",
        simultaneous=True,
        seat_word="team",
    )
)

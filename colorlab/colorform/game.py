"""Col-Or-Form, declared once for every shared layer (records, experiments, tables, classroom)."""

from functools import partial

from colorlab.colorform.agents import LEVELS, ReactionBot
from colorlab.colorform.model import action_from_dict, action_to_dict, new_game, outcome, play
from colorlab.colorform.playout import play_game
from colorlab.colorform.rules import Rules
from colorlab.games import Game, declare

GAME = declare(
    Game(
        name="colorform",
        title="Col-Or-Form",
        about="Be the first to match a task card and call STOP.",
        rules_type=Rules,
        new_game=new_game,
        play=play,
        action_from_dict=action_from_dict,
        action_to_dict=action_to_dict,
        play_game=play_game,
        outcome=outcome,
        bots={
            "ReactionBot": ReactionBot,
            **{f"ReactionBot ({level})": partial(ReactionBot, level) for level in LEVELS},
        },
        default_bot="ReactionBot",
        table="colorlab.colorform.table:TABLE",
        widget="colorlab.colorform.view:ColorFormGame",
        room_picture="colorlab.colorform.picture:room_svg",
        why_no_encoding="it is a real-time race (who calls STOP first, and how fast), which the steps of a "
        "game-AI library cannot time honestly",
    )
)

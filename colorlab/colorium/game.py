"""Colorium, declared once for every shared layer (records, experiments, tables, classroom, game-AI bridges)."""

from colorlab.colorium.agents import GreedyBot, MissionBot, RandomBot, SearchBot, play_game
from colorlab.colorium.model import action_from_dict, action_to_dict, new_game, outcome, play
from colorlab.colorium.rules import Rules
from colorlab.games import Game, declare

GAME = declare(
    Game(
        name="colorium",
        title="Colorium",
        about="Pick dice and draw shapes on your grid.",
        rules_type=Rules,
        new_game=new_game,
        play=play,
        action_from_dict=action_from_dict,
        action_to_dict=action_to_dict,
        play_game=play_game,
        outcome=outcome,
        bots={
            "RandomBot": RandomBot,
            "GreedyBot": GreedyBot,
            "MissionBot": MissionBot,
            "SearchBot": SearchBot,
            "SearchBot (quick)": SearchBot.quick,
        },
        default_bot="RandomBot",
        table_bots=("RandomBot", "GreedyBot", "MissionBot"),
        table="colorlab.colorium.table:TABLE",
        widget="colorlab.colorium.view:ColoriumGame",
        room_picture="colorlab.colorium.picture:room_svg",
        encoding="colorlab.colorium.encoding",
        spiel="colorlab.colorium.spiel:ColoriumSpielGame",
    )
)

"""ColorFox, declared once for every shared layer (records, experiments, tables, classroom, game-AI bridges)."""

from colorlab.colorfox.agents import GreedyBot, RandomBot, SearchBot, SetBuilder, play_game
from colorlab.colorfox.model import action_from_dict, action_to_dict, new_game, outcome, play
from colorlab.colorfox.rules import Rules
from colorlab.games import Game, declare

GAME = declare(
    Game(
        name="colorfox",
        title="ColorFox",
        about="Place cards so that colours meet, collect sticks, score sets.",
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
            "SetBuilder": SetBuilder,
            "SearchBot": SearchBot,
            "SearchBot (quick)": SearchBot.quick,
        },
        default_bot="RandomBot",
        table_bots=("RandomBot", "GreedyBot", "SetBuilder"),
        table="colorlab.colorfox.table:TABLE",
        widget="colorlab.colorfox.view:ColorFoxGame",
        room_picture="colorlab.colorfox.picture:room_svg",
        encoding="colorlab.colorfox.encoding",
        spiel="colorlab.colorfox.spiel:ColorFoxSpielGame",
    )
)

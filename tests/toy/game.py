"""The toy game's one declaration: all that colorlab's shared layers learn of it."""

from colorlab.games import Game, declare
from tests.toy.agents import CleverBot, RandomBot, play_game
from tests.toy.model import action_from_dict, action_to_dict, new_game, outcome, play
from tests.toy.rules import Rules

GAME = declare(
    Game(
        name="toy",
        title="Take the Last",
        about="Take one to three counters; whoever takes the last one wins.",
        rules_type=Rules,
        new_game=new_game,
        play=play,
        action_from_dict=action_from_dict,
        action_to_dict=action_to_dict,
        play_game=play_game,
        outcome=outcome,
        bots={"RandomBot": RandomBot, "CleverBot": CleverBot},
        default_bot="RandomBot",
        table="tests.toy.table:TABLE",
        widget="tests.toy.view:ToyWidget",
    )
)

"""colorlab's games as OpenSpiel games: ``import colorlab.openspiel`` registers them.

Every declared game with a ``spiel`` part (its OpenSpiel game class, in its folder's
``spiel.py``) is registered as ``python_colorlab_<game>``, with every rule of its
``Rules`` as a game parameter. What those classes share is in :mod:`colorlab.spiel`.

Examples
========

>>> import pyspiel
>>> import colorlab.openspiel
>>> from colorlab.games import all_games
>>> offered = [game.name for game in all_games() if f"python_colorlab_{game.name}" in pyspiel.registered_names()]
>>> offered
['colorfox', 'colorium']
>>> board = pyspiel.load_game(f"python_colorlab_{offered[1]}", {"players": 2, "width": 6})
>>> board.num_players(), board.rules.width
(2, 6)
"""

import pyspiel

from colorlab.games import all_games


def register_games() -> None:
    """Make every declared game that has an OpenSpiel class loadable, as python_colorlab_<game>."""
    for game in all_games():
        if game.has("spiel"):
            spiel_game = game.part("spiel")
            pyspiel.register_game(spiel_game.GAME_TYPE, spiel_game)


register_games()
